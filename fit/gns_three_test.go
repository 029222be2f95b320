package fit

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Three runs at three batches: every resample the law can be fitted to is
// the runs reordered, so the bootstrap gave the fit itself 200 times and
// an interval of no width. Now no interval, and a warning says why; a
// fourth run (a batch repeated) gives the bootstrap something to vary.
func TestFitGNSThreeRunsNoInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	runs := gnsRuns([]float64{128, 256, 512, 1024}, 3000, 30000, 0.05, rng)
	f, err := FitGNS(runs[:3], 200, 1, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if f.Samples != nil || f.NoiseLo != f.Noise || f.NoiseHi != f.Noise {
		t.Errorf("3 runs: %d samples, interval [%g, %g] about %g: want none", len(f.Samples), f.NoiseLo, f.NoiseHi, f.Noise)
	}
	if w := strings.Join(f.Warnings, "\n"); !strings.Contains(w, "3 runs leave the law (2 parameters) 1 degree of freedom") || !strings.Contains(w, "no interval") {
		t.Errorf("3 runs: warnings %q, want the missing interval explained", w)
	}
	// the same 3 batches with the second run repeated: an interval
	four := append(runs[:3:3], runs[1])
	four[3].Steps = []float64{0, runs[1].Steps[1] * 1.1, runs[1].Steps[2] * 1.1}
	g, err := FitGNS(four, 200, 1, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if g.Samples == nil || !(g.NoiseLo < g.NoiseHi) {
		t.Errorf("4 runs at 3 batches: %d samples, interval [%g, %g]: want one of some width", len(g.Samples), g.NoiseLo, g.NoiseHi)
	}
	for _, w := range g.Warnings {
		if strings.Contains(w, "no interval") {
			t.Errorf("4 runs at 3 batches: %q", w)
		}
	}
}
