package fit

import (
	"math"
	"slices"
	"testing"
)

// Tests from mutation round 4 of the NNLS fits.

// An NNLS variant marks a parameter at its bound: NNLS leaves a term the
// data do not need at exactly 0, Ernest's lower bound. Noise-free Ernest
// steps T = 0.05 + 0.002 b (no log w or w term) at 1-8 workers and batches
// 16 and 64: the fit is (0.05, 0.002, 0, 0), the last two at 0 and marked,
// the first two inside the box, and the cost is 0 (every step time hit).
func TestNNLSFamilyMarksTheLowerBound(t *testing.T) {
	truth := []float64{0.05, 0.002, 0, 0}
	var pts []Point
	for _, b := range []float64{16, 64} {
		pts = append(pts, synth("ernest", truth, []int{1, 2, 4, 8}, []int{0}, b, false, 0, 1)...)
	}
	res, err := nnlsFamily(families["ernest"]).Estimate(pts)
	if err != nil {
		t.Fatal(err)
	}
	for j, want := range truth {
		if math.Abs(res.X[j]-want) > 1e-9 {
			t.Errorf("theta %v, want %v", res.X, truth)
			break
		}
	}
	if want := []bool{false, false, true, true}; !slices.Equal(res.AtBound, want) {
		t.Errorf("at bound %v, want %v (log w and w terms at 0)", res.AtBound, want)
	}
	if res.Cost > 1e-20 {
		t.Errorf("cost %g on noise-free data, want 0", res.Cost)
	}
}

// nnlsCandidates gives one NNLS variant per candidate whose step time is
// linear in its parameters: an NNLS variant already among the candidates
// has none of its own ("ernest/nnls/nnls" is no family: LookupFamily), nor
// has a mean family.
func TestNNLSCandidatesNoVariantOfAVariant(t *testing.T) {
	var pts []Point
	for _, b := range []float64{16, 64} {
		pts = append(pts, synth("ernest", []float64{0.05, 0.002, 0.01, 0.003}, []int{1, 2, 4, 8}, []int{0}, b, false, 0, 1)...)
	}
	e := families["ernest"]
	mean, err := meanFamily([]Family{e, families["optimus-sync"]})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range nnlsCandidates([]Family{e, nnlsFamily(e), mean}, pts) {
		got = append(got, f.Name)
	}
	if !slices.Equal(got, []string{"ernest/nnls"}) {
		t.Errorf("NNLS candidates %q, want [ernest/nnls]", got)
	}
	if _, ok := LookupFamily("ernest/nnls/nnls"); ok {
		t.Errorf("ernest/nnls/nnls is a family")
	}
}
