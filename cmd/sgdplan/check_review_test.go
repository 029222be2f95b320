package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Fixes from a review of the day's change: no "overrides" warning for a
// --workers the manifest asked for; a missing --model is no model file at
// fault; an unknown replica key beside a replicas given says nothing of 1
// replica; a "{{" in a comment takes no blame for another fault.
func TestCheckDayReviewFixes(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	cpu := writeTestFile(t, dir, "cpu.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  nprocPerNode: cpu\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 1\n")
	code, _, stderr := runCmd(t, "check", "--model", mp, cpu)
	if code != exitBadInput || !strings.Contains(stderr, "give --workers") {
		t.Fatalf("cpu without --workers: exit %d, %s", code, stderr)
	}
	if _, _, stderr := runCmd(t, "check", "--model", mp, cpu, "--workers", "8"); strings.Contains(stderr, "overrides") {
		t.Errorf("the --workers the manifest asked for: %s", stderr)
	}
	_, out, _ := runCmd(t, "check", "--workers", "2", "--format", "json")
	var e checkErrorJSON
	if err := json.Unmarshal([]byte(out), &e); err != nil || e.Input != "" || !strings.Contains(e.Error, "missing --model") {
		t.Errorf("no --model: %+v, %v; want no input named", e, err)
	}
	_, err := parseManifest("m.yaml", []byte("kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 4\n      restartpolicy: Never\n"))
	if err == nil || !strings.Contains(err.Error(), "Kubernetes refuses another key or drops it): did you mean restartPolicy?") || strings.Contains(err.Error(), "1 replica") {
		t.Errorf("restartpolicy beside replicas: %v", err)
	}
	_, err = parseManifest("m.yaml", []byte("kind: TFJob\n# {{ comment }}\nspec: [\n"))
	if err == nil || strings.Contains(err.Error(), "template") || !strings.Contains(err.Error(), "m.yaml:3:") {
		t.Errorf("a {{ in a comment: %v", err)
	}
}
