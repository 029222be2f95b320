package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/sgdplan/sgdplan/planner"
)

// simulate's json gives the first seed wherever something is random: a
// jobs file with --early-stop kills jobs at random, so the seed matters
// (simPolicy.Seed: absent only for a jobs file without --early-stop).
func TestSimulateJSONSeedWithEarlyStop(t *testing.T) {
	jobs := filepath.Join("..", "..", "testdata", "jobs-example", "jobs.csv")
	code, stdout, stderr := runCmd(t, "simulate", "--jobs", jobs, "--servers", "16", "--policy", "equi", "--early-stop", "0.3", "--seed", "9", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p simPolicy
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if p.Seed == nil || *p.Seed != 9 {
		t.Errorf("--early-stop 0.3 --seed 9: seed %v, want 9", p.Seed)
	}
}

// The longer runs are 4 times the jobs (10 -> 40), and it is their
// arrivals that must stay within planner.MaxTime on average (simGrowing's
// doc): at rate 40/(1.02 MaxTime), 10 jobs arrive by about 0.26 MaxTime
// but 40 by about 1.02 MaxTime, so the cell is left unchecked (longer 0)
// without a run, even for a seed whose 40 arrivals happen to come before
// MaxTime (the first such seed is taken: the runs stop at a seed's late
// arrival). The settle rule is "at most half still grow": of 4 seeds, 2
// growing settles, 3 do not.
func TestSimGrowingLongerArrivalsAndEvenSeeds(t *testing.T) {
	pw := planner.Poisson{Rate: 40 / (1.02 * planner.MaxTime), Count: 10, Sizes: planner.Exponential{Mean: 100}, Curve: planner.PowerLaw{P: 0.5}}
	lp := pw
	lp.Count = 40
	seed0 := uint64(0)
	for ; seed0 < 100; seed0++ {
		if _, err := lp.Jobs(seed0); err == nil {
			break
		}
	}
	if seed0 == 100 {
		t.Fatal("no seed of 0..99 has 40 arrivals before MaxTime")
	}
	never := func(uint64, []planner.Job) (planner.Result, error) {
		t.Errorf("a longer run made past MaxTime")
		return planner.Result{}, nil
	}
	if g, err := simGrowing("x", pw, 3, false, nil, never, seed0); err != nil || g != (growCell{what: "x"}) {
		t.Errorf("40 jobs at %g/s, seed %d: %+v, %v; want unchecked", pw.Rate, seed0, g, err)
	}
	pw.Rate = 0.01
	for grows, settles := range map[int]bool{0: true, 1: true, 2: true, 3: false, 4: false} {
		run := func(seed uint64, _ []planner.Job) (planner.Result, error) {
			if int(seed) < grows {
				return growingResult(40), nil
			}
			return planner.Result{}, nil
		}
		g, err := simGrowing("x", pw, 4, false, nil, run, 0)
		if err != nil || g.settles != settles || g.longer != 40 {
			t.Errorf("%d of 4 growing: %+v, %v; want settles %v over 40 jobs", grows, g, err, settles)
		}
	}
}
