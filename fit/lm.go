package fit

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Problem is a nonlinear least-squares problem: minimise
// 1/2 sum_i r_i(x)^2 over the box Lower <= x <= Upper.
type Problem struct {
	// M is the number of residuals, >= 1.
	M int
	// Residuals writes r(x) into dst (len M). It must not keep dst or x.
	Residuals func(dst, x []float64)
	// Jacobian, when not nil, writes dr_i/dx_j into dst (M x len(x)).
	// When nil, the solver uses forward finite differences.
	Jacobian func(dst *mat.Dense, x []float64)
	// ForwardDiff, when not nil (and Jacobian is nil), takes those
	// forward differences itself: it writes into dst (M x len(x)) what
	// NumericJacobian gives at x, whose residuals are r, bit for bit, in
	// fewer passes than len(x) calls of Residuals (see fdStep). The
	// solver then forms JᵀJ in one pass over dst (jtj), with the sums
	// gonum's Mul takes, so the iterates are those of the plain finite
	// differences; TestStalenessForwardDiffExact checks both. (Bit for
	// bit where gonum's AxpyUnitary is its amd64 assembly; where it is
	// Go, on other architectures or under the noasm tag, the compiler
	// may fuse its multiply and add, which jtj's float64 casts forbid,
	// and JᵀJ may differ from Mul's in its last bits.) It steps under the
	// bounds of the Problem it was made for (stalenessProblem's reads that
	// Problem's Lower and Upper): a copy given other bounds, or other
	// Residuals, needs a ForwardDiff of its own, or nil.
	ForwardDiff func(dst *mat.Dense, x, r []float64)
	// Lower and Upper are the box bounds; nil means unbounded on that
	// side, and an element may be ±Inf.
	Lower, Upper []float64
}

// LMSettings tunes LevenbergMarquardt. A nil *LMSettings means defaults; a
// zero field means its default.
type LMSettings struct {
	MaxIter int     // iterations; default 200
	Lambda0 float64 // initial damping; default 1e-3
	// FTol stops when the relative decrease of the cost in an accepted step
	// is below it; default 1e-12.
	FTol float64
	// XTol stops when the relative step is below it; default 1e-10.
	XTol float64
	// GTol stops when the projected gradient's max norm is below it;
	// default 1e-12.
	GTol float64
}

func (s *LMSettings) withDefaults() LMSettings {
	var o LMSettings
	if s != nil {
		o = *s
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 200
	}
	if o.Lambda0 <= 0 {
		o.Lambda0 = 1e-3
	}
	if o.FTol <= 0 {
		o.FTol = 1e-12
	}
	if o.XTol <= 0 {
		o.XTol = 1e-10
	}
	if o.GTol <= 0 {
		o.GTol = 1e-12
	}
	return o
}

// Status says why the solver stopped.
type Status int

const (
	NotConverged Status = iota // iteration limit reached
	FTolReached                // cost no longer decreases
	XTolReached                // step too small
	GTolReached                // gradient (projected on the box) vanished
	NoFiniteStep               // no damping gave a trial point with finite residuals
	// FlatDirection: no damping lowered the cost though the projected
	// gradient had not vanished: a minimum to the precision of the
	// arithmetic, or a direction along which the residuals no longer
	// change (a saturated exponential); not a proof of convergence.
	FlatDirection
)

func (s Status) String() string {
	switch s {
	case FTolReached:
		return "cost converged"
	case XTolReached:
		return "step converged"
	case GTolReached:
		return "gradient converged"
	case NoFiniteStep:
		return "no finite step"
	case FlatDirection:
		return "flat direction"
	}
	return "iteration limit"
}

// LMResult is the outcome of LevenbergMarquardt.
type LMResult struct {
	X      []float64 // the minimiser found, inside the box
	Cost   float64   // 1/2 sum r^2 at X
	Iter   int       // iterations done
	Evals  int       // residual evaluations (finite differences included)
	Status Status
	// AtBound[j] is true when X[j] sits on a bound: the data may want it
	// beyond, and the parameter is then not identified by the fit alone.
	AtBound []bool
}

// LevenbergMarquardt minimises the sum of squared residuals of p from x0
// with a projected Levenberg-Marquardt method (Marquardt's scaling of the
// damping by diag(JᵀJ)). A parameter on a bound whose gradient points out
// of the box is held there, and the damped step is solved for the others
// (an active set, as projected Newton methods hold their bound variables):
// projecting the whole step instead let the held parameter's coupling
// drag the others off their optimum, and the small steps that followed
// read as convergence. A trial point is projected onto the box and
// accepted when it lowers the cost; a step cut by the box does not end
// the search on a small decrease (the next iteration sees the bound).
// x0 is not mutated; it is projected onto the box before the first
// iteration. It returns an error when a parameter's bounds leave it no
// value (lower above upper, or a NaN bound) and when the residuals are not
// finite at the start.
func LevenbergMarquardt(p Problem, x0 []float64, settings *LMSettings) (LMResult, error) {
	s := settings.withDefaults()
	n := len(x0)
	if n == 0 || p.M < 1 || p.Residuals == nil {
		panic("fit: LevenbergMarquardt: empty problem")
	}
	if (p.Lower != nil && len(p.Lower) != n) || (p.Upper != nil && len(p.Upper) != n) {
		panic("fit: LevenbergMarquardt: bounds length mismatch")
	}
	for j := 0; j < n; j++ {
		lo, hi := math.Inf(-1), math.Inf(1)
		if p.Lower != nil {
			lo = p.Lower[j]
		}
		if p.Upper != nil {
			hi = p.Upper[j]
		}
		if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
			return LMResult{X: append([]float64(nil), x0...), Cost: math.NaN()}, errorf("LevenbergMarquardt: parameter %d has no feasible value: lower bound %g, upper bound %g (want lower <= upper, neither NaN)", j, lo, hi)
		}
	}
	x := make([]float64, n)
	copy(x, x0)
	project(x, p.Lower, p.Upper)

	r := make([]float64, p.M)
	rTrial := make([]float64, p.M)
	p.Residuals(r, x)
	evals := 1
	cost := halfSumSq(r)
	if math.IsNaN(cost) || math.IsInf(cost, 0) {
		return LMResult{X: x, Cost: cost, Evals: evals}, errors.New("fit: residuals not finite at the starting point")
	}

	J := mat.NewDense(p.M, n, nil)
	var JtJ mat.Dense
	g := mat.NewVecDense(n, nil)
	xTrial := make([]float64, n)
	free := make([]int, 0, n)
	// the damped system over the free parameters, by their count
	systems := make([]*dampedSystem, n+1)
	var ls luSolver
	lambda := s.Lambda0
	status := NotConverged
	iter := 0
	needJ := true
	for iter = 0; iter < s.MaxIter; iter++ {
		if needJ {
			switch {
			case p.Jacobian != nil:
				p.Jacobian(J, x)
				JtJ.Mul(J.T(), J)
			case p.ForwardDiff != nil:
				p.ForwardDiff(J, x, r)
				evals += n
				jtj(&JtJ, J)
			default:
				evals += numericJacobian(J, p, x, r, rTrial)
				JtJ.Mul(J.T(), J)
			}
			g.MulVec(J.T(), mat.NewVecDense(p.M, r))
			needJ = false
		}
		if projectedGradNorm(g, x, p.Lower, p.Upper) < s.GTol*math.Max(1, cost) {
			status = GTolReached
			break
		}
		// The free parameters: those not on a bound that the descent
		// direction -g points past. (projectedGradNorm > 0 leaves one.)
		free = free[:0]
		for j := 0; j < n; j++ {
			if !pushedOut(g.AtVec(j), x[j], p.Lower, p.Upper, j) {
				free = append(free, j)
			}
		}
		nf := len(free)
		sys := systems[nf]
		if sys == nil {
			sys = &dampedSystem{A: mat.NewDense(nf, nf, nil), g: mat.NewVecDense(nf, nil), delta: mat.NewVecDense(nf, nil)}
			systems[nf] = sys
		}
		// A parameter with no effect on the residuals has a zero column:
		// its diagonal gets a tiny positive value (relative to the
		// largest), its gradient is 0 and so is its step.
		maxd := 0.0
		for _, j := range free {
			maxd = math.Max(maxd, JtJ.At(j, j))
		}
		for a, j := range free {
			sys.g.SetVec(a, g.AtVec(j))
		}
		accepted, finite := false, false
		for tries := 0; tries < 30; tries++ {
			for a, i := range free {
				for b, j := range free {
					sys.A.Set(a, b, JtJ.At(i, j))
				}
				d := JtJ.At(i, i)
				if d <= 0 {
					d = math.Max(1e-12*maxd, 1e-300)
				}
				sys.A.Set(a, a, d*(1+lambda))
			}
			if !ls.solveDamped(sys.A, sys.g, sys.delta) {
				lambda *= 10
				continue
			}
			copy(xTrial, x)
			for a, j := range free {
				xTrial[j] = x[j] - sys.delta.AtVec(a)
			}
			cut := project(xTrial, p.Lower, p.Upper)
			p.Residuals(rTrial, xTrial)
			evals++
			c := halfSumSq(rTrial)
			// (a step damped down to nothing lands on x itself)
			finite = finite || (!(math.IsNaN(c) || math.IsInf(c, 0)) && !slices.Equal(xTrial, x))
			if !math.IsNaN(c) && c < cost {
				step := relStep(x, xTrial)
				dec := (cost - c) / math.Max(cost, 1e-300)
				copy(x, xTrial)
				copy(r, rTrial)
				cost = c
				lambda = math.Max(lambda/10, 1e-15)
				accepted = true
				needJ = true
				// A step the box cut short says nothing of how near
				// the minimum is: the next iteration holds the bound.
				if !cut {
					if dec < s.FTol {
						status = FTolReached
					} else if step < s.XTol {
						status = XTolReached
					}
				}
				break
			}
			lambda *= 10
		}
		if !accepted {
			// No damping lowers the cost though the projected gradient
			// has not vanished: a minimum to the precision of the
			// arithmetic, or a flat direction, unless no trial point had
			// finite residuals.
			status = FlatDirection
			if !finite {
				status = NoFiniteStep
			}
			break
		}
		if status != NotConverged {
			iter++
			break
		}
	}
	res := LMResult{X: x, Cost: cost, Iter: iter, Evals: evals, Status: status, AtBound: make([]bool, n)}
	for j := range x {
		if p.Lower != nil && x[j] == p.Lower[j] && !math.IsInf(p.Lower[j], 0) {
			res.AtBound[j] = true
		}
		if p.Upper != nil && x[j] == p.Upper[j] && !math.IsInf(p.Upper[j], 0) {
			res.AtBound[j] = true
		}
	}
	return res, nil
}

// luSolver solves the damped normal equations of LevenbergMarquardt as
// mat's VecDense.SolveVec does, bit for bit: LU factorisation with partial
// pivoting (lapack's Dgetf2, which Dgetrf runs for n <= 64), then the row
// swaps and the two triangular solves (Dgetrs), every product and sum in
// gonum's order, on amd64 with its assembly, which fuses no multiply and
// add (nor may this: float64(...) rounds each product). What it leaves out
// is SolveVec's estimate of the condition number (Dgecon), which cost more
// than the solve and whose only use was the mat.Condition error that the
// solver ignores. It declines (solve returns false, and the caller calls
// SolveVec) where gonum takes another road: a zero pivot (SolveVec then
// returns without writing its result), a pivot below the smallest normal
// float64 (Dgetf2 divides instead of scaling), or an element of A or b
// that is not finite. TestLUSolverMatchesSolveVec compares the two.
type luSolver struct {
	lu  []float64
	piv []int
}

// solveDamped sets x to the solution of LevenbergMarquardt's damped
// system a x = b and reports whether it found one: by solve, or where solve
// declines by SolveVec. A column with no effect on the residuals makes the
// damped system ill-conditioned at every damping, and treating that as a
// failure stalled the solver at its starting point, so a mat.Condition
// error still counts (SolveVec has written x; the cost test judges the
// step). But SolveVec returns Condition(+Inf) for an exactly zero pivot
// without writing x, which then held the previous iteration's step, tried
// again at x: x is set to NaN first, and a solution with a NaN in it
// reports false, as does any other error. False: damp more.
func (s *luSolver) solveDamped(a *mat.Dense, b, x *mat.VecDense) bool {
	if s.solve(a, b, x) {
		return true
	}
	for i := 0; i < x.Len(); i++ {
		x.SetVec(i, math.NaN())
	}
	var ce mat.Condition
	if err := x.SolveVec(a, b); err != nil && !errors.As(err, &ce) {
		return false
	}
	for i := 0; i < x.Len(); i++ {
		if math.IsNaN(x.AtVec(i)) {
			return false
		}
	}
	return true
}

// solve sets x to the solution of a x = b and reports true, or reports
// false, x untouched, where it declines (see luSolver).
func (s *luSolver) solve(a *mat.Dense, b, x *mat.VecDense) bool {
	n, c := a.Dims()
	if n != c || n > 64 || b.Len() != n || x.Len() != n {
		return false
	}
	xs := x.RawVector()
	if xs.Inc != 1 {
		return false
	}
	ra := a.RawMatrix()
	s.lu = s.lu[:0]
	for i := 0; i < n; i++ {
		s.lu = append(s.lu, ra.Data[i*ra.Stride:i*ra.Stride+n]...)
	}
	if cap(s.piv) < n {
		s.piv = make([]int, n)
	}
	lu, piv := s.lu, s.piv[:n]
	for _, v := range lu {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	for i := 0; i < n; i++ {
		if v := b.AtVec(i); math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	const sfmin = 0x1p-1022 // lapack's dlamchS
	// Dgetf2
	for j := 0; j < n; j++ {
		jp, big := j, math.Abs(lu[j*n+j]) // Idamax: the first largest
		for i := j + 1; i < n; i++ {
			if v := math.Abs(lu[i*n+j]); v > big {
				jp, big = i, v
			}
		}
		piv[j] = jp
		if !(big >= sfmin) {
			return false
		}
		if jp != j { // Dswap
			rj, rp := lu[j*n:j*n+n], lu[jp*n:jp*n+n]
			for k := range rj {
				rj[k], rp[k] = rp[k], rj[k]
			}
		}
		if j < n-1 {
			r := 1 / lu[j*n+j] // Dscal by 1/a_jj
			for i := j + 1; i < n; i++ {
				lu[i*n+j] *= r
			}
			// Dger, alpha -1: a_ik += (-1 a_ij) a_jk
			for i := j + 1; i < n; i++ {
				t := -1 * lu[i*n+j]
				for k := j + 1; k < n; k++ {
					lu[i*n+k] += float64(t * lu[j*n+k])
				}
			}
		}
	}
	// Dgetrs: x = b, its rows swapped (Dlaswp), then L x = x (Dtrsm,
	// lower, unit) and U x = x (Dtrsm, upper, non-unit)
	v := xs.Data[:n]
	for i := range v {
		v[i] = b.AtVec(i)
	}
	for k := 0; k < n; k++ {
		if p := piv[k]; p != k {
			v[k], v[p] = v[p], v[k]
		}
	}
	for i := 0; i < n; i++ {
		for k, l := range lu[i*n : i*n+i] {
			if l != 0 {
				v[i] += float64(-l * v[k])
			}
		}
	}
	for i := n - 1; i >= 0; i-- {
		for k := i + 1; k < n; k++ {
			if u := lu[i*n+k]; u != 0 {
				v[i] += float64(-u * v[k])
			}
		}
		v[i] *= 1 / lu[i*n+i]
	}
	return true
}

// numericJacobian fills J by forward differences around x, whose residuals
// are r; tmp is scratch of len M. It returns the evaluations used.
func numericJacobian(J *mat.Dense, p Problem, x, r, tmp []float64) int {
	n := len(x)
	evals := n // one a column, and one more for each backward step
	xh := make([]float64, n)
	copy(xh, x)
	for j := 0; j < n; j++ {
		h := fdStep(p, x, j)
		if h == 0 {
			for i := range tmp {
				J.Set(i, j, 0)
			}
			continue
		}
		xh[j] = x[j] + h
		p.Residuals(tmp, xh)
		if !allFinite(tmp) {
			// The step landed where the residuals do not exist (a model
			// that is NaN past some rate): difference the other way if
			// the box has room there. Before, the column was NaN, every
			// damped solve was refused, and the solver stopped at the
			// edge of that region calling it "no finite step".
			if back := x[j] - h; (p.Lower == nil || back >= p.Lower[j]) && (p.Upper == nil || back <= p.Upper[j]) && back != x[j] {
				xh[j] = back
				p.Residuals(tmp, xh)
				evals++
				h = -h
			}
		}
		for i := range tmp {
			J.Set(i, j, (tmp[i]-r[i])/h)
		}
		xh[j] = x[j]
	}
	return evals
}

func allFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// fdStep is the forward-difference step of parameter j at x: x[j] + h is
// where the residuals are evaluated, and h is 0 when there is no room in
// the box to step.
func fdStep(p Problem, x []float64, j int) float64 {
	// 1e-7 of the parameter, and at least 1e-11 (MINPACK's fdjac2
	// steps sqrt(eps)|x|, or sqrt(eps) at 0): the old floor, 1e-15
	// at 0, was rounding noise in the residuals, so a parameter at
	// its bound 0 saw a noisy or zero derivative there.
	h := 1e-7 * math.Max(math.Abs(x[j]), 1e-4)
	// Step inward when the forward point would leave the box, and
	// no further than the box: a parameter held fixed (lower ==
	// upper) has no derivative to take, and stepping out of the box
	// evaluated the residuals where they may not exist (a rate
	// below 0).
	if p.Upper != nil && x[j]+h > p.Upper[j] {
		h = -h
		if p.Lower != nil && x[j]+h < p.Lower[j] {
			// the larger of the room above and below
			h = p.Upper[j] - x[j]
			if below := p.Lower[j] - x[j]; -below > h {
				h = below
			}
		}
	}
	return h
}

// jtj sets dst to JᵀJ in one pass over J's rows: the products and sums,
// in their order, of gonum's dgemm for J.T() times J (rows of J in turn,
// each adding J[l][i] J[l][:] to row i where J[l][i] is not 0; amd64's
// AxpyUnitary neither fuses the multiply and the add, nor may this:
// float64(...) rounds the product), without its generic machinery, one
// call per row and element, that cost as much as the residuals on a
// problem of 4 parameters.
func jtj(dst, J *mat.Dense) {
	m, n := J.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(n, n)
	} else if r, k := dst.Dims(); r != n || k != n {
		panic(mat.ErrShape)
	}
	c := dst.RawMatrix()
	for i := 0; i < n; i++ {
		clear(c.Data[i*c.Stride : i*c.Stride+n])
	}
	a := J.RawMatrix()
	if n == 4 && jtj4(c.Data, c.Stride, a.Data[:(m-1)*a.Stride+4], a.Stride) {
		return
	}
	for l := 0; l < m; l++ {
		row := a.Data[l*a.Stride : l*a.Stride+n]
		for i, v := range row {
			if v != 0 {
				ci := c.Data[i*c.Stride : i*c.Stride+n]
				for j, w := range row {
					ci[j] += float64(v * w)
				}
			}
		}
	}
}

// jtj4 is jtj for 4 columns, its sums in registers and only the upper
// triangle's: the product a_i a_j is a_j a_i, and the lower triangle's
// sums differ from them only by the zeros that dgemm skips where the
// other element is 0 (adding ±0 leaves a sum that never is -0 as it is),
// unless an element is not finite, or its square overflows: ok is false
// then (a diagonal is not finite), and jtj takes the full sums.
func jtj4(c []float64, ldc int, a []float64, lda int) (ok bool) {
	var c00, c01, c02, c03, c11, c12, c13, c22, c23, c33 float64
	for l := 0; l+3 < len(a); l += lda {
		a0, a1, a2, a3 := a[l], a[l+1], a[l+2], a[l+3]
		if a0 != 0 {
			c00 += float64(a0 * a0)
			c01 += float64(a0 * a1)
			c02 += float64(a0 * a2)
			c03 += float64(a0 * a3)
		}
		if a1 != 0 {
			c11 += float64(a1 * a1)
			c12 += float64(a1 * a2)
			c13 += float64(a1 * a3)
		}
		if a2 != 0 {
			c22 += float64(a2 * a2)
			c23 += float64(a2 * a3)
		}
		if a3 != 0 {
			c33 += float64(a3 * a3)
		}
	}
	for _, d := range []float64{c00, c11, c22, c33} {
		if math.IsInf(d, 0) || math.IsNaN(d) {
			return false
		}
	}
	copy(c[0:4], []float64{c00, c01, c02, c03})
	copy(c[ldc:ldc+4], []float64{c01, c11, c12, c13})
	copy(c[2*ldc:2*ldc+4], []float64{c02, c12, c22, c23})
	copy(c[3*ldc:3*ldc+4], []float64{c03, c13, c23, c33})
	return true
}

// NumericJacobian returns the forward-difference Jacobian of p at x, the one
// the solver uses when p.Jacobian is nil. It is exported to check analytic
// Jacobians against.
func NumericJacobian(p Problem, x []float64) *mat.Dense {
	J := mat.NewDense(p.M, len(x), nil)
	r := make([]float64, p.M)
	p.Residuals(r, x)
	numericJacobian(J, p, x, r, make([]float64, p.M))
	return J
}

// project moves x into the box [lo, hi] and reports whether it moved it.
func project(x, lo, hi []float64) (moved bool) {
	for j := range x {
		if lo != nil && x[j] < lo[j] {
			x[j] = lo[j]
			moved = true
		}
		if hi != nil && x[j] > hi[j] {
			x[j] = hi[j]
			moved = true
		}
	}
	return moved
}

// dampedSystem is LevenbergMarquardt's damped normal equations over the
// free parameters, A delta = g.
type dampedSystem struct {
	A        *mat.Dense
	g, delta *mat.VecDense
}

// pushedOut reports whether parameter j, at xj with gradient gj, sits on a
// bound that the descent direction -gj points past.
func pushedOut(gj, xj float64, lo, hi []float64, j int) bool {
	return (lo != nil && xj <= lo[j] && gj > 0) || (hi != nil && xj >= hi[j] && gj < 0)
}

// projectedGradNorm is the max norm of the gradient g (of the cost, = Jᵀr)
// with the components that push x out of the box removed.
func projectedGradNorm(g *mat.VecDense, x, lo, hi []float64) float64 {
	m := 0.0
	for j := range x {
		if gj := g.AtVec(j); !pushedOut(gj, x[j], lo, hi, j) {
			m = math.Max(m, math.Abs(gj))
		}
	}
	return m
}

func relStep(a, b []float64) float64 {
	m := 0.0
	for j := range a {
		d := math.Abs(a[j]-b[j]) / math.Max(math.Abs(a[j]), 1e-12)
		m = math.Max(m, d)
	}
	return m
}

func halfSumSq(r []float64) float64 {
	s := 0.0
	for _, v := range r {
		s += v * v
	}
	return s / 2
}

// errorf formats an error with the package prefix.
func errorf(format string, args ...any) error {
	return fmt.Errorf("fit: "+format, args...)
}
