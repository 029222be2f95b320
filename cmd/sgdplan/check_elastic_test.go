package main

import (
	"encoding/json"
	"fmt"
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

// A gate reads the exit code, and an elastic job runs anywhere in its
// range: the code is the worst verdict of the replicas given and the two
// bounds (a range whose top fails passed at the replicas given, exit 0),
// json's exit_code with it and exit_from naming the bound; the verdict
// and its reason stay the given count's. A range all as good as the count
// given keeps the verdict's code, with no exit_from.
func TestCheckElasticExitWorst(t *testing.T) {
	dir := t.TempDir()
	mp := asgdModel(t, dir)
	job := func(lo, hi int) string {
		return writeTestFile(t, dir, fmt.Sprintf("pt%d-%d.yaml", lo, hi), "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  elasticPolicy:\n    minReplicas: "+strconv.Itoa(lo)+"\n    maxReplicas: "+strconv.Itoa(hi)+"\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n")
	}
	at := func(w int) int {
		c, _, _ := runCmd(t, "check", "--model", mp, "--workers", strconv.Itoa(w), "--ps", "1")
		return c
	}
	given, top := at(2), at(40)
	if given != exitOK || top != exitFail {
		t.Fatalf("check at 2 workers exit %d, at 40 exit %d: want 0 and %d for this test", given, top, exitFail)
	}
	pt := job(1, 40)
	code, out, _ := runCmd(t, "check", "--model", mp, pt)
	if code != exitFail || !strings.HasPrefix(out, "fine: ") || !strings.Contains(out, "\nexit 4 (fail) from maxReplicas 40 (40 workers), the worst of the job's range; at the 2 workers given it is fine\n") {
		t.Errorf("1 to 40 replicas: exit %d, stdout %q; want exit 4, the verdict fine at 2 and the exit line", code, out)
	}
	// a warn at the top: exit 3
	if code, out, _ = runCmd(t, "check", "--model", mp, job(1, 4)); code != at(4) || code != exitWarn || !strings.Contains(out, "\nexit 3 (warn) from maxReplicas 4 (4 workers)") {
		t.Errorf("1 to 4 replicas: exit %d, stdout %q; want exit 3 from maxReplicas 4", code, out)
	}
	code, out, _ = runCmd(t, "check", "--model", mp, pt, "--format", "json")
	var j checkJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if code != exitFail || j.ExitCode != exitFail || j.ExitFrom != "maxReplicas" || j.Verdict != "fine" {
		t.Errorf("json: exit %d, exit_code %d, exit_from %q, verdict %q; want 4, 4, maxReplicas, fine", code, j.ExitCode, j.ExitFrom, j.Verdict)
	}
	// --workers sets the count: its verdict's code alone
	if code, _, _ = runCmd(t, "check", "--model", mp, pt, "--workers", "2"); code != exitOK {
		t.Errorf("--workers 2: exit %d, want 0", code)
	}
	// a range no worse than the count given: the verdict's code
	code, out, _ = runCmd(t, "check", "--model", mp, job(1, 2), "--format", "json")
	j = checkJSON{}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if code != given || j.ExitCode != given || j.ExitFrom != "" || len(j.ElasticEnds) != 2 {
		t.Errorf("1 to 2 replicas: exit %d, exit_code %d, exit_from %q, %d ends; want %d, no exit_from, 2 ends", code, j.ExitCode, j.ExitFrom, len(j.ElasticEnds), given)
	}
}

func TestWorstElastic(t *testing.T) {
	ends := []checkElastic{{Bound: "minReplicas", ExitCode: exitWarn}, {Bound: "maxReplicas", ExitCode: exitWarn}}
	if e, ok := worstElastic(ends, exitOK); !ok || e.Bound != "minReplicas" {
		t.Errorf("two warns over fine: %+v %v, want minReplicas", e, ok)
	}
	if _, ok := worstElastic(ends, exitWarn); ok {
		t.Error("two warns over warn: want none")
	}
	ends[1].ExitCode = exitFail
	if e, ok := worstElastic(ends, exitWarn); !ok || e.Bound != "maxReplicas" {
		t.Errorf("warn, fail over warn: %+v %v, want maxReplicas", e, ok)
	}
	if _, ok := worstElastic(nil, exitOK); ok {
		t.Error("no ends: want none")
	}
}

// A bound check cannot judge (past the most workers it weighs) is no pass:
// it is an end of verdict "n/a" and exit code 2, which sets the exit code
// where the rest of the range passes (1 to 20,000 replicas passed at exit
// 0, the top said as "no verdict" on a line alone).
func TestCheckElasticUnjudgedBound(t *testing.T) {
	dir := t.TempDir()
	mp := asgdModel(t, dir)
	pt := writeTestFile(t, dir, "big.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  elasticPolicy:\n    minReplicas: 1\n    maxReplicas: 20000\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n")
	code, out, _ := runCmd(t, "check", "--model", mp, pt)
	if code != exitBadInput || !strings.Contains(out, "maxReplicas 20000 (20000 workers): no verdict (past 10000 workers, the most check weighs)") || !strings.Contains(out, "\nexit 2 (no verdict) from maxReplicas 20000 (20000 workers), the worst of the job's range; at the 2 workers given it is fine\n") {
		t.Errorf("exit %d, stdout %q; want exit 2 and the bound without a verdict", code, out)
	}
	_, out, _ = runCmd(t, "check", "--model", mp, pt, "--format", "json")
	var j checkJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.ExitCode != exitBadInput || j.ExitFrom != "maxReplicas" || len(j.ElasticEnds) != 2 || j.ElasticEnds[1].Verdict != "n/a" || j.ElasticEnds[1].ExitCode != exitBadInput {
		t.Errorf("json: exit_code %d, exit_from %q, ends %+v; want 2 from maxReplicas, its end n/a", j.ExitCode, j.ExitFrom, j.ElasticEnds)
	}
}
