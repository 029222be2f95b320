package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// predict and check on model.json files the reader once took without a
// word or refused unplaced (an adversarial review, 2026-12-07): a
// parameter far outside its interval and a few bootstrap samples are
// warned of by both; a time to target past float64's is refused by both
// at the field; -0 is printed as 0.
func TestModelReaderFindings(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(asgdModel(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name string, f func(string) string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(f(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// z0's value, far from its interval
	z0 := edit("z0.json", func(s string) string {
		return regexp.MustCompile(`("name": "z0",\s*"value": )[0-9.e+-]+`).ReplaceAllString(s, "${1}0.2")
	})
	// one bootstrap sample
	one := edit("one.json", func(s string) string {
		return regexp.MustCompile(`("bootstrap_samples": \[\s*\[[^\]]*\])(,\s*\[[^\]]*\])*`).ReplaceAllString(s, "$1")
	})
	for _, c := range []struct{ path, want string }{
		{z0, "parameter z0 = 0.2 lies outside its interval"},
		{one, "the model holds 1 bootstrap sample: its 90% intervals rest on 1 resample"},
	} {
		if code, _, stderr := runCmd(t, "predict", "--model", c.path, "--workers", "8"); code != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("predict %s: exit %d: %s", filepath.Base(c.path), code, stderr)
		}
		if _, stdout, stderr := runCmd(t, "check", "--model", c.path, "--workers", "8", "--format", "json"); !strings.Contains(stdout, c.want) {
			t.Errorf("check %s: %s%s", filepath.Base(c.path), stdout, stderr)
		}
	}
	// efficiency.batch 1e308: refused by both, at the field
	huge := edit("huge.json", func(s string) string {
		return regexp.MustCompile(`("target_loss": [0-9.e+-]+,\s*"lowest_loss": [0-9.e+-]+,\s*(?:"lowest_measured_loss": [0-9.e+-]+,\s*)?"batch": )32`).ReplaceAllString(s, "${1}1e308")
	})
	for _, cmd := range []string{"predict", "check"} {
		code, _, stderr := runCmd(t, cmd, "--model", huge, "--workers", "8")
		if code != exitBadInput || !regexp.MustCompile(`huge.json:\d+:\d+: efficiency: the loss curve .* at 1e\+308 samples an update\) gives \+Inf updates`).MatchString(stderr) {
			t.Errorf("%s of batch 1e308: exit %d: %s", cmd, code, stderr)
		}
	}
	// -0: staleness_lo 0, not -0
	negz := edit("negz.json", func(s string) string {
		return regexp.MustCompile(`("staleness_per_worker_lo": )[0-9.e+-]+`).ReplaceAllString(s, "${1}-0.0")
	})
	code, stdout, stderr := runCmd(t, "predict", "--model", negz, "--workers", "8", "--format", "json")
	if code != 0 || !strings.Contains(stdout, `"staleness_lo": 0,`) || strings.Contains(stdout, "-0") {
		t.Errorf("predict of -0: exit %d: %s%s", code, stdout, stderr)
	}
}
