package fit

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sgdplan/sgdplan/model"
)

// Evidence beside the protocol's scores: whether the prediction intervals
// cover the measured values, what one more measured configuration buys, and
// how far fits that are equally good on the training points disagree on
// the test points.

// Coverage is how often the measured steps/s of a series' test points lie
// inside the intervals predicted for them.
type Coverage struct {
	Family string
	// Resamples is the number of bootstrap parameter vectors behind the
	// intervals (0: none, the interval is the point estimate).
	Resamples int
	// Points is the number of test points; Inside those whose measured
	// value lies in [Lo, Hi].
	Points, Inside int
	// Widths is (Hi - Lo) / Value of each test point's interval.
	Widths []float64
	// Assumed: the data could not measure the fit's extrapolation drift,
	// and its intervals widen by the prior's (Extrapolation.Assumed).
	Assumed bool
	Err     string
}

// Fraction is Inside/Points (NaN without points).
func (c Coverage) Fraction() float64 {
	if c.Points == 0 {
		return math.NaN()
	}
	return float64(c.Inside) / float64(c.Points)
}

// MedianWidth is the median of Widths (NaN without points).
func (c Coverage) MedianWidth() float64 { return Percentile(c.Widths, 0.5) }

// CountCoverage evaluates iv at every test point's configuration and counts
// the points whose measured steps/s lies inside [Lo, Hi] (ends included);
// an interval with a NaN end covers nothing.
func CountCoverage(test []Point, iv func(model.Config) Interval) Coverage {
	c := Coverage{Points: len(test)}
	for _, p := range test {
		in := iv(p.Config)
		if in.Lo <= p.StepsPerS && p.StepsPerS <= in.Hi {
			c.Inside++
		}
		c.Widths = append(c.Widths, (in.Hi-in.Lo)/in.Value)
	}
	return c
}

// CoverageAuto fits sgdplan's choice on s.Train as `sgdplan fit` does on a
// throughput table (FitThroughput with "auto" and settings, whose zero
// value means 200 bootstrap resamples and 90% intervals) and counts the
// test points inside tf.PredictInterval(c, level), the interval predict
// prints.
func CoverageAuto(s Series, settings Settings, level float64) Coverage {
	if settings.Level == 0 {
		settings.Level = level // the widening of the intervals depends on it
	}
	tf, _, err := FitThroughput(s.Train, "auto", &settings)
	if err != nil {
		return Coverage{Err: err.Error(), Points: len(s.Test)}
	}
	c := CountCoverage(s.Test, func(cfg model.Config) Interval { return tf.PredictInterval(cfg, level) })
	c.Family, c.Resamples = tf.Family.Name, len(tf.Samples)
	c.Assumed = tf.Extrapolation != nil && tf.Extrapolation.Assumed
	return c
}

// CoverageProfile is CoverageAuto for an async step-trace series (s.Runs):
// the step-level fit of `sgdplan fit --train-workers` on the runs with
// trainWorkers (bootstrap resamples, 0 = the default 200; level, 0 = 0.9),
// and the steps/s interval that predict prints (Model.Predict).
func CoverageProfile(s Series, trainWorkers []int, bootstrap int, level float64) Coverage {
	sf, err := fitFromStats(s.Runs, nil, 0, nil, StepOptions{TrainWorkers: trainWorkers, Bootstrap: bootstrap, Level: level})
	if err != nil {
		return Coverage{Err: err.Error(), Points: len(s.Test)}
	}
	m := sf.Model
	c := CountCoverage(s.Test, func(cfg model.Config) Interval { return m.Predict(cfg, math.NaN(), 0).StepsPerS })
	c.Family, c.Resamples = m.Family, len(m.Samples)
	c.Assumed = m.Extrapolation != nil && m.Extrapolation.Assumed
	return c
}

// OneMore is the protocol variant in which the training set of a public
// dataset's series also holds its smallest test configuration, one step
// larger than the protocol's profile:
//
//   - pollux-osdi21: the test rows on the fewest nodes (2) with the fewest
//     GPUs among them, every local batch;
//   - elasticflow-asplos23 and tf-cnn-benchmarks-2017: the test rows with
//     the fewest GPUs (16);
//   - dl2-mxnet-ps-speed: the test rows inside the block of the three
//     smallest worker counts x the three smallest PS counts of the series
//     (the 3 x 3 block; the protocol trains on its 2 x 2 corner), so five
//     configurations move.
//
// The moved points leave the test set; the rest of it is unchanged. The
// second result says what moved. It is an error for another dataset or
// when nothing would be left to test.
func OneMore(s Series) (Series, string, error) {
	var move func(p Point) bool
	var what string
	switch s.Dataset {
	case "pollux-osdi21":
		nodes := math.MaxInt
		for _, p := range s.Test {
			nodes = min(nodes, nodesOf(p.Config))
		}
		gpus := math.MaxInt
		for _, p := range s.Test {
			if nodesOf(p.Config) == nodes {
				gpus = min(gpus, p.Config.Workers)
			}
		}
		move = func(p Point) bool { return nodesOf(p.Config) == nodes && p.Config.Workers == gpus }
		what = fmt.Sprintf("%d GPUs on %d nodes", gpus, nodes)
	case "elasticflow-asplos23", "tf-cnn-benchmarks-2017":
		gpus := math.MaxInt
		for _, p := range s.Test {
			gpus = min(gpus, p.Config.Workers)
		}
		move = func(p Point) bool { return p.Config.Workers == gpus }
		what = fmt.Sprintf("%d GPUs", gpus)
	case "dl2-mxnet-ps-speed":
		all := append(append([]Point(nil), s.Train...), s.Test...)
		ws := smallestN(all, 3, func(p Point) int { return p.Config.Workers })
		ps := smallestN(all, 3, func(p Point) int { return p.Config.PS })
		move = func(p Point) bool { return slices.Contains(ws, p.Config.Workers) && slices.Contains(ps, p.Config.PS) }
		what = fmt.Sprintf("workers %s x ps %s", joinInts(ws), joinInts(ps))
	default:
		return Series{}, "", errorf("dataset %s has no one-more-configuration split", s.Dataset)
	}
	o := s
	o.Train = append([]Point(nil), s.Train...)
	o.Test = nil
	moved := map[string]bool{}
	for _, p := range s.Test {
		if move(p) {
			o.Train = append(o.Train, p)
			moved[p.Key()] = true
		} else {
			o.Test = append(o.Test, p)
		}
	}
	if len(moved) == 0 || len(o.Test) == 0 {
		return Series{}, "", errorf("%s: moving %s leaves %d test points", s.Name, what, len(o.Test))
	}
	return o, what, nil
}

// smallestN returns the n smallest distinct values of f over pts, ascending.
func smallestN(pts []Point, n int, f func(Point) int) []int {
	seen := map[int]bool{}
	var vs []int
	for _, p := range pts {
		if v := f(p); !seen[v] {
			seen[v] = true
			vs = append(vs, v)
		}
	}
	sort.Ints(vs)
	if len(vs) > n {
		vs = vs[:n]
	}
	return vs
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// Configurations is the number of distinct configurations in pts (Point.Key:
// workers, shards, nodes, link rate), the unit the fitter cross-validates
// and resamples.
func Configurations(pts []Point) int {
	keys, _ := configKeys(pts)
	return len(keys)
}

// Overparameterised reports whether the family has at least as many
// parameters as pts has configurations: then the training points cannot
// pin every parameter down.
func Overparameterised(family string, pts []Point) bool {
	f, ok := families[family]
	if !ok {
		panic("fit: Overparameterised: unknown family " + family)
	}
	return len(f.Params) >= Configurations(pts)
}

// SpreadSettings tunes EquallyGoodFits. The zero value means the defaults.
type SpreadSettings struct {
	// Starts is the number of random starting points; 0 means 100.
	Starts int
	// Sigma is the standard deviation of the log of the factor that
	// perturbs each parameter of a start; 0 means 1.5.
	Sigma float64
	// Seed seeds the starts; 0 means 1.
	Seed uint64
	// Tol keeps the fits whose training RMSLE is within Tol of the best
	// found; 0 means 0.002.
	Tol float64
}

// Spread is the range of test errors of the fits of one family that are
// equally good on a series' training points.
type Spread struct {
	Family          string
	Params, Configs int  // parameters; training configurations
	Over            bool // Params >= Configs
	// Fits is the number of converged starts, Kept those within Tol of
	// BestRMSLE.
	Fits, Kept int
	BestRMSLE  float64
	// Min, Median, Max: test MAPE (%) over the kept fits; Protocol: that
	// of the protocol's own fit of the family (its Guess starts).
	Min, Median, Max, Protocol float64
	// ProtocolStuck: the protocol's fit ended where it started (no LM
	// iteration was accepted from its best guess).
	ProtocolStuck bool
	// Refit is the test MAPE (%) of the protocol's fit redone with the
	// untouched parameters held (fitActive from the family's guesses, the
	// lowest training cost kept): what the protocol would score if LM
	// moved from those starts.
	Refit float64
	// Held names the parameters with no effect on the training points,
	// which every start keeps at its own value (see fitActive).
	Held []string
}

// logProblem is the least-squares problem of fitOnce: log residuals of f on
// pts within the family's bounds, 50 where a prediction is not positive
// and finite.
func logProblem(f Family, pts []Point) Problem {
	k := len(f.Params)
	lo := make([]float64, k)
	hi := make([]float64, k)
	for j, p := range f.Params {
		lo[j], hi[j] = p.Lo, p.Hi
	}
	return Problem{
		M: len(pts),
		Residuals: func(dst, th []float64) {
			for i, p := range pts {
				v := f.Predict(th, p.Config)
				if !(v > 0) || math.IsInf(v, 0) {
					dst[i] = 50
					continue
				}
				dst[i] = math.Log(v / p.StepsPerS)
			}
		},
		Lower: lo, Upper: hi,
	}
}

// activeParams reports, per parameter, whether changing it changes the
// residuals of prob at x (a Jacobian column that is not identically zero).
func activeParams(prob Problem, x []float64) []bool {
	J := NumericJacobian(prob, x)
	r, c := J.Dims()
	act := make([]bool, c)
	for j := 0; j < c; j++ {
		for i := 0; i < r; i++ {
			if J.At(i, j) != 0 {
				act[j] = true
				break
			}
		}
	}
	return act
}

// heldParams names the parameters of f with no effect on pts at x.
func heldParams(f Family, pts []Point, x []float64) []string {
	var out []string
	for j, a := range activeParams(logProblem(f, pts), x) {
		if !a {
			out = append(out, f.Params[j].Name)
		}
	}
	return out
}

// fitActive is the bounded LM of f on pts from x0 (MaxIter 100, as
// fitOnce) over the parameters that change the residuals at x0; the others
// (e.g. Optimus's per-shard term on data without shards, Pollux's network
// terms on one node) keep their start values. They cannot change the fit,
// and LevenbergMarquardt does not move from a start where the normal
// matrix has an all-zero row and column: its damped system is then too
// ill-conditioned to solve at every damping.
func fitActive(f Family, pts []Point, x0 []float64) (LMResult, error) {
	prob := logProblem(f, pts)
	act := activeParams(prob, x0)
	var idx []int
	for j, a := range act {
		if a {
			idx = append(idx, j)
		}
	}
	if len(idx) == 0 {
		return LMResult{}, errorf("%s: no parameter changes the fit", f.Name)
	}
	full := func(y []float64) []float64 {
		x := append([]float64(nil), x0...)
		for k, j := range idx {
			x[j] = y[k]
		}
		return x
	}
	sub := Problem{M: prob.M, Residuals: func(dst, y []float64) { prob.Residuals(dst, full(y)) }}
	y0 := make([]float64, len(idx))
	sub.Lower, sub.Upper = make([]float64, len(idx)), make([]float64, len(idx))
	for k, j := range idx {
		y0[k], sub.Lower[k], sub.Upper[k] = x0[j], prob.Lower[j], prob.Upper[j]
	}
	res, err := LevenbergMarquardt(sub, y0, &LMSettings{MaxIter: 100})
	if err != nil {
		return res, err
	}
	res.X = full(res.X)
	return res, nil
}

// EquallyGoodFits multi-starts the bounded LM of the named family on
// s.Train: the family's Guess points and Starts more, each a guess (in
// turn) with every parameter multiplied by exp(Sigma N(0,1)) from a fixed
// seed. It keeps the fits whose training RMSLE is within Tol of the best
// found and scores each on s.Test by the protocol's error (step time when
// s.TimeUnit). A wide range means the training points do not decide the
// extrapolation.
func EquallyGoodFits(s Series, family string, set SpreadSettings) (Spread, error) {
	f, ok := LookupFamily(family)
	if !ok {
		return Spread{}, errorf("unknown family %q", family)
	}
	if len(f.Members) > 0 {
		return Spread{}, errorf("%s is a mean family, fitted member by member: measure its members", family)
	}
	if set.Starts <= 0 {
		set.Starts = 100
	}
	if set.Sigma <= 0 {
		set.Sigma = 1.5
	}
	if set.Seed == 0 {
		set.Seed = 1
	}
	if set.Tol <= 0 {
		set.Tol = 0.002
	}
	sp := Spread{Family: family, Params: len(f.Params), Configs: Configurations(s.Train)}
	sp.Over = sp.Params >= sp.Configs
	guesses := f.Guess(s.Train)
	starts := append([][]float64(nil), guesses...)
	rng := newRand(set.Seed)
	for i := 0; i < set.Starts; i++ {
		g := guesses[i%len(guesses)]
		x := make([]float64, len(g))
		for j, v := range g {
			x[j] = v * math.Exp(set.Sigma*rng.NormFloat64())
		}
		starts = append(starts, x)
	}
	sp.Held = heldParams(f, s.Train, guesses[0])
	type one struct{ rmsle, mape float64 }
	var fits []one
	best := math.Inf(1)
	for _, x0 := range starts {
		res, err := fitActive(f, s.Train, x0)
		if err != nil {
			continue
		}
		r := rmsle(f, res.X, s.Train)
		if math.IsNaN(r) {
			continue
		}
		pred := func(c model.Config) float64 { return f.Predict(res.X, c) }
		m, _ := seriesError(s, pred)
		fits = append(fits, one{r, m})
		best = math.Min(best, r)
	}
	if len(fits) == 0 {
		return sp, errorf("%s on %s: no start converged", family, s.Name)
	}
	sp.Fits, sp.BestRMSLE = len(fits), best
	var kept []float64
	for _, x := range fits {
		if x.rmsle <= best+set.Tol {
			kept = append(kept, x.mape)
		}
	}
	sort.Float64s(kept)
	sp.Kept = len(kept)
	sp.Min, sp.Median, sp.Max = kept[0], Percentile(kept, 0.5), kept[len(kept)-1]
	sp.Protocol = math.NaN()
	if res, err := fitOnce(f, s.Train, nil); err == nil {
		sp.Protocol, _ = seriesError(s, func(c model.Config) float64 { return f.Predict(res.X, c) })
		sp.ProtocolStuck = res.Iter == 0
	}
	sp.Refit = math.NaN()
	bestCost := math.Inf(1)
	for _, x0 := range guesses {
		res, err := fitActive(f, s.Train, x0)
		if err == nil && res.Cost < bestCost {
			bestCost = res.Cost
			sp.Refit, _ = seriesError(s, func(c model.Config) float64 { return f.Predict(res.X, c) })
		}
	}
	return sp, nil
}

// rmsle is the root mean squared log error of f(theta) on pts (NaN when a
// prediction is not positive and finite).
func rmsle(f Family, theta []float64, pts []Point) float64 {
	ss := 0.0
	for _, p := range pts {
		v := f.Predict(theta, p.Config)
		if !(v > 0) || math.IsInf(v, 0) {
			return math.NaN()
		}
		r := math.Log(v / p.StepsPerS)
		ss += r * r
	}
	return math.Sqrt(ss / float64(len(pts)))
}
