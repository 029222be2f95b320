package model_test

import (
	"fmt"

	"github.com/sgdplan/sgdplan/model"
)

// Time to a target loss for asynchronous SGD: updates/s grow with N, but so
// do the updates needed, because staleness slows convergence.
func ExampleSweep() {
	m := model.OptimusAsync{Theta0: 0.1, Theta1: 0.002, Batch: 32}
	g := model.Goal{
		TargetLoss: 0.6,
		Curve:      model.LossCurve{B0: 0.01, B1: 0.5, B2: 0.1},
		Law:        model.StalenessLaw{Lambda: 0.05},
	}
	pts, err := model.Sweep(m, g, model.Scaling{PS: 2}, []int{1, 2, 4, 8, 16, 32})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pts {
		fmt.Printf("N=%-2d %.4g updates/s, %.4g updates, %.4g s, speedup %.4g, efficiency %.4g\n",
			p.Workers, p.StepsPerSecond, p.Updates, p.Time, p.Speedup, p.Efficiency)
	}
	knee, _ := model.Knee(pts, 0.5)
	eff, _ := model.MaxEfficient(pts, 0.5)
	fmt.Printf("knee %d, largest N at efficiency >= 0.5: %d, fastest %d, cheapest %d\n",
		knee, eff, model.BestTime(pts).Workers, model.BestCost(pts).Workers)
	// Output:
	// N=1  9.901 updates/s, 150 updates, 15.15 s, speedup 1, efficiency 1
	// N=2  19.61 updates/s, 157.5 updates, 8.033 s, speedup 1.886, efficiency 0.943
	// N=4  38.46 updates/s, 172.5 updates, 4.485 s, speedup 3.378, efficiency 0.8445
	// N=8  74.07 updates/s, 202.5 updates, 2.734 s, speedup 5.542, efficiency 0.6927
	// N=16 137.9 updates/s, 262.5 updates, 1.903 s, speedup 7.961, efficiency 0.4975
	// N=32 242.4 updates/s, 382.5 updates, 1.578 s, speedup 9.602, efficiency 0.3001
	// knee 8, largest N at efficiency >= 0.5: 8, fastest 32, cheapest 1
}

// Batch-size efficiency from the gradient noise scale (Pollux, McCandlish).
func ExampleGNS() {
	g := model.GNS{Noise: 1000, RefBatch: 128}
	for _, b := range []float64{128, 512, 4096} {
		fmt.Printf("batch %.4g: efficiency %.4g, steps x%.4g\n", b, g.Efficiency(b), g.StepsRatio(b))
	}
	// Output:
	// batch 128: efficiency 1, steps x1
	// batch 512: efficiency 0.746, steps x0.3351
	// batch 4096: efficiency 0.2214, steps x0.1412
}

// The planner reads a speedup curve at real numbers of workers.
func ExampleSpeedupCurve() {
	c := model.SpeedupCurve{S: []float64{1, 1.8, 2.4, 2.2}}
	fmt.Printf("s(2.5) = %.4g, s(10) = %.4g, knee(0.5) = %d, monotone s(4) = %.4g\n",
		c.Speedup(2.5), c.Speedup(10), c.Knee(0.5), c.Monotone().Speedup(4))
	// Output:
	// s(2.5) = 2.1, s(10) = 2.2, knee(0.5) = 3, monotone s(4) = 2.4
}

// Updates to a target loss, and what staleness does to them.
func ExampleLossCurve_UpdatesTo() {
	l := model.LossCurve{B0: 0.01, B1: 0.5, B2: 0.1}
	k, _ := l.UpdatesTo(0.6)
	stale, _ := model.StalenessLaw{Lambda: 0.5}.Apply(l, 3).UpdatesTo(0.6)
	_, err := l.UpdatesTo(0.1)
	fmt.Printf("%.4g updates, %.4g at staleness 3\n%v\n", k, stale, err)
	// Output:
	// 150 updates, 375 at staleness 3
	// model: LossCurve: target loss 0.1 is at or below the asymptote b2 = 0.1 and is never reached
}
