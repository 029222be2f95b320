package fit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// Rosenbrock as least squares: r1 = 10 (x2 - x1²), r2 = 1 - x1; the minimum
// is x = (1, 1) with cost 0, from the classic start (-1.2, 1).
func rosenbrock(analytic bool) Problem {
	p := Problem{
		M: 2,
		Residuals: func(dst, x []float64) {
			dst[0] = 10 * (x[1] - x[0]*x[0])
			dst[1] = 1 - x[0]
		},
	}
	if analytic {
		p.Jacobian = func(J *mat.Dense, x []float64) {
			J.Set(0, 0, -20*x[0])
			J.Set(0, 1, 10)
			J.Set(1, 0, -1)
			J.Set(1, 1, 0)
		}
	}
	return p
}

// NIST StRD Misra1a (lower difficulty): y = b1 (1 - exp(-b2 x)).
// Certified values: b1 = 2.3894212918E+02, b2 = 5.5015643181E-04,
// residual sum of squares 1.2455138894E-01. Start 1: (500, 1e-4).
var misra1aX = []float64{77.6, 114.9, 141.1, 190.8, 239.9, 289.0, 332.8, 378.4, 434.8, 477.3, 536.8, 593.1, 689.1, 760.0}
var misra1aY = []float64{10.07, 14.73, 17.94, 23.93, 29.61, 35.18, 40.02, 44.82, 50.76, 55.05, 61.01, 66.40, 75.47, 81.78}

func misra1a(analytic bool) Problem {
	p := Problem{
		M: len(misra1aX),
		Residuals: func(dst, b []float64) {
			for i, x := range misra1aX {
				dst[i] = b[0]*(1-math.Exp(-b[1]*x)) - misra1aY[i]
			}
		},
	}
	if analytic {
		p.Jacobian = func(J *mat.Dense, b []float64) {
			for i, x := range misra1aX {
				e := math.Exp(-b[1] * x)
				J.Set(i, 0, 1-e)
				J.Set(i, 1, b[0]*x*e)
			}
		}
	}
	return p
}

func TestLMTextbook(t *testing.T) {
	cases := []struct {
		name string
		p    Problem
		x0   []float64
		want []float64
		cost float64 // 1/2 RSS
		tol  float64
	}{
		{"rosenbrock/fd", rosenbrock(false), []float64{-1.2, 1}, []float64{1, 1}, 0, 1e-6},
		{"rosenbrock/analytic", rosenbrock(true), []float64{-1.2, 1}, []float64{1, 1}, 0, 1e-6},
		{"misra1a/fd", misra1a(false), []float64{500, 1e-4}, []float64{2.3894212918e+02, 5.5015643181e-04}, 1.2455138894e-01 / 2, 1e-6},
		{"misra1a/analytic", misra1a(true), []float64{500, 1e-4}, []float64{2.3894212918e+02, 5.5015643181e-04}, 1.2455138894e-01 / 2, 1e-6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := LevenbergMarquardt(c.p, c.x0, nil)
			if err != nil {
				t.Fatal(err)
			}
			for j, w := range c.want {
				if e := relErr(res.X[j], w); e > c.tol {
					t.Errorf("x[%d] = %.10g, want %.10g (rel err %.2g)", j, res.X[j], w, e)
				}
			}
			if c.cost == 0 {
				if res.Cost > 1e-12 {
					t.Errorf("cost %.3g, want 0", res.Cost)
				}
			} else if e := relErr(res.Cost, c.cost); e > c.tol {
				t.Errorf("cost %.10g, want %.10g", res.Cost, c.cost)
			}
		})
	}
}

func TestLMAnalyticMatchesFiniteDifferences(t *testing.T) {
	for _, c := range []struct {
		name   string
		fd, an Problem
		x      []float64
		tol    float64
	}{
		{"rosenbrock", rosenbrock(false), rosenbrock(true), []float64{-1.2, 1}, 1e-6},
		{"misra1a", misra1a(false), misra1a(true), []float64{240, 5.5e-4}, 1e-5},
	} {
		num := NumericJacobian(c.fd, c.x)
		an := mat.NewDense(c.an.M, len(c.x), nil)
		c.an.Jacobian(an, c.x)
		r, k := an.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < k; j++ {
				a, n := an.At(i, j), num.At(i, j)
				if math.Abs(a-n) > c.tol*math.Max(math.Abs(a), 1) {
					t.Errorf("%s: J[%d][%d] analytic %.8g, finite differences %.8g", c.name, i, j, a, n)
				}
			}
		}
	}
}

// A bounded problem whose unconstrained minimum (x = -2) lies outside the
// box [0, 5]: the solver must stop on the bound and say so.
func TestLMBounds(t *testing.T) {
	p := Problem{
		M:         2,
		Residuals: func(dst, x []float64) { dst[0] = x[0] + 2; dst[1] = x[1] - 3 },
		Lower:     []float64{0, 0},
		Upper:     []float64{5, 5},
	}
	res, err := LevenbergMarquardt(p, []float64{4, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// x0 -> 0 (bound), x1 -> 3 (interior); cost = (0+2)²/2 = 2.
	if res.X[0] != 0 || relErr(res.X[1], 3) > 1e-8 || relErr(res.Cost, 2) > 1e-8 {
		t.Errorf("got x = %v cost %g, want (0, 3) cost 2", res.X, res.Cost)
	}
	if !res.AtBound[0] || res.AtBound[1] {
		t.Errorf("AtBound = %v, want [true false]", res.AtBound)
	}
	// and the upper bound: x0 - 7 has its minimum at 7, beyond [0, 5]:
	// x0 -> 5 (bound), cost (5-7)²/2 = 2
	p.Residuals = func(dst, x []float64) { dst[0] = x[0] - 7; dst[1] = x[1] - 3 }
	res, err = LevenbergMarquardt(p, []float64{1, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.X[0] != 5 || relErr(res.X[1], 3) > 1e-8 || relErr(res.Cost, 2) > 1e-8 || !res.AtBound[0] || res.AtBound[1] {
		t.Errorf("upper bound: x = %v cost %g AtBound %v, want (5, 3) cost 2 [true false]", res.X, res.Cost, res.AtBound)
	}
}

// Recovers known parameters of y = a x / (1 + b x) + c from noisy data in
// log space (0.1% noise), over several seeds, within 3% of the truth.
func TestLMRecoversSyntheticParameters(t *testing.T) {
	truth := []float64{5, 0.2, 1}
	f := func(p []float64, x float64) float64 { return p[0]*x/(1+p[1]*x) + p[2] }
	for seed := uint64(1); seed <= 5; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		xs := make([]float64, 40)
		ys := make([]float64, 40)
		for i := range xs {
			xs[i] = float64(i%20 + 1)
			ys[i] = f(truth, xs[i]) * math.Exp(0.001*rng.NormFloat64())
		}
		p := Problem{
			M: len(xs),
			Residuals: func(dst, q []float64) {
				for i, x := range xs {
					dst[i] = math.Log(f(q, x)) - math.Log(ys[i])
				}
			},
			Lower: []float64{1e-6, 1e-6, 0},
			Upper: []float64{1e3, 1e3, 1e3},
		}
		res, err := LevenbergMarquardt(p, []float64{1, 1, 0.5}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, w := range truth {
			if e := relErr(res.X[j], w); e > 0.03 {
				t.Errorf("seed %d: param %d = %.4g, want %.4g", seed, j, res.X[j], w)
			}
		}
	}
}

// A parameter with no effect on the residuals (Optimus's per-shard term on
// data without shards, Pollux's network terms on one node) makes the
// damped normal equations singular at every damping: the solver must still
// fit the others (it used to stop at the starting point) and leave that
// parameter where it started.
func TestLMParameterWithoutEffect(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	prob := Problem{
		M: len(xs),
		Residuals: func(dst, p []float64) {
			for i, x := range xs {
				// scaled as a step time in log space is: large derivatives
				dst[i] = 1e4 * (p[0]*x + p[1] - (2*x + 1)) // p[2] unused
			}
		},
		Lower: []float64{0, 0, 0},
		Upper: []float64{100, 100, 100},
	}
	res, err := LevenbergMarquardt(prob, []float64{10, 10, 7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.X[0]-2) > 1e-6 || math.Abs(res.X[1]-1) > 1e-6 || res.X[2] != 7 {
		t.Errorf("x = %v after %d iterations, want [2 1 7]", res.X, res.Iter)
	}
}

// A parameter that starts at (or reaches) its bound 0 must be able to
// leave it. Its forward difference stepped 1e-7 of itself, 1e-15 at 0: on
// a step time of about 100 s (a rate of 0.01/s, log about -4.6) that moves
// the log rate by less than one rounding unit, the derivative came out 0
// and the per-worker term stayed at 0.
func TestLMLeavesZeroBound(t *testing.T) {
	ws := []float64{1, 2, 3, 4, 5}
	prob := Problem{
		M: len(ws),
		Residuals: func(dst, p []float64) {
			for i, w := range ws {
				dst[i] = math.Log(1/(p[0]+p[1]*w)) - math.Log(1/(100+2*w))
			}
		},
		Lower: []float64{0, 0},
		Upper: []float64{1e4, 1e4},
	}
	res, err := LevenbergMarquardt(prob, []float64{120, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.X[0]-100) > 1e-4 || math.Abs(res.X[1]-2) > 1e-6 {
		t.Errorf("x = %v after %d iterations, want [100 2]", res.X, res.Iter)
	}
}

// The forward differences stay in the box: a parameter held fixed (lower
// == upper) gets a zero column, not a step out of the box where the
// residuals do not exist (sqrt of a negative rate), and one in a box
// narrower than the step steps to the far side of the box.
func TestNumericJacobianStaysInBox(t *testing.T) {
	p := Problem{
		M: 2,
		Residuals: func(r, x []float64) {
			r[0] = math.Sqrt(x[0]) + x[1]
			r[1] = math.Sqrt(x[1]) - 2*x[0]
		},
		Lower: []float64{0, 1},
		Upper: []float64{0, 1 + 1e-9},
	}
	for _, x1 := range []float64{1, 1 + 1e-9} {
		J := NumericJacobian(p, []float64{0, x1})
		for i := 0; i < 2; i++ {
			if v := J.At(i, 0); v != 0 {
				t.Errorf("x1 %g: J[%d][0] = %g, want 0 (x0 is fixed at 0)", x1, i, v)
			}
		}
		// d r0 / d x1 = 1, d r1 / d x1 = 1/(2 sqrt(x1)) = 0.5
		if a, b := J.At(0, 1), J.At(1, 1); math.Abs(a-1) > 1e-5 || math.Abs(b-0.5) > 1e-5 {
			t.Errorf("x1 %g: column 1 = (%g, %g), want (1, 0.5)", x1, a, b)
		}
	}
}

// A problem whose residuals are finite at the start only (NaN at every
// other point): the solver stops where it started and says that no step
// was finite, not that the cost converged.
func TestLMNoFiniteStep(t *testing.T) {
	p := Problem{
		M: 1,
		Residuals: func(r, x []float64) {
			r[0] = x[0] - 3
			if x[0] != 1 {
				r[0] = math.NaN()
			}
		},
		Jacobian: func(J *mat.Dense, x []float64) { J.Set(0, 0, 1) },
	}
	res, err := LevenbergMarquardt(p, []float64{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != NoFiniteStep || res.Status.String() != "no finite step" || res.X[0] != 1 {
		t.Errorf("status %v, x %v: want no finite step at 1", res.Status, res.X)
	}
}
