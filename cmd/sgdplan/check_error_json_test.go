package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Under --format json check answers on stdout also when it gives no
// verdict: verdict "error", the exit code, the message, and which file is
// at fault (a gate tells a manifest to mend from its own model.json).
func TestCheckJSONError(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	bad := writeTestFile(t, dir, "job.yaml", "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replica: 8\n")
	for _, c := range []struct {
		name  string
		args  []string
		input string
		msg   string
	}{
		{"no model file", []string{"--model", filepath.Join(dir, "none.json"), "--workers", "2"}, "model", "none.json: no such file"},
		{"a manifest's fault", []string{"--model", mp, bad}, "manifest", "job.yaml:6:7: spec.tfReplicaSpecs.Worker.replica: not a field"},
		{"a flag's fault", []string{"--model", mp, "--workers", "0"}, "", "check: 0 workers: want >= 1"},
	} {
		code, stdout, stderr := runCmd(t, append([]string{"check", "--format", "json"}, c.args...)...)
		var e checkErrorJSON
		if err := json.Unmarshal([]byte(stdout), &e); err != nil {
			t.Errorf("%s: stdout %q: %v", c.name, stdout, err)
			continue
		}
		// the raw text reads as stderr does (">=", not json.Marshal's "\u003e=")
		if code != exitBadInput || e.Verdict != "error" || e.ExitCode != code || e.Input != c.input || !strings.Contains(e.Error, c.msg) || !strings.Contains(stderr, c.msg) || !strings.Contains(stdout, c.msg) {
			t.Errorf("%s: exit %d, %+v, stderr %q; want exit 2, input %q, %q", c.name, code, e, stderr, c.input, c.msg)
		}
	}
	// a verdict: its own object alone
	code, stdout, _ := runCmd(t, "check", "--format", "json", "--model", mp, "--workers", "2")
	var v checkJSON
	if err := json.Unmarshal([]byte(stdout), &v); err != nil || v.Verdict == "error" || v.ExitCode != code {
		t.Errorf("a verdict: exit %d, %q, %v", code, stdout, err)
	}
}
