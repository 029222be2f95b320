package main

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
)

// fit --train-workers on a throughput table says how far off the fit is
// on the rows it left out, as a step fit does on its runs (it printed
// nothing): the mean and worst of |predicted - measured| / measured, each
// the model's prediction at the row, as predict gives it.
func TestFitThroughputTableHeldOut(t *testing.T) {
	dir := t.TempDir()
	var tab strings.Builder
	tab.WriteString("workers,ps,batch,samples_per_s,mode\n")
	measured := map[int]float64{}
	for _, k := range []int{1, 2, 4, 8, 16} {
		// Amdahl-like: saturates past the power law fitted on 1-4
		measured[k] = 100 * float64(k) / (1 + 0.08*float64(k-1))
		fmt.Fprintf(&tab, "%d,0,32,%.6g,allreduce\n", k, measured[k])
	}
	writeTestFile(t, dir, "throughput.csv", tab.String())
	mp := filepath.Join(dir, "m.json")
	code, stdout, stderr := runCmd(t, "fit", dir, "--family", "powerlaw", "--train-workers", "1-4", "--out", mp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	g := regexp.MustCompile(`held out by --train-workers: 2 throughput rows, predicted ([0-9.e+-]+)% off on average \(worst ([0-9.e+-]+)%, at (\d+) workers, batch 32\), out of sample`).FindStringSubmatch(stdout)
	if g == nil {
		t.Fatalf("no held-out line:\n%s", stdout)
	}
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	var errs []float64
	for _, k := range []int{8, 16} {
		pred := m.StepsPerSecond(model.Config{Workers: k, Batch: 32})
		meas := measured[k] / (32 * float64(k)) // a synchronous step: k x 32 samples
		errs = append(errs, 100*math.Abs(pred-meas)/meas)
	}
	mean, _ := strconv.ParseFloat(g[1], 64)
	worst, _ := strconv.ParseFloat(g[2], 64)
	if math.Abs(mean/((errs[0]+errs[1])/2)-1) > 2e-3 || math.Abs(worst/math.Max(errs[0], errs[1])-1) > 2e-3 || g[3] != "16" {
		t.Errorf("held out %s%% (worst %s%% at %s), want %.4g%% (worst %.4g%% at 16)", g[1], g[2], g[3], (errs[0]+errs[1])/2, math.Max(errs[0], errs[1]))
	}
	if !(mean > 5) {
		t.Errorf("the case under test is gone: a power law on 1-4 misses 8-16 by %g%%", mean)
	}
}
