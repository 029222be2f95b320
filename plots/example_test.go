package plots_test

import (
	"fmt"

	"github.com/sgdplan/sgdplan/plots"
)

// The mean of three repeats with its 95% Student-t interval: mean 30.23,
// sd 0.7095, half-width t(0.975, 2) sd/sqrt(3) = 4.303 x 0.4096 = 1.762.
func ExampleRepeats() {
	o := plots.Repeats(4, []float64{30.1, 31.0, 29.6})
	fmt.Printf("%.4g workers: %.4g [%.4g, %.4g] updates/s\n", o.X, o.Y, o.Lo, o.Hi)
	// Output:
	// 4 workers: 30.23 [28.47, 32] updates/s
}

// The bounds and knee of a closed network with Z = 0.1 s and demands
// summing to 0.025 s, the largest 0.01 s.
func ExampleFitData_Knee() {
	d := plots.FitData{Z: 0.1, SumD: 0.025, MaxD: 0.01}
	fmt.Printf("knee %.4g workers; bound at 4: %.4g, at 32: %.4g updates/s\n", d.Knee(), d.Bound(4), d.Bound(32))
	// Output:
	// knee 12.5 workers; bound at 4: 32, at 32: 100 updates/s
}

// The empirical CDF of four response times.
func ExampleCDF() {
	for _, p := range plots.CDF([]float64{30, 10, 20, 20}) {
		fmt.Printf("%.4g s: %.4g\n", p.X, p.Y)
	}
	// Output:
	// 10 s: 0.25
	// 20 s: 0.5
	// 20 s: 0.75
	// 30 s: 1
}
