package traces

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

// TestChromeRealProfilerTrace reads a real torch.profiler trace of the
// PyTorch parameter-server harness (testdata/asgd/samples) and checks its
// phase times against the harness's own steps.csv of the same worker, timed
// independently with CLOCK_MONOTONIC. ProfilerStep#k is the harness's step
// k+1 (the profiler's numbering under its wait/warmup schedule; see the
// samples' README). The profiler's compute starts after the mini-batch is
// drawn, so it is a little shorter; every phase agrees within 2%.
func TestChromeRealProfilerTrace(t *testing.T) {
	dir := filepath.Join(testenv.RepoRoot(t), "testdata", "asgd", "samples", "chrome")
	f, err := os.Open(filepath.Join(dir, "r3000k-p2-n2.pt.trace.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, _, err := ReadChromeTrace(f, "r3000k-p2-n2.pt.trace.json.gz", ConvertOptions{Workers: 2, PS: 2, Batch: 32})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) != 8 {
		t.Fatalf("%d steps from the profiler trace, want its 8 active steps", len(tr.Steps))
	}
	h, err := os.Open(filepath.Join(dir, "harness-steps-worker0.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	harness := map[int64]Step{}
	if _, err := ReadSteps(h, "harness-steps-worker0.csv", func(s Step) error {
		harness[s.Step] = s
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, s := range tr.Steps {
		ref, ok := harness[s.Step+1]
		if !ok {
			t.Errorf("profiler step %d: no harness step %d", s.Step, s.Step+1)
			continue
		}
		for _, ph := range []struct {
			name     string
			got, ref float64
		}{{"pull", s.Pull, ref.Pull}, {"compute", s.Compute, ref.Compute}, {"push", s.Push, ref.Push}} {
			if rel := math.Abs(ph.got-ph.ref) / ph.ref; !(rel <= 0.02) {
				t.Errorf("step %d %s: profiler %.6f s, harness %.6f s (%.1f%% apart, want <= 2%%)", s.Step, ph.name, ph.got, ph.ref, 100*rel)
			}
		}
	}
}
