package model_test

import (
	"fmt"

	"github.com/sgdplan/sgdplan/model"
)

// A job with 0.2 s of compute per mini-batch of 100 samples, a 100 MB
// model, 1 GB/s links and 20 ms to apply an update, on 2 shards. One
// worker: 1/(0.2 + 0.051 + 0.01 + 0.051 + sync 0.0364) = 2.87 steps/s.
func ExampleAsyncPS() {
	a := model.AsyncPS{
		Compute0: 0.1, Compute1: 0.001, Batch: 100,
		ParamBytes: 1e8, Bandwidth: 1e9, Latency: 0.001, Apply: 0.02,
	}
	for _, N := range []int{1, 4, 16} {
		p := a.Predict(model.Config{Workers: N, PS: 2})
		fmt.Printf("N=%d %.4g steps/s %.4g samples/s staleness %.4g bottleneck %s\n",
			N, p.StepsPerSecond, p.SamplesPerSec, p.Staleness, p.Bottleneck)
	}
	fmt.Printf("knee %.4g workers\n", a.Knee(model.Config{Workers: 16, PS: 2}))
	// Output:
	// N=1 2.87 steps/s 287 samples/s staleness 0 bottleneck push
	// N=4 9.736 steps/s 973.6 samples/s staleness 2.478 bottleneck push
	// N=16 17.76 steps/s 1776 samples/s staleness 10.11 bottleneck push
	// knee 6.832 workers
}
