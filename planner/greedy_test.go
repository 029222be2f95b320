package planner

import (
	"container/heap"
	"math"
	"math/rand/v2"
	"testing"
)

// greedyOneByOne is Greedy as it was before a lone job took its share at
// once: every worker through the heap. The reference Greedy must reproduce.
func greedyOneByOne(n float64, jobs []View, alloc []float64) {
	h := make(gainHeap, 0, len(jobs))
	for i := range jobs {
		alloc[i] = 0
		if jobs[i].Cap > 0 {
			h = append(h, gainItem{i: i, gain: math.Inf(1), rem: jobs[i].Remaining})
		}
	}
	heap.Init(&h)
	left := n
	for left > 0 && len(h) > 0 {
		top := h[0]
		v := jobs[top.i]
		unit := math.Min(1, math.Min(left, v.Cap-alloc[top.i]))
		alloc[top.i] += unit
		left -= unit
		if alloc[top.i] >= v.Cap {
			heap.Pop(&h)
			continue
		}
		k, c, r := alloc[top.i], v.Job.Curve, v.Remaining
		h[0].gain = v.Job.weight() * (r/c.Speedup(k) - r/c.Speedup(k+1))
		heap.Fix(&h, 0)
	}
}

// kinked is a curve that is not a power law (linear to 4 workers, then
// nearly flat).
type kinked struct{}

func (kinked) Speedup(k float64) float64 { return math.Min(k, 4+0.01*k) }

// compareGreedy draws an instance of m jobs on n servers (exponents from
// a set with ties; a cap up to maxCap on a third of them; weights 1-3 on a
// quarter; remaining work with ties; a kinked curve on an eighth when
// kink; the first job's cap fractional on every fifth trial) and checks
// that Greedy gives exactly what one worker at a time gives.
func compareGreedy(t *testing.T, rng *rand.Rand, trial, m int, n float64, maxCap int, kink bool) {
	t.Helper()
	ps := []float64{0.3, 0.5, 0.5, 0.8, 0.95, 1}
	jobs := make([]Job, m)
	rem := make([]float64, m)
	for i := range jobs {
		jobs[i] = Job{Curve: PowerLaw{P: ps[rng.IntN(len(ps))]}}
		if kink && rng.IntN(8) == 0 {
			jobs[i].Curve = kinked{}
		}
		if rng.IntN(3) == 0 {
			jobs[i].MaxWorkers = 1 + rng.IntN(maxCap)
		}
		if rng.IntN(4) == 0 {
			jobs[i].Weight = float64(1 + rng.IntN(3))
		}
		rem[i] = float64(100 * (1 + rng.IntN(5))) // ties on purpose
	}
	vs := views(n, jobs, rem)
	if trial%5 == 0 {
		vs[0].Cap = math.Min(vs[0].Cap, 2.5) // a fractional cap
	}
	got, want := make([]float64, m), make([]float64, m)
	Greedy{}.Allocate(n, vs, got)
	greedyOneByOne(n, vs, want)
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("trial %d (n %g, %d jobs): job %d gets %g, one by one %g\n got %v\nwant %v", trial, n, m, i, got[i], want[i], got, want)
		}
	}
}

// TestGreedySameAsOneByOne: on random instances (one job to twelve; ties in
// exponent, remaining work and weight; fractional servers and caps; a
// non-power-law job among power laws; caps that leave one job alone),
// Greedy's allocation equals the one-worker-at-a-time reference exactly.
func TestGreedySameAsOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 3000 {
		n := float64(1 + rng.IntN(3000))
		if trial%300 == 0 {
			n = float64(100000 + rng.IntN(900000)) // gains near rounding
		}
		if trial%3 == 0 {
			n += 0.5
		}
		compareGreedy(t, rng, trial, 1+rng.IntN(12), n, 2000, true)
	}
}

// TestGreedyPrefillSameAsOneByOne: on many servers (past greedyPrefillMin)
// with power laws only, where Greedy prefills every worker above a gain
// threshold, the allocation still equals one worker at a time exactly.
func TestGreedyPrefillSameAsOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := range 400 {
		n := float64(greedyPrefillMin + rng.IntN(60000))
		if trial%3 == 0 {
			n += 0.5
		}
		compareGreedy(t, rng, trial, 2+rng.IntN(30), n, 20000, false)
	}
}

// TestGreedyPrefillTinyExponent: with an exponent so small that the rounded
// gains of neighbouring workers no longer fall (k^2 times the rounding error
// above p), the prefill's bisection would cut at the wrong workers; Greedy
// must still give what one worker at a time gives.
func TestGreedyPrefillTinyExponent(t *testing.T) {
	for _, p := range []float64{1e-9, 1e-6, 1e-3} {
		jobs := []Job{{Curve: PowerLaw{P: p}}, {Curve: PowerLaw{P: p}}, {Curve: PowerLaw{P: p}}}
		vs := views(200000, jobs, []float64{100, 300, 700})
		got, want := make([]float64, 3), make([]float64, 3)
		Greedy{}.Allocate(200000, vs, got)
		greedyOneByOne(200000, vs, want)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("p %g: got %v, one by one %v", p, got, want)
			}
		}
	}
}
