package planner

import (
	"math"
	"strings"
	"testing"
)

// Priority.checkJobs wants one finite V >= 0 for each job: one V short, a
// negative or an infinite priority is refused before the first event,
// naming the count or the job; a zero is a job served last (Optimize's
// start gives one to a weight that vanishes beside another's), accepted.
func TestPriorityCheckJobsM7(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 100, Curve: PowerLaw{P: 0.5}}, {ID: "b", Arrival: 1, Size: 50, Curve: PowerLaw{P: 0.5}}}
	set := Settings{Servers: 4}
	for _, c := range []struct {
		v    []float64
		want string
	}{
		{[]float64{1}, "1 priorities (V) for 2 jobs"},
		{[]float64{-2, 1}, "job 0: priority -2"},
		{[]float64{1, math.Inf(1)}, "job 1: priority +Inf"},
	} {
		if _, err := Simulate(jobs, Priority{V: c.v}, set); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("V %v: error %v, want %q", c.v, err, c.want)
		}
	}
	if _, err := Simulate(jobs, Priority{V: []float64{1, 0}}, set); err != nil {
		t.Errorf("V [1 0]: %v, want a job served last", err)
	}
	// one V a job, finite and > 0, and a spare one past the jobs: simulated
	if _, err := Simulate(jobs, Priority{V: []float64{2, 1, math.NaN()}}, set); err != nil {
		t.Errorf("V [2 1 NaN] for 2 jobs: %v, want no error (V past the jobs is not read)", err)
	}
}

// Objective.check takes FlowTime (0) and Slowdown (1) only: a negative
// objective is as unknown as 7, in HeSRPT, Optimize and OptimizeWhole
// alike (OptimizeWhole given a good Optimized outcome).
func TestObjectiveCheckM7(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 100, Curve: PowerLaw{P: 0.5}}, {ID: "b", Arrival: 1, Size: 50, Curve: PowerLaw{P: 0.5}}}
	if _, err := HeSRPT([]float64{1, 2}, nil, 0.5, 4, Objective(-1)); err == nil || !strings.Contains(err.Error(), "objective -1") {
		t.Errorf("HeSRPT objective -1: %v", err)
	}
	if _, err := Optimize(jobs, 4, Objective(-1), nil); err == nil || !strings.Contains(err.Error(), "planner: optimize: objective -1") {
		t.Errorf("Optimize objective -1: %v", err)
	}
	o, err := Optimize(jobs, 4, FlowTime, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range []Objective{7, -1} {
		if _, err := OptimizeWhole(jobs, 4, obj, o, nil); err == nil || !strings.Contains(err.Error(), "planner: optimize on whole workers: objective") {
			t.Errorf("OptimizeWhole objective %d: %v, want the objective refused", obj, err)
		}
	}
	for _, obj := range []Objective{FlowTime, Slowdown} {
		if _, err := OptimizeWhole(jobs, 4, obj, o, nil); err != nil {
			t.Errorf("OptimizeWhole objective %d: %v", obj, err)
		}
	}
}

// MeanCI of 1, 2, 3: mean 2, s = 1, se = 1/sqrt(3). Student's t with 2
// degrees of freedom has the closed-form quantile (2p-1)/sqrt(2p(1-p)),
// so at level L (p = (1+L)/2) t = L sqrt(2/(1-L^2)): at 0.95,
// 0.95 x sqrt(2/0.0975) = 4.3027 (the textbook t(0.975, 2) = 4.303), and
// the interval is 2 -+ 4.3027/sqrt(3) = 2 -+ 2.4841. A level of 0, 1 or
// below 0 is outside (0, 1): the mean with a NaN interval.
func TestMeanCILevelRangeM7(t *testing.T) {
	x := []float64{1, 2, 3}
	for _, L := range []float64{0.95, 0.5} {
		half := L * math.Sqrt(2/(1-L*L)) / math.Sqrt(3)
		m, lo, hi := MeanCI(x, L)
		if m != 2 || math.Abs(lo-(2-half)) > 1e-9 || math.Abs(hi-(2+half)) > 1e-9 {
			t.Errorf("MeanCI level %g: %g [%g, %g], want 2 [%g, %g]", L, m, lo, hi, 2-half, 2+half)
		}
	}
	for _, L := range []float64{0, 1, -0.5, math.NaN()} {
		if m, lo, hi := MeanCI(x, L); m != 2 || !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("MeanCI level %g: %g [%g, %g], want 2 [NaN, NaN]", L, m, lo, hi)
		}
	}
}

// RoundWorkers with nil caps caps each job at the servers only: one job
// with all 4 workers keeps them, as with explicit caps of 4; and servers
// below 0 count as 0, so nothing is handed out (no negative counts).
func TestRoundWorkersNilCapsM7(t *testing.T) {
	out, with := make([]int, 2), make([]int, 2)
	RoundWorkers([]float64{4, 0}, nil, 4, true, out)
	RoundWorkers([]float64{4, 0}, []int{4, 4}, 4, true, with)
	if out[0] != 4 || out[1] != 0 || out[0] != with[0] || out[1] != with[1] {
		t.Errorf("alloc [4 0] on 4 servers, nil caps: %v (caps 4: %v), want [4 0]", out, with)
	}
	out = []int{9, 9}
	RoundWorkers([]float64{1.5, 0.5}, nil, -1, true, out)
	if out[0] != 0 || out[1] != 0 {
		t.Errorf("servers -1, nil caps: %v, want [0 0]", out)
	}
}
