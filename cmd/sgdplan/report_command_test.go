package main

import (
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// The report's "Made by" line is a command that makes the same report:
// every option not at report's default, paths quoted for a shell.
func TestReportOptionsCommand(t *testing.T) {
	o := defaultReportOptions()
	o.model, o.jobs, o.out, o.servers = "m/model.json", "jobs.csv", "r", 16
	if got, want := o.command(), "sgdplan report --model m/model.json --jobs jobs.csv --servers 16 --out r"; got != want {
		t.Errorf("defaults: %q, want %q", got, want)
	}
	o.out, o.model = "sp ace/r x", "it's.json"
	o.policy, o.alpha, o.loads, o.seeds, o.simJobs = "equi", 0.1, []float64{0.4, 0.6}, 3, 50
	want := `sgdplan report --model 'it'\''s.json' --jobs jobs.csv --servers 16 --out 'sp ace/r x' --policy equi --knee-alpha 0.1 --loads 0.4,0.6 --seeds 3 --sim-jobs 50`
	if got := o.command(); got != want {
		t.Errorf("every option: %q, want %q", got, want)
	}
	for s, q := range map[string]string{"": "''", "a$b": "'a$b'", "x;rm": "'x;rm'", "a/b-c_d.e": "a/b-c_d.e", "~/x": "'~/x'"} {
		if got := shellQuote(s); got != q {
			t.Errorf("shellQuote(%q) = %s, want %s", s, got, q)
		}
	}
}

// Every report flag, set to another value than its default, shows in the
// "Made by" command, so that a flag added later and left out of command()
// fails here (command() is built from the options, not the flags, as the
// demo's report has no command line of its own).
func TestReportCommandHasEveryFlag(t *testing.T) {
	other := map[string]string{"model": "m.json", "jobs": "j.csv", "servers": "8", "out": "o",
		"policy": "equi", "knee-alpha": "0.2", "loads": "0.4,0.6", "seeds": "3", "seed": "7", "sim-jobs": "50", "p": "0.5"}
	cmd := reportCommand()
	for _, f := range cmd.Flags {
		name := f.Names()[0]
		if name == "help" {
			continue
		}
		v, ok := other[name]
		if !ok {
			t.Errorf("flag --%s: no value in this test's table (and is it in reportOptions.command?)", name)
			continue
		}
		args := []string{"sgdplan", "report", "--model", "m.json", "--jobs", "j.csv", "--servers", "8", "--out", "o", "--" + name, v}
		var got string
		c := reportCommand()
		c.Action = func(ctx *cli.Context) error {
			o, err := reportFlags(ctx)
			if err != nil {
				return err
			}
			got = o.command()
			return nil
		}
		app := &cli.App{Name: "sgdplan", Commands: []*cli.Command{c}, Writer: io.Discard, ErrWriter: io.Discard}
		if err := app.Run(args); err != nil {
			t.Errorf("--%s %s: %v", name, v, err)
			continue
		}
		if !strings.Contains(got+" ", " --"+name+" "+v+" ") {
			t.Errorf("--%s %s: the command %q does not give it", name, v, got)
		}
	}
}
