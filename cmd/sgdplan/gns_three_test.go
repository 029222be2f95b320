package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A batch law fitted on 3 runs has no noise-scale interval, and fit's
// table says why (it said "no bootstrap resamples" after 200 had run).
func TestFitGNSThreeRunsTable(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.json")
	code, stdout, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--train-workers", "2,4,8", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "samples, no interval (3 runs: every resample is the runs themselves)") || !strings.Contains(stderr, "gradient noise scale: 3 runs leave the law (2 parameters) 1 degree of freedom") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}
