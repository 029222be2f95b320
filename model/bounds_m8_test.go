package model

import (
	"math"
	"testing"
)

// NetworkBounds and NetworkKnee at their degenerate ends, as their docs
// state them: no customers give a light-load bound of 0 (N/(Z + sum D) with
// N = 0), and no queueing demand gives no saturation bound and no knee
// (+Inf), also when the demand is written as -0 (Validate accepts it) and
// when the total demand is 0 too (the knee 0/0 would be NaN).
func TestBoundsDegenerate(t *testing.T) {
	negZero := math.Copysign(0, -1)
	// N = 0 with a zero total demand: 0, not 0/0 or +Inf.
	for _, n := range []Network{{}, {Stations: []Station{{Name: "q", D: 0}}}} {
		if light, _ := NetworkBounds(n, 0); light != 0 {
			t.Errorf("%+v, N = 0: light-load bound %g, want 0", n, light)
		}
	}
	for _, n := range []Network{
		{Stations: []Station{{Name: "q", D: 0}}},
		{Stations: []Station{{Name: "q", D: negZero}, {Name: "d", D: 0, Delay: true}}},
		{Z: 1, Stations: []Station{{Name: "q", D: negZero}}},
	} {
		if err := n.Validate(); err != nil {
			t.Fatalf("%+v: %v", n, err)
		}
		if _, sat := NetworkBounds(n, 2); !math.IsInf(sat, 1) {
			t.Errorf("%+v: saturation bound %g, want +Inf (no queueing demand)", n, sat)
		}
		if k := NetworkKnee(n); !math.IsInf(k, 1) {
			t.Errorf("%+v: knee %g, want +Inf (no queueing demand)", n, k)
		}
	}
}
