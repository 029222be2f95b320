package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// report's --seed sets the simulation's seeds (seed..seed+K-1): the
// default 1 is the seeds 1..K the report always used, another seed
// another simulation, and the page's command line gives it.
func TestReportSeed(t *testing.T) {
	dir := t.TempDir()
	m := asgdModel(t, dir)
	jobs := filepath.Join(jobsExample, "jobs.csv")
	table := func(out string, extra ...string) string {
		return reportSimTable(t, out, append([]string{"--model", m, "--jobs", jobs, "--servers", "16", "--seeds", "2", "--sim-jobs", "30", "--loads", "0.5"}, extra...)...)
	}
	def := table(filepath.Join(dir, "a"))
	one := table(filepath.Join(dir, "b"), "--seed", "1")
	other := table(filepath.Join(dir, "c"), "--seed", "7")
	if def != one {
		t.Error("--seed 1 is not the default's simulation")
	}
	if def == other {
		t.Error("--seed 7 gave the default's simulation")
	}
	md, _ := os.ReadFile(filepath.Join(dir, "c", "summary.md"))
	if !strings.Contains(string(md), " --seeds 2 --seed 7 ") {
		t.Errorf("the Made by line lacks --seed 7:\n%.400s", md)
	}
}

// reportSimTable runs report with args into out, which must exit 0, and
// returns summary.md from its simulation table on.
func reportSimTable(t *testing.T, out string, args ...string) string {
	t.Helper()
	if code, _, stderr := runCmd(t, append([]string{"report", "--out", out}, args...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	i := strings.Index(s, "Simulated mean response time")
	if i < 0 {
		t.Fatalf("no simulation table:\n%s", s)
	}
	return s[i:]
}
