package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// An elastic PyTorchJob is judged at the replicas given (its exit code),
// and at each bound of its elasticPolicy, times the processes a replica,
// each verdict the one check gives that count with --workers.
func TestCheckElasticBounds(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	pt := writeTestFile(t, dir, "pt.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  nprocPerNode: \"2\"\n  elasticPolicy:\n    minReplicas: 1\n    maxReplicas: 4\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n")
	code, out, _ := runCmd(t, "check", "--model", mp, pt, "--format", "json")
	var j checkJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Workers != 4 || j.ExitCode != code || len(j.ElasticEnds) != 2 {
		t.Fatalf("workers %d, exit %d/%d, %d elastic ends: want 4 workers and 2 ends", j.Workers, j.ExitCode, code, len(j.ElasticEnds))
	}
	for i, want := range []struct {
		bound             string
		replicas, workers int
	}{{"minReplicas", 1, 2}, {"maxReplicas", 4, 8}} {
		e := j.ElasticEnds[i]
		if e.Bound != want.bound || e.Replicas != want.replicas || e.Workers != want.workers {
			t.Errorf("end %d: %+v, want %s %d replicas, %d workers", i, e, want.bound, want.replicas, want.workers)
		}
		// the same verdict as check at that count
		c2, out2, _ := runCmd(t, "check", "--model", mp, "--workers", strconv.Itoa(e.Workers), "--ps", "1", "--format", "json")
		var k checkJSON
		if err := json.Unmarshal([]byte(out2), &k); err != nil {
			t.Fatal(err)
		}
		if k.Verdict != e.Verdict || c2 != e.ExitCode || k.Reason != e.Reason {
			t.Errorf("%s: %s (%d) %q; check --workers %d: %s (%d) %q", e.Bound, e.Verdict, e.ExitCode, e.Reason, e.Workers, k.Verdict, c2, k.Reason)
		}
	}
	// --workers sets the count: no bounds
	_, out, _ = runCmd(t, "check", "--model", mp, pt, "--workers", "3", "--format", "json")
	if strings.Contains(out, "elastic_ends") {
		t.Errorf("--workers: %s", out)
	}
	// the table gives them on a line
	_, out, _ = runCmd(t, "check", "--model", mp, pt)
	if !strings.Contains(out, "at its elasticPolicy's bounds (the job runs anywhere between): minReplicas 1 (2 workers) ") || !strings.Contains(out, ", maxReplicas 4 (8 workers) ") {
		t.Errorf("table: %s", out)
	}
}
