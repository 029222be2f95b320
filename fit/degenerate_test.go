package fit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bootstrap resample whose parameters give no finite positive speed at
// one worker (a demand at 0) is dropped by NewModel with a warning, so that
// fit never writes a model.json that predict and check refuse; WriteModel
// itself refuses a model that fails LoadModel's checks and writes nothing.
func TestDegenerateSamplesDropped(t *testing.T) {
	m := synthModel(t, "optimus-sync", []float64{1e-3, 0.05, 0.01, 0.002, 0.005}, []int{1, 2, 4, 8}, []int{1, 2}, false, 0.01, 1, 20, "sync", Reference{PS: 2, Batch: 32})
	if len(m.Samples) != 20 {
		t.Fatalf("%d samples, want 20", len(m.Samples))
	}
	for i := 0; i < 5; i++ {
		for j := range m.Samples[i] {
			m.Samples[i][j] = 0 // a step time of 0: +Inf steps/s
		}
	}
	m.dropDegenerate()
	if len(m.Samples) != 15 {
		t.Errorf("%d samples kept, want the 15 with a finite speed", len(m.Samples))
	}
	w := m.Diagnostics.Warnings
	if len(w) == 0 || !strings.Contains(w[len(w)-1], "5 of 20 bootstrap resamples") {
		t.Errorf("warnings %q, want one counting the 5 dropped", w)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if err := WriteModel(p, m); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadModel(p); err != nil {
		t.Errorf("the written model does not load: %v", err)
	}
	// a model that fails the loader's checks is not written
	for j := range m.Parameters {
		m.Parameters[j].Value = 0
	}
	q := filepath.Join(dir, "zero.json")
	if err := WriteModel(q, m); err == nil || !strings.Contains(err.Error(), "fails its own checks") {
		t.Errorf("all-zero model: %v, want a refusal", err)
	}
	if _, err := os.Stat(q); err == nil {
		t.Error("the all-zero model was written")
	}
}
