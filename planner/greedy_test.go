package planner

import (
	"container/heap"
	"fmt"
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

// greedyHeapRef is greedy as it was before it kept s(k+1) for the next step,
// tables of power laws and a hand-sifted heap (2026-12-05): container/heap,
// two curve evaluations per worker. greedy must reproduce it bit for bit,
// the NaN report included.
func greedyHeapRef(n float64, jobs []View, alloc []float64) (nan bool) {
	h := make(gainHeap, 0, len(jobs))
	left := n
	for i := range jobs {
		alloc[i] = 0
	}
	if n >= greedyPrefillMin {
		left -= greedyPrefill(n, jobs, alloc)
	}
	for i := range jobs {
		if v := jobs[i]; v.Cap > alloc[i] {
			g := math.Inf(1)
			if k := alloc[i]; k > 0 {
				g = v.Job.weight() * (v.Remaining/v.Job.Curve.Speedup(k) - v.Remaining/v.Job.Curve.Speedup(k+1))
				nan = nan || g != g
			}
			h = append(h, gainItem{i: i, gain: g, rem: v.Remaining})
		}
	}
	heap.Init(&h)
	for left > 0 && len(h) > 0 {
		top := h[0]
		v := jobs[top.i]
		unit := math.Min(1, math.Min(left, v.Cap-alloc[top.i]))
		if len(h) == 1 {
			unit = math.Min(left, v.Cap-alloc[top.i]) // no rival
		}
		alloc[top.i] += unit
		left -= unit
		if alloc[top.i] >= v.Cap {
			heap.Pop(&h)
			continue
		}
		k, c, r := alloc[top.i], v.Job.Curve, v.Remaining
		h[0].gain = v.Job.weight() * (r/c.Speedup(k) - r/c.Speedup(k+1))
		nan = nan || h[0].gain != h[0].gain
		heap.Fix(&h, 0)
	}
	return nan
}

// TestGreedySameAsHeapRef: on many random instances (power laws of a few
// exponents, shared or not, and more exponents than greedy keeps tables
// for; Amdahl-like and kinked curves; caps whole and fractional; weights;
// servers whole and fractional, below and past greedyPrefillMin; ties of
// remaining size; now and then an infinite remaining size, whose NaN gains
// leave the heap's order partial), greedy gives bit for bit what
// greedyHeapRef gives and reports NaN alike, call after call on the same
// reused scratch.
func TestGreedySameAsHeapRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	shared := []float64{0.3, 0.5, 0.8, 0.8, 0.95, 1, 0}
	for trial := range 6000 {
		m := 1 + rng.IntN(40)
		var n float64
		switch trial % 10 {
		case 0:
			n = float64(greedyPrefillMin + rng.IntN(20000)) // the prefill
		case 1:
			n = 0.25 + 5*rng.Float64() // fractional, few
		default:
			n = float64(1 + rng.IntN(1500))
		}
		if trial%3 == 0 {
			n += 0.5
		}
		jobs := make([]Job, m)
		rem := make([]float64, m)
		for i := range jobs {
			switch c := rng.IntN(10); {
			case c < 6:
				jobs[i].Curve = PowerLaw{P: shared[rng.IntN(len(shared))]}
			case c < 8:
				jobs[i].Curve = PowerLaw{P: 0.2 + 0.8*rng.Float64()} // many exponents
			case c < 9:
				jobs[i].Curve = amdahl{F: []float64{0.99, 0.95, 0.95, 0.8}[rng.IntN(4)]} // numeric_test.go
			default:
				jobs[i].Curve = kinked{}
			}
			if rng.IntN(3) == 0 {
				jobs[i].MaxWorkers = 1 + rng.IntN(300)
			}
			if rng.IntN(4) == 0 {
				jobs[i].Weight = []float64{0.5, 2, 3, 1e-3}[rng.IntN(4)]
			}
			rem[i] = float64(100 * (1 + rng.IntN(4))) // ties on purpose
			if rng.IntN(3) == 0 {
				rem[i] = 3600 * rng.Float64()
			}
			if trial%50 == 7 && i == 0 {
				rem[i] = math.Inf(1)
			}
		}
		vs := views(n, jobs, rem)
		for i := range vs {
			if rng.IntN(8) == 0 {
				vs[i].Cap = math.Min(vs[i].Cap, float64(rng.IntN(40))+0.5) // fractional caps
			}
		}
		got, want := make([]float64, m), make([]float64, m)
		for i := range got {
			got[i] = -1 // greedy must clear what it does not give
		}
		gotNaN := greedy(n, vs, got)
		wantNaN := greedyHeapRef(n, vs, want)
		if gotNaN != wantNaN {
			t.Fatalf("trial %d: NaN %v, reference %v", trial, gotNaN, wantNaN)
		}
		sameAllocBits(t, fmt.Sprintf("trial %d (n %g, %d jobs)", trial, n, m), got, want)
	}
}
