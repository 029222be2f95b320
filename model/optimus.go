package model

// OptimusAsync is the resource-speed function Optimus fits for asynchronous
// training through parameter servers (Peng, Bao, Chen, Wu and Guo, "Optimus:
// an efficient dynamic resource scheduler for deep learning clusters",
// EuroSys 2018, resource-speed modelling): with w workers and p shards,
// each worker's step takes
//
//	t(p, w) = Theta0 + Theta1 w/p + Theta2 w + Theta3 p
//
// seconds (forward and backward pass; the transfer of its share of the
// parameters through the p shards, whose links the w workers share; and the
// overheads that grow with the number of workers and of shards), and the job
// applies f(p, w) = w / t(p, w) updates per second over all its workers. The
// per-worker mini-batch is fixed: Config.Batch does not change the rate, and
// Batch only says how many samples an update is (0: unknown). In the steady
// state each worker's gradient is applied after the other w-1 workers'
// updates, so Staleness is w-1.
type OptimusAsync struct {
	Theta0 float64 // s, compute time of one mini-batch
	Theta1 float64 // s, transfer time per worker per shard ratio (w/p)
	Theta2 float64 // s per worker, overhead growing with the workers
	Theta3 float64 // s per shard, overhead growing with the shards
	Batch  float64 // samples per update (a setting, not fitted)
}

// Family returns "optimus-async".
func (OptimusAsync) Family() string { return "optimus-async" }

// ParamNames returns the fitted parameters' names with units.
func (OptimusAsync) ParamNames() []string {
	return []string{"theta0 (s)", "theta1 (s)", "theta2 (s/worker)", "theta3 (s/shard)"}
}

// Params returns Theta0..Theta3.
func (m OptimusAsync) Params() []float64 {
	return []float64{m.Theta0, m.Theta1, m.Theta2, m.Theta3}
}

// WithParams returns m with the parameters of Params set from p.
func (m OptimusAsync) WithParams(p []float64) OptimusAsync {
	checkLen("OptimusAsync", p, 4)
	m.Theta0, m.Theta1, m.Theta2, m.Theta3 = p[0], p[1], p[2], p[3]
	return m
}

// Validate reports a negative parameter (Optimus fits them with
// non-negative least squares).
func (m OptimusAsync) Validate() error {
	return checkNonNegative("OptimusAsync", m.ParamNames(), m.Params())
}

// StepTime returns one worker's step time t(p, w) in seconds.
func (m OptimusAsync) StepTime(c Config) float64 {
	w := workers("OptimusAsync", c)
	p := shards(c)
	return m.Theta0 + m.Theta1*w/p + m.Theta2*w + m.Theta3*p
}

// StepsPerSecond returns f(p, w) = w / t(p, w), updates per second over all
// workers.
func (m OptimusAsync) StepsPerSecond(c Config) float64 {
	return workers("OptimusAsync", c) / m.StepTime(c)
}

// Staleness returns w-1, the mean staleness of round-robin asynchronous
// workers.
func (m OptimusAsync) Staleness(c Config) float64 { return workers("OptimusAsync", c) - 1 }

// SamplesPerStep returns the per-worker mini-batch: Config.Batch, or Batch.
func (m OptimusAsync) SamplesPerStep(c Config) float64 { return batch(c, m.Batch) }

// OptimusSync is the resource-speed function Optimus fits for synchronous
// training through parameter servers (Peng et al., EuroSys 2018): with a
// global batch of M samples split over w workers and p shards, a step takes
//
//	T(p, w) = Theta0 M/w + Theta1 + Theta2 w/p + Theta3 w + Theta4 p
//
// seconds (forward and backward pass of M/w samples; fixed per-step costs;
// transfers through the p shards' shared links; overheads growing with
// workers and with shards), and the job makes f(p, w) = 1/T(p, w) steps per
// second. The per-worker mini-batch M/w is Config.Batch when it is set, and
// GlobalBatch/w otherwise.
type OptimusSync struct {
	Theta0      float64 // s/sample, compute time per sample
	Theta1      float64 // s, fixed per-step time
	Theta2      float64 // s, transfer time per worker per shard ratio (w/p)
	Theta3      float64 // s per worker, overhead growing with the workers
	Theta4      float64 // s per shard, overhead growing with the shards
	GlobalBatch float64 // samples, M when Config.Batch is 0 (a setting, not fitted)
}

// Family returns "optimus-sync".
func (OptimusSync) Family() string { return "optimus-sync" }

// ParamNames returns the fitted parameters' names with units.
func (OptimusSync) ParamNames() []string {
	return []string{"theta0 (s/sample)", "theta1 (s)", "theta2 (s)", "theta3 (s/worker)", "theta4 (s/shard)"}
}

// Params returns Theta0..Theta4.
func (m OptimusSync) Params() []float64 {
	return []float64{m.Theta0, m.Theta1, m.Theta2, m.Theta3, m.Theta4}
}

// WithParams returns m with the parameters of Params set from p.
func (m OptimusSync) WithParams(p []float64) OptimusSync {
	checkLen("OptimusSync", p, 5)
	m.Theta0, m.Theta1, m.Theta2, m.Theta3, m.Theta4 = p[0], p[1], p[2], p[3], p[4]
	return m
}

// Validate reports a negative parameter.
func (m OptimusSync) Validate() error {
	return checkNonNegative("OptimusSync", m.ParamNames(), m.Params())
}

// StepTime returns T(p, w) in seconds.
func (m OptimusSync) StepTime(c Config) float64 {
	w := workers("OptimusSync", c)
	p := shards(c)
	local := c.Batch
	if local <= 0 {
		local = m.GlobalBatch / w
	}
	return m.Theta0*local + m.Theta1 + m.Theta2*w/p + m.Theta3*w + m.Theta4*p
}

// StepsPerSecond returns 1/T(p, w), synchronous steps per second.
func (m OptimusSync) StepsPerSecond(c Config) float64 { return 1 / m.StepTime(c) }

// SamplesPerStep returns the global batch: w Config.Batch when it is set,
// GlobalBatch otherwise.
func (m OptimusSync) SamplesPerStep(c Config) float64 {
	if c.Batch > 0 {
		return workers("OptimusSync", c) * c.Batch
	}
	return m.GlobalBatch
}
