// Command sgdplan turns distributed-training traces into decisions: it fits
// asynchronous-SGD throughput and convergence models to traces, predicts any
// (workers, shards) configuration, checks a planned worker count before a job
// is launched, and plans how a shared cluster splits its workers among jobs.
//
// Run "sgdplan help" for the commands; docs/ holds the manual.
package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

func main() {
	removeTempsOnStop()
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes shared by every command. check adds its verdicts (3, 4).
const (
	exitOK       = 0
	exitFailure  = 1 // the command could not do its work (I/O, internal)
	exitBadInput = 2 // the input or the command line is malformed
)

// exitError carries an exit code out of a command's action.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// badInput marks err as the user's input being at fault (exit 2).
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitBadInput, err: err}
}

// withCode makes the command exit with code and print err (when not nil).
func withCode(code int, err error) error { return &exitError{code: code, err: err} }

// commands lists every subcommand; each lives in its own file.
func commands() []*cli.Command {
	return []*cli.Command{
		demoCommand(),
		inspectCommand(),
		convertCommand(),
		validateCommand(),
		fitCommand(),
		predictCommand(),
		checkCommand(),
		planCommand(),
		simulateCommand(),
		reportCommand(),
	}
}

// version is what --version prints: the module's version as the build
// stamped it, a release (go install ...@v1.2.3) or, for go build in a
// clone, a pseudo-version naming the commit (v0.0.0-DATE-COMMIT, "+dirty"
// when the tree had changes); "devel" when it stamped none (go run, go
// test, -buildvcs=false).
func version(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil || info.Main.Version == "" || info.Main.Version == "(devel)" {
		return "devel"
	}
	return info.Main.Version
}

// run is the whole program, testable in-process: it parses args, runs the
// command and returns the exit code. Machine output goes to stdout; warnings
// and errors to stderr.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := &cli.App{
		Name:            "sgdplan",
		Usage:           "turn distributed-training traces into decisions",
		Version:         version(debug.ReadBuildInfo()),
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		Commands:        commands(),
		HideHelpCommand: false,
		ExitErrHandler:  func(*cli.Context, error) {}, // we map errors to codes below
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return badInput(flagValueError(c, err))
		},
	}
	for _, c := range app.Commands {
		if c.OnUsageError == nil {
			c.OnUsageError = app.OnUsageError
		}
		// A command without subcommands takes paths, not a help command:
		// urfave/cli would read a folder named h or help as one
		// (sgdplan help CMD and CMD --help still show help).
		if len(c.Subcommands) == 0 {
			c.HideHelpCommand = true
		}
		// a flag given twice keeps its last value: said on stderr
		c.Before = warnRepeatedFlags(c, args, c.Before)
	}
	if err := decimalIntFlags(app.Commands, args); err != nil {
		fmt.Fprintf(stderr, "sgdplan: %v\n", err)
		return exitBadInput
	}
	unknown := ""
	app.CommandNotFound = func(_ *cli.Context, name string) { unknown = name }
	err := app.Run(args)
	if unknown != "" {
		fmt.Fprintf(stderr, "sgdplan: unknown command %q (sgdplan --help lists the commands)\n", unknown)
		return exitBadInput
	}
	if err == nil {
		return exitOK
	}
	code := exitFailure
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
		if ee.err == nil {
			return code
		}
	}
	fmt.Fprintf(stderr, "sgdplan: %v\n", err)
	return code
}

// flagValueRE matches the flag package's error for a value of the wrong
// type ("invalid value \"2.5\" for flag -servers: parse error").
var flagValueRE = regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): `)

// flagValueError says what a flag wants when its value does not parse:
// "plan: --servers \"2.5\": want a whole number in digits, ...; --servers:
// workers in the cluster, ..."
// instead of the flag package's "parse error". Other errors pass as they are.
func flagValueError(c *cli.Context, err error) error {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok && c != nil && c.Command != nil {
		// the flag package's words, with one dash and no command
		if cmd := c.Command.Name; cmd != "" && (c.App == nil || cmd != c.App.Name) {
			return fmt.Errorf("%s: unknown flag --%s (sgdplan %s --help lists its flags; a path that starts with - goes after --)", cmd, name, cmd)
		}
		return fmt.Errorf("unknown flag --%s (sgdplan --help lists the commands and their flags)", name)
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag needs an argument: -"); ok && c != nil && c.Command != nil {
		// (the flag package's words: "flag needs an argument: -model")
		name = strings.TrimLeft(name, "-")
		return fmt.Errorf("%s: --%s needs a value (sgdplan %s --help says what it takes)", c.Command.Name, name, c.Command.Name)
	}
	m := flagValueRE.FindStringSubmatch(err.Error())
	if m == nil || c == nil || c.Command == nil {
		return err
	}
	if v, uerr := strconv.Unquote(`"` + m[1] + `"`); uerr == nil {
		m[1] = v // the flag package quoted it; %q below quotes it once
	}
	if strings.Contains(err.Error(), "out of range") {
		// with the range the flag's type holds (it said "out of range
		// for the flag" alone); the flag's own bounds say more after
		rng := ""
		for _, f := range c.Command.Flags {
			if !slices.Contains(f.Names(), m[2]) {
				continue
			}
			switch f.(type) {
			case *cli.UintFlag, *cli.Uint64Flag:
				rng = fmt.Sprintf(": want a whole number from 0 to %d", uint64(math.MaxUint64))
			case *cli.IntFlag, *cli.Int64Flag:
				// (not the type's -9223372036854775808 to ...: the
				// flag's use below gives its own range)
				rng = ": want a whole number that fits in 64 bits"
			case *cli.Float64Flag:
				rng = fmt.Sprintf(": want a number of magnitude at most %g", math.MaxFloat64)
			}
			if u, ok := f.(cli.DocGenerationFlag); ok && u.GetUsage() != "" {
				rng += fmt.Sprintf("; --%s: %s", m[2], u.GetUsage())
			}
		}
		return fmt.Errorf("%s: --%s %q: out of range for the flag%s", c.Command.Name, m[2], m[1], rng)
	}
	for _, f := range c.Command.Flags {
		if !slices.Contains(f.Names(), m[2]) {
			continue
		}
		var want string
		switch _, isFloat := f.(*cli.Float64Flag); {
		case isIntFlag(f):
			want = strings.TrimPrefix(wantDecimal, "want ")
			if isUintFlag(f) && strings.HasPrefix(m[1], "-") {
				// a decimal, but below 0 ("-5" is decimal digits)
				want = "a whole number >= 0"
			}
		case isFloat:
			want = "a number"
		default:
			if _, ok := f.(*cli.BoolFlag); !ok {
				return err
			}
			want = "true or false"
		}
		usage := ""
		if u, ok := f.(cli.DocGenerationFlag); ok && u.GetUsage() != "" {
			usage = fmt.Sprintf("; --%s: %s", m[2], u.GetUsage())
		}
		return fmt.Errorf("%s: --%s %q: want %s%s", c.Command.Name, m[2], m[1], want, usage)
	}
	return err
}

// decimalRE is a whole number in decimal digits, no leading 0.
var decimalRE = regexp.MustCompile(`^[+-]?(0|[1-9][0-9]*)$`)

// wantDecimal says what a whole-number flag takes (the flag package reads
// 010 as octal 8 and takes 0x10 and 1_000).
const wantDecimal = "want a whole number in decimal digits without a leading 0, such as 1000 (not 1e3, 2.5, 010, 0x10 or 1_000)"

// decimalFloatRE is a number in decimal digits, with an optional point
// and exponent (0.5, 36, 1e-3, 2.), as a flag that takes a real number
// reads it.
var decimalFloatRE = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// wantDecimalFloat says what a flag of a real number takes.
const wantDecimalFloat = "want a number in decimal digits, such as 0.5, 36 or 1e-3 (not 0x1p-2 or 3_6)"

// numberStartRE is how a number the flag package might read starts: a digit
// after an optional sign (010, 0x10, 1_000, 08).
var numberStartRE = regexp.MustCompile(`^[+-]?[0-9]`)

// decimalIntFlags refuses a whole-number flag written other than in decimal
// digits: the flag package reads "010" as octal 8, and takes "0x10" and
// "1_000" too, so --servers 010 ran on 8 servers without a word. A leading
// + or - is the flag's own business (its checks refuse a negative count).
// A flag of a real number is held to decimal digits likewise
// (decimalFloatRE).
func decimalIntFlags(cmds []*cli.Command, args []string) error {
	if len(args) < 2 {
		return nil
	}
	var cmd *cli.Command
	for _, c := range cmds {
		if c.HasName(args[1]) {
			cmd = c
		}
	}
	if cmd == nil {
		return nil
	}
	isInt, isFloat := map[string]bool{}, map[string]bool{}
	for _, f := range cmd.Flags {
		_, float := f.(*cli.Float64Flag)
		for _, n := range f.Names() {
			isInt[n] = isIntFlag(f)
			isFloat[n] = float
		}
	}
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !isInt[name] && !isFloat[name] {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil // the flag package says the value is missing
			}
			i++
			val = args[i]
		}
		// (a number with spaces about it, " 4", is a number not in
		// decimal digits, as "4 " is: it went to the flag package, whose
		// error flagValueError gave the flag's usage too)
		if isFloat[name] {
			// strconv.ParseFloat takes Go's literals: --early-stop 0_1
			// ran as 1, --arrival-rate 3_6 as 36, 0x1p-2 as 0.25
			if decimalFloatRE.MatchString(val) || !numberStartRE.MatchString(strings.TrimSpace(val)) {
				continue
			}
			return fmt.Errorf("%s: --%s %q: %s", cmd.Name, name, val, wantDecimalFloat)
		}
		if decimalRE.MatchString(val) || !numberStartRE.MatchString(strings.TrimSpace(val)) {
			continue // decimal, or not a number at all: the flag package's error, reworded by flagValueError
		}
		return fmt.Errorf("%s: --%s %q: %s", cmd.Name, name, val, wantDecimal)
	}
	return nil
}

// isUintFlag reports whether f takes a whole number >= 0 only.
func isUintFlag(f cli.Flag) bool {
	switch f.(type) {
	case *cli.UintFlag, *cli.Uint64Flag:
		return true
	}
	return false
}

// isIntFlag reports whether f takes a whole number.
func isIntFlag(f cli.Flag) bool {
	switch f.(type) {
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		return true
	}
	return false
}
