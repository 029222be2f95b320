package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
)

// Bootstrap resamples n groups with replacement B times with a fixed seed
// and calls fit with the indices of each resample; it returns the vectors
// fit returned (resamples whose fit fails are dropped). It is the generic
// engine behind the intervals of every fit in this package.
func Bootstrap(n, B int, seed uint64, fit func(idx []int) ([]float64, bool)) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	out := make([][]float64, 0, B)
	idx := make([]int, n)
	for b := 0; b < B; b++ {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		if v, ok := fit(idx); ok {
			out = append(out, v)
		}
	}
	return out
}

// bootstrapParallel is Bootstrap with the refits spread over GOMAXPROCS
// goroutines. The resamples are drawn first, from Bootstrap's generator in
// its order, and the results are kept in that order, so the samples are
// Bootstrap's whatever the number of cores. newFit makes one fit function
// per goroutine (each with its own buffers); a fit must not keep idx.
func bootstrapParallel(n, B int, seed uint64, newFit func() func(idx []int) ([]float64, bool)) [][]float64 {
	if n <= 0 || B <= 0 {
		return Bootstrap(n, B, seed, newFit())
	}
	return stratifiedParallel([]int{n}, B, seed, newFit)
}

// stratifiedParallel is bootstrapParallel over strata: the items are
// numbered stratum after stratum (sizes[0] items, then sizes[1], ...) and
// each resample draws as many of each stratum as it has, with
// replacement, from that stratum alone (one stratum of n items is
// bootstrapParallel's resample, draw for draw).
func stratifiedParallel(sizes []int, B int, seed uint64, newFit func() func(idx []int) ([]float64, bool)) [][]float64 {
	n := 0
	for _, k := range sizes {
		n += k
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	idx := make([]int, n*B)
	for i := 0; i < len(idx); {
		start := 0
		for _, k := range sizes {
			for range k {
				idx[i] = start + rng.IntN(k)
				i++
			}
			start += k
		}
	}
	res := make([][]float64, B)
	ok := make([]bool, B)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), B) {
		fit := newFit()
		wg.Go(func() {
			for b := int(next.Add(1)) - 1; b < B; b = int(next.Add(1)) - 1 {
				res[b], ok[b] = fit(idx[b*n : (b+1)*n : (b+1)*n])
			}
		})
	}
	wg.Wait()
	out := make([][]float64, 0, B)
	for b, v := range res {
		if ok[b] {
			out = append(out, v)
		}
	}
	return out
}

// Percentile returns the q-quantile (0..1) of xs by linear interpolation
// between order statistics (xs is not modified; +Inf may be among them).
// NaN for no data, or a q outside [0, 1] (NaN indexed the data at -2^63).
func Percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	xs = append([]float64(nil), xs...)
	sort.Float64s(xs)
	h := q * float64(len(xs)-1)
	i := int(math.Floor(h))
	if i >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	// (an order statistic at +Inf: the interpolation toward it is +Inf,
	// an exact rank its own value; 0·Inf was NaN)
	switch f := h - float64(i); {
	case f == 0:
		return xs[i]
	case math.IsInf(xs[i+1], 1):
		return xs[i+1]
	default:
		return xs[i] + f*(xs[i+1]-xs[i])
	}
}

// bootstrapFit fills tf.Samples, Lo and Hi by resampling the
// configurations of pts (whole configurations, so that repeated rows of one
// configuration stay together) and refitting from tf.Theta.
func bootstrapFit(tf *ThroughputFit, pts []Point, s Settings) {
	keys, groups := configKeys(pts)
	if len(keys) < 2 {
		w := "one configuration only: no bootstrap interval (the intervals are the point estimate)"
		if len(pts) > 1 {
			// rows at several batches (Point.Key leaves the batch out)
			w = fmt.Sprintf("one configuration of workers and shards only (%d rows: the bootstrap resamples configurations, not batches or repeats): no bootstrap interval (the intervals are the point estimate)", len(pts))
		}
		tf.Warnings = append(tf.Warnings, w)
		return
	}
	buf := make([]Point, 0, 2*len(pts))
	tf.Samples = Bootstrap(len(keys), s.Bootstrap, s.Seed, func(idx []int) ([]float64, bool) {
		buf = buf[:0]
		for _, g := range idx {
			for _, i := range groups[keys[g]] {
				buf = append(buf, pts[i])
			}
		}
		res, err := fitOnce(tf.Family, buf, tf.Theta)
		if err != nil {
			return nil, false
		}
		return res.X, true
	})
	n, p := len(keys), effectiveParams(tf.Family, pts, tf.Theta)
	tf.IntervalScale = intervalScale(n, p, s.Level)
	tf.scaleN, tf.scaleP = n, p
	tf.Lo, tf.Hi = paramIntervals(tf.Samples, len(tf.Theta), s.Level)
	widenParams(tf.Lo, tf.Hi, tf.Theta, tf.Family.Params, tf.IntervalScale)
	if df := float64(n) - p; df > 0 && df <= 2 {
		of := "of the " + words.Count(len(tf.Theta), "parameter")
		if len(tf.Family.Members) > 0 {
			of = "per member on average (each fitted on its own)"
		}
		dof := "degrees"
		if df == 1 {
			dof = "degree"
		}
		dirs := "directions"
		if p == 1 {
			dirs = "direction"
		}
		tf.Warnings = append(tf.Warnings, fmt.Sprintf("the %s pin down %s %s %s, leaving %s %s of freedom: the bootstrap's prediction intervals, widened by sqrt(%d/%s)·t/z = %.3g (t Student's on those degrees), are wide and rest on that few residuals (on simulated data the 90%% intervals inside the data held the truth in 89-94%% of seeds with 1 left, 91-96%% with 2; widened by sqrt(n/(n-p)) alone, 65-85%% and 81-91%%; docs/fitting.md)", words.Count(n, "configuration"), fmtCount(p), dirs, of, fmtCount(df), dof, n, fmtCount(df), tf.IntervalScale))
	}
}

// fmtCount writes a count that may be a mean of counts: 2, or 2.5.
func fmtCount(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// intervalScale widens the bootstrap prediction intervals at level of a
// fit of p identified parameters to n resampled configurations by
// sqrt(n/(n-p))·t/z, t and z the (1+level)/2 quantiles of Student's t with
// n-p degrees of freedom and of the normal: the percentile bootstrap,
// resampling whole configurations, approximates z·sqrt(RSS/n) where the
// classical regression interval has t·sqrt(RSS/(n-p)) (sqrt(n/(n-p)) is
// the n/(n-p) that the HC1 sandwich estimator adds to HC0; t/z the small
// sample's heavier tails). n-p below 1 (a mean family, whose p is its
// members' mean count) takes t at 1 degree of freedom: t's quantile
// grows without bound as they go to 0 (25 times z at 0.5 and 90%).
// 1 when no residual is left (p >= n: an exact fit, whose zero-width
// intervals fit's table marks). Before 2026-12-06 the factor was
// sqrt(n/(n-p)) alone.
func intervalScale(n int, p, level float64) float64 {
	df := float64(n) - p
	if df <= 0 {
		return 1
	}
	t := tQuantile(level, math.Max(df, 1))
	return math.Sqrt(float64(n)/df) * t / zQuantile(level)
}

// widenParams moves each end of the parameters' intervals [lo, hi] away
// from the estimate theta by the factor scale (> 1: a table fit's
// IntervalScale, sqrt(n/(n-p))·t/z), in the parameters' own units, and
// holds it inside the form's bounds (params): the percentile bootstrap's
// parameter intervals run narrow for the reason its prediction intervals
// do (on 6 configurations of amdahl's form its 90% intervals held the
// true parameters in 80-84% of seeds, on 3 in 62-65%; widened, 92-93% and
// 88-93%: TestParamCoverageStudy, TestParamCoverage, docs/fitting.md). An interval that misses
// its estimate is stretched to it first. Linear, not log as the
// predictions: a parameter near its bound of 0 with an upper end far
// above it (an Ernest per-worker term) would be stretched by a power of
// that ratio. Zero-width intervals (no resample moved the parameter)
// stay so. Before 2026-12-07 the parameters' intervals were not widened.
func widenParams(lo, hi, theta []float64, params []Param, scale float64) {
	if !(scale > 1) {
		return
	}
	for j, v := range theta {
		l, h := math.Min(lo[j], v), math.Max(hi[j], v)
		lo[j] = math.Max(v-scale*(v-l), params[j].Lo)
		hi[j] = math.Min(v+scale*(h-v), params[j].Hi)
	}
}

// widenLog moves lo and hi, an interval about v, away from v by the
// factor scale (> 1: an IntervalScale, sqrt(n/(n-p))·t/z) in log space,
// end = v·(end/v)^scale, for a positive quantity fitted in log space: a
// lower end at 0 stays there, and an infinite upper end too. Nothing moves
// unless scale > 1 and v > 0.
func widenLog(v, lo, hi, scale float64) (float64, float64) {
	if !(scale > 1) || !(v > 0) {
		return lo, hi
	}
	if lo > 0 {
		lo = v * math.Pow(lo/v, scale)
	}
	if !math.IsInf(hi, 0) {
		hi = v * math.Pow(hi/v, scale)
	}
	return lo, hi
}

func paramIntervals(samples [][]float64, k int, level float64) (lo, hi []float64) {
	lo = make([]float64, k)
	hi = make([]float64, k)
	col := make([]float64, len(samples))
	a := (1 - level) / 2
	for j := 0; j < k; j++ {
		for i, v := range samples {
			col[i] = v[j]
		}
		lo[j] = Percentile(col, a)
		hi[j] = Percentile(col, 1-a)
	}
	return lo, hi
}

// Interval is a point estimate with its bootstrap percentile interval.
type Interval struct {
	Value, Lo, Hi float64
}

// PredictInterval is the prediction of tf at c with the percentile interval
// over the bootstrap samples (Lo = Hi = Value without samples), widened to
// hold the predictions of tf's rivals (fits the data cannot tell apart) and,
// beyond the data, the measured extrapolation error (Extrapolation).
func (tf *ThroughputFit) PredictInterval(c model.Config, level float64) Interval {
	scale := tf.IntervalScale
	if tf.scaleN > 0 {
		// t/z at the level asked, not the fit's
		scale = intervalScale(tf.scaleN, tf.scaleP, level)
	}
	iv := widen(nil, predictInterval(nil, tf.Family, tf.Theta, tf.Samples, scale, c, level), tf.Rivals, c)
	return widenBy(iv, tf.Extrapolation.Factor(c, level))
}

// predictInterval is f's steps/s at c over theta and its samples, widened
// by scale (sampleInterval), from s's sweeps when s is not nil.
func predictInterval(s *sweepMemo, f Family, theta []float64, samples [][]float64, scale float64, c model.Config, level float64) Interval {
	return sampleInterval(func(t []float64) float64 { return s.predict(f, t, c) }, theta, samples, scale, level)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// zQuantile is the standard normal quantile of a two-sided interval of
// coverage level.
func zQuantile(level float64) float64 { return distuv.UnitNormal.Quantile(1 - (1-level)/2) }

// effectiveParams is the number of parameter directions that the
// configurations of pts pin down at theta: the rank of the Jacobian of
// f's log predictions with each column scaled by its parameter's size
// (relative tolerance 1e-6, identification's test of a flat fit), leaving
// out the parameters held at a bound. For a mean family, the mean of its
// members' counts: each member is fitted on its own (the members' joint
// rank counted mean(ernest,overhead) on 6 configurations as 5 parameters,
// where each member has 3).
func effectiveParams(f Family, pts []Point, theta []float64) float64 {
	if len(f.Members) > 0 {
		sum := 0.0
		for i, th := range splitMembers(f, theta) {
			sum += effectiveParams(f.Members[i], pts, th)
		}
		return sum / float64(len(f.Members))
	}
	return float64(familyRank(f, pts, theta))
}

// familyRank is effectiveParams of a family that is not a mean.
func familyRank(f Family, pts []Point, theta []float64) int {
	if len(pts) == 0 || len(theta) == 0 {
		return 0
	}
	J := scaledLogJacobian(f, pts, theta)
	var cols []int
	for j, v := range theta {
		if v > f.Params[j].Lo && v < f.Params[j].Hi {
			cols = append(cols, j)
		}
	}
	if len(cols) == 0 {
		return 0
	}
	var svd mat.SVD
	if !svd.Factorize(columns(J, cols), mat.SVDThin) {
		return len(cols)
	}
	sv := svd.Values(nil)
	r := 0
	for _, s := range sv {
		if s > 1e-6*sv[0] {
			r++
		}
	}
	return r
}

// scaledLogJacobian is the Jacobian of f's log predictions at pts with
// column j scaled by |theta_j| (at least 1e-12): the sensitivity of log X
// to a relative change of each parameter.
func scaledLogJacobian(f Family, pts []Point, theta []float64) *mat.Dense {
	J := NumericJacobian(logPredictions(f, pts), theta)
	for j, v := range theta {
		sc := math.Max(math.Abs(v), 1e-12)
		for i := 0; i < len(pts); i++ {
			J.Set(i, j, J.At(i, j)*sc)
		}
	}
	return J
}
