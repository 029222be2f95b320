package fit

import (
	"math"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sgdplan/sgdplan/model"
)

// stalenessFDRuns are point and binned loss curves (spans from a millionth
// of an update to thousands, some clipped at update 0, a point without a
// span among spans, a zero span): every branch of curveAt.
func stalenessFDRuns() []StalenessRun {
	base := model.LossCurve{B0: 0.004, B1: 0.45, B2: 0.1}
	runs := simulatedStaleness(0.08, 0.01, []int{1, 2, 4}, 3)
	for _, w := range []int{1, 3, 8} {
		s := float64(w - 1)
		c := model.StalenessLaw{Lambda: 0.08}.Apply(base, s)
		r := StalenessRun{Run: "binned", Workers: w, Staleness: s}
		for _, span := range []float64{1e-6, 1, 40 * float64(w), 3000} {
			for _, mid := range []float64{span / 4, 10 + span/2, 500} {
				r.K = append(r.K, mid)
				r.W = append(r.W, span)
				r.Loss = append(r.Loss, c.MeanLoss(math.Max(mid-span/2, 0), mid+span/2))
			}
		}
		r.K = append(r.K, 60, 77)
		r.W = append(r.W, 0)
		r.Loss = append(r.Loss, c.Loss(60), c.Loss(77))
		runs = append(runs, r)
	}
	return runs
}

// The staleness problem's residuals and its own forward differences are
// those of the plain solver bit for bit (curveAt's values, NumericJacobian
// over them), and so are the solver's iterates with them: the fit's and
// its refits' digits (frozen in the validation) cannot move. Points inside
// the box, on each bound, lambda held, b0 = 0 and a rate fast enough that
// spans' means take log1p's branch.
func TestStalenessForwardDiffExact(t *testing.T) {
	runs := stalenessFDRuns()
	m := curvePoints(runs)
	for _, c := range []struct {
		x            []float64
		lamLo, lamHi float64
	}{
		{[]float64{0.004, 0.45, 0.1, 0.08}, 0, 100},
		{[]float64{0.01, 2, 0.3, 0}, 0, 100},
		{[]float64{0.5, 0.2, 0.05, 100}, 0, 100},
		{[]float64{3e-7, 1e-12, 0, 20}, 0, 100},
		{[]float64{0, 0.45, 0.1, 0.08}, 0, 100},
		{[]float64{0.004, 0.45, 0.1, 0.3}, 0.3, 0.3},
		{[]float64{0.004, 0.45, 0.1, 0}, 0, 0},
	} {
		prob := stalenessProblem(runs, m, c.lamLo, c.lamHi)
		res := make([]float64, m)
		prob.Residuals(res, c.x)
		i := 0
		for _, r := range runs {
			cv := model.LossCurve{B0: c.x[0] / (1 + c.x[3]*r.Staleness), B1: c.x[1], B2: c.x[2]}
			for j := range r.K {
				if want := r.curveAt(cv, j) - r.Loss[j]; math.Float64bits(res[i]) != math.Float64bits(want) {
					t.Errorf("x %v: residual %d %v, curveAt gives %v", c.x, i, res[i], want)
				}
				i++
			}
		}
		plain := Problem{M: prob.M, Residuals: prob.Residuals, Lower: prob.Lower, Upper: prob.Upper}
		want := NumericJacobian(plain, c.x)
		got := mat.NewDense(m, 4, nil)
		prob.ForwardDiff(got, c.x, res)
		for i := 0; i < m; i++ {
			for j := 0; j < 4; j++ {
				if a, b := got.At(i, j), want.At(i, j); math.Float64bits(a) != math.Float64bits(b) {
					t.Errorf("x %v: J[%d][%d] %v, NumericJacobian %v", c.x, i, j, a, b)
				}
			}
		}
		var a, b mat.Dense
		jtj(&a, got)
		b.Mul(want.T(), want)
		// bit for bit, -0 apart from 0 (mat.Equal takes them as one);
		// elsewhere than amd64 gonum's pure-Go axpy may fuse its
		// multiply and add: jtj may differ in the last bit there
		sameBits := func(a, b *mat.Dense) bool {
			for i := 0; i < 4; i++ {
				for j := 0; j < 4; j++ {
					if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
						return false
					}
				}
			}
			return true
		}
		if runtime.GOARCH == "amd64" && !sameBits(&a, &b) {
			t.Errorf("x %v: jtj %v, gonum's Mul %v", c.x, mat.Formatted(&a), mat.Formatted(&b))
		}
		jtj(&a, got) // reused
		if runtime.GOARCH == "amd64" && !sameBits(&a, &b) {
			t.Errorf("x %v: jtj reused %v", c.x, mat.Formatted(&a))
		}
	}
	if runtime.GOARCH != "amd64" {
		return // the iterates below take jtj's sums
	}
	for _, lam := range [][2]float64{{0, 100}, {0, 0}, {0.05, 0.05}} {
		prob := stalenessProblem(runs, m, lam[0], lam[1])
		plain := Problem{M: prob.M, Residuals: prob.Residuals, Lower: prob.Lower, Upper: prob.Upper}
		for _, x0 := range [][]float64{{0.004, 0.45, 0.1, 0}, {0.01, 1, 0.2, 3}} {
			a, errA := LevenbergMarquardt(prob, x0, nil)
			b, errB := LevenbergMarquardt(plain, x0, nil)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			same := a.Cost == b.Cost && a.Iter == b.Iter && a.Evals == b.Evals && a.Status == b.Status
			for j := range a.X {
				same = same && math.Float64bits(a.X[j]) == math.Float64bits(b.X[j])
			}
			if !same {
				t.Errorf("lambda in %v from %v: %+v, plain finite differences %+v", lam, x0, a, b)
			}
		}
	}
}

// jtj's sums are gonum's for any number of parameters, zeros skipped,
// and with 4 where an element is infinite (the NaN of 0·Inf where dgemm
// multiplies it) or its square overflows: jtj4 leaves these to the full
// sums.
func TestJtJGeneral(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("gonum's pure-Go axpy may fuse its multiply and add")
	}
	for _, c := range []struct {
		n   int
		odd float64 // J[3][1] when not 0
	}{{1, 0}, {3, 0}, {4, 0}, {6, 0}, {4, math.Inf(1)}, {4, 1e200}, {4, math.NaN()}} {
		n := c.n
		J := mat.NewDense(7, n, nil)
		for i := 0; i < 7; i++ {
			for j := 0; j < n; j++ {
				if (i+j)%5 != 0 {
					J.Set(i, j, math.Sin(float64(1+i*n+j))*math.Pow(10, float64(i%4-j)))
				}
			}
		}
		if c.odd != 0 {
			J.Set(3, 1, c.odd)
			J.Set(3, 2, 0)
		}
		var a, b mat.Dense
		jtj(&a, J)
		b.Mul(J.T(), J)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
					t.Errorf("n %d, J[3][1] %v: jtj %v, gonum's Mul %v", n, c.odd, mat.Formatted(&a), mat.Formatted(&b))
					i, j = n, n
				}
			}
		}
	}
}
