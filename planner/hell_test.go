package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestHellIsSRPTOnSteepPowerLaws: on s(k) = k^p with p > 1/2 and one cap
// for every job, hell's value s(k)^2/(k r) rises with k, so it hands out
// srpt's allocation, and the simulations agree; at p = 0.4 the value falls
// with k and they part.
func TestHellIsSRPTOnSteepPowerLaws(t *testing.T) {
	for _, c := range []struct {
		p    float64
		same bool
	}{{0.8, true}, {0.6, true}, {0.4, false}} {
		jobs := overloadWorkload(200)
		for i := range jobs {
			jobs[i].Curve = PowerLaw{P: c.p}
		}
		s := Settings{Servers: 64, Integer: true}
		h, err := Simulate(jobs, Hell{}, s)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Simulate(jobs, SRPT{}, s)
		if err != nil {
			t.Fatal(err)
		}
		h.Policy, r.Policy = "", ""
		if got := reflect.DeepEqual(h, r); got != c.same {
			t.Errorf("p = %g: hell and srpt the same: %v, want %v (mean response %.6g, %.6g)", c.p, got, c.same, h.MeanResponse, r.MeanResponse)
		}
	}
}

// hellRef is Hell as it was before its power laws' s(k) were remembered
// from job to job and its scratch pooled: the reference TestHellSameAsRef
// holds Hell to.
type hellRef struct{}

func (hellRef) Name() string { return "hell" }
func (hellRef) ignoresRank() {}

func (hellRef) Allocate(n float64, jobs []View, alloc []float64) {
	m := len(jobs)
	done := make([]bool, m)
	var order []int
	left := n
	for left >= 1 && len(order) < m {
		best, bestK, bestV := -1, 0.0, math.Inf(-1)
		for i, v := range jobs {
			if done[i] {
				continue
			}
			k, val := hellBestRef(v, math.Min(v.Cap, math.Floor(left)))
			val *= v.Job.weight()
			if val > bestV {
				best, bestK, bestV = i, k, val
			}
		}
		if best < 0 {
			break
		}
		done[best] = true
		order = append(order, best)
		alloc[best] = bestK
		left -= bestK
	}
	for i := range jobs {
		if !done[i] {
			alloc[i] = 0
			order = append(order, i)
		}
	}
	spill(left, jobs, alloc, order)
}

func hellBestRef(v View, limit float64) (float64, float64) {
	if limit < 1 {
		return 0, math.Inf(-1)
	}
	c := v.Job.Curve
	val := func(k float64) float64 { s := c.Speedup(k); return s * s / (k * v.Remaining) }
	if pl, ok := c.(PowerLaw); ok {
		k := 1.0
		if pl.P > 0.5 {
			k = math.Floor(limit)
		}
		return k, val(k)
	}
	bestK, bestV := 1.0, val(1)
	for k := 2.0; k <= limit; k++ {
		x := val(k)
		if x <= bestV {
			break
		}
		bestK, bestV = k, x
	}
	return bestK, bestV
}

// TestHellSameAsRef: Hell gives bit for bit what hellRef gives, call after
// call on the same pooled scratch, on random instances (power laws of a few
// shared exponents, 0.5 and 1 among them, and of many; Amdahl-like, humped
// and kinked curves; caps whole and fractional; weights; remaining sizes
// with ties and now and then infinite; servers whole and fractional, below
// one too), and Simulate under Hell gives the same Result (%#v, every float
// to its last bit) as under hellRef on queueingWorkloads and on a Poisson
// stream on 500 servers with one exponent (the Philly trace's case), with
// ideal and whole shares, early stops, energy accounting and recorded
// segments.
func TestHellSameAsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	shared := []float64{0.3, 0.5, 0.8, 0.8, 0.95, 1}
	for trial := range 4000 {
		m := 1 + rng.IntN(30)
		n := randomServers(rng, trial)
		jobs, rem := randomJobs(rng, m, shared, func(j *Job) {
			if rng.IntN(4) == 0 {
				j.Weight = []float64{0.5, 2, 3, 1e-3}[rng.IntN(4)]
			}
		})
		if trial%40 == 7 {
			rem[0] = math.Inf(1)
		}
		vs := views(n, jobs, rem)
		for i := range vs {
			if rng.IntN(8) == 0 {
				vs[i].Cap = math.Min(vs[i].Cap, float64(rng.IntN(40))+0.5)
			}
		}
		got, want := make([]float64, m), make([]float64, m)
		Hell{}.Allocate(n, vs, got)
		hellRef{}.Allocate(n, vs, want)
		sameAllocBits(t, fmt.Sprintf("trial %d (n %g, %d jobs)", trial, n, m), got, want)
	}

	for name, w := range everyJobWorkloads(t) {
		sameSimulations(t, name, w.jobs, w.servers, Hell{}, hellRef{})
	}
}

// randomCurve draws a speedup curve for the policies' same-as-reference
// tests: a power law of one of the shared exponents (6 in 10), of any
// exponent in [0.2, 1), an Amdahl, a humped or a kinked curve (1 in 10
// each).
func randomCurve(rng *rand.Rand, shared []float64) Speedup {
	switch c := rng.IntN(10); {
	case c < 6:
		return PowerLaw{P: shared[rng.IntN(len(shared))]}
	case c < 7:
		return PowerLaw{P: 0.2 + 0.8*rng.Float64()}
	case c < 8:
		return amdahl{F: []float64{0.99, 0.95, 0.8}[rng.IntN(3)]}
	case c < 9:
		return hump{k0: float64(1 + rng.IntN(20))}
	default:
		return kinked{}
	}
}

// curvePtr is a curve behind a pointer, as a fitted model (*fit.Model) and
// the simulator's memoCurve are: Hell's rounds group the jobs that share
// one (hellCurveGroupOf).
type curvePtr struct{ c Speedup }

func (p *curvePtr) Speedup(k float64) float64 { return p.c.Speedup(k) }

// nearTie is sqrt(k (1 + 2^-52 (k mod 2))): s(k)^2/k is flat but for its
// last bits, and hellBestMemo's climb stops at 2 or 3 workers as the
// remaining size rounds (hellClimb is not sure of it).
type nearTie struct{}

func (nearTie) Speedup(k float64) float64 { return math.Sqrt(k * (1 + 0x1p-52*float64(int(k)%2))) }

// TestHellCurveGroups: Hell's rounds by groups of jobs on one curve other
// than a power law (hell_fill.go's curve groups) pick what hellRef picks,
// bit for bit, on jobs sharing two or three such curves (an Amdahl's law,
// a humped curve whose climb stops below the cap, a kinked one, and
// s = sqrt(k) and nearTie, whose steps are near ties, so that each of
// their jobs is valued) with
// a few power laws and value curves among them, remaining sizes equal or
// a few ulps apart or drawn at random, caps, weights and many rounds; and the simulator
// (which wraps shared curves in one memoCurve) gives the same Results.
func TestHellCurveGroups(t *testing.T) {
	curves := []Speedup{&curvePtr{amdahl{F: 0.95}}, &curvePtr{hump{k0: 6}}, &curvePtr{sqrtCurve{}}, &curvePtr{kinked{}}, &curvePtr{nearTie{}}}
	for _, c := range []struct {
		c    Speedup
		k    float64
		sure bool
	}{{curves[0], 19, true}, {curves[1], 3, true}, {curves[2], 1, false}, {curves[3], 4, true}, {curves[4], 1, false}} {
		if k, _, sure := hellClimb(c.c, 20); k != c.k || sure != c.sure {
			t.Errorf("%v: climb to %g, sure %v; want %g, %v", c.c.(*curvePtr).c, k, sure, c.k, c.sure)
		}
	}
	rng := rand.New(rand.NewPCG(37, 6))
	ties := 0
	for trial := range 3000 {
		m := 2 + rng.IntN(40)
		perm := rng.Perm(len(curves))
		shared := make([]Speedup, 2+rng.IntN(2))
		for i := range shared {
			shared[i] = curves[perm[i]]
		}
		jobs := make([]Job, m)
		rem := make([]float64, m)
		r0 := []float64{1000, 3, 1e-3, 7777.7, 1e6}[rng.IntN(5)]
		for i := range jobs {
			jobs[i].Curve = shared[rng.IntN(len(shared))]
			switch rng.IntN(12) {
			case 0:
				jobs[i].Curve = PowerLaw{P: 0.7}
			case 1:
				jobs[i].Curve = amdahl{F: 0.95} // a value: in no group
			}
			jobs[i].MaxWorkers = []int{0, 1, 3, 8}[rng.IntN(4)]
			if rng.IntN(3) == 0 {
				jobs[i].Weight = []float64{0.3, 3}[rng.IntN(2)]
			}
			r := r0 * []float64{1, 1, 1.5, 2}[rng.IntN(4)]
			if rng.IntN(3) == 0 {
				r = r0 * (1 + rng.Float64()) // where near ties round apart
			}
			for range rng.IntN(4) {
				r = math.Nextafter(r, math.Inf(1))
			}
			rem[i] = r
		}
		n := float64(1 + rng.IntN(60))
		if rng.IntN(4) == 0 {
			n += 0.5
		}
		vs := views(n, jobs, rem)
		got, want := make([]float64, m), make([]float64, m)
		Hell{}.Allocate(n, vs, got)
		hellRef{}.Allocate(n, vs, want)
		sameAllocBits(t, fmt.Sprintf("trial %d (n %g, %d jobs)", trial, n, m), got, want)
		if smallerAfterFirstOfGroup(jobs, vs, rem) {
			ties++
		}
	}
	if ties < 100 {
		t.Errorf("%d trials with a smaller size after the first job of its group", ties)
	}

	jobs := overloadWorkload(300)
	rng = rand.New(rand.NewPCG(37, 7))
	for i := range jobs {
		jobs[i].Curve = []Speedup{amdahl{F: 0.95}, hump{k0: 6}, nearTie{}}[rng.IntN(3)]
		jobs[i].MaxWorkers = []int{0, 4, 64}[rng.IntN(3)]
	}
	sameSimulations(t, "three shared curves", jobs, 64, Hell{}, hellRef{})
}

// smallerAfterFirstOfGroup reports whether a job after the first has a
// smaller remaining size in the first's group (the same cap, curve and
// weight): a trial where the group's best is not its first job, which the
// tests of hell's groups count.
func smallerAfterFirstOfGroup(jobs []Job, vs []View, rem []float64) bool {
	for i := 1; i < len(jobs); i++ {
		if rem[i] < rem[0] && vs[i].Cap == vs[0].Cap && jobs[i].Curve == jobs[0].Curve && jobs[i].Weight == jobs[0].Weight {
			return true
		}
	}
	return false
}

// TestHellMixedSameAsRef: on jobs of power laws and of shared models
// mixed in one instance (power laws of a few shared exponents, at and
// below 1/2 among them, and of any; two fitted-like models, an Amdahl's
// law and the near-tie curve behind shared pointers; an Amdahl's law as a
// value, in no group), with caps whole and fractional, weights, sizes
// equal, an ulp or so apart or drawn at random, and servers from under
// one to a few hundred, Hell's rounds (the plain first round, then the
// power-law groups, the curve groups and the jobs in no group against
// each other) give bit for bit what hellRef gives: every job valued anew
// in every round, by a climb written apart from hellBestMemo.
func TestHellMixedSameAsRef(t *testing.T) {
	models := []Speedup{&fittedLike{a: 0.01, b: 5e-4}, &fittedLike{a: 0.05, b: 0}, &curvePtr{amdahl{F: 0.95}}, &curvePtr{nearTie{}}}
	exps := []float64{0.3, 0.5, 0.7, 0.7, 0.9, 1}
	rng := rand.New(rand.NewPCG(41, 2))
	both := 0 // trials where a power law of p > 1/2 and a model both got whole workers
	for trial := range 5000 {
		m := 2 + rng.IntN(60)
		jobs := make([]Job, m)
		rem := make([]float64, m)
		r0 := []float64{100, 3600, 1e-2}[rng.IntN(3)]
		for i := range jobs {
			switch c := rng.IntN(10); {
			case c < 5:
				jobs[i].Curve = PowerLaw{P: exps[rng.IntN(len(exps))]}
			case c < 6:
				jobs[i].Curve = PowerLaw{P: 0.2 + 0.8*rng.Float64()}
			case c < 9:
				jobs[i].Curve = models[rng.IntN(len(models))]
			default:
				jobs[i].Curve = amdahl{F: 0.95}
			}
			jobs[i].MaxWorkers = []int{0, 1, 4, 16, 64}[rng.IntN(5)]
			if rng.IntN(4) == 0 {
				jobs[i].Weight = []float64{0.5, 2, 1e-3}[rng.IntN(3)]
			}
			r := r0 * []float64{1, 1, 2, 3}[rng.IntN(4)]
			if rng.IntN(3) == 0 {
				r = r0 * (1 + 9*rng.Float64())
			}
			for range rng.IntN(3) {
				r = math.Nextafter(r, math.Inf(1))
			}
			rem[i] = r
		}
		n := randomServers(rng, trial) / 4
		vs := views(n, jobs, rem)
		for i := range vs {
			if rng.IntN(10) == 0 {
				vs[i].Cap = math.Min(vs[i].Cap, float64(rng.IntN(20))+0.5)
			}
		}
		got, want := make([]float64, m), make([]float64, m)
		Hell{}.Allocate(n, vs, got)
		hellRef{}.Allocate(n, vs, want)
		sameAllocBits(t, fmt.Sprintf("trial %d (n %g, %d jobs)", trial, n, m), got, want)
		var pl, model bool
		for i, j := range jobs {
			if got[i] >= 1 {
				if p, ok := j.Curve.(PowerLaw); ok && p.P > 0.5 {
					pl = true
				} else if !ok && j.Curve != (amdahl{F: 0.95}) {
					model = true
				}
			}
		}
		if pl && model {
			both++
		}
	}
	if both < 500 {
		t.Errorf("%d trials where a power law and a model both got workers, want at least 500", both)
	}
}
