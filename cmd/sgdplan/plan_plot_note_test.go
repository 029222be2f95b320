package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// plan --plot with several policies draws the first one's plan, and says
// so: the figure of --policy all was hesrpt's without a word, beside a
// table whose best may be another.
func TestPlanPlotNamesItsPolicy(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(jobsExample, "jobs.csv")
	png := filepath.Join(dir, "p.png")
	code, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "16", "--policy", "all", "--plot", png)
	if code != 0 || !strings.Contains(stderr, "sgdplan: warning: "+png+" draws the plan of hesrpt alone, the first policy of ") || !strings.Contains(stderr, "(give --policy NAME for another's)") {
		t.Errorf("--policy all: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "plan", "--jobs", jobs, "--servers", "16", "--policy", "equi", "--plot", png)
	if code != 0 || strings.Contains(stderr, "draws the plan of") {
		t.Errorf("one policy: exit %d, stderr %q", code, stderr)
	}
}
