package main

import (
	"encoding/json"
	"path/filepath"
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
	// a Pollux fit on two global batches measures the batch's effect; its
	// prior sets the network between machines (alpha_n, beta_n), which the
	// note named as what the batch's effect rests on
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,global_batch,steps_per_s,mode,nodes\n1,0,128,7.24638,allreduce,1\n2,0,128,10.6383,allreduce,1\n4,0,128,15.1515,allreduce,1\n1,0,256,3.7594,allreduce,1\n2,0,256,6.32911,allreduce,1\n4,0,256,10.2041,allreduce,1\n")
	px := filepath.Join(dir, "px.json")
	if code, _, stderr := runCmd(t, "fit", dir, "--family", "pollux", "--bootstrap", "20", "--out", px); code != 0 {
		t.Fatalf("fit pollux: %s", stderr)
	}
	net := false
	for _, p := range readModelDoc(t, px)["parameters"].([]any) {
		q := p.(map[string]any)
		net = net || q["set_by_prior"] == true && strings.HasSuffix(q["name"].(string), "_n")
	}
	if !net {
		t.Fatalf("the pollux fit's prior sets no network parameter: the case under test is gone")
	}
	if _, stdout, _ = runCmd(t, "check", "--model", px, "--workers", "16"); strings.Contains(stdout, "set by the form's prior") {
		t.Errorf("pollux on two batches: a prior note naming network parameters:\n%s", stdout)
	}
}

// A synchronous batch-law model's efficiency_ends are the noise scale's
// ends, in samples, and say so (law "noise_scale"): they sat unnamed
// beside the efficiency (speedup / N), whose ends they are not.
func TestCheckEfficiencyEndsNameTheLaw(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "gns.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--bootstrap", "20", "--out", m); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	g := readModelDoc(t, m)["efficiency"].(map[string]any)["gns"].(map[string]any)
	code, stdout, stderr := runCmd(t, "check", "--model", m, "--workers", "64", "--format", "json")
	var out checkJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("check exit %d: %v: %s", code, err, stderr)
	}
	if len(out.EfficiencyEnds) != 2 || out.EfficiencyEnds[0].Law != "noise_scale" || out.EfficiencyEnds[1].Law != "noise_scale" ||
		out.EfficiencyEnds[0].Value != g["noise_batch_lo"] || out.EfficiencyEnds[1].Value != g["noise_batch_hi"] {
		t.Errorf("efficiency_ends %+v: want law noise_scale at the model's noise_batch_lo %v and _hi %v", out.EfficiencyEnds, g["noise_batch_lo"], g["noise_batch_hi"])
	}
}
