package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStepperEqualsSolve: on random networks (multi-server, delay and
// fork-join stations) and every exact variant, a Stepper advanced in
// uneven jumps gives Solve's throughput at every count it stands at, to
// the bit, and Sweep's.
func TestStepperEqualsSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 60 {
		n := randomNetwork(rng)
		for _, m := range []MVA{{}, {Correction: true}, {Flow: true}} {
			const top = 90
			xs := make([]float64, top)
			m.Sweep(n, xs)
			s := m.Stepper(n)
			if s.N() != 0 || s.X() != 0 {
				t.Fatalf("network %d: a new stepper at N=%d, X=%g", i, s.N(), s.X())
			}
			for k := 1; k <= top; k += 1 + rng.IntN(4) {
				x := s.Advance(k)
				want := m.Solve(n, k).X
				if math.Float64bits(x) != math.Float64bits(want) || x != xs[k-1] || s.N() != k || s.X() != x {
					t.Fatalf("network %d, %+v, N=%d: stepper %v, Solve %v, Sweep %v", i, m, k, x, want, xs[k-1])
				}
				if again := s.Advance(k - 1); again != x || s.N() != k {
					t.Fatalf("network %d: Advance back to %d moved the stepper", i, k-1)
				}
			}
		}
	}
}

// TestAsyncPSStepper: the job's stepper is StepsPerSecond at every count,
// to the bit; with shared cores there is none.
func TestAsyncPSStepper(t *testing.T) {
	seq := job
	seq.Sharding = Sequential
	corr := job
	corr.Correction = true
	flow := job
	flow.Flow = true
	for _, tc := range []struct {
		a AsyncPS
		c Config
	}{{job, Config{PS: 4}}, {seq, Config{PS: 3}}, {corr, Config{PS: 2, Batch: 50}}, {flow, Config{PS: 2, Bandwidth: 1e8}}} {
		s, ok := tc.a.Stepper(tc.c)
		if !ok {
			t.Fatal("no stepper")
		}
		for n := 1; n <= 200; n++ {
			c := tc.c
			c.Workers = n
			if x, want := s.Advance(n), tc.a.StepsPerSecond(c); math.Float64bits(x) != math.Float64bits(want) {
				t.Fatalf("%+v at %d workers: stepper %v, StepsPerSecond %v", tc.c, n, x, want)
			}
		}
	}
	shared := job
	shared.SharedCores = 2
	if _, ok := shared.Stepper(Config{PS: 2}); ok {
		t.Error("shared cores: a stepper, but the network changes with the workers")
	}
}

// TestStalenessStepper: the stepper's staleness is Staleness's (Flow off)
// at every count, to the bit, asked ascending, repeated and descending,
// for parallel and sequential shards; with shared cores there is none.
func TestStalenessStepper(t *testing.T) {
	seq := job
	seq.Sharding = Sequential
	flow := job
	flow.Flow = true
	for _, a := range []AsyncPS{job, seq, flow} {
		for _, ps := range []int{1, 3} {
			c := Config{PS: ps, Batch: 32}
			s, ok := a.StalenessStepper(c)
			if !ok {
				t.Fatal("no stepper without shared cores")
			}
			exact := a
			exact.Flow = false
			for _, w := range []int{1, 2, 3, 7, 7, 40, 5, 90, 91, 2, 60} {
				c.Workers = w
				got, want := s.At(w), exact.Staleness(c)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%+v, %d shards, %d workers: stepper %v, Staleness %v", a.Sharding, ps, w, got, want)
				}
			}
			c.Workers = 40
			if a.Flow && s.At(40) == a.Staleness(c) {
				t.Errorf("the flow form's staleness equals the arrival theorem's at 40 workers: the test cannot tell them apart")
			}
		}
	}
	shared := job
	shared.SharedCores = 2
	if _, ok := shared.StalenessStepper(Config{PS: 1, Nodes: 1}); ok {
		t.Error("a stepper with shared cores")
	}
}
