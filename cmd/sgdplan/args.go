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

// warnRepeatedFlags returns a Before for cmd that warns on stderr, one
// line a flag, of each flag that the command line args (the program's
// whole, from its name) gives cmd more than once, then runs before (when
// not nil): urfave/cli keeps the last value without a word, so that
// "predict --workers 4 --workers 8" answered for 8 alone.
func warnRepeatedFlags(cmd *cli.Command, args []string, before cli.BeforeFunc) cli.BeforeFunc {
	return func(c *cli.Context) error {
		// (after the program's name, which may be a command's)
		if i := slices.IndexFunc(args[min(1, len(args)):], cmd.HasName); i >= 0 {
			for _, w := range repeatedFlags(cmd.Flags, args[i+2:]) {
				fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
			}
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}

// repeatedFlags says, for each of flags that args (a command's, after its
// name) give more than once, in the order each was first given, how often,
// with what values, and which is used: "--workers given 2 times (4, then
// 8): the last, 8, is used". A flag's aliases are the flag; a slice flag
// (validate --async), which adds each value, is never repeated. args are
// read as the command reads them: the flag package's flags (--f=v, --f v,
// -f v; a bool flag takes no value but after =) up to the first positional
// argument or a "--", then the flags among the paths (interspersed,
// convertFlagsAfterArgs), up to a "--"; a "--" before any path, followed
// by an argument that starts with "-", makes every argument after it a
// path (afterDashDash). It stops at a flag not of flags, which the command
// refuses.
func repeatedFlags(flags []cli.Flag, args []string) []string {
	flagOf := map[string]cli.Flag{} // each name, aliases too -> its flag
	for _, f := range flags {
		for _, n := range f.Names() {
			flagOf[n] = f
		}
	}
	var order []cli.Flag
	given := map[cli.Flag][]string{}
	paths := false // past the flag package's flags: among the paths
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if paths || afterDashDash(args[i+1:]) {
				break
			}
			paths = true // (the flag package consumed it)
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			paths = true
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f, ok := flagOf[name]
		if !ok {
			break
		}
		if !hasVal {
			if df, ok := f.(cli.DocGenerationFlag); ok && !df.TakesValue() {
				val = "true" // a bool flag
			} else if i+1 < len(args) {
				i++
				val = args[i]
			} else {
				break // (the command says the value is missing)
			}
		}
		if sf, ok := f.(cli.DocGenerationSliceFlag); ok && sf.IsSliceFlag() {
			continue
		}
		if given[f] == nil {
			order = append(order, f)
		}
		given[f] = append(given[f], val)
	}
	var out []string
	for _, f := range order {
		vals := given[f]
		if len(vals) < 2 {
			continue
		}
		words := make([]string, len(vals))
		for i, v := range vals {
			words[i] = flagValueWord(v)
		}
		last := words[len(words)-1]
		out = append(out, fmt.Sprintf("--%s given %d times (%s, then %s): the last, %s, is used",
			f.Names()[0], len(vals), strings.Join(words[:len(words)-1], ", "), last, last))
	}
	return out
}

// flagValueWord is v as repeatedFlags lists it: shellQuote's word, quoted
// too when it holds a comma, which would read as the list's ("1,2, then
// 4").
func flagValueWord(v string) string {
	if strings.Contains(v, ",") {
		return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
	}
	return shellQuote(v)
}
