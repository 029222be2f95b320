package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
)

func TestSimulateGolden(t *testing.T) {
	runGoldens(t, []goldenRun{
		{"simulate-jobs-all.golden", []string{"simulate", "--jobs", filepath.Join(jobsExample, "jobs.csv"), "--servers", "16", "--policy", "all", "--early-stop", "0.3", "--seeds", "5"}},
		{"simulate-poisson-energy.golden", []string{"simulate", "--servers", "8", "--arrival-rate", "0.01", "--count", "300", "--mean-size", "200", "--policy", "equi", "--energy-alpha", "2", "--seeds", "3"}},
	})
}

// The command's M/M/1 case: one server, p = 1, exponential sizes of mean 1 s,
// arrivals at 0.5/s, FIFO: mean response 1/(mu - lambda) = 2 s, within 5% on
// 20,000 jobs; the same seed gives the same answer; intervals bracket the
// mean.
func TestSimulateMM1(t *testing.T) {
	args := []string{"simulate", "--servers", "1", "--arrival-rate", "0.5", "--count", "20000", "--mean-size", "1", "--p", "1", "--policy", "fifo", "--format", "json", "--seeds", "5"}
	code, stdout, stderr := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p simPolicy
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.MeanFlowTime-2) > 0.05*2 {
		t.Errorf("mean response %g, want 2 within 5%%", p.MeanFlowTime)
	}
	ci := p.CI95["mean_flow_time"]
	if !(ci[0] < p.MeanFlowTime && p.MeanFlowTime < ci[1]) || p.Seeds != 5 || len(p.Jobs) != 20000 {
		t.Errorf("interval %v around %g, %d seeds, %d jobs", ci, p.MeanFlowTime, p.Seeds, len(p.Jobs))
	}
	if math.Abs(p.Utilization-0.5) > 0.03 {
		t.Errorf("utilization %g, want 0.5", p.Utilization)
	}
	_, again, _ := runCmd(t, args...)
	if again != stdout {
		t.Errorf("same seeds, different output")
	}
}

// A jobs.csv row that names a fitted model.json gets that model's speedup
// curve: a lone job of size 1000 on 4 servers under SRPT completes at
// 1000 / s(4), with s from fit.LoadModel. The model is fitted here by the fit
// command on its own test table.
func TestPlanWithFittedModel(t *testing.T) {
	dir := t.TempDir()
	mpath := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", mpath); code != 0 {
		t.Skipf("fit could not produce a model.json (exit %d): %s", code, stderr)
	}
	m, err := fit.LoadModel(mpath)
	if err != nil {
		t.Fatal(err)
	}
	jobs := filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,size,model\nbig,1000,m.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "4", "--policy", "srpt", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p planPolicy
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatal(err)
	}
	want := 1000 / m.Speedup(4)
	if math.Abs(p.Jobs[0].Completion-want) > 1e-9*want {
		t.Errorf("completion %g, want 1000/s(4) = %g", p.Jobs[0].Completion, want)
	}
}

func TestSimulatePlot(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sim.png")
	code, _, stderr := runCmd(t, "simulate", "--jobs", filepath.Join(jobsExample, "jobs.csv"), "--servers", "16", "--policy", "all", "--plot", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkPNG(t, out)
}

// Lognormal sizes keep the requested mean: 20,000 jobs of mean 100 s with
// sigma 1 on one server with p = 1 under FIFO do 100 s of work each on
// average (within 3%), so the utilization is the load 0.005 x 100 = 0.5.
func TestSimulateLogNormalSizes(t *testing.T) {
	code, stdout, stderr := runCmd(t, "simulate", "--servers", "1", "--arrival-rate", "0.005", "--count", "20000", "--mean-size", "100",
		"--size-sigma", "1", "--p", "1", "--policy", "fifo", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p simPolicy
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, j := range p.Jobs {
		sum += j.Size
	}
	if mean := sum / float64(len(p.Jobs)); math.Abs(mean-100) > 3 {
		t.Errorf("mean size %g, want 100 within 3%%", mean)
	}
	if math.Abs(p.Utilization-0.5) > 0.03 {
		t.Errorf("utilization %g, want 0.5", p.Utilization)
	}
}
