package planner

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// A cluster past MaxServers is an error, not a panic: a count near 2^63
// rounded to float64 2^63 overflowed the int of RoundWorkers (slice bounds
// out of range), and a billion servers ran greedy for minutes.
func TestSimulateRefusesTooManyServers(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 100, Curve: PowerLaw{P: 0.5}}, {ID: "b", Size: 50, Curve: PowerLaw{P: 0.9}}}
	for _, n := range []float64{9223372036854775296, 1e9, MaxServers + 1} {
		for _, integer := range []bool{false, true} {
			_, err := Simulate(jobs, Greedy{}, Settings{Servers: n, Integer: integer})
			if err == nil || !strings.Contains(err.Error(), "want at most 1000000 (MaxServers)") {
				t.Errorf("servers %g, integer %v: err %v, want MaxServers named", n, integer, err)
			}
		}
		if _, err := Optimize(jobs, n, FlowTime, nil); err == nil || !strings.Contains(err.Error(), "MaxServers") {
			t.Errorf("optimize, servers %g: err %v, want MaxServers named", n, err)
		}
	}
	r, err := Simulate(jobs, Greedy{}, Settings{Servers: MaxServers, Integer: true})
	if err != nil {
		t.Fatalf("MaxServers itself: %v", err)
	}
	// Both jobs are there at 0 and greedy hands out every worker.
	if got := r.Jobs[0].Workers + r.Jobs[1].Workers; got != MaxServers {
		t.Errorf("workers at the start %g, want %d", got, MaxServers)
	}
}

// RoundWorkers with a negative count (an int that overflowed) hands out
// nothing rather than slicing out of range.
func TestRoundWorkersNegativeServers(t *testing.T) {
	out := make([]int, 2)
	RoundWorkers([]float64{1.5, 2.5}, []int{4, 4}, math.MinInt64, true, out)
	if out[0] != 0 || out[1] != 0 {
		t.Errorf("out %v, want [0 0]", out)
	}
}

// Poisson refuses a count past MaxPoissonJobs (make panicked on
// 2^63-1), a rate that is not finite, sizes that underflow to 0 (it drew
// forever) and sizes that overflow.
func TestPoissonRefuses(t *testing.T) {
	cases := []struct {
		p    Poisson
		want string
	}{
		{Poisson{Rate: 0.001, Count: math.MaxInt64, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{P: 0.5}}, "count 9223372036854775807, want at most 10000000 jobs"},
		{Poisson{Rate: 0.001, Count: MaxPoissonJobs + 1, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{P: 0.5}}, "want at most 10000000 jobs"},
		{Poisson{Rate: math.Inf(1), Count: 3, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{P: 0.5}}, "want a finite rate > 0"},
		{Poisson{Rate: 1, Count: 3, Sizes: LogNormal{Mu: math.Log(100) - 50*50/2, Sigma: 50}, Curve: PowerLaw{P: 0.5}}, "job 0: no size > 0 in 1000 draws of {Mu:"},
		{Poisson{Rate: 1, Count: 3, Sizes: Exponential{Mean: math.Inf(1)}, Curve: PowerLaw{P: 0.5}}, "job 0: size +Inf drawn from {Mean:+Inf}: want a finite size"},
	}
	for _, c := range cases {
		jobs, err := c.p.Jobs(1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %d jobs, err %v; want %q", c.p, len(jobs), err, c.want)
		}
	}
}

// Poisson refuses arrivals past MaxTime, the latest arrival jobs.csv
// takes: at 1e-308 jobs/s the first arrival, ExpFloat64() / 1e-308, was
// +Inf, returned as it was (Simulate then refused "arrival +Inf"); at
// 1e-300 jobs/s the arrivals, some 1e300 s, ran with a utilization of
// 1.6e-297. Count / MaxTime jobs/s has the last arrival at MaxTime on
// average: 10 jobs at 1e-12 jobs/s arrive by 1e13 s, past it; at 1e-10
// jobs/s by 1e11 s on average (the sum of 10 exponentials passes 10 times
// its mean with a probability of about 1e-31).
func TestPoissonLateArrival(t *testing.T) {
	for _, rate := range []float64{1e-308, 1e-300, 1e-12} {
		p := Poisson{Rate: rate, Count: 10, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{P: 0.5}}
		jobs, err := p.Jobs(1)
		if !errors.Is(err, ErrLateArrival) || !strings.Contains(err.Error(), "want a rate well above Count / MaxTime = 1e-11 jobs/s") {
			t.Errorf("rate %g: %d jobs, err %v; want ErrLateArrival and the rate wanted", rate, len(jobs), err)
		}
	}
	for seed := uint64(1); seed <= 20; seed++ {
		jobs, err := Poisson{Rate: 1e-10, Count: 10, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{P: 0.5}}.Jobs(seed)
		if err != nil {
			t.Fatalf("rate 1e-10, seed %d: %v", seed, err)
		}
		if last := jobs[len(jobs)-1].Arrival; !(last <= MaxTime) {
			t.Errorf("rate 1e-10, seed %d: last arrival %g", seed, last)
		}
	}
}
