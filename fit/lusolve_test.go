package fit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLUSolverMatchesSolveVec: where luSolver solves, its solution is
// SolveVec's bit for bit, on damped normal matrices like the solver's
// (JᵀJ of random Jacobians with columns of very different scales, zeros
// and negative zeros among their elements, the diagonal damped), on
// general and nearly singular matrices, and on sizes 1 to 9; where it
// declines (a zero pivot, a pivot below the smallest normal, an element
// that is not finite), SolveVec takes another road (checked for the zero
// pivot: an error and no solution written).
func TestLUSolverMatchesSolveVec(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 7))
	var ls luSolver
	solved, declined := 0, 0
	elem := func(scale float64) float64 {
		switch rng.IntN(12) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return float64(rng.IntN(5) - 2) // small integers: exact sums
		}
		return rng.NormFloat64() * scale
	}
	for it := range 60000 {
		n := 1 + rng.IntN(9)
		a := mat.NewDense(n, n, nil)
		switch it % 3 {
		case 0: // JᵀJ, damped as the solver damps it
			m := n + rng.IntN(20)
			J := mat.NewDense(m, n, nil)
			scales := make([]float64, n)
			for j := range scales {
				scales[j] = math.Pow(10, float64(rng.IntN(30)-15))
			}
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					J.Set(i, j, elem(scales[j]))
				}
			}
			a.Mul(J.T(), J)
			lambda := math.Pow(10, float64(rng.IntN(20)-15))
			for j := 0; j < n; j++ {
				d := a.At(j, j)
				if d <= 0 {
					d = 1e-300
				}
				a.Set(j, j, d*(1+lambda))
			}
		case 1: // general
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					a.Set(i, j, elem(math.Pow(10, float64(rng.IntN(8)-4))))
				}
			}
		default: // nearly singular: a row close to another's multiple
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					a.Set(i, j, elem(1))
				}
			}
			if n > 1 {
				f := rng.NormFloat64()
				for j := 0; j < n; j++ {
					a.Set(n-1, j, f*a.At(0, j)*(1+1e-14*rng.NormFloat64()))
				}
			}
		}
		if rng.IntN(200) == 0 {
			a.Set(rng.IntN(n), rng.IntN(n), []float64{math.NaN(), math.Inf(1), 1e-310}[rng.IntN(3)])
		}
		b := mat.NewVecDense(n, nil)
		for i := 0; i < n; i++ {
			b.SetVec(i, elem(math.Pow(10, float64(rng.IntN(10)-5))))
		}
		// the solver's own vectors carry the last solution: start
		// both alike, so that a result left unwritten compares too
		old := make([]float64, n)
		for i := range old {
			old[i] = rng.NormFloat64()
		}
		got, want := mat.NewVecDense(n, append([]float64(nil), old...)), mat.NewVecDense(n, append([]float64(nil), old...))
		ok := ls.solve(a, b, got)
		err := want.SolveVec(a, b)
		if !ok {
			declined++
			for i := range old {
				if math.Float64bits(got.AtVec(i)) != math.Float64bits(old[i]) {
					t.Fatalf("case %d: declined, but wrote its result", it)
				}
			}
			continue
		}
		solved++
		if err != nil {
			if _, cond := err.(mat.Condition); !cond {
				t.Fatalf("case %d: solved where SolveVec fails with %v", it, err)
			}
		}
		for i := 0; i < n; i++ {
			if math.Float64bits(got.AtVec(i)) != math.Float64bits(want.AtVec(i)) {
				t.Fatalf("case %d (n %d): x[%d] = %v (%#x), SolveVec %v (%#x)\na = %v\nb = %v", it, n, i,
					got.AtVec(i), math.Float64bits(got.AtVec(i)), want.AtVec(i), math.Float64bits(want.AtVec(i)), mat.Formatted(a), b.RawVector().Data)
			}
		}
	}
	if solved < 50000 {
		t.Errorf("solved %d, declined %d: it should decline only rare matrices", solved, declined)
	}
	// a zero pivot: declined, and SolveVec writes nothing either
	a := mat.NewDense(2, 2, []float64{1, 2, 2, 4})
	b := mat.NewVecDense(2, []float64{1, 1})
	if x := mat.NewVecDense(2, []float64{7, 8}); ls.solve(a, b, x) {
		t.Fatal("a singular matrix solved")
	} else if err := x.SolveVec(a, b); err == nil || x.AtVec(0) != 7 || x.AtVec(1) != 8 {
		t.Fatalf("SolveVec on a singular matrix: %v, x = %v (why solveDamped sets x to NaN first)", err, x.RawVector().Data)
	}
}

// TestSolveDampedNoStaleStep: where the damped system has an exactly zero
// pivot, SolveVec returns Condition(+Inf) and writes nothing, so the step
// vector still held the previous iteration's step, which the solver then
// tried again. solveDamped reports that no solution was found (damp more);
// an ill-conditioned system it still solves, and a regular one bit for bit
// as SolveVec.
func TestSolveDampedNoStaleStep(t *testing.T) {
	var ls luSolver
	singular := mat.NewDense(2, 2, []float64{1, 2, 2, 4})
	x := mat.NewVecDense(2, []float64{7, 8}) // the previous step
	if ls.solveDamped(singular, mat.NewVecDense(2, []float64{1, 1}), x) {
		t.Fatalf("a zero pivot reported solved, x = %v", x.RawVector().Data)
	}
	// an element that is not finite: gonum's road, no usable step
	inf := mat.NewDense(2, 2, []float64{math.Inf(1), 1, 1, 1})
	x = mat.NewVecDense(2, []float64{7, 8})
	if ls.solveDamped(inf, mat.NewVecDense(2, []float64{1, 1}), x) {
		for i := 0; i < 2; i++ {
			if v := x.AtVec(i); math.IsNaN(v) || v == []float64{7, 8}[i] {
				t.Fatalf("an infinite element reported solved with x = %v", x.RawVector().Data)
			}
		}
	}
	// ill-conditioned (a parameter without effect): solved, SolveVec's error aside
	ill := mat.NewDense(2, 2, []float64{1, 0, 0, 1e-310}) // a subnormal pivot: solve declines
	b := mat.NewVecDense(2, []float64{1, 1e-310})
	x = mat.NewVecDense(2, []float64{7, 8})
	if ls.solve(ill, b, mat.NewVecDense(2, nil)) {
		t.Fatal("solve took the subnormal pivot: the case no longer reaches SolveVec")
	}
	want := mat.NewVecDense(2, nil)
	if err := want.SolveVec(ill, b); err == nil {
		t.Fatal("the ill-conditioned case no longer gives SolveVec a Condition error: pick another")
	}
	if !ls.solveDamped(ill, b, x) || x.AtVec(0) != want.AtVec(0) || x.AtVec(1) != want.AtVec(1) {
		t.Fatalf("ill-conditioned: x = %v, SolveVec %v", x.RawVector().Data, want.RawVector().Data)
	}
	regular := mat.NewDense(2, 2, []float64{4, 1, 1, 3})
	b = mat.NewVecDense(2, []float64{1, 2})
	if err := want.SolveVec(regular, b); err != nil {
		t.Fatal(err)
	}
	if !ls.solveDamped(regular, b, x) || x.AtVec(0) != want.AtVec(0) || x.AtVec(1) != want.AtVec(1) {
		t.Fatalf("regular: x = %v, SolveVec %v", x.RawVector().Data, want.RawVector().Data)
	}
}
