package planner

import (
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

// Rand implements SizeDist.
func (e Empirical) Rand(rng *rand.Rand) float64 { return e[rng.IntN(len(e))] }

// Poisson describes a stream of Count jobs arriving as a Poisson process of
// Rate jobs per second, with sizes from Sizes and the speedup curve Curve.
type Poisson struct {
	Rate       float64 // jobs/s, > 0
	Count      int     // > 0
	Sizes      SizeDist
	Curve      Speedup
	MaxWorkers int // 0: no cap
}

// Jobs draws the jobs, repeatably for a seed.
func (p Poisson) Jobs(seed uint64) ([]Job, error) {
	if !(p.Rate > 0) || p.Count <= 0 || p.Sizes == nil || p.Curve == nil {
		return nil, fmt.Errorf("planner: poisson workload: want rate > 0, count > 0, sizes and a curve; got rate %g, count %d", p.Rate, p.Count)
	}
	rng := rand.New(rand.NewPCG(seed, 0xa11))
	jobs := make([]Job, p.Count)
	t := 0.0
	for i := range jobs {
		t += rng.ExpFloat64() / p.Rate
		x := p.Sizes.Rand(rng)
		for !(x > 0) {
			x = p.Sizes.Rand(rng)
		}
		jobs[i] = Job{ID: fmt.Sprintf("j%d", i), Arrival: t, Size: x, Curve: p.Curve, MaxWorkers: p.MaxWorkers}
	}
	return jobs, nil
}
