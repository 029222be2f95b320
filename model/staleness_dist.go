package model

import "math"

// StalenessDist returns an approximate distribution of the staleness of an
// update at c: p[k] = P(staleness = k) for k = 0..Workers-1 (nil for
// Workers < 1, [1] for one worker).
//
// Approximation ("one apply per window"): each of the other Workers-1
// workers applies at most once to the shard between this worker's read and
// its own apply, independently of the others and with the same probability
// q = Staleness(c)/(Workers-1). The staleness is then Binomial(Workers-1, q),
// whose mean equals Staleness(c) exactly (within rounding) and whose
// variance is (Workers-1) q (1-q). This is the deterministic-cycle limit
// (every other worker applies floor or ceil of its expected count, here 0
// or 1, a Bernoulli of the fractional part). It puts no mass above
// Workers-1: an update whose window holds two applies of one other worker
// (possible when that worker's cycle is shorter than this one's window, e.g.
// with exponential compute) is not modelled, and neither is the variance
// that a random window length adds, so the distribution is narrower than
// the simulated one when compute is variable; docs/models.md ("Staleness")
// gives the total-variation distance to the event-driven simulation.
func (a AsyncPS) StalenessDist(c Config) []float64 {
	if c.Workers < 1 {
		return nil
	}
	if c.Workers == 1 {
		return []float64{1}
	}
	n := c.Workers - 1
	q := math.Min(1, math.Max(0, a.Staleness(c)/float64(n)))
	return binomialPMF(n, q)
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
