package planner_test

import (
	"fmt"
	"strings"

	"github.com/sgdplan/sgdplan/planner"
)

// The worked example of design.md: one server, four jobs of sizes 4, 3, 2, 1
// with s(k) = k^0.5, all present at time 0.
func ExampleHeSRPT() {
	off, err := planner.HeSRPT([]float64{4, 3, 2, 1}, nil, 0.5, 1, planner.FlowTime)
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean flow time %.4g\n", off.MeanFlowTime)
	for i, c := range off.Completion {
		fmt.Printf("job %d (size %d) completes at %.4g\n", i, 4-i, c)
	}
	// Output:
	// mean flow time 4.079
	// job 0 (size 4) completes at 7.004
	// job 1 (size 3) completes at 4.736
	// job 2 (size 2) completes at 3.061
	// job 3 (size 1) completes at 1.512
}

// Read a jobs.csv and compare two policies on 4 servers. EQUI by hand: a
// (size 8, p 0.5) and b (2, p 0.9) get 2 workers each, rates 1.4142 and
// 1.8661; at t = 1 c (4, p 0.7) arrives: 4/3 workers each, rates 1.1547,
// 1.2955, 1.2232; b's last 0.1339 takes 0.1034 (t = 1.1034); then a and c
// at 2 workers (1.4142, 1.6245): c's 3.8736 left take 2.3845 (t = 3.4879);
// a's 3.0942 left at 4 workers (rate 2) end at t = 5.0350. Flow times 5.0350,
// 1.1034, 2.4879: mean 2.875; slowdowns 0.6294, 0.5517, 0.6220: 0.601.
func ExampleSimulate() {
	in := `job,arrival,size,p
a,0,8,0.5
b,0,2,0.9
c,1,4,0.7
`
	jobs, err := planner.ReadJobs(strings.NewReader(in), "jobs.csv", nil)
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"hesrpt", "equi"} {
		pol, _ := planner.NewPolicy(name, 0)
		r, err := planner.Simulate(jobs, pol, planner.Settings{Servers: 4})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: mean flow time %.4g s, mean slowdown %.4g\n", name, r.MeanResponse, r.MeanSlowdown)
	}
	// Output:
	// hesrpt: mean flow time 2.602 s, mean slowdown 0.4765
	// equi: mean flow time 2.875 s, mean slowdown 0.601
}
