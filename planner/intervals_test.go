package planner

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sumOneByOne is sumIntervals as the events did it: each interval added
// in turn.
func sumOneByOne(dts []float64, gone []int, age []float64, from, to []int) {
	for _, i := range gone {
		for _, d := range dts[from[i]:to[i]] {
			age[i] += d
		}
	}
}

// TestSumJumpsExact checks the sums that jump across binades (sumJumps)
// bit for bit against the intervals added one by one, on intervals made
// to hit its edges: ties (halves and whole numbers on coarse binades),
// zeros, -0, huge and tiny intervals, sums from 0, negative, subnormal
// and near the top of a binade, long and short windows.
func TestSumJumpsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 5))
	gens := []func() float64{
		func() float64 { return rng.ExpFloat64() * 40 },
		func() float64 { return float64(rng.IntN(8)) * 0.5 },
		func() float64 { return math.Round(rng.ExpFloat64()*1e6) / 1024 },
		func() float64 {
			switch rng.IntN(10) {
			case 0:
				return 0
			case 1:
				return math.Copysign(0, -1)
			case 2:
				return rng.ExpFloat64() * 1e15
			case 3:
				return rng.ExpFloat64() * 1e-300
			case 4:
				return math.Ldexp(1, rng.IntN(80)-40)
			}
			return rng.ExpFloat64()
		},
		func() float64 { return math.Ldexp(float64(rng.IntN(1<<20)), -rng.IntN(30)) },
	}
	starts := []func() float64{
		func() float64 { return 0 },
		func() float64 { return rng.Float64() * 100 },
		func() float64 { return -rng.Float64() * 1e3 },
		func() float64 { return 5e-324 },
		func() float64 { return math.Nextafter(math.Ldexp(1, rng.IntN(40)), 0) },
		func() float64 { return rng.ExpFloat64() * 1e9 },
	}
	for trial := 0; trial < 300; trial++ {
		gen := gens[trial%len(gens)]
		n := 1 + rng.IntN(6000)
		dts := make([]float64, n)
		for k := range dts {
			dts[k] = gen()
		}
		M := 1 + rng.IntN(400)
		from, to := make([]int, M), make([]int, M)
		age, want := make([]float64, M), make([]float64, M)
		gone := []int{}
		for i := range M {
			a := rng.IntN(n + 1)
			b := a + rng.IntN(n+1-a)
			if rng.IntN(3) == 0 {
				a = rng.IntN(1 + n/10)
				b = n - rng.IntN(1+n/10)
			}
			from[i], to[i] = a, b
			age[i] = starts[rng.IntN(len(starts))]()
			want[i] = age[i]
			if rng.IntN(8) != 0 {
				gone = append(gone, i)
			}
		}
		sumOneByOne(dts, gone, want, from, to)
		sumJumps(dts, gone, age, from, to)
		for i := range M {
			if math.Float64bits(age[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d job %d (%d..%d): %v (%x), added one by one %v (%x)",
					trial, i, from[i], to[i], age[i], math.Float64bits(age[i]), want[i], math.Float64bits(want[i]))
			}
		}
	}
}

// TestSumIntervalsExact: sumIntervals, whichever way it takes, gives the
// sums one by one, also where an interval is NaN or infinite.
func TestSumIntervalsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 33))
	jumped := 0
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.IntN(40000)
		if trial%2 == 0 {
			n = 20000 + rng.IntN(20000)
		}
		dts := make([]float64, n)
		for k := range dts {
			dts[k] = rng.ExpFloat64() * 40
		}
		if trial%5 == 4 {
			dts[rng.IntN(n)] = []float64{math.NaN(), math.Inf(1)}[trial%2]
		}
		M := 1 + rng.IntN(2000)
		if trial%2 == 0 {
			M = 1500
		}
		from, to := make([]int, M), make([]int, M)
		age, want := make([]float64, M), make([]float64, M)
		gone := make([]int, M)
		for i := range M {
			a := rng.IntN(n + 1)
			from[i], to[i] = a, a+rng.IntN(n+1-a)
			if trial%2 == 0 {
				from[i], to[i] = rng.IntN(1+n/4), n-rng.IntN(1+n/4)
			}
			age[i] = rng.Float64()
			want[i] = age[i]
			gone[i] = i
		}
		total := 0
		for _, i := range gone {
			if to[i]-from[i] >= jumpMin {
				total += to[i] - from[i]
			}
		}
		if total >= jumpFactor*n && jumpable(dts) {
			jumped++
		}
		sumOneByOne(dts, gone, want, from, to)
		sumIntervals(dts, gone, age, from, to)
		for i := range M {
			if math.Float64bits(age[i]) != math.Float64bits(want[i]) && !(age[i] != age[i] && want[i] != want[i]) {
				t.Fatalf("trial %d job %d: %v, one by one %v", trial, i, age[i], want[i])
			}
		}
	}
	if jumped < 5 {
		t.Fatalf("%d trials jumped, want 5 or more", jumped)
	}
}
