package model

import (
	"fmt"
	"math"
)

// GNS is the batch-size efficiency of synchronous SGD from the gradient noise
// scale (McCandlish, Kaplan, Amodei et al., "An empirical model of
// large-batch training", 2018): training with batch B takes
//
//	S(B) = S_min (1 + Noise/B) steps and E(B) = E_min (1 + B/Noise) samples,
//
// where Noise is the (simple) noise scale B_noise = tr(Sigma)/|G|^2, in
// samples. Pollux (Qiao et al., OSDI 2021) measures progress
// per sample relative to the batch RefBatch it was tuned at:
//
//	Efficiency(B) = E(RefBatch)/E(B) = (Noise + RefBatch)/(Noise + B).
//
// The zero value (RefBatch = 0) means the batch has no effect on the steps.
type GNS struct {
	Noise    float64 // samples, gradient noise scale B_noise
	RefBatch float64 // samples, the global batch the loss curve or step count refers to
}

// NoiseScale returns B_noise = batch gradVar/gradSqr, in samples, from an
// estimate of the squared norm of the true gradient |G|^2 (gradSqr) and of
// the trace of the covariance of a gradient taken over batch samples
// (gradVar): batch = 1 for the per-sample covariance tr(Sigma) of
// McCandlish et al. Pollux and AdaptDL record grad_sqr and grad_var with the
// variance at the initial batch M0 (their efficiency is
// (var/sqr + 1)/(var/sqr + M/M0)), so pass batch = M0 for their files; on
// the Pollux validation curves this reading predicts the steps to target
// across batch sizes and the per-sample reading does not (see
// gns_data_test.go and docs/models.md). It returns an error when gradSqr or
// batch is not positive or gradVar is negative.
func NoiseScale(gradSqr, gradVar, batch float64) (float64, error) {
	if !(gradSqr > 0) || math.IsInf(gradSqr, 0) {
		return 0, fmt.Errorf("model: NoiseScale: gradient squared norm %g, want > 0", gradSqr)
	}
	if !(gradVar >= 0) || math.IsInf(gradVar, 0) {
		return 0, fmt.Errorf("model: NoiseScale: gradient variance %g, want >= 0", gradVar)
	}
	if !(batch > 0) || math.IsInf(batch, 0) {
		return 0, fmt.Errorf("model: NoiseScale: batch %g, want > 0", batch)
	}
	return batch * gradVar / gradSqr, nil
}

// Efficiency returns (Noise + RefBatch)/(Noise + b): 1 at b = RefBatch,
// below 1 for larger batches. It returns 1 for the zero GNS.
func (g GNS) Efficiency(b float64) float64 {
	if g.RefBatch <= 0 {
		return 1
	}
	return (g.Noise + g.RefBatch) / (g.Noise + b)
}

// StepsRatio returns S(b)/S(RefBatch) = (1 + Noise/b)/(1 + Noise/RefBatch),
// the factor on the steps to a target when the global batch goes from
// RefBatch to b; it equals RefBatch/(b Efficiency(b)). It is 1 for the zero
// GNS, tends to RefBatch/b when Noise is much larger than both batches (every
// sample counts: perfect scaling of samples) and to 1 when Noise is much
// smaller (a larger batch saves no steps).
func (g GNS) StepsRatio(b float64) float64 {
	if g.RefBatch <= 0 {
		return 1
	}
	return (1 + g.Noise/b) / (1 + g.Noise/g.RefBatch)
}

// Validate reports a negative or non-finite Noise or RefBatch.
func (g GNS) Validate() error {
	return checkNonNegative("GNS", []string{"noise (samples)", "ref_batch (samples)"}, []float64{g.Noise, g.RefBatch})
}
