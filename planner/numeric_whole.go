package planner

import (
	"errors"
	"fmt"
	"runtime"
)

// WholeKnown is the key of OptimizeSettings.Known under which a caller
// gives policy name's Result on whole workers (Settings{Servers: servers,
// Integer: true}); OptimizeWhole takes it instead of replaying name.
func WholeKnown(name string) string { return name + " on whole workers" }

// OptimizedWhole is the outcome of OptimizeWhole.
type OptimizedWhole struct {
	Policy    Policy  // replays to Result on whole workers
	Result    Result  // its simulation, Settings.Integer
	Objective float64 // its objective value
	// From is the heuristic whose plan this is; "" when it is numeric's:
	// the optimized plan rounded, or (Searched) the priorities the search
	// on whole workers found.
	From     string
	Searched bool
	// Rounded is the objective of the optimized plan rounded.
	Rounded     float64
	Heuristics  map[string]float64 // each heuristic's on whole workers
	Evaluations int                // replays of the search (0: it did not run)
}

// OptimizeWhole extends Optimize's guarantee to whole workers. o, Optimize's
// outcome for the same jobs, servers, obj and set, searched ideal shares,
// and its plan rounded can lose to a heuristic's plan rounded (on a few
// servers, by over 10%). OptimizeWhole replays o.Policy on whole workers
// and, when it is a Priority, searches its V again as Optimize does but
// with whole-worker replays (within set.MaxWholeEvaluations); it replays
// every heuristic that o replayed on whole workers too (set.Known's
// WholeKnown entries are taken as they are) and returns the best of them
// all by obj, numeric's own on a tie: on whole workers never worse than
// any heuristic, by construction.
func OptimizeWhole(jobs []Job, servers float64, obj Objective, o Optimized, set *OptimizeSettings) (OptimizedWhole, error) {
	if err := obj.check("optimize on whole workers"); err != nil {
		return OptimizedWhole{}, err
	}
	if o.Policy == nil {
		return OptimizedWhole{}, errors.New("planner: optimize on whole workers: o has no policy: want Optimize's outcome for the same jobs")
	}
	s := OptimizeSettings{}
	if set != nil {
		s = *set
	}
	if s.MaxWholeEvaluations == 0 {
		s.MaxWholeEvaluations = 500
	}
	whole := Settings{Servers: servers, Integer: true}
	r, err := Simulate(jobs, o.Policy, whole)
	if err != nil {
		return OptimizedWhole{}, fmt.Errorf("planner: optimize on whole workers: %w", err)
	}
	v := objectiveValue(jobs, obj, r)
	out := OptimizedWhole{Policy: o.Policy, Result: r, Objective: v, Rounded: v, Heuristics: map[string]float64{}}
	if pr, ok := o.Policy.(Priority); ok && s.MaxWholeEvaluations > 0 {
		// as Optimize's search, on whole workers, from o's priorities
		shared := shareCurves(jobs, servers)
		sim := func(V []float64) (float64, Result, error) {
			r, err := Simulate(shared, Priority{V: V}, whole)
			if err != nil {
				return 0, r, err
			}
			return objectiveValue(jobs, obj, r), r, nil
		}
		par := s.Parallel
		if par <= 0 {
			par = runtime.GOMAXPROCS(0)
		}
		V := append([]float64(nil), pr.V...)
		cur, curR, evals, err := descend(V, v, r, sim, par, 1, s.MaxWholeEvaluations)
		out.Evaluations = evals
		if err != nil {
			return out, fmt.Errorf("planner: optimize on whole workers: %w", err)
		}
		if cur < v {
			out.Policy, out.Result, out.Objective, out.Searched = Priority{V: V, Units: pr.Units, Label: pr.Label}, curR, cur, true
			out.Result.Policy = o.Policy.Name()
		}
	}
	for _, name := range PolicyNames {
		if _, ok := o.Heuristics[name]; !ok {
			continue // left out of o (fcfs-rigid cannot place a job)
		}
		if name == o.Policy.Name() { // o is that heuristic's plan
			out.Heuristics[name] = v
			continue
		}
		pol, err := NewPolicy(name, s.KneeAlpha)
		if err != nil {
			return out, err
		}
		r, ok := s.Known[WholeKnown(name)]
		if !ok {
			if r, err = Simulate(jobs, pol, whole); err != nil {
				return out, fmt.Errorf("planner: optimize on whole workers: %s: %w", name, err)
			}
		}
		h := objectiveValue(jobs, obj, r)
		out.Heuristics[name] = h
		if h < out.Objective*(1-1e-12) {
			out.Policy, out.Result, out.Objective, out.From, out.Searched = pol, r, h, name, false
		}
	}
	return out, nil
}
