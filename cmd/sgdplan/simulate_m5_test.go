package main

import (
	"slices"
	"testing"

	"github.com/sgdplan/sgdplan/planner"
)

// Tests from mutation round 5 (simulate's steady-state checks): each case
// fails on a mutant that every earlier test let through.

// simDrift names a policy only when the mean over runs 4 times as long
// lies outside the runs' 95% interval AND more than 10% from their mean;
// it reruns every seed (seed0, seed0+1, ...) over 4 times the jobs, and
// not at all for one seed or an overloaded workload. The runs' summary is
// m = 100 s with the interval [95, 105]; the longer runs' two seeds give
// m4 - 1 and m4 + 1, whose mean is m4:
//
//	m4 104: inside the interval                       -> not named
//	m4 108: outside, |108 - 100| = 8 <= 10% of 100     -> not named
//	m4 92:  outside, 8 <= 10                           -> not named
//	m4 112: outside, 12 > 10                           -> named, +12%
//	m4 85:  outside, 15 > 10                           -> named, -15%
//
// and with the interval [50, 150], m4 130 (30% away, inside) is not named.
func TestSimDriftBothConditionsM5(t *testing.T) {
	pw := planner.Poisson{Rate: 0.01, Count: 10, Sizes: planner.Exponential{Mean: 100}, Curve: planner.PowerLaw{P: 0.5}}
	const seed0 = 7
	for _, c := range []struct {
		lo, hi, m4 float64
		want       string // "" for not named
	}{
		{95, 105, 104, ""},
		{95, 105, 108, ""},
		{95, 105, 92, ""},
		{95, 105, 112, "x 100 s [95, 105] -> 112 s (+12%)"},
		{95, 105, 85, "x 100 s [95, 105] -> 85 s (-15%)"},
		{50, 150, 130, ""},
	} {
		sp := simPolicy{Policy: "x", MeanFlowTime: 100, CI95: map[string][2]float64{"mean_flow_time": {c.lo, c.hi}}}
		var seeds []uint64
		var counts []int
		run := func(seed uint64, jobs []planner.Job) (planner.Result, error) {
			seeds = append(seeds, seed)
			counts = append(counts, len(jobs))
			// the first seed 1 s below m4, the second 1 s above
			return planner.Result{MeanResponse: c.m4 - 1 + 2*float64(seed-seed0)}, nil
		}
		d, named, err := simDrift(sp, make([]planner.Result, 2), pw, false, nil, run, seed0)
		if err != nil {
			t.Fatal(err)
		}
		if named != (c.want != "") || d != c.want {
			t.Errorf("[%g, %g], m4 %g: named %v %q, want %q", c.lo, c.hi, c.m4, named, d, c.want)
		}
		// the same seeds as the runs', each over 4 x 10 jobs
		if len(seeds) != 2 || seeds[0] != seed0 || seeds[1] != seed0+1 || counts[0] != 40 || counts[1] != 40 {
			t.Errorf("m4 %g: reran seeds %v with %v jobs, want [7 8] with 40 each", c.m4, seeds, counts)
		}
	}
	// one seed (its mean has no interval: one given all the same) or an
	// overloaded workload: no rerun, nothing named, however far m4 lies
	sp := simPolicy{Policy: "x", MeanFlowTime: 100, CI95: map[string][2]float64{"mean_flow_time": {95, 105}}}
	never := func(uint64, []planner.Job) (planner.Result, error) {
		t.Errorf("a rerun where none is made")
		return planner.Result{MeanResponse: 1000}, nil
	}
	for _, c := range []struct {
		runs       int
		overloaded bool
	}{{1, false}, {2, true}} {
		if d, named, err := simDrift(sp, make([]planner.Result, c.runs), pw, c.overloaded, nil, never, seed0); named || d != "" || err != nil {
			t.Errorf("%d runs, overloaded %v: %q %v %v, want nothing", c.runs, c.overloaded, d, named, err)
		}
	}
}

// growingQueue's halves and queue counts, on runs built by hand (arrival a,
// response r; a job is in the system from a to a + r; q is the number of
// earlier arrivals still in it when a job arrives):
func TestGrowingQueueByHandM5(t *testing.T) {
	type job struct{ a, r float64 }
	res := func(js []job) planner.Result {
		var r planner.Result
		for _, j := range js {
			r.Jobs = append(r.Jobs, planner.JobResult{Arrival: j.a, Response: j.r})
		}
		return r
	}
	// first half: 20 jobs at 20i, 15 s each, gone before the next (q 0,
	// mean response 15, so the responses flag a second half only above 30)
	first := func() []job {
		var js []job
		for i := range 20 {
			js = append(js, job{20 * float64(i), 15})
		}
		return js
	}
	for _, c := range []struct {
		name string
		jobs []job
		want bool
	}{
		// a batch: 20 jobs at once at 1000 s, 15 s each. Jobs that
		// arrive together do not count one another: q 0 for each (the
		// first half all gone), responses 15 and 15: steady. Counting
		// one another, q would be 0..19, a mean of 9.5 >= 3: growing.
		{"batch", func() []job {
			js := first()
			for range 20 {
				js = append(js, job{1000, 15})
			}
			return js
		}(), false},
		// second half at 400 + m: m = 0..3 stay 100 s, m = 4..19 take 0 s
		// (gone the instant they come). q = m for m < 4; for m >= 4 the 4
		// long jobs (a job arriving is not gone before it arrives, even
		// at 0 s): q = 4. Mean (0+1+2+3 + 16 x 4)/20 = 70/20 = 3.5 >= 3
		// and > 2 x 0; responses 400/20 = 20 <= 30: growing by the count.
		// (A 0-s job counted out at its own arrival gives q = 3 for m >=
		// 4: 54/20 = 2.7 < 3.)
		{"zero-second jobs", func() []job {
			js := first()
			for m := range 20 {
				r := 0.0
				if m < 4 {
					r = 100
				}
				js = append(js, job{400 + float64(m), r})
			}
			return js
		}(), true},
		// second half at 400 + 20m, 25 s each: the previous one is still
		// there (ends 5 s after), q = 1 for m >= 1, 0 at m = 0: mean
		// 19/20 = 0.95, more than twice the first half's 0 but under 3
		// (at least 3 on average); responses 25 <= 30: steady.
		{"one queued", func() []job {
			js := first()
			for m := range 20 {
				js = append(js, job{400 + 20*float64(m), 25})
			}
			return js
		}(), false},
		// 40 jobs 100 s apart (q 0), the first 20 of 1 s, the last 20 of
		// 2.2 s: 2.2 > 2 x 1, growing. (Had the 21st job counted in the
		// first half: (20 + 2.2)/20 = 1.11 against 19 x 2.2/20 = 2.09,
		// not growing.)
		{"halves", func() []job {
			var js []job
			for i := range 40 {
				r := 1.0
				if i >= 20 {
					r = 2.2
				}
				js = append(js, job{100 * float64(i), r})
			}
			return js
		}(), true},
		// 19 jobs whose responses grow tenfold: too few to judge (< 20)
		{"19 jobs", func() []job {
			var js []job
			for i := range 19 {
				js = append(js, job{float64(i), 1 + 10*float64(i)})
			}
			return js
		}(), false},
	} {
		if got := growingQueue(res(c.jobs)); got != c.want {
			t.Errorf("%s: growingQueue %v, want %v", c.name, got, c.want)
		}
	}
}

// backlogged: a replay that grows (growingQueue) AND whose mean response
// passes the arrivals' span. 40 jobs at 0..39 s (span 39 s), the
// responses of the later 20 three times the earlier 20's (growing by the
// halves, whatever the queue counts):
//
//	responses 0.1 then 0.3 by half: 0.3 > 2 x 0.1, growing; mean 0.2 s
//	  < 39 s: a light trace, not behind its arrivals -> false
//	responses 100 then 300: growing; mean 200 s > 39 s -> true
func TestBackloggedNeedsMeanPastSpanM5(t *testing.T) {
	res := func(r1, r2 float64) planner.Result {
		var r planner.Result
		for i := range 40 {
			v := r1
			if i >= 20 {
				v = r2
			}
			r.Jobs = append(r.Jobs, planner.JobResult{Arrival: float64(i), Response: v})
		}
		r.MeanResponse = (r1 + r2) / 2
		return r
	}
	light, behind := res(0.1, 0.3), res(100, 300)
	if !growingQueue(light) || !growingQueue(behind) {
		t.Fatalf("both should grow by their halves (3 x the first)")
	}
	if backlogged(light) || !backlogged(behind) {
		t.Errorf("backlogged: mean 0.2 s over a 39-s span %v (want false), mean 200 s %v (want true)", backlogged(light), backlogged(behind))
	}
}

// inMost: most is more than half. 1 of 2 is not most; 2 of 3 is; none of
// none is not.
func TestInMostIsMoreThanHalfM5(t *testing.T) {
	oneOfTwo, twoOfThree, twoOfFour := []bool{true, false}, []bool{true, true, false}, []bool{true, true, false, false}
	if inMost(oneOfTwo) || !inMost(twoOfThree) || inMost(twoOfFour) || inMost(nil) {
		t.Errorf("inMost: 1 of 2 %v (want false), 2 of 3 %v (true), 2 of 4 %v (false), 0 of 0 %v (false)",
			inMost(oneOfTwo), inMost(twoOfThree), inMost(twoOfFour), inMost(nil))
	}
}

// backlogged also holds, with the mean response under the arrivals'
// span, where more than 1 in 20 jobs that arrived over a quarter of the
// span before the last arrival are still in the system then (an old
// backlog: srpt's 30,000 overloaded Poisson jobs, mean 8.8e5 s over a
// span of 2.4e6 s, had no warning), and not for a burst of arrivals just
// before the end (gavel-vc_0e4a51-150: 56 of 150 jobs in its last 200 s).
// 100 jobs at 0..99 s (span 99 s), growing by the halves:
//
//	starved: jobs 50..55 (6 > 100/20) respond in 150 s, in the system at
//	  99 s; mean about 10 s < 99 s -> true; 5 of them (not > 1 in 20) ->
//	  false
//	burst: jobs 80..99 respond in 30 s (in the system at 99 s, but none
//	  arrived before 74.25 s) -> false
//	long: the starved jobs, each 200 s on one worker (in the system 44 to
//	  49 s at 99 s, less than their size: not held up) -> false
func TestBackloggedOldJobsM5(t *testing.T) {
	res := func(long []int, v float64) planner.Result {
		var r planner.Result
		sum := 0.0
		for i := range 100 {
			resp := 0.5
			if i >= 50 {
				resp = 2
			}
			if slices.Contains(long, i) {
				resp = v
			}
			sum += resp
			r.Jobs = append(r.Jobs, planner.JobResult{Arrival: float64(i), Response: resp})
		}
		r.MeanResponse = sum / 100
		return r
	}
	starved, fewer := res([]int{50, 51, 52, 53, 54, 55}, 150), res([]int{50, 51, 52, 53, 54}, 150)
	var late []int
	for i := 80; i < 100; i++ {
		late = append(late, i)
	}
	burst := res(late, 30)
	for name, r := range map[string]planner.Result{"starved": starved, "fewer": fewer, "burst": burst} {
		if !growingQueue(r) || r.MeanResponse >= 99 {
			t.Fatalf("%s: growing %v, mean %g: want growing, mean under the span", name, growingQueue(r), r.MeanResponse)
		}
	}
	if !backlogged(starved) || backlogged(fewer) || backlogged(burst) {
		t.Errorf("backlogged: 6 old jobs left %v (want true), 5 %v (false), a late burst %v (false)", backlogged(starved), backlogged(fewer), backlogged(burst))
	}
	// the same 6 jobs, but each 200 s long on one worker: in the system
	// 44 to 49 s at the last arrival, less than their size, they are
	// long, not held up (an idle cluster's long jobs made a backlog)
	long := res([]int{50, 51, 52, 53, 54, 55}, 150)
	for i := 50; i <= 55; i++ {
		long.Jobs[i].Size = 200
	}
	if !growingQueue(long) || backlogged(long) {
		t.Errorf("6 long jobs, not held up: growing %v (want true), backlogged %v (want false)", growingQueue(long), backlogged(long))
	}
}
