package planner

import (
	"errors"
	"math"
	"testing"
)

// sqrtCurve is s(k) = sqrt(k), a power law of exponent 1/2 that is not a
// PowerLaw: the policies treat it as a fitted curve.
type sqrtCurve struct{}

func (sqrtCurve) Speedup(k float64) float64 {
	if k <= 0 {
		return 0
	}
	return math.Sqrt(k)
}

// heSRPT on a curve that is not a PowerLaw takes its effective exponent,
// log s(n)/log n, and on one server, where log 1 = 0, that of 2 workers:
// for sqrt it is 1/2 at every count. With p = 1/2 (q = 2) heSRPT's shares
// (design.md) of m = 2 jobs are, largest remaining first, (1/2)^2 = 1/4
// and 1 - 1/4 = 3/4: on 1 server the job with 1 s left gets 0.75 and the
// one with 2 s left 0.25, as the PowerLaw{0.5} jobs get.
func TestHeSRPTPolicyOneServerFittedCurveM9(t *testing.T) {
	if p := exponentOf(sqrtCurve{}, 1); math.Abs(p-0.5) > 1e-12 {
		t.Errorf("exponent of sqrt on 1 server %g, want 0.5", p)
	}
	for _, c := range []Speedup{sqrtCurve{}, PowerLaw{P: 0.5}} {
		jobs := []Job{{ID: "small", Size: 1, Curve: c}, {ID: "large", Size: 2, Curve: c}}
		vs := views(1, jobs, []float64{1, 2})
		alloc := make([]float64, 2)
		HeSRPTPolicy{}.Allocate(1, vs, alloc)
		if math.Abs(alloc[0]-0.75) > 1e-9 || math.Abs(alloc[1]-0.25) > 1e-9 {
			t.Errorf("%T: heSRPT on 1 server, 1 s and 2 s left: %v, want [0.75 0.25]", c, alloc)
		}
	}
}

// HeSRPT's closed form applies when no larger job weighs more per unit of
// the objective; equal weights are fine. Slowdown with weights 0.3 and 1
// on sizes 3 and 10 weighs both 0.1 per second of response, but 0.3/3
// rounds an ulp below 1/10 = 0.1 (the larger job is then "heavier" by
// 1e-17): the check forgives such rounding (a relative 1e-12). The
// schedule is flow time's for equal weights, by hand on 1 server at
// p = 1/2: the small job gets 3/4 of the server, rate sqrt(3/4), and ends
// at 3/sqrt(3/4) = 2 sqrt(3) = 3.4641 s; the large one runs at
// sqrt(1/4) = 1/2 until then (sqrt(3) s of work) and alone after:
// 2 sqrt(3) + 10 - sqrt(3) = 10 + sqrt(3) = 11.7321 s. The objective is
// 0.1 (2 sqrt(3) + 10 + sqrt(3)) = 0.1 (10 + 3 sqrt(3)).
func TestHeSRPTEqualWeightPerSizeM9(t *testing.T) {
	x, w := []float64{3, 10}, []float64{0.3, 1}
	if !(w[0]/x[0] < w[1]/x[1]) {
		t.Fatalf("%v/%v no longer rounds below %v: the test lost its point", w[0], x[0], w[1]/x[1])
	}
	off, err := HeSRPT(x, w, 0.5, 1, Slowdown)
	if err != nil {
		if errors.Is(err, ErrNotOrdered) {
			t.Fatalf("equal weights per second (0.3/3 and 1/10) refused: %v", err)
		}
		t.Fatal(err)
	}
	s3 := math.Sqrt(3)
	want := []float64{2 * s3, 10 + s3}
	for i := range want {
		if math.Abs(off.Completion[i]-want[i]) > 1e-9*want[i] {
			t.Errorf("completions %v, want %v", off.Completion, want)
			break
		}
	}
	if w := 0.1 * (10 + 3*s3); math.Abs(off.Objective-w) > 1e-9*w {
		t.Errorf("objective %g, want 0.1 (10 + 3 sqrt 3) = %g", off.Objective, w)
	}
}
