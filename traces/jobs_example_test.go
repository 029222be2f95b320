package traces_test

import (
	"fmt"
	"os"

	"github.com/sgdplan/sgdplan/traces"
)

// Convert a Microsoft ITP cluster trace into the planner's jobs.csv.
func ExampleLoadJobTrace() {
	jobs, warns, err := traces.LoadJobTrace("itp", "../testdata/public/microsoft-itp-elasticflow-traces/raw/cluster10.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d jobs, %d warnings\n", len(jobs), len(warns))
	for _, j := range jobs[:2] {
		// size = duration x GPUs: 604 s x 16 = 9664 GPU-seconds
		fmt.Printf("arrival %.4g s, size %.4g s, %d GPUs\n", j.Arrival, j.Size, j.RigidWorkers)
	}
	traces.WriteJobsCSV(os.Stdout, jobs[:1])
	// Output:
	// 260 jobs, 0 warnings
	// arrival 0 s, size 9664 s, 16 GPUs
	// arrival 1.05e+05 s, size 1.227e+04 s, 16 GPUs
	// job,arrival,size,p,model,max_workers,weight,rigid_workers
	// 5dc7d9cd-c300-9a4f-c3cd-dc2cc0935548,0,9664,,,,,16
}
