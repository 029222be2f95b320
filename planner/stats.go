package planner

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI returns the mean of x and the two-sided confidence interval at level
// (e.g. 0.95) of the mean from Student's t with len(x)-1 degrees of freedom:
// the interval over seeds that docs/planner.md reports. With one value, or
// a level outside (0, 1), the interval is NaN (a level of 2 panicked).
func MeanCI(x []float64, level float64) (mean, lo, hi float64) {
	n := float64(len(x))
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= n
	if n < 2 || !(level > 0 && level < 1) {
		return mean, math.NaN(), math.NaN()
	}
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	se := math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(1 - (1-level)/2)
	return mean, mean - t*se, mean + t*se
}
