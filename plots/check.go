package plots

import (
	"fmt"
	"math"
	"sort"
)

// inputError is a problem with a figure's input: the figure, the element at
// fault (its index, from 0) and what was expected.
func inputError(fig, format string, args ...any) error {
	return fmt.Errorf("plots: %s: %s", fig, fmt.Sprintf(format, args...))
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkInterval checks an optional interval: both ends NaN (absent) or both finite
// with lo <= y <= hi.
func checkInterval(fig, what string, i int, y, lo, hi float64) error {
	if math.IsNaN(lo) && math.IsNaN(hi) {
		return nil
	}
	if !isFinite(lo) || !isFinite(hi) {
		return inputError(fig, "%s %d: interval [%g, %g]: want both ends finite or both NaN", what, i, lo, hi)
	}
	if lo > y || y > hi {
		return inputError(fig, "%s %d: interval [%g, %g] does not hold the value %g", what, i, lo, hi, y)
	}
	return nil
}

// interp returns the value at x of the piecewise-linear curve through
// (xs[i], ys[i]), xs increasing; ok is false outside [xs[0], xs[n-1]].
func interp(xs, ys []float64, x float64) (float64, bool) {
	n := len(xs)
	if n == 0 || x < xs[0] || x > xs[n-1] {
		return math.NaN(), false
	}
	i := sort.SearchFloat64s(xs, x)
	if xs[i] == x {
		return ys[i], true
	}
	t := (x - xs[i-1]) / (xs[i] - xs[i-1])
	return ys[i-1] + t*(ys[i]-ys[i-1]), true
}
