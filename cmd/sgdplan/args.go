package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

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

// commandLine is the command line of c: "sgdplan", the command, every flag
// set or with a default value (not "", 0 or false), but those named in
// leave, which change no result, in the order the command lists its flags,
// and the positional arguments pos (interspersed's, without the flags
// among them), each value quoted for a shell.
func commandLine(c *cli.Context, pos []string, leave ...string) string {
	args := []string{"sgdplan", c.Command.Name}
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if slices.Contains(leave, name) {
			continue
		}
		if !c.IsSet(name) {
			// a default that is a value is written out: a later
			// release's other default would make the line another fit
			if v := fmt.Sprint(c.Value(name)); v == "" || v == "0" || v == "false" || v == "[]" {
				continue
			}
		}
		if _, ok := f.(*cli.BoolFlag); ok {
			if c.Bool(name) {
				args = append(args, "--"+name)
			} else {
				args = append(args, "--"+name+"=false")
			}
			continue
		}
		args = append(args, "--"+name, shellQuote(fmt.Sprint(c.Value(name))))
	}
	for _, a := range pos {
		args = append(args, shellQuote(a))
	}
	return strings.Join(args, " ")
}

// shellQuote is s as one word of a POSIX shell: as it is when it holds
// only characters no shell treats specially, else in single quotes (a
// single quote inside ends them, is escaped, and opens them again).
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
