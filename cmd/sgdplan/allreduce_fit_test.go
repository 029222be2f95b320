package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
)

// allReduceTrace writes step traces of a ring all-reduce job (1, 2, 4 and
// 8 workers, no PS) timed by package model's RingAllReduce, with a runs.csv
// that gives the link rate and model size, and returns the folder.
func allReduceTrace(t *testing.T, m model.RingAllReduce) string {
	t.Helper()
	dir := t.TempDir()
	var steps, runs strings.Builder
	steps.WriteString("run,workers,ps,batch,worker,step,start,end\n")
	runs.WriteString("run,mode,param_bytes,bandwidth\n")
	for _, w := range []int{1, 2, 4, 8} {
		run := fmt.Sprintf("n%d", w)
		fmt.Fprintf(&runs, "%s,allreduce,100000000,2.5e9\n", run)
		T := m.StepTime(model.Config{Workers: w, Batch: 32, Nodes: 1})
		at := 0.0
		for s := 0; s < 60; s++ {
			// a few percent of jitter, the same at every worker (a
			// synchronous step ends for all at once)
			d := T * (1 + 0.03*math.Sin(float64(7*s+w)))
			for k := 0; k < w; k++ {
				fmt.Fprintf(&steps, "%s,%d,0,32,%d,%d,%.9g,%.9g\n", run, w, k, s, at, at+d)
			}
			at += d
		}
	}
	writeTestFile(t, dir, "steps.csv", steps.String())
	writeTestFile(t, dir, "runs.csv", runs.String())
	return dir
}

// fit --family allreduce fits a ring all-reduce trace and extrapolates it
// (from 1-4 workers to 8 within 5%, where auto's choice is named beside
// it); auto lists allreduce as left out with how to fit it; predict
// --bandwidth on an all-reduce model does not suggest --family mva, which
// refuses synchronous data.
func TestFitAllReduceFamily(t *testing.T) {
	m := model.RingAllReduce{Compute0: 0.05, ComputePerSample: 1e-3, Transfer: 0.04, Latency: 1e-3}
	dir := allReduceTrace(t, m)
	out := filepath.Join(t.TempDir(), "ar.json")
	code, stdout, stderr := runCmd(t, "fit", dir, "--family", "allreduce", "--train-workers", "1-4", "--out", out)
	if code != 0 || !strings.Contains(stdout, "family allreduce") {
		t.Fatalf("fit --family allreduce: exit %d\n%s%s", code, stdout, stderr)
	}
	fm, err := fit.LoadModel(out)
	if err != nil {
		t.Fatal(err)
	}
	c := model.Config{Workers: 8, Batch: 32, Nodes: 1}
	got, want := fm.Predict(c, math.NaN(), math.NaN()).StepsPerS.Value, m.StepsPerSecond(c)
	if math.Abs(got/want-1) > 0.05 {
		t.Errorf("8 workers: %g steps/s, RingAllReduce %g", got, want)
	}
	code, stdout, stderr = runCmd(t, "fit", dir, "--out", filepath.Join(t.TempDir(), "auto.json"))
	if code != 0 || !strings.Contains(stdout, "allreduce  n/a (not in auto: added after the validation's all-reduce tables were seen") || !strings.Contains(stdout, "--family allreduce tries it)") {
		t.Errorf("fit auto: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = runCmd(t, "predict", "--model", out, "--workers", "8", "--bandwidth", "1e10")
	if code != exitBadInput || !strings.Contains(stderr, "no family fitted on allreduce data takes the link rate") || strings.Contains(stderr, "--family mva fits") {
		t.Errorf("predict --bandwidth: exit %d\n%s", code, stderr)
	}
}

// Without a 1-worker configuration the allreduce fit can put the whole
// step into the ring's terms, one worker's compute at 0: fit says so,
// exit 2 (model.json failed its own checks, +Inf steps/s, exit 1), on the
// project's own sync-gns trace (2 workers and more).
func TestFitAllReduceWithoutOneWorker(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.json")
	code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--family", "allreduce", "--bootstrap", "20", "--out", out)
	if code != exitBadInput || !strings.Contains(stderr, "fit: family allreduce puts no time into one worker's step") || !strings.Contains(stderr, "the data's fewest workers, 2,") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
