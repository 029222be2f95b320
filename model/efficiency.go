package model

import "math"

// StalenessLaw is how staleness slows convergence: with a mean staleness of
// tau updates the convergence rate of the loss curve is
//
//	B0(tau) = B0(0) / (1 + Lambda tau)
//
// so the updates needed to reach a loss grow by the factor 1 + Lambda tau
// (for the part of the curve driven by B0). This is the law of design.md
// section 2, a modelling choice fitted from runs at several N: convergence
// bounds of asynchronous SGD degrade with the staleness (Lian et al.,
// NeurIPS 2015), and Dai et al. ("Toward understanding the impact of
// staleness in distributed machine learning", ICLR 2019) measure the updates
// to a target growing with it. Lambda = 0 is staleness that costs nothing. The mean staleness tau comes
// from a throughput model that implements Stalenesser (about N-1 for N
// asynchronous workers), and B0(0) from a loss curve without staleness (one
// worker).
type StalenessLaw struct {
	Lambda float64 // 1/update of staleness, >= 0
}

// Factor returns 1/(1 + Lambda tau), the factor on B0 at mean staleness tau.
func (s StalenessLaw) Factor(tau float64) float64 { return 1 / (1 + s.Lambda*tau) }

// Apply returns the loss curve l at mean staleness tau: B0 times Factor(tau),
// B1 and B2 unchanged.
func (s StalenessLaw) Apply(l LossCurve, tau float64) LossCurve {
	l.B0 *= s.Factor(tau)
	return l
}

// Family returns "staleness".
func (StalenessLaw) Family() string { return "staleness" }

// ParamNames returns the parameter's name with its unit.
func (StalenessLaw) ParamNames() []string { return []string{"lambda (1/update)"} }

// Params returns Lambda.
func (s StalenessLaw) Params() []float64 { return []float64{s.Lambda} }

// WithParams returns the law with Lambda = p[0].
func (s StalenessLaw) WithParams(p []float64) StalenessLaw {
	checkLen("StalenessLaw", p, 1)
	return StalenessLaw{Lambda: p[0]}
}

// Validate reports a negative or non-finite Lambda.
func (s StalenessLaw) Validate() error {
	return checkNonNegative("StalenessLaw", s.ParamNames(), s.Params())
}

// Stalenesser is implemented by throughput models that predict the mean
// staleness of the updates at a configuration: the number of other updates
// applied between a worker's pull of the parameters and the application of
// its gradient. Synchronous models have none and need not implement it.
type Stalenesser interface {
	Staleness(c Config) float64
}

// StalenessOf returns m's mean staleness at c when m implements Stalenesser,
// and 0 otherwise.
func StalenessOf(m Throughput, c Config) float64 {
	if s, ok := m.(Stalenesser); ok {
		return s.Staleness(c)
	}
	return 0
}

// StepSizer is implemented by throughput models that know how many samples
// one of their steps processes at a configuration (for synchronous
// data-parallel models, the global batch: workers times the per-worker
// batch). A result of 0 means the model does not know.
type StepSizer interface {
	SamplesPerStep(c Config) float64
}

// SamplesPerStep returns the samples one step of m processes at c: m's own
// answer when it implements StepSizer and knows, else c.Batch when it is
// set, else fallback (the mini-batch of one asynchronous update, or the fixed
// work of a strong-scaling curve). 0 means unknown.
func SamplesPerStep(m Throughput, c Config, fallback float64) float64 {
	if s, ok := m.(StepSizer); ok {
		if v := s.SamplesPerStep(c); v > 0 && !math.IsInf(v, 0) {
			return v
		}
	}
	if c.Batch > 0 {
		return c.Batch
	}
	return fallback
}
