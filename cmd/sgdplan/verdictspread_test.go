package main

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
)

// verdictSpread leaves the loss curve's and the batch law's samples out of
// every refit (only the updates' interval reads them): the shares are
// those of the refits with them, on an asynchronous model with a loss
// curve (testdata/asgd) and a synchronous one with a batch law
// (testdata/sync-gns), at counts on both sides of their knees; the model's
// own efficiency is left as it was.
func TestVerdictSpreadWithoutCurveSamples(t *testing.T) {
	dir := t.TempDir()
	gp := filepath.Join(dir, "gns.json")
	if code, _, e := runCmd(t, "fit", syncGNS, "--out", gp, "--bootstrap", "40"); code != 0 {
		t.Fatal(e)
	}
	for _, path := range []string{asgdModel(t, dir), gp} {
		m, err := fit.LoadModel(path)
		if err != nil {
			t.Fatal(err)
		}
		e := m.Efficiency
		if e == nil || len(e.CurveSamples) == 0 && (e.GNS == nil || len(e.GNS.Samples) == 0) {
			t.Fatalf("%s: no curve or batch-law samples to leave out", path)
		}
		curves := len(e.CurveSamples)
		for _, n := range []int{2, 3, 8, 64} {
			got, _ := verdictSpread(m, n, m.Reference.PS, "warn")
			count := map[string]int{}
			for i := range m.Samples {
				count[verdict(m.Resampled(i), n, m.Reference.PS).word]++
			}
			want := map[string]float64{}
			for w, k := range count {
				want[w] = float64(k) / float64(len(m.Samples))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s at %d workers: shares %v, %v with the samples", path, n, got, want)
			}
		}
		if m.Efficiency != e || len(e.CurveSamples) != curves {
			t.Errorf("%s: the model's efficiency changed", path)
		}
	}
}

// BenchmarkVerdictSpread is check's verdict over the bootstrap refits of
// testdata/asgd fitted with --bootstrap 1000, at 64 workers: each refit's
// prediction sorted the loss curve's 1,000 samples (B^2 log B).
func BenchmarkVerdictSpread(b *testing.B) {
	sf, _, err := fit.FitStepsPaths([]string{filepath.Join("..", "..", "testdata", "asgd")}, fit.StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 1000})
	if err != nil {
		b.Fatal(err)
	}
	m := sf.Model
	for b.Loop() {
		verdictSpread(m, 64, 1, "warn")
	}
}
