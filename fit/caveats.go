package fit

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
)

// The warnings predict and check print beside a prediction, each "" when
// it does not apply; Caveats gathers them for a library caller, whose
// Predict returns intervals without a word.

// Caveats are the warnings predict prints beside predictions at cs that
// depend on the model and the configurations alone (predict adds those of
// its rows: a target never reached, less than one update, a link near
// saturation): worker counts beyond the fitted ones (with the staleness
// law's record for an asynchronous model), below them, on more machines or
// shards than fitted, a link rate outside the fitted ones, a global batch
// outside the batch law's fitted batches, samples per update other than
// the loss curve's (no batch law), a per-worker batch a configuration sets
// outside the fitted batches (or the speedup's base there), or one whose
// intervals widen for it (the model's own batch from WithBatch), each with
// how the intervals widen, and intervals
// without bootstrap samples (or all alike); before those, the fit's own
// warnings that the model is not to be trusted (TrustWarnings); first, a
// configuration CheckConfig refuses, which Predict answers with NaN.
// Inside the data only the trust warnings and the bootstrap's remain.
func (m *Model) Caveats(cs []model.Config) []string {
	if len(cs) == 0 {
		return nil
	}
	var out []string
	add := func(w string) {
		if w != "" {
			out = append(out, w)
		}
	}
	var ws, ps []int
	var ok, set []model.Config // those Predict answers; those that set their batch
	flat := false
	for _, c := range cs {
		if err := m.CheckConfig(c); err != nil {
			add(strings.TrimPrefix(err.Error(), "fit: ") + ": Predict answers NaN")
			continue
		}
		ok = append(ok, c)
		cc := m.Config(c)
		ws, ps = append(ws, cc.Workers), append(ps, cc.PS)
		// a batch the configuration sets, or one whose intervals widen
		// for the batch (the model's own, set by WithBatch: it widened
		// without a word): its steps/s, or its speedup's 1-worker base
		c1 := m.Config(model.Config{Workers: 1, PS: c.PS, Nodes: 1, Bandwidth: c.Bandwidth})
		if c.Batch > 0 || m.batchOffset(cc) != 0 || m.batchOffset(c1) != 0 {
			set = append(set, c)
		}
		if len(m.Samples) == 0 && !flat {
			// (with samples NoBootstrapWarning has nothing to say)
			iv := m.Predict(c, math.NaN(), 0).StepsPerS
			flat = iv.Lo == iv.Hi
		}
	}
	if len(ws) == 0 {
		return out
	}
	// the fit's own distrust of the model, which predict repeats first
	out = append(out, m.TrustWarnings()...)
	if slices.ContainsFunc(ws, func(n int) bool { return n > max(m.Reference.MaxWorkers, 1) }) {
		// (where the staleness grows past what the fit saw: the points
		// take lambda at its fit, 0 on the demo's model)
		add(m.LambdaZeroWarning())
	}
	if w := m.BeyondWorkersWarning(ws); w != "" {
		add(w)
		if m.Mode == "async" {
			add(m.StalenessLawWarning())
		}
	}
	add(m.NoBootstrapWarning(flat))
	add(m.ParamIntervalWarning())
	add(m.BelowFittedWarning(ws))
	add(m.BeyondNodesWarning(ws))
	add(m.BeyondShardsWarning(ps))
	// each link rate asked, as WithBandwidth sets it (only a model that
	// follows the rate predicts anything of it)
	seen := map[float64]bool{}
	for _, c := range cs {
		if r := m.Config(c).Bandwidth; m.ScalesLink() && m.CheckConfig(c) == nil && !seen[r] {
			seen[r] = true
			add(m.linkRateWarning(r))
		}
	}
	// the batch law's fitted batches, and the loss curve's samples per
	// update where there is no batch law (predict printed them; Caveats
	// did not)
	add(m.BatchWarning(ok))
	add(m.EfficiencyBatchWarning(ok))
	if len(set) > 0 {
		if w := m.BatchRangeWarning(set); w != "" {
			add(w)
		} else {
			add(m.SpeedupBaseBatchWarning(set))
		}
	}
	return out
}

// BeyondWorkersWarning says when a worker count of ws is beyond the
// largest fitted ("" when none is), or that the model does not say which
// were fitted (a model.json written by hand without data.configurations
// or reference.max_workers: "beyond 0 workers (the largest fitted)").
func (m *Model) BeyondWorkersWarning(ws []int) string {
	if len(ws) == 0 || slices.Max(ws) <= m.Reference.MaxWorkers {
		return ""
	}
	if m.Reference.MaxWorkers < 1 {
		return "the model does not record the worker counts it was fitted on (no data.configurations or reference.max_workers): any prediction may be an extrapolation"
	}
	return fmt.Sprintf("predictions beyond %s (the largest fitted) are extrapolations", words.Count(m.Reference.MaxWorkers, "worker"))
}

// BeyondNodesWarning warns, once, when some of the worker counts ws land on more
// machines than any fitted configuration: the network between machines
// then carries traffic the data never measured (the public datasets'
// largest errors are there: docs/validation.md). "" when not.
func (m *Model) BeyondNodesWarning(ws []int) string {
	e := m.Extrapolation
	if e == nil || e.MaxNodes < 1 {
		return ""
	}
	for _, w := range ws {
		n := m.Config(model.Config{Workers: w}).Nodes
		if n < 1 {
			n = w // no placement given: one machine per worker
		}
		if n > e.MaxNodes {
			what := "the network between machines is not in the data"
			if e.MaxNodes > 1 {
				what = fmt.Sprintf("the network among more than %d machines is not in the data", e.MaxNodes)
			}
			return fmt.Sprintf("%d workers run on %d machines, the data on at most %d: %s, and the prediction extrapolates the form across it (its interval widens with the distance, but the form itself may be wrong there); a profile run on %d machines would measure it", w, n, e.MaxNodes, what, min(n, 2*e.MaxNodes))
		}
	}
	return ""
}

// BelowFittedWarning warns when the data start above one worker: every speedup
// is over one worker, which they do not have, and counts in ws below the
// fitted ones are extrapolated down ("" when the data have one worker).
func (m *Model) BelowFittedWarning(ws []int) string {
	least := m.FewestWorkers()
	if least <= 1 {
		return ""
	}
	below := ""
	if slices.Min(ws) < least {
		below = fmt.Sprintf("; predictions at fewer than %s are extrapolated down", words.Count(least, "worker"))
	}
	return fmt.Sprintf("the model was fitted on %s and more: one worker, the base of every speedup and efficiency, is extrapolated below the data%s", words.Count(least, "worker"), below)
}

// BeyondShardsWarning warns, once, when a shard count of ps lies beyond those
// the model was fitted on ("" when none does).
func (m *Model) BeyondShardsWarning(ps []int) string {
	most := 0
	for _, d := range m.Data.Configurations {
		most = max(most, d.PS)
	}
	if most < 1 {
		return ""
	}
	var beyond []int
	for _, p := range ps {
		if p > most {
			beyond = append(beyond, p)
		}
	}
	if len(beyond) == 0 {
		return ""
	}
	slices.Sort(beyond)
	beyond = slices.Compact(beyond)
	what := fmt.Sprintf("%d PS shards is", beyond[0])
	switch {
	case len(beyond) > 4: // a span, as of --ps 1-64
		what = fmt.Sprintf("%d to %d PS shards (%d counts) are", beyond[0], beyond[len(beyond)-1], len(beyond))
	case len(beyond) > 1: // each (it named the first alone: 3 of --ps 3,1000)
		var cs []string
		for _, p := range beyond {
			cs = append(cs, strconv.Itoa(p))
		}
		what = words.And(cs) + " PS shards are"
	}
	return fmt.Sprintf("%s beyond the %d fitted: the prediction extrapolates the %s form in the shards (its interval widens with the distance, but the form itself may be wrong there)", what, most, m.Family)
}

// NoBootstrapWarning says that the model holds no bootstrap samples when an
// interval shown has no width (flat): such bounds measure nothing, and were
// printed as intervals without a word. The cause is one configuration
// fitted (fit cannot resample it, whatever --bootstrap says) or fit
// --bootstrap 0. It says, too, when the model holds fewer than
// MinBootstrap samples, whatever flat is: its intervals rest on those few
// (a model.json with one sample printed a "90%" interval from it without a
// word). Such a file is read, not refused: fit itself writes one when it
// drops the resamples it cannot use (dropDegenerate) from --bootstrap 10.
// It says, too, when every bootstrap sample is the same parameter vector
// (SamplesAlike), whatever flat is: an exact fit, whose refits all pass
// through the points as it did (powerlaw-async on 2 configurations, or
// syncps's 5 parameters on 3), holds 200 copies of itself, and predict
// printed 5.938 [5.938, 5.938] and check "fine 100%" over its refits
// without a word. "" else.
func (m *Model) NoBootstrapWarning(flat bool) string {
	if n := len(m.Samples); n > 0 && n < MinBootstrap {
		return fmt.Sprintf("the model holds %s: its %.0f%% intervals rest on %s, too few to place a percentile (fit takes --bootstrap %d or more, and drops the resamples it cannot use); refit with --bootstrap 200, the default, for intervals", words.Count(n, "bootstrap sample"), 100*m.Level, words.Count(n, "resample"), MinBootstrap)
	}
	if m.SamplesAlike() {
		why := "every refit of the data landed where the fit did"
		advice := "measure more configurations than the family has parameters for intervals"
		_, configs := m.Measured()
		if p := m.freePerMember(); m.Diagnostics.RMSLE <= ExactRMSLE && configs > p {
			// noise-free data, not too few points (100, 200, 400, 800
			// samples/s on a power law): the advice to measure more
			// configurations was wrong there
			why = fmt.Sprintf("the fit passes through every fitted point (RMSLE %.2g) though the %d configurations outnumber the form's %d free parameters: the data hold no noise to resample (a synthetic or rounded table?), so every refit lands where the fit did", m.Diagnostics.RMSLE, configs, p)
			advice = "measure each configuration more than once, with its own noise, for intervals"
		} else if m.Diagnostics.RMSLE <= ExactRMSLE {
			why = fmt.Sprintf("the fit passes through every fitted point (RMSLE %.2g: no measurement to spare), so every refit of the data lands where it did", m.Diagnostics.RMSLE)
		}
		return fmt.Sprintf("all %d of the model's bootstrap samples are the same fit: %s; its steps/s intervals have no width where nothing widens them, measure no uncertainty, and a share of the refits (check's verdict over them) is no evidence either (%s)", len(m.Samples), why, advice)
	}
	if len(m.Samples) > 0 || !flat {
		return ""
	}
	// the bootstrap's unit leaves the batch out: rows at one worker count
	// and several batches are one configuration to resample (predict
	// blamed --bootstrap 0)
	configs, batches := m.BootstrapUnits()
	if configs == 1 {
		one := "one configuration"
		if batches > 1 {
			one = fmt.Sprintf("one configuration of workers and shards (at %d batches: the bootstrap resamples the configurations, not the batches)", batches)
		}
		return "the model was fitted on " + one + ", which the bootstrap cannot resample, so it holds no bootstrap samples: its steps/s interval has no width where nothing widens it (at the fitted configuration) and says nothing of the uncertainty there (measure a second configuration for intervals)"
	}
	return "the model holds no bootstrap samples (fitted with --bootstrap 0): its steps/s intervals have no width where nothing widens them and say nothing of the uncertainty (refit with --bootstrap 200, the default, for intervals)"
}

// ParamIntervalWarning says when a parameter's value lies outside its
// interval by more than the interval is wide (z0 0.2 against [0.1013,
// 0.1023]): a bootstrap percentile interval need not hold the fit's own
// estimate, and ParseModel reads such a file, but not that far from it. The
// value and the interval, and the bootstrap samples the prediction
// intervals come from, are then of different fits (an edited file): the
// prediction intervals are stretched to hold the point, which sits at
// their end (predict printed 2.959 [2.959, 4.184] without a word). It
// names the first such parameter and counts the rest; "" when there is
// none.
func (m *Model) ParamIntervalWarning() string {
	var far []ParamValue
	for _, p := range m.Parameters {
		d := max(p.Lo-p.Value, p.Value-p.Hi) // > 0 outside
		// (a rounding's difference from an interval of no width is none)
		if d > p.Hi-p.Lo && d > 1e-9*max(math.Abs(p.Value), math.Abs(p.Lo), math.Abs(p.Hi)) {
			far = append(far, p)
		}
	}
	if len(far) == 0 {
		return ""
	}
	p := far[0]
	more := ""
	if len(far) > 1 {
		more = fmt.Sprintf(" (and %s more)", words.Count(len(far)-1, "parameter"))
	}
	return fmt.Sprintf("parameter %s = %.4g lies outside its interval [%.4g, %.4g] by more than the interval is wide%s: the value and its interval (and the bootstrap samples the prediction intervals come from) are not of one fit, as an edited model.json would have them; the prediction intervals are stretched to hold the point, which may sit at their end: refit for intervals about it", p.Name, p.Value, p.Lo, p.Hi, more)
}

// ExactRMSLE is the largest log residual of a fit called exact (fit's
// table marks its zero-width intervals so).
const ExactRMSLE = 1e-6

// SamplesAlike reports whether the model holds bootstrap samples and every
// one is the same parameter vector, each value within a relative 1e-9 of
// the first sample's: the refits then measure nothing (an exact fit
// resamples its points onto itself).
func (m *Model) SamplesAlike() bool {
	if len(m.Samples) < 2 {
		return false
	}
	s0 := m.Samples[0]
	for _, s := range m.Samples[1:] {
		if len(s) != len(s0) {
			return false
		}
		for j, v := range s {
			if !(math.Abs(v-s0[j]) <= 1e-9*max(math.Abs(v), math.Abs(s0[j]))) { // (NaN: not alike)
				return false
			}
		}
	}
	return true
}

// Member is the member of m's mean family that parameter name belongs to
// ("overhead" of "overhead.fixed"), "" when the family is not a mean.
func (m *Model) Member(name string) string {
	if len(m.fam.Members) == 0 {
		return ""
	}
	g, _, _ := strings.Cut(name, ".")
	return g
}

// FreeParams counts the free (not prior-set) parameters of each of m's
// members, by Member (each member of a mean is fitted on its own).
func (m *Model) FreeParams() map[string]int {
	n := map[string]int{}
	for _, p := range m.Parameters {
		if !p.Prior {
			n[m.Member(p.Name)]++
		}
	}
	return n
}

// freePerMember is the most free parameters of one of m's members.
func (m *Model) freePerMember() int {
	most := 0
	for _, k := range m.FreeParams() {
		most = max(most, k)
	}
	return most
}

// MinBootstrap is the fewest bootstrap samples whose percentile intervals
// NoBootstrapWarning takes without a word, and fit --bootstrap's least
// besides 0: the efficiency's laws give no interval from fewer than 10
// fitted resamples (the staleness law, lambda, the batch law), and the
// throughput's and the loss curve's intervals ask as many.
const MinBootstrap = 10

// SpeedupBaseBatchWarning says when the rows cfgs are inside the fitted batches
// but their speedup's base is not: one worker at the same global batch
// (--global-batch) takes the whole batch in one step, and its speed there
// is the form's guess, so the speedup and the efficiency of every row
// rest on it (8 workers at 256 printed speedup 0.377 with no word, against
// one worker at batch 256 where only 32 was measured), and their intervals
// widen by the difference of its distance and the row's (batchFactorFrom;
// "by its distance" was wrong where the row is off the batches too). ""
// otherwise.
func (m *Model) SpeedupBaseBatchWarning(cfgs []model.Config) string {
	var base []model.Config
	for _, c := range cfgs {
		if c.Workers != 1 {
			base = append(base, model.Config{Workers: 1, PS: c.PS, Nodes: 1})
		}
	}
	w, c1 := m.batchRangeText(base)
	if w == "" {
		return ""
	}
	widen := ""
	switch {
	case m.Extrapolation == nil:
		widen = "; their intervals do not widen for it (the model has no record of its extrapolation error)"
	case m.batchDistance(c1) > 0: // (none on strongly scaled data's global batches: batchOffset)
		widen = fmt.Sprintf(", and their intervals widen by the difference between its doublings from the fitted batches and each row's, %.3g%% per doubling (an assumption: the data measure the drift across workers, not batches)", m.Extrapolation.perDoubling(m.Level))
	}
	return "the speedup and efficiency compare each row with 1 worker at the same global batch, outside the fitted batches: " + w + "; the speedups rest on it (the steps/s of the rows do not)" + widen
}

// StalenessLawWarning is predict's word on the staleness column beyond the
// fitted workers: the law it follows, fitted or assumed, and how far off it
// was where it could be checked.
func (m *Model) StalenessLawWarning() string {
	checked := "on the project's real traces (testdata/asgd, fitted on 1-2 workers) this law was 8.3% off on average at 3-8 workers, and 3-25% high on two shards (docs/fitting.md)"
	if e := m.Efficiency; e == nil || e.StalenessAssumed {
		// (a model with no loss curve keeps no staleness law: N - 1)
		return fmt.Sprintf("staleness is taken as %.4g x (N-1), an assumption: no fitted run with 2 or more workers measured it (a staleness column in steps.csv, or updates.csv), so the staleness column, and the staleness cost's effect on the updates to target, rest on it; fitted where measured, %s", m.Staleness(2), checked)
	}
	if !(m.Efficiency.StalenessHi > 0) {
		why := "one fitted run measured it, fit --bootstrap 0, or model.json was written before 2026-12-06"
		if !(m.Efficiency.StalenessPerWorker > 0) {
			// (it gave the three causes above, none of which applied)
			why = "every fitted run measured a staleness of 0: nothing to resample"
		}
		return fmt.Sprintf("staleness is predicted as %.4g x (N-1), linear in N, and carries no interval (%s): %s", m.Staleness(2), why, checked)
	}
	if m.HasNetwork() {
		return fmt.Sprintf("staleness is predicted as %.4g x (N-1), linear in N; its interval is the law's bootstrap widened by the fitted runs' scatter about it, stretched to hold the queueing network's own staleness (lower once the links queue): %s; the mva model's interval held all 16 of those runs", m.Staleness(2), checked)
	}
	// no network to stretch to: the law's interval alone, which the
	// two-shard runs' 3-25% would pass
	return fmt.Sprintf("staleness is predicted as %.4g x (N-1), linear in N; its interval is the law's bootstrap widened by the fitted runs' scatter about it, and knows nothing of the links' queueing (a %s model has no queueing network): %s", m.Staleness(2), m.Family, checked)
}
