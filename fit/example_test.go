package fit_test

import (
	"fmt"
	"math"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
)

// Fit y = b1 (1 - exp(-b2 x)) to NIST StRD Misra1a from its first start;
// the certified values are b1 = 238.94212918, b2 = 5.5015643181e-4.
func ExampleLevenbergMarquardt() {
	x := []float64{77.6, 114.9, 141.1, 190.8, 239.9, 289.0, 332.8, 378.4, 434.8, 477.3, 536.8, 593.1, 689.1, 760.0}
	y := []float64{10.07, 14.73, 17.94, 23.93, 29.61, 35.18, 40.02, 44.82, 50.76, 55.05, 61.01, 66.40, 75.47, 81.78}
	p := fit.Problem{
		M: len(x),
		Residuals: func(dst, b []float64) {
			for i := range x {
				dst[i] = b[0]*(1-math.Exp(-b[1]*x[i])) - y[i]
			}
		},
	}
	res, err := fit.LevenbergMarquardt(p, []float64{500, 1e-4}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("b1 = %.4g, b2 = %.4g, RSS = %.4g\n", res.X[0], res.X[1], 2*res.Cost)
	// Output:
	// b1 = 238.9, b2 = 0.0005502, RSS = 0.1246
}

// Fit the Amdahl family to a strong-scaling table (global batch 256 split
// among the workers) generated from T = 0.02 + 0.001 b, and predict 32
// workers: T = 0.02 + 0.001 x 8 = 0.028 s, 35.71 steps/s.
func ExampleFitThroughput() {
	var pts []fit.Point
	for _, w := range []int{1, 2, 4, 8, 16} {
		c := model.Config{Workers: w, Batch: 256 / float64(w)}
		pts = append(pts, fit.Point{Config: c, StepsPerS: 1 / (0.02 + 0.001*c.Batch), SamplesPerStep: 256})
	}
	tf, _, err := fit.FitThroughput(pts, "amdahl", &fit.Settings{Bootstrap: -1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("serial %.4g s, per sample %.4g s\n", tf.Theta[0], tf.Theta[1])
	fmt.Printf("32 workers: %.4g steps/s\n", tf.Family.Predict(tf.Theta, model.Config{Workers: 32, Batch: 8}))
	// Output:
	// serial 0.02 s, per sample 0.001 s
	// 32 workers: 35.71 steps/s
}

// The "mva" family as fit builds it from a two-node profile: compute
// 0.1 s, one transfer of the whole model 0.07 s measured at 3 MB/s, no
// apply time. One worker at 3 MB/s: 1/(0.1 + 2 x 0.07) = 4.167 updates/s;
// at 6 MB/s the link demand halves (S/B): 1/(0.1 + 2 x 0.035) = 5.882.
// Many workers at 3 MB/s stay below the link's bound 1/0.07 = 14.29
// (push and pull are two equal queues, so they approach it slowly).
func ExampleQueueing() {
	q := fit.Queueing{Variant: "exact", Bandwidth: 3e6}
	th := []float64{0.1, 0, 0.07, 0} // z0, z1, link, apply
	a := q.AsyncPS(th)
	fmt.Printf("1 worker: %.4g updates/s at 3 MB/s, %.4g at 6 MB/s\n",
		a.StepsPerSecond(model.Config{Workers: 1, PS: 1}), a.StepsPerSecond(model.Config{Workers: 1, PS: 1, Bandwidth: 6e6}))
	fmt.Printf("link demand at 6 MB/s: %.4g s\n", q.LinkDemand(th, model.Config{Workers: 1, PS: 1, Bandwidth: 6e6}))
	fmt.Printf("64 workers: %.4g updates/s\n", a.StepsPerSecond(model.Config{Workers: 64, PS: 1}))
	// Output:
	// 1 worker: 4.167 updates/s at 3 MB/s, 5.882 at 6 MB/s
	// link demand at 6 MB/s: 0.035 s
	// 64 workers: 14.06 updates/s
}
