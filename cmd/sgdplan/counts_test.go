package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Counts that would hang the command are bad input, with the bound and
// why (audit: check --workers 1000000000, a manifest of 10^9 replicas,
// predict --workers 9223372036854775807 and fit --bootstrap 100000000 ran
// without end); a count written 1e18 is too large, not "not a number".
func TestPredictCheckFitCountsBounded(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, []byte("kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 1000000000\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--model", mp, "--workers", "1000000000"}, "1000000000 workers: too large: at most 10000"},
		{[]string{"check", "--model", mp, "--workers", "4", "--ps", "1000000000"}, "too large: at most 1000000"},
		{[]string{"check", "--model", mp, big}, "Worker.replicas = 1000000000: too large, want at most 1000000"},
		{[]string{"predict", "--model", mp, "--workers", "9223372036854775807"}, `"9223372036854775807": too large: at most 1000000`},
		{[]string{"predict", "--model", mp, "--workers", "99999999999999999999"}, `"99999999999999999999": too large: at most 1000000`},
		{[]string{"predict", "--model", mp, "--workers", "1e18"}, `"1e18": too large: at most 1000000`},
		{[]string{"predict", "--model", mp, "--workers", "1-4", "--ps", "2000000"}, `"2000000": too large`},
		{[]string{"fit", fitAsync, "--bootstrap", "100000000", "--out", filepath.Join(dir, "x.json")}, "--bootstrap 100000000: want 0 (no intervals) or 10 to 100000"},
		{[]string{"fit", fitAsync, "--bootstrap", "3", "--out", filepath.Join(dir, "x.json")}, "--bootstrap 3: want 0 (no intervals) or 10 to 100000 resamples"},
	}
	for _, c := range cases {
		start := time.Now()
		code, _, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%v took %v", c.args, d)
		}
	}
	// at the bound check answers (the verdict walks every count up to it)
	start := time.Now()
	if code, _, stderr := runCmd(t, "check", "--model", mp, "--workers", "10000"); code == exitBadInput {
		t.Errorf("check at 10000 workers: %s", stderr)
	}
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("check at 10000 workers took %v", d)
	}
}
