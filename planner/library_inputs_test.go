package planner

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Arguments a library caller can build, which no command passes, are
// errors (or NaN where the doc says so), not panics: a library review
// found each of these panicking or silently answered.
func TestLibraryInputsNoPanic(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 100, Curve: PowerLaw{P: 0.5}}, {ID: "b", Arrival: 1, Size: 50, Curve: PowerLaw{P: 0.5}}}
	set := Settings{Servers: 4}
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"Simulate nil policy", func() error { _, err := Simulate(jobs, nil, set); return err }, "planner: no policy (nil)"},
		{"Simulate zero Priority", func() error { _, err := Simulate(jobs, Priority{}, set); return err }, "planner: policy numeric: 0 priorities (V) for 2 jobs: want one per job"},
		{"Simulate Priority NaN", func() error { _, err := Simulate(jobs, Priority{V: []float64{1, math.NaN()}}, set); return err }, "planner: policy numeric: job 1: priority NaN, want a finite V >= 0"},
		{"OptimizeWhole zero Optimized", func() error {
			_, err := OptimizeWhole(jobs, 4, FlowTime, Optimized{}, nil)
			return err
		}, "planner: optimize on whole workers: o has no policy"},
		{"Optimize objective 7", func() error { _, err := Optimize(jobs, 4, Objective(7), nil); return err }, "planner: optimize: objective 7, want FlowTime (0) or Slowdown (1)"},
		{"HeSRPT objective 7", func() error { _, err := HeSRPT([]float64{1, 2}, nil, 0.5, 4, Objective(7)); return err }, "planner: heSRPT: objective 7"},
		{"Poisson empty Empirical", func() error {
			_, err := Poisson{Rate: 1, Count: 3, Curve: PowerLaw{P: 0.5}, Sizes: Empirical{}}.Jobs(1)
			return err
		}, "planner: poisson workload"},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", c.name, r)
				}
			}()
			err := c.run()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
			}
		}()
	}
	if v := (Empirical{}).Rand(rand.New(rand.NewPCG(1, 2))); !math.IsNaN(v) {
		t.Errorf("empty Empirical drew %g, want NaN", v)
	}
	m, lo, hi := MeanCI([]float64{1, 2, 3}, 2)
	if m != 2 || !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("MeanCI level 2: %g [%g, %g], want 2 [NaN, NaN]", m, lo, hi)
	}
	if _, lo, hi := MeanCI([]float64{1, 2, 3}, 0.95); !(lo < 2 && hi > 2) {
		t.Errorf("MeanCI level 0.95: [%g, %g], want an interval about 2", lo, hi)
	}
	// RoundWorkers: nil caps is no cap but the servers
	out := make([]int, 3)
	RoundWorkers([]float64{2.6, 1.4, 0}, nil, 4, false, out)
	if out[0] != 3 || out[1] != 1 || out[2] != 0 {
		t.Errorf("RoundWorkers nil caps: %v, want [3 1 0]", out)
	}
}

// A priority of 0 is a job served last, not a fault: Optimize's own start
// gave one to a job whose weight vanished beside another's (1 beside
// 1e17: W(1 - (prev/W)^q) is 0 in floating point), and numeric refused
// its own start ("priority 0, want a finite V > 0"). Weights are now
// bounded (MinWeight to MaxWeight), and 1e17 is refused; the widest ratio
// in range, 1e6 beside 1e-6, and a priority of 0 still run.
func TestOptimizeVanishingWeight(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 1000, Curve: PowerLaw{P: 0.5}, Weight: 1e17}, {ID: "b", Size: 10, Curve: PowerLaw{P: 0.5}, Weight: 1}}
	if _, err := Optimize(jobs, 4, FlowTime, nil); err == nil || !strings.Contains(err.Error(), `job "a": weight 1e+17, want 1e-06 to 1e+06`) {
		t.Errorf("Optimize, weight 1e17: %v, want it refused", err)
	}
	jobs[0].Weight, jobs[1].Weight = MaxWeight, MinWeight
	o, err := Optimize(jobs, 4, FlowTime, nil)
	if err != nil {
		t.Fatalf("Optimize: %v", err)
	}
	if len(o.Result.Jobs) != 2 || !(o.Result.Jobs[0].Response > 0) || !(o.Result.Jobs[1].Response > 0) {
		t.Errorf("result %+v: want both jobs done", o.Result.Jobs)
	}
	if _, err := Simulate(jobs, Priority{V: []float64{1, 0}}, Settings{Servers: 4}); err != nil {
		t.Errorf("V = [1, 0]: %v", err)
	}
}
