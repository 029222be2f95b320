package traces_test

import (
	"fmt"
	"strings"

	"github.com/sgdplan/sgdplan/traces"
)

// Two workers, iterations of 1 s back to back from t = 0 to 10: the window
// [1, 9.5] s holds the ends 1..9 of each worker (steps k = 0..8), 18 in
// 8.5 s: 2.118 updates/s, x 32 = 67.76 samples/s. Staleness k%2 is 1 for 4 of
// the 9 steps: mean 4/9 = 0.4444.
func ExampleSummarize() {
	var in strings.Builder
	in.WriteString("run,workers,ps,batch,worker,step,start,end,compute,staleness\n")
	for w := range 2 {
		for k := range 10 {
			fmt.Fprintf(&in, "r,2,1,32,%d,%d,%d,%d,0.8,%d\n", w, k, k, k+1, k%2)
		}
	}
	t := &traces.Trace{}
	_, err := traces.ReadSteps(strings.NewReader(in.String()), "steps.csv", func(s traces.Step) error {
		t.Steps = append(t.Steps, s)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := traces.Summarize(t)[0]
	fmt.Printf("window [%.4g, %.4g] s, %d iterations\n", s.WindowStart, s.WindowEnd, s.WindowSteps)
	fmt.Printf("updates/s %.4g, samples/s %.4g\n", s.UpdatesPerS, s.SamplesPerS)
	fmt.Printf("compute %.4g s, staleness mean %.4g p90 %d\n", s.Compute.Mean, s.Staleness.Mean, s.Staleness.P90)
	// Output:
	// window [1, 9.5] s, 18 iterations
	// updates/s 2.118, samples/s 67.76
	// compute 0.8 s, staleness mean 0.4444 p90 1
}

func ExampleReadSteps_error() {
	in := "run,workers,ps,batch,worker,step,start,end\na,1,1,32,0,0,3.5,3.1\n"
	_, err := traces.ReadSteps(strings.NewReader(in), "steps.csv", func(traces.Step) error { return nil })
	fmt.Println(err)
	// Output:
	// traces: steps.csv:2:18: end: 3.1 is before start 3.5
}
