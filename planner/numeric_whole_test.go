package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// wholeJobs draws a small instance for TestOptimizeWholeBeatsHeuristics:
// 2 to 8 jobs of 10 to 100 s on power laws of exponent 0.2 to 0.9, a
// third arriving later than the one before, a third weighted; 2 to 16
// servers.
func wholeJobs(rng *rand.Rand) ([]Job, float64) {
	jobs := make([]Job, 2+rng.IntN(7))
	for i := range jobs {
		jobs[i] = Job{ID: fmt.Sprint("j", i), Size: 10 + 90*rng.Float64(), Curve: PowerLaw{P: 0.2 + 0.7*rng.Float64()}}
		if i > 0 {
			jobs[i].Arrival = jobs[i-1].Arrival
			if rng.IntN(3) == 0 {
				jobs[i].Arrival += 10 * rng.Float64()
			}
		}
		if rng.IntN(3) == 0 {
			jobs[i].Weight = 0.5 + 2*rng.Float64()
		}
	}
	return jobs, float64(2 + rng.IntN(15))
}

// On whole workers numeric's plan (OptimizeWhole) is never worse than any
// heuristic's, each replayed here on whole workers, and it replays to its
// objective; one replay at a time gives the same outcome. Its plan rounded
// is not: on these 60 small instances it lost to a heuristic's in some (the
// test fails if in none: the case is void), and the search on whole
// workers improved on it in some.
func TestOptimizeWholeBeatsHeuristics(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	lost, searched, worst, gain := 0, 0, 0.0, 0.0
	for trial := range 60 {
		jobs, n := wholeJobs(rng)
		o, err := Optimize(jobs, n, FlowTime, nil)
		if err != nil {
			t.Fatal(err)
		}
		w, err := OptimizeWhole(jobs, n, FlowTime, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if trial%10 == 0 { // one replay at a time: the same outcome
			w1, err := OptimizeWhole(jobs, n, FlowTime, o, &OptimizeSettings{Parallel: 1})
			if a, b := fmt.Sprintf("%#v %v %d %v", w1.Policy, w1.Objective, w1.Evaluations, err), fmt.Sprintf("%#v %v %d <nil>", w.Policy, w.Objective, w.Evaluations); a != b {
				t.Errorf("trial %d, one replay at a time:\n%s\nwant\n%s", trial, a, b)
			}
		}
		whole := Settings{Servers: n, Integer: true}
		best := w.Rounded // the best heuristic's, or numeric's rounded
		for _, name := range PolicyNames {
			pol, _ := NewPolicy(name, 0)
			r, err := Simulate(jobs, pol, whole)
			if err != nil {
				t.Fatal(err)
			}
			if w.Objective > r.WeightedFlow*(1+1e-9) {
				t.Errorf("trial %d (%d jobs, %g servers): numeric on whole workers %g, %s %g", trial, len(jobs), n, w.Objective, name, r.WeightedFlow)
			}
			best = min(best, r.WeightedFlow)
		}
		if w.Rounded > best*(1+1e-9) {
			lost++
			worst = max(worst, 1-best/w.Rounded)
		}
		gain = max(gain, 1-w.Objective/w.Rounded)
		if w.Searched {
			searched++
		}
		if r, err := Simulate(jobs, w.Policy, whole); err != nil || relErr(r.WeightedFlow, w.Objective) > 1e-9 {
			t.Errorf("trial %d: %s's plan replays to %g (%v), reported %g", trial, w.Policy.Name(), r.WeightedFlow, err, w.Objective)
		}
	}
	if lost == 0 || searched == 0 {
		t.Errorf("numeric's plan rounded lost to a heuristic's in %d of 60, the search on whole workers improved in %d: want some of each", lost, searched)
	}
	t.Logf("numeric's plan rounded lost to a heuristic's in %d of 60, by up to %.1f%%; the search on whole workers kept in %d; numeric's whole-worker plan up to %.1f%% better than its plan rounded", lost, 100*worst, searched, 100*gain)
}

// OptimizeWhole takes a heuristic's whole-worker Result from Known under
// WholeKnown(name) instead of replaying it: a fifo doctored to be best is
// the plan it keeps.
func TestOptimizeWholeKnown(t *testing.T) {
	jobs, n := wholeJobs(rand.New(rand.NewPCG(3, 4)))
	o, err := Optimize(jobs, n, FlowTime, nil)
	if err != nil {
		t.Fatal(err)
	}
	fifo := Result{WeightedFlow: 1e-9}
	w, err := OptimizeWhole(jobs, n, FlowTime, o, &OptimizeSettings{Known: map[string]Result{WholeKnown("fifo"): fifo}})
	if err != nil || w.From != "fifo" || w.Policy.Name() != "fifo" || w.Objective != 1e-9 || w.Heuristics["fifo"] != 1e-9 {
		t.Errorf("from %q, %s, objective %g, %v; want fifo's doctored result", w.From, w.Policy.Name(), w.Objective, err)
	}
}
