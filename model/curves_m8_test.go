package model

import (
	"math"
	"testing"
)

// Knee's rule is a gain strictly below alpha: a sweep whose every step
// gains exactly alpha has no knee. Speedups 1, 1.5, 2 at 1, 2, 3 workers
// (exact in binary) gain 0.5 a worker: Knee(0.5) is the last N and false;
// with <= it stopped at N = 1.
func TestKneeGainEqualToAlpha(t *testing.T) {
	pts := []Point{
		{Config: Config{Workers: 1}, Speedup: 1},
		{Config: Config{Workers: 2}, Speedup: 1.5},
		{Config: Config{Workers: 3}, Speedup: 2},
	}
	if n, ok := Knee(pts, 0.5); n != 3 || ok {
		t.Errorf("Knee(0.5) on gains of exactly 0.5 = %d, %v; want 3, false", n, ok)
	}
	// Just above the gain there is a knee at the first point.
	if n, ok := Knee(pts, 0.5000001); n != 1 || !ok {
		t.Errorf("Knee(0.5000001) = %d, %v; want 1, true", n, ok)
	}
}

// UpdatesTo is 0 when the loss at the start is already at the target
// ("0 when l(0) is already at or below loss"), even with a zero rate B0:
// l(0) = 1/B1 + B2 = 1/0.5 + 0 = 2, and a target of exactly 2 needs no
// update. With k < 0 in place of k <= 0 it returned +Inf and an error.
func TestUpdatesToTargetAtStart(t *testing.T) {
	for _, l := range []LossCurve{{B0: 0, B1: 0.5, B2: 0}, {B0: 0.01, B1: 0.5, B2: 0}} {
		u, err := l.UpdatesTo(2)
		if err != nil || u != 0 {
			t.Errorf("%+v: UpdatesTo(l(0) = 2) = %g, %v; want 0, nil", l, u, err)
		}
	}
}

// The maximum of one standard normal is the variable itself: its mean is 0
// exactly (ExpectedMaxNormal's doc: "0 for n = 1"). Simpson's rule on the
// symmetric integrand leaves a rounding residue (2e-17) instead.
func TestExpectedMaxNormalOfOne(t *testing.T) {
	if e := ExpectedMaxNormal(1); e != 0 || math.Signbit(e) {
		t.Errorf("ExpectedMaxNormal(1) = %g, want 0", e)
	}
}
