package fit

import (
	"strings"

	"github.com/sgdplan/sgdplan/model"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// nnlsBrute solves NNLS by trying every subset of columns as the passive
// set (the solution is the best unconstrained least-squares fit on some
// subset whose coefficients are all >= 0): independent of Lawson-Hanson.
func nnlsBrute(A *mat.Dense, b []float64) []float64 {
	m, n := A.Dims()
	best, bestE := make([]float64, n), math.Inf(1)
	cost := func(x []float64) float64 {
		var r mat.VecDense
		r.MulVec(A, mat.NewVecDense(n, x))
		r.SubVec(mat.NewVecDense(m, b), &r)
		return mat.Dot(&r, &r)
	}
	bestE = cost(best)
	for mask := 1; mask < 1<<n; mask++ {
		var cols []int
		for j := range n {
			if mask&(1<<j) != 0 {
				cols = append(cols, j)
			}
		}
		if len(cols) > m {
			continue
		}
		sub := mat.NewDense(m, len(cols), nil)
		for i := range m {
			for k, j := range cols {
				sub.Set(i, k, A.At(i, j))
			}
		}
		var qr mat.QR
		qr.Factorize(sub)
		var s mat.Dense
		if err := qr.SolveTo(&s, false, mat.NewVecDense(m, b)); err != nil {
			continue
		}
		x := make([]float64, n)
		ok := true
		for k, j := range cols {
			x[j] = s.At(k, 0)
			ok = ok && x[j] >= 0
		}
		if e := cost(x); ok && e < bestE {
			best, bestE = x, e
		}
	}
	return best
}

// NNLS agrees with the brute-force subset search on random problems (tall,
// with solutions on and off the bounds), meets the Kuhn-Tucker conditions,
// and recovers an exact non-negative solution.
func TestNNLSAgreesWithBruteForce(t *testing.T) {
	r := newRand(17)
	for trial := range 300 {
		n := 1 + r.IntN(5)
		m := n + 2 + r.IntN(6) // tall: the solution is unique
		A := mat.NewDense(m, n, nil)
		for i := range m {
			for j := range n {
				A.Set(i, j, r.NormFloat64())
			}
		}
		b := make([]float64, m)
		for i := range b {
			b[i] = r.NormFloat64()
		}
		x, err := NNLS(A, b)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		want := nnlsBrute(A, b)
		for j := range x {
			if x[j] < 0 || math.Abs(x[j]-want[j]) > 1e-8*(1+math.Abs(want[j])) {
				t.Fatalf("trial %d: x %v, brute force %v", trial, x, want)
			}
		}
		// Kuhn-Tucker: gradient A^T(b - Ax) <= 0, and 0 where x > 0
		var res, g mat.VecDense
		res.MulVec(A, mat.NewVecDense(n, x))
		res.SubVec(mat.NewVecDense(m, b), &res)
		g.MulVec(A.T(), &res)
		for j := range n {
			if g.AtVec(j) > 1e-9 || (x[j] > 0 && math.Abs(g.AtVec(j)) > 1e-9) {
				t.Fatalf("trial %d: KKT fails at %d: x %v, gradient %v", trial, j, x, g.RawVector().Data)
			}
		}
	}
	// an exact non-negative solution is found, zeros included
	A := mat.NewDense(5, 3, []float64{1, 1, 1, 1, 2, 4, 1, 3, 9, 1, 4, 16, 1, 5, 25})
	truth := []float64{2, 0, 0.5}
	var b mat.VecDense
	b.MulVec(A, mat.NewVecDense(3, truth))
	x, err := NNLS(A, b.RawVector().Data)
	if err != nil {
		t.Fatal(err)
	}
	for j := range x {
		if math.Abs(x[j]-truth[j]) > 1e-10 {
			t.Fatalf("x %v, want %v", x, truth)
		}
	}
	if _, err := NNLS(A, []float64{1, 2}); err == nil {
		t.Error("b of the wrong length accepted")
	}
	if _, err := NNLS(A, []float64{1, 2, math.NaN(), 4, 5}); err == nil {
		t.Error("NaN in b accepted")
	}
}

// NNLSMethod recovers the parameters of noise-free data of a linear form
// (ernest on synchronous, optimus-async on asynchronous PS data), predicts
// the held-out configurations exactly, and refuses a form that is not
// linear in its parameters (pollux).
func TestNNLSMethod(t *testing.T) {
	cases := []struct {
		fam   string
		async bool
		theta []float64
		cfgs  []model.Config
	}{
		{"ernest", false, []float64{0.05, 0.002, 0.01, 0.003},
			[]model.Config{{Workers: 1, Batch: 64}, {Workers: 2, Batch: 32}, {Workers: 4, Batch: 16}, {Workers: 8, Batch: 8}, {Workers: 4, Batch: 64}, {Workers: 32, Batch: 2}}},
		{"optimus-async", true, []float64{0.001, 0.02, 0.004, 0.001, 0.002},
			[]model.Config{{Workers: 1, PS: 1, Batch: 32}, {Workers: 2, PS: 1, Batch: 32}, {Workers: 1, PS: 2, Batch: 32}, {Workers: 2, PS: 2, Batch: 32}, {Workers: 3, PS: 1, Batch: 16}, {Workers: 4, PS: 4, Batch: 32}, {Workers: 16, PS: 8, Batch: 32}}},
	}
	for _, c := range cases {
		f := families[c.fam]
		var pts []Point
		for _, cfg := range c.cfgs {
			pts = append(pts, Point{Config: cfg, StepsPerS: f.Predict(c.theta, cfg), Async: c.async})
		}
		train, test := pts[:len(pts)-1], pts[len(pts)-1]
		m := NNLSMethod("nnls", c.fam, c.fam)
		pred, name, err := m.Fit(train)
		if err != nil || name != c.fam {
			t.Fatalf("%s: %v (family %q)", c.fam, err, name)
		}
		if got, want := pred(test.Config), test.StepsPerS; relErr(got, want) > 1e-9 {
			t.Errorf("%s at %+v: %g, truth %g", c.fam, test.Config, got, want)
		}
		th, err := fitNNLS(f, train, c.async)
		if err != nil {
			t.Fatal(err)
		}
		for j := range th {
			if math.Abs(th[j]-c.theta[j]) > 1e-9 {
				t.Errorf("%s: theta %v, truth %v", c.fam, th, c.theta)
				break
			}
		}
	}
	pts := []Point{{Config: model.Config{Workers: 1, Nodes: 1, Batch: 8}, StepsPerS: 3}, {Config: model.Config{Workers: 2, Nodes: 1, Batch: 8}, StepsPerS: 5}}
	if _, _, err := NNLSMethod("nnls", "pollux", "pollux-async").Fit(pts); err == nil || !strings.Contains(err.Error(), "not linear") {
		t.Errorf("pollux fitted by NNLS: %v", err)
	}
}

// Degenerate problems end (no loop, no panic) with a feasible answer as
// good as the brute-force search: a zero column, two equal columns, b = 0,
// columns of very different scales.
func TestNNLSDegenerate(t *testing.T) {
	cases := []struct {
		name string
		A    *mat.Dense
		b    []float64
	}{
		{"zero column", mat.NewDense(4, 2, []float64{1, 0, 2, 0, 3, 0, 4, 0}), []float64{1, 2, 3, 5}},
		{"equal columns", mat.NewDense(4, 3, []float64{1, 1, 1, 1, 2, 2, 1, 3, 3, 1, 4, 4}), []float64{2, 3, 5, 6}},
		{"b = 0", mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}), []float64{0, 0, 0}},
		{"scales", mat.NewDense(4, 2, []float64{1e-9, 1e6, 2e-9, 1e6, 3e-9, 2e6, 4e-9, 1e6}), []float64{1, 2, 3, 4}},
		{"all negative", mat.NewDense(3, 2, []float64{1, 1, 1, 2, 1, 3}), []float64{-1, -2, -3}},
	}
	for _, c := range cases {
		x, err := NNLS(c.A, c.b)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		m, n := c.A.Dims()
		cost := func(x []float64) float64 {
			var r mat.VecDense
			r.MulVec(c.A, mat.NewVecDense(n, x))
			r.SubVec(mat.NewVecDense(m, c.b), &r)
			return mat.Dot(&r, &r)
		}
		for j := range x {
			if x[j] < 0 || math.IsNaN(x[j]) {
				t.Errorf("%s: x %v not feasible", c.name, x)
			}
		}
		if got, want := cost(x), cost(nnlsBrute(c.A, c.b)); got > want*(1+1e-9)+1e-12 {
			t.Errorf("%s: cost %g, brute force %g (x %v)", c.name, got, want, x)
		}
	}
}
