package planner

import (
	"reflect"
	"testing"
)

// TestHellIsSRPTOnSteepPowerLaws: on s(k) = k^p with p > 1/2 and one cap
// for every job, hell's value s(k)^2/(k r) rises with k, so it hands out
// srpt's allocation, and the simulations agree; at p = 0.4 the value falls
// with k and they part.
func TestHellIsSRPTOnSteepPowerLaws(t *testing.T) {
	for _, c := range []struct {
		p    float64
		same bool
	}{{0.8, true}, {0.6, true}, {0.4, false}} {
		jobs := overloadWorkload(200)
		for i := range jobs {
			jobs[i].Curve = PowerLaw{P: c.p}
		}
		s := Settings{Servers: 64, Integer: true}
		h, err := Simulate(jobs, Hell{}, s)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Simulate(jobs, SRPT{}, s)
		if err != nil {
			t.Fatal(err)
		}
		h.Policy, r.Policy = "", ""
		if got := reflect.DeepEqual(h, r); got != c.same {
			t.Errorf("p = %g: hell and srpt the same: %v, want %v (mean response %.6g, %.6g)", c.p, got, c.same, h.MeanResponse, r.MeanResponse)
		}
	}
}
