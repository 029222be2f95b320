package fit

// This file holds the model.json schema (Model and the types of its
// fields), NewModel, the encoding and decoding entry points (Marshal,
// WriteModel, EncodeModel, LoadModel, ParseModel) and the model's copies
// and one-line accessors. The field checks are in modelfile_check.go, the
// JSON positions in modelfile_pos.go, the warnings in modelfile_warn.go and
// the predictions in modelfile_predict.go.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
	"github.com/sgdplan/sgdplan/internal/jsontext"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
)

// Schema is the version tag of model.json files this package writes and
// reads.
const Schema = "sgdplan/model/v1"

// Model is a fitted model as stored in model.json: a throughput family
// with its parameters and their intervals, optional statistical efficiency,
// the data it was fitted on and the fit's diagnostics. It predicts any
// configuration and gives the speedup curve the planner consumes.
type Model struct {
	Schema string `json:"schema"`
	Family string `json:"family"`
	// Mode is async, sync or allreduce: how steps relate to samples.
	Mode       string       `json:"mode"`
	Parameters []ParamValue `json:"parameters"`
	// Level is the coverage of the intervals (0.9 = 90%).
	Level float64 `json:"level"`
	// Reference is the configuration that fills what a query leaves out
	// (PS shards, nodes, batch) and the base of the speedup curve.
	Reference Reference `json:"reference"`
	// Samples are bootstrap parameter vectors, for prediction intervals.
	Samples [][]float64 `json:"bootstrap_samples,omitempty"`
	// IntervalScale widens the samples' prediction intervals in log
	// space (ThroughputFit.IntervalScale: sqrt(n/(n-p))·t/z at Level
	// since 2026-12-06, sqrt(n/(n-p)) before); absent or 1: not widened.
	IntervalScale float64 `json:"interval_scale,omitempty"`
	// Rivals are other fits the data cannot tell from this one (other
	// forms within one standard error of the best cross-validated error,
	// or other parameter vectors that fit as well); the prediction
	// intervals hold their predictions too.
	Rivals []Rival `json:"rivals,omitempty"`
	// Extrapolation widens the intervals beyond the fitted data by the
	// fit's measured drift (nil: not measured).
	Extrapolation *Extrapolation `json:"extrapolation,omitempty"`
	// Queueing says how an "mva" model's network is solved and the link
	// rate its link demand was measured at (nil: exact MVA, no rate).
	Queueing    *Queueing   `json:"queueing,omitempty"`
	Efficiency  *Efficiency `json:"efficiency,omitempty"`
	Data        DataInfo    `json:"data"`
	Diagnostics Diagnostics `json:"diagnostics"`

	fam Family
	// sweeps memoises the throughput over worker counts (nil: none);
	// copies of the model share it, which is safe: its keys hold the
	// family, the parameters and the configuration.
	sweeps *sweepMemo
}

// ParamValue is one fitted parameter with its interval and unit.
type ParamValue struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Unit  string  `json:"unit"`
	// Prior: the family's prior set the value (the data leave it free:
	// Family.Prior), not the fit.
	Prior bool `json:"set_by_prior,omitempty"`

	// noValue: read from a model.json whose "value" is absent or null
	// (encoding/json would read 0).
	noValue bool
}

// UnmarshalJSON reads a parameter, noting a value that is absent or null.
func (p *ParamValue) UnmarshalJSON(b []byte) error {
	type plain ParamValue
	var r struct {
		plain
		Value *float64 `json:"value"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	*p = ParamValue(r.plain)
	if r.Value != nil {
		p.Value = *r.Value
	}
	p.noValue = r.Value == nil
	return nil
}

// Reference holds the defaults of a query.
type Reference struct {
	PS    int     `json:"ps"`    // shards when a query gives none (0 = all-reduce)
	Nodes int     `json:"nodes"` // 0: one per worker
	Batch float64 `json:"batch"` // per-worker batch, samples (weak scaling)
	// GlobalBatch, when > 0, is split among the workers (strong scaling):
	// the per-worker batch is GlobalBatch/workers.
	GlobalBatch float64 `json:"global_batch,omitempty"`
	// PerNode, when > 0, is the workers per machine used to place workers
	// when a query gives no node count.
	PerNode int `json:"per_node,omitempty"`
	// MaxWorkers is the largest worker count in the data.
	MaxWorkers int `json:"max_workers"`
	// ParamBytes and Bandwidth (B/s) are the model size and the link
	// rate of a query that gives none (runs.csv of the first training run,
	// or predict --bandwidth); an "mva" model's link demand scales from
	// the rate it was fitted at (Queueing.Bandwidth) to this one.
	ParamBytes int64   `json:"param_bytes,omitempty"`
	Bandwidth  float64 `json:"bandwidth,omitempty"`
	// Dataset is the samples per epoch (runs.csv), 0 when unknown.
	Dataset int64 `json:"dataset,omitempty"`
}

// DataInfo says what the model was fitted on.
type DataInfo struct {
	// Paths are the traces as fit was given them: relative ones are from
	// the folder fit ran in.
	Paths []string `json:"paths"`
	// PathsFromModel are the same traces relative to the model file's
	// folder, one per path (since 2026-12-05; absent in older files, and
	// when fit could not relate them), so that a reader run from another
	// folder finds them beside the model (sgdplan report).
	PathsFromModel []string `json:"paths_from_model,omitempty"`
	// Command is the fit command line that made the model, every option
	// that changes it (not --out, --plot, --format) quoted for a shell,
	// so that its bootstrap can be repeated (since 2026-12-06; absent in
	// older files and in the demo's)
	Command        string       `json:"command,omitempty"`
	Configurations []ConfigData `json:"configurations"`
}

// ConfigData is one fitted configuration and its measured rate.
type ConfigData struct {
	Workers   int     `json:"workers"`
	PS        int     `json:"ps"`
	Nodes     int     `json:"nodes,omitempty"`
	Batch     float64 `json:"batch"`
	Bandwidth float64 `json:"bandwidth,omitempty"` // B/s of the links, 0 when not recorded
	StepsPerS float64 `json:"steps_per_s"`
	Residual  float64 `json:"log_residual"`
}

// Diagnostics are the fit's errors and warnings.
type Diagnostics struct {
	RMSLE        float64       `json:"rmsle"`
	CVError      *float64      `json:"cv_mape_pct"` // nil when not computed
	Alternatives []Alternative `json:"alternatives,omitempty"`
	Warnings     []string      `json:"warnings"`
	// FlatParameters are the parameters a warning says the fit is flat
	// along a combination of: not identified separately, whatever their
	// intervals (ThroughputFit.Flat). Absent: none, or a file written
	// before 2026-12-06.
	FlatParameters []string `json:"flat_parameters,omitempty"`
	// NoEffectParameters are the parameters a warning says have no effect
	// on the fitted points: not identified, whatever their intervals
	// (ThroughputFit.NoEffect; pollux's gamma, [1.978, 1.978], went
	// unmarked). Absent: none, or a file written before 2026-12-07.
	NoEffectParameters []string `json:"no_effect_parameters,omitempty"`
	// HeldOut is how far the model predicts what --train-workers left out
	// of its fit, out of sample: nil without --train-workers, where it
	// left nothing out, or in a file written before 2026-12-07 (fit's
	// table printed it alone).
	HeldOut *HeldOut `json:"held_out,omitempty"`
}

// HeldOut is the error of a model on what --train-workers left out of its
// fit: the runs of a step fit, each predicted at its own configuration and
// batch, or the rows of a throughput table.
type HeldOut struct {
	TrainWorkers []int `json:"train_workers"`
	// Runs (a step fit) or Rows (a table fit) is how many were predicted.
	Runs int `json:"runs,omitempty"`
	Rows int `json:"rows,omitempty"`
	// MAPEPct and WorstPct are the mean and the largest absolute
	// percentage error of the predicted steps/s.
	MAPEPct  float64 `json:"mape_pct"`
	WorstPct float64 `json:"worst_pct"`
	// WorstWorkers and WorstBatch are the configuration of the worst.
	WorstWorkers int     `json:"worst_workers"`
	WorstBatch   float64 `json:"worst_batch,omitempty"`
	// OtherVariants are the errors of the same profile under the other
	// queueing variants on the same runs (an mva model).
	OtherVariants []VariantError `json:"other_variants,omitempty"`
}

// VariantError is a queueing variant's error on held-out runs.
type VariantError struct {
	Variant  string  `json:"variant"`
	MAPEPct  float64 `json:"mape_pct"`
	WorstPct float64 `json:"worst_pct"`
}

// check reports a held_out object no fit writes, naming its field.
func (h *HeldOut) check() error {
	switch {
	case len(h.TrainWorkers) == 0:
		return fieldErr{"train_workers", errorf("diagnostics.held_out: no train_workers: want the worker counts --train-workers kept")}
	case (h.Runs > 0) == (h.Rows > 0) || h.Runs < 0 || h.Rows < 0:
		return fieldErr{"runs", errorf("diagnostics.held_out: runs %d, rows %d: want one of them, > 0 (runs for step traces, rows for a throughput table)", h.Runs, h.Rows)}
	case !(h.MAPEPct >= 0) || !(h.WorstPct >= h.MAPEPct*(1-1e-12)):
		return fieldErr{"mape_pct", errorf("diagnostics.held_out: mape_pct %g, worst_pct %g: want 0 <= mape_pct <= worst_pct", h.MAPEPct, h.WorstPct)}
	case h.WorstWorkers < 1 || slices.Contains(h.TrainWorkers, h.WorstWorkers):
		return fieldErr{"worst_workers", errorf("diagnostics.held_out: worst_workers %d: want a worker count the fit left out (not one of train_workers %v)", h.WorstWorkers, h.TrainWorkers)}
	case h.WorstBatch < 0:
		return fieldErr{"worst_batch", errorf("diagnostics.held_out: worst_batch %g: want the samples per worker and step, > 0 (or absent)", h.WorstBatch)}
	}
	for i, v := range h.OtherVariants {
		if !slices.Contains(QueueingVariants, v.Variant) || !(v.MAPEPct >= 0) || !(v.WorstPct >= v.MAPEPct*(1-1e-12)) {
			return fieldErr{fmt.Sprintf("other_variants[%d]", i), errorf("diagnostics.held_out: other_variants %d: %q at %g%% (worst %g%%): want a queueing variant (%s) and 0 <= mape_pct <= worst_pct", i+1, v.Variant, v.MAPEPct, v.WorstPct, strings.Join(QueueingVariants, ", "))}
		}
	}
	return nil
}

// Efficiency is the statistical efficiency fitted from loss curves: the
// loss after k global updates at staleness s is
// l(k) = 1/(B0/(1+Lambda s) k + B1) + B2, and the mean staleness with N
// asynchronous workers is StalenessPerWorker (N-1).
type Efficiency struct {
	B0     float64 `json:"b0"`
	B1     float64 `json:"b1"`
	B2     float64 `json:"b2"`
	Lambda float64 `json:"lambda"`
	// LambdaLo and LambdaHi are Lambda's bootstrap interval (resampling
	// runs); both 0 in files written before they were kept.
	LambdaLo float64 `json:"lambda_lo"`
	LambdaHi float64 `json:"lambda_hi"`
	// LambdaFixed says the data do not identify lambda (loss curves at one
	// staleness level): it is taken as 0, and [LambdaLo, LambdaHi] = [0, 0]
	// says nothing of it.
	LambdaFixed        bool    `json:"lambda_fixed,omitempty"`
	StalenessPerWorker float64 `json:"staleness_per_worker"`
	// StalenessAssumed says that no fitted run with 2 or more workers
	// measured its staleness: StalenessPerWorker is then 1 by assumption
	// (N - 1), not fitted. False in files written before 2026-12-06.
	StalenessAssumed bool `json:"staleness_assumed,omitempty"`
	// StalenessLo and StalenessHi are StalenessPerWorker's bootstrap
	// interval (fit --bootstrap resamples of the runs that measured their
	// staleness with 2 or more workers, at the fit's level, each end moved
	// from the point by intervalScale in log space); both 0 when there is
	// none (an assumed law, one such run, --bootstrap 0, files written
	// before 2026-12-06).
	StalenessLo float64 `json:"staleness_per_worker_lo,omitempty"`
	StalenessHi float64 `json:"staleness_per_worker_hi,omitempty"`
	// StalenessScatter is the standard deviation of log(measured / law)
	// staleness over those runs (n - 1 degrees of freedom): how far one
	// run lies from the law at the counts it was fitted on. Model.
	// StalenessInterval joins it to the ends as oneRun does run_scatter.
	StalenessScatter float64 `json:"staleness_scatter,omitempty"`
	// StalenessScatterScale widens StalenessScatter where it joins the
	// interval, t(n-1)/z at the level for the 2 or 3 runs that measured
	// it (their scatter, on 1 or 2 degrees of freedom, joined at z, held
	// a new run in 80% of simulated seeds at 90% with 2 runs at one
	// count); absent (1) with more runs and in files written before
	// 2026-12-08.
	StalenessScatterScale float64 `json:"staleness_scatter_scale,omitempty"`
	// CurveSamples are bootstrap samples of the loss curve, each
	// (b0, b1, b2, lambda), refitted to each run's points resampled
	// (CurveSamples): the updates to target at their percentiles bound
	// the curve's part of the updates' interval. None in files written
	// before 2026-12-06, fitted with --bootstrap 0, or with a batch law.
	CurveSamples [][]float64 `json:"curve_samples,omitempty"`
	// CurveScale widens the samples' interval as IntervalScale does the
	// throughput's: sqrt(n/(n-p))·t/z for n loss points and p curve
	// parameters (intervalScale); 0 or 1: not widened.
	CurveScale float64 `json:"curve_interval_scale,omitempty"`
	// RunScatter is the root mean square of log(measured / fitted) updates
	// to the highest last loss of the fitted runs, over those runs: how
	// far the runs' measured updates lie from the curve there (the form's
	// misfit at that loss and the runs' own scatter; measured at that one
	// loss, applied at every target). The updates' interval is widened by
	// it (oneRun), so that it is one run's (docs/validation.md: on
	// testdata/asgd fitted on 1-2 workers the curve's interval held 8 of
	// 16 held-out runs). 0: not known (files written before 2026-12-06,
	// one run).
	RunScatter float64 `json:"run_scatter,omitempty"`
	// TargetLoss is the loss the data reached (the default target).
	TargetLoss float64 `json:"target_loss,omitempty"`
	// LowestLoss is the lowest loss the fitted curve gives at the end of
	// a fitted run (at most TargetLoss): below it no run measured the
	// curve, and a target there is an extrapolation that predict warns of.
	// 0 (absent; files written before 2026-12-05): not known.
	LowestLoss float64 `json:"lowest_loss,omitempty"`
	// LowestMeasuredLoss is the lowest loss any fitted run measured. The
	// curve may give less at a run's end (LowestLoss) than any run
	// measured (on testdata/sync-gns 0.05075 against 0.0534): a target
	// between the two the curve reaches within the runs' updates, but no
	// run did, and predict warns of it. 0 (absent; files written before
	// 2026-12-07, session 38): not known.
	LowestMeasuredLoss float64 `json:"lowest_measured_loss,omitempty"`
	// Batch is the samples per update (the per-worker batch of an
	// asynchronous update, the global batch of a synchronous step) in
	// which the curve counts its updates k. Without a batch law the
	// updates to target at another batch B are those at Batch times
	// Batch/B: the same samples to the target (ideal batch scaling, the
	// gradient-noise law's limit of a large noise scale; optimistic above
	// the critical batch), the assumption the speedup curve makes too.
	// 0 (files written before 2026-12-04): the updates do not scale.
	Batch float64 `json:"batch,omitempty"`
	// GNS, for synchronous models (sync, allreduce) fitted on runs at 3 or
	// more global batches, is the batch law: the updates to a target
	// scale with the global batch B as (1 + noise/B); the loss curve is
	// then in steps at GNS.RefBatch. nil: the batch does not change the
	// updates.
	GNS      *GNSLaw  `json:"gns,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// GNSLaw is the gradient-noise-scale law of a synchronous model
// (McCandlish et al. 2018; FitGNS): StepsRef steps to TargetLoss at the
// global batch RefBatch, and at global batch B
//
//	S(B) = StepsRef (1 + NoiseBatch/B)/(1 + NoiseBatch/RefBatch).
//
// Batches are samples per step over all workers.
type GNSLaw struct {
	NoiseBatch   float64 `json:"noise_batch"`    // samples, B_noise
	NoiseBatchLo float64 `json:"noise_batch_lo"` // its interval (bootstrap over runs)
	NoiseBatchHi float64 `json:"noise_batch_hi"`
	RefBatch     float64 `json:"ref_batch"`   // samples per step of StepsRef
	StepsRef     float64 `json:"steps_ref"`   // steps to TargetLoss at RefBatch
	TargetLoss   float64 `json:"target_loss"` // the loss every fitted run reached
	// MinBatch and MaxBatch are the range of fitted global batches;
	// beyond it the law is extrapolated.
	MinBatch float64 `json:"min_batch"`
	MaxBatch float64 `json:"max_batch"`
	// Samples are the bootstrap's joint refits (steps_ref, noise_batch)
	// of the law, whole runs resampled (FitGNS): the updates to target at
	// their percentiles bound the law's part of the updates' interval,
	// at the reference batch too (where the noise scale's ends alone give
	// no width). None in files written before 2026-12-06 or when fewer
	// than 10 resamples could be fitted.
	Samples [][]float64 `json:"samples,omitempty"`
	// IntervalScale widens the samples' interval as curve_interval_scale
	// does the loss curve's, and run_scatter with it: sqrt(n/(n-2))·t/z
	// for n fitted runs and the law's 2 parameters (a t prediction
	// interval's factor); 0 or 1: not widened.
	IntervalScale float64 `json:"interval_scale,omitempty"`
	// RunScatter is the root mean square of log(measured / law's) steps
	// to target_loss over the fitted runs (FitGNS's RMSLE): how far one
	// run lies from the law. The updates' interval is widened by it,
	// times interval_scale (oneRun), to one run's, as
	// efficiency.run_scatter widens the loss curve's: on pollux-osdi21's
	// six jobs, each run but the smallest batch's left out and predicted
	// from the rest, the 90% interval held 30 of 34 (the samples' alone
	// 23, the noise scale's ends alone 13). 0: not known (files written
	// before 2026-12-06).
	RunScatter float64 `json:"run_scatter,omitempty"`
}

// NewModel builds the Model of a throughput fit. mode is async, sync or
// allreduce; ref gives the defaults; paths name the data.
func NewModel(tf *ThroughputFit, pts []Point, alts []Alternative, mode string, ref Reference, paths []string, level float64) *Model {
	m := &Model{Schema: Schema, Family: tf.Family.Name, Mode: mode, Level: level, Reference: ref, fam: tf.Family, sweeps: newSweepMemo()}
	for j, p := range tf.Family.Params {
		m.Parameters = append(m.Parameters, ParamValue{Name: p.Name, Value: tf.Theta[j], Lo: tf.Lo[j], Hi: tf.Hi[j], Unit: p.Unit, Prior: tf.PriorSet != nil && tf.PriorSet[j]})
	}
	m.Samples = tf.Samples
	if tf.IntervalScale > 1 {
		m.IntervalScale = tf.IntervalScale
	}
	m.Rivals = tf.Rivals
	m.Extrapolation = tf.Extrapolation
	if tf.Queueing != nil {
		q := *tf.Queueing
		m.Queueing = &q
	}
	m.Data.Paths = paths
	for i, p := range pts {
		m.Data.Configurations = append(m.Data.Configurations, ConfigData{
			Workers: p.Config.Workers, PS: p.Config.PS, Nodes: p.Config.Nodes, Batch: p.Config.Batch,
			Bandwidth: p.Config.Bandwidth, StepsPerS: p.StepsPerS, Residual: tf.Residuals[i],
		})
		m.Reference.MaxWorkers = max(m.Reference.MaxWorkers, p.Config.Workers)
	}
	m.Diagnostics.RMSLE = tf.RMSLE
	if !math.IsNaN(tf.CVError) {
		v := tf.CVError
		m.Diagnostics.CVError = &v
	}
	for _, a := range alts {
		if math.IsNaN(a.CVError) {
			a.CVError = -1 // JSON has no NaN: -1 = not computed
		}
		m.Diagnostics.Alternatives = append(m.Diagnostics.Alternatives, a)
	}
	m.Diagnostics.Warnings = append([]string{}, tf.Warnings...)
	m.Diagnostics.FlatParameters = slices.Clone(tf.Flat)
	m.Diagnostics.NoEffectParameters = slices.Clone(tf.NoEffect)
	m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, m.replicateWarnings()...)
	m.dropDegenerate()
	if w := m.missWarning(); w != "" {
		m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, w)
	}
	if w := m.superlinearWarning(); w != "" {
		m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, w)
	}
	return m
}

// BootstrapUnits is the number of configurations the model's data give the
// bootstrap to resample (Point.Key's: workers, shards, nodes and link rate,
// the batch left out) and of distinct per-worker batches among the data.
func (m *Model) BootstrapUnits() (configurations, batches int) {
	keys, bs := map[string]bool{}, map[float64]bool{}
	for _, d := range m.Data.Configurations {
		keys[Point{Config: model.Config{Workers: d.Workers, PS: d.PS, Nodes: d.Nodes, Bandwidth: d.Bandwidth}}.Key()] = true
		bs[d.Batch] = true
	}
	return len(keys), len(bs)
}

// Measured is the number of measurements the model was fitted on and of
// distinct configurations among them.
func (m *Model) Measured() (measurements, configurations int) {
	return len(m.Data.Configurations), len(m.replicates())
}

func (m *Model) theta() []float64 {
	th := make([]float64, len(m.Parameters))
	for j, p := range m.Parameters {
		th[j] = p.Value
	}
	return th
}

// Resampled returns a copy of m at its bootstrap sample i: the
// parameters' values are Samples[i], and the copy has no samples and no
// rivals of its own. Everything else (efficiency, reference, queueing) is
// m's. It panics when i is out of range.
func (m *Model) Resampled(i int) *Model {
	c := *m
	c.Parameters = slices.Clone(m.Parameters)
	for j := range c.Parameters {
		c.Parameters[j].Value = m.Samples[i][j]
	}
	c.Samples, c.Rivals = nil, nil
	return &c
}

// AsRival returns a copy of m that predicts with its rival i's family and
// parameters (values as their own intervals), with no samples and no
// rivals of its own; reference, efficiency and extrapolation are m's. A
// rival is never the queueing network, so the copy has no queueing
// settings. It panics when i is out of range.
func (m *Model) AsRival(i int) *Model {
	r := m.Rivals[i]
	c := *m
	c.Family, c.fam = r.Family, r.fam
	c.Parameters = make([]ParamValue, len(r.Theta))
	for j, v := range r.Theta {
		c.Parameters[j] = ParamValue{Name: r.fam.Params[j].Name, Value: v, Lo: v, Hi: v, Unit: r.fam.Params[j].Unit}
	}
	c.Samples, c.Rivals, c.Queueing = nil, nil, nil
	// the superlinear warning is the form's own: a rival that cannot grow
	// faster than its workers took m's, and check downgraded its verdict
	// beyond the data as m's (a mean with a power law of exponent > 1 made
	// overhead-async's "fine" at 32 workers a "warn")
	c.Diagnostics.Warnings = slices.DeleteFunc(slices.Clone(m.Diagnostics.Warnings), func(w string) bool { return strings.HasPrefix(w, superlinearOpening) })
	if w := c.superlinearWarning(); w != "" {
		c.Diagnostics.Warnings = append(c.Diagnostics.Warnings, w)
	}
	return &c
}

// FamilyForm returns the fitted family (its parameter names and form).
func (m *Model) FamilyForm() Family { return m.fam }

// Marshal returns the model as indented JSON.
func (m *Model) Marshal() ([]byte, error) {
	b, err := jsontext.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, errorf("model.json: %v", err)
	}
	return append(b, '\n'), nil
}

// WriteModel writes m to path atomically (a temporary file in the same
// folder, then a rename): a reader never sees half a model.
func WriteModel(path string, m *Model) error {
	b, err := EncodeModel(path, m)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, b); err != nil {
		return errorf("%v", err)
	}
	return nil
}

// EncodeModel is the model.json text of m that WriteModel writes to path,
// read back as predict would: an error, naming path, when the model fails
// its own checks (never write a model that predict, check and plan would
// refuse).
func EncodeModel(path string, m *Model) ([]byte, error) {
	b, err := m.Marshal()
	if err != nil {
		return nil, err
	}
	if _, err := ParseModel(path, b); err != nil {
		return nil, errorf("the fitted model fails its own checks, not written: %v", err)
	}
	return b, nil
}

// LoadModel reads a model.json written by WriteModel. Errors name the file
// and what is wrong: unreadable (wrapping the os error: errors.Is(err,
// fs.ErrNotExist)), not JSON (with line and column), an unknown schema
// version, an unknown family, missing or mismatched parameters; those with
// a place in the file are a *ModelError (errors.As).
func LoadModel(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, errorf("%s is a folder: want a model.json (the file sgdplan fit --out writes)", path)
	}
	// Bounded: --model /dev/zero (or a trace given by mistake that never
	// ends) read until memory ran out.
	b, err := io.ReadAll(io.LimitReader(f, maxModelBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	if int64(len(b)) > maxModelBytes {
		return nil, errorf("%s: more than %d MiB: not a model.json (sgdplan fit writes a few kB to a few MB)", path, maxModelBytes>>20)
	}
	return ParseModel(path, b)
}

// maxModelBytes bounds what LoadModel reads (a variable for tests).
var maxModelBytes int64 = 256 << 20

// ModelError is a fault of a model.json at a place in it: the file, the
// line and column (from 1, of the value at fault or of the object that
// lacks a field) and what is wrong. Its text is "fit: file:line:column:
// msg", as the command prints it.
type ModelError struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *ModelError) Error() string {
	return fmt.Sprintf("fit: %s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// ParseModel is LoadModel on bytes; name is used in errors, those with a
// place in b a *ModelError.
func ParseModel(name string, b []byte) (*Model, error) {
	// A UTF-8 byte-order mark (some Windows editors write one) is not
	// JSON, but the text after it is: read it as the CSV readers do.
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	// Errors name the line and column of the value at fault (or of the
	// object that lacks a field): a *ModelError.
	at := &placer{name: name, b: b}
	if off, ok := tooDeep(b); ok {
		return nil, at.errorAt(off, "not a model.json: arrays or objects nested more than %d deep (sgdplan fit writes a few levels)", maxJSONDepth)
	}
	if key, off, _, ok := badKey(b, nil); ok {
		return nil, at.errorAt(off, "field %q appears twice in its object: want each field once (which one holds?)", key)
	}
	var m Model
	if err := json.Unmarshal(b, &m); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, at.errorAt(syntaxErrorOffset(b, se), "not a model.json: %v", se)
		case errors.As(err, &te):
			if te.Field == "" {
				// the document itself: where it starts
				return nil, at.errorAt(valueStart(b, 0), "not a model.json: expected a JSON object (as sgdplan fit writes), got JSON %s", te.Value)
			}
			// te.Offset is where the value ends (just past the first
			// byte of an array or object), and inside an array of
			// objects with their own UnmarshalJSON (parameters) it is
			// counted from the element, with a path without the index:
			// find the value by its path, where it starts
			field := te.Field
			off := valueBefore(b, te.Offset)
			if path, start, ok := typeErrorAt(b, te); ok {
				field, off = path, start
			}
			want := jsonKind(te.Type)
			if strings.HasPrefix(te.Value, "number") && (want == "a number" || want == "a whole number") {
				want += " within the range of its type" // 1e400, 2^64
			}
			return nil, at.errorAt(off, "field %s: expected %s, got JSON %s", field, want, te.Value)
		}
		return nil, errorf("%s: not a model.json: %v", name, err)
	}
	// -0 is 0: a staleness_per_worker_lo of -0.0 was printed as
	// staleness_lo -0 (predict's table, csv and json), and an rmsle of
	// -0.0 as fit_rmsle -0
	positiveZeros(reflect.ValueOf(&m).Elem())
	if e := m.Efficiency; e != nil {
		// a measured staleness of 0 is 0; only an absent field is the
		// default, 1 x (N - 1), assumed (0 was read back as 1)
		var probe struct {
			Efficiency struct {
				StalenessPerWorker *float64 `json:"staleness_per_worker"`
			} `json:"efficiency"`
		}
		if json.Unmarshal(b, &probe) == nil && probe.Efficiency.StalenessPerWorker == nil {
			e.StalenessPerWorker, e.StalenessAssumed = 1, true
		}
	}
	if m.Schema == "" {
		return nil, at.errorf("schema", "missing field \"schema\" (want %q)", Schema)
	}
	if m.Schema != Schema {
		return nil, at.errorf("schema", "unknown schema version %q (this sgdplan reads %q)", m.Schema, Schema)
	}
	if key, _, fields, ok := badKey(b, reflect.TypeFor[Model]()); ok {
		if !strings.ContainsAny(key, ".[") {
			return nil, at.errorf(key, "unknown field %q: a %s file has %s (a field of another version would come with another schema; a typo would be ignored)", key, Schema, strings.Join(fields, ", "))
		}
		return nil, at.errorf(key, "unknown field %q: its object has %s (a typo would be ignored)", key, strings.Join(fields, ", "))
	}
	if m.Family == "" {
		return nil, at.errorf("family", "missing field \"family\"")
	}
	fam, ok := LookupFamily(m.Family)
	if !ok {
		return nil, at.errorf("family", "unknown family %q (known: %s)", m.Family, strings.Join(FamilyNames(), ", "))
	}
	if m.Queueing != nil {
		if m.Family != "mva" {
			return nil, at.errorf("queueing", "field \"queueing\" belongs to family mva, not %s", m.Family)
		}
		if err := m.Queueing.check(); err != nil {
			return nil, at.errorf(fieldOf("queueing", err), "%v", strings.TrimPrefix(err.Error(), "fit: "))
		}
		fam = mvaFamily(*m.Queueing)
	}
	if len(m.Parameters) != len(fam.Params) {
		return nil, at.errorf("parameters", "family %s has %d parameters, the file has %d", m.Family, len(fam.Params), len(m.Parameters))
	}
	for j, p := range m.Parameters {
		if p.Name != fam.Params[j].Name {
			return nil, at.errorf(fmt.Sprintf("parameters[%d].name", j), "parameter %d is %q, want %q", j+1, p.Name, fam.Params[j].Name)
		}
		if p.noValue {
			return nil, at.errorf(fmt.Sprintf("parameters[%d].value", j), "parameter %s has no value (absent or null): want a number in [%g, %g]", p.Name, fam.Params[j].Lo, fam.Params[j].Hi)
		}
		if !(p.Lo <= p.Hi) {
			// (the value may lie outside [lo, hi]: a bootstrap percentile
			// interval need not hold the fit's own estimate)
			return nil, at.errorf(fmt.Sprintf("parameters[%d].lo", j), "parameter %s: interval [%g, %g]: want lo <= hi", p.Name, p.Lo, p.Hi)
		}
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) || p.Value < fam.Params[j].Lo || p.Value > fam.Params[j].Hi {
			return nil, at.errorf(fmt.Sprintf("parameters[%d].value", j), "parameter %s = %g is outside [%g, %g]", p.Name, p.Value, fam.Params[j].Lo, fam.Params[j].Hi)
		}
	}
	for i, n := range m.Diagnostics.FlatParameters {
		if !slices.ContainsFunc(m.Parameters, func(p ParamValue) bool { return p.Name == n }) {
			return nil, at.errorf(fmt.Sprintf("diagnostics.flat_parameters[%d]", i), "diagnostics: flat_parameters %d %q: want the name of one of the model's parameters", i+1, n)
		}
	}
	for i, n := range m.Diagnostics.NoEffectParameters {
		if !slices.ContainsFunc(m.Parameters, func(p ParamValue) bool { return p.Name == n }) {
			return nil, at.errorf(fmt.Sprintf("diagnostics.no_effect_parameters[%d]", i), "diagnostics: no_effect_parameters %d %q: want the name of one of the model's parameters", i+1, n)
		}
	}
	if h := m.Diagnostics.HeldOut; h != nil {
		if err := h.check(); err != nil {
			return nil, at.errorf(fieldOf("diagnostics.held_out", err), "%v", strings.TrimPrefix(err.Error(), "fit: "))
		}
	}
	if m.IntervalScale != 0 && !(m.IntervalScale >= 1 && m.IntervalScale <= maxIntervalScale) {
		return nil, at.errorf("interval_scale", "interval_scale = %g: want 1 to %g (the factor sqrt(n/(n-p))·t/z that widens the bootstrap's prediction intervals), or none", m.IntervalScale, float64(maxIntervalScale))
	}
	for i, s := range m.Samples {
		if len(s) != len(fam.Params) {
			return nil, at.errorf(fmt.Sprintf("bootstrap_samples[%d]", i), "bootstrap sample %d has %d values, want %d", i+1, len(s), len(fam.Params))
		}
		for j, v := range s {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < fam.Params[j].Lo || v > fam.Params[j].Hi {
				return nil, at.errorf(fmt.Sprintf("bootstrap_samples[%d][%d]", i, j), "bootstrap sample %d: parameter %s = %g is outside [%g, %g]", i+1, fam.Params[j].Name, v, fam.Params[j].Lo, fam.Params[j].Hi)
			}
		}
	}
	for i := range m.Rivals {
		r := &m.Rivals[i]
		// A rival "mva" is the throughput table's fit of the network: exact
		// MVA at the registered settings (no link rate), which is what
		// LookupFamily gives. An "mva" model's own rivals are never "mva"
		// (form rivals are of other families, start rivals are not drawn
		// for it), so one there would need queueing settings it has not.
		rf, ok := LookupFamily(r.Family)
		if !ok || (r.Family == "mva" && m.Family == "mva") {
			return nil, at.errorf(fmt.Sprintf("rivals[%d].family", i), "rival %d: family %q is not one a rival can have (known: %s; an mva model's rivals are of other families)", i+1, r.Family, strings.Join(FamilyNames(), ", "))
		}
		if len(r.Theta) != len(rf.Params) {
			return nil, at.errorf(fmt.Sprintf("rivals[%d].parameters", i), "rival %d (%s) has %d parameters, want %d", i+1, r.Family, len(r.Theta), len(rf.Params))
		}
		for j, v := range r.Theta {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < rf.Params[j].Lo || v > rf.Params[j].Hi {
				return nil, at.errorf(fmt.Sprintf("rivals[%d].parameters[%d]", i, j), "rival %d (%s): parameter %s = %g is outside [%g, %g]", i+1, r.Family, rf.Params[j].Name, v, rf.Params[j].Lo, rf.Params[j].Hi)
			}
		}
		r.fam = rf
	}
	if m.Extrapolation != nil {
		if err := m.Extrapolation.check(); err != nil {
			return nil, at.errorf(fieldOf("extrapolation", err), "%v", strings.TrimPrefix(err.Error(), "fit: "))
		}
	}
	switch m.Mode {
	case "async", "sync", "allreduce":
	case "":
		return nil, at.errorf("mode", "missing field \"mode\" (async, sync or allreduce)")
	default:
		return nil, at.errorf("mode", "mode %q, want async, sync or allreduce", m.Mode)
	}
	if err := m.checkReferenceFields(at); err != nil {
		return nil, err
	}
	if err := m.linkRateErr(m.Reference.Bandwidth); err != nil {
		return nil, at.errorf("reference.bandwidth", "reference.%v", strings.TrimPrefix(err.Error(), "fit: "))
	}
	if err := m.checkDataFields(at); err != nil {
		return nil, err
	}
	if d := m.Data; d.PathsFromModel != nil {
		if len(d.PathsFromModel) != len(d.Paths) {
			return nil, at.errorf("data.paths_from_model", "data: %d paths_from_model for %d paths: want one per path (or none)", len(d.PathsFromModel), len(d.Paths))
		}
		for i, p := range d.PathsFromModel {
			if p == "" || filepath.IsAbs(p) {
				return nil, at.errorf(fmt.Sprintf("data.paths_from_model[%d]", i), "data: paths_from_model %d %q: want path %d relative to the model file's folder", i+1, p, i+1)
			}
		}
	}
	if !modeFits(fam, m.Mode) {
		if m.Mode == "async" {
			return nil, at.errorf("mode", "mode \"async\", but family %s predicts synchronous steps: want mode sync or allreduce (or an async family)", m.Family)
		}
		return nil, at.errorf("mode", "mode %q, but family %s predicts asynchronous updates: want mode async", m.Mode, m.Family)
	}
	if e := m.Efficiency; e != nil {
		for _, v := range []float64{e.Lambda, e.LambdaLo, e.LambdaHi} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, at.errorf("efficiency.lambda", "efficiency: lambda %g [%g, %g]: want finite numbers >= 0", e.Lambda, e.LambdaLo, e.LambdaHi)
			}
		}
		switch {
		case e.LambdaLo == 0 && e.LambdaHi == 0:
			// a file without lambda's interval (written before it was
			// kept): no interval, not [0, 0] around a positive lambda
			e.LambdaLo, e.LambdaHi = e.Lambda, e.Lambda
		case !(e.LambdaLo <= e.Lambda && e.Lambda <= e.LambdaHi):
			return nil, at.errorf("efficiency.lambda", "efficiency: lambda %g is outside its interval [%g, %g]", e.Lambda, e.LambdaLo, e.LambdaHi)
		}
		if e.Batch < 0 {
			return nil, at.errorf("efficiency.batch", "efficiency: batch %g: want the samples per update of the loss curve, > 0 (or absent)", e.Batch)
		}
		switch {
		case e.B0 < 0 || (e.B0 == 0 && e.GNS == nil && (e.B1 != 0 || e.B2 != 0 || len(e.CurveSamples) > 0)):
			// b0, b1 and b2 all 0 is no loss curve (the staleness law
			// alone: fit writes it when no curve could be fitted)
			return nil, at.errorf("efficiency.b0", "efficiency: b0 = %g: want the loss curve's rate, > 0 (or b0, b1 and b2 all 0 with no curve_samples: no loss curve)", e.B0)
		case e.B2 < 0:
			return nil, at.errorf("efficiency.b2", "efficiency: b2 = %g: want the loss curve's floor, >= 0", e.B2)
		case e.TargetLoss < 0:
			return nil, at.errorf("efficiency.target_loss", "efficiency: target_loss = %g: want a loss >= 0 (or absent)", e.TargetLoss)
		case e.StalenessPerWorker < 0 || e.StalenessPerWorker > maxStalenessPerWorker:
			// (above it the interval's ends overflowed in check's JSON)
			return nil, at.errorf("efficiency.staleness_per_worker", "efficiency: staleness_per_worker = %g: want 0 to %g (updates of staleness per extra worker: about 1)", e.StalenessPerWorker, float64(maxStalenessPerWorker))
		case e.B1 < 0:
			// (-5 made a curve that starts below 0 with a pole at k = 417:
			// predict printed updates to target anyway)
			return nil, at.errorf("efficiency.b1", "efficiency: b1 = %g: want 1/(the loss at the start above the floor), >= 0", e.B1)
		case e.GNS == nil && e.B0 > 0 && e.TargetLoss > 0 && e.TargetLoss <= e.B2:
			return nil, at.errorf("efficiency.target_loss", "efficiency: target_loss = %g is at or below the curve's floor b2 = %g: never reached", e.TargetLoss, e.B2)
		case e.LowestLoss < 0:
			return nil, at.errorf("efficiency.lowest_loss", "efficiency: lowest_loss = %g: want a loss >= 0 (or absent)", e.LowestLoss)
		case e.LowestMeasuredLoss < 0:
			return nil, at.errorf("efficiency.lowest_measured_loss", "efficiency: lowest_measured_loss = %g: want the lowest loss a fitted run measured, >= 0 (or absent)", e.LowestMeasuredLoss)
		case e.LowestLoss > 0 && e.TargetLoss > 0 && e.LowestLoss > e.TargetLoss:
			return nil, at.errorf("efficiency.lowest_loss", "efficiency: lowest_loss = %g is above target_loss = %g: want the lowest loss a fitted run reached, at most the loss every run reached", e.LowestLoss, e.TargetLoss)
		}
		if e.CurveScale != 0 && !(e.CurveScale >= 1 && e.CurveScale <= maxIntervalScale) {
			return nil, at.errorf("efficiency.curve_interval_scale", "efficiency: curve_interval_scale = %g: want 1 to %g (the factor sqrt(n/(n-p))·t/z that widens the loss curve's bootstrap interval), or none", e.CurveScale, float64(maxIntervalScale))
		}
		if !(e.RunScatter >= 0 && e.RunScatter <= maxRunScatter) {
			return nil, at.errorf("efficiency.run_scatter", "efficiency: run_scatter = %g: want 0 to %g (the root mean square of log(measured/fitted) updates to target over the fitted runs)", e.RunScatter, float64(maxRunScatter))
		}
		if err := checkCurveSamples(e, at); err != nil {
			return nil, err
		}
		if e.StalenessLo != 0 || e.StalenessHi != 0 {
			// placed at the end that is wrong (lo where both are)
			place := "efficiency.staleness_per_worker_lo"
			if e.StalenessLo >= 0 && e.StalenessLo <= e.StalenessPerWorker {
				place = "efficiency.staleness_per_worker_hi"
			}
			// hi at most e^maxRunScatter times the point: hi x (N - 1)
			// overflowed to +Inf at 64 workers from 1e307
			if !(e.StalenessLo >= 0 && e.StalenessLo <= e.StalenessPerWorker && e.StalenessPerWorker <= e.StalenessHi && e.StalenessHi <= e.StalenessPerWorker*math.Exp(maxRunScatter)) {
				return nil, at.errorf(place, "efficiency: staleness_per_worker %g is outside its interval [%g, %g]: want 0 <= lo <= staleness_per_worker <= hi <= %.4g (e^%d times it), or neither end", e.StalenessPerWorker, e.StalenessLo, e.StalenessHi, e.StalenessPerWorker*math.Exp(maxRunScatter), maxRunScatter)
			}
		}
		if !(e.StalenessScatter >= 0 && e.StalenessScatter <= maxRunScatter) {
			return nil, at.errorf("efficiency.staleness_scatter", "efficiency: staleness_scatter = %g: want 0 to %g (the standard deviation of log(measured/law) staleness over the fitted runs)", e.StalenessScatter, float64(maxRunScatter))
		}
		if s := e.StalenessScatterScale; s != 0 && !(s >= 1 && s <= 100) {
			return nil, at.errorf("efficiency.staleness_scatter_scale", "efficiency: staleness_scatter_scale = %g: want 1 to 100 (t over z for the few runs that measured the staleness), or none", s)
		}
	}
	if e := m.Efficiency; e != nil && e.GNS != nil {
		if m.Mode == "async" {
			return nil, at.errorf("efficiency.gns", "field \"efficiency.gns\" (the batch law) belongs to synchronous models (sync, allreduce), not async")
		}
		if err := e.GNS.check(); err != nil {
			where := "efficiency.gns"
			if fe, ok := err.(gnsFieldError); ok {
				where = fe.path
			}
			return nil, at.errorf(where, "%v", strings.TrimPrefix(err.Error(), "fit: "))
		}
	}
	var levelProbe struct {
		Level *float64 `json:"level"`
	}
	switch {
	case m.Level == 0 && json.Unmarshal(b, &levelProbe) == nil && levelProbe.Level == nil: // absent
		// (only absent: "level": 0 was read as absent, and 90%)
		m.Level = 0.9
	case !(m.Level >= 0.5 && m.Level < 1):
		// (1e-300 printed "intervals 0%": ends at the point)
		return nil, at.errorf("level", "level = %g: want the intervals' coverage, from 0.5 to 1 exclusive (0.9 = 90%%)", m.Level)
	}
	if d := m.Diagnostics.RMSLE; !(d >= 0 && d <= maxRMSLE) {
		// (1e308 printed "the fitted data lie about it by +Inf%")
		return nil, at.errorf("diagnostics.rmsle", "diagnostics.rmsle = %g: want the fit's root mean square log error on its data, 0 to %g", d, float64(maxRMSLE))
	}
	if err := m.extrapolationAgainstData(); err != nil {
		return nil, at.errorf(fieldOf("extrapolation", err), "%v", strings.TrimPrefix(err.Error(), "fit: "))
	}
	m.fam = fam
	m.sweeps = newSweepMemo()
	if err := m.checkReference(at); err != nil {
		return nil, err
	}
	return &m, nil
}

// positiveZeros turns every -0 among the float64s that v holds (in its
// exported fields, slices and pointers) into 0.
func positiveZeros(v reflect.Value) {
	switch v.Kind() {
	case reflect.Float64:
		if v.Float() == 0 && v.CanSet() {
			v.SetFloat(0)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			positiveZeros(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			positiveZeros(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				positiveZeros(v.Field(i))
			}
		}
	}
}

// FewestWorkers is the smallest worker count the model was fitted on (1
// when it does not say): below it the curve is extrapolated. It makes the
// model a planner.FittedFrom, so the knee policy looks for a knee from it.
func (m *Model) FewestWorkers() int {
	least := 0
	for _, d := range m.Data.Configurations {
		if d.Workers > 0 && (least == 0 || d.Workers < least) {
			least = d.Workers
		}
	}
	return max(least, 1)
}

// String describes the model in one line.
func (m *Model) String() string {
	return fmt.Sprintf("%s model (%s), fitted on %s", m.Family, m.Mode, m.FittedOn())
}

// FittedOn is what the model was fitted on: "3 configurations", or "6
// measurements at 4 configurations" when some were measured more than once.
func (m *Model) FittedOn() string {
	n, k := m.Measured()
	if n == k {
		return words.Count(k, "configuration")
	}
	return words.Count(n, "measurement") + " at " + words.Count(k, "configuration")
}
