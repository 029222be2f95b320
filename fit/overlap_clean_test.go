package fit

import (
	"path/filepath"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// The step traces of the project have no iteration of a worker that starts
// before an earlier one of the worker ends (Stats, in memory, and the runs of
// the streamed summary the fit reads).
func TestFitNoOverlapInFixtures(t *testing.T) {
	root := repoRoot(t)
	dirs := []string{
		filepath.Join(root, "testdata", "asgd"),
		filepath.Join(root, "testdata", "asgd", "cpu"),
		filepath.Join(root, "testdata", "sync-gns"),
		filepath.Join(root, "traces", "testdata", "canonical"),
	}
	synth, err := filepath.Glob(filepath.Join(root, "testdata", "synthetic", "*"))
	if err != nil || len(synth) == 0 {
		t.Fatalf("glob testdata/synthetic: %v %v", synth, err)
	}
	for _, dir := range append(dirs, synth...) {
		tr, _, err := traces.Load(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		stats, err := Stats(tr)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, r := range stats {
			if r.Overlap != nil {
				t.Errorf("%s: run %s: %v", dir, r.Run, r.Overlap)
			}
		}
	}
}
