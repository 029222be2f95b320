package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Goal is what a training job must achieve, for the time to target
//
//	T(N, P) = U(N, P) / X(N, P)
//
// with X the throughput model's steps per second and U the steps (updates)
// to target:
//
//   - With a target loss: U = Curve'.UpdatesTo(TargetLoss) times
//     GNS.StepsRatio(global batch), where Curve' is Curve with its rate B0
//     slowed by Law at the model's mean staleness (see Stalenesser; zero for
//     synchronous models).
//   - Without one but with Epochs: U = Epochs Dataset / samples per step.
//
// The zero Goal has no target: Evaluate and Sweep then give throughput and
// a speedup in samples per second, without updates or time.
type Goal struct {
	TargetLoss float64      // loss unit; 0: no loss target
	Curve      LossCurve    // loss over global updates without staleness, at GNS.RefBatch
	Law        StalenessLaw // zero: staleness costs nothing
	GNS        GNS          // zero: the global batch does not change the updates
	Epochs     float64      // passes over Dataset when TargetLoss is 0
	Dataset    float64      // samples per epoch
	Batch      float64      // samples per step for models that do not say (see SamplesPerStep)
}

// ErrNoTarget is returned by Goal.Updates and Goal.Time for a Goal with
// neither a target loss nor epochs.
var ErrNoTarget = errors.New("model: no target: give a target loss or epochs")

// HasTarget reports whether g says when training is done.
func (g Goal) HasTarget() bool { return g.TargetLoss != 0 || g.Epochs > 0 }

// Updates returns U, the steps of m to reach the target at c.
func (g Goal) Updates(m Throughput, c Config) (float64, error) {
	switch {
	case g.TargetLoss != 0:
		tau := StalenessOf(m, c)
		u, err := g.Law.Apply(g.Curve, tau).UpdatesTo(g.TargetLoss)
		if err != nil {
			return u, err
		}
		if g.GNS.RefBatch > 0 {
			b := SamplesPerStep(m, c, g.Batch)
			if b <= 0 {
				return math.NaN(), fmt.Errorf("model: Goal: the batch-size efficiency needs the samples per step of %T at %+v: set the batch", m, c)
			}
			u *= g.GNS.StepsRatio(b)
		}
		return u, nil
	case g.Epochs > 0:
		b := SamplesPerStep(m, c, g.Batch)
		if b <= 0 {
			return math.NaN(), fmt.Errorf("model: Goal: epochs need the samples per step of %T at %+v: set the batch", m, c)
		}
		if !(g.Dataset > 0) {
			return math.NaN(), fmt.Errorf("model: Goal: epochs need the dataset size, got %g samples", g.Dataset)
		}
		return g.Epochs * g.Dataset / b, nil
	}
	return math.NaN(), ErrNoTarget
}

// Time returns T = U/X in seconds, the time to target of m at c.
func (g Goal) Time(m Throughput, c Config) (float64, error) {
	u, err := g.Updates(m, c)
	if err != nil {
		return u, err
	}
	return u / m.StepsPerSecond(c), nil
}

// Point is the prediction at one configuration.
type Point struct {
	Config
	StepsPerSecond   float64 // steps/s (updates/s for asynchronous models)
	SamplesPerSecond float64 // samples/s; 0 when the samples per step are unknown
	Staleness        float64 // updates, mean staleness (0 for synchronous models)
	Timed            bool    // whether Updates and Time are known (the Goal has a target)
	Updates          float64 // steps to target; 0 when not Timed
	Time             float64 // s to target; 0 when not Timed
	Speedup          float64 // s(N) = T(1)/T(N) at the same shards; with no target, samples/s over samples/s at N = 1
	Efficiency       float64 // Speedup / Workers
}

// Evaluate returns the prediction of m for g at c, Speedup and Efficiency
// left 0 (Sweep fills them).
func Evaluate(m Throughput, g Goal, c Config) (Point, error) {
	x := m.StepsPerSecond(c)
	if !(x > 0) || math.IsInf(x, 0) {
		return Point{}, fmt.Errorf("model: %T at %+v: %g steps/s, want a finite positive rate", m, c, x)
	}
	p := Point{Config: c, StepsPerSecond: x, Staleness: StalenessOf(m, c)}
	if b := SamplesPerStep(m, c, g.Batch); b > 0 {
		p.SamplesPerSecond = x * b
	}
	if g.HasTarget() {
		u, err := g.Updates(m, c)
		if err != nil {
			return Point{}, err
		}
		if !(u > 0) {
			// a target at or above the curve's start: 0 updates, a time
			// of 0 and speedups 0/0 (NaN) with no error
			return Point{}, fmt.Errorf("model: Goal at %+v: %g updates to the target: a target loss at or above the loss at the start is reached before any update, and no time or speedup follows", c, u)
		}
		p.Timed, p.Updates, p.Time = true, u, u/x
	}
	return p, nil
}

// work returns the rate of progress that speedups compare: 1/T when timed,
// else samples per second (steps per second times the samples per step, the
// samples taken as 1 when unknown: they are then the same at every N).
func (p Point) work(m Throughput, g Goal) float64 {
	if p.Timed {
		return 1 / p.Time
	}
	b := SamplesPerStep(m, p.Config, g.Batch)
	if b <= 0 {
		b = 1
	}
	return p.StepsPerSecond * b
}

// Scaling says how a configuration grows with the number of workers N.
type Scaling struct {
	PS      int     // shards at every N (0: none, or one for families with shards)
	PerNode int     // workers per machine; 0: one worker per machine
	Batch   float64 // per-worker batch, samples; 0: the model's own
}

// At returns the configuration with n workers.
func (s Scaling) At(n int) Config {
	c := Config{Workers: n, PS: s.PS, Batch: s.Batch}
	if s.PerNode > 0 {
		c.Nodes = (n + s.PerNode - 1) / s.PerNode
	}
	return c
}

// Sweep evaluates m for g at s.At(n) for every n in ns (ascending, distinct,
// each >= 1), and the speedup s(N) = T(1)/T(N) and efficiency s(N)/N
// against N = 1 with the same shards, whether or not ns holds 1.
func Sweep(m Throughput, g Goal, s Scaling, ns []int) ([]Point, error) {
	if len(ns) == 0 {
		return nil, errors.New("model: Sweep: no worker counts")
	}
	for i, n := range ns {
		if n < 1 || (i > 0 && n <= ns[i-1]) {
			return nil, fmt.Errorf("model: Sweep: worker counts %v: want ascending, distinct, >= 1", ns)
		}
	}
	ref, err := Evaluate(m, g, s.At(1))
	if err != nil {
		return nil, err
	}
	w1 := ref.work(m, g)
	pts := make([]Point, len(ns))
	for i, n := range ns {
		p, err := Evaluate(m, g, s.At(n))
		if err != nil {
			return nil, err
		}
		p.Speedup = p.work(m, g) / w1
		p.Efficiency = p.Speedup / float64(n)
		pts[i] = p
	}
	return pts, nil
}

// Range returns the worker counts lo, lo+1, ..., hi.
func Range(lo, hi int) []int {
	ns := make([]int, 0, max(hi-lo+1, 0))
	for n := lo; n <= hi; n++ {
		ns = append(ns, n)
	}
	return ns
}

// Knee returns the knee of a sweep by the marginal-gain rule: the smallest N
// in pts (ascending in Workers) from which going to the next N raises the
// speedup by less than alpha per added worker, (s(N') - s(N))/(N' - N) <
// alpha; alpha = 1 is the gain of linear speedup, alpha = 0.5 "a new worker
// adds less than half a worker". It returns the last N and false when every
// step gains at least alpha, and 0 and false for no points.
func Knee(pts []Point, alpha float64) (int, bool) {
	for i := 0; i+1 < len(pts); i++ {
		dn := float64(pts[i+1].Workers - pts[i].Workers)
		if (pts[i+1].Speedup-pts[i].Speedup)/dn < alpha {
			return pts[i].Workers, true
		}
	}
	if len(pts) == 0 {
		return 0, false
	}
	return pts[len(pts)-1].Workers, false
}

// MaxEfficient returns the largest N in pts whose efficiency s(N)/N is at
// least floor, and false when there is none.
func MaxEfficient(pts []Point, floor float64) (int, bool) {
	for i := len(pts) - 1; i >= 0; i-- {
		if pts[i].Efficiency >= floor {
			return pts[i].Workers, true
		}
	}
	return 0, false
}

// BestTime returns the point of pts with the highest speedup (so the
// shortest time to target), the smallest N on ties. It panics on no points.
func BestTime(pts []Point) Point {
	return slices.MinFunc(pts, func(a, b Point) int {
		if a.Speedup != b.Speedup {
			if a.Speedup > b.Speedup {
				return -1
			}
			return 1
		}
		return a.Workers - b.Workers
	})
}

// BestCost returns the point of pts with the fewest worker-seconds to target,
// N T(N) = T(1) N/s(N), the smallest N on ties (N = 1 when the speedup is
// never superlinear). Shards are not counted. It panics on no points.
func BestCost(pts []Point) Point {
	cost := func(p Point) float64 { return float64(p.Workers) / p.Speedup }
	return slices.MinFunc(pts, func(a, b Point) int {
		ca, cb := cost(a), cost(b)
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
		return a.Workers - b.Workers
	})
}

// SpeedupCurve is a speedup curve tabulated at the integers: S[k-1] = s(k)
// for k = 1..len(S). It is what the planner consumes.
type SpeedupCurve struct {
	S []float64 // s(1), s(2), ...; s(1) is normally 1
}

// SpeedupCurveOf sweeps m for g over N = 1..maxN and returns its speedup
// curve.
func SpeedupCurveOf(m Throughput, g Goal, s Scaling, maxN int) (SpeedupCurve, error) {
	if maxN < 1 {
		return SpeedupCurve{}, fmt.Errorf("model: SpeedupCurveOf: maxN = %d, want >= 1", maxN)
	}
	pts, err := Sweep(m, g, s, Range(1, maxN))
	if err != nil {
		return SpeedupCurve{}, err
	}
	c := SpeedupCurve{S: make([]float64, maxN)}
	for i, p := range pts {
		c.S[i] = p.Speedup
	}
	return c, nil
}

// Speedup returns s(k) for a real k, interpolating linearly between the
// integers, from (0, 0) to (1, s(1)) below 1, and flat at s(len(S)) beyond
// the table (no extrapolation). It is 0 for k <= 0 and for an empty curve.
func (c SpeedupCurve) Speedup(k float64) float64 {
	n := len(c.S)
	switch {
	case k <= 0 || n == 0:
		return 0
	case k < 1:
		return k * c.S[0]
	case k >= float64(n):
		return c.S[n-1]
	}
	i := int(k) // 1 <= i < n
	f := k - float64(i)
	return c.S[i-1] + f*(c.S[i]-c.S[i-1])
}

// Monotone returns the curve with s(k) replaced by max_{j<=k} s(j): a job
// given k workers can leave the extra ones idle, so adding workers never
// slows it.
func (c SpeedupCurve) Monotone() SpeedupCurve {
	out := SpeedupCurve{S: slices.Clone(c.S)}
	for i := 1; i < len(out.S); i++ {
		out.S[i] = max(out.S[i], out.S[i-1])
	}
	return out
}

// Knee returns the smallest k from which one more worker raises the speedup
// by less than alpha, s(k+1) - s(k) < alpha, and len(S) when there is none.
func (c SpeedupCurve) Knee(alpha float64) int {
	for i := 0; i+1 < len(c.S); i++ {
		if c.S[i+1]-c.S[i] < alpha {
			return i + 1
		}
	}
	return len(c.S)
}

// Validate reports an empty curve or a negative or non-finite value.
func (c SpeedupCurve) Validate() error {
	if len(c.S) == 0 {
		return errors.New("model: SpeedupCurve: empty")
	}
	for i, v := range c.S {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("model: SpeedupCurve: s(%d) = %g, want a finite value >= 0", i+1, v)
		}
	}
	return nil
}
