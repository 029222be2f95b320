package fit

import (
	"errors"
	"fmt"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// Queueing is what the "mva" family needs beyond its four fitted
// parameters: how the closed network is solved, the measured variability
// of each phase, and the link rate at which the link demand was measured.
// model.json stores it as "queueing".
type Queueing struct {
	// Variant is "exact" (the paper's exact MVA, exponential service:
	// the default), "correction" (the residual-service correction with the
	// SCVs below, model.AsyncPS.Correction) or "flow" (also the flow
	// variability, model.AsyncPS.Flow). "" means exact.
	Variant string `json:"variant"`
	// SCVLink, SCVApply, SCVCompute: squared coefficients of variation of
	// one transfer, one apply and one compute, from the two-node profile;
	// read by the correction and flow variants only.
	SCVLink    float64 `json:"scv_link"`
	SCVApply   float64 `json:"scv_apply"`
	SCVCompute float64 `json:"scv_compute"`
	// Bandwidth is the link rate (B/s per shard link and direction) at
	// which the "link" parameter holds; a configuration at another rate
	// (model.Config.Bandwidth) scales the link demand by Bandwidth over its
	// rate (demand S/B). 0: the link demand does not depend on the rate,
	// and configurations' rates are ignored.
	Bandwidth float64 `json:"bandwidth"`
	// SharedCores, when > 0, makes compute a load-dependent station of
	// SharedCores cores per machine shared by the workers on it
	// (model.AsyncPS.SharedCores; the machines are Config.Nodes).
	SharedCores int `json:"shared_cores,omitempty"`
}

// maxSCV bounds model.json's queueing SCVs.
const maxSCV = 1e6

// QueueingVariants lists the values of Queueing.Variant.
var QueueingVariants = []string{"exact", "correction", "flow"}

// check reports an unknown variant or a negative SCV or bandwidth.
func (q Queueing) check() error {
	switch q.Variant {
	case "", "exact", "correction", "flow":
	default:
		return fieldErr{"variant", errorf("queueing variant %q, want exact, correction or flow", q.Variant)}
	}
	for _, f := range []struct {
		n string
		v float64
	}{{"scv_link", q.SCVLink}, {"scv_apply", q.SCVApply}, {"scv_compute", q.SCVCompute}, {"bandwidth", q.Bandwidth}} {
		if !(f.v >= 0) || f.v > 1e300 {
			return fieldErr{f.n, errorf("queueing: %s = %g, want a finite value >= 0", f.n, f.v)}
		}
		if f.n == "bandwidth" && f.v > 0 && (f.v < traces.MinBandwidth || f.v > traces.MaxBandwidth) {
			// (runs.csv's bounds, which the measured rate came through)
			return fieldErr{f.n, errorf("queueing: bandwidth = %g B/s, want the link rate the demand was measured at, from %g to %g B/s (or 0: not measured)", f.v, float64(traces.MinBandwidth), float64(traces.MaxBandwidth))}
		}
		if f.n != "bandwidth" && f.v > maxSCV {
			// (1e300 with variant flow: the throughput flat at one
			// worker's, silently)
			return fieldErr{f.n, errorf("queueing: %s = %g, want a squared coefficient of variation from 0 to %g (a standard deviation 1000 times the mean; the profile's phases measure 0.001 to 4)", f.n, f.v, float64(maxSCV))}
		}
	}
	if q.SharedCores < 0 || q.SharedCores > model.MaxSharedCores {
		return fieldErr{"shared_cores", errorf("queueing: shared_cores = %d, want 0 (each worker computes on its own device) to %d cores per machine", q.SharedCores, model.MaxSharedCores)}
	}
	return nil
}

// fieldErr is an error about the field field (a path below the object
// checked, "shared_cores" or "gns.ref_batch"), so that ParseModel can point
// at the field's line and column rather than at its object's.
type fieldErr struct {
	field string
	err   error
}

func (e fieldErr) Error() string { return e.err.Error() }

// fieldOf is the path of the value err is about: base, or base.field when
// err is a fieldErr.
func fieldOf(base string, err error) string {
	var fe fieldErr
	if errors.As(err, &fe) && fe.field != "" {
		return base + "." + fe.field
	}
	return base
}

// AsyncPS is the network of package model that the "mva" family solves
// for parameters th = (z0, z1, link, apply): compute Z = z0 + z1 b (a delay
// station), per shard a push and a pull of link/P s at the rate
// q.Bandwidth (ParamBytes = link x Bandwidth, so that a configuration's
// own rate rescales it) and an apply of apply/P s, shards in parallel.
func (q Queueing) AsyncPS(th []float64) model.AsyncPS {
	a := model.AsyncPS{
		Compute0: th[0], Compute1: th[1], Apply: th[3],
		SCVCompute: q.SCVCompute, SCVPush: q.SCVLink, SCVPull: q.SCVLink, SCVApply: q.SCVApply,
		Correction:  q.Variant == "correction" || q.Variant == "flow",
		Flow:        q.Variant == "flow",
		SharedCores: q.SharedCores,
	}
	// Without a rate the link demand is link/P at any rate: ParamBytes =
	// link at a nominal 1 B/s, and Predict drops the configuration's rate.
	bw := 1.0
	if q.Bandwidth > 0 {
		bw = q.Bandwidth
	}
	a.ParamBytes, a.Bandwidth = th[2]*bw, bw
	return a
}

// LinkDemand is the demand of one transfer to one shard at c, s: link/P at
// q.Bandwidth, scaled by q.Bandwidth/c.Bandwidth when both are known.
func (q Queueing) LinkDemand(th []float64, c model.Config) float64 {
	return q.AsyncPS(th).Transfer(q.config(c))
}

// config drops c's link rate when the model has none to scale from.
func (q Queueing) config(c model.Config) model.Config {
	if !(q.Bandwidth > 0) {
		c.Bandwidth = 0
	}
	if c.Batch < 0 {
		c.Batch = 0
	}
	return c
}

// mvaFamily is the "mva" family solved as q says.
func mvaFamily(q Queueing) Family {
	v := q.Variant
	if v == "" {
		v = "exact"
	}
	f := Family{
		Name: "mva",
		Doc: fmt.Sprintf("closed queueing network of async PS (model.AsyncPS, %s MVA): delay Z = z0 + z1 b; per shard push and pull of link/P s "+
			"(scaled by the link rate), apply of apply/P s, shards in parallel", v),
		Params: []Param{
			{"z0", "s", 0, maxTime},
			{"z1", "s", 0, maxTime},
			{"link", "s", 0, maxTime},
			{"apply", "s", 0, maxTime},
		},
		Predict: func(th []float64, c model.Config) float64 {
			return q.AsyncPS(th).StepsPerSecond(q.config(c))
		},
		Applies: func(k DataKind) bool { return k.Async },
		Guess: func(pts []Point) [][]float64 {
			return timeGuesses(pts, func(t, b, s float64) []float64 {
				return []float64{(1 - s) * t / 2, (1 - s) * t / 2 / b, s * t / 2, s * t / 4}
			})
		},
	}
	f.Network = func(th []float64, c model.Config) (model.AsyncPS, model.Config) {
		return q.AsyncPS(th), q.config(c)
	}
	// With shared cores the network changes with the worker count (and the
	// machines): no sweep.
	if q.SharedCores == 0 {
		f.Sweep = func(th []float64, c model.Config, xs []float64) {
			q.AsyncPS(th).Sweep(q.config(c), xs)
		}
	}
	return f
}
