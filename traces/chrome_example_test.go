package traces_test

import (
	"fmt"
	"os"

	"github.com/sgdplan/sgdplan/traces"
)

// Per-step phase times from a PyTorch profiler trace.
func ExampleReadChromeTrace() {
	f, err := os.Open("testdata/chrome/pytorch_profiler.json.gz")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	tr, _, err := traces.ReadChromeTrace(f, f.Name(), traces.ConvertOptions{Run: "resnet", Batch: 32})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tr.Steps {
		fmt.Printf("worker %d/%d step %d: %.4g s, compute %.4g s, push %.4g s, pull %.4g\n",
			s.Worker, s.Workers, s.Step, s.End-s.Start, s.Compute, s.Push, s.Pull)
	}
	// Output:
	// worker 1/2 step 5: 0.001 s, compute 0.00075 s, push 0.0003 s, pull NaN
	// worker 1/2 step 6: 0.0005 s, compute 0.0002 s, push 0.0001 s, pull NaN
}
