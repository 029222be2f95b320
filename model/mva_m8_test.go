package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Mutation round 8 (model/): tests for mutants of mva.go that the earlier
// tests let through. Each value is checked against a law of closed
// networks, not against the solver's own output.

// A delay (infinite-server) station has no queue: every customer there is
// in service, so its utilisation is the mean number present, X D by
// Little's law, whatever its Servers field says (Result.U's doc: "For a
// delay station it is the mean number of customers in service, X*D").
// Dropping the delay case gave X D / Servers.
//
//	N = 1: X = 1/(Z + sum D) = 1/(1 + 2 + 0.5) = 1/3.5, U_wait = 2/3.5.
func TestDelayStationUtilisationIgnoresServers(t *testing.T) {
	n := Network{Z: 1, Stations: []Station{{Name: "wait", D: 2, Delay: true, Servers: 4}, {Name: "link", D: 0.5}}}
	if r := ExactMVA(n, 1); math.Abs(r.U[0]-2/3.5) > 1e-12 {
		t.Errorf("N=1: delay utilisation %.15g, want X D = 2/3.5 = %.15g", r.U[0], 2/3.5)
	}
	for _, N := range []int{2, 5, 40} {
		for _, m := range []MVA{{}, {Correction: true}, {Approximate: true}} {
			r := m.Solve(n, N)
			// Little's law at the delay: Q = X R = X D, all of them in service.
			if relErr(r.U[0], r.X*2) > 1e-12 || relErr(r.U[0], r.Q[0]) > 1e-12 {
				t.Errorf("%+v N=%d: delay utilisation %g, want X D = %g = Q = %g", m, N, r.U[0], r.X*2, r.Q[0])
			}
		}
	}
}

// Where the residual correction (an SCV above 1) or the flow heuristic
// would let X(n) fall below X(n-1), the recursion holds X and shrinks the
// residence times so that the customers are conserved: Z X + sum Q = n
// (Little's law over the whole cycle, N = X times the cycle time). The
// shrink factor is g = (n/X - Z)/(sum R - Z); with the think time left out
// of the denominator the held steps lost customers. Random networks (Z > 0)
// with SCVs up to 4, where such steps occur; the test also makes sure that
// some step was held below saturation (X(n) = X(n-1) < 1/max D, which the
// cap at the saturation bound cannot produce), so that it is not vacuous.
func TestHeldStepsConserveCustomers(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	held := 0
	for i := range 200 {
		n := randomNetwork(rng)
		for k := range n.Stations {
			n.Stations[k].SCV = 4 * rng.Float64()
		}
		n.ZSCV = 4 * rng.Float64()
		for _, m := range []MVA{{Correction: true}, {Flow: true}} {
			dmax, _ := n.MaxDemand()
			prev := 0.0
			for N := 1; N <= 30; N++ {
				r := m.Solve(n, N)
				if r.X == prev && r.X*dmax < 1 {
					held++
				}
				prev = r.X
				tot := n.Z * r.X
				for _, q := range r.Q {
					tot += q
				}
				if relErr(tot, float64(N)) > 1e-9 {
					t.Fatalf("network %d %+v N=%d: Z X + sum Q = %.12g, want %d", i, m, N, tot, N)
				}
			}
		}
	}
	if held == 0 {
		t.Fatal("no held step below saturation in the sample: the test checks nothing")
	}
	t.Logf("%d held steps below saturation", held)
}

// A network whose cycle takes no time (think time and every demand zero)
// completes cycles at an infinite rate: X = 1/(Z + sum D) = +Inf at N = 1
// (the light-load bound), also when the zeros are negative zeros, which
// Validate accepts (-0 >= 0). Without the guard for a zero cycle the
// division N/(-0) gave X = -Inf. (With a station and N >= 2 the solver
// gives NaN, reported in /work/notes/m8_report.md: the guard's +Inf times a zero
// residence makes Q NaN; not pinned here.)
func TestZeroCycleThroughputIsPlusInf(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		n Network
		N int
	}{
		{Network{}, 3},
		{Network{Z: negZero}, 3},
		{Network{Z: negZero, Stations: []Station{{Name: "d", D: negZero, Delay: true}}}, 1},
		{Network{Z: negZero, Stations: []Station{{Name: "q", D: negZero}}}, 1},
	} {
		if err := tc.n.Validate(); err != nil {
			t.Fatalf("%+v: %v", tc.n, err)
		}
		if x := ExactMVA(tc.n, tc.N).X; !math.IsInf(x, 1) {
			t.Errorf("%+v: X(%d) = %g, want +Inf", tc.n, tc.N, x)
		}
	}
}

// A cycle of no time (Z = 0, every demand 0) has X = +Inf at every
// population, with nobody queued and no station busy, in every solver: X
// cannot fall with N. It was +Inf at one customer and NaN from two on
// (Q = Inf * 0 fed the next step), and the zero AsyncPS swept [+Inf NaN
// NaN] (mutation round 8's finding).
func TestZeroCycleStaysPlusInf(t *testing.T) {
	n := Network{Stations: []Station{{Name: "q", D: 0}, {Name: "d", D: 0, Delay: true}}}
	for name, m := range map[string]MVA{"exact": {}, "corrected": {Correction: true}, "flow": {Flow: true}, "schweitzer": {Approximate: true}} {
		for N := 1; N <= 4; N++ {
			r := m.Solve(n, N)
			if !math.IsInf(r.X, 1) {
				t.Errorf("%s: X(%d) = %g, want +Inf", name, N, r.X)
			}
			for k := range n.Stations {
				if r.Q[k] != 0 || r.U[k] != 0 || r.R[k] != 0 {
					t.Errorf("%s, N = %d, station %d: R %g, Q %g, U %g; want 0 each", name, N, k, r.R[k], r.Q[k], r.U[k])
				}
			}
		}
		xs := make([]float64, 4)
		m.Sweep(n, xs)
		for i, x := range xs {
			if !math.IsInf(x, 1) {
				t.Errorf("%s: sweep X(%d) = %g, want +Inf", name, i+1, x)
			}
		}
	}
	var a AsyncPS
	if err := a.Validate(); err != nil {
		t.Fatalf("the zero AsyncPS: %v", err)
	}
	if x := a.StepsPerSecond(Config{Workers: 2}); !math.IsInf(x, 1) {
		t.Errorf("the zero AsyncPS at 2 workers: %g steps/s, want +Inf", x)
	}
}
