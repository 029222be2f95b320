package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// simulate's json says which seeds its runs used (seed..seed+seeds-1), so
// that a run can be repeated from its output; where nothing is random (a
// jobs file without --early-stop) it gives none.
func TestSimulateJSONSeed(t *testing.T) {
	for _, seed := range []string{"1", "7"} {
		code, stdout, stderr := runCmd(t, "simulate", "--servers", "16", "--arrival-rate", "0.001", "--count", "3", "--seeds", "2", "--seed", seed, "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var p simPolicy
		if err := json.Unmarshal([]byte(stdout), &p); err != nil {
			t.Fatal(err)
		}
		if p.Seed == nil || p.Seeds != 2 || (seed == "7") != (*p.Seed == 7) || (seed == "1") != (*p.Seed == 1) {
			t.Errorf("--seed %s: seed %v, seeds %d", seed, p.Seed, p.Seeds)
		}
	}
	jobs := filepath.Join("..", "..", "testdata", "jobs-example", "jobs.csv")
	code, stdout, stderr := runCmd(t, "simulate", "--jobs", jobs, "--servers", "16", "--policy", "equi", "--format", "json")
	if code != 0 || strings.Contains(stdout, `"seed"`) {
		t.Errorf("a jobs file, nothing random: exit %d, %s %s", code, stdout, stderr)
	}
}
