package model

// RingAllReduce is synchronous data-parallel SGD whose gradients are summed by
// a ring all-reduce, with the alpha-beta cost model (Thakur, Rabenseifner and
// Gropp, "Optimization of collective communication operations in MPICH",
// IJHPCA 2005; Patarasuk and Yuan, JPDC 2009): a reduce-scatter and an
// all-gather, each of N-1 steps moving S/N bytes, so
//
//	T(N) = z + 2 (N-1)/N Transfer + 2 (N-1) Latency
//
// with z = Compute0 + ComputePerSample b the compute time of a mini-batch of
// b samples, Transfer = S/B (seconds to move all S gradient bytes over one
// link of bandwidth B) and Latency the per-message latency alpha. When the
// ring spans more than one machine (Config.Nodes > 1, or Config.Nodes = 0
// with more than one worker, one worker per machine) its slowest link is the
// network between machines, and InterTransfer and InterLatency replace
// Transfer and Latency. One worker has no synchronisation: T(1) = z.
// Compute and communication are not overlapped.
//
// StepsPerSecond is 1/T, synchronous steps per second.
type RingAllReduce struct {
	Compute0         float64 // s, fixed compute time of a mini-batch
	ComputePerSample float64 // s/sample, compute time per sample of the mini-batch
	Transfer         float64 // s, S/B over a link inside a machine
	Latency          float64 // s, per-message latency inside a machine
	InterTransfer    float64 // s, S/B over the network between machines
	InterLatency     float64 // s, per-message latency between machines
	Batch            float64 // samples, per-worker mini-batch when Config.Batch is 0 (a setting, not fitted)
}

// Family returns "allreduce".
func (RingAllReduce) Family() string { return "allreduce" }

// ParamNames returns the fitted parameters' names with units.
func (RingAllReduce) ParamNames() []string {
	return []string{"compute0 (s)", "compute_per_sample (s/sample)", "transfer (s)", "latency (s)", "inter_transfer (s)", "inter_latency (s)"}
}

// Params returns Compute0, ComputePerSample, Transfer, Latency,
// InterTransfer, InterLatency.
func (m RingAllReduce) Params() []float64 {
	return []float64{m.Compute0, m.ComputePerSample, m.Transfer, m.Latency, m.InterTransfer, m.InterLatency}
}

// WithParams returns m with the parameters of Params set from p.
func (m RingAllReduce) WithParams(p []float64) RingAllReduce {
	checkLen("RingAllReduce", p, 6)
	m.Compute0, m.ComputePerSample, m.Transfer, m.Latency, m.InterTransfer, m.InterLatency = p[0], p[1], p[2], p[3], p[4], p[5]
	return m
}

// Validate reports a negative parameter.
func (m RingAllReduce) Validate() error {
	return checkNonNegative("RingAllReduce", m.ParamNames(), m.Params())
}

// StepTime returns T(N) in seconds.
func (m RingAllReduce) StepTime(c Config) float64 {
	n := workers("RingAllReduce", c)
	z := m.Compute0 + m.ComputePerSample*batch(c, m.Batch)
	tr, lat := m.Transfer, m.Latency
	if nodes(c) > 1 {
		tr, lat = m.InterTransfer, m.InterLatency
	}
	return z + 2*(n-1)/n*tr + 2*(n-1)*lat
}

// StepsPerSecond returns 1/T(N), synchronous steps per second.
func (m RingAllReduce) StepsPerSecond(c Config) float64 { return 1 / m.StepTime(c) }

// SamplesPerStep returns N b, the global batch of a synchronous step.
func (m RingAllReduce) SamplesPerStep(c Config) float64 {
	return workers("RingAllReduce", c) * batch(c, m.Batch)
}
