package planner

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// SizeDist draws job sizes, in seconds on one worker.
type SizeDist interface {
	Rand(rng *rand.Rand) float64
}

// Exponential sizes with mean Mean s.
type Exponential struct{ Mean float64 }

// Rand implements SizeDist.
func (e Exponential) Rand(rng *rand.Rand) float64 { return e.Mean * rng.ExpFloat64() }

// LogNormal sizes: exp(Mu + Sigma Z), Z standard normal.
type LogNormal struct{ Mu, Sigma float64 }

// Rand implements SizeDist.
func (l LogNormal) Rand(rng *rand.Rand) float64 { return math.Exp(l.Mu + l.Sigma*rng.NormFloat64()) }

// Empirical resamples the given sizes uniformly (sizes of a real trace).
type Empirical []float64

// Rand implements SizeDist: NaN for no sizes, which Poisson.Jobs refuses
// (an empty Empirical panicked in rand.IntN).
func (e Empirical) Rand(rng *rand.Rand) float64 {
	if len(e) == 0 {
		return math.NaN()
	}
	return e[rng.IntN(len(e))]
}

// MaxPoissonJobs is the most jobs Poisson.Jobs draws: a stream of 10
// million jobs is far past what a simulation needs for steady-state means
// (the benchmarks use 100,000), and a larger Count would only exhaust the
// memory.
const MaxPoissonJobs = 10_000_000

// maxSizeDraws is how many draws Poisson.Jobs makes for one job before it
// gives up on a size distribution that yields no size > 0 (a lognormal
// whose sizes underflow to 0, say).
const maxSizeDraws = 1000

// Poisson describes a stream of Count jobs arriving as a Poisson process of
// Rate jobs per second, with sizes from Sizes and the speedup curve Curve.
type Poisson struct {
	Rate       float64 // jobs/s, > 0 and finite; below Count / MaxTime the arrivals pass MaxTime
	Count      int     // 1..MaxPoissonJobs
	Sizes      SizeDist
	Curve      Speedup
	MaxWorkers int // 0: no cap
}

// ErrLateArrival reports a Poisson workload whose arrivals run past
// MaxTime, the latest arrival jobs.csv takes: a rate too low for its Count
// jobs (at 1e-308 jobs/s the arrivals were +Inf, and Simulate refused the
// first as "arrival +Inf, want >= 0").
var ErrLateArrival = errors.New("planner: poisson workload: an arrival past MaxTime")

// Jobs draws the jobs, repeatably for a seed. A size that is not finite, a
// distribution that yields no size > 0 in 1000 draws, or an arrival past
// MaxTime (ErrLateArrival; a rate of Count / MaxTime jobs/s has the last
// arrival there on average) is an error.
func (p Poisson) Jobs(seed uint64) ([]Job, error) {
	if !(p.Rate > 0) || math.IsInf(p.Rate, 0) || p.Count <= 0 || p.Sizes == nil || p.Curve == nil {
		return nil, fmt.Errorf("planner: poisson workload: want a finite rate > 0, count > 0, sizes and a curve; got rate %g, count %d", p.Rate, p.Count)
	}
	if p.Count > MaxPoissonJobs {
		return nil, fmt.Errorf("planner: poisson workload: count %d, want at most %d jobs (MaxPoissonJobs)", p.Count, MaxPoissonJobs)
	}
	rng := rand.New(rand.NewPCG(seed, 0xa11))
	jobs := make([]Job, p.Count)
	t := 0.0
	for i := range jobs {
		if t += rng.ExpFloat64() / p.Rate; !(t <= MaxTime) {
			return nil, fmt.Errorf("%w (%g s): job \"j%d\" (%d of %d) arrives at %v s at %g jobs/s: want a rate well above Count / MaxTime = %g jobs/s, which has the last arrival at MaxTime on average",
				ErrLateArrival, float64(MaxTime), i, i+1, p.Count, t, p.Rate, float64(p.Count)/MaxTime)
		}
		x := p.Sizes.Rand(rng)
		for d := 1; !(x > 0); d++ {
			if d == maxSizeDraws {
				return nil, fmt.Errorf("planner: poisson workload: job %d: no size > 0 in %d draws of %+v (sizes underflow to 0?)", i, maxSizeDraws, p.Sizes)
			}
			x = p.Sizes.Rand(rng)
		}
		if math.IsInf(x, 0) {
			return nil, fmt.Errorf("planner: poisson workload: job %d: size %g drawn from %+v: want a finite size", i, x, p.Sizes)
		}
		jobs[i] = Job{ID: fmt.Sprintf("j%d", i), Arrival: t, Size: x, Curve: p.Curve, MaxWorkers: p.MaxWorkers}
	}
	return jobs, nil
}
