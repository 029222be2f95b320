package planner

import (
	"math"
	"math/rand/v2"
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
