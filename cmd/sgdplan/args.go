package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// noArgs parses c's flags wherever they stand and refuses positional
// arguments: a command that reads none would otherwise ignore a path its
// user meant for it.
func noArgs(cmd string, c *cli.Context) error {
	args, err := interspersed(c)
	if err != nil {
		return badInput(fmt.Errorf("%s: %v", cmd, err))
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
