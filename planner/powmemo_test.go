package planner

import (
	"math"
	"math/rand/v2"
	"testing"
)

// powMemo gives PowerLaw's s(k) bit for bit on interleaved exponents, more
// of them than it remembers (past powMemoSize it evaluates each time), with
// 0, -0, NaN and infinities among exponents and counts; and it remembers at
// most powMemoSize of them.
func TestPowMemoSameValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	ps := []float64{0, math.Copysign(0, -1), math.NaN(), 1}
	for i := range 20 {
		ps = append(ps, 0.3+0.035*float64(i))
	}
	ks := []float64{1, 2, 2.5, 64, 500, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1), 166.66666666666666}
	var memo powMemo
	for range 50000 {
		pl := PowerLaw{P: ps[rng.IntN(len(ps))]}
		k := ks[rng.IntN(len(ks))]
		got, want := memo.speedup(pl, k), pl.Speedup(k)
		if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
			t.Fatalf("k^%v at k = %v: %v, PowerLaw gives %v", pl.P, k, got, want)
		}
	}
	if len(memo.last) != powMemoSize {
		t.Errorf("%d exponents remembered, want %d (24 offered)", len(memo.last), powMemoSize)
	}
}

// Hell's allocation on jobs of five interleaved exponents is the one it
// gives with each job's curve asked directly, through a memo that never
// remembers (hidden in a type that is not a PowerLaw, hellBestMemo climbs
// s(k)^2/k instead, so the same exponents are checked on both paths where
// the climb and the closed form agree: exponents away from 1/2).
func TestHellMixedExponentsSameAllocation(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	for _, n := range []float64{16, 64, 1000} {
		var jobs, hidden []Job
		rem := []float64{}
		for i := range 200 {
			pl := PowerLaw{P: []float64{0.8, 0.3, 0.95, 1, 0.6}[i%5]}
			jobs = append(jobs, Job{Curve: pl, MaxWorkers: 1 + rng.IntN(64)})
			hidden = append(hidden, Job{Curve: hiddenPower{pl}, MaxWorkers: jobs[i].MaxWorkers})
			rem = append(rem, 3600*(1+99*rng.Float64()))
		}
		a, b := make([]float64, len(jobs)), make([]float64, len(jobs))
		Hell{}.Allocate(n, views(n, jobs, rem), a)
		Hell{}.Allocate(n, views(n, hidden, rem), b)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%g servers, job %d (k^%v): %v workers, %v with the curve asked directly", n, i, jobs[i].Curve, a[i], b[i])
			}
		}
	}
}
