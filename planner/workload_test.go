package planner

import (
	"errors"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

// TestEmpiricalUniform: Empirical resamples its sizes uniformly, so each of
// k sizes comes up n/k times in n draws, binomially: of 30,000 draws from
// 3 sizes, 10,000 each with standard deviation sqrt(30000 (1/3)(2/3)) =
// 81.6; each count within 5 deviations (408) of 10,000. One size is
// always that size.
func TestEmpiricalUniform(t *testing.T) {
	sizes := Empirical{60, 3600, 86400}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 30000
	count := map[float64]int{}
	for range n {
		count[sizes.Rand(rng)]++
	}
	sd := math.Sqrt(n * (1.0 / 3) * (2.0 / 3))
	for _, s := range sizes {
		if d := math.Abs(float64(count[s]) - n/3.0); d > 5*sd {
			t.Errorf("size %g drawn %d times of %d, want %d ± %.0f", s, count[s], n, n/3, 5*sd)
		}
	}
	if len(count) != len(sizes) {
		t.Errorf("drew %v, want only the sizes %v", count, sizes)
	}
	if v := (Empirical{42}).Rand(rng); v != 42 {
		t.Errorf("one size: drew %g, want 42", v)
	}
}

// TestPoissonGapsAndSizes: Poisson arrivals at rate r have exponential
// gaps of mean 1/r (standard deviation 1/r too), so the mean of n gaps is
// 1/r ± 1/(r sqrt(n)); with Exponential sizes of mean m, the mean size is
// m ± m/sqrt(n). Of 20,000 jobs at 4 jobs/s with mean size 30 s: the mean
// gap 0.25 s within 5 standard errors (0.0088 s), the mean size 30 s
// within 5 (1.06 s); arrivals increasing from the first gap.
func TestPoissonGapsAndSizes(t *testing.T) {
	const n, rate, mean = 20000, 4.0, 30.0
	jobs, err := Poisson{Rate: rate, Count: n, Sizes: Exponential{Mean: mean}, Curve: PowerLaw{P: 0.5}}.Jobs(3)
	if err != nil {
		t.Fatal(err)
	}
	prev, sizes := 0.0, 0.0
	for _, j := range jobs {
		if !(j.Arrival > prev) {
			t.Fatalf("job %s arrives at %g, not after %g", j.ID, j.Arrival, prev)
		}
		prev = j.Arrival
		sizes += j.Size
	}
	gap := jobs[n-1].Arrival / n // the sum of the n gaps from 0
	if se := 1 / (rate * math.Sqrt(n)); math.Abs(gap-1/rate) > 5*se {
		t.Errorf("mean gap %.5g s, want %g ± %.3g", gap, 1/rate, 5*se)
	}
	if se := mean / math.Sqrt(n); math.Abs(sizes/n-mean) > 5*se {
		t.Errorf("mean size %.5g s, want %g ± %.3g", sizes/n, mean, 5*se)
	}
}

// A late arrival's message quotes its time exactly: to 4 digits, an arrival
// just past MaxTime read "arrives at 1e+12 s", which is not past it.
func TestPoissonLateArrivalQuotesTime(t *testing.T) {
	w := Poisson{Rate: 1e-9, Count: 1000, Sizes: Exponential{Mean: 1}, Curve: PowerLaw{P: 0.5}}
	at := regexp.MustCompile(`arrives at (\S+) s`)
	late := 0
	for seed := uint64(1); seed <= 20; seed++ {
		_, err := w.Jobs(seed)
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrLateArrival) {
			t.Fatalf("seed %d: %v", seed, err)
		}
		late++
		m := at.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("seed %d: no time in %q", seed, err)
		}
		if v, perr := strconv.ParseFloat(m[1], 64); perr != nil || !(v > MaxTime) {
			t.Errorf("seed %d: the time quoted, %s, is not past MaxTime: %q", seed, m[1], err)
		}
	}
	if late == 0 {
		t.Fatal("no seed of 20 passed MaxTime at Count / MaxTime: pick another rate")
	}
}
