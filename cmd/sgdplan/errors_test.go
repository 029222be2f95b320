package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Errors a user meets first: each says which command and flag, exits 2
// (bad input), and leaves no output behind.
func TestUserErrors(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join("testdata", "fit-table")
	mp := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", table, "--out", mp); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	trunc := filepath.Join(dir, "trunc.json")
	b, _ := os.ReadFile(mp)
	if err := os.WriteFile(trunc, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"predict without --model", []string{"predict", "--workers", "4"}, "predict: missing --model"},
		{"check without --model", []string{"check", "--workers", "4"}, "check: missing --model"},
		{"predict, no such model", []string{"predict", "--model", filepath.Join(dir, "none.json"), "--workers", "4"}, "predict: open " + filepath.Join(dir, "none.json")},
		{"check, truncated model", []string{"check", "--model", trunc, "--workers", "4"}, "check: " + trunc + ":"},
		{"predict, bandwidth of a table model", []string{"predict", "--model", mp, "--workers", "4", "--bandwidth", "1e9"}, "predict: --bandwidth needs"},
		{"unknown command", []string{"nosuchcmd"}, `unknown command "nosuchcmd"`},
		{"fit, plot into a missing folder", []string{"fit", table, "--out", out, "--plot", filepath.Join(dir, "no", "x.png")}, "fit: --plot " + filepath.Join(dir, "no", "x.png") + ": folder"},
		{"demo with a path", []string{"demo", "--out", filepath.Join(dir, "demo"), "extra"}, `demo: unexpected argument "extra"`},
		{"validate with a path", []string{"validate", "--data", dir, "--out", filepath.Join(dir, "v.md"), "extra"}, `validate: unexpected argument "extra"`},
		{"fit, plot onto a folder", []string{"fit", table, "--out", out, "--plot", dir}, "fit: --plot " + dir + " is a folder"},
		{"fit, model into a missing folder", []string{"fit", table, "--out", filepath.Join(dir, "no", "m.json")}, "fit: --out"},
		{"plan, plot into a missing folder", []string{"plan", "--jobs", filepath.Join("..", "..", "testdata", "jobs-example", "jobs.csv"), "--servers", "16", "--plot", filepath.Join(dir, "no", "p.png")}, "plan: --plot"},
		{"report into a file", []string{"report", "--model", mp, "--jobs", filepath.Join("..", "..", "testdata", "jobs-example", "jobs.csv"), "--servers", "16", "--out", mp}, "report: --out " + mp + " is a file"},
	}
	for _, c := range cases {
		code, _, stderr := runCmd(t, c.args...)
		wantCode := exitBadInput
		if code != wantCode || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d (want %d), stderr %q, want %q", c.name, code, wantCode, stderr, c.want)
		}
		if strings.Contains(stderr, "fit: fit:") || strings.Contains(stderr, ".tmp") || (c.args[0] != "fit" && strings.Contains(stderr, "sgdplan: fit:")) {
			t.Errorf("%s: %q names the wrong command or a temporary file", c.name, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("fit wrote %s although its --plot could not be written", out)
	}
}
