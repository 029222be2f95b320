package fit

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sgdplan/sgdplan/model"
)

// GNSRun is one training run's evaluation curve at a global batch.
type GNSRun struct {
	Batch       float64   // samples per step (global batch)
	Steps, Loss []float64 // steps so far and the loss (lower is better) at each evaluation
}

// BatchCurve is the validation protocol's name for a GNSRun.
type BatchCurve = GNSRun

// GNSFit is the gradient-noise-scale law fitted on the steps to a common
// target of runs at different global batches (McCandlish et al. 2018, as
// Pollux uses it): S(B) = StepsRef (1 + Noise/B)/(1 + Noise/RefBatch).
type GNSFit struct {
	Noise float64 // samples, the noise scale B_noise
	// NoiseLo and NoiseHi are Noise's bootstrap percentile interval
	// (resampling runs), widened by Scale in log space as the updates'
	// interval is (widenLog; before 2026-12-08 it was not, and held the
	// true noise scale in 65-87% of simulated seeds at 90%, 4 to 8 runs
	// one a batch: TestFitGNSCoverageOneRunABatch); equal to Noise
	// without a bootstrap.
	NoiseLo, NoiseHi float64
	// Samples are the bootstrap's joint refits (StepsRef, Noise), one per
	// resample that could be fitted (whole runs resampled, RefBatch held):
	// the two parameters move together. None without a bootstrap or when
	// fewer than 10 resamples could be fitted.
	Samples [][]float64
	// Scale widens the samples' interval and the runs' scatter (RMSLE)
	// for the few runs that pin the law down: sqrt(n/(n-2))·t/z at level,
	// n runs and 2 parameters (intervalScale); 0 without a bootstrap.
	Scale    float64
	RefBatch float64 // samples, the smallest fitted batch
	StepsRef float64 // fitted steps to Target at RefBatch
	Target   float64 // the loss every run reaches
	// Batches and Measured are the fitted runs' global batches (ascending)
	// and their measured steps to Target.
	Batches, Measured []float64
	RMSLE             float64 // root mean squared log residual of the steps
	Warnings          []string
}

// Law returns the fitted law as a model.GNS (relative to RefBatch).
func (f GNSFit) Law() model.GNS { return model.GNS{Noise: f.Noise, RefBatch: f.RefBatch} }

// Steps returns the predicted steps to Target at global batch b.
func (f GNSFit) Steps(b float64) float64 { return f.StepsRef * f.Law().StepsRatio(b) }

// gnsNoiseMax bounds the fitted noise scale (samples): above it every
// sample counts at any batch the data can hold.
const gnsNoiseMax = 1e9

// FitGNS fits the gradient-noise-scale law to runs at different global
// batches: the target is the highest loss every run reaches (the worst of
// their best values), each run's steps to it are measured (its first
// evaluation at or below it), and S(B) = StepsRef (1 + Noise/B)/(1 +
// Noise/RefBatch), RefBatch the smallest batch, is fitted by bounded LM on
// log steps. boot > 0 resamples whole runs that many times (seed) for
// Noise's interval at coverage level; resamples with fewer than 3 distinct
// batches are left out. It needs runs at 3 or more distinct global batches.
func FitGNS(runs []GNSRun, boot int, seed uint64, level float64) (GNSFit, error) {
	if n := distinctBatches(runs); n < 3 {
		return GNSFit{}, errorf("gradient noise scale: runs at %d distinct global batches, want 3 or more", n)
	}
	return fitGNS(runs, gnsTarget(runs), boot, seed, level)
}

// distinctBatches counts the distinct batches of runs.
func distinctBatches(runs []GNSRun) int {
	seen := map[float64]bool{}
	for _, r := range runs {
		seen[r.Batch] = true
	}
	return len(seen)
}

// gnsTarget is the highest loss every run reaches: the worst of the runs'
// best values.
func gnsTarget(runs []GNSRun) float64 {
	target := math.Inf(-1)
	for _, r := range runs {
		best := math.Inf(1)
		for _, l := range r.Loss {
			best = math.Min(best, l)
		}
		target = math.Max(target, best)
	}
	return target
}

// stepsToTarget is the steps of r's first evaluation at or below target;
// an error when it is not positive (never reached, or at step 0).
func stepsToTarget(r GNSRun, target float64) (float64, error) {
	s := firstAtOrBelow(r.Steps, r.Loss, target)
	if !(s > 0) {
		return s, errorf("batch %g reaches the target %g at step %g", r.Batch, target, s)
	}
	return s, nil
}

// fitGNS is FitGNS at a given target (ScoreBatchSize fixes it from the
// runs it does not fit). It needs 2 distinct batches.
func fitGNS(runs []GNSRun, target float64, boot int, seed uint64, level float64) (GNSFit, error) {
	if len(runs) == 0 {
		return GNSFit{}, errorf("gradient noise scale: no runs")
	}
	rs := append([]GNSRun(nil), runs...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Batch < rs[j].Batch })
	f := GNSFit{Target: target, RefBatch: rs[0].Batch}
	if !(f.RefBatch > 0) || math.IsInf(rs[len(rs)-1].Batch, 0) {
		return GNSFit{}, errorf("gradient noise scale: global batches %g to %g, want positive and finite", f.RefBatch, rs[len(rs)-1].Batch)
	}
	for _, r := range rs {
		if len(r.Steps) != len(r.Loss) {
			return GNSFit{}, errorf("batch %g: %d step counts, %d losses", r.Batch, len(r.Steps), len(r.Loss))
		}
		s, err := stepsToTarget(r, target)
		if err != nil {
			return GNSFit{}, err
		}
		f.Batches = append(f.Batches, r.Batch)
		f.Measured = append(f.Measured, s)
	}
	s0, noise, rmsle, err := gnsLaw(f.Batches, f.Measured, f.RefBatch)
	if err != nil {
		return GNSFit{}, err
	}
	f.StepsRef, f.Noise, f.RMSLE = s0, noise, rmsle
	f.NoiseLo, f.NoiseHi = noise, noise
	// the scatter's widening depends on the runs and the level only: kept
	// under --bootstrap 0 too (it narrowed the run-scatter allowance)
	f.Scale = intervalScale(len(rs), 2, level)
	if boot > 0 {
		bs := make([]float64, len(rs))
		ss := make([]float64, len(rs))
		samples := Bootstrap(len(rs), boot, seed, func(idx []int) ([]float64, bool) {
			seen := map[float64]bool{}
			for i, j := range idx {
				bs[i], ss[i] = f.Batches[j], f.Measured[j]
				seen[bs[i]] = true
			}
			if len(seen) < 3 {
				return nil, false
			}
			s0, n, _, err := gnsLaw(bs, ss, f.RefBatch)
			if err != nil {
				return nil, false
			}
			return []float64{s0, n}, true
		})
		switch {
		case len(rs) == 3:
			// 3 runs: the resamples the law can be fitted to (3 distinct
			// batches) are the runs reordered, every refit was the fit
			// itself, and the interval had no width, given as 90%
			// without a word
			f.Warnings = append(f.Warnings, "gradient noise scale: 3 runs leave the law (2 parameters) 1 degree of freedom, and every resample it can be fitted to holds the 3 runs themselves: no interval (measure a batch more, or repeat one)")
		case len(samples) >= 10:
			lo, hi := paramIntervals(samples, 2, level)
			f.NoiseLo, f.NoiseHi = widenLog(noise, math.Min(lo[1], noise), math.Max(hi[1], noise), f.Scale)
			f.NoiseHi = math.Min(f.NoiseHi, gnsNoiseMax)
			f.Samples = samples
		default:
			f.Warnings = append(f.Warnings, fmt.Sprintf("gradient noise scale: %d of %d bootstrap resamples could be fitted: no interval", len(samples), boot))
		}
	}
	lo := f.Batches[0]
	switch {
	case f.NoiseHi >= 0.999*gnsNoiseMax:
		f.Warnings = append(f.Warnings, fmt.Sprintf("gradient noise scale up to %.3g samples (the bound): the data cannot tell where larger batches stop saving steps", f.NoiseHi))
	case f.Noise < lo/100:
		f.Warnings = append(f.Warnings, fmt.Sprintf("gradient noise scale %.3g samples, far below the smallest batch %g: a larger batch saves no steps in these data", f.Noise, lo))
	}
	return f, nil
}

// gnsLaw fits (StepsRef, Noise) of S(B) = StepsRef (1 + Noise/B)/(1 +
// Noise/ref) to the measured steps by bounded LM on log steps, from a few
// starting noise scales; it returns the root mean squared log residual too.
func gnsLaw(batches, steps []float64, ref float64) (s0, noise, rmsle float64, err error) {
	n := len(batches)
	pred := func(th []float64, b float64) float64 {
		return th[0] * model.GNS{Noise: th[1], RefBatch: ref}.StepsRatio(b)
	}
	prob := Problem{
		M: n,
		Residuals: func(dst, th []float64) {
			for i := 0; i < n; i++ {
				dst[i] = math.Log(pred(th, batches[i])) - math.Log(steps[i])
			}
		},
		Lower: []float64{1e-9, 0},
		Upper: []float64{math.Inf(1), gnsNoiseMax},
	}
	best := LMResult{Cost: math.Inf(1)}
	for _, b := range []float64{ref / 10, ref, 10 * ref, 100 * ref} {
		r, err := LevenbergMarquardt(prob, []float64{steps[0], b}, nil)
		if err == nil && r.Cost < best.Cost {
			best = r
		}
	}
	if math.IsInf(best.Cost, 1) || math.IsNaN(best.Cost) {
		return 0, 0, 0, errorf("the noise scale could not be fitted")
	}
	return best.X[0], best.X[1], math.Sqrt(2 * best.Cost / float64(n)), nil
}

// fitBatchLaw fits the batch law of a synchronous trace (every training
// run's mode sync or allreduce) whose runs with 3 or more losses have 3 or
// more distinct global batches (per-worker batch x workers): FitGNS on
// their loss curves (s.Bootstrap resamples at s.Seed and s.Level; no
// interval when s.Bootstrap <= 0), and one loss curve in steps at the
// reference batch (each run's steps divided by the law's StepsRatio at its
// batch) for targets other than the law's. ok is false
// when the trace is not such a trace, or the law cannot be fitted (the
// reason is then in warn): the caller fits as before.
func fitBatchLaw(curves map[string][]lossPoint, stats []RunStats, trainWorkers []int, s Settings) (eff *Efficiency, warn []string, ok bool) {
	runs := stalenessRunsFrom(stats, curves, trainWorkers)
	batch := map[string]float64{}
	for _, r := range stats {
		if trainWorkers != nil && !slices.Contains(trainWorkers, r.Workers) {
			continue
		}
		if r.Mode == "async" {
			return nil, nil, false
		}
		batch[r.Run] = samplesPerStep(r) // the global batch
	}
	var gr []GNSRun
	for _, r := range stats {
		pts := curves[r.Run]
		if _, in := batch[r.Run]; !in || len(pts) < 3 {
			continue
		}
		run := GNSRun{Batch: batch[r.Run]}
		pts = append([]lossPoint(nil), pts...)
		sort.Slice(pts, func(i, j int) bool { return pts[i].k < pts[j].k })
		for _, p := range pts {
			run.Steps = append(run.Steps, p.k)
			run.Loss = append(run.Loss, p.l)
		}
		gr = append(gr, run)
	}
	if distinctBatches(gr) < 3 {
		return nil, nil, false
	}
	f, err := FitGNS(gr, s.Bootstrap, s.Seed, s.Level)
	if err != nil {
		return nil, []string{"batch law: " + strings.TrimPrefix(err.Error(), "fit: ") + "; the loss curves are fitted without it"}, false
	}
	eff = &Efficiency{StalenessPerWorker: 1, TargetLoss: f.Target, Warnings: f.Warnings}
	if a, ok := stalenessLaw(stalenessPoints(stats, trainWorkers)); ok {
		eff.StalenessPerWorker = a
	}
	eff.GNS = &GNSLaw{NoiseBatch: f.Noise, NoiseBatchLo: f.NoiseLo, NoiseBatchHi: f.NoiseHi, RefBatch: f.RefBatch,
		StepsRef: f.StepsRef, TargetLoss: f.Target, MinBatch: f.Batches[0], MaxBatch: f.Batches[len(f.Batches)-1],
		Samples: f.Samples, IntervalScale: f.Scale, RunScatter: f.RMSLE}
	law := f.Law()
	for i := range runs {
		r := &runs[i]
		ratio := law.StepsRatio(batch[r.Run])
		k := make([]float64, len(r.K))
		for j := range r.K {
			k[j] = r.K[j] / ratio
		}
		if r.W != nil {
			w := make([]float64, len(r.W))
			for j := range r.W {
				w[j] = r.W[j] / ratio
			}
			r.W = w
		}
		r.K, r.Staleness = k, 0
	}
	sf, err := FitStalenessLaw(runs, 0, 1, 0.9)
	if err == nil && !(sf.Curve.B0 > 0) {
		// model.json takes b0 = 0 beside a batch law as no curve
		err = errorf("the fitted rate b0 is 0: the loss does not fall measurably beside its noise")
	}
	if err != nil {
		eff.Warnings = append(eff.Warnings, "loss curve at the reference batch: "+strings.TrimPrefix(err.Error(), "fit: ")+": only the target loss the law was fitted at can be predicted")
		return eff, nil, true
	}
	eff.B0, eff.B1, eff.B2 = sf.Curve.B0, sf.Curve.B1, sf.Curve.B2
	// the lowest loss the curve gives at the end of a run (in steps at
	// the reference batch), as the staleness law's fit keeps it: predict
	// warns of a target below it, which extrapolates the curve (a batch
	// law's model kept none, and a target below every measured loss was
	// predicted without a word)
	for i, r := range runs {
		if l := sf.CurveAt(0).Loss(r.K[len(r.K)-1]); i == 0 || l < eff.LowestLoss {
			eff.LowestLoss = l
		}
	}
	eff.LowestLoss = math.Min(eff.LowestLoss, eff.TargetLoss)
	eff.LowestMeasuredLoss = lowestMeasuredLoss(runs)
	// the curve's own samples (each run's points resampled, lambda held at
	// 0): the updates to a target other than the law's scale by the
	// curve's ratio of the two, whose uncertainty they give
	eff.CurveSamples, eff.CurveScale = curveUncertainty(runs, sf, s)
	iv := fmt.Sprintf("[%.4g, %.4g]", f.NoiseLo, f.NoiseHi)
	if f.Samples == nil {
		iv = "(no interval)"
	}
	eff.Warnings = append(eff.Warnings, fmt.Sprintf("synchronous runs at %d global batches (%g to %g samples per step): the updates to target follow the batch law, gradient noise scale %.4g samples %s, %.4g steps to loss %.4g at %g; the staleness law is not fitted (synchronous)",
		len(f.Batches), f.Batches[0], f.Batches[len(f.Batches)-1], f.Noise, iv, f.StepsRef, f.Target, f.RefBatch))
	return eff, nil, true
}

// firstAtOrBelow is the update (step) count of the first evaluation whose
// loss is at or below target, NaN when none is.
func firstAtOrBelow(k, loss []float64, target float64) float64 {
	for j, l := range loss {
		if l <= target {
			return k[j]
		}
	}
	return math.NaN()
}
