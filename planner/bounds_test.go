package planner

import (
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
