package fit

import (
	"math"
	"testing"
)

// profileNoise is the least-squares noise scale of S(B) = S0 (1 +
// n/B)/(1 + n/ref) on log steps, found apart from the fitter: for a given
// n the best log S0 is the mean of log steps minus the log ratio, so the
// cost is a function of n alone, minimised by golden section on log n.
func profileNoise(batches, steps []float64, ref float64) float64 {
	cost := func(ln float64) float64 {
		n := math.Exp(ln)
		r := make([]float64, len(batches))
		mean := 0.0
		for i, b := range batches {
			r[i] = math.Log(steps[i]) - math.Log((1+n/b)/(1+n/ref))
			mean += r[i] / float64(len(r))
		}
		c := 0.0
		for _, v := range r {
			c += (v - mean) * (v - mean)
		}
		return c
	}
	a, b := math.Log(1e-3), math.Log(1e8)
	g := (math.Sqrt(5) - 1) / 2
	for range 200 {
		c, d := b-g*(b-a), a+g*(b-a)
		if cost(c) < cost(d) {
			b = d
		} else {
			a = c
		}
	}
	return math.Exp((a + b) / 2)
}

// The ±1% range of a batch score is the least and the most noise scale
// over the fitted counts each moved by 1% down and up, as a separate
// minimiser finds them; the curves that reach the target only at their
// last evaluation are counted.
func TestScoreBatchSizeNoiseRangeAndLastEvaluation(t *testing.T) {
	var cs []BatchCurve
	batches := []float64{32, 64, 128, 256, 512, 1024}
	for _, b := range batches {
		s := 1000 * (1 + 256/b)
		cs = append(cs, BatchCurve{Batch: b, Steps: []float64{0, s, 2 * s}, Loss: []float64{1, 0.5, 0.4}})
	}
	cs[0].Loss[2] = 0.5
	s, err := ScoreBatchSize("exact", cs)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range 3 {
		for _, by := range []float64{0.99, 1.01} {
			st := []float64{cs[0].Steps[1], cs[1].Steps[1], cs[2].Steps[1]}
			st[i] *= by
			n := profileNoise(batches[:3], st, 32)
			lo, hi = math.Min(lo, n), math.Max(hi, n)
		}
	}
	if relErr(s.NoiseLo, lo) > 1e-3 || relErr(s.NoiseHi, hi) > 1e-3 || !(s.NoiseLo < s.Noise && s.Noise < s.NoiseHi) {
		t.Errorf("±1%%: [%g, %g] about %g, want [%g, %g] by the profile", s.NoiseLo, s.NoiseHi, s.Noise, lo, hi)
	}
	if s.AtLast != 0 || s.Evals != 3 {
		t.Errorf("target met at the middle evaluation: %d at the last, %d evaluations; want 0 and 3", s.AtLast, s.Evals)
	}
	// every curve two evaluations long, the target met at the second
	for i := range cs {
		cs[i].Steps, cs[i].Loss = cs[i].Steps[:2], []float64{1, 0.5}
	}
	if s, err = ScoreBatchSize("short", cs); err != nil || s.AtLast != 6 || s.Evals != 2 {
		t.Errorf("2-evaluation curves: %d at the last, %d evaluations, %v; want 6 and 2", s.AtLast, s.Evals, err)
	}
}
