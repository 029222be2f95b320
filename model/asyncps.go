package model

import (
	"fmt"
	"math"
)

// Sharding says how a worker visits the P parameter-server shards in one
// iteration.
type Sharding int

const (
	// Parallel: the worker pushes to and pulls from all P shards at once and
	// waits for the slowest (a symmetric fork-join). The network has one
	// push, one apply and one pull station standing for any one shard (each
	// with the demand of one shard) and a delay station "sync" for the wait
	// for the slowest of the P branches (see Station.SyncOf): (H_P - 1)
	// times the standard deviation of one branch's completion time (push +
	// apply + pull, with the queues found on arrival), H_P = 1 + 1/2 + ... +
	// 1/P. With one worker this is sigma*(H_P - 1), exact for exponential
	// branches (the mean of the max of P exponentials is H_P times the
	// mean), zero for deterministic ones. The queueing stations keep each
	// shard's true utilisation, so the saturation throughput stays 1/max D.
	// Against a simulated fork-join (P = 4, exponential) it is within 4%.
	Parallel Sharding = iota
	// Sequential: the worker visits the shards one after another, so the
	// network has P push, P apply and P pull stations.
	Sequential
)

// String returns the name used in output.
func (s Sharding) String() string {
	switch s {
	case Parallel:
		return "parallel"
	case Sequential:
		return "sequential"
	}
	return fmt.Sprintf("Sharding(%d)", int(s))
}

// MarshalText writes "parallel" or "sequential" (for model.json).
func (s Sharding) MarshalText() ([]byte, error) {
	if s != Parallel && s != Sequential {
		return nil, fmt.Errorf("model: sharding %d, want parallel or sequential", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "parallel" or "sequential".
func (s *Sharding) UnmarshalText(b []byte) error {
	switch string(b) {
	case "parallel":
		*s = Parallel
	case "sequential":
		*s = Sequential
	default:
		return fmt.Errorf("model: sharding %q, want parallel or sequential", b)
	}
	return nil
}

// AsyncPS is asynchronous SGD on parameter servers as a closed queueing
// network (Lin, Paolieri, Chou, Golubchik, MASCOTS 2018). Each of N workers
// repeats: compute a gradient on a mini-batch (Z = Compute0 + Compute1*b s,
// on its own device), push it to the P shards (each shard's link in,
// Latency + ParamBytes/(P*Bandwidth) s), the shard applies it (Apply/P s on
// the shard's CPU), and pull the new parameters (each shard's link out, same
// demand as the push). Solved by MVA; see MVA for the formulas.
//
// The zero value of every SCV field means deterministic service; set 1 for
// exponential. The SCVs are read only when Correction or Flow is set:
// without them the model is the paper's, exponential everywhere.
type AsyncPS struct {
	Compute0   float64 // compute time per mini-batch, fixed part, s
	Compute1   float64 // compute time per sample, s/sample
	Batch      float64 // per-worker mini-batch used when Config.Batch is 0, samples
	ParamBytes float64 // model (parameter) size S, bytes; a gradient is as large
	Bandwidth  float64 // link bandwidth B per shard and direction, bytes/s; 0 means transfers cost only Latency
	Latency    float64 // fixed cost of one transfer to or from one shard, s
	Apply      float64 // PS time to apply one update to the whole model, s; each shard applies 1/P of it

	SCVCompute float64 // squared coefficient of variation of compute (matters with SharedCores)
	SCVPush    float64 // of one push transfer
	SCVApply   float64 // of one apply
	SCVPull    float64 // of one pull transfer

	Sharding Sharding
	// SharedCores, when > 0, makes compute a load-dependent station: the
	// workers share SharedCores cores per machine (co-located workers, or
	// kernel network processing competing with compute), so with the
	// Config.Nodes machines compute is a station with SharedCores*Nodes
	// servers of demand Z. 0 means each worker computes on its own device
	// (a delay station).
	SharedCores int
	// Correction turns on the residual-service correction of MVA with the
	// SCVs above (see MVA); recommended when transfers are nearly
	// deterministic.
	Correction bool
	// Flow (implies Correction) also carries the variability of the flow of
	// workers around the cycle (MVA.Flow). Smaller errors on average than
	// Correction alone, but it can be optimistic near the knee; see
	// docs/models.md. Let the fit choose.
	Flow bool
}

// MaxSharedCores bounds AsyncPS.SharedCores: a machine with more cores than
// this (about a million) is no machine, and core counts near the int range
// overflow the compute station's servers (SharedCores times the machines).
const MaxSharedCores = 1 << 20

// Family names the queueing model in model.json and on the command line.
func (AsyncPS) Family() string { return "asyncps" }

// ParamNames lists the fitted parameters, in the order of Params.
func (AsyncPS) ParamNames() []string {
	return []string{"compute0 (s)", "compute1 (s/sample)", "latency (s)", "apply (s)"}
}

// Params returns Compute0, Compute1, Latency, Apply.
func (a AsyncPS) Params() []float64 {
	return []float64{a.Compute0, a.Compute1, a.Latency, a.Apply}
}

// WithParams returns a copy of a with Compute0, Compute1, Latency, Apply set
// from p. It panics if len(p) != 4.
func (a AsyncPS) WithParams(p []float64) AsyncPS {
	if len(p) != 4 {
		panic(fmt.Sprintf("model: asyncps.WithParams: %d parameters, want 4", len(p)))
	}
	a.Compute0, a.Compute1, a.Latency, a.Apply = p[0], p[1], p[2], p[3]
	return a
}

// Validate reports a negative or non-finite parameter, naming it.
func (a AsyncPS) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"compute0", a.Compute0}, {"compute1", a.Compute1}, {"batch", a.Batch},
		{"param_bytes", a.ParamBytes}, {"bandwidth", a.Bandwidth}, {"latency", a.Latency},
		{"apply", a.Apply}, {"scv_compute", a.SCVCompute}, {"scv_push", a.SCVPush},
		{"scv_apply", a.SCVApply}, {"scv_pull", a.SCVPull},
	} {
		if math.IsNaN(f.v) || f.v < 0 || math.IsInf(f.v, 0) {
			return fmt.Errorf("model: asyncps: parameter %s = %g, want a finite value >= 0", f.name, f.v)
		}
	}
	if a.ParamBytes > 0 && a.Bandwidth == 0 && a.Latency == 0 {
		return fmt.Errorf("model: asyncps: param_bytes = %g but bandwidth and latency are 0: transfers would be free", a.ParamBytes)
	}
	if a.SharedCores < 0 || a.SharedCores > MaxSharedCores {
		return fmt.Errorf("model: asyncps: shared_cores = %d, want 0 to %d (cores per machine)", a.SharedCores, MaxSharedCores)
	}
	if a.Sharding != Parallel && a.Sharding != Sequential {
		return fmt.Errorf("model: asyncps: sharding = %d, want parallel or sequential", int(a.Sharding))
	}
	return nil
}

// ComputeTime returns Z = Compute0 + Compute1*b for the batch of c, s.
func (a AsyncPS) ComputeTime(c Config) float64 {
	b := a.Batch
	if c.Batch > 0 {
		b = c.Batch
	}
	return a.Compute0 + a.Compute1*b
}

func apsShards(c Config) int {
	if c.PS < 1 {
		return 1
	}
	return c.PS
}

// Transfer returns the demand of one push or pull to one shard at c:
// Latency + ParamBytes/(P*Bandwidth), s, with c.Bandwidth in place of
// a.Bandwidth when it is > 0.
func (a AsyncPS) Transfer(c Config) float64 {
	d := a.Latency
	bw := a.Bandwidth
	if c.Bandwidth > 0 {
		bw = c.Bandwidth
	}
	if bw > 0 {
		d += a.ParamBytes / (float64(apsShards(c)) * bw)
	}
	return d
}

// harmonic returns H_p = 1 + 1/2 + ... + 1/p.
func harmonic(p int) float64 {
	var h float64
	for i := p; i >= 1; i-- {
		h += 1 / float64(i)
	}
	return h
}

// Network builds the closed network of the job at c (c.Workers is not
// used, except that SharedCores with Config.Nodes = 0 gives one machine per
// worker). Station names are "compute" (only with SharedCores), "push",
// "apply", "pull" and "sync" (Parallel, P > 1), or "push[i]", "apply[i]",
// "pull[i]" for shard i = 1..P (Sequential).
func (a AsyncPS) Network(c Config) Network {
	P := apsShards(c)
	z := a.ComputeTime(c)
	dx := a.Transfer(c)
	da := a.Apply / float64(P)
	scvPush, scvApply, scvPull, scvCompute := a.SCVPush, a.SCVApply, a.SCVPull, a.SCVCompute
	if !a.Correction && !a.Flow {
		scvPush, scvApply, scvPull, scvCompute = 1, 1, 1, 1
	}
	n := Network{ZSCV: scvCompute}
	if a.SharedCores > 0 {
		nodes := c.Nodes
		if nodes < 1 {
			nodes = max(c.Workers, 1)
		}
		// SharedCores*nodes < Workers, said without the product (which
		// can overflow for absurd core counts)
		if a.SharedCores <= (c.Workers-1)/nodes {
			n.Stations = append(n.Stations, Station{Name: "compute", D: z, SCV: scvCompute, Servers: a.SharedCores * nodes, Kind: ComputeStation})
			z = 0
		}
	}
	n.Z = z
	switch a.Sharding {
	case Sequential:
		n.Stations = append(make([]Station, 0, len(n.Stations)+3*P), n.Stations...)
		for i := 1; i <= P; i++ {
			n.Stations = append(n.Stations,
				Station{Name: fmt.Sprintf("push[%d]", i), D: dx, SCV: scvPush, Kind: LinkStation},
				Station{Name: fmt.Sprintf("apply[%d]", i), D: da, SCV: scvApply, Kind: ApplyStation})
		}
		for i := 1; i <= P; i++ {
			n.Stations = append(n.Stations, Station{Name: fmt.Sprintf("pull[%d]", i), D: dx, SCV: scvPull, Kind: LinkStation})
		}
	default:
		n.Stations = append(n.Stations,
			Station{Name: "push", D: dx, SCV: scvPush, Kind: LinkStation},
			Station{Name: "apply", D: da, SCV: scvApply, Kind: ApplyStation},
			Station{Name: "pull", D: dx, SCV: scvPull, Kind: LinkStation})
		if P > 1 {
			k := len(n.Stations) - 3
			sigma := math.Sqrt(scvPush*dx*dx + scvApply*da*da + scvPull*dx*dx)
			f := harmonic(P) - 1
			n.Stations = append(n.Stations, Station{Name: "sync", D: sigma * f, Delay: true, Kind: SyncStation,
				SyncOf: []int{k, k + 1, k + 2}, SyncFactor: f})
		}
	}
	return n
}

// largeN is the worker count above which StepsPerSecond switches from the
// exact recursion (cost linear in N) to Schweitzer's fixed point.
const largeN = 100000

// ExactLimit is the largest worker count AsyncPS solves by the exact
// recursion, whose cost grows with N (a sweep serves many counts at the
// cost of the largest); above it each count costs a fixed point of a few
// iterations, and a sweep there would cost more than the counts asked.
const ExactLimit = largeN

func (a AsyncPS) solver(N int) MVA {
	return MVA{Correction: a.Correction || a.Flow, Flow: a.Flow, Approximate: N > largeN}
}

// StepsPerSecond returns the updates applied per second over all workers
// at c. It panics if c.Workers < 1 or a is invalid.
func (a AsyncPS) StepsPerSecond(c Config) float64 {
	if c.Workers < 1 {
		panic(fmt.Sprintf("model: asyncps: Config.Workers = %d, want >= 1", c.Workers))
	}
	return a.solver(c.Workers).Solve(a.Network(c), c.Workers).X
}

// SamplesPerStep returns the per-worker mini-batch of an update:
// Config.Batch, or Batch (Sweep and Evaluate read it for samples/s and
// epochs; without it they reported 0 samples/s and refused an epoch goal).
func (a AsyncPS) SamplesPerStep(c Config) float64 { return batch(c, a.Batch) }

// Sweep fills xs[i] with StepsPerSecond at Workers = i+1 and the shards,
// batch and machines of c (c.Workers is ignored), in one pass of the MVA
// recursion: cost O(len(xs)) instead of O(len(xs)^2), and the same numbers
// as StepsPerSecond, which solves worker counts above largeN by the fixed
// point (those, as there, one by one). With SharedCores on c.Nodes machines
// the network has two forms: compute a delay while every worker has a core
// (up to SharedCores*Nodes workers), a station of SharedCores*Nodes servers
// past that; each form is swept once (before, each point was solved on its
// own: O(N^2), minutes for check at 10,000 workers).
func (a AsyncPS) Sweep(c Config, xs []float64) {
	exact := xs[:min(len(xs), largeN)]
	c.Workers = len(exact)
	if a.SharedCores > 0 && c.Nodes >= 1 && a.SharedCores <= (len(exact)-1)/c.Nodes {
		// the first SharedCores*Nodes counts without the station (the
		// network at one worker), the rest with it (the network at the
		// largest count)
		own := a.SharedCores * c.Nodes
		one := c
		one.Workers = 1
		a.solver(len(exact)).Sweep(a.Network(one), exact[:own])
		all := make([]float64, len(exact))
		a.solver(len(exact)).Sweep(a.Network(c), all)
		copy(exact[own:], all[own:])
	} else {
		a.solver(len(exact)).Sweep(a.Network(c), exact)
	}
	for i := len(exact); i < len(xs); i++ {
		c.Workers = i + 1
		xs[i] = a.StepsPerSecond(c)
	}
}

// Stepper is the exact recursion of the network at c (c.Workers is
// ignored), resumable one worker count at a time (MVA.Stepper): its X at
// n <= ExactLimit workers is StepsPerSecond's at Workers = n to the bit.
// Above ExactLimit StepsPerSecond solves the fixed point instead: ask it.
// ok is false with SharedCores, whose network changes with the workers.
func (a AsyncPS) Stepper(c Config) (s *Stepper, ok bool) {
	if a.SharedCores > 0 {
		return nil, false
	}
	return a.solver(1).Stepper(a.Network(c)), true
}

// Bounds returns the two asymptotic upper bounds on the throughput at c,
// updates/s: light load N/(Z + sum D) and saturation 1/max D (+Inf when
// there is no queueing demand). The throughput never exceeds the smaller.
func (a AsyncPS) Bounds(c Config) (light, saturation float64) {
	n := a.Network(c)
	return NetworkBounds(n, c.Workers)
}

// Knee returns N* = (Z + sum D)/max D at the shards and batch of c: the
// worker count where the two bounds cross, past which more workers mostly
// queue. The Z and D are those of c (with SharedCores they depend on
// c.Workers through the machines).
func (a AsyncPS) Knee(c Config) float64 {
	return NetworkKnee(a.Network(c))
}

// Prediction is what AsyncPS predicts for one configuration.
type Prediction struct {
	Workers, PS    int
	StepsPerSecond float64 // updates applied per second, all workers
	SamplesPerSec  float64 // StepsPerSecond times the per-worker batch
	Cycle          float64 // mean time of one worker's iteration, s
	Staleness      float64 // mean number of other workers' updates between a read and the apply
	Light, Sat     float64 // the two upper bounds, updates/s (see AsyncPS.Bounds)
	Knee           float64 // N*, workers
	Stations       []string
	Utilisation    []float64 // per station, as Result.U
	Bottleneck     string    // the queueing station with the highest utilisation
}

// Predict solves the network at c and reports throughput, staleness,
// bounds and utilisations.
func (a AsyncPS) Predict(c Config) Prediction {
	if c.Workers < 1 {
		panic(fmt.Sprintf("model: asyncps: Config.Workers = %d, want >= 1", c.Workers))
	}
	n := a.Network(c)
	r := a.solver(c.Workers).Solve(n, c.Workers)
	b := a.Batch
	if c.Batch > 0 {
		b = c.Batch
	}
	p := Prediction{
		Workers: c.Workers, PS: apsShards(c),
		StepsPerSecond: r.X, SamplesPerSec: r.X * b, Cycle: r.Cycle,
		Staleness:   a.Staleness(c),
		Knee:        NetworkKnee(n),
		Utilisation: r.U,
	}
	p.Light, p.Sat = NetworkBounds(n, c.Workers)
	for _, s := range n.Stations {
		p.Stations = append(p.Stations, s.Name)
	}
	if k := r.Bottleneck(n); k >= 0 {
		p.Bottleneck = n.Stations[k].Name
	}
	return p
}
