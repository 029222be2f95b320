package model

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// StalenessDist returns an approximate distribution of the staleness of an
// update at c: p[k] = P(staleness = k) for k = 0..len(p)-1; the mass beyond
// len(p)-1 is below 1e-12 (p is cut there and renormalised). It is nil for
// Workers < 1 and [1] for one worker.
//
// The approximation is the sum of two independent parts, B + J:
//
//   - B ~ Binomial(Workers-1, q), q = Staleness(c)/(Workers-1) ("one apply
//     per window"): each other worker applies once to the shard between
//     this worker's read and its apply, independently, with the same
//     probability. Its mean is Staleness(c) (Flow included) and it is the
//     deterministic-cycle limit (each other worker applies floor or ceil of
//     its expected count, a Bernoulli of the fractional part).
//   - J = round(g (W - E[W])), the window jitter: W is the service time
//     this worker spends in its window outside queues (compute, one push,
//     one apply: mean ComputeTime + Transfer + Apply/P, variance from the
//     SCV fields, a gamma distribution with those two moments; zero SCVs
//     mean deterministic), and g the other workers' applies per second of
//     extra window: g = X (U + (1 - U)(N - 1)/N), X = StepsPerSecond(c),
//     N = Workers and U = X * the largest transfer or apply demand, the
//     utilisation of the bottleneck. When the bottleneck is saturated
//     (U = 1) applies go on at rate X whatever this worker does, so a
//     window longer by d holds X d more of them (other workers lap it);
//     when it is idle (U = 0) the other N - 1 workers apply at their own
//     pace, (N - 1)/N of X, whatever this worker does; in between, the
//     mix (closer to the simulation on the tests' jobs than either end
//     alone). The gain U X, used before, sent J to 0 below saturation and
//     left the binomial alone: with two workers, exponential compute and
//     short transfers the staleness is Geometric(1/2), P(0) = 1/2, and
//     the binomial put all its mass on 1.
//
// J has mean zero up to the rounding and the clipping of B + J at 0: on
// the tests' cases the mean of p is Staleness(c) within 1% from 4 workers
// on, and within 0.04 at 2 and 3 (the clipping raises it, the rounding of
// a skewed window lowers it). It puts mass above Workers-1 only through J. The approximation ignores the
// correlation of the other workers and a compute station shared by cores
// (SharedCores), and uses the first shard's window for Sequential;
// docs/models.md ("Staleness") gives its total-variation distance to the
// event-driven simulation.
func (a AsyncPS) StalenessDist(c Config) []float64 {
	if c.Workers < 1 {
		return nil
	}
	if c.Workers == 1 {
		return []float64{1}
	}
	n := c.Workers - 1
	q := math.Min(1, math.Max(0, a.Staleness(c)/float64(n)))
	b := binomialPMF(n, q)
	j0, jit := a.windowJitter(c)
	out := make([]float64, n+j0+len(jit)+1)
	hi := 0
	for i, pb := range b {
		if pb < 1e-17 { // far binomial tails: keeps large N fast
			continue
		}
		for j, pj := range jit {
			if pj < 1e-17 {
				continue
			}
			s := max(0, i+j0+j)
			out[s] += pb * pj
			hi = max(hi, s)
		}
	}
	out = out[:hi+1]
	// Cut the far tail: keep entries up to where less than 1e-12 is left.
	var rest float64
	k := len(out)
	for k > 1 && rest+out[k-1] < 1e-12 {
		rest += out[k-1]
		k--
	}
	out = out[:k]
	var sum float64
	for _, v := range out {
		sum += v
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// windowJitter returns the distribution of J = round(g (W - E[W])) (see
// StalenessDist) as P(J = j0 + i) = p[i]; [0], p = [1] when W is
// deterministic.
func (a AsyncPS) windowJitter(c Config) (j0 int, p []float64) {
	P := max(c.PS, 1)
	z, x, ap := a.ComputeTime(c), a.Transfer(c), a.Apply/float64(P)
	m := z + x + ap
	v := z*z*a.SCVCompute + x*x*a.SCVPush + ap*ap*a.SCVApply
	X := a.StepsPerSecond(c)
	u := math.Min(1, X*math.Max(x, ap))
	n := float64(c.Workers)
	g := X * (u + (1-u)*(n-1)/n)
	if !(v > 0) || !(m > 0) || !(g > 0) || math.IsInf(g, 0) {
		return 0, []float64{1}
	}
	w := distuv.Gamma{Alpha: m * m / v, Beta: m / v}
	// J = j when W is in [m + (j-1/2)/g, m + (j+1/2)/g).
	j0 = int(math.Round(-g * m))
	prev := 0.0
	for j := j0; ; j++ {
		cdf := w.CDF(m + (float64(j)+0.5)/g)
		p = append(p, cdf-prev)
		prev = cdf
		if cdf >= 1-1e-13 || len(p) > 1<<20 {
			break
		}
	}
	return j0, p
}

// binomialPMF returns P(B = k), k = 0..n, for B ~ Binomial(n, q), from
// log-gamma so that large n neither overflows nor underflows to NaN.
func binomialPMF(n int, q float64) []float64 {
	p := make([]float64, n+1)
	switch {
	case q <= 0:
		p[0] = 1
		return p
	case q >= 1:
		p[n] = 1
		return p
	}
	ln, _ := math.Lgamma(float64(n) + 1)
	lq, lr := math.Log(q), math.Log1p(-q)
	var sum float64
	for k := range p {
		a, _ := math.Lgamma(float64(k) + 1)
		b, _ := math.Lgamma(float64(n-k) + 1)
		p[k] = math.Exp(ln - a - b + float64(k)*lq + float64(n-k)*lr)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
	return p
}
