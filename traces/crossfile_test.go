package traces

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTestFile writes content to dir/name, creating dir.
func writeTestFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const crossSteps = stepsHeader +
	"a,2,1,32,0,0,0,1,,,,,\n" +
	"a,2,1,32,1,0,0,1,,,,,\n" +
	"a,2,1,32,0,1,1,2,,,,,\n" +
	"a,2,1,32,1,1,1,2,,,,,\n"

// TestPlainAndGzipInOneFolder: a folder holding steps.csv and steps.csv.gz
// would count its steps twice; it is an error naming both.
func TestPlainAndGzipInOneFolder(t *testing.T) {
	dir := t.TempDir()
	p := writeTestFile(t, dir, "steps.csv", crossSteps)
	q := writeTestFile(t, dir, "steps.csv.gz", gzipString(crossSteps))
	for name, call := range map[string]func() error{
		"Files":          func() error { _, err := Files(dir); return err },
		"Load":           func() error { _, _, err := Load(dir); return err },
		"SummarizePaths": func() error { _, _, err := SummarizePaths(dir); return err },
	} {
		err := call()
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), q) || !strings.Contains(err.Error(), "both") {
			t.Errorf("%s: error %v, want one naming both %s and %s", name, err, p, q)
		}
	}
}

// TestStepInTwoFiles: the same trace given twice (a folder and its copy)
// is an error naming the step and both files, in Load and SummarizePaths;
// a run split over files with distinct steps is read.
func TestStepInTwoFiles(t *testing.T) {
	root := t.TempDir()
	base, cp := filepath.Join(root, "base"), filepath.Join(root, "copy")
	p := writeTestFile(t, base, "steps.csv", crossSteps)
	q := writeTestFile(t, cp, "steps.csv.gz", gzipString(crossSteps))
	want := "traces: " + q + `:2:6: step: (run "a", worker 0, step 0) is also in ` + p
	if _, _, err := Load(base, cp); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Load: error %v, want %q...", err, want)
	}
	if _, _, err := SummarizePaths(base, cp); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("SummarizePaths: error %v, want %q...", err, want)
	}
	// a later step only: the duplicate is found wherever it lies
	late := writeTestFile(t, filepath.Join(root, "late"), "steps.csv", stepsHeader+"a,2,1,32,1,7,5,6,,,,,\na,2,1,32,1,1,1,2,,,,,\n")
	if _, _, err := Load(base, late); err == nil || !strings.Contains(err.Error(), late+`:3:6: step: (run "a", worker 1, step 1) is also in `+p) {
		t.Errorf("Load: error %v, want the duplicate on line 3 of %s", err, late)
	}

	// one worker per file: the run is read whole
	w0 := writeTestFile(t, filepath.Join(root, "w0"), "steps.csv", stepsHeader+"a,2,1,32,0,0,0,1,,,,,\na,2,1,32,0,1,1,2,,,,,\n")
	w1 := writeTestFile(t, filepath.Join(root, "w1"), "steps.csv", stepsHeader+"a,2,1,32,1,0,0,1,,,,,\na,2,1,32,1,1,1,2,,,,,\n")
	tr, _, err := Load(w0, w1)
	if err != nil || len(tr.Steps) != 4 {
		t.Fatalf("Load of a run split by worker: %v", err)
	}
	sums, _, err := SummarizePaths(w0, w1)
	if err != nil || len(sums) != 1 || sums[0].Steps != 4 {
		t.Fatalf("SummarizePaths of a run split by worker: %v %+v", err, sums)
	}
	// the same file named twice (itself and through its folder) is read once
	if tr, _, err := Load(base, p); err != nil || len(tr.Steps) != 4 {
		t.Errorf("Load(folder, its file): %v", err)
	}
}
