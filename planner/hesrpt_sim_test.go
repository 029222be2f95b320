package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// plainPolicy hides the policy's type from the simulator, which then runs
// its general path (HeSRPTPolicy.Allocate at every event).
type plainPolicy struct{ Policy }

// randomBatch is m jobs of random sizes (some equal), weights, caps and
// curves (one exponent, several, or fitted curves too), arriving all at
// t = 0 or, spread, over time.
func randomBatch(rng *rand.Rand, m int, curves string, spread bool) []Job {
	jobs := make([]Job, m)
	t := 0.0
	for i := range jobs {
		j := Job{ID: fmt.Sprintf("j%d", i), Size: 1 + rng.ExpFloat64()*3600}
		if rng.IntN(5) == 0 && i > 0 {
			j.Size = jobs[rng.IntN(i)].Size // equal remaining sizes
		}
		switch curves {
		case "one":
			j.Curve = PowerLaw{P: 0.8}
		case "mixed":
			j.Curve = PowerLaw{P: []float64{0.5, 0.6, 0.7, 0.8, 0.9}[rng.IntN(5)]}
		case "fitted":
			switch rng.IntN(3) {
			case 0:
				j.Curve = amdahl{F: 0.05 + 0.1*float64(rng.IntN(3))}
			case 1:
				j.Curve = hump{k0: float64(2 + rng.IntN(6))}
			default:
				j.Curve = PowerLaw{P: 0.3 + 0.7*rng.Float64()}
			}
		}
		if rng.IntN(3) == 0 {
			j.MaxWorkers = 1 + rng.IntN(8)
		}
		if rng.IntN(4) == 0 {
			j.Weight = 0.5 + 2*rng.Float64()
		}
		if spread {
			t += rng.ExpFloat64() * 100
		}
		j.Arrival = t
		jobs[i] = j
	}
	return jobs
}

// TestHeSRPTStateSameResults checks that the simulator's HeSRPTPolicy path
// (heSRPTState: weights and exponents kept, the median from a Fenwick
// tree) gives the whole Result of the general path, bit for bit, on random
// batches: one exponent, several, fitted curves; caps and weights; ideal
// and whole workers; both objectives; at t = 0 and spread over time.
func TestHeSRPTStateSameResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 5))
	for trial := range 120 {
		m := 1 + rng.IntN(60)
		curves := []string{"one", "mixed", "fitted"}[trial%3]
		spread := trial%4 == 3
		jobs := randomBatch(rng, m, curves, spread)
		n := []float64{1, 3, 8, 16.5, 64}[rng.IntN(5)]
		s := Settings{Servers: n, Integer: trial%2 == 0 && n == float64(int(n)), Record: trial%5 == 0}
		if trial%7 == 0 {
			s.EarlyStop, s.Seed = 0.3, uint64(trial)
		}
		if trial%11 == 0 {
			s.EnergyAlpha = 2
		}
		for _, pol := range []HeSRPTPolicy{{Objective: FlowTime}, {Objective: Slowdown}} {
			got, err1 := Simulate(jobs, pol, s)
			want, err2 := Simulate(jobs, plainPolicy{pol}, s)
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Fatalf("trial %d %s: error %v, want %v", trial, pol.Name(), err1, err2)
			}
			if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w {
				t.Fatalf("trial %d %s (%d jobs, %s, %+v): results differ:\n%s\nwant\n%s", trial, pol.Name(), m, curves, s, g, w)
			}
		}
	}
}

// TestHeSRPTStateMedian checks the Fenwick tree's median against median's
// sort as jobs come and go in random order.
func TestHeSRPTStateMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 20 {
		M := 1 + rng.IntN(200)
		jobs := make([]Job, M)
		curves := make([]Speedup, M)
		for i := range jobs {
			curves[i] = PowerLaw{P: float64(1+rng.IntN(10)) / 10}
			if rng.IntN(3) == 0 {
				curves[i] = PowerLaw{P: rng.Float64()*0.99 + 0.01}
			}
			jobs[i] = Job{Size: 1, Curve: curves[i]}
		}
		h := newHeSRPTState(HeSRPTPolicy{}, jobs, curves, 8)
		present := map[int]bool{}
		for range 4 * M {
			i := rng.IntN(M)
			if present[i] {
				h.add(i, -1)
				delete(present, i)
			} else {
				h.add(i, 1)
				present[i] = true
			}
			if len(present) == 0 {
				continue
			}
			var ps []float64
			for k := range present {
				ps = append(ps, curves[k].(PowerLaw).P)
			}
			if got, want := h.median(len(ps)), median(ps); got != want {
				t.Fatalf("median of %v: %v, want %v", ps, got, want)
			}
		}
	}
}
