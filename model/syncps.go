package model

// SyncPS is synchronous SGD through parameter servers: every step each of N
// workers computes a gradient, pushes it to the P shards, the shards apply the
// N gradients and the workers pull the new parameters; the step ends when the
// slowest worker is done. The step time is
//
//	T(N, P) = z (1 + CV e_N) + 2 max(N/P, 1) Transfer + (N/P) Apply
//
// with z = Compute0 + ComputePerSample b the mean compute time of a mini-batch
// of b samples, e_N = ExpectedMaxNormal(N) the expected maximum of N standard
// normal variables (compute times taken as independent normals with
// coefficient of variation CV, so z (1 + CV e_N) is the expected slowest
// worker: the straggler effect of synchronous SGD that Chen et al.,
// "Revisiting distributed synchronous SGD", 2016, measure; on real 10-worker
// jobs it is within 1% of the measured slowest worker, see
// families_data_test.go), and the transfers: each shard's link
// carries the N workers' S/P bytes each way, and each worker's link its S
// bytes, so with Transfer = S/B (seconds to move the whole model over one
// link) a pull or a push takes max(N/P, 1) Transfer; Apply is the time one
// shard takes to apply one whole-model gradient, split over P shards.
//
// StepsPerSecond is 1/T, synchronous steps per second.
type SyncPS struct {
	Compute0         float64 // s, fixed compute time of a mini-batch
	ComputePerSample float64 // s/sample, compute time per sample of the mini-batch
	ComputeCV        float64 // dimensionless, coefficient of variation of a worker's compute time
	Transfer         float64 // s, S/B: the whole model over one link
	Apply            float64 // s, one shard applying one whole-model gradient
	Batch            float64 // samples, per-worker mini-batch when Config.Batch is 0 (a setting, not fitted)
}

// Family returns "syncps".
func (SyncPS) Family() string { return "syncps" }

// ParamNames returns the fitted parameters' names with units.
func (SyncPS) ParamNames() []string {
	return []string{"compute0 (s)", "compute_per_sample (s/sample)", "compute_cv (1)", "transfer (s)", "apply (s)"}
}

// Params returns Compute0, ComputePerSample, ComputeCV, Transfer, Apply.
func (m SyncPS) Params() []float64 {
	return []float64{m.Compute0, m.ComputePerSample, m.ComputeCV, m.Transfer, m.Apply}
}

// WithParams returns m with the parameters of Params set from p.
func (m SyncPS) WithParams(p []float64) SyncPS {
	checkLen("SyncPS", p, 5)
	m.Compute0, m.ComputePerSample, m.ComputeCV, m.Transfer, m.Apply = p[0], p[1], p[2], p[3], p[4]
	return m
}

// Validate reports a negative parameter.
func (m SyncPS) Validate() error {
	return checkNonNegative("SyncPS", m.ParamNames(), m.Params())
}

// StepTime returns T(N, P) in seconds.
func (m SyncPS) StepTime(c Config) float64 {
	n := workers("SyncPS", c)
	p := shards(c)
	z := m.Compute0 + m.ComputePerSample*batch(c, m.Batch)
	return z*(1+m.ComputeCV*ExpectedMaxNormal(c.Workers)) + 2*max(n/p, 1)*m.Transfer + n/p*m.Apply
}

// StepsPerSecond returns 1/T(N, P), synchronous steps per second.
func (m SyncPS) StepsPerSecond(c Config) float64 { return 1 / m.StepTime(c) }

// SamplesPerStep returns N b, the global batch of a synchronous step.
func (m SyncPS) SamplesPerStep(c Config) float64 {
	return workers("SyncPS", c) * batch(c, m.Batch)
}
