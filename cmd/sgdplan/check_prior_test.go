package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Under a global batch split among the workers, check compares counts at
// per-worker batches the data do not hold; on testdata/asgd (one batch,
// 32) the compute per sample z1 is the form's prior, 0, and the verdict
// ("past saturation": each worker computes as long on 8 samples as on 64)
// rests on it. A note says so, naming the parameter; at the model's own
// batch there is no such note.
func TestCheckStrongScalingPriorNote(t *testing.T) {
	m := asgdModel(t, t.TempDir())
	doc := readModelDoc(t, m)
	prior := ""
	for _, p := range doc["parameters"].([]any) {
		if q := p.(map[string]any); q["set_by_prior"] == true {
			prior = q["name"].(string)
		}
	}
	if prior != "z1" {
		t.Fatalf("the model's prior-set parameter is %q, want z1 (the case under test)", prior)
	}
	const want = "rests on z1 = 0, set by the form's prior, not by the data: so does this verdict"
	code, stdout, stderr := runCmd(t, "check", "--model", m, "--workers", "8", "--global-batch", "64", "--format", "json")
	var out checkJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("check exit %d: %v: %s", code, err, stderr)
	}
	if !strings.Contains(strings.Join(out.Notes, "\n"), want) {
		t.Errorf("check --global-batch 64: notes %q, want %q", out.Notes, want)
	}
	if _, stdout, _ = runCmd(t, "check", "--model", m, "--workers", "8"); strings.Contains(stdout, "set by the form's prior") {
		t.Errorf("check at the model's batch: a prior note:\n%s", stdout)
	}
}
