package fit

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
)

// Extrapolation is the model error a fit makes away from its data, which
// neither the bootstrap (measurement noise) nor the rivals (other fits of
// the same data) cover: a form that fits the small configurations can
// drift from the measurements as the configuration grows. It is measured
// on the data themselves: fit the chosen family without the configurations
// of the largest worker count, predict them, and divide the mean absolute
// log error by the log distance extrapolated, ln(w_max/w_next). The error
// is taken to grow in proportion to the log distance from the data, summed
// over workers, PS shards and nodes beyond the largest fitted,
//
//	d(c) = ln⁺(w/w_max) + ln⁺(p/p_max) + ln⁺(nodes/nodes_max),
//
// (a configuration without a node count, nodes 0, has one node per worker,
// as the families read it, once the data recorded their node counts).
//
// The log error at c is read as normal with mean 0 and standard deviation
// σ·d(c), σ unknown. One refit is one draw of the drift (the errors of
// one fold share its bias), so Rate is one observation of σ; on its own it
// would make a Student-t interval with one degree of freedom (a 90%
// interval 3.8 times a known σ's). It is pooled with a prior worth
// PriorFolds folds at the drift measured on the project's own traces
// (AssumedDriftRate as a mean |e|, σ0 = AssumedDriftRate·sqrt(π/2)):
//
//	s² = (PriorFolds·σ0² + folds·Rate²) / (PriorFolds + folds),
//
// and the interval of level L holds v·exp(±t·s·d(c)), t the (1+L)/2
// quantile of Student's t with PriorFolds + folds degrees of freedom (the
// posterior predictive of a normal of unknown variance under the conjugate
// scaled-inverse-chi-squared prior; folds is 0 when the rate is assumed,
// 1 otherwise). Inside the data d = 0 and nothing widens. The linear
// growth, the normal shape and the prior are assumptions;
// docs/validation.md reports how often the widened intervals hold
// measurements they were not fitted on.
type Extrapolation struct {
	// Rate is the mean absolute log error per unit of log distance of the
	// one refit that measured it (AssumedDriftRate when Assumed).
	Rate       float64 `json:"rate"`
	MaxWorkers int     `json:"max_workers"`
	// MinWorkers is the fewest workers fitted (0 in files written before
	// 2026-12-05, and for a two-node profile: no widening below): the
	// intervals widen below it as beyond MaxWorkers.
	MinWorkers int `json:"min_workers,omitempty"`
	MaxPS      int `json:"max_ps,omitempty"`
	MaxNodes   int `json:"max_nodes,omitempty"`
	// Assumed is true when the data could not measure the rate and Rate
	// is AssumedDriftRate.
	Assumed bool `json:"assumed,omitempty"`
}

// Distance is d(c), the log distance of c beyond the fitted data: above
// the largest fitted workers, shards and nodes, and below the fewest
// workers.
func (e *Extrapolation) Distance(c model.Config) float64 {
	return e.above(c) + e.below(c)
}

// below is the log distance of c below the fewest fitted workers.
func (e *Extrapolation) below(c model.Config) float64 {
	if e == nil || e.MinWorkers <= 1 || c.Workers >= e.MinWorkers || c.Workers < 1 {
		return 0
	}
	return math.Log(float64(e.MinWorkers) / float64(c.Workers))
}

// above is the log distance of c above the largest fitted workers, shards
// and nodes.
func (e *Extrapolation) above(c model.Config) float64 {
	if e == nil {
		return 0
	}
	d := 0.0
	if e.MaxWorkers > 0 && c.Workers > e.MaxWorkers {
		d += math.Log(float64(c.Workers) / float64(e.MaxWorkers))
	}
	if e.MaxPS > 0 && c.PS > e.MaxPS {
		d += math.Log(float64(c.PS) / float64(e.MaxPS))
	}
	// Nodes 0 is one per worker (nodesOf, as the families read it) once
	// the data recorded theirs.
	if n := nodesOf(c); e.MaxNodes > 0 && n > e.MaxNodes {
		d += math.Log(float64(n) / float64(e.MaxNodes))
	}
	return d
}

// Factor is exp(Spread(level)·d(c)), the factor by which the interval of
// the given level reaches below and above the prediction at c (1 inside
// the data).
func (e *Extrapolation) Factor(c model.Config, level float64) float64 {
	if e == nil {
		return 1
	}
	return math.Exp(e.Spread(level) * e.Distance(c))
}

// FactorFrom is Factor for a ratio of the predictions at c and at base
// (a speedup over one worker): the log distance both share beyond the data
// (shards, say, when base has c's) drifts them alike and cancels, so only
// the distance c adds to base's widens it: max(d(c) - d(base), 0) above
// the data. Below the fewest fitted workers (one worker, the base of a
// speedup, under a model fitted from 2 workers up) base's own drift counts
// too, less what c shares of it when c is below as well: |b(c) - b(base)|,
// b the distance below. 1 when c is no further from the data than base,
// in the same direction.
func (e *Extrapolation) FactorFrom(base, c model.Config, level float64) float64 {
	if e == nil {
		return 1
	}
	d := math.Max(e.above(c)-e.above(base), 0) + math.Abs(e.below(c)-e.below(base))
	return math.Exp(e.Spread(level) * d)
}

// PriorFolds is the weight, in folds, of the prior drift (AssumedDriftRate,
// measured on another system: the project's own traces) beside the data's
// own measurement: no more than one fold, so that a rate measured on the
// data counts as much as one from elsewhere.
const PriorFolds = 1

// Spread is t·s, the half-width in log space of the interval of level per
// unit of log distance beyond the data (the type's comment derives it).
func (e *Extrapolation) Spread(level float64) float64 {
	if e == nil {
		return 0
	}
	folds := 1.0
	if e.Assumed {
		folds = 0
	}
	sigma0 := AssumedDriftRate * math.Sqrt(math.Pi/2)
	nu := PriorFolds + folds
	s := math.Sqrt((PriorFolds*sigma0*sigma0 + folds*e.Rate*e.Rate) / nu)
	return tQuantile(level, nu) * s
}

// tQuantile is the (1+level)/2 quantile of Student's t with nu degrees of
// freedom: the half-width, in scales, of a two-sided interval of level.
// Each (level, nu) is computed once (tQuantiles): Spread asks it for every
// prediction off the data, up to three times a row (the workers', the link
// rate's and the batch's widening), with one level and two nu per model,
// and gonum's quantile is a fifth of a Predict.
func tQuantile(level, nu float64) float64 {
	k := [2]float64{level, nu}
	if q, ok := tQuantiles.Load(k); ok {
		return q.(float64)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(1 - (1-level)/2)
	if level == level && nu == nu { // (a NaN key would never be found again)
		tQuantiles.Store(k, q)
	}
	return q
}

// tQuantiles memoises tQuantile by (level, nu).
var tQuantiles sync.Map

// perDoubling is how much wider, in %, the interval of level grows per
// doubling of workers.
func (e *Extrapolation) perDoubling(level float64) float64 {
	return 100 * (math.Pow(2, e.Spread(level)) - 1)
}

// check reports a rate or a bound that cannot be.
func (e *Extrapolation) check() error {
	if math.IsNaN(e.Rate) || math.IsInf(e.Rate, 0) || e.Rate < 0 || e.Rate > maxDriftRate {
		return fieldErr{"rate", errorf("extrapolation: rate %g, want a finite number from 0 to %g", e.Rate, float64(maxDriftRate))}
	}
	for _, f := range []struct {
		name   string
		v, min int
	}{{"max_workers", e.MaxWorkers, 1}, {"max_ps", e.MaxPS, 0}, {"max_nodes", e.MaxNodes, 0}} {
		if f.v < f.min {
			return fieldErr{f.name, errorf("extrapolation: %s %d, want the largest fitted count, >= %d", f.name, f.v, f.min)}
		}
	}
	if e.MinWorkers < 0 || e.MinWorkers > e.MaxWorkers {
		return fieldErr{"min_workers", errorf("extrapolation: min_workers %d, want the fewest fitted workers, 0 (not recorded) to max_workers %d", e.MinWorkers, e.MaxWorkers)}
	}
	return nil
}

// maxDriftRate bounds the extrapolation rate of a model.json: at 100 (an
// error growing e^100-fold per e-fold of distance; fits measure 0.01 to
// 1) the widening reaches its cap, maxWiden, a seventh of an e-fold (15%
// more workers) past the data, so a larger rate says nothing more, and
// 10^6 is a corrupted file.
const maxDriftRate = 100

// maxWiden caps the extrapolation factor: an interval from a millionth to
// a million times the prediction already says nothing is known, and a
// larger (or infinite) factor would overflow the bounds predict prints.
const maxWiden = 1e6

// widenBy stretches iv to hold v/f and v·f, f at most maxWiden.
func widenBy(iv Interval, f float64) Interval {
	if !(f > 1) {
		return iv
	}
	f = math.Min(f, maxWiden)
	iv.Lo = math.Min(iv.Lo, iv.Value/f)
	iv.Hi = math.Max(iv.Hi, iv.Value*f)
	return iv
}

// AssumedDriftRate stands in for the extrapolation rate when the data
// cannot measure their own (one worker count, or smaller configurations
// that leave the prediction at the largest free): 0.1 per unit of log
// distance, 7% per doubling of workers, the rate the two-node profile
// measures on the project's real traces (testdata/asgd, fitted on 1-2
// workers; docs/fitting.md). An assumption, flagged in model.json
// (extrapolation.assumed) and in the fit's warnings.
const AssumedDriftRate = 0.1

// extrapolation measures the Extrapolation of family f on pts; when the
// data cannot measure it, the result carries AssumedDriftRate, Assumed
// set, and the warning says why.
func extrapolation(f Family, pts []Point, level float64) (*Extrapolation, string) {
	in, out, maxW, next := splitLargest(pts)
	e := &Extrapolation{MaxWorkers: maxW, MinWorkers: maxW}
	for _, p := range pts {
		e.MaxPS = max(e.MaxPS, p.Config.PS)
		e.MaxNodes = max(e.MaxNodes, p.Config.Nodes)
		e.MinWorkers = min(e.MinWorkers, p.Config.Workers)
	}
	assumed := func(why string) (*Extrapolation, string) {
		e.Rate, e.Assumed = AssumedDriftRate, true
		return e, fmt.Sprintf("the error of extrapolating beyond the data cannot be measured: %s; beyond %s%s the %.0f%% intervals widen by an ASSUMED %.0f%% per doubling of workers (from the mean drift measured on the project's own traces), not by anything in these data", why, e.bounds(), e.belowNote(), 100*level, e.perDoubling(level))
	}
	if len(in) == 0 {
		return assumed("one worker count only")
	}
	res, err := fitOnce(f, in, nil)
	if err != nil {
		return assumed(fmt.Sprintf("the fit without the %d-worker configurations fails (%v)", e.MaxWorkers, err))
	}
	if why := foldIdentified(f, in, out, res.X); why != "" {
		return assumed(fmt.Sprintf("without its %d-worker configurations, %s", e.MaxWorkers, why))
	}
	sum := 0.0
	for _, p := range out {
		v := f.Predict(res.X, p.Config)
		if !(v > 0) || math.IsInf(v, 0) {
			return assumed("the fit without the largest worker count predicts no finite rate there")
		}
		sum += math.Abs(math.Log(v / p.StepsPerS))
	}
	e.Rate = sum / float64(len(out)) / math.Log(float64(e.MaxWorkers)/float64(next))
	return e, fmt.Sprintf("extrapolation: fitted without its %d-worker configurations, %s missed them by %.1f%% (mean log error), a drift of %.3g per unit of log distance; pooled with the prior drift %g (one refit measures it once), beyond the data the %.0f%% intervals widen by a factor exp(%.3g·d), d the log distance past %s%s (%.1f%% more per doubling of workers)",
		e.MaxWorkers, f.Name, 100*sum/float64(len(out)), e.Rate, AssumedDriftRate, 100*level, e.Spread(level), e.bounds(), e.belowNote(), e.perDoubling(level))
}

func (e *Extrapolation) bounds() string {
	s := words.Count(e.MaxWorkers, "worker")
	if e.MaxPS > 0 {
		s += ", " + words.Count(e.MaxPS, "shard")
	}
	if e.MaxNodes > 0 {
		s += ", " + words.Count(e.MaxNodes, "node")
	}
	return s
}

// belowNote names the fewest fitted workers when the intervals widen
// below them too ("" when they were 1).
func (e *Extrapolation) belowNote() string {
	if e.MinWorkers <= 1 {
		return ""
	}
	return " or below " + words.Count(e.MinWorkers, "worker") + " (at the rate measured or assumed upward: the data cannot measure it downward)"
}

// profileExtrapolation measures the Extrapolation of a two-node profile
// fit (tf, from prof): the profile is the 1-worker run, and every other
// training run beyond it in workers or shards is an out-of-sample check;
// the rate is the sum of their absolute log errors over the sum of their
// log distances from the profile. With no such run (the profile alone) the
// rate is AssumedDriftRate, flagged assumed: about what this estimate
// measures on testdata/asgd fitted on 1-2 workers (0.101), and before, the
// intervals covered the
// profile's measurement noise only (8 workers predicted 12.57 [12.50,
// 12.66] steps/s from testdata/asgd's 1-worker run, measured 10.67). The
// warning says what the intervals cover either way.
func profileExtrapolation(tf *ThroughputFit, prof Profile, pts []Point, level float64) (*Extrapolation, string) {
	e := &Extrapolation{MaxWorkers: 1, MaxPS: max(prof.PS, 1)}
	assumed := func(why string) (*Extrapolation, string) {
		e.Rate, e.Assumed = AssumedDriftRate, true
		return e, fmt.Sprintf("the queueing model's own error beyond the profile (%s) cannot be measured: %s; the %.0f%% intervals cover the measurement noise of the profile's phase means and, beyond it, widen by an ASSUMED %.1f%% per doubling of workers or shards (a drift of %g per unit of log distance, about what the profile's error measures on the project's real traces testdata/asgd fitted on 1-2 workers, with one degree of freedom), not by anything in these data",
			e.bounds(), why, 100*level, e.perDoubling(level), AssumedDriftRate)
	}
	sumE, sumD := 0.0, 0.0
	n := 0
	for _, p := range pts {
		d := e.Distance(p.Config)
		if d == 0 {
			continue
		}
		v := tf.Family.Predict(tf.Theta, p.Config)
		if !(v > 0) || math.IsInf(v, 0) {
			return assumed(fmt.Sprintf("the network predicts no finite rate at %s", words.Count(p.Config.Workers, "worker")))
		}
		sumE += math.Abs(math.Log(v / p.StepsPerS))
		sumD += d
		n++
	}
	if n == 0 {
		return assumed("no training run other than the profile")
	}
	e.Rate = sumE / sumD
	return e, fmt.Sprintf("the intervals cover the measurement noise of the profile's phase means and, beyond the profile (%s), the queueing model's own error measured on the %d other training configurations (%.3g mean log error per unit of log distance d, pooled with the prior drift %g): the %.0f%% intervals widen by %.1f%% per doubling of workers or shards (exp(%.3g·d))",
		e.bounds(), n, e.Rate, AssumedDriftRate, 100*level, e.perDoubling(level), e.Spread(level))
}
