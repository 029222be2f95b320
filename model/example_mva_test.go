package model_test

import (
	"fmt"

	"github.com/sgdplan/sgdplan/model"
)

// A closed network with 1 s of think time and two queues: throughput with
// 1, 2 and 10 customers, the bounds and the knee.
func ExampleExactMVA() {
	n := model.Network{Z: 1, Stations: []model.Station{{Name: "a", D: 0.2}, {Name: "b", D: 0.1}}}
	for _, N := range []int{1, 2, 10} {
		r := model.ExactMVA(n, N)
		light, sat := model.NetworkBounds(n, N)
		fmt.Printf("N=%d X=%.4g/s cycle=%.4g s bounds %.4g %.4g\n", N, r.X, r.Cycle, light, sat)
	}
	fmt.Printf("knee %.4g\n", model.NetworkKnee(n))
	// Output:
	// N=1 X=0.7692/s cycle=1.3 s bounds 0.7692 5
	// N=2 X=1.494/s cycle=1.338 s bounds 1.538 5
	// N=10 X=4.776/s cycle=2.094 s bounds 7.692 5
	// knee 6.5
}

// With deterministic service (SCV 0) the corrected MVA predicts less
// queueing than plain MVA, and with Flow (exponential compute, ZSCV 1)
// less again: station b sees the smoothed output of station a.
func ExampleCorrectedMVA() {
	n := model.Network{Z: 1, ZSCV: 1, Stations: []model.Station{{Name: "a", D: 0.2, SCV: 0}, {Name: "b", D: 0.1, SCV: 0}}}
	fmt.Printf("plain %.4g/s, corrected %.4g/s, flow %.4g/s\n",
		model.ExactMVA(n, 6).X, model.CorrectedMVA(n, 6).X, model.MVA{Flow: true}.Solve(n, 6).X)
	// Output:
	// plain 3.766/s, corrected 4.106/s, flow 4.142/s
}

// A sweep fills X(1..N) in one pass of the recursion. Here a 2-server
// station (0.5 s per visit) and 1 s of think time: at N = 3 the birth-death
// chain gives pi proportional to 1, 1.5, 0.75, 0.1875 and
// X = (1.5*2 + 0.75*4 + 0.1875*4)/3.4375 = 1.964.
func ExampleMVA_Sweep() {
	n := model.Network{Z: 1, Stations: []model.Station{{D: 0.5, Servers: 2}}}
	xs := make([]float64, 4)
	model.MVA{}.Sweep(n, xs)
	fmt.Printf("%.4g\n", xs)
	// Output:
	// [0.6667 1.333 1.964 2.529]
}
