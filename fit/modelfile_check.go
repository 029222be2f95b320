package fit

// This file holds the checks ParseModel makes of model.json's fields beyond
// their JSON types (the batch law, reference, extrapolation, loss curve
// samples, link rate, step rate at the reference) and the bounds they
// check against.

import (
	"fmt"
	"math"

	"github.com/sgdplan/sgdplan/internal/limits"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// check reports fields that are missing, not finite or inconsistent.
func (g *GNSLaw) check() error {
	for _, f := range []struct {
		name string
		v    float64
		pos  bool
	}{
		{"noise_batch", g.NoiseBatch, false}, {"noise_batch_lo", g.NoiseBatchLo, false}, {"noise_batch_hi", g.NoiseBatchHi, false},
		{"ref_batch", g.RefBatch, true}, {"steps_ref", g.StepsRef, true}, {"target_loss", g.TargetLoss, false},
		{"min_batch", g.MinBatch, true}, {"max_batch", g.MaxBatch, true},
	} {
		switch {
		case math.IsNaN(f.v) || math.IsInf(f.v, 0):
			return errorf("efficiency.gns.%s = %g, want a finite number", f.name, f.v)
		case f.pos && !(f.v > 0):
			return errorf("efficiency.gns.%s = %g, want > 0", f.name, f.v)
		case !f.pos && f.name != "target_loss" && f.v < 0:
			return errorf("efficiency.gns.%s = %g, want >= 0", f.name, f.v)
		}
	}
	if !(g.NoiseBatchLo <= g.NoiseBatch && g.NoiseBatch <= g.NoiseBatchHi) {
		return errorf("efficiency.gns: noise_batch %g is outside its interval [%g, %g]", g.NoiseBatch, g.NoiseBatchLo, g.NoiseBatchHi)
	}
	if g.MinBatch > g.MaxBatch {
		return errorf("efficiency.gns: min_batch %g > max_batch %g", g.MinBatch, g.MaxBatch)
	}
	if g.IntervalScale != 0 && !(g.IntervalScale >= 1 && g.IntervalScale <= maxIntervalScale) {
		return gnsFieldError{"efficiency.gns.interval_scale", fmt.Sprintf("efficiency.gns.interval_scale = %g: want 1 to %g (the factor sqrt(n/(n-2))·t/z that widens the samples' interval), or none", g.IntervalScale, float64(maxIntervalScale))}
	}
	if !(g.RunScatter >= 0 && g.RunScatter <= maxRunScatter) {
		return gnsFieldError{"efficiency.gns.run_scatter", fmt.Sprintf("efficiency.gns.run_scatter = %g: want 0 to %g (the root mean square of log(measured/law's) steps to target over the fitted runs)", g.RunScatter, float64(maxRunScatter))}
	}
	names := [2]string{"steps_ref", "noise_batch"}
	for i, s := range g.Samples {
		if len(s) != 2 {
			return gnsFieldError{fmt.Sprintf("efficiency.gns.samples[%d]", i), fmt.Sprintf("efficiency.gns: sample %d has %d values, want 2 (steps_ref, noise_batch)", i+1, len(s))}
		}
		for j, v := range s {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (j == 0 && v == 0) {
				want := ">= 0 and finite (a noise scale, samples)"
				if j == 0 {
					want = "> 0 and finite (steps to target_loss at ref_batch)"
				}
				return gnsFieldError{fmt.Sprintf("efficiency.gns.samples[%d][%d]", i, j), fmt.Sprintf("efficiency.gns: sample %d: %s = %g: want %s", i+1, names[j], v, want)}
			}
		}
	}
	return nil
}

// gnsFieldError is an error of GNSLaw.check at a field below
// efficiency.gns (path, for the position ParseModel gives it).
type gnsFieldError struct{ path, msg string }

func (e gnsFieldError) Error() string { return e.msg }

// refSpeeds returns m's reference configuration at one worker and the
// steps/s there of the point fit, of each bootstrap sample and of each
// rival (solved alone: nothing is memoised).
func (m *Model) refSpeeds() (c model.Config, point float64, samples, rivals []float64) {
	c = m.Config(model.Config{Workers: 1})
	bare := *m
	bare.sweeps = nil
	point = bare.StepsPerSecond(c)
	for i := range m.Samples {
		samples = append(samples, bare.Resampled(i).StepsPerSecond(c))
	}
	for i := range m.Rivals {
		rivals = append(rivals, bare.AsRival(i).StepsPerSecond(c))
	}
	return c, point, samples, rivals
}

// speedOK reports whether a step rate is finite and positive.
func speedOK(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// maxRateRatio bounds how far below the rate a model's link demand was
// measured at (queueing.bandwidth) it is asked at: the demand grows as
// their ratio, and at 1e-310 B/s it was +Inf and predict and check
// panicked. A trillion times below the measured rate is past any real
// link already.
const maxRateRatio = 1e12

// linkRateErr refuses a link rate bw that makes a queueing model's link
// demand the measured one times more than maxRateRatio, or less than its
// inverse; nil for other models and for bw 0 (the measured rate).
func (m *Model) linkRateErr(bw float64) error {
	if m.Queueing == nil || !(m.Queueing.Bandwidth > 0) || !(bw > 0) {
		return nil
	}
	if m.Queueing.Bandwidth/bw > maxRateRatio {
		return errorf("bandwidth %g B/s: more than %g times below the rate the link demand was measured at (%g B/s), which scales it as that ratio: want a rate of at least %g B/s", bw, maxRateRatio, m.Queueing.Bandwidth, m.Queueing.Bandwidth/maxRateRatio)
	}
	if bw/m.Queueing.Bandwidth > maxRateRatio {
		// (1e308 B/s was taken, and the link demand read as 0: no link
		// is that fast, and a typo of the exponent passed)
		return errorf("bandwidth %g B/s: more than %g times above the rate the link demand was measured at (%g B/s), where the links' demand is nothing: want a rate of at most %g B/s", bw, maxRateRatio, m.Queueing.Bandwidth, m.Queueing.Bandwidth*maxRateRatio)
	}
	return nil
}

// checkReference refuses a model whose step time at its reference
// configuration (one worker, the reference shards, batch and link rate) is
// not a finite positive number, for the fitted parameters, each bootstrap
// sample and each rival: every speedup, verdict and time to target is
// relative to it (parameters all 0 gave NaN verdicts and a predict table
// that crashed). at gives the position of a path.
func (m *Model) checkReference(at *placer) error {
	c, point, sx, rx := m.refSpeeds()
	where := fmt.Sprintf("1 worker, %d ps, batch %.4g", c.PS, c.Batch)
	if !speedOK(point) {
		return at.errorf("parameters", "the parameters predict %g steps/s at the reference configuration (%s), a step time of %g s: want a finite positive step time (are the parameters all 0?)", point, where, 1/point)
	}
	for i, x := range sx {
		if !speedOK(x) {
			return at.errorf(fmt.Sprintf("bootstrap_samples[%d]", i), "bootstrap sample %d predicts %g steps/s at the reference configuration (%s): want a finite positive step time", i+1, x, where)
		}
	}
	for i, x := range rx {
		if !speedOK(x) {
			return at.errorf(fmt.Sprintf("rivals[%d]", i), "rival %d (%s) predicts %g steps/s at the reference configuration (%s): want a finite positive step time", i+1, m.Rivals[i].Family, x, where)
		}
	}
	return m.checkTarget(at, where)
}

// checkTarget refuses a model whose updates and time to its own target
// loss at one worker (the reference configuration, described by where),
// with their interval, are not finite numbers where it predicts them: the
// loss curve's and the batch law's fields in range each, but together past
// float64's (efficiency.batch 1e308, b0 5e-324, gns.steps_ref 1e308), made
// predict refuse every row without a place in the file while check gave a
// verdict. An upper end of the updates at +Inf (the target may never be
// reached) is predict's to say; a model without a target, or one its curve
// never reaches, has nothing to check.
func (m *Model) checkTarget(at *placer, where string) error {
	e := m.Efficiency
	if e == nil {
		return nil
	}
	bare := *m
	bare.sweeps = nil
	p := bare.Predict(model.Config{Workers: 1}, math.NaN(), 0)
	u, t := p.UpdatesToTarget, p.TimeToTarget
	if math.IsNaN(u.Value) {
		return nil
	}
	vals := []float64{u.Value, u.Lo, t.Value, t.Lo}
	if !math.IsInf(u.Hi, 1) {
		vals = append(vals, u.Hi, t.Hi)
	}
	finite := true
	for _, v := range vals {
		finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	if finite {
		return nil
	}
	// the field the point's overflow comes from, or the samples that
	// give the ends
	place, law := "efficiency.b0", fmt.Sprintf("the loss curve (b0 %.4g, b1 %.4g, b2 %.4g, at %.4g samples an update)", e.B0, e.B1, e.B2, e.Batch)
	if g := m.gns(); g != nil {
		place, law = "efficiency.gns.steps_ref", fmt.Sprintf("the batch law (steps_ref %.4g at ref_batch %.4g, noise_batch %.4g)", g.StepsRef, g.RefBatch, g.NoiseBatch)
	} else if e.Batch > 0 {
		// the curve's own updates, at the samples it counts
		if k := (1/(e.TargetLoss-e.B2) - e.B1) / (e.B0 / (1 + e.Lambda*m.Staleness(1))); !math.IsInf(k, 0) && !math.IsNaN(k) {
			place = "efficiency.batch"
		}
	}
	if !math.IsNaN(u.Value) && !math.IsInf(u.Value, 0) && !math.IsNaN(t.Value) && !math.IsInf(t.Value, 0) {
		switch {
		case m.gns() != nil && len(m.gns().Samples) > 0:
			place = "efficiency.gns.samples"
		case len(e.CurveSamples) > 0:
			place = "efficiency.curve_samples"
		default:
			place = "efficiency"
		}
	}
	hi := "inf"
	if !math.IsInf(u.Hi, 1) {
		hi = fmt.Sprintf("%.4g", u.Hi)
	}
	return at.errorf(place, "efficiency: %s gives %.4g updates [%.4g, %s] to the target loss %.4g at the reference configuration (%s), a time to target of %.4g s [%.4g, %.4g]: not finite numbers (each field in its range, but together past a float64's): want fields that reach the target in a finite time", law, u.Value, u.Lo, hi, m.TargetLossFor(math.NaN()), where, t.Value, t.Lo, t.Hi)
}

// modeFits reports whether fam models data of mode: some kind of data of
// that mode (with or without shards, at a fixed global batch or not) that
// fam applies to.
func modeFits(fam Family, mode string) bool {
	if fam.Applies == nil {
		return true
	}
	for _, ps := range []bool{false, true} {
		for _, strong := range []bool{false, true} {
			if fam.Applies(DataKind{Async: mode == "async", PS: ps, Strong: strong}) {
				return true
			}
		}
	}
	return false
}

// MaxBatch is the largest batch, per worker or global, a model takes: the
// largest whole number a float64 holds exactly (above it every float64 is
// "whole", and a batch of 1e300 samples gave steps/s of 5e-299 without a
// word). model.json's reference batches are checked against it on load,
// predict's and check's --batch and --global-batch when given.
const MaxBatch = 1 << 53

// checkDataFields refuses the counts of data.configurations out of their
// range, each at its position: a worker count of -3 or 0 was read without a
// word (FewestWorkers passed over it, the bootstrap's units counted it).
func (m *Model) checkDataFields(at *placer) error {
	for i, c := range m.Data.Configurations {
		where := func(f string) string { return fmt.Sprintf("data.configurations[%d].%s", i, f) }
		switch {
		case c.Workers < 1 || c.Workers > limits.MaxCount:
			return at.errorf(where("workers"), "data.configurations[%d].workers = %d: want the fitted worker count, 1 to %d", i, c.Workers, limits.MaxCount)
		case c.PS < 0 || c.PS > limits.MaxCount:
			return at.errorf(where("ps"), "data.configurations[%d].ps = %d: want the fitted shards, 0 (all-reduce) to %d", i, c.PS, limits.MaxCount)
		case c.Nodes < 0 || c.Nodes > limits.MaxCount:
			return at.errorf(where("nodes"), "data.configurations[%d].nodes = %d: want the fitted machines, 0 (not recorded) to %d", i, c.Nodes, limits.MaxCount)
		}
	}
	return nil
}

// checkReferenceFields refuses reference fields out of their range, each
// at its line and column.
func (m *Model) checkReferenceFields(at *placer) error {
	r := &m.Reference
	// whole: an integer, and one a float64 holds exactly (MaxBatch)
	whole := func(v float64) bool { return v == math.Trunc(v) && v <= MaxBatch }
	switch {
	case r.PS < 0:
		return at.errorf("reference.ps", "reference.ps = %d: want the shards, >= 0 (0: all-reduce)", r.PS)
	case r.PS > limits.MaxCount:
		// predict walked every count up to it (1e9: over 10 CPU-minutes),
		// and check said "PS shards: too large" as if --ps were given
		return at.errorf("reference.ps", "reference.ps = %d: too large: want the shards, from 0 (all-reduce) to %d (the limit of --ps)", r.PS, limits.MaxCount)
	case r.Nodes < 0:
		return at.errorf("reference.nodes", "reference.nodes = %d: want the machines, >= 0 (0: one per worker)", r.Nodes)
	case r.PerNode < 0:
		return at.errorf("reference.per_node", "reference.per_node = %d: want workers per machine, >= 0 (0: absent)", r.PerNode)
	case r.MaxWorkers < 0:
		return at.errorf("reference.max_workers", "reference.max_workers = %d: want the largest fitted worker count, >= 1 (or 0: the largest of data.configurations)", r.MaxWorkers)
	case r.ParamBytes < 0:
		return at.errorf("reference.param_bytes", "reference.param_bytes = %d: want the model size in bytes, > 0 (or absent)", r.ParamBytes)
	case r.Bandwidth < 0 || (r.Bandwidth > 0 && (r.Bandwidth < traces.MinBandwidth || r.Bandwidth > traces.MaxBandwidth)):
		// (runs.csv's and --bandwidth's bounds: 1e-20 B/s was read)
		return at.errorf("reference.bandwidth", "reference.bandwidth = %g: want a link rate from %g to %g B/s (or absent)", r.Bandwidth, float64(traces.MinBandwidth), float64(traces.MaxBandwidth))
	case r.Dataset < 0:
		return at.errorf("reference.dataset", "reference.dataset = %d: want the samples per epoch, > 0 (or absent)", r.Dataset)
	case r.Batch < 0 || !whole(r.Batch) || (r.Batch == 0 && r.GlobalBatch == 0 && at.offset("reference.batch") != at.offset("reference")):
		return at.errorf("reference.batch", "reference.batch = %g: want the samples per worker and step, a whole number from 1 to 2^53", r.Batch)
	case r.GlobalBatch < 0 || !whole(r.GlobalBatch):
		return at.errorf("reference.global_batch", "reference.global_batch = %g: want the samples per step, a whole number from 1 to 2^53 (or absent)", r.GlobalBatch)
	case r.Batch == 0 && r.GlobalBatch == 0:
		return at.errorf("reference", "reference: missing \"batch\" or \"global_batch\"")
	case r.Batch > 0 && r.GlobalBatch > 0:
		// (the global batch was used and the batch ignored, silently)
		return at.errorf("reference.global_batch", "reference: both batch (%g a worker) and global_batch (%g): want one, batch for a fixed batch per worker, global_batch for one split among the workers", r.Batch, r.GlobalBatch)
	case m.Family == "mva" && r.PS < 1:
		// (predict printed "ps 0" and computed one shard, silently)
		return at.errorf("reference.ps", "reference.ps = %d for the mva family, whose network has parameter-server shards: want >= 1", r.PS)
	case m.Mode == "allreduce" && r.PS > 0:
		return at.errorf("reference.ps", "reference.ps = %d for mode allreduce, which has no parameter servers: want 0", r.PS)
	}
	if r.PS < 1 {
		// fitted on shards, predicted at none (predict printed "ps 0" rows
		// of a parameter-server form, silently)
		for _, c := range m.Data.Configurations {
			if c.PS > 0 {
				return at.errorf("reference.ps", "reference.ps = %d, but the fitted data (data.configurations) have parameter-server shards (%d): want the shards to predict at by default, >= 1", r.PS, c.PS)
			}
		}
	}
	// data.configurations records every fitted configuration, and fit
	// writes max_workers as their largest worker count: one that
	// disagrees was edited (100000 over data of 64 workers hid check's and
	// predict's warning that 128 workers extrapolate)
	most := 0
	for _, c := range m.Data.Configurations {
		most = max(most, c.Workers)
	}
	switch {
	case r.MaxWorkers == 0: // not recorded: the data's largest count
		r.MaxWorkers = most
	case most > 0 && r.MaxWorkers != most:
		return at.errorf("reference.max_workers", "reference.max_workers = %d, but the largest worker count of data.configurations (the fitted data) is %d: want %d (or 0, which reads it from them)", r.MaxWorkers, most, most)
	}
	return nil
}

// maxRMSLE bounds model.json's diagnostics.rmsle: a fit e^50-fold off its
// own data is a corrupted file.
const maxRMSLE = 50

// extrapolationAgainstData checks the extrapolation's fitted counts against
// data.configurations, the fitted data's record (none: taken as given):
// max_workers and max_ps at most theirs, min_workers at least theirs. fit
// writes them from those data (a two-node profile's max_workers is its 1
// worker); edited beyond them (2^62) they hid the widening, or made every
// interval span a millionth to a million times the point.
func (m *Model) extrapolationAgainstData() error {
	e := m.Extrapolation
	if e == nil || len(m.Data.Configurations) == 0 {
		return nil
	}
	least, most, mostPS := 0, 0, 0
	for _, c := range m.Data.Configurations {
		if c.Workers > 0 && (least == 0 || c.Workers < least) {
			least = c.Workers
		}
		most, mostPS = max(most, c.Workers), max(mostPS, c.PS)
	}
	switch {
	case most > 0 && e.MaxWorkers > most:
		return fieldErr{"max_workers", errorf("extrapolation: max_workers %d, but the largest worker count of data.configurations (the fitted data) is %d: want at most %d", e.MaxWorkers, most, most)}
	case e.MinWorkers > 0 && least > 0 && e.MinWorkers < least:
		return fieldErr{"min_workers", errorf("extrapolation: min_workers %d, but the fewest workers of data.configurations (the fitted data) is %d: want at least %d (or 0: no widening below)", e.MinWorkers, least, least)}
	case e.MaxPS > mostPS && mostPS > 0:
		return fieldErr{"max_ps", errorf("extrapolation: max_ps %d, but the most shards of data.configurations (the fitted data) is %d: want at most %d", e.MaxPS, mostPS, mostPS)}
	}
	return nil
}

// checkCurveSamples checks efficiency.curve_samples: four values each,
// (b0, b1, b2, lambda >= 0) finite, lambda 0 where the
// model's is fixed or beside a batch law (whose curve counts steps at
// its reference batch, with no staleness).
func checkCurveSamples(e *Efficiency, at *placer) error {
	names := [4]string{"b0", "b1", "b2", "lambda"}
	for i, s := range e.CurveSamples {
		if len(s) != 4 {
			return at.errorf(fmt.Sprintf("efficiency.curve_samples[%d]", i), "efficiency: curve sample %d has %d values, want 4 (b0, b1, b2, lambda)", i+1, len(s))
		}
		for j, v := range s {
			bad := math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (j == 3 && (e.LambdaFixed || e.GNS != nil) && v != 0)
			if bad {
				want := ">= 0 and finite"
				switch {
				case j == 0:
					want = ">= 0 and finite (the curve's rate; 0: a resample whose loss does not fall, its targets never reached)"
				case j == 3 && e.LambdaFixed:
					want = "0 (lambda_fixed: the model holds lambda at 0)"
				case j == 3 && e.GNS != nil:
					want = "0 (beside a batch law the curve counts steps at its reference batch, with no staleness)"
				}
				return at.errorf(fmt.Sprintf("efficiency.curve_samples[%d][%d]", i, j), "efficiency: curve sample %d: %s = %g: want %s", i+1, names[j], v, want)
			}
		}
	}
	return nil
}

// maxStalenessPerWorker bounds model.json's staleness_per_worker: each
// extra worker adds about one update of staleness; a million is no law.
const maxStalenessPerWorker = 1e6

// maxRunScatter bounds model.json's run_scatter: a run 150 times off the
// curve (e^5) in log units' root mean square.
const maxRunScatter = 5

// maxIntervalScale bounds model.json's interval_scale: sqrt(n/(n-p))·t/z
// with one degree of freedom left is 7.7 at 4 configurations and 90%,
// 2,470 at 10,000 configurations and 99%, 163,600 at 10,000 and 99.99%
// (100 before 2026-12-06, when the factor was sqrt(n/(n-p)) alone).
const maxIntervalScale = 1e6
