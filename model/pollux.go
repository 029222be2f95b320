package model

import (
	"fmt"
	"math"
)

// Pollux is the throughput model of Qiao et al., "Pollux: co-adaptive cluster
// scheduling for goodput-optimized deep learning", OSDI 2021, as
// implemented in AdaptDL's goodput.py, for synchronous data-parallel SGD
// with K replicas over some machines, local batch m per replica and no
// gradient accumulation:
//
//	T_grad = AlphaGrad + BetaGrad m
//	T_sync = 0                              for K = 1,
//	         AlphaLocal + BetaLocal (K-2)   for K >= 2 on one machine,
//	         AlphaNode + BetaNode (K-2)     for K >= 2 on more machines,
//	T_iter = (T_grad^Gamma + T_sync^Gamma)^(1/Gamma)
//
// Gamma >= 1 says how much computation and synchronisation overlap: Gamma = 1
// is no overlap (T_iter = T_grad + T_sync), Gamma -> infinity full overlap
// (T_iter = max). K is Config.Workers, the machines Config.Nodes (0: one per
// replica), m is Config.Batch or else Batch. StepsPerSecond is 1/T_iter.
type Pollux struct {
	AlphaGrad  float64 // s, fixed time of a forward and backward pass
	BetaGrad   float64 // s/sample, time per sample of the local batch
	AlphaLocal float64 // s, all-reduce time at 2 replicas on one machine
	BetaLocal  float64 // s per replica beyond 2, on one machine
	AlphaNode  float64 // s, all-reduce time at 2 replicas across machines
	BetaNode   float64 // s per replica beyond 2, across machines
	Gamma      float64 // >= 1, overlap exponent
	Batch      float64 // samples, local batch when Config.Batch is 0 (a setting, not fitted)
}

// Family returns "pollux".
func (Pollux) Family() string { return "pollux" }

// ParamNames returns the fitted parameters' names with units.
func (Pollux) ParamNames() []string {
	return []string{"alpha_grad (s)", "beta_grad (s/sample)", "alpha_local (s)", "beta_local (s/replica)", "alpha_node (s)", "beta_node (s/replica)", "gamma (1)"}
}

// Params returns AlphaGrad, BetaGrad, AlphaLocal, BetaLocal, AlphaNode,
// BetaNode, Gamma.
func (m Pollux) Params() []float64 {
	return []float64{m.AlphaGrad, m.BetaGrad, m.AlphaLocal, m.BetaLocal, m.AlphaNode, m.BetaNode, m.Gamma}
}

// WithParams returns m with the parameters of Params set from p.
func (m Pollux) WithParams(p []float64) Pollux {
	checkLen("Pollux", p, 7)
	m.AlphaGrad, m.BetaGrad, m.AlphaLocal, m.BetaLocal, m.AlphaNode, m.BetaNode, m.Gamma = p[0], p[1], p[2], p[3], p[4], p[5], p[6]
	return m
}

// Validate reports a negative time or Gamma below 1.
func (m Pollux) Validate() error {
	if err := checkNonNegative("Pollux", m.ParamNames(), m.Params()); err != nil {
		return err
	}
	if m.Gamma < 1 {
		return fmt.Errorf("model: Pollux: parameter gamma (1) = %g, want >= 1", m.Gamma)
	}
	return nil
}

// GradTime returns T_grad in seconds.
func (m Pollux) GradTime(c Config) float64 {
	return m.AlphaGrad + m.BetaGrad*batch(c, m.Batch)
}

// SyncTime returns T_sync in seconds.
func (m Pollux) SyncTime(c Config) float64 {
	k := workers("Pollux", c)
	switch {
	case k == 1:
		return 0
	case nodes(c) <= 1:
		return m.AlphaLocal + m.BetaLocal*(k-2)
	default:
		return m.AlphaNode + m.BetaNode*(k-2)
	}
}

// StepTime returns T_iter in seconds.
func (m Pollux) StepTime(c Config) float64 {
	g, s := m.GradTime(c), m.SyncTime(c)
	if s == 0 || g == 0 {
		return g + s
	}
	// Scale by the larger term so that large Gamma does not overflow.
	big, small := max(g, s), min(g, s)
	return big * math.Pow(1+math.Pow(small/big, m.Gamma), 1/m.Gamma)
}

// StepsPerSecond returns 1/T_iter, synchronous steps per second.
func (m Pollux) StepsPerSecond(c Config) float64 { return 1 / m.StepTime(c) }

// SamplesPerStep returns K m, the global batch of a synchronous step.
func (m Pollux) SamplesPerStep(c Config) float64 {
	return workers("Pollux", c) * batch(c, m.Batch)
}
