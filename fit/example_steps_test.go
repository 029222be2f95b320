package fit_test

import (
	"fmt"
	"math"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
)

// The library's main path, as `sgdplan fit` and `predict` take it: fit the
// step traces of a folder (steps.csv, runs.csv, updates.csv, evals.csv;
// here the project's own async-SGD traces, on runs of 1 and 2 workers
// only) and predict a larger configuration with its interval. The model
// is a planner.Speedup too (its Speedup(k) is the time-to-target speedup
// over one worker), so it can stand for a job's curve in a plan.
func ExampleFitStepsPaths() {
	sf, _, err := fit.FitStepsPaths([]string{"../testdata/asgd"}, fit.StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 50})
	if err != nil {
		panic(err)
	}
	m := sf.Model
	fmt.Printf("family %s (%s), fitted on %d configurations\n", m.Family, m.Mode, len(sf.Points))
	p := m.Predict(model.Config{Workers: 8, PS: 1}, math.NaN(), 0)
	fmt.Printf("8 workers, 1 shard: %.4g steps/s [%.4g, %.4g] (90%%)\n", p.StepsPerS.Value, p.StepsPerS.Lo, p.StepsPerS.Hi)
	// Output:
	// family mva (async), fitted on 8 configurations
	// 8 workers, 1 shard: 12.59 steps/s [6.306, 14.59] (90%)
}
