package main

import (
	"fmt"
	"math"
	"os"
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
	// model.json carries it (the table printed it alone; the table file
	// holds the rates to 6 digits)
	h := m.Diagnostics.HeldOut
	if h == nil {
		t.Fatal("model.json: no diagnostics.held_out")
	}
	if h.Rows != 2 || h.Runs != 0 || h.WorstWorkers != 16 || h.WorstBatch != 32 || fmt.Sprint(h.TrainWorkers) != "[1 2 4]" ||
		math.Abs(h.MAPEPct/((errs[0]+errs[1])/2)-1) > 1e-4 || math.Abs(h.WorstPct/math.Max(errs[0], errs[1])-1) > 1e-4 {
		t.Errorf("held_out %+v, want 2 rows at %.6g%% (worst %.6g%% at 16 workers, batch 32), train [1 2 4] (the counts of 1-4 the rows hold)", *h, (errs[0]+errs[1])/2, math.Max(errs[0], errs[1]))
	}
	if fmt.Sprintf("%.3g %.3g", h.MAPEPct, h.WorstPct) != g[1]+" "+g[2] {
		t.Errorf("held_out %.3g%% (worst %.3g%%), the table %s%% (%s%%)", h.MAPEPct, h.WorstPct, g[1], g[2])
	}
}

// A step fit's model.json carries the held-out runs' error and the other
// queueing variants' that the table prints under the runs.
func TestFitStepsHeldOutInModel(t *testing.T) {
	mp := filepath.Join(t.TempDir(), "m.json")
	code, stdout, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--bootstrap", "0", "--out", mp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	h := m.Diagnostics.HeldOut
	if h == nil {
		t.Fatal("model.json: no diagnostics.held_out")
	}
	line := fmt.Sprintf("held out by --train-workers: %d runs, predicted %.3g%% off on average (worst %.3g%%), out of sample\n", h.Runs, h.MAPEPct, h.WorstPct)
	if h.Runs != 16 || h.Rows != 0 || h.WorstWorkers < 3 || !strings.Contains(stdout, line) {
		t.Errorf("held_out %+v: want 16 runs of 3 to 8 workers and the table's line %q in\n%s", *h, line, stdout)
	}
	var parts []string
	for _, v := range h.OtherVariants {
		parts = append(parts, fmt.Sprintf("%s %.3g%% (worst %.3g%%)", v.Variant, v.MAPEPct, v.WorstPct))
	}
	if len(parts) != 2 || !strings.Contains(stdout, "on these runs: "+strings.Join(parts, ", ")+" (a refit") {
		t.Errorf("other_variants %+v: want correction and flow as the table prints them:\n%s", h.OtherVariants, stdout)
	}
	// the mean and worst from the runs table's held-out rows (measured
	// and fitted steps/s to 4 digits), and the worst run's workers
	var sum, worst float64
	worstW, n := 0, 0
	for _, r := range regexp.MustCompile(`(?m)^  \S+\s+(\d+)\s+\d+\s+\S+\s+([0-9.e+]+)\s+([0-9.e+]+)\s+held out$`).FindAllStringSubmatch(stdout, -1) {
		w, _ := strconv.Atoi(r[1])
		meas, _ := strconv.ParseFloat(r[2], 64)
		pred, _ := strconv.ParseFloat(r[3], 64)
		e := 100 * math.Abs(pred-meas) / meas
		sum, n = sum+e, n+1
		if e > worst {
			worst, worstW = e, w
		}
	}
	if n != 16 || math.Abs(sum/float64(n)-h.MAPEPct) > 0.05 || math.Abs(worst-h.WorstPct) > 0.05 || worstW != h.WorstWorkers {
		t.Errorf("held_out %.4g%% (worst %.4g%% at %d workers); the table's %d held-out rows give %.4g%% (worst %.4g%% at %d)", h.MAPEPct, h.WorstPct, h.WorstWorkers, n, sum/float64(n), worst, worstW)
	}
	// and a fit without --train-workers writes none
	code, _, stderr = runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--bootstrap", "0", "--out", mp)
	if m, err = fit.LoadModel(mp); code != 0 || err != nil || m.Diagnostics.HeldOut != nil {
		t.Errorf("without --train-workers: exit %d %v %s, held_out %v", code, err, stderr, m.Diagnostics.HeldOut)
	}
}

// A run name the user's files hold with a newline (a quoted CSV field) is
// printed in fit's runs table as inspect prints it, quoted with Go's
// escapes: raw, it split the run's row over two lines.
func TestFitRunsTableQuotesOddNames(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"steps.csv", "updates.csv", "runs.csv", "evals.csv"} {
		b, err := os.ReadFile(filepath.Join(fitAsync, f))
		if err != nil {
			t.Fatal(err)
		}
		s := regexp.MustCompile(`(?m)^w1,`).ReplaceAllString(string(b), "\"w\n1\",")
		writeTestFile(t, dir, f, s)
	}
	code, stdout, stderr := runCmd(t, "fit", dir, "--bootstrap", "0", "--out", filepath.Join(t.TempDir(), "m.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^  "w\\n1"\s+1\s+1\s`).MatchString(stdout) || strings.Contains(stdout, "w\n1") {
		t.Errorf("runs table:\n%s", stdout)
	}
}

// The report says a table fit's parameter intervals are widened (since
// 2026-12-07 they are, as its predictions are: "bootstrap percentile
// intervals" alone no longer described them), and a profile's that they
// come from the phase means' standard errors.
func TestReportSaysParameterIntervalsWidened(t *testing.T) {
	dir := t.TempDir()
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p\na,0,100,0.5\nb,0,50,0.9\n")
	for _, c := range []struct {
		family, want string
	}{
		{"auto", "Parameter intervals are 90% bootstrap percentile intervals, widened for the fit's few degrees of freedom"},
		{"mva", "Parameter intervals are 90% intervals from the standard errors of the profile's phase means"},
	} {
		m := filepath.Join(t.TempDir(), "m.json")
		if code, _, stderr := runCmd(t, "fit", fitAsync, "--family", c.family, "--out", m); code != 0 {
			t.Fatalf("fit --family %s: exit %d: %s", c.family, code, stderr)
		}
		out := filepath.Join(t.TempDir(), "r")
		if code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "4", "--out", out, "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5"); code != 0 {
			t.Fatalf("report: exit %d: %s", code, stderr)
		}
		if md, _ := os.ReadFile(filepath.Join(out, "summary.md")); !strings.Contains(string(md), c.want) {
			t.Errorf("--family %s: summary.md lacks %q:\n%s", c.family, c.want, md)
		}
	}
}

// Held-out errors all equal: their mean, an ulp above them by rounding,
// made model.json's check refuse fit's own model (exit 1, nothing
// written); it is held to the worst.
func TestFitHeldOutEqualErrors(t *testing.T) {
	dir := t.TempDir()
	var tab strings.Builder
	tab.WriteString("workers,ps,batch,samples_per_s,mode\n")
	// (a review's file: the mean of the 7 equal errors is 14.135613946522962,
	// each 14.13561394652296)
	tab.WriteString("1,0,32,100,allreduce\n2,0,32,185.185,allreduce\n4,0,32,322.581,allreduce\n")
	for range 7 {
		tab.WriteString("8,0,32,512.821,allreduce\n")
	}
	writeTestFile(t, dir, "throughput.csv", tab.String())
	mp := filepath.Join(dir, "m.json")
	code, _, stderr := runCmd(t, "fit", dir, "--family", "powerlaw", "--train-workers", "1-4", "--out", mp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	if h := m.Diagnostics.HeldOut; h == nil || h.Rows != 7 || h.MAPEPct > h.WorstPct || h.MAPEPct < h.WorstPct*(1-1e-12) {
		t.Errorf("held_out %+v: want 7 rows whose mean is their common error", h)
	}
}
