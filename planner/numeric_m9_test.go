package planner

import (
	"math"
	"strings"
	"testing"
)

// MaxJobs is the most jobs the local search runs on: with exactly MaxJobs
// jobs it runs (Evaluations > 0) and Optimize warns of nothing skipped.
func TestOptimizeSearchesAtMaxJobsM9(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 100, Curve: PowerLaw{P: 0.5}}, {ID: "b", Size: 50, Curve: amdahl{F: 0.9}}}
	o, err := Optimize(jobs, 4, FlowTime, &OptimizeSettings{MaxJobs: 2, MaxEvaluations: 10, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if o.Evaluations == 0 {
		t.Errorf("2 jobs, MaxJobs 2: no local search (Evaluations 0)")
	}
	for _, w := range o.Warnings {
		if strings.Contains(w.Error(), "without local search") {
			t.Errorf("2 jobs, MaxJobs 2: warning %v", w)
		}
	}
	// one job more than MaxJobs: the best heuristic, and the warning
	o, err = Optimize(jobs, 4, FlowTime, &OptimizeSettings{MaxJobs: 1, MaxEvaluations: 10, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if o.Evaluations != 0 || len(o.Warnings) == 0 {
		t.Errorf("2 jobs, MaxJobs 1: %d evaluations, warnings %v; want none and a warning", o.Evaluations, o.Warnings)
	}
}

// One job of 100 s alone on 4 servers (p = 1/2): every policy but
// fcfs-rigid (one rigid worker: 100 s) gives it the 4 workers, a response
// of 100/sqrt(4) = 50 s, so the heuristics tie with the optimized plan
// (hesrpt's, the first of the tie). OptimizeWhole returns "numeric's own
// on a tie": From is "" and the policy is o's.
func TestOptimizeWholeTieKeepsNumericM9(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 100, Curve: PowerLaw{P: 0.5}}}
	o, err := Optimize(jobs, 4, FlowTime, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := OptimizeWhole(jobs, 4, FlowTime, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(w.Objective-50) > 1e-12*50 {
		t.Errorf("objective %g, want 100/sqrt(4) = 50", w.Objective)
	}
	ties := 0
	for name, h := range w.Heuristics {
		if h == w.Objective {
			ties++
		} else if name != "fcfs-rigid" {
			t.Errorf("%s: %g on whole workers, want the tie at 50", name, h)
		}
	}
	if ties < 2 {
		t.Fatalf("heuristics %v: want several tied at 50", w.Heuristics)
	}
	if w.From != "" || w.Policy.Name() != o.Policy.Name() {
		t.Errorf("on a tie: from %q, policy %s; want numeric's own (from \"\", policy %s)", w.From, w.Policy.Name(), o.Policy.Name())
	}
}

// OptimizeWhole searches a Priority's V again on whole workers and reports
// Searched when the search found a better plan. One job alone gets every
// worker whatever its priority, so no V can lower the objective (100 s on
// 4 workers at p = 1/2: 50 s): the search runs and finds nothing, and the
// plan is the given one, not Searched. (o is Optimize's outcome for the
// job with its policy set to a Priority, which Optimize itself returns
// only when it beats every heuristic.)
func TestOptimizeWholeNoSearchedWithoutGainM9(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 100, Curve: PowerLaw{P: 0.5}}}
	o, err := Optimize(jobs, 4, FlowTime, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Policy = Priority{V: []float64{1}}
	w, err := OptimizeWhole(jobs, 4, FlowTime, o, &OptimizeSettings{MaxWholeEvaluations: 20, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w.Evaluations == 0 {
		t.Fatal("the search on whole workers did not run")
	}
	if math.Abs(w.Objective-50) > 1e-12*50 {
		t.Errorf("objective %g, want 50", w.Objective)
	}
	if w.Searched || w.From != "" {
		t.Errorf("searched %v, from %q: want the given plan (nothing to gain)", w.Searched, w.From)
	}
}
