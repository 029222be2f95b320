package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A --data folder that holds none of the public datasets (one level off,
// or SGDPLAN_DATA wrong) is refused, exit 2, nothing written: it gave a
// page of the project's async traces alone, exit 0, over
// docs/validation.md by default. With --async the traces named are scored,
// and a warning names the datasets not there.
func TestValidateNoDatasets(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "v.md")
	code, _, stderr := runCmd(t, "validate", "--data", dir, "--out", out)
	if code != exitBadInput || !strings.Contains(stderr, "validate: --data "+dir+": none of the public datasets is there") {
		t.Errorf("exit %d stderr %q, want %d and the folder named", code, stderr, exitBadInput)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("validate wrote into %s: %v", dir, ents)
	}
	tr := asyncTrace(t, t.TempDir())
	code, _, stderr = runCmd(t, "validate", "--data", dir, "--out", out, "--async", tr)
	want := "sgdplan: warning: validate: --data " + dir + " lacks " + strings.Join(protocolDatasets, ", ") + ": not scored"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("--async: exit %d stderr %q, want 0 and %q", code, stderr, want)
	}
	// a folder of another dataset validate scores (mlperf-training here,
	// empty) is scored, not refused
	if testing.Short() {
		return
	}
	ml := t.TempDir()
	if err := os.Mkdir(filepath.Join(ml, "mlperf-training"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr = runCmd(t, "validate", "--data", ml, "--out", filepath.Join(ml, "v.md")); code != 0 {
		t.Errorf("a folder with mlperf-training alone: exit %d: %s", code, stderr)
	}
}
