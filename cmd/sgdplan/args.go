package main

import (
	"fmt"
	"math"

	"github.com/urfave/cli/v2"
)

// noArgs parses c's flags wherever they stand and refuses positional
// arguments: a command that reads none would otherwise ignore a path its
// user meant for it.
func noArgs(cmd string, c *cli.Context) error {
	args, err := interspersed(c)
	if err != nil {
		return interspersedError(c, cmd, err)
	}
	if len(args) > 0 {
		more := ""
		if len(args) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(args)-1)
		}
		return badInput(fmt.Errorf("%s: unexpected argument %q%s: %s reads flags only (see sgdplan %s --help)", cmd, args[0], more, cmd, cmd))
	}
	return nil
}

// finiteFlags refuses a float flag of c's command given as NaN or an
// infinity: no count, rate or size of these commands is one.
func finiteFlags(c *cli.Context) error {
	for _, f := range c.Command.Flags {
		ff, ok := f.(*cli.Float64Flag)
		if !ok || !c.IsSet(ff.Name) {
			continue
		}
		if v := c.Float64(ff.Name); math.IsNaN(v) || math.IsInf(v, 0) {
			return badInput(fmt.Errorf("%s: --%s %g: want a finite number", c.Command.Name, ff.Name, v))
		}
	}
	return nil
}
