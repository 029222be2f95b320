package main

import (
	"testing"

	"github.com/urfave/cli/v2"
)

// commandLine writes the flags set, and those whose default is a value, in
// the command's order, but those left; a bool flag set to false as --name=false (a bare --name would be
// true), and each value and positional argument quoted for a shell.
func TestCommandLineBoolsAndQuotes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		// (defaults that are values, --family auto and --seed 1, are
		// written out; a bool left false is not)
		{[]string{"--nnls=false", "--out", "o.json", "--family", "a b", "my traces"}, "sgdplan fit --family 'a b' --nnls=false --seed 1 'my traces'"},
		{[]string{"--nnls", "--seed", "3", "t"}, "sgdplan fit --family auto --nnls --seed 3 t"},
		{[]string{"t", "u"}, "sgdplan fit --family auto --seed 1 t u"},
	} {
		got := ""
		app := &cli.App{Commands: []*cli.Command{{
			Name: "fit",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "family", Value: "auto"},
				&cli.BoolFlag{Name: "nnls"},
				&cli.Uint64Flag{Name: "seed", Value: 1},
				&cli.StringFlag{Name: "out", Value: "model.json"},
			},
			Action: func(ctx *cli.Context) error {
				got = commandLine(ctx, ctx.Args().Slice(), "out")
				return nil
			},
		}}}
		if err := app.Run(append([]string{"sgdplan", "fit"}, c.args...)); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}
