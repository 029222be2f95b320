package main

import (
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/planner"
)

// Tests from mutation round 5 (plan's peak and beyond-fit warnings): each
// case fails on a mutant that every earlier test let through.

// m5Peak is a curve that rises as k up to at workers and falls past it
// (at^2/k): planner.FastestWorkers gives at when the limit is above it, the
// limit otherwise (still rising there). Comparable, as a fitted model's
// pointer is, so planJobPeaks' memo holds it.
type m5Peak struct{ at float64 }

func (c m5Peak) Speedup(k float64) float64 {
	if k <= c.at {
		return k
	}
	return c.at * c.at / k
}

// planJobPeaks: a job's limit is its max_workers when below the servers,
// else the servers; its peak is where its curve is fastest up to that
// limit, found per curve AND limit (jobs sharing a curve under different
// caps). On 16 servers, the curve rising to 8:
//
//	a: max_workers 4   -> limit 4,  peak 4 (still rising at 4)
//	b: no max_workers  -> limit 16, peak 8
//	c: power law, 64   -> limit 16 (64 > 16 servers), peak 16, not fitted
//	d: max_workers 64  -> limit 16, peak 8
func TestPlanJobPeaksPerLimitM5(t *testing.T) {
	pc := m5Peak{at: 8}
	jobs := []planner.Job{
		{ID: "a", Curve: pc, MaxWorkers: 4},
		{ID: "b", Curve: pc},
		{ID: "c", Curve: planner.PowerLaw{P: 0.5}, MaxWorkers: 64},
		{ID: "d", Curve: pc, MaxWorkers: 64},
	}
	want := []jobPeak{{4, 4, true}, {16, 8, true}, {16, 16, false}, {16, 8, true}}
	got := planJobPeaks(jobs, 16)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("job %s: %+v, want %+v", jobs[i].ID, got[i], want[i])
		}
	}
}

// planBeyondFitWarnings names, per model, the jobs that can get more
// workers than the model's largest fitted count, "up to" the least of the
// limit and the peak, the most over a model's jobs; a model fitted on one
// count says "N workers only". The peaks are given by hand:
//
//	m12 (fitted on 1, 2):  a {limit 32, peak 6}  -> up to 6 (past 2)
//	m14 (fitted on 1, 4):  b {8, 8} -> 8; d {4, 4} -> not past 4;
//	                       c {16, 5} -> 5: "2 jobs (b, c) ... up to 8"
//	m1  (fitted on 1):     e {16, 16} -> "1 worker only"
//	p (power law):         no model, never named
func TestPlanBeyondFitWordsM5(t *testing.T) {
	model := func(counts ...int) *fit.Model {
		m := &fit.Model{}
		for _, k := range counts {
			m.Data.Configurations = append(m.Data.Configurations, fit.ConfigData{Workers: k})
			m.Reference.MaxWorkers = max(m.Reference.MaxWorkers, k)
		}
		return m
	}
	m12, m14, m1 := model(1, 2), model(1, 4), model(1)
	jobs := []planner.Job{
		{ID: "a", Curve: m12}, {ID: "b", Curve: m14}, {ID: "d", Curve: m14}, {ID: "c", Curve: m14},
		{ID: "e", Curve: m1}, {ID: "p", Curve: planner.PowerLaw{P: 0.5}},
	}
	peaks := []jobPeak{{32, 6, true}, {8, 8, true}, {4, 4, true}, {16, 5, true}, {16, 16, true}, {32, 32, false}}
	got := planBeyondFitWarnings(jobs, peaks)
	want := []string{
		"job a can get up to 6 workers, and the model it runs on was fitted on 1 to 2 workers: its speedup past 2 workers is extrapolated",
		"2 jobs (b, c) can get up to 8 workers (the most any of them can), and the model they run on was fitted on 1 to 4 workers: their speedup past 4 workers is extrapolated",
		"job e can get up to 16 workers, and the model it runs on was fitted on 1 worker only: its speedup past 1 worker is extrapolated",
	}
	if len(got) != len(want) {
		t.Fatalf("%d warnings, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("warning %d:\n%s\nwant it to start\n%s", i, got[i], want[i])
		}
	}
}
