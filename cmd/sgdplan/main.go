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
	"os"
	"regexp"
	"slices"

	"github.com/urfave/cli/v2"
)

func main() {
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

// run is the whole program, testable in-process: it parses args, runs the
// command and returns the exit code. Machine output goes to stdout; warnings
// and errors to stderr.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := &cli.App{
		Name:            "sgdplan",
		Usage:           "turn distributed-training traces into decisions",
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
	m := flagValueRE.FindStringSubmatch(err.Error())
	if m == nil || c == nil || c.Command == nil {
		return err
	}
	for _, f := range c.Command.Flags {
		if !slices.Contains(f.Names(), m[2]) {
			continue
		}
		want := ""
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
			want = "a whole number in digits, such as 1000 (not 1e3 or 2.5)"
		case *cli.Float64Flag:
			want = "a number"
		case *cli.BoolFlag:
			want = "true or false"
		default:
			return err
		}
		usage := ""
		if u, ok := f.(cli.DocGenerationFlag); ok && u.GetUsage() != "" {
			usage = fmt.Sprintf("; --%s: %s", m[2], u.GetUsage())
		}
		return fmt.Errorf("%s: --%s %q: want %s%s", c.Command.Name, m[2], m[1], want, usage)
	}
	return err
}
