package planner

import (
	"fmt"
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
		// (it panicked "len(w) != len(x)", naming neither length)
		{"HeSRPT 3 weights for 2 jobs", func() error { _, err := HeSRPT([]float64{1, 2}, []float64{1, 1, 1}, 0.5, 4, FlowTime); return err },
			"planner: heSRPT: 3 weights (w) for 2 jobs (x): want one weight per job, or nil w"},
		{"HeSRPT 1 weight for 2 jobs", func() error { _, err := HeSRPT([]float64{1, 2}, []float64{1}, 0.5, 4, Slowdown); return err },
			"planner: heSRPT: 1 weight (w) for 2 jobs (x)"},
		{"HeSRPT empty weights", func() error { _, err := HeSRPT([]float64{1, 2}, []float64{}, 0.5, 4, FlowTime); return err },
			"planner: heSRPT: 0 weights (w) for 2 jobs (x)"},
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

// Slices of mismatched lengths to a planner function that returns no
// error panic, naming the function and both lengths: RoundWorkers' nil
// caps were said to be len(alloc) caps when out was short, and a
// policy's Allocate on a short alloc panicked with an index out of range
// that named neither.
func TestParallelSlicesPanicNamed(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 100, Curve: PowerLaw{P: 0.5}}, {ID: "b", Size: 50, Curve: PowerLaw{P: 0.5}, RigidWorkers: 1}}
	vs := []View{{Job: &jobs[0], Index: 0, Remaining: 100, Cap: 4, Rank: -1}, {Job: &jobs[1], Index: 1, Remaining: 50, Cap: 4, Rank: -1}}
	type call struct {
		name string
		run  func()
		want string
	}
	calls := []call{
		{"RoundWorkers short caps", func() { RoundWorkers([]float64{1, 2, 1}, []int{4, 4}, 4, false, make([]int, 3)) },
			"planner: RoundWorkers: len(caps) = 2, len(alloc) = 3: want one cap per allocation, or nil caps"},
		{"RoundWorkers long caps", func() { RoundWorkers([]float64{1}, []int{4, 4}, 4, false, make([]int, 1)) },
			"planner: RoundWorkers: len(caps) = 2, len(alloc) = 1"},
		{"RoundWorkers nil caps, short out", func() { RoundWorkers([]float64{1, 2, 1}, nil, 4, false, make([]int, 1)) },
			"planner: RoundWorkers: len(out) = 1, len(alloc) = 3: want out at least as long as alloc"},
		{"RoundWorkers short out", func() { RoundWorkers([]float64{1, 2}, []int{4, 4}, 4, true, nil) },
			"planner: RoundWorkers: len(out) = 0, len(alloc) = 2"},
	}
	// a Priority whose V holds fewer priorities than a job's index: an
	// index out of range that named neither
	calls = append(calls, call{"Priority short V", func() { Priority{V: []float64{1}}.Allocate(4, vs, make([]float64, 2)) },
		"planner: Priority.Allocate: a job of index 1, but len(V) = 1: want a priority for every job's index"})
	pols := []Policy{Priority{V: []float64{1, 1}}}
	for _, name := range PolicyNames {
		p, err := NewPolicy(name, 0.1)
		if err != nil {
			t.Fatalf("NewPolicy(%q): %v", name, err)
		}
		pols = append(pols, p)
	}
	for _, p := range pols {
		// the policy's type as the message names it: planner.Equi's "Equi"
		typ := fmt.Sprintf("%T", p)
		typ = typ[strings.LastIndex(typ, ".")+1:]
		calls = append(calls, call{p.Name() + " short alloc", func() { p.Allocate(4, vs, make([]float64, 1)) },
			"planner: " + typ + ".Allocate: len(alloc) = 1, len(jobs) = 2: want alloc at least as long as jobs"})
	}
	for _, c := range calls {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); msg != c.want && !strings.HasPrefix(msg, c.want+":") {
					t.Errorf("%s: panic %v, want %q", c.name, r, c.want)
				}
			}()
			c.run()
		}()
	}
	// alloc at least as long as jobs is within the precondition
	for _, p := range pols {
		alloc := make([]float64, 3)
		p.Allocate(4, vs, alloc)
		if alloc[2] != 0 {
			t.Errorf("%s: alloc past the jobs written: %v", p.Name(), alloc)
		}
	}
}
