package planner

import "math"

// Speedup is a job's speedup curve: the rate, in seconds of one-worker work
// per second, at which the job runs on k workers. k is a real number >= 0
// (shares are fractional until they are rounded); Speedup(0) is 0 and
// Speedup(1) is 1 for the curves this package builds. The fitted models of
// sgdplan fit satisfy this interface.
type Speedup interface {
	Speedup(k float64) float64
}

// FittedFrom is implemented by a curve fitted on worker counts from
// FewestWorkers() up (fit.Model): below them it is extrapolated, and the
// knee policy looks for the knee from there, as check does (a model fitted
// on 2-64 GPUs, s(2) = 1.007 over an extrapolated s(1), had its knee at 1
// worker).
type FittedFrom interface {
	FewestWorkers() int
}

// fewestFitted is c's FewestWorkers (through a memoCurve or a
// sharedCurve), 1 for a curve that does not say.
func fewestFitted(c Speedup) float64 {
	if m, ok := c.(*memoCurve); ok {
		c = m.c
	}
	if s, ok := c.(*sharedCurve); ok {
		c = s.c
	}
	if f, ok := c.(FittedFrom); ok {
		return math.Max(1, float64(f.FewestWorkers()))
	}
	return 1
}

// PowerLaw is the speedup curve s(k) = k^P with 0 < P <= 1, the one heSRPT is
// optimal for. P = 1 is linear speedup; P -> 0 means no speedup at all.
type PowerLaw struct {
	P float64
}

// Speedup returns k^P, and 0 for k <= 0.
func (s PowerLaw) Speedup(k float64) float64 {
	if k <= 0 {
		return 0
	}
	if s.P == 1 {
		return k
	}
	return math.Pow(k, s.P)
}

// exponentOf returns the exponent of a power-law curve, or the effective
// exponent log s(n)/log n of any other curve at n workers (n > 1), so that
// heSRPT can be applied as a heuristic to curves it is not optimal for.
func exponentOf(c Speedup, n float64) float64 {
	if pl, ok := c.(PowerLaw); ok {
		return pl.P
	}
	if n <= 1 {
		n = 2
	}
	p := math.Log(c.Speedup(n)) / math.Log(n)
	switch {
	case math.IsNaN(p) || p <= 0:
		return 1e-3
	case p > 1:
		return 1
	}
	return p
}
