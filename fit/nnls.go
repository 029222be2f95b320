package fit

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// NNLS solves min |A x - b|_2 subject to x >= 0 by the active-set
// algorithm of Lawson and Hanson ("Solving Least Squares Problems", 1974,
// chapter 23): the way Ernest and Optimus fit their forms. Each
// unconstrained subproblem is solved by SVD (minimum norm where the
// passive columns are dependent). A has at least one row and one column
// and len(b) rows.
func NNLS(A *mat.Dense, b []float64) ([]float64, error) {
	m, n := A.Dims()
	if m == 0 || n == 0 || len(b) != m {
		return nil, errors.New("fit: NNLS: need a non-empty A and one b per row")
	}
	for _, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("fit: NNLS: b is not finite")
		}
	}
	// Columns scaled to unit length (x_j = y_j / |A_j|), so that the
	// gradient test does not depend on the units of each column; a zero
	// column stays out (its x_j is 0).
	scale := make([]float64, n)
	As := mat.NewDense(m, n, nil)
	for j := range n {
		scale[j] = mat.Norm(A.ColView(j), 2)
		if !(scale[j] > 0) || math.IsInf(scale[j], 0) {
			continue
		}
		for i := range m {
			As.Set(i, j, A.At(i, j)/scale[j])
		}
	}
	y, err := nnlsUnit(As, b, scale)
	for j := range y {
		if scale[j] > 0 && !math.IsInf(scale[j], 0) {
			y[j] /= scale[j]
		} else {
			y[j] = 0
		}
	}
	return y, err
}

// nnlsUnit is NNLS on A whose non-zero columns have unit length; the
// columns with scale 0 (or not finite) never enter the passive set.
func nnlsUnit(A *mat.Dense, b []float64, scale []float64) ([]float64, error) {
	m, n := A.Dims()
	// tolerance on the gradient, relative to the problem's scale
	tol := 10 * float64(max(m, n)) * 2.2e-16 * math.Max(mat.Norm(mat.NewVecDense(m, b), 2), 1e-300)
	x := make([]float64, n)
	passive := make([]bool, n)
	bv := mat.NewVecDense(m, b)
	grad := func() []float64 { // A^T (b - A x)
		var r, g mat.VecDense
		r.MulVec(A, mat.NewVecDense(n, x))
		r.SubVec(bv, &r)
		g.MulVec(A.T(), &r)
		return g.RawVector().Data
	}
	solve := func() []float64 { // least squares on the passive columns
		var cols []int
		for j := range n {
			if passive[j] {
				cols = append(cols, j)
			}
		}
		sub := mat.NewDense(m, len(cols), nil)
		for i := range m {
			for k, j := range cols {
				sub.Set(i, k, A.At(i, j))
			}
		}
		z := make([]float64, n)
		var svd mat.SVD
		if !svd.Factorize(sub, mat.SVDThin) {
			return z
		}
		var s mat.VecDense
		svd.SolveVecTo(&s, bv, max(svd.Rank(1e-12), 1))
		for k, j := range cols {
			z[j] = s.AtVec(k)
		}
		return z
	}
	for iter := 0; iter < 3*n+10; iter++ {
		w := grad()
		t, wt := -1, tol
		for j := range n {
			if !passive[j] && w[j] > wt && scale[j] > 0 && !math.IsInf(scale[j], 0) {
				t, wt = j, w[j]
			}
		}
		if t < 0 {
			return x, nil // Kuhn-Tucker conditions hold
		}
		passive[t] = true
		for inner := 0; inner < 3*n+10; inner++ {
			z := solve()
			feasible := true
			alpha := math.Inf(1)
			for j := range n {
				if passive[j] && z[j] <= 0 {
					feasible = false
					if d := x[j] - z[j]; d > 0 {
						alpha = math.Min(alpha, x[j]/d)
					}
				}
			}
			if feasible {
				copy(x, z)
				break
			}
			if math.IsInf(alpha, 1) {
				alpha = 0
			}
			scale := 0.0
			for j := range n {
				if passive[j] {
					x[j] += alpha * (z[j] - x[j])
					scale = math.Max(scale, math.Max(math.Abs(x[j]), math.Abs(z[j])))
				}
			}
			// the variables that reached 0 (the one that set alpha, and any
			// at 0 that the subproblem would make negative) leave the
			// passive set
			for j := range n {
				if passive[j] && (x[j] <= 1e-14*scale || (x[j] == 0 && z[j] <= 0)) {
					x[j], passive[j] = 0, false
				}
			}
		}
	}
	return x, errors.New("fit: NNLS: no convergence")
}
