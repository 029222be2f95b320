package planner

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
	"github.com/sgdplan/sgdplan/traces"
)

// A real trace window (Microsoft ITP cluster01, first 300 jobs) through every
// policy: Little's law holds within 2%, heSRPT's mean response is below
// FIFO's and fcfs-rigid's, and utilization is in (0, 1]. The same setting as
// docs/planner.md's table (p ~ Uniform[0.5, 0.95], max 4 x GPUs), smaller.
func TestRealTraceITP(t *testing.T) {
	data := testenv.DataDir(t)
	path := filepath.Join(data, "microsoft-itp-elasticflow-traces", "raw", "cluster01.csv")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared data not found (%v): set SGDPLAN_DATA or put shared/ beside the repository", err)
	}
	tj, _, err := traces.LoadJobTrace("itp", path)
	if err != nil {
		t.Fatal(err)
	}
	tj = tj[:300]
	rng := rand.New(rand.NewPCG(1, 77))
	jobs := make([]Job, len(tj))
	for i, j := range tj {
		g := max(1, j.RigidWorkers)
		jobs[i] = Job{ID: j.Name, Arrival: j.Arrival, Size: j.Size, Curve: PowerLaw{P: 0.5 + 0.45*rng.Float64()}, MaxWorkers: 4 * g, RigidWorkers: g}
	}
	n := 64.0
	got := map[string]float64{}
	for _, name := range PolicyNames {
		pol, _ := NewPolicy(name, 0)
		r, err := Simulate(jobs, pol, Settings{Servers: n, Integer: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e := relErr(r.MeanInSystem, r.ArrivalRate*r.MeanResponse); e > 0.02 {
			t.Errorf("%s: Little's law: L = %g, lambda W = %g", name, r.MeanInSystem, r.ArrivalRate*r.MeanResponse)
		}
		if !(r.Utilization > 0 && r.Utilization <= 1+1e-9) {
			t.Errorf("%s: utilization %g", name, r.Utilization)
		}
		got[name] = r.MeanResponse
	}
	if got["hesrpt"] >= got["fifo"] || got["hesrpt"] >= got["fcfs-rigid"] {
		t.Errorf("heSRPT mean response %g not below FIFO %g and fcfs-rigid %g", got["hesrpt"], got["fifo"], got["fcfs-rigid"])
	}
	t.Logf("mean response (s): %v", got)
}
