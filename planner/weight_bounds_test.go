package planner

import (
	"math"
	"strings"
	"testing"
)

// Simulate (the API path, as plan's reader) refuses weights outside
// MinWeight to MaxWeight: 5e-324 over a size of 10 underflowed to 0 under
// hesrpt-slowdown, the sum of the weights was 0 and the share 0/0 = NaN,
// which panicked in roundWorkers on whole workers (slice bounds out of
// range); 1e308 overflowed the sum to +Inf (NaN workers).
func TestSimulateRefusesWeightsOutOfRange(t *testing.T) {
	for _, w := range []float64{5e-324, 1e-7, 1e7, 1e308, math.Inf(1), math.NaN(), -1} {
		jobs := []Job{{ID: "a", Size: 10, Curve: PowerLaw{P: 0.5}, Weight: w}, {ID: "b", Size: 20, Curve: PowerLaw{P: 0.5}, Weight: 1}}
		for _, obj := range []Objective{FlowTime, Slowdown} {
			_, err := Simulate(jobs, HeSRPTPolicy{obj}, Settings{Servers: 4, Integer: true})
			if want := `planner: job "a": weight `; err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "want 1e-06 to 1e+06") {
				t.Errorf("weight %g, %v: error %v, want %q... want 1e-06 to 1e+06", w, obj, err, want)
			}
		}
		if _, err := HeSRPT([]float64{10, 20}, []float64{w, 1}, 0.5, 4, Slowdown); err == nil || !strings.Contains(err.Error(), "want 1e-06 to 1e+06") {
			t.Errorf("HeSRPT, weight %g: error %v, want it refused", w, err)
		}
	}
	// 0 is no weight (1), and the bounds themselves are in range
	for _, w := range []float64{0, MinWeight, MaxWeight} {
		jobs := []Job{{ID: "a", Size: 10, Curve: PowerLaw{P: 0.5}, Weight: w}, {ID: "b", Size: 20, Curve: PowerLaw{P: 0.5}, Weight: 1}}
		if _, err := Simulate(jobs, HeSRPTPolicy{Slowdown}, Settings{Servers: 4, Integer: true}); err != nil {
			t.Errorf("weight %g: %v", w, err)
		}
	}
}

// nanPolicy gives every job a share that is not a number of workers.
type nanPolicy struct{ share float64 }

func (nanPolicy) Name() string { return "nan" }
func (p nanPolicy) Allocate(_ float64, jobs []View, alloc []float64) {
	for i := range jobs {
		alloc[i] = p.share
	}
}

// roundWorkers takes a share that is NaN, +Inf or negative without a panic
// (int(NaN) was any int: the slice bounds went out of range), and the
// simulator then names the policy's fault.
func TestRoundWorkersNonFiniteShares(t *testing.T) {
	out := make([]int, 4)
	RoundWorkers([]float64{math.NaN(), math.Inf(1), -3, 1.5}, []int{4, 2, 4, 4}, 4, true, out)
	if out[0] < 0 || out[1] != 2 || out[2] < 0 || out[3] < 1 || out[0]+out[1]+out[2]+out[3] > 4 {
		t.Errorf("RoundWorkers NaN, +Inf, -3, 1.5 on 4: %v, want +Inf at its cap 2 and none negative", out)
	}
	jobs := []Job{{ID: "a", Size: 10, Curve: PowerLaw{P: 0.5}}, {ID: "b", Size: 20, Curve: PowerLaw{P: 0.5}}}
	for _, share := range []float64{math.NaN(), math.Inf(1), -1} {
		_, err := Simulate(jobs, nanPolicy{share}, Settings{Servers: 4, Integer: true})
		if want := `planner: policy nan gave job "a" `; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("share %g: error %v, want %q...", share, err, want)
		}
	}
}
