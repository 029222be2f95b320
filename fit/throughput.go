package fit

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// Point is one measured configuration.
type Point struct {
	Config    model.Config // Batch: per-worker mini-batch, samples (0 when unknown)
	StepsPerS float64      // job-wide steps (updates) per second, > 0
	// SamplesPerStep converts steps to samples: b for asynchronous
	// updates, the global batch for synchronous steps; NaN when unknown.
	SamplesPerStep float64
	Async          bool
}

// Key names the configuration of p, the unit that cross-validation and the
// bootstrap leave out or resample.
func (p Point) Key() string {
	k := fmt.Sprintf("w=%d ps=%d nodes=%d", p.Config.Workers, p.Config.PS, p.Config.Nodes)
	if p.Config.Bandwidth > 0 {
		k += fmt.Sprintf(" bw=%g", p.Config.Bandwidth)
	}
	return k
}

// label names the configuration of p in a message: its Key without the
// machines where they are unknown (0: "nodes=0" read as none, in "not
// scored: without w=1 ps=1 nodes=0" of a table with no nodes column).
func (p Point) label() string {
	k := fmt.Sprintf("w=%d ps=%d", p.Config.Workers, p.Config.PS)
	if p.Config.Nodes > 0 {
		k += fmt.Sprintf(" nodes=%d", p.Config.Nodes)
	}
	if p.Config.Bandwidth > 0 {
		k += fmt.Sprintf(" bw=%g", p.Config.Bandwidth)
	}
	return k
}

// PointsFromThroughput converts throughput rows to points: steps/s from
// StepsPerS, or SamplesPerS divided by the samples per step; the per-worker
// batch from Batch or GlobalBatch/Workers. Rows with neither rate are an
// error naming the row.
func PointsFromThroughput(rows []traces.Throughput) ([]Point, error) {
	out := make([]Point, 0, len(rows))
	for i, r := range rows {
		if r.Workers < 1 {
			return nil, errorf("throughput row %d: workers = %d, want >= 1", i+1, r.Workers)
		}
		async := r.Mode == "" || r.Mode == "async"
		b := float64(r.Batch)
		if b <= 0 && r.GlobalBatch > 0 {
			b = float64(r.GlobalBatch) / float64(r.Workers)
		}
		sps := math.NaN()
		switch {
		case b > 0 && async:
			sps = b
		case r.GlobalBatch > 0:
			sps = float64(r.GlobalBatch)
		case b > 0:
			sps = b * float64(r.Workers)
		}
		x := r.StepsPerS
		if !(x > 0) && r.SamplesPerS > 0 && sps > 0 {
			x = r.SamplesPerS / sps
		}
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, errorf("throughput row %d (%s %s): no positive steps_per_s, nor samples_per_s with a batch", i+1, r.Model, r.Run)
		}
		if b <= 0 {
			b = 0
		}
		out = append(out, Point{
			Config:         model.Config{Workers: r.Workers, PS: r.PS, Nodes: r.Nodes, Batch: b},
			StepsPerS:      x,
			SamplesPerStep: sps,
			Async:          async,
		})
	}
	return out, nil
}

// KindOf is the data kind of pts (async when any point is; PS when any
// point has shards).
func KindOf(pts []Point) DataKind {
	var k DataKind
	for _, p := range pts {
		k.Async = k.Async || p.Async
		k.PS = k.PS || p.Config.PS > 0
		if p.Config.Bandwidth != pts[0].Config.Bandwidth {
			k.MixedBandwidth = true
		}
	}
	// Strong scaling: two worker counts whose per-worker batches differ
	// but whose global batches agree.
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			a, b := pts[i].Config, pts[j].Config
			if a.Workers != b.Workers && a.Batch != b.Batch && a.Batch > 0 &&
				math.Abs(a.Batch*float64(a.Workers)-b.Batch*float64(b.Workers)) < 1e-9*a.Batch*float64(a.Workers) {
				k.Strong = true
				return k
			}
		}
	}
	return k
}

// StrongScaling reports whether pts measure a fixed global batch split
// among the workers rather than a fixed per-worker batch: the pairs of
// worker counts that share a global batch outnumber those that share a
// per-worker batch. It sets the batch predict and check default to.
//
// KindOf.Strong, which decides which families apply, calls the data strong
// on any one pair: weak scaling at 32 and 64 a worker (1 x 64 = 2 x 32) is
// strong there. That rule is left as it is, since changing it moves the
// validation scores whose held-out columns are spent (docs/validation.md);
// a weak table at two batches is then refused by the batch-only families.
func StrongScaling(pts []Point) bool {
	global, perWorker := 0, 0
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			a, b := pts[i].Config, pts[j].Config
			if a.Workers == b.Workers || !(a.Batch > 0) || !(b.Batch > 0) {
				continue
			}
			switch {
			case a.Batch == b.Batch:
				perWorker++
			case math.Abs(a.Batch*float64(a.Workers)-b.Batch*float64(b.Workers)) < 1e-9*a.Batch*float64(a.Workers):
				global++
			}
		}
	}
	return global > perWorker
}

// Settings tunes FitThroughput. A nil *Settings means defaults.
type Settings struct {
	// Bootstrap is the number of resamples of the configurations for the
	// intervals; 0 means 200, a negative value none.
	Bootstrap int
	// Seed seeds the bootstrap; 0 means 1.
	Seed uint64
	// Level is the coverage of the intervals, in (0, 1); 0 means 0.9
	// (another value outside (0, 1), NaN included, is an error).
	Level float64
	// NoCV skips the cross-validation of the chosen family (CVError NaN).
	NoCV bool
	// PointOnly skips all that only the intervals and warnings use: the
	// extrapolation's widening and the rival forms (validate's fits, which
	// score the point). A negative Bootstrap alone keeps them: they
	// resample nothing.
	PointOnly bool
	// CV is how auto scores a family: "loo" (default) leaves each
	// configuration out in turn; "largest" leaves out the configurations
	// with the most workers and predicts them from the others (the
	// extrapolation the fit is used for); "both" averages the two.
	CV string
	// NoParsimony chooses the lowest CV error outright; by default auto
	// applies the one-standard-error rule: the family with the fewest
	// parameters whose CV error is within one standard error of the best
	// (fewer parameters extrapolate more safely).
	NoParsimony bool
	// KeepBatchOnly keeps the families whose step time depends on the
	// workers only through the per-worker batch (Family.BatchOnly) among
	// auto's candidates even when the data measure the workers at a fixed
	// batch: the rule before 2026-12-03, kept for validate's comparison.
	KeepBatchOnly bool

	// Combine is what auto keeps: "mean" (default) the geometric mean of
	// the distinct families whose leave-one-out error is within one
	// standard error of the lowest (a mean family, see meanFamily), when
	// there are at least two; "one" the single family the CV rule
	// chooses (the rule before 2026-12-03); "all" the mean of every
	// distinct scored family, however far its CV error (tried on the
	// validation data, not kept).
	Combine string

	// NoPrior fits every family without its Prior (Family.Prior): the
	// parameters the data leave free stay where the fit left them, as
	// before 2026-12-03 (kept for validate's comparison).
	NoPrior bool

	// Exclude lists families that auto leaves out (FitSteps: "mva",
	// fitted from the two-node profile instead; validate: the choice
	// without the families added after looking at the validation data).
	Exclude []string

	// NNLS adds to auto's candidates each candidate whose step time is
	// linear in its parameters fitted by NNLS on the step time (the
	// peers' estimator: "ernest/nnls", nnlsFamily), scored by the same
	// rule. Opt-in: validate's held-out sets decided (docs/fitting.md).
	NNLS bool
}

func (s *Settings) withDefaults() Settings {
	var o Settings
	if s != nil {
		o = *s
	}
	if o.Bootstrap == 0 {
		o.Bootstrap = 200
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Level <= 0 || o.Level >= 1 {
		o.Level = 0.9
	}
	return o
}

// checkLevel refuses a Settings.Level that is neither 0 (the default) nor
// in (0, 1): 2 was taken as 0.9 without a word, and NaN passed through to
// NaN intervals.
func checkLevel(s *Settings) error {
	if s == nil || s.Level == 0 || s.Level > 0 && s.Level < 1 {
		return nil
	}
	return errorf("level %g: want a coverage in (0, 1), or 0 for 0.9", s.Level)
}

// checkPoints refuses points no command makes (the trace readers refuse
// them at their line) but a library caller can: a NaN or negative rate
// was fitted, its parameters NaN or 0, with no error.
func checkPoints(pts []Point) error {
	for i, p := range pts {
		c := p.Config
		bad := ""
		switch {
		case !(p.StepsPerS > 0) || math.IsInf(p.StepsPerS, 0):
			bad = fmt.Sprintf("steps_per_s %g, want a finite rate > 0", p.StepsPerS)
		case c.Workers < 1:
			bad = fmt.Sprintf("workers %d, want >= 1", c.Workers)
		case c.PS < 0:
			bad = fmt.Sprintf("ps %d, want >= 0", c.PS)
		case c.Nodes < 0:
			bad = fmt.Sprintf("nodes %d, want >= 0 (0: unknown)", c.Nodes)
		case !(c.Batch >= 0) || math.IsInf(c.Batch, 0):
			bad = fmt.Sprintf("batch %g, want a finite batch >= 0 (0: unknown)", c.Batch)
		case !(c.Bandwidth >= 0) || math.IsInf(c.Bandwidth, 0):
			bad = fmt.Sprintf("bandwidth %g, want a finite rate >= 0 B/s (0: unknown)", c.Bandwidth)
		}
		if bad != "" {
			return errorf("point %d (%s): %s", i, p.label(), bad)
		}
	}
	return nil
}

// ErrLinkRates is in the error of a throughput fit refused for
// configurations measured at several link rates (errors.Is), so that a
// caller can say how to fit each rate on its own. It adds no text.
var ErrLinkRates = errLinkRates{}

type errLinkRates struct{}

func (errLinkRates) Error() string { return "" }

// ThroughputFit is a family fitted to points.
type ThroughputFit struct {
	Family Family
	Theta  []float64
	// Lo and Hi are the bootstrap percentile interval of each parameter,
	// widened by IntervalScale (widenParams; equal to Theta when there is
	// no bootstrap).
	Lo, Hi []float64
	// Samples are the bootstrap parameter vectors (nil without bootstrap).
	Samples [][]float64
	// IntervalScale widens the samples' prediction intervals (in log
	// space): sqrt(n/(n-p))·t/z for p identified parameters fitted to n
	// resampled configurations, t and z Student's (n-p degrees of
	// freedom) and the normal quantiles at Settings.Level
	// (intervalScale); 0 or 1: not widened.
	IntervalScale float64
	// scaleN and scaleP are the n and p of IntervalScale, so that
	// PredictInterval at another level takes t/z at that level (0: not
	// known; IntervalScale as it is).
	scaleN int
	scaleP float64
	// RMSLE is the root mean squared log error on the fitted points.
	RMSLE float64
	// CVError is the leave-one-configuration-out MAPE in % (NaN when
	// there are fewer than 3 configurations or NoCV).
	CVError float64
	// Residuals are log(predicted/measured) per point, in input order.
	Residuals []float64
	Warnings  []string
	// Flat names the parameters a warning says the fit is flat along a
	// combination of (identification), as Model.Parameters names them.
	Flat []string
	// NoEffect names the parameters a warning says have no effect on the
	// fitted points (identification), as Model.Parameters names them.
	NoEffect []string
	// PriorSet marks the parameters the family's Prior set, not the data
	// (nil when none).
	PriorSet []bool
	// Queueing is how an "mva" fit is solved (nil: exact MVA, no link
	// rate); model.json keeps it.
	Queueing *Queueing

	// Rivals are the other fits the data cannot tell from this one (see
	// Rival); PredictInterval widens to hold their predictions. Only
	// computed with a bootstrap.
	Rivals []Rival
	// Extrapolation is the fit's measured drift away from its data; the
	// prediction intervals widen with it beyond the data (nil: not
	// measured). Only computed with a bootstrap.
	Extrapolation *Extrapolation

	cvErrs []float64 // per left-out configuration, %
	// members are the fits a mean family averages (meanFit).
	members []*ThroughputFit
	cvNote  string // why CVError is NaN, when a fold was not identified
}

// fitOnce fits fam to pts by bounded LM in log space from each of the
// family's starting points (and from start, when not nil), keeps the best
// and lets the family's Prior set what the points leave free.
func fitOnce(fam Family, pts []Point, start []float64) (LMResult, error) {
	res, err := fitFree(fam, pts, start)
	if err == nil && fam.Prior != nil {
		fam.Prior(pts, res.X)
	}
	return res, err
}

// fitFree is fitOnce without the family's Prior: the parameters the data
// leave free stay wherever LM left them (startRivals explores them).
func fitFree(fam Family, pts []Point, start []float64) (LMResult, error) {
	if len(fam.Members) > 0 {
		return fitMembers(fam, pts, start)
	}
	if fam.Estimate != nil {
		return fam.Estimate(pts)
	}
	k := len(fam.Params)
	lo := make([]float64, k)
	hi := make([]float64, k)
	for j, p := range fam.Params {
		lo[j], hi[j] = p.Lo, p.Hi
	}
	logY := make([]float64, len(pts))
	for i, p := range pts {
		logY[i] = math.Log(p.StepsPerS)
	}
	// each distinct configuration predicted once per evaluation (rows
	// that repeat one, and for the queueing families one MVA sweep per
	// configuration but its workers): the same numbers as Predict per row
	rp := newRowPredictor(fam, configsOf(pts))
	prob := Problem{
		M: len(pts),
		Residuals: func(dst, th []float64) {
			rp.logResiduals(dst, th, logY)
		},
		Lower: lo, Upper: hi,
	}
	starts := fam.Guess(pts)
	if start != nil {
		starts = [][]float64{start}
	}
	var best LMResult
	found := false
	for _, x0 := range starts {
		res, err := LevenbergMarquardt(prob, x0, &LMSettings{MaxIter: 100})
		if err != nil {
			continue
		}
		if !found || res.Cost < best.Cost {
			best, found = res, true
		}
	}
	if !found {
		return best, errorf("%s: no starting point gives finite predictions", fam.Name)
	}
	return best, nil
}

// logResidual is the fit's residual log(v) - logY, with a huge but finite
// penalty (50 in log space) for a prediction v that is not a positive
// finite number.
func logResidual(v, logY float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return 50
	}
	return math.Log(v) - logY
}

// FitThroughput fits the named family (or, for "auto" or "", every family
// that applies to the data, choosing by cross-validated error: the mean of
// the families it cannot tell apart, or one of them, as Settings.Combine
// says) to pts. The second result lists every family tried (and the mean,
// when kept) with its CV error, best first.
func FitThroughput(pts []Point, family string, settings *Settings) (*ThroughputFit, []Alternative, error) {
	if err := checkLevel(settings); err != nil {
		return nil, nil, err
	}
	s := settings.withDefaults()
	if len(pts) == 0 {
		return nil, nil, errors.New("fit: no data points")
	}
	if err := checkPoints(pts); err != nil {
		return nil, nil, err
	}
	switch s.Combine {
	case "", "mean", "one", "all":
	default:
		return nil, nil, errorf("combine %q, want mean, one or all", s.Combine)
	}
	kind := KindOf(pts)
	if kind.MixedBandwidth {
		rates := map[float64]bool{}
		for _, p := range pts {
			rates[p.Config.Bandwidth] = true
		}
		return nil, nil, fmt.Errorf("fit: the configurations were measured at %d link rates (runs.csv bandwidth): no throughput family takes the rate as a covariate, and pooling them would treat different links as one configuration; fit each rate on its own, or fit step traces that include a 1-worker run (the two-node profile's mva family scales the link demand with the rate)%w", len(rates), ErrLinkRates)
	}
	var cands []Family
	var notCands []Alternative // families auto left out, with why
	auto := family == "" || family == "auto"
	if auto {
		// Shards vary independently of the workers when one worker count
		// comes with two shard counts: then a family that ignores the
		// shards cannot be right, however well it fits.
		psVary := variesAt(pts, func(c model.Config) float64 { return float64(c.Workers) }, func(c model.Config) float64 { return float64(c.PS) })
		// Likewise the workers: when two worker counts were measured at
		// the same per-worker batch, the data show what adding workers
		// costs at a fixed batch, and a family whose step time depends on
		// the workers only through the batch (amdahl: perfect scaling at
		// a fixed batch) cannot be right either.
		workersVary := variesAt(pts, func(c model.Config) float64 { return c.Batch }, func(c model.Config) float64 { return float64(c.Workers) })
		for _, n := range FamilyNames() {
			f := families[n]
			if f.NotAuto && f.Applies(kind) {
				// (it said "--family allreduce fits it" where that fit
				// is refused: data without 1 worker; it is a pointer,
				// not a promise)
				notCands = append(notCands, Alternative{Family: n, CVError: math.NaN(), Note: "not in auto: " + f.NotAutoWhy + "; --family " + n + " tries it"})
				continue
			}
			if f.NotAuto || !f.Applies(kind) || len(f.Params) > max(len(pts), 2) {
				continue
			}
			if psVary && !usesPS[n] {
				notCands = append(notCands, Alternative{Family: n, CVError: math.NaN(), Note: "not a candidate: the data vary the shards at a fixed worker count, and it has no term for them"})
				continue
			}
			if workersVary && f.BatchOnly && !s.KeepBatchOnly {
				notCands = append(notCands, Alternative{Family: n, CVError: math.NaN(), Note: "not a candidate: the data measure several worker counts at one per-worker batch, where it has no term for the workers and predicts perfect scaling"})
				continue
			}
			if slices.Contains(s.Exclude, n) {
				continue
			}
			cands = append(cands, f)
		}
		if s.NNLS {
			cands = append(cands, nnlsCandidates(cands, pts)...)
		}
	} else {
		f, ok := LookupFamily(family)
		if !ok {
			return nil, nil, errorf("unknown family %q (known: auto, %v, or mean(a,b,...) of two or more of them)", family, FamilyNames())
		}
		if !f.Applies(kind) {
			var fit []string
			for _, n := range FamilyNames() {
				if families[n].Applies(kind) {
					fit = append(fit, n)
				}
			}
			// a mean names its members that do not apply (mean(amdahl,
			// powerlaw-async) on async data said only that the mean did not)
			var not []string
			for _, m := range f.Members {
				if !m.Applies(kind) {
					not = append(not, m.Name)
				}
			}
			if len(not) > 0 {
				which := "its member " + not[0] + " does not"
				if len(not) > 1 {
					which = "its members " + strings.Join(not, ", ") + " do not"
				}
				return nil, nil, errorf("family %s does not apply to these data (%s): %s; those that do: %s", family, kind, which, strings.Join(fit, ", "))
			}
			return nil, nil, errorf("family %s does not apply to these data (%s); those that do: %s", family, kind, strings.Join(fit, ", "))
		}
		cands = []Family{f}
	}
	if s.NoPrior {
		for i := range cands {
			cands[i] = withoutPrior(cands[i])
		}
	}
	var alts []Alternative
	var best *ThroughputFit
	var fits []*ThroughputFit
	for _, f := range cands {
		tf, err := fitFamily(f, pts, s, len(cands) > 1)
		if err != nil {
			alts = append(alts, Alternative{Family: f.Name, CVError: math.NaN(), Error: err.Error()})
			continue
		}
		alts = append(alts, Alternative{Family: f.Name, CVError: tf.CVError, RMSLE: tf.RMSLE, Note: tf.cvNote})
		fits = append(fits, tf)
		if best == nil || better(tf, best) {
			best = tf
		}
	}
	if best == nil {
		if len(alts) == 0 {
			// (it indexed alts[0] and panicked: 1 worker at 1 and 2
			// shards leaves every family out, those with a shard term
			// having more parameters than the 2 points)
			why := "the data have too few points for the families that fit them"
			if len(notCands) > 0 {
				why += "; " + notCands[0].Family + " is " + notCands[0].Note
			}
			return nil, notCands, errorf("no family could be fitted to %d points: %s (measure more configurations)", len(pts), why)
		}
		return nil, alts, errorf("no family could be fitted: %s", strings.TrimPrefix(alts[0].Error, "fit: "))
	}
	low := best
	if !s.NoParsimony && len(fits) > 1 {
		best = parsimonious(best, fits)
	}
	if auto && s.Combine != "one" {
		if mf := meanFit(fits, pts, low, s.Combine == "all"); mf != nil {
			best = mf
			alts = append(alts, Alternative{Family: mf.Family.Name, CVError: mf.CVError, RMSLE: mf.RMSLE, Note: mf.cvNote})
		}
	}
	sort.SliceStable(alts, func(i, j int) bool { return lessNaN(alts[i].CVError, alts[j].CVError) })
	alts = append(alts, notCands...)
	if s.Bootstrap > 0 {
		bootstrapFit(best, pts, s)
	}
	if !s.PointOnly {
		// neither resamples: --bootstrap 0 (Bootstrap -1) keeps them
		// (until 2026-12-06 it dropped them, while the widening's warning
		// was printed)
		best.Rivals = append(formRivals(low, best, fits), startRivals(best, pts, s.Seed)...)
		if w := rivalWarning(best.Rivals); w != "" {
			best.Warnings = append(best.Warnings, w)
		}
		var w string
		best.Extrapolation, w = extrapolation(best.Family, pts, s.Level)
		best.Warnings = append(best.Warnings, w)
	}
	return best, alts, nil
}

// withoutPrior is f, and each of its members, without a Prior.
func withoutPrior(f Family) Family {
	f.Prior, f.PriorDoc = nil, ""
	if len(f.Members) > 0 {
		ms := make([]Family, len(f.Members))
		for i, m := range f.Members {
			ms[i] = withoutPrior(m)
		}
		f.Members = ms
	}
	return f
}

// variesAt reports whether two points agree on key but differ on val: the
// data measure val's effect with key fixed.
func variesAt(pts []Point, key, val func(model.Config) float64) bool {
	seen := map[float64]float64{}
	for _, p := range pts {
		k, v := key(p.Config), val(p.Config)
		if w, ok := seen[k]; ok && w != v {
			return true
		}
		seen[k] = v
	}
	return false
}

// Alternative is one family tried by FitThroughput.
type Alternative struct {
	Family  string  `json:"family"`
	CVError float64 `json:"cv_mape_pct"`
	RMSLE   float64 `json:"rmsle"`
	Error   string  `json:"error,omitempty"`
	// Note says why CVError is missing for a fitted family.
	Note string `json:"note,omitempty"`
	// Profile marks the two-node profile's queueing network (mva fitted
	// on a step trace's 1-worker runs): its CVError is the profile's
	// error on the other training runs, not a leave-one-out error.
	// Absent for a table family, and in files written before 2026-12-07.
	Profile bool `json:"profile,omitempty"`
}

func lessNaN(a, b float64) bool {
	if math.IsNaN(b) {
		return !math.IsNaN(a)
	}
	return a < b
}

// better prefers the lower CV error, then the lower fitted error.
func better(a, b *ThroughputFit) bool {
	if math.IsNaN(a.CVError) && math.IsNaN(b.CVError) {
		return a.RMSLE < b.RMSLE
	}
	return lessNaN(a.CVError, b.CVError)
}

func configKeys(pts []Point) (keys []string, groups map[string][]int) {
	groups = map[string][]int{}
	for i, p := range pts {
		k := p.Key()
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	return keys, groups
}

// newThroughputFit is f fitted at theta to pts, before any bootstrap and
// cross-validation: intervals equal to theta, the log residuals and their
// RMSLE, CV error NaN.
func newThroughputFit(f Family, theta []float64, pts []Point) *ThroughputFit {
	tf := &ThroughputFit{Family: f, Theta: theta, CVError: math.NaN(), Lo: slices.Clone(theta), Hi: slices.Clone(theta)}
	tf.Residuals = make([]float64, len(pts))
	ss := 0.0
	for i, p := range pts {
		r := math.Log(f.Predict(theta, p.Config) / p.StepsPerS)
		tf.Residuals[i] = r
		ss += r * r
	}
	tf.RMSLE = math.Sqrt(ss / float64(len(pts)))
	tf.PriorSet = priorSet(f, theta, pts)
	return tf
}

// priorSet marks the parameters of f at theta that its Prior (or its
// members') sets on pts; nil when there are none.
func priorSet(f Family, theta []float64, pts []Point) []bool {
	var out []bool
	mark := func(g Family, th []float64, off int) {
		if g.Prior == nil {
			return
		}
		for _, j := range g.Prior(pts, slices.Clone(th)) {
			if out == nil {
				out = make([]bool, len(theta))
			}
			out[off+j] = true
		}
	}
	if len(f.Members) == 0 {
		mark(f, theta, 0)
		return out
	}
	off := 0
	for i, th := range splitMembers(f, theta) {
		mark(f.Members[i], th, off)
		off += len(th)
	}
	return out
}

func fitFamily(f Family, pts []Point, s Settings, cv bool) (*ThroughputFit, error) {
	res, err := fitOnce(f, pts, nil)
	if err != nil {
		return nil, err
	}
	tf := newThroughputFit(f, res.X, pts)
	tf.Warnings, tf.Flat, tf.NoEffect = identification(f, pts, res)
	if !s.NoCV || cv {
		switch s.CV {
		case "largest":
			tf.CVError = largestCV(f, pts)
		case "both":
			a, b := looCV(f, pts), largestCV(f, pts)
			tf.CVError = (a + b) / 2
			if math.IsNaN(b) {
				tf.CVError = a
			}
		default:
			tf.CVError, tf.cvErrs, tf.cvNote = looCVErrs(f, pts)
		}
	}
	return tf, nil
}

// looCV is the leave-one-configuration-out MAPE (%), NaN with fewer than 3
// configurations.
func looCV(f Family, pts []Point) float64 {
	m, _, _ := looCVErrs(f, pts)
	return m
}

// looCVErrs is looCV with the error of each left-out configuration (%).
// A fold whose fit the remaining points do not identify (foldIdentified)
// makes the whole CV error NaN, with the reason: such a fit extrapolates
// to the left-out configuration by the accident of where LM stopped, and
// a low error there says nothing about the family (4 parameters through
// the 3 points left when one of 4 configurations is out can hit the 4th
// by chance; on the project's own traces such a fit won the choice with a
// CV error of 0.08% and then missed 8 workers by 150%).
func looCVErrs(f Family, pts []Point) (float64, []float64, string) {
	keys, groups := configKeys(pts)
	if len(keys) < 3 {
		return math.NaN(), nil, ""
	}
	var errs []float64
	sum, n := 0.0, 0
	for _, k := range keys {
		out := groups[k]
		in := make([]Point, 0, len(pts)-len(out))
		for _, kk := range keys {
			if kk != k {
				for _, i := range groups[kk] {
					in = append(in, pts[i])
				}
			}
		}
		res, err := fitOnce(f, in, nil)
		if err != nil {
			return math.NaN(), nil, ""
		}
		outPts := make([]Point, 0, len(out))
		for _, i := range out {
			outPts = append(outPts, pts[i])
		}
		if why := foldIdentified(f, in, outPts, res.X); why != "" {
			return math.NaN(), nil, fmt.Sprintf("not scored: without %s, %s", pts[out[0]].label(), why)
		}
		ks := 0.0
		for _, i := range out {
			pr := f.Predict(res.X, pts[i].Config)
			if math.IsNaN(pr) || math.IsInf(pr, 0) {
				// a fold that predicts no finite speed (a time
				// driven to 0) is not a score: +Inf would pass for
				// one in --combine all and has no JSON form
				return math.NaN(), nil, fmt.Sprintf("not scored: without %s, the fit predicts %g steps/s there", pts[out[0]].label(), pr)
			}
			e := math.Abs(pr-pts[i].StepsPerS) / pts[i].StepsPerS
			sum += e
			ks += e
			n++
		}
		errs = append(errs, 100*ks/float64(len(out)))
	}
	return 100 * sum / float64(n), errs, ""
}

// foldIdentified says why the points in do not pin down f's prediction at
// the left-out points out ("" when they do). The parameters themselves
// need not be identified (Amdahl's fixed and per-sample times are one sum
// when every run has the same batch, and that sum is all a prediction at
// that batch needs); the prediction is, when its gradient in the
// parameters lies in the row space of the Jacobian of the log predictions
// at in: moving the parameters along any direction the points leave free
// then does not move it. Columns are scaled to unit length first.
func foldIdentified(f Family, in, out []Point, x []float64) string {
	if len(f.Members) > 0 {
		// the mean's prediction is pinned down when each member's is
		for i, xm := range splitMembers(f, x) {
			if why := foldIdentified(f.Members[i], in, out, xm); why != "" {
				return f.Members[i].Name + ": " + why
			}
		}
		return ""
	}
	k := len(x)
	if len(out) == 0 {
		return ""
	}
	if len(in) == 0 {
		return "no points remain"
	}
	J := NumericJacobian(logPredictions(f, in), x)
	G := NumericJacobian(logPredictions(f, out), x)
	for j := 0; j < k; j++ {
		// A parameter at a bound is held there by the constraint (and
		// its forward difference, a step of 1e-15 at 0, is rounding
		// noise): it is not a free direction.
		if lo, hi := f.Params[j].Lo, f.Params[j].Hi; x[j] <= lo+1e-12*math.Max(1, math.Abs(lo)) || x[j] >= hi-1e-12*math.Max(1, math.Abs(hi)) {
			for i := 0; i < len(in); i++ {
				J.Set(i, j, 0)
			}
			for i := 0; i < len(out); i++ {
				G.Set(i, j, 0)
			}
			continue
		}
		norm := 0.0
		for i := 0; i < len(in); i++ {
			norm += J.At(i, j) * J.At(i, j)
		}
		norm = math.Sqrt(norm)
		if !(norm > 1e-12) {
			// no point depends on parameter j: the prediction must not
			// either
			for i := 0; i < len(out); i++ {
				if math.Abs(G.At(i, j)) > 1e-9 {
					return fmt.Sprintf("the remaining points do not depend on %s, the left-out one does", f.Params[j].Name)
				}
				G.Set(i, j, 0)
			}
			norm = 1
		}
		for i := 0; i < len(in); i++ {
			J.Set(i, j, J.At(i, j)/norm)
		}
		for i := 0; i < len(out); i++ {
			G.Set(i, j, G.At(i, j)/norm)
		}
	}
	var svd mat.SVD
	if !svd.Factorize(J, mat.SVDThinV) {
		return "the fit's sensitivity could not be factorized"
	}
	sv := svd.Values(nil)
	var V mat.Dense
	svd.VTo(&V)
	r := 0
	for _, v := range sv {
		if v > 1e-8*sv[0] {
			r++
		}
	}
	// project each left-out gradient on the row space (the first r right
	// singular vectors) and measure what is left.
	for i := 0; i < len(out); i++ {
		g := G.RawRowView(i)
		gn, rest := 0.0, 0.0
		proj := make([]float64, k)
		for c := 0; c < r; c++ {
			d := 0.0
			for j := 0; j < k; j++ {
				d += g[j] * V.At(j, c)
			}
			for j := 0; j < k; j++ {
				proj[j] += d * V.At(j, c)
			}
		}
		for j := 0; j < k; j++ {
			gn += g[j] * g[j]
			rest += (g[j] - proj[j]) * (g[j] - proj[j])
		}
		if gn > 0 && math.Sqrt(rest) > 1e-3*math.Sqrt(gn) {
			if len(in) < k {
				return fmt.Sprintf("%d points for %d parameters leave its prediction there free", len(in), k)
			}
			return "the remaining points leave its prediction there free"
		}
	}
	return ""
}

// stdErr is the standard error of the mean of xs (len >= 2).
func stdErr(xs []float64) float64 {
	n := float64(len(xs))
	m := 0.0
	for _, e := range xs {
		m += e
	}
	m /= n
	v := 0.0
	for _, e := range xs {
		v += (e - m) * (e - m)
	}
	return math.Sqrt(v/(n-1)) / math.Sqrt(n)
}

// parsimonious applies the one-standard-error rule (Hastie, Tibshirani,
// Friedman, The Elements of Statistical Learning, 7.10): among the fits
// whose CV error is within one standard error (over the left-out
// configurations) of the best, the one with the fewest parameters, then the
// lowest CV error.
func parsimonious(best *ThroughputFit, fits []*ThroughputFit) *ThroughputFit {
	if math.IsNaN(best.CVError) || len(best.cvErrs) < 2 {
		return best
	}
	se := stdErr(best.cvErrs)
	choice := best
	for _, f := range fits {
		if math.IsNaN(f.CVError) || f.CVError > best.CVError+se {
			continue
		}
		k, kc := len(f.Theta), len(choice.Theta)
		if k < kc || (k == kc && f.CVError < choice.CVError) {
			choice = f
		}
	}
	return choice
}

// splitLargest splits pts into the points with fewer workers than the
// largest count (in; next is their largest count) and those with the
// largest (out, at maxW workers).
func splitLargest(pts []Point) (in, out []Point, maxW, next int) {
	for _, p := range pts {
		maxW = max(maxW, p.Config.Workers)
	}
	for _, p := range pts {
		if p.Config.Workers == maxW {
			out = append(out, p)
		} else {
			in = append(in, p)
			next = max(next, p.Config.Workers)
		}
	}
	return in, out, maxW, next
}

// logPredictions is the problem whose "residuals" are the log predictions
// of f at pts: its Jacobian is the sensitivity the identification checks
// read.
func logPredictions(f Family, pts []Point) Problem {
	rp := newRowPredictor(f, configsOf(pts))
	return Problem{M: len(pts), Residuals: func(dst, th []float64) {
		rp.logPredict(dst, th)
	}}
}

// largestCV fits on the configurations with fewer workers than the
// largest count and returns the MAPE (%) on those with the largest; NaN
// with fewer than 3 configurations, or when the smaller configurations
// leave the prediction at the largest free (foldIdentified).
func largestCV(f Family, pts []Point) float64 {
	keys, _ := configKeys(pts)
	if len(keys) < 3 {
		return math.NaN()
	}
	in, out, _, _ := splitLargest(pts)
	if len(in) == 0 {
		return math.NaN()
	}
	res, err := fitOnce(f, in, nil)
	if err != nil || foldIdentified(f, in, out, res.X) != "" {
		return math.NaN()
	}
	sum := 0.0
	for _, p := range out {
		sum += math.Abs(f.Predict(res.X, p.Config)-p.StepsPerS) / p.StepsPerS
	}
	return 100 * sum / float64(len(out))
}

// columns is the matrix of J's columns cols.
func columns(J *mat.Dense, cols []int) *mat.Dense {
	r, _ := J.Dims()
	out := mat.NewDense(r, len(cols), nil)
	for k, j := range cols {
		for i := 0; i < r; i++ {
			out.Set(i, k, J.At(i, j))
		}
	}
	return out
}

// identification warns about parameters the data do not pin down: one
// worker or shard count, parameters stuck at a bound, and directions of
// the parameter space along which the fit is flat (tiny singular values
// of the column-scaled Jacobian); flat names the parameters of such a
// combination (flatNames), as Model.Parameters names them (a mean's
// member's as member.name).
func identification(f Family, pts []Point, res LMResult) (w, flat, noEffect []string) {
	if len(f.Members) > 0 {
		// a mean is identified where each member is: its members'
		// warnings, each said once
		xs, bound := splitMembers(f, res.X), splitMembers(f, res.AtBound)
		for i, m := range f.Members {
			mw, mflat, mnone := identification(m, pts, LMResult{X: xs[i], AtBound: bound[i]})
			for _, s := range mw {
				if !slices.Contains(w, s) {
					w = append(w, s)
				}
			}
			for _, n := range mflat {
				flat = append(flat, m.Name+"."+n)
			}
			for _, n := range mnone {
				noEffect = append(noEffect, m.Name+"."+n)
			}
		}
		return w, flat, noEffect
	}
	ws := map[int]bool{}
	ps := map[int]bool{}
	for _, p := range pts {
		ws[p.Config.Workers] = true
		ps[p.Config.PS] = true
	}
	if len(ws) == 1 {
		w = append(w, fmt.Sprintf("only one worker count in the data (%d): how throughput grows with workers is not identified, predictions for other counts follow the %s form alone", pts[0].Config.Workers, f.Name))
	}
	if KindOf(pts).PS && len(ps) == 1 {
		w = append(w, fmt.Sprintf("only one PS shard count in the data (%d): the effect of shards is not identified", pts[0].Config.PS))
	}
	J := scaledLogJacobian(f, pts, res.X)
	k := len(res.X)
	var seen []int // columns of the parameters with an effect
	norms := make([]float64, k)
	for j := 0; j < k; j++ {
		norm := 0.0
		for i := 0; i < len(pts); i++ {
			norm += J.At(i, j) * J.At(i, j)
		}
		norms[j] = math.Sqrt(norm)
		if math.Sqrt(norm) < 1e-6 {
			if !res.AtBound[j] {
				noEffect = append(noEffect, f.Params[j].Name)
			}
			continue
		}
		seen = append(seen, j)
	}
	if len(noEffect) > 0 {
		msg := fmt.Sprintf("%s: parameters with no effect on the fitted points (not identified): %v", f.Name, noEffect)
		if f.PriorDoc != "" {
			msg += "; " + f.PriorDoc
		}
		w = append(w, msg)
	}
	// the flat combinations among the parameters that do move the
	// predictions (those without effect are named above)
	var svd mat.SVD
	if len(seen) > 1 && len(pts) >= k && svd.Factorize(columns(J, seen), mat.SVDThin) {
		sv := svd.Values(nil)
		if sv[0] > 0 && sv[len(sv)-1]/sv[0] < 1e-6 {
			flat = flatNames(f, &svd, seen, norms)
			named := ""
			if len(flat) > 0 {
				named = ", " + words.And(flat)
			}
			w = append(w, fmt.Sprintf("%s: the fit is flat along a combination of parameters%s (condition %.3g): their separate values are not identified, and their intervals do not show it (the bootstrap refits stay where the fit started along it), predictions far from the data are uncertain", f.Name, named, sv[0]/math.Max(sv[len(sv)-1], 1e-300)))
		}
	}
	if len(pts) < k {
		w = append(w, fmt.Sprintf("%s: %d parameters from %d points: not all are identified", f.Name, k, len(pts)))
	}
	return w, flat, noEffect
}

// flatNames names the parameters of the flat combination the thin SVD svd
// of the columns seen found (its last right singular vector): each whose
// share of it, |v_j| times its column's norm (norms), is at least a tenth
// of the largest (fixed and per_sample); nil when fewer than two are.
// At one per-worker batch the overhead form's fixed and per_sample time
// trade one for the other, and the table printed each with a 1% interval.
func flatNames(f Family, svd *mat.SVD, seen []int, norms []float64) []string {
	var v mat.Dense
	svd.VTo(&v)
	_, c := v.Dims()
	share := make([]float64, len(seen))
	most := 0.0
	for i, j := range seen {
		share[i] = math.Abs(v.At(i, c-1)) * norms[j]
		most = math.Max(most, share[i])
	}
	var names []string
	for i, j := range seen {
		if share[i] >= 0.1*most {
			names = append(names, f.Params[j].Name)
		}
	}
	if len(names) < 2 {
		return nil
	}
	return names
}
