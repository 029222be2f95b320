package main

import (
	"io"
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/planner"
	"github.com/urfave/cli/v2"
)

// report checks its simulation's cells as simulate checks its Poisson
// runs: a cell whose queue does not grow but whose mean response over runs
// 4 times as long (the same seeds) lies outside its 95% interval and more
// than 10% from it is marked ‡ and named. Checked here against the longer
// runs made again by hand, cell by cell; at 100 jobs a run on 4 servers
// the start from an empty queue moves several cells, and without a second
// seed (no interval) or past 1,000 jobs a run (no longer runs) none is
// marked.
func TestReportSimulateDrift(t *testing.T) {
	c := cli.NewContext(&cli.App{ErrWriter: io.Discard}, nil, nil)
	jobs := []planner.Job{{ID: "a", Size: 3600, Curve: planner.PowerLaw{P: 0.5}}, {ID: "b", Size: 36000, Curve: planner.PowerLaw{P: 0.9}}}
	o := reportOptions{servers: 4, seeds: 5, simJobs: 100, loads: []float64{0.5, 0.9}, alpha: 0.05, seed: 1}
	d, tab, growing, drifting, err := reportSimulate(c, o, jobs)
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, p := range d.Loads {
		pol, _ := planner.NewPolicy(p.Policy, o.alpha)
		m4 := 0.0
		for s := 0; s < o.seeds; s++ {
			res, err := planner.Simulate(reportWorkload(jobs, 4, p.Load, 400, o.seed+uint64(s)), pol, planner.Settings{Servers: 4, Integer: true})
			if err != nil {
				t.Fatal(err)
			}
			m4 += res.MeanResponse / float64(o.seeds)
		}
		want := p.NotSteady == "" && (m4 < p.Lo || m4 > p.Hi) && math.Abs(m4-p.Mean) > 0.1*p.Mean
		what := p.Policy + " at load " + map[float64]string{0.5: "0.5", 0.9: "0.9"}[p.Load]
		got := false
		for _, dc := range drifting {
			if dc.what == what {
				got = true
				if math.Abs(dc.longer-m4) > 1e-9*m4 || dc.mean != p.Mean {
					t.Errorf("%s: named %v, want mean %g -> %g", what, dc, p.Mean, m4)
				}
			}
		}
		if got != want {
			t.Errorf("%s: named %v, want %v (mean %g [%g, %g], over 400 jobs %g, growing %q)", what, got, want, p.Mean, p.Lo, p.Hi, m4, p.NotSteady)
		}
		if want {
			marked++
		}
	}
	if marked < 3 || len(drifting) != marked || len(growing) == 0 {
		t.Errorf("%d cells moved (named %d), %d grew: want several of each on this workload", marked, len(drifting), len(growing))
	}
	cells := 0
	for _, row := range tab.Rows {
		for _, cell := range row {
			if strings.HasSuffix(cell, " ‡") {
				cells++
			}
		}
	}
	if cells != marked {
		t.Errorf("%d cells marked ‡ in the table, want %d", cells, marked)
	}
	for _, oo := range []reportOptions{{servers: 4, seeds: 1, simJobs: 100, loads: []float64{0.5}, alpha: 0.05, seed: 1}, {servers: 4, seeds: 3, simJobs: 1001, loads: []float64{0.5}, alpha: 0.05, seed: 1}} {
		if _, _, _, drifting, err := reportSimulate(c, oo, jobs); err != nil || len(drifting) > 0 {
			t.Errorf("%d seeds, %d jobs a run: %v, %v: want no check", oo.seeds, oo.simJobs, drifting, err)
		}
	}
}

// driftWarning names every moved cell up to 4, else the 3 largest moves
// (by size, either way) and the range of the rest.
func TestDriftWarning(t *testing.T) {
	cell := func(what string, longer float64) driftCell {
		return driftCell{what: what, mean: 1000, lo: 900, hi: 1100, longer: longer}
	}
	five := []driftCell{cell("a", 1150), cell("b", 1600), cell("c", 700), cell("d", 1120), cell("e", 2000)}
	w := driftWarning(five, 100)
	for _, want := range []string{
		"over runs 4 times as long (400 jobs, the same seeds) the mean response time moves for 5 cells (marked ‡ in the table; the largest moves first): e 1000 s [900, 1100] -> 2000 s (+100%); b 1000 s [900, 1100] -> 1600 s (+60%); c 1000 s [900, 1100] -> 700 s (-30%); 2 more cells moved by +12% to +15%; the runs of 100 jobs",
		"so those means are not steady-state values: raise --sim-jobs to see where they settle",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("want %q in\n%s", want, w)
		}
	}
	if w := driftWarning(five[:4], 100); !strings.Contains(w, "; d 1000 s [900, 1100] -> 1120 s (+12%); the runs") || strings.Contains(w, "more cell") {
		t.Errorf("4 cells: every one named:\n%s", w)
	}
	if w := driftWarning(five[:1], 100); !strings.Contains(w, "moves for 1 cell (") || !strings.Contains(w, "so that mean is not a steady-state value: raise --sim-jobs to see where it settles") {
		t.Errorf("one cell:\n%s", w)
	}
}
