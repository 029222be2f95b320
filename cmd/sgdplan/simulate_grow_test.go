package main

import (
	"fmt"
	"testing"

	"github.com/sgdplan/sgdplan/planner"
)

// growingResult is a run whose queue grows: n jobs a second apart, each
// in the system 5 times as long as the one before it.
func growingResult(n int) planner.Result {
	r := planner.Result{Jobs: make([]planner.JobResult, n)}
	for i := range r.Jobs {
		r.Jobs[i] = planner.JobResult{Arrival: float64(i), Response: 5 * float64(i+1)}
	}
	return r
}

// The growing-queue check reruns the seeds' own seeds, seed0 onwards, over
// 4 times the jobs, and says the queue settles where at most half of the
// longer runs still grow.
func TestSimGrowingSeedsAndVerdict(t *testing.T) {
	if !growingQueue(growingResult(40)) || growingQueue(planner.Result{}) {
		t.Fatal("growingResult does not grow, or an empty run does")
	}
	pw := planner.Poisson{Rate: 0.01, Count: 10, Sizes: planner.Exponential{Mean: 100}, Curve: planner.PowerLaw{P: 0.5}}
	const seed0 = 7
	for grows := 0; grows <= 3; grows++ {
		var seeds []uint64
		var counts []int
		run := func(seed uint64, jobs []planner.Job) (planner.Result, error) {
			seeds = append(seeds, seed)
			counts = append(counts, len(jobs))
			if int(seed-seed0) < grows {
				return growingResult(40), nil
			}
			return planner.Result{}, nil
		}
		g, err := simGrowing("x", pw, 3, false, nil, run, seed0)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(seeds) != "[7 8 9]" || fmt.Sprint(counts) != "[40 40 40]" {
			t.Errorf("%d growing: reran seeds %v with %v jobs, want [7 8 9] with 40 each", grows, seeds, counts)
		}
		if want := (growCell{what: "x", longer: 40, settles: grows <= 1}); g != want {
			t.Errorf("%d of 3 longer runs growing: %+v, want %+v", grows, g, want)
		}
	}
	never := func(uint64, []planner.Job) (planner.Result, error) {
		t.Errorf("a rerun where none is made")
		return planner.Result{}, nil
	}
	// overloaded: not rerun, the cell said to grow over the longer runs'
	// length all the same (the overload warning has said why)
	if g, err := simGrowing("x", pw, 3, true, nil, never, seed0); err != nil || g != (growCell{what: "x", longer: 40}) {
		t.Errorf("overloaded: %+v, %v", g, err)
	}
	// arrivals of the longer runs past planner.MaxTime: unchecked
	slow := pw
	slow.Rate = 40 / planner.MaxTime / 2
	if g, err := simGrowing("x", slow, 3, false, nil, never, seed0); err != nil || g != (growCell{what: "x"}) {
		t.Errorf("past MaxTime: %+v, %v", g, err)
	}
	// a longer run whose arrival passes it all the same: unchecked, no error
	late := func(uint64, []planner.Job) (planner.Result, error) {
		return planner.Result{}, fmt.Errorf("run: %w", planner.ErrLateArrival)
	}
	if g, err := simGrowing("x", pw, 3, false, nil, late, seed0); err != nil || g != (growCell{what: "x"}) {
		t.Errorf("late arrival: %+v, %v", g, err)
	}
}
