package fit

import (
	"math"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sgdplan/sgdplan/model"
)

// TestStalenessSpansShared: the staleness problem computes a span's mean
// once per pass for the points that repeat it (a bootstrap's repeated
// points and runs) and reuses Residuals' values in ForwardDiff at the same
// x (spanPoints); its residuals, forward differences and the solver's
// iterates are those computed afresh for every point by curveAt, bit for
// bit: on resamples that repeat points within a run and whole runs, and
// two runs of the same staleness with the same spans (shared) but other
// losses, with ForwardDiff called right after Residuals at x (the
// solver's order), after Residuals elsewhere, and twice.
func TestStalenessSpansShared(t *testing.T) {
	base := stalenessFDRuns()
	var runs []StalenessRun
	for k, r := range base {
		if len(r.W) > 0 {
			// points drawn with replacement, as CurveSamples draws them
			d := StalenessRun{Run: r.Run, Workers: r.Workers, Staleness: r.Staleness}
			for i := range r.K {
				j := (i*7 + k) % len(r.K) / 2
				d.K, d.Loss = append(d.K, r.K[j]), append(d.Loss, r.Loss[j])
				if j < len(r.W) {
					d.W = append(d.W, r.W[j])
				}
			}
			runs = append(runs, d)
		}
		runs = append(runs, r)
	}
	runs = append(runs, runs[len(runs)-1], runs[0]) // whole runs again, as FitStalenessLaw draws them
	other := runs[len(runs)-3]
	other.Loss = append([]float64(nil), other.Loss...)
	for j := range other.Loss {
		other.Loss[j] *= 1.01
	}
	runs = append(runs, other)
	m := curvePoints(runs)
	ref := func(lamLo, lamHi float64) Problem {
		return Problem{M: m, Residuals: func(dst, p []float64) {
			i := 0
			for _, r := range runs {
				c := model.LossCurve{B0: p[0] / (1 + p[3]*r.Staleness), B1: p[1], B2: p[2]}
				for j := range r.K {
					dst[i] = r.curveAt(c, j) - r.Loss[j]
					i++
				}
			}
		}, Lower: []float64{0, 1e-12, 0, lamLo}, Upper: []float64{math.Inf(1), math.Inf(1), math.Inf(1), lamHi}}
	}
	same := func(what string, x []float64, a, b []float64) {
		t.Helper()
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				t.Fatalf("x %v: %s[%d] %v, afresh %v", x, what, i, a[i], b[i])
			}
		}
	}
	for _, c := range []struct {
		x            []float64
		lamLo, lamHi float64
	}{
		{[]float64{0.004, 0.45, 0.1, 0.08}, 0, 100},
		{[]float64{0.5, 0.2, 0.05, 100}, 0, 100},
		{[]float64{0, 0.45, 0.1, 0.08}, 0, 100},
		{[]float64{0.004, 0.45, 0.1, 0.3}, 0.3, 0.3},
	} {
		prob, plain := stalenessProblem(runs, m, c.lamLo, c.lamHi), ref(c.lamLo, c.lamHi)
		res, want := make([]float64, m), make([]float64, m)
		plain.Residuals(want, c.x)
		wantJ := NumericJacobian(plain, c.x)
		got := mat.NewDense(m, 4, nil)
		elsewhere := []float64{c.x[0] * 1.5, c.x[1], c.x[2] + 0.01, c.x[3]}
		for pass, before := range [][]float64{c.x, elsewhere, nil} {
			if before != nil {
				prob.Residuals(res, before)
			}
			if pass == 0 {
				same("residual", c.x, res, want)
			}
			got.Zero()
			prob.ForwardDiff(got, c.x, want)
			same("J", c.x, got.RawMatrix().Data, wantJ.RawMatrix().Data)
		}
	}
	if runtime.GOARCH != "amd64" {
		return // the iterates take jtj's sums
	}
	for _, lam := range [][2]float64{{0, 100}, {0.05, 0.05}} {
		prob, plain := stalenessProblem(runs, m, lam[0], lam[1]), ref(lam[0], lam[1])
		for _, x0 := range [][]float64{{0.004, 0.45, 0.1, 0}, {0.01, 1, 0.2, 3}} {
			a, errA := LevenbergMarquardt(prob, x0, nil)
			b, errB := LevenbergMarquardt(plain, x0, nil)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			ok := a.Cost == b.Cost && a.Iter == b.Iter && a.Evals == b.Evals && a.Status == b.Status
			for j := range a.X {
				ok = ok && math.Float64bits(a.X[j]) == math.Float64bits(b.X[j])
			}
			if !ok {
				t.Errorf("lambda in %v from %v: %+v, afresh %+v", lam, x0, a, b)
			}
		}
	}
}
