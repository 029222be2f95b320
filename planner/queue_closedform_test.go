package planner

import (
	"math"
	"testing"
)

// birthDeathResponse is the mean response time of a Markovian queue whose
// jobs arrive at rate lambda and, m being present, complete at rate mu(m):
// the stationary probabilities pi_m ∝ prod_{i<=m} lambda/mu(i), the mean
// number in system L = sum m pi_m, and W = L/lambda (Little). Summed until
// the terms are negligible (the tests' chains have ratios well below 1).
func birthDeathResponse(lambda float64, mu func(m int) float64) float64 {
	p, sum, l := 1.0, 1.0, 0.0
	for m := 1; m < 100000; m++ {
		p *= lambda / mu(m)
		sum += p
		l += float64(m) * p
		if p < 1e-18*sum && m > 100 {
			break
		}
	}
	return l / sum / lambda
}

// erlangC is the textbook M/M/k mean response time (Erlang's C formula):
// a = lambda/mu, rho = a/k, C = (a^k/k!)/(1-rho) / (sum_{i<k} a^i/i! +
// (a^k/k!)/(1-rho)), W = C/(k mu - lambda) + 1/mu.
func erlangC(lambda, mu float64, k int) float64 {
	a := lambda / mu
	term, sum := 1.0, 0.0 // a^i/i!
	for i := range k {
		sum += term
		term *= a / float64(i+1)
	}
	top := term / (1 - a/float64(k))
	return top/(sum+top)/(float64(k)*mu-lambda) + 1/mu
}

// Size-blind policies on a Poisson workload of exponential sizes are
// birth-death chains: the allocation depends only on how many jobs are
// present, and by memorylessness so does the total completion rate. That
// gives closed forms on several servers, with caps, sublinear speedup, and
// whole or ideal workers, where TestMM1 has one server and p = 1 and
// TestLittlesLaw checks an identity of the simulator's own bookkeeping:
//
//   - fifo, whole workers, cap 1 on 4 servers: M/M/4, Erlang C;
//   - fcfs-rigid, 2 rigid workers each on 6 servers, p = 0.5: M/M/3 with
//     service rate 2^0.5, Erlang C;
//   - fifo, ideal shares, cap 4 on 6 servers, p = 0.5: mu(1) = 4^0.5,
//     mu(m >= 2) = 4^0.5 + 2^0.5 (the first job 4 workers, the next the 2
//     left);
//   - equi, ideal shares, cap 2 on 8 servers, p = 0.5: each of m jobs gets
//     min(2, 8/m) workers, mu(m) = m min(2, 8/m)^0.5;
//   - equi, whole workers on 6 servers, p = 0.5: floor(6/m) workers each and
//     one more to 6 mod m of them (none when m > 6 leaves jobs with 0 and
//     6 with 1), mu(m) = r (q+1)^0.5 + (m - r) q^0.5, q = floor(6/m),
//     r = 6 - q m (at most m jobs hold a worker).
//
// Mean sizes 1 s; 60,000 jobs a run (the mean includes the start from an
// empty system); the test asserts 3% (the runs' errors are logged).
func TestSizeBlindPoliciesMatchBirthDeath(t *testing.T) {
	const count = 60000
	sqrt2 := math.Sqrt2
	cases := []struct {
		name    string
		policy  string
		servers float64
		integer bool
		p       float64
		cap     int
		lambda  float64
		want    float64
	}{
		{"fifo M/M/4", "fifo", 4, true, 1, 1, 2.8, erlangC(2.8, 1, 4)},
		{"fcfs-rigid M/M/3", "fcfs-rigid", 6, true, 0.5, 2, 3.2, erlangC(3.2, sqrt2, 3)},
		{"fifo capped, ideal", "fifo", 6, false, 0.5, 4, 2.6, birthDeathResponse(2.6, func(m int) float64 {
			if m == 1 {
				return 2
			}
			return 2 + sqrt2
		})},
		{"equi capped, ideal", "equi", 8, false, 0.5, 2, 5, birthDeathResponse(5, func(m int) float64 {
			return float64(m) * math.Sqrt(math.Min(2, 8/float64(m)))
		})},
		{"equi whole", "equi", 6, true, 0.5, 0, 4.5, birthDeathResponse(4.5, func(m int) float64 {
			if m > 6 {
				return 6
			}
			q := 6 / m
			r := 6 - q*m
			return float64(r)*math.Sqrt(float64(q+1)) + float64(m-r)*math.Sqrt(float64(q))
		})},
	}
	// the two closed forms agree where both apply (M/M/4, and M/M/3 at
	// rate 2^0.5), so each is checked by the other
	for _, c := range []struct {
		lambda, mu float64
		k          int
	}{{2.8, 1, 4}, {3.2, sqrt2, 3}} {
		bd := birthDeathResponse(c.lambda, func(m int) float64 { return float64(min(m, c.k)) * c.mu })
		if relErr(bd, erlangC(c.lambda, c.mu, c.k)) > 1e-9 {
			t.Fatalf("M/M/%d, lambda %g, mu %g: birth-death %.10g, Erlang C %.10g", c.k, c.lambda, c.mu, bd, erlangC(c.lambda, c.mu, c.k))
		}
	}
	for _, c := range cases {
		jobs, err := Poisson{Rate: c.lambda, Count: count, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{c.p}, MaxWorkers: c.cap}.Jobs(35)
		if err != nil {
			t.Fatal(err)
		}
		pol, err := NewPolicy(c.policy, 0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Simulate(jobs, pol, Settings{Servers: c.servers, Integer: c.integer})
		if err != nil {
			t.Fatal(err)
		}
		e := r.MeanResponse/c.want - 1
		t.Logf("%s: simulated mean response %.4f s, closed form %.4f s (%+.2f%%)", c.name, r.MeanResponse, c.want, 100*e)
		if math.Abs(e) > 0.03 {
			t.Errorf("%s: mean response %.4f s, closed form %.4f s (%+.2f%%)", c.name, r.MeanResponse, c.want, 100*e)
		}
	}
}
