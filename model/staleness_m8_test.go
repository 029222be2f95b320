package model

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// Flow's staleness bound for deterministic links, at two workers. Push,
// apply and pull are deterministic, the push (0.101 s) longer than the
// apply (0.02 s): applies leave the push-apply run at least 0.101 s apart.
// A worker's read ends its pull, which starts at its own apply and lasts
// 0.101 s (the one other worker cannot be in the pull then: it is between
// its read and its apply). So the other worker's previous apply, at least
// 0.101 s before this worker's, is over before the read, and its next
// apply, again at least 0.101 s after this worker's previous one, comes at
// or after the read: exactly one update in each window, staleness 1 = N-1.
// The bound reads it as at most ceil(t/delta) - 1 = ceil(0.101/0.101) - 1
// = 0 earlier applies out of window, with delta the largest demand of the
// run (push included). Leaving the push out of the run (delta = the
// apply's 0.02 s) gave 0.76. The event-driven simulation (des_test.go)
// agrees: 1.0001 (an apply at the very instant of the read counts).
func TestFlowStalenessDeterministicLinksTwoWorkers(t *testing.T) {
	for _, apply := range []float64{0.02, 0.05} {
		a := AsyncPS{Compute0: 0.2, ParamBytes: 1e8, Bandwidth: 1e9, Latency: 0.001, Apply: apply, SCVCompute: 1, Flow: true}
		c := Config{Workers: 2, PS: 1}
		if s := a.Staleness(c); math.Abs(s-1) > 1e-9 {
			t.Errorf("apply %g: flow staleness at 2 workers %.12g, want 1", apply, s)
		}
		if sim := simulate(desFromAsyncPS(a, c), 2, 2000, 20000, 2); math.Abs(sim.Staleness-1) > 0.01 {
			t.Errorf("apply %g: simulated staleness %.4g, want 1", apply, sim.Staleness)
		}
	}
}

// The window jitter J = round(g (W - E[W])) counts the variance of every
// part of the window W = compute + push + apply (StalenessDist's doc): here
// only the apply varies. With the worked job at one shard, Z = 0.2 s and
// the push 0.101 s deterministic, the apply 0.02 s exponential (SCV 1):
// E[W] = 0.321, Var W = 0.02^2 = 0.0004, a gamma of shape
// 0.321^2/0.0004 = 257.6 and rate 0.321/0.0004 = 802.5. The apply is not
// the bottleneck (the 0.101 s link is): U = X 0.101, the gain
// g = X (U + (1 - U) 15/16), and J = j when W is in
// [0.321 + (j-1/2)/g, 0.321 + (j+1/2)/g). Without the apply's variance W
// was deterministic and J = 0.
func TestWindowJitterCountsApplyVariance(t *testing.T) {
	a := job
	a.SCVApply = 1
	c := Config{Workers: 16, PS: 1}
	X := a.StepsPerSecond(c)
	u := math.Min(1, X*0.101)
	g := X * (u + (1-u)*15.0/16)
	w := distuv.Gamma{Alpha: 0.321 * 0.321 / 0.0004, Beta: 0.321 / 0.0004}
	j0, p := a.windowJitter(c)
	if want := int(math.Round(-g * 0.321)); j0 != want || len(p) < 3 {
		t.Fatalf("j0 = %d with %d masses, want j0 = %d and a spread", j0, len(p), want)
	}
	var sum float64
	for i := range p {
		j := float64(j0 + i)
		want := w.CDF(0.321+(j+0.5)/g) - w.CDF(0.321+(j-0.5)/g)
		if i == 0 {
			want = w.CDF(0.321 + (j+0.5)/g)
		}
		if math.Abs(p[i]-want) > 1e-12 {
			t.Errorf("P(J = %d) = %g, want %g", j0+i, p[i], want)
		}
		sum += p[i]
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("masses sum to %g, want 1", sum)
	}
}
