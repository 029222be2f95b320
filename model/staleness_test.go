package model

import (
	"math"
	"testing"
)

// psNet is push, apply, pull after 1 s of compute.
var psNet = Network{Z: 1, Stations: []Station{{Name: "push", D: 0.1}, {Name: "apply", D: 0.05}, {Name: "pull", D: 0.2}}}

func TestWindowStalenessHandWorked(t *testing.T) {
	// N = 2: the other worker is alone in the network (N-1 = 1 customer),
	// at pull with probability Q_pull(1) = 0.2/1.35, so the mean staleness
	// is 1 - 0.2/1.35 = 1.15/1.35.
	prev := ExactMVA(psNet, 1)
	if s := WindowStaleness(psNet, prev, 2, 1); relErr(s, 1.15/1.35) > 1e-12 {
		t.Errorf("staleness at N=2: %g, want %g", s, 1.15/1.35)
	}
	// N = 1: nobody else, staleness 0.
	if s := WindowStaleness(psNet, ExactMVA(psNet, 0), 2, 1); s != 0 {
		t.Errorf("N=1: %g", s)
	}
	// Read at push, apply at apply: out of window are apply+1..push
	// cyclically = pull, think, push. N = 2: 1 - (0.2 + 1 + 0.1)/1.35 = 0.05/1.35.
	if s := WindowStaleness(psNet, prev, 0, 1); relErr(s, 0.05/1.35) > 1e-12 {
		t.Errorf("wrapped window: %g, want %g", s, 0.05/1.35)
	}
}

// TestStalenessMatchesSimulation: the mean staleness
// against the simulator, which counts the other workers' applies between a
// worker's read and its own apply, shard by shard.
func TestStalenessMatchesSimulation(t *testing.T) {
	exp := job
	exp.SCVCompute, exp.SCVPush, exp.SCVApply, exp.SCVPull = 1, 1, 1, 1
	exp.Apply = 0.15 // the apply is the single bottleneck: the simulation mixes fast
	seq := exp
	seq.Sharding = Sequential
	det := exp // deterministic transfers and apply, exponential compute
	det.SCVPush, det.SCVApply, det.SCVPull = 0, 0, 0
	det.Correction = true
	detSeq := det
	detSeq.Sharding = Sequential
	low := exp
	low.SCVCompute, low.SCVPush, low.SCVApply, low.SCVPull = 0.1, 0.05, 0.2, 0.05
	low.Correction = true
	links := job // the links (101 ms) are the bottleneck, the apply is 20 ms
	links.SCVCompute = 1
	links.Correction = true
	Ns := []int{2, 4, 8, 16, 32}
	cycles := 40000
	if testing.Short() {
		Ns = []int{4, 16}
		cycles = 20000
	}
	for _, tc := range []struct {
		name string
		a    AsyncPS
		P    int
		tol  float64 // relative, on the mean; 0: compare the corrections instead
	}{
		{"one shard exponential", exp, 1, 0.03},
		{"sequential exponential", seq, 2, 0.03},
		{"parallel exponential", exp, 4, 0.03},
		{"one shard deterministic", det, 1, 0},
		{"sequential deterministic", detSeq, 2, 0},
		{"parallel deterministic", det, 4, 0},
		{"one shard low-variance", low, 1, 0},
		{"links deterministic", links, 1, 0},
		{"links parallel det.", links, 4, 0},
	} {
		var sumCorr, sumFlow float64
		for _, N := range Ns {
			c := Config{Workers: N, PS: tc.P}
			sim := simulate(desFromAsyncPS(tc.a, c), N, 2000, cycles, uint64(11*N+tc.P))
			mean := tc.a.Staleness(c)
			flow := tc.a
			flow.Flow = true
			fmean := flow.Staleness(c)
			var v, above float64 // variance, P(staleness > N-1) of the simulated histogram
			for s, p := range sim.Hist {
				v += p * (float64(s) - sim.Staleness) * (float64(s) - sim.Staleness)
				if s > N-1 {
					above += p
				}
			}
			t.Logf("%-24s P=%d N=%2d staleness simulated %.3f model %.3f (%+.1f%%) with flow %.3f (%+.1f%%), N-1 = %d; simulated sd %.2f, P(> N-1) %.3f",
				tc.name, tc.P, N, sim.Staleness, mean, 100*(mean/sim.Staleness-1), fmean, 100*(fmean/sim.Staleness-1), N-1, math.Sqrt(v), above)
			if tc.tol > 0 && (relErr(mean, sim.Staleness) > tc.tol || relErr(fmean, sim.Staleness) > tc.tol) {
				t.Errorf("%s P=%d N=%d: mean staleness %g (flow %g), simulated %g", tc.name, tc.P, N, mean, fmean, sim.Staleness)
			}
			sumCorr += relErr(mean, sim.Staleness)
			sumFlow += relErr(fmean, sim.Staleness)
		}
		if tc.tol == 0 && sumFlow >= sumCorr {
			t.Errorf("%s: staleness with flow %.1f%% off on average, not closer than without (%.1f%%)", tc.name, 100*sumFlow/float64(len(Ns)), 100*sumCorr/float64(len(Ns)))
		}
	}
}
