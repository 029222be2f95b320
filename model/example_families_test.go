package model_test

import (
	"fmt"

	"github.com/sgdplan/sgdplan/model"
)

// Ring all-reduce on 4 GPUs of one machine and on 4 machines: the same
// compute, a 10x slower link between machines.
func ExampleRingAllReduce() {
	m := model.RingAllReduce{Compute0: 0.1, Transfer: 0.04, Latency: 0.001, InterTransfer: 0.4, InterLatency: 0.01}
	for _, c := range []model.Config{{Workers: 1}, {Workers: 4, Nodes: 1}, {Workers: 4, Nodes: 4}} {
		fmt.Printf("N=%d nodes=%d: step %.4g s, %.4g steps/s\n", c.Workers, c.Nodes, m.StepTime(c), m.StepsPerSecond(c))
	}
	// Output:
	// N=1 nodes=0: step 0.1 s, 10 steps/s
	// N=4 nodes=1: step 0.166 s, 6.024 steps/s
	// N=4 nodes=4: step 0.76 s, 1.316 steps/s
}

// Pollux's overlap exponent: gamma = 1 adds compute and synchronisation,
// a large gamma overlaps them fully.
func ExamplePollux() {
	m := model.Pollux{AlphaGrad: 0.1, BetaGrad: 0.001, AlphaNode: 0.05, BetaNode: 0.01, Batch: 100}
	c := model.Config{Workers: 4, Nodes: 2}
	for _, g := range []float64{1, 2, 100} {
		m.Gamma = g
		fmt.Printf("gamma %.4g: T_grad %.4g s, T_sync %.4g s, T_iter %.4g s\n", g, m.GradTime(c), m.SyncTime(c), m.StepTime(c))
	}
	// Output:
	// gamma 1: T_grad 0.2 s, T_sync 0.07 s, T_iter 0.27 s
	// gamma 2: T_grad 0.2 s, T_sync 0.07 s, T_iter 0.2119 s
	// gamma 100: T_grad 0.2 s, T_sync 0.07 s, T_iter 0.2 s
}

// Synchronous parameter servers: stragglers and the shards' links both slow
// the step as workers are added.
func ExampleSyncPS() {
	m := model.SyncPS{Compute0: 0.2, ComputeCV: 0.1, Transfer: 0.02, Apply: 0.01}
	for _, n := range []int{1, 2, 8, 32} {
		c := model.Config{Workers: n, PS: 4}
		fmt.Printf("N=%d: %.4g steps/s\n", n, m.StepsPerSecond(c))
	}
	// Output:
	// N=1: 4.124 steps/s
	// N=2: 3.902 steps/s
	// N=8: 3.044 steps/s
	// N=32: 1.559 steps/s
}

// The family convention: a fitter reads and writes every family as a vector.
func ExampleFamily() {
	m := model.OptimusAsync{Theta0: 0.1, Theta1: 0.02}
	fmt.Println(m.Family(), m.ParamNames(), m.Params())
	m = m.WithParams([]float64{0.2, 0.01, 0, 0.001})
	fmt.Printf("%.4g updates/s at 8 workers, 2 shards\n", m.StepsPerSecond(model.Config{Workers: 8, PS: 2}))
	// Output:
	// optimus-async [theta0 (s) theta1 (s) theta2 (s/worker) theta3 (s/shard)] [0.1 0.02 0 0]
	// 33.06 updates/s at 8 workers, 2 shards
}
