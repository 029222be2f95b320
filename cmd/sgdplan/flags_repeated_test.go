package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// commandFlags is the flags of the command named name.
func commandFlags(t *testing.T, name string) []cli.Flag {
	t.Helper()
	i := slices.IndexFunc(commands(), func(c *cli.Command) bool { return c.Name == name })
	if i < 0 {
		t.Fatalf("no command %s", name)
	}
	return commands()[i].Flags
}

// A flag given more than once is told, one line a flag, with its values
// and the last, which is used (urfave/cli kept it without a word), however
// it is written; a bool flag takes no value but after =; a slice flag
// adds each value and is not told; an alias is its flag; the flags stop
// where the command stops reading them ("--" after a path, or before one
// that starts with "-").
func TestRepeatedFlags(t *testing.T) {
	alias := []cli.Flag{&cli.IntFlag{Name: "workers", Aliases: []string{"w"}}, &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}}}
	for _, c := range []struct {
		name string
		cmd  string // its flags; alias when ""
		args []string
		want []string
	}{
		{"once each", "predict", []string{"--model", "m.json", "--workers", "4", "--ps", "1"}, nil},
		{"twice", "predict", []string{"--model", "m.json", "--workers", "4", "--workers", "8"},
			[]string{"--workers given 2 times (4, then 8): the last, 8, is used"}},
		// --f=v, -f v, -f=v, in the order each flag was first given
		{"written every way", "predict", []string{"--ps=2", "--workers=4", "-workers", "8", "-ps", "1", "-workers=16", "--model", "m.json"},
			[]string{"--ps given 2 times (2, then 1): the last, 1, is used", "--workers given 3 times (4, 8, then 16): the last, 16, is used"}},
		// a value with a comma is quoted: "1,2, then 4" reads as three
		{"a list's value", "predict", []string{"--workers", "1,2", "--workers", "4"},
			[]string{"--workers given 2 times ('1,2', then 4): the last, 4, is used"}},
		// --nnls takes no value: a --nnls that took "--out" would leave
		// one --out
		{"bool", "fit", []string{"--nnls", "--out", "a.json", "--out", "b.json", "--nnls=false", "dir"},
			[]string{"--nnls given 2 times (true, then false): the last, false, is used", "--out given 2 times (a.json, then b.json): the last, b.json, is used"}},
		// fit reads flags after its paths too
		{"after a path", "fit", []string{"dir", "--family", "mva", "--family", "amdahl"},
			[]string{"--family given 2 times (mva, then amdahl): the last, amdahl, is used"}},
		{"both sides of a path", "fit", []string{"--family", "mva", "dir", "--family", "amdahl"},
			[]string{"--family given 2 times (mva, then amdahl): the last, amdahl, is used"}},
		// after a path a "--" ends the flags
		{"-- after a path", "fit", []string{"dir", "--", "--family", "mva", "--family", "amdahl"}, nil},
		// a "--" before "-x" makes every argument a path
		{"-- before -x", "fit", []string{"--", "-x", "--family", "mva", "--family", "amdahl"}, nil},
		// a "--" before a path that does not start with "-" is the flag
		// package's: fit still reads the flags after that path
		{"-- before a path", "fit", []string{"--family", "mva", "--", "dir", "--family", "amdahl"},
			[]string{"--family given 2 times (mva, then amdahl): the last, amdahl, is used"}},
		// a value that is "--" or starts with "-" is the flag's
		{"dashed values", "fit", []string{"--out", "--", "--plot", "-", "--out", "-x", "dir"},
			[]string{"--out given 2 times (--, then -x): the last, -x, is used"}},
		// validate --async adds each folder
		{"slice", "validate", []string{"--async", "a", "--async", "b", "--out", "x.md"}, nil},
		{"slice and a repeat", "validate", []string{"--async", "a", "--out", "x.md", "--async=b", "--out", "y.md"},
			[]string{"--out given 2 times (x.md, then y.md): the last, y.md, is used"}},
		// a flag the command does not have ends the reading: it refuses it
		{"unknown", "predict", []string{"--bogus", "--workers", "4", "--workers", "8"}, nil},
		{"alias", "", []string{"-w", "4", "--workers", "8", "-q", "--quiet"},
			[]string{"--workers given 2 times (4, then 8): the last, 8, is used", "--quiet given 2 times (true, then true): the last, true, is used"}},
		{"a value in quotes", "predict", []string{"--model", "my model.json", "--model", "it's.json"},
			[]string{`--model given 2 times ('my model.json', then 'it'\''s.json'): the last, 'it'\''s.json', is used`}},
	} {
		flags := alias
		if c.cmd != "" {
			flags = commandFlags(t, c.cmd)
		}
		if got := repeatedFlags(flags, c.args); !slices.Equal(got, c.want) {
			t.Errorf("%s: %s %q:\n got %q\nwant %q", c.name, c.cmd, c.args, got, c.want)
		}
	}
}

// Through the commands: predict, fit and plan warn on stderr, once, before
// the rest of their stderr, which is as with the last value alone, and
// their json or csv on stdout is byte for byte the same; help is not
// warned of.
func TestRepeatedFlagsWarned(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	out := filepath.Join(dir, "fit.json")
	jobs := filepath.Join(jobsExample, "jobs.csv")
	for _, c := range []struct {
		name         string
		once, repeat []string
		warn         string
	}{
		{"predict", []string{"predict", "--model", mp, "--workers", "8", "--format", "json"},
			[]string{"predict", "--model", mp, "--workers", "4", "--format", "json", "--workers", "8"},
			"--workers given 2 times (4, then 8): the last, 8, is used"},
		{"predict csv", []string{"predict", "--model", mp, "--workers", "1-4", "--ps", "2", "--format", "csv"},
			[]string{"predict", "--model=" + mp, "--ps=1", "--workers", "1-4", "-ps", "2", "--format", "csv"},
			"--ps given 2 times (1, then 2): the last, 2, is used"},
		{"fit", []string{"fit", fitAsync, "--family", "mva", "--out", out, "--format", "json"},
			[]string{"fit", "--family", "amdahl", fitAsync, "--out", out, "--family=mva", "--format", "json"},
			"--family given 2 times (amdahl, then mva): the last, mva, is used"},
		{"plan", []string{"plan", "--jobs", jobs, "--servers", "16", "--policy", "fcfs-rigid", "--format", "csv"},
			[]string{"plan", "--jobs", jobs, "--servers", "8", "--servers", "16", "--policy", "fcfs-rigid", "--format", "csv"},
			"--servers given 2 times (8, then 16): the last, 16, is used"},
	} {
		code1, stdout1, stderr1 := runCmd(t, c.once...)
		code2, stdout2, stderr2 := runCmd(t, c.repeat...)
		if code1 != 0 || code2 != code1 {
			t.Errorf("%s: exit %d, repeated %d: %s%s", c.name, code1, code2, stderr1, stderr2)
		}
		if stdout2 != stdout1 || stdout1 == "" {
			t.Errorf("%s: stdout with the flag repeated:\n%s\nwant as with it once:\n%s", c.name, stdout2, stdout1)
		}
		if want := "sgdplan: warning: " + c.warn + "\n" + stderr1; stderr2 != want {
			t.Errorf("%s: stderr\n%q\nwant\n%q", c.name, stderr2, want)
		}
		if strings.Contains(stdout2, "given 2 times") {
			t.Errorf("%s: the warning is on stdout", c.name)
		}
	}
	// help, which runs no command, is not warned of
	if code, _, stderr := runCmd(t, "predict", "--workers", "4", "--workers", "8", "--help"); code != 0 || strings.Contains(stderr, "given 2 times") {
		t.Errorf("predict --help: exit %d, stderr %q", code, stderr)
	}
}
