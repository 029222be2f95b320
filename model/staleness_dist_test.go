package model

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestStalenessDistHandWorked(t *testing.T) {
	a := job
	// N = 3: two other workers, each in the window with q = m/2, so
	// P = [(1-q)^2, 2q(1-q), q^2] and the mean 2q = m.
	c := Config{Workers: 3, PS: 1}
	m := a.Staleness(c)
	q := m / 2
	want := []float64{(1 - q) * (1 - q), 2 * q * (1 - q), q * q}
	got := a.StalenessDist(c)
	if len(got) != 3 {
		t.Fatalf("N=3: %d entries, want 3", len(got))
	}
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Errorf("N=3: P(%d) = %g, want %g", k, got[k], want[k])
		}
	}
	if d := a.StalenessDist(Config{Workers: 1, PS: 1}); len(d) != 1 || d[0] != 1 {
		t.Errorf("N=1: %v, want [1]", d)
	}
	// The mean equals Staleness(c) and the masses sum to 1, also for
	// large N where the binomial coefficients overflow float64.
	for _, N := range []int{2, 5, 64, 2000} {
		c := Config{Workers: N, PS: 2}
		for _, f := range []bool{false, true} {
			a.Flow = f
			d := a.StalenessDist(c)
			var sum, mean float64
			for k, p := range d {
				if !(p >= 0) {
					t.Fatalf("N=%d: P(%d) = %g", N, k, p)
				}
				sum += p
				mean += float64(k) * p
			}
			if m := a.Staleness(c); math.Abs(sum-1) > 1e-9 || math.Abs(mean-m) > 1e-9*math.Max(1, m) {
				t.Errorf("N=%d flow %v: sum %g, mean %g, want 1 and %g", N, f, sum, mean, m)
			}
		}
	}
}

func TestWindowJitterHandWorked(t *testing.T) {
	// Exponential compute only: W = Z + x + ap with Z = 0.2 s exponential,
	// x = 0.101, ap = 0.02 deterministic: E[W] = 0.321, Var W = 0.04, a
	// gamma of shape 0.321^2/0.04 = 2.576. At N = 16 the apply is far from
	// the bottleneck (x = 0.101 s is): U = X * 0.101, the gain
	// g = X (U + (1 - U) 15/16), and J = j when W is in
	// [0.321 + (j-1/2)/g, 0.321 + (j+1/2)/g).
	a := job
	a.SCVCompute = 1
	c := Config{Workers: 16, PS: 1}
	X := a.StepsPerSecond(c)
	u := math.Min(1, X*0.101)
	g := X * (u + (1-u)*15.0/16)
	j0, p := a.windowJitter(c)
	w := distuv.Gamma{Alpha: 0.321 * 0.321 / 0.04, Beta: 0.321 / 0.04}
	if want := int(math.Round(-g * 0.321)); j0 != want {
		t.Fatalf("j0 = %d, want %d", j0, want)
	}
	for i := range 5 {
		j := float64(j0 + i)
		want := w.CDF(0.321+(j+0.5)/g) - w.CDF(0.321+(j-0.5)/g)
		if i == 0 {
			want = w.CDF(0.321 + (j+0.5)/g)
		}
		if math.Abs(p[i]-want) > 1e-12 {
			t.Errorf("P(J = %d) = %g, want %g", j0+i, p[i], want)
		}
	}
	// Deterministic service: no jitter, the binomial alone.
	if j0, p := job.windowJitter(c); j0 != 0 || len(p) != 1 || p[0] != 1 {
		t.Errorf("deterministic: j0 %d, p %v", j0, p)
	}
}

// Below saturation the other workers apply at their own pace whatever this
// worker does. Two workers, compute 1 s exponential, transfers and apply
// 1 ms: the other worker's cycle is close to exponential with mean 1.003
// s, so the number of its applies in this worker's window (about one
// compute, exponential with the same mean) is Geometric(1/2) to within
// the 1 ms phases: P(k) = 2^-(k+1), mean 1. The model: B = 1 (q =
// Staleness = 0.997...) and J = round(g (W - E[W])) with g close to
// X/2 = 1/1.003 per second, so P(0) = P(W < E[W] - 1/(2g)) = 1 - e^-0.5 =
// 0.39, P(1) = e^-0.5 - e^-1.5 = 0.38, P(2) = e^-1.5 - e^-2.5 = 0.14...:
// total variation 0.15 from the geometric. The gain U X used
// before (U = 0.002) put 0.999 on 1: total variation 0.75.
func TestStalenessDistShortTransfersGeometric(t *testing.T) {
	a := AsyncPS{Compute0: 1, Latency: 0.001, Apply: 0.001, SCVCompute: 1, SCVPush: 1, SCVApply: 1, SCVPull: 1}
	d := a.StalenessDist(Config{Workers: 2, PS: 1})
	geo := make([]float64, 60)
	for k := range geo {
		geo[k] = math.Pow(0.5, float64(k+1))
	}
	tv := tvDistance(d, geo)
	head := d[:min(4, len(d))]
	t.Logf("P(0..3) = %.3f, total variation %.3f from Geometric(1/2)", head, tv)
	if tv > 0.16 || math.Abs(d[0]-(1-math.Exp(-0.5))) > 0.01 {
		t.Errorf("P(0..3) = %.3f: total variation %.3f from Geometric(1/2), want <= 0.16 and P(0) = 0.39", head, tv)
	}
}

// quantile returns the smallest k with P(staleness <= k) >= u.
func quantile(p []float64, u float64) int {
	var c float64
	for k, v := range p {
		c += v
		if c >= u-1e-12 {
			return k
		}
	}
	return len(p) - 1
}

// tvDistance is half the L1 distance between two distributions on 0, 1, ...
func tvDistance(p, q []float64) float64 {
	var d float64
	for k := range max(len(p), len(q)) {
		var a, b float64
		if k < len(p) {
			a = p[k]
		}
		if k < len(q) {
			b = q[k]
		}
		d += math.Abs(a - b)
	}
	return d / 2
}

// TestStalenessDistMatchesSimulation compares the binomial approximation
// with the staleness histogram of the event-driven simulation: total
// variation distance, and the median and 90th percentile. The log lines
// are the rows of the table in docs/models.md ("Staleness"): case, N, total
// variation, the same for the binomial part alone, simulated P(staleness >
// N-1), median and 90th percentile (model / simulated), mean (model /
// simulated).
func TestStalenessDistMatchesSimulation(t *testing.T) {
	exp := job
	exp.SCVCompute, exp.SCVPush, exp.SCVApply, exp.SCVPull = 1, 1, 1, 1
	exp.Apply = 0.15
	det := exp
	det.SCVPush, det.SCVApply, det.SCVPull = 0, 0, 0
	det.Correction, det.Flow = true, true
	low := exp
	low.SCVCompute, low.SCVPush, low.SCVApply, low.SCVPull = 0.1, 0.05, 0.2, 0.05
	low.Correction, low.Flow = true, true
	// Below saturation (U from 0.16 at N = 2 to 0.85 at N = 16 on one
	// shard): compute 1 s, transfers 0.1 s, apply 0.05 s.
	ue := AsyncPS{Compute0: 1, Latency: 0.1, Apply: 0.05, SCVCompute: 1, SCVPush: 1, SCVApply: 1, SCVPull: 1}
	ud := ue
	ud.SCVCompute = 0.01
	ud.Correction, ud.Flow = true, true
	short := ue // U near 0: 1 ms transfers and apply
	short.Latency, short.Apply = 0.001, 0.001
	sat := []int{2, 4, 8, 16, 32} // all cases under two seconds: no -short variant
	below := []int{2, 3, 4, 6, 8, 12, 16}
	cycles := 20000
	for _, tc := range []struct {
		name string
		a    AsyncPS
		P    int
		Ns   []int
		tol  float64 // bound on the total-variation distance
	}{
		// Measured (seeds below, 20,000 cycles): at most 0.20, 0.10, 0.15,
		// 0.24, 0.07, 0.19, 0.08 and 0.14; each bound is that plus a
		// margin of 0.05 or less (0.04 for the low-variance case, which
		// keeps its earlier bound). The gain U X used before measured
		// 0.20, 0.41, 0.17, 0.22, 0.54, 0.21, 0.54 and 0.94: it fails the
		// second, fifth, seventh and eighth bounds (the compute-SCV-0.01
		// case has little window variance, so the gain matters little
		// there).
		{"one shard exponential", exp, 1, sat, 0.25},
		{"parallel exponential", exp, 4, sat, 0.15},
		{"one shard deterministic", det, 1, sat, 0.20},
		{"one shard low-variance", low, 1, sat, 0.27},
		{"below saturation, exponential", ue, 1, below, 0.11},
		{"below saturation, compute SCV 0.01", ud, 1, below, 0.23},
		{"below saturation, parallel exponential", ue, 4, below, 0.12},
		{"short transfers, exponential", short, 1, below, 0.19},
	} {
		var sumTV, sumBin float64
		for _, N := range tc.Ns {
			c := Config{Workers: N, PS: tc.P}
			sim := simulate(desFromAsyncPS(tc.a, c), N, 2000, cycles, uint64(13*N+tc.P))
			d := tc.a.StalenessDist(c)
			tv := tvDistance(d, sim.Hist)
			bin := tvDistance(binomialPMF(N-1, tc.a.Staleness(c)/float64(N-1)), sim.Hist)
			sumTV += tv
			sumBin += bin
			var mean float64
			for k, p := range d {
				mean += float64(k) * p
			}
			// Measured: within 0.04 at N = 2 and 3 (the clipping at 0
			// raises the mean, the rounding of a skewed window lowers
			// it), within 1% from N = 4 on.
			tolMean, tolAbs := 0.01, 0.01
			if N < 4 {
				tolMean, tolAbs = 0.05, 0.02
			}
			if m := tc.a.Staleness(c); math.Abs(mean-m) > tolMean*m+tolAbs {
				t.Errorf("%s P=%d N=%d: mean of the distribution %.4f, Staleness %.4f", tc.name, tc.P, N, mean, m)
			}
			var above float64
			for k, p := range sim.Hist {
				if k > N-1 {
					above += p
				}
			}
			t.Logf("| %s, P = %d | %d | %.3f | %.3f | %.3f | %d / %d | %d / %d | %.3f / %.3f |",
				tc.name, tc.P, N, tv, bin, above, quantile(d, 0.5), quantile(sim.Hist, 0.5), quantile(d, 0.9), quantile(sim.Hist, 0.9), mean, sim.Staleness)
			if tv > tc.tol {
				t.Errorf("%s P=%d N=%d: total variation %.3f, want <= %.2f", tc.name, tc.P, N, tv, tc.tol)
			}
			// The medians agree within one update.
			if m, s := quantile(d, 0.5), quantile(sim.Hist, 0.5); m < s-1 || m > s+1 {
				t.Errorf("%s P=%d N=%d: median %d, simulated %d", tc.name, tc.P, N, m, s)
			}
		}
		// The window jitter must earn its place: closer on average than the
		// binomial alone.
		if sumTV >= sumBin {
			t.Errorf("%s: total variation %.3f on average, binomial alone %.3f", tc.name, sumTV/float64(len(tc.Ns)), sumBin/float64(len(tc.Ns)))
		}
	}
}
