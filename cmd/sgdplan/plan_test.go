package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/internal/jsontext"
)

var jobsExample = filepath.Join("..", "..", "testdata", "jobs-example")

func TestPlanGolden(t *testing.T) {
	runGoldens(t, []goldenRun{
		{"plan-worked-all.golden", []string{"plan", "--jobs", filepath.Join(jobsExample, "worked.csv"), "--servers", "1", "--policy", "all"}},
		{"plan-jobs-hesrpt.golden", []string{"plan", "--jobs", filepath.Join(jobsExample, "jobs.csv"), "--servers", "16"}},
		{"plan-jobs-csv.golden", []string{"plan", "--jobs", filepath.Join(jobsExample, "jobs.csv"), "--servers", "16", "--policy", "fcfs-rigid", "--format", "csv"}},
	})
}

// The worked example of design.md through the command: one server, sizes
// 4, 3, 2, 1, p = 0.5 and 0.9 (see planner.TestWorkedExample for the arithmetic).
func TestPlanWorkedExampleJSON(t *testing.T) {
	cases := []struct {
		file, name     string
		flow, slowdown float64
		completion     []float64
	}{
		{"worked.csv", "hesrpt", 4.0785, math.NaN(), []float64{7.0044, 4.7365, 3.0612, 1.5119}},
		{"worked.csv", "hesrpt-slowdown", math.NaN(), 1.5466, nil},
		{"worked.csv", "equi", 4.2561, 1.7795, []float64{6.1463, 5.1463, 3.7321, 2}},
		{"worked.csv", "srpt", 5, 1.75, []float64{10, 6, 3, 1}},
		{"worked-p09.csv", "hesrpt", 4.9915, 1.7574, []float64{9.9501, 5.9560, 3.0062, 1.0535}},
		{"worked-p09.csv", "hesrpt-slowdown", 4.9981, 1.7498, []float64{9.9937, 5.9952, 3.0022, 1.0013}},
		{"worked-p09.csv", "equi", 6.6811, 2.8762, []float64{9.0361, 8.0361, 6.1701, 3.4822}},
		{"worked-p09.csv", "srpt", 5, 1.75, []float64{10, 6, 3, 1}},
	}
	for _, w := range cases {
		name := w.file + " " + w.name
		code, stdout, stderr := runCmd(t, "plan", "--jobs", filepath.Join(jobsExample, w.file), "--servers", "1", "--policy", w.name, "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var p planPolicy
		if err := json.Unmarshal([]byte(stdout), &p); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stdout)
		}
		if p.Policy != w.name || len(p.Jobs) != 4 {
			t.Fatalf("%s: policy %q with %d jobs", name, p.Policy, len(p.Jobs))
		}
		if !math.IsNaN(w.flow) && math.Abs(p.MeanFlowTime-w.flow) > 1e-4*w.flow {
			t.Errorf("%s: mean_flow_time %.6f, want %.4f", name, p.MeanFlowTime, w.flow)
		}
		if !math.IsNaN(w.slowdown) && math.Abs(p.MeanSlowdown-w.slowdown) > 1e-4*w.slowdown {
			t.Errorf("%s: mean_slowdown %.6f, want %.4f", name, p.MeanSlowdown, w.slowdown)
		}
		for i, c := range w.completion {
			if math.Abs(p.Jobs[i].Completion-c) > 1e-4*c {
				t.Errorf("%s: job %s completion %.6f, want %.4f", name, p.Jobs[i].Job, p.Jobs[i].Completion, c)
			}
		}
		if strings.HasPrefix(w.name, "hesrpt") && (p.ClosedForm == nil || p.ClosedForm.MaxRelDiff > 1e-9) {
			t.Errorf("%s: closed form %+v, want one that the replay matches to 1e-9", name, p.ClosedForm)
		}
	}
}

// --policy all prints a list, one object per policy; numeric is never worse
// than any other on mean flow time.
func TestPlanAllJSON(t *testing.T) {
	code, stdout, stderr := runCmd(t, "plan", "--jobs", filepath.Join(jobsExample, "jobs.csv"), "--servers", "16", "--policy", "all", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var ps []planPolicy
	if err := json.Unmarshal([]byte(stdout), &ps); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 11 || ps[10].Policy != "numeric" {
		t.Fatalf("%d policies, last %q", len(ps), ps[len(ps)-1].Policy)
	}
	for _, p := range ps[:10] {
		if ps[10].MeanFlowTime > p.MeanFlowTime*(1+1e-12) {
			t.Errorf("numeric %g worse than %s %g", ps[10].MeanFlowTime, p.Policy, p.MeanFlowTime)
		}
		for _, j := range p.Jobs {
			if j.WorkersInteger > 16 || (j.Job == "mnist" && j.WorkersInteger > 2) {
				t.Errorf("%s: job %s got %d whole workers (cap)", p.Policy, j.Job, j.WorkersInteger)
			}
		}
	}
}

func TestPlanPlot(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "plan.png")
	code, _, stderr := runCmd(t, "plan", "--jobs", filepath.Join(jobsExample, "jobs.csv"), "--servers", "16", "--plot", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkPNG(t, out)
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in the output folder, want only plan.png", len(ents))
	}
}

// Bad input: a clear message on stderr, exit 2, never a panic, no output
// file.
func TestPlanSimulateBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return writeTestFile(t, dir, name, body) }
	good := filepath.Join(jobsExample, "worked.csv")
	neg := write("neg.csv", "job,size,p\na,-4,0.5\n")
	badP := write("p.csv", "job,size,p\na,4,1.5\n")
	order := write("order.csv", "job,arrival,size,p\na,10,4,0.5\nb,5,4,0.5\n")
	model := write("model.csv", "job,size,model\na,4,missing.json\n")
	rigid := write("rigid.csv", "job,size,p,rigid_workers\na,4,1,8\n")
	plot := filepath.Join(dir, "never.png")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--jobs", neg, "--servers", "4"}, "neg.csv:2:3: size: want seconds on one worker from 1e-06"},
		{[]string{"plan", "--jobs", badP, "--servers", "4"}, "p.csv:2:5: p: want a speedup exponent in (0, 1]"},
		{[]string{"plan", "--jobs", good, "--servers", "4", "--policy", "lottery"}, "unknown policy \"lottery\""},
		{[]string{"plan", "--jobs", good, "--servers", "0"}, "--servers 0: want a number of workers > 0"},
		{[]string{"plan", "--jobs", order, "--servers", "4", "--plot", plot}, "order.csv:3:3: arrival: 5 s is before the previous job's 10 s"},
		{[]string{"plan", "--jobs", model, "--servers", "4"}, "model.csv:2:5: model: job \"a\": open "},
		{[]string{"plan", "--jobs", filepath.Join(dir, "nope.csv"), "--servers", "4"}, "nope.csv: no such file"},
		{[]string{"plan", "--jobs", rigid, "--servers", "4", "--policy", "fcfs-rigid"}, "rigid.csv:2:7: rigid_workers: job \"a\" needs 8 rigid workers, more than the 4 servers"},
		{[]string{"plan", "--jobs", good, "--servers", "4", "--format", "xml"}, "--format \"xml\""},
		{[]string{"plan", "--jobs", good, "--servers", "4", "--knee-alpha", "2"}, "--knee-alpha 2"},
		{[]string{"plan", "--jobs", good, "--servers", "4", "--p", "0"}, "--p 0: want a speedup exponent in (0, 1]"},
		{[]string{"plan", "--servers", "4"}, "plan: missing --jobs jobs.csv"},
		{[]string{"plan", "--jobs", good}, "plan: missing --servers N"},
		{[]string{"simulate", "--jobs", good}, "simulate: missing --servers N"},
		{[]string{"simulate", "--jobs", neg, "--servers", "4"}, "size: want seconds on one worker from 1e-06"},
		{[]string{"simulate", "--jobs", good, "--servers", "-3"}, "--servers -3"},
		{[]string{"simulate", "--jobs", good, "--servers", "4", "--policy", "numeric"}, "unknown policy \"numeric\""},
		{[]string{"simulate", "--jobs", good, "--servers", "4", "--early-stop", "1.5"}, "--early-stop 1.5"},
		{[]string{"simulate", "--jobs", good, "--servers", "4", "--energy-alpha", "0.5"}, "--energy-alpha 0.5"},
		{[]string{"simulate", "--jobs", good, "--servers", "4", "--seeds", "0"}, "--seeds 0"},
		{[]string{"simulate", "--servers", "4"}, "simulate: give --jobs jobs.csv, or --arrival-rate"},
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "-1"}, "simulate: --arrival-rate -1: want jobs per second > 0"},
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "1", "--p", "0"}, "--p 0"},
		{[]string{"simulate", "--jobs", order, "--servers", "4", "--plot", plot}, "arrival: 5 s is before"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != exitBadInput {
			t.Errorf("%v: exit %d, want %d; stderr %q", c.args, code, exitBadInput, stderr)
		}
		if !strings.Contains(stderr, c.want) {
			t.Errorf("%v: stderr %q, want it to say %q", c.args, stderr, c.want)
		}
		if strings.Contains(stderr, "panic") || stdout != "" {
			t.Errorf("%v: stdout %q, stderr %q", c.args, stdout, stderr)
		}
	}
	if _, err := os.Stat(plot); err == nil {
		t.Errorf("a plot was written for bad input")
	}
}

// --p gives the jobs with neither p nor model an exponent, names them on
// stderr, and leaves the others theirs. Hand-worked on 4 servers under SRPT:
// b (size 1, p = 1) runs first on all 4 at rate 4^1 and ends at 0.25 s; then
// a (size 4, no p) on all 4 at rate 4^0.5 = 2 ends 2 s later, at 2.25 s
// (with p = 1 it would end at 1.25 s). Without --p the row is an error that
// says to give --p.
func TestPlanSimulateDefaultP(t *testing.T) {
	jobs := filepath.Join(t.TempDir(), "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,size,p,model\na,4,,\nb,1,1,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"a": 2.25, "b": 0.25}
	for _, cmd := range []string{"plan", "simulate"} {
		code, stdout, stderr := runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--policy", "srpt", "--p", "0.5", "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", cmd, code, stderr)
		}
		if note := "sgdplan: warning: --p 0.5 for 1 of 2 jobs, which have neither p nor model: a\n"; !strings.Contains(stderr, note) {
			t.Errorf("%s: stderr %q, want %q", cmd, stderr, note)
		}
		var p struct {
			Jobs []struct {
				Job        string  `json:"job"`
				Completion float64 `json:"completion"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal([]byte(stdout), &p); err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, stdout)
		}
		if len(p.Jobs) != 2 {
			t.Fatalf("%s: %d jobs, want 2", cmd, len(p.Jobs))
		}
		for _, j := range p.Jobs {
			if w := want[j.Job]; math.Abs(j.Completion-w) > 1e-9*w {
				t.Errorf("%s: job %s completes at %g, want %g", cmd, j.Job, j.Completion, w)
			}
		}
		code, stdout, stderr = runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--policy", "srpt")
		if code != exitBadInput || stdout != "" || !strings.Contains(stderr, "jobs.csv:2:5: p, model: both empty: want a speedup exponent p or a model path") ||
			!strings.Contains(stderr, "give --p P") {
			t.Errorf("%s without --p: exit %d, stdout %q, stderr %q; want exit 2 naming jobs.csv:2 and --p", cmd, code, stdout, stderr)
		}
		// every row has p: --p does nothing, and says so (it did
		// nothing with no word, as if it overrode the rows' p)
		full := filepath.Join(t.TempDir(), "full.csv")
		if err := os.WriteFile(full, []byte("job,size,p\na,4,0.5\nb,1,1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr = runCmd(t, cmd, "--jobs", full, "--servers", "4", "--policy", "srpt", "--p", "0.9")
		if note := "--p 0.9 applies to no job: every row of " + full + " has p or model"; code != 0 || !strings.Contains(stderr, note) {
			t.Errorf("%s, every row with p: exit %d, stderr %q, want %q", cmd, code, stderr, note)
		}
		if code, _, stderr = runCmd(t, cmd, "--jobs", full, "--servers", "4", "--policy", "srpt"); code != 0 || strings.Contains(stderr, "--p") {
			t.Errorf("%s without --p: exit %d, stderr %q", cmd, code, stderr)
		}
		code, _, stderr = runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--p", "1.5")
		if code != exitBadInput || !strings.Contains(stderr, "--p 1.5: want a speedup exponent in (0, 1]") {
			t.Errorf("%s --p 1.5: exit %d, stderr %q", cmd, code, stderr)
		}
	}
}

// The users' path: convert a job trace without --p, then choose the curve
// when planning. cluster10.csv has 260 jobs, none with p.
func TestConvertThenPlanWithP(t *testing.T) {
	out := t.TempDir()
	trace := filepath.Join("..", "..", "testdata", "public", "microsoft-itp-elasticflow-traces", "raw", "cluster10.csv")
	code, _, stderr := runCmd(t, "convert", "--from", "itp", trace, "--out", out)
	if code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "give plan and simulate --p P") {
		t.Errorf("convert without --p: stderr %q, want a note pointing to plan/simulate --p", stderr)
	}
	jobs := filepath.Join(out, "jobs.csv")
	code, _, stderr = runCmd(t, "plan", "--jobs", jobs, "--servers", "64")
	if code != exitBadInput || !strings.Contains(stderr, "give --p P") {
		t.Errorf("plan without --p: exit %d, stderr %q; want 2 and a hint to give --p", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "64", "--p", "0.7", "--format", "csv")
	if code != 0 {
		t.Fatalf("plan --p 0.7: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "--p 0.7 for 260 of 260 jobs") || !strings.Contains(stderr, " and 252 more\n") {
		t.Errorf("stderr %q, want it to count 260 defaulted jobs and list 8", stderr)
	}
	if rows := strings.Count(stdout, "\n"); rows != 261 {
		t.Errorf("%d csv lines, want a header and 260 jobs", rows)
	}
}

// Jobs that all arrive at one time after 0 are all present at once: the
// closed form applies to their flow times (it was refused as "jobs arrive
// over time"), and the replay agrees with it; jobs at two times are not.
func TestPlanClosedFormCommonArrival(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "same.csv")
	apart := filepath.Join(dir, "apart.csv")
	os.WriteFile(same, []byte("job,arrival,size,p\na,5,4,0.5\nb,5,3,0.5\nc,5,1,0.5\n"), 0o644)
	os.WriteFile(apart, []byte("job,arrival,size,p\na,0,4,0.5\nb,5,3,0.5\n"), 0o644)
	code, stdout, stderr := runCmd(t, "plan", "--jobs", same, "--servers", "2")
	if code != 0 || !strings.Contains(stdout, "hesrpt closed form (flow-time-optimal, all jobs present at once)") || !strings.Contains(stdout, "the replay agrees within 1e-9") {
		t.Errorf("common arrival: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd(t, "plan", "--jobs", apart, "--servers", "2")
	if code != 0 || strings.Contains(stdout, "closed form") || !strings.Contains(stderr, "jobs arrive over time") {
		t.Errorf("two arrival times: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// The makespan is the last completion from time 0 (arrivals are times after
// the start): two jobs arriving at 100 s, sizes 4 and 1 on one server under
// SRPT, end at 101 and 105 s; it printed 5.
func TestPlanMakespanFromZero(t *testing.T) {
	jobs := filepath.Join(t.TempDir(), "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p\nA,100,4,0.5\nB,100,1,0.5\n"), 0o644)
	code, stdout, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "1", "--policy", "srpt", "--format", "json")
	var p struct {
		Makespan float64 `json:"makespan"`
		Integer  struct {
			Makespan float64 `json:"makespan"`
		} `json:"integer"`
	}
	if err := json.Unmarshal([]byte(stdout), &p); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	if p.Makespan != 105 || p.Integer.Makespan != 105 {
		t.Errorf("makespan %g, whole workers %g, want 105", p.Makespan, p.Integer.Makespan)
	}
}

// A plan with more than 2000 allocation changes is still drawn (binned in
// time by plots.PlanFigure) and its table printed: --plot used to fail the
// whole command, table and all.
func TestPlanPlotLongPlan(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("job,arrival,size,p\n")
	for i := range 1100 {
		fmt.Fprintf(&b, "j%d,%d,%d,0.5\n", i, 10*i, 20+(i*7)%25)
	}
	jobs := writeTestFile(t, dir, "many.csv", b.String())
	out := filepath.Join(dir, "plan.png")
	code, stdout, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "4", "--policy", "equi", "--plot", out, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p struct {
		Jobs []struct{ Completion float64 } `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(stdout), &p); err != nil || len(p.Jobs) != 1100 {
		t.Fatalf("json (%v): %d jobs", err, len(p.Jobs))
	}
	checkPNG(t, out)
	// more than 2000 changes: one at each arrival and each completion
	// that does not coincide with one (counted from the replay)
	if r, err := planRunFile(jobs, 4, "equi"); err != nil || len(r.segments) <= 2000 {
		t.Errorf("%d allocation changes (%v), want more than 2000", len(r.segments), err)
	}
}

// planRunFile replays the jobs of path under one policy, recorded.
func planRunFile(path string, n float64, policy string) (planPolicy, error) {
	jobs, _, err := planReadJobsUsing(path, planReadOptions{})
	if err != nil {
		return planPolicy{}, err
	}
	return planRun(jobs, n, policy, 0.05, true, nil)
}

// Above 64 jobs numeric returns the best heuristic without a search and
// says so; it no longer adds that the search "found nothing better".
func TestPlanNumericManyJobsMessage(t *testing.T) {
	var b strings.Builder
	b.WriteString("job,arrival,size,p\n")
	for i := range 80 {
		fmt.Fprintf(&b, "j%d,0,%d,0.5\n", i, 100+i)
	}
	jobs := writeTestFile(t, t.TempDir(), "many.csv", b.String())
	code, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "8", "--policy", "numeric")
	if code != 0 || !strings.Contains(stderr, "80 jobs > 64: best heuristic") || strings.Contains(stderr, "found nothing better") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
}

// Under --policy all a rigid job wider than the cluster leaves fcfs-rigid
// out with a warning, as report and numeric do (plan and simulate refused
// the whole file); named on its own, fcfs-rigid still refuses it at its cell.
func TestPlanAllLeavesRigidOut(t *testing.T) {
	jobs := writeTestFile(t, t.TempDir(), "rig.csv", "job,size,p,rigid_workers\na,40,0.5,9\nb,20,0.8,\n")
	const warn = `policy fcfs-rigid left out: job "a" needs 9 rigid workers, more than the 4 servers`
	for _, cmd := range []string{"plan", "simulate"} {
		code, stdout, stderr := runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--policy", "all", "--format", "json")
		if code != 0 || !strings.Contains(stderr, "sgdplan: warning: "+warn) {
			t.Errorf("%s --policy all: exit %d:\n%s", cmd, code, stderr)
			continue
		}
		if strings.Contains(stdout, `"fcfs-rigid"`) || !strings.Contains(stdout, `"equi"`) {
			t.Errorf("%s --policy all: fcfs-rigid in the output or equi missing:\n%.300s", cmd, stdout)
		}
		code, _, stderr = runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--policy", "fcfs-rigid")
		if code != exitBadInput || !strings.Contains(stderr, "rig.csv:2:10: rigid_workers: job \"a\" needs 9 rigid workers") {
			t.Errorf("%s --policy fcfs-rigid: exit %d: %s", cmd, code, stderr)
		}
	}
}

// numeric's warnings from planner.Optimize follow "numeric: " on stderr
// without their own "planner: optimize: " ("numeric: planner: optimize:
// fcfs-rigid left out: ..."); the json keeps them whole, in numeric's
// entry.
func TestPlanNumericWarningPrefix(t *testing.T) {
	jobs := writeTestFile(t, t.TempDir(), "rig.csv", "job,size,p,rigid_workers\na,5,0.5,3\nb,5,0.5,1\n")
	code, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "2", "--policy", "numeric")
	want := `sgdplan: warning: numeric: fcfs-rigid left out: job "a" needs 3 rigid workers, more than the 2 servers` + "\n"
	if code != 0 || !strings.Contains(stderr, want) || strings.Contains(stderr, "planner:") {
		t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, want)
	}
	code, stdout, _ := runCmd(t, "plan", "--jobs", jobs, "--servers", "2", "--policy", "numeric", "--format", "json")
	if code != 0 || !strings.Contains(stdout, `"planner: optimize: fcfs-rigid left out: job \"a\" needs 3 rigid workers`) {
		t.Errorf("json: exit %d:\n%.600s", code, stdout)
	}
}

// A --plot path not ending in .png is refused (exit 2, nothing written),
// by plan and simulate as by fit: it was written as a PNG with a warning
// (silently before that).
func TestPlotNameRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	worked := filepath.Join(jobsExample, "worked.csv")
	for _, args := range [][]string{{"plan", "--jobs", worked, "--servers", "4"}, {"simulate", "--jobs", worked, "--servers", "4", "--policy", "equi"}} {
		code, _, stderr := runCmd(t, append(args, "--plot", out)...)
		if code != exitBadInput || !strings.Contains(stderr, args[0]+": --plot "+out+": want a path ending in .png") {
			t.Errorf("%s: exit %d: %s", args[0], code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", args[0], out)
		}
	}
	png := filepath.Join(dir, "a.PNG")
	code, _, stderr := runCmd(t, "plan", "--jobs", worked, "--servers", "4", "--plot", png)
	if code != 0 || strings.Contains(stderr, "--plot") {
		t.Errorf(".PNG: exit %d: %s", code, stderr)
	}
	checkPNG(t, png)
}

// With weights the closed form's optimum is the weighted total, for
// slowdown as for flow time ("total slowdown 5.44" beside a mean of 0.79
// over 4 jobs read as a contradiction).
func TestPlanClosedFormWeightedLabel(t *testing.T) {
	jobs := writeTestFile(t, t.TempDir(), "w.csv", "job,size,p,weight\na,4,0.5,1\nb,3,0.5,1\nc,2,0.5,2\nd,1,0.5,4\n")
	for policy, want := range map[string]string{"hesrpt-slowdown": "total weighted slowdown ", "hesrpt": "total weighted flow time "} {
		code, stdout, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "4", "--policy", policy)
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("%s: exit %d, want %q:\n%s%s", policy, code, want, stdout, stderr)
		}
	}
}

// Every line plan and simulate write on stderr for a run that succeeds is a
// warning with fit's and predict's prefix (they began "sgdplan: plan: ",
// "sgdplan: simulate: " or "sgdplan: plan: warning: ", as main's errors
// begin "sgdplan: plan: ").
func TestPlanSimulateWarningPrefix(t *testing.T) {
	dir := t.TempDir()
	jobs := writeTestFile(t, dir, "jobs.csv", "job,size,p,rigid_workers,max_worker\na,40,0.5,9,\nb,20,,,\n")
	for _, args := range [][]string{
		{"plan", "--policy", "all", "--p", "0.7", "--plot", filepath.Join(dir, "plan.png")},
		{"simulate", "--policy", "all", "--p", "0.7", "--seeds", "3"},
	} {
		code, _, stderr := runCmd(t, append(args, "--jobs", jobs, "--servers", "4")...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != 0 || len(lines) < 4 {
			t.Fatalf("%s: exit %d, want 0 and warnings of the unknown column, --p, fcfs-rigid and more:\n%s", args[0], code, stderr)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "sgdplan: warning: ") {
				t.Errorf("%s: stderr line %q: want the prefix %q", args[0], l, "sgdplan: warning: ")
			}
		}
	}
}

// maxWrite is a writer that keeps what it is given and the longest single
// write.
type maxWrite struct {
	bytes.Buffer
	most int
}

func (w *maxWrite) Write(b []byte) (int, error) {
	w.most = max(w.most, len(b))
	return w.Buffer.Write(b)
}

// planWriteJSON writes a list one element at a time (plan --policy all
// --format json on 82,247 jobs held 330 MB of text in buffers grown by
// doubling, about 1 GB at its peak), byte for byte as jsontext.MarshalIndent
// of the whole list, and still fails before it writes anything when an element
// cannot be written.
func TestPlanWriteJSONStreams(t *testing.T) {
	policy := func(name string, jobs int) planPolicy {
		p := planPolicy{Policy: name, MeanFlowTime: 1.5, Warnings: []string{"a <warning> & \"quotes\" é"}}
		for i := range jobs {
			p.Jobs = append(p.Jobs, planJob{Job: fmt.Sprintf("job-%d<&>", i), Arrival: float64(i), Size: 1e-7 * float64(i+1), Completion: 1e21 * float64(i)})
		}
		if jobs > 1 {
			p.Jobs[1].CompletionRange = &[2]float64{1, 2}
		}
		return p
	}
	for n := range 4 {
		var out []planPolicy
		for k := range n {
			out = append(out, policy(fmt.Sprintf("p%d", k), 50+k))
		}
		var v any = out
		if n == 1 {
			v = out[0]
		}
		want, err := jsontext.MarshalIndent(v, "", "  ") // <, > and & as themselves
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		var w maxWrite
		if err := planWriteJSON(&w, out); err != nil {
			t.Fatalf("%d policies: %v", n, err)
		}
		if !bytes.Equal(w.Bytes(), want) {
			t.Errorf("%d policies: wrote\n%s\nwant jsontext.MarshalIndent's\n%s", n, w.Bytes(), want)
		}
		if n == 3 && w.most > len(want)/2 {
			t.Errorf("3 policies: one write of %d of the %d bytes: the list is written at once, not one policy at a time", w.most, len(want))
		}
	}
	out := []planPolicy{policy("a", 3), policy("b", 3), policy("c", 3)}
	out[2].Jobs[2].Slowdown = math.Inf(1)
	_, want := json.MarshalIndent(out, "", "  ")
	var w maxWrite
	err := planWriteJSON(&w, out)
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("an infinite slowdown in the last policy: error %v, want %v", err, want)
	}
	if w.Len() > 0 {
		t.Errorf("an infinite slowdown in the last policy: %d bytes written before the error", w.Len())
	}
}

// A table of several policies shows their summary rows only: planPlans
// keeps no policy's rows of every job for it (plan --policy all on 82,247
// jobs held 8 MB of them a policy), but for the plot of the first; one
// policy's table, json and csv keep them all.
func TestPlanPlansKeepRows(t *testing.T) {
	jobs, _, err := planReadJobsUsing(filepath.Join(jobsExample, "jobs.csv"), planReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	all := planSetup{format: "table", servers: 16, alpha: 0.1, names: planPolicyNames()}
	one := all
	one.names = []string{"hesrpt"}
	asJSON := all
	asJSON.format = "json"
	cases := []struct {
		name string
		s    planSetup
		plot bool
		rows func(k int) bool // whether policy k keeps its rows
	}{
		{"table of all", all, false, func(int) bool { return false }},
		{"table of all, plotted", all, true, func(k int) bool { return k == 0 }},
		{"table of one", one, false, func(int) bool { return true }},
		{"json of all", asJSON, false, func(int) bool { return true }},
	}
	for _, c := range cases {
		out, err := planPlans(jobs, c.s, c.plot, planFindEnds(jobs), io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(out) != len(c.s.names) {
			t.Fatalf("%s: %d plans of %d policies", c.name, len(out), len(c.s.names))
		}
		for k, p := range out {
			if want := c.rows(k); (len(p.Jobs) == len(jobs)) != want || (!want && p.Jobs != nil) {
				t.Errorf("%s: %s keeps %d rows of %d jobs, want them kept: %v", c.name, p.Policy, len(p.Jobs), len(jobs), want)
			}
		}
	}
}

// A max_workers below the servers refuses heSRPT's closed form only where
// it binds: sizes 20 and 5 at p = 0.4 on 4 servers give the small job at
// most 4 (1 - 0.5^(1/0.6)) = 2.74 workers, under its cap of 3 (the plan is
// the uncapped one, and so is the optimum); a cap of 2 binds.
func TestPlanClosedFormCapThatDoesNotBind(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		cap    string
		closed bool
	}{{"3", true}, {"2", false}} {
		f := filepath.Join(dir, "cap"+c.cap+".csv")
		os.WriteFile(f, []byte("job,arrival,size,p,max_workers\nbig,0,20,0.4,\nsmall,0,5,0.4,"+c.cap+"\n"), 0o644)
		code, stdout, stderr := runCmd(t, "plan", "--jobs", f, "--servers", "4")
		if code != 0 || strings.Contains(stdout, "the replay agrees within 1e-9") != c.closed || strings.Contains(stderr, "max_workers caps cut") == c.closed {
			t.Errorf("cap %s: exit %d, closed form want %v\n%s\n%s", c.cap, code, c.closed, stdout, stderr)
		}
	}
}

// numeric's whole-worker row is the best whole-worker plan there is among
// its plan rounded, its priorities searched on whole workers and every
// heuristic's, and says which: on 2 servers its plan rounded lost to
// hesrpt's by 13% (it warned), and a weighted input takes hesrpt's plan.
// The same row comes with --policy numeric alone (the heuristics replayed
// there, given by --policy all).
func TestPlanNumericWhole(t *testing.T) {
	dir := t.TempDir()
	num, weighted := filepath.Join(dir, "num.csv"), filepath.Join(dir, "weighted.csv")
	os.WriteFile(num, []byte("job,arrival,size,p\nj0,0,12.66,0.68\nj1,0,43.15,0.73\nj2,0,18.7,0.2\nj3,0,24.29,0.81\nj4,0,83.82,0.85\nj5,16.5,78.03,0.72\n"), 0o644)
	os.WriteFile(weighted, []byte("job,arrival,size,p,weight\nr0,0,39.14,0.31,1\nr1,5.359,42.91,0.24,1\nr2,9.695,16.29,0.26,0.5\nr3,15.35,95.27,0.64,1\nr4,15.35,45.7,0.88,1\nr5,15.35,21.99,0.49,1\nr6,15.35,60.42,0.68,1\n"), 0o644)
	for _, c := range []struct {
		file, plan string
		obj        func(planSummary) float64
	}{
		{num, "searched", func(s planSummary) float64 { return s.MeanFlowTime }},
		{weighted, "hesrpt", func(s planSummary) float64 { return s.MeanWeightedFlow }},
	} {
		code, stdout, stderr := runCmd(t, "plan", "--jobs", c.file, "--servers", map[string]string{num: "2", weighted: "3"}[c.file], "--policy", "all", "--format", "json")
		var out []planPolicy
		if err := json.Unmarshal([]byte(stdout), &out); code != 0 || err != nil {
			t.Fatalf("exit %d, %v: %s", code, err, stderr)
		}
		i := slices.IndexFunc(out, func(p planPolicy) bool { return p.Policy == "numeric" })
		nu := out[i].Integer
		lost := false
		for _, p := range out[:i] {
			if c.obj(nu) > c.obj(p.Integer)*(1+1e-9) {
				t.Errorf("%s: numeric on whole workers %g, %s %g", c.file, c.obj(nu), p.Policy, c.obj(p.Integer))
			}
			lost = lost || nu.Rounded > c.obj(p.Integer)*(1+1e-9)
		}
		if !lost || nu.Plan != c.plan || strings.Contains(stderr, "on whole workers") {
			t.Errorf("%s: plan %q (want %s), rounded %g lost to a heuristic: %v; stderr %q", c.file, nu.Plan, c.plan, nu.Rounded, lost, stderr)
		}
		_, alone, _ := runCmd(t, "plan", "--jobs", c.file, "--servers", map[string]string{num: "2", weighted: "3"}[c.file], "--policy", "numeric", "--format", "json")
		var one planPolicy
		if err := json.Unmarshal([]byte(alone), &one); err != nil || one.Integer != nu {
			t.Errorf("%s: --policy numeric gives %+v (%v), --policy all %+v", c.file, one.Integer, err, nu)
		}
	}
	_, stdout, _ := runCmd(t, "plan", "--jobs", weighted, "--servers", "3", "--policy", "numeric")
	_, _, stderr := runCmd(t, "plan", "--jobs", weighted, "--servers", "3", "--policy", "numeric", "--format", "csv")
	note := "numeric on whole workers: hesrpt's plan, weighted mean flow 55.42 s, 5.36% below its plan rounded (58.55 s)"
	if !strings.Contains(stdout, note) || !strings.Contains(stdout, "then whole workers: hesrpt's plan):") || !strings.Contains(stderr, "sgdplan: note: "+note) {
		t.Errorf("table:\n%s\ncsv's stderr:\n%s\nwant %q", stdout, stderr, note)
	}
	// the worked example: numeric's plan rounded is as good as any, no note
	_, stdout, _ = runCmd(t, "plan", "--jobs", filepath.Join(jobsExample, "worked.csv"), "--servers", "1", "--policy", "numeric")
	if strings.Contains(stdout, "numeric on whole workers") {
		t.Errorf("worked example:\n%s", stdout)
	}
}

// A job on a model fitted on 1 and 2 workers that can get more (its
// max_workers, else the servers) is said to run on an extrapolated speedup,
// with the counts read from model.json's own data; capped at the largest
// fitted count, or on a cluster no larger, it is not (a review found a job
// given 32 workers on such a model without a word).
func TestPlanWarnsBeyondFittedWorkers(t *testing.T) {
	dir := t.TempDir()
	mp := asgdModel(t, dir)
	most := 0
	for _, c := range readModelDoc(t, mp)["data"].(map[string]any)["configurations"].([]any) {
		most = max(most, int(c.(map[string]any)["workers"].(float64)))
	}
	if most != 2 {
		t.Fatalf("the fixture's model was fitted up to %d workers, want 2", most)
	}
	for _, c := range []struct {
		maxWorkers, servers string
		want                string // "": no warning
	}{
		{"", "32", "job x can get up to 32 workers, and the model it runs on was fitted on 1 to 2 workers: its speedup past 2 workers is extrapolated"},
		{"6", "32", "job x can get up to 6 workers"},
		{"2", "32", ""},
		{"", "2", ""},
	} {
		jobs := filepath.Join(dir, "jobs.csv")
		if err := os.WriteFile(jobs, []byte("job,arrival,size,model,max_workers\nx,0,1800,asgd.json,"+c.maxWorkers+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", c.servers)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		said := strings.Contains(stderr, "is extrapolated (predict warns the same)")
		if c.want == "" && said || c.want != "" && !strings.Contains(stderr, c.want) {
			t.Errorf("max_workers %q, %s servers: stderr %q, want %q", c.maxWorkers, c.servers, stderr, c.want)
		}
	}
}

// heSRPT's warning says why its closed form does not apply: jobs that share
// one fitted model share a curve, but not a power law (it said "the same
// power-law curve" as if that were what they lacked); power laws of
// different exponents are told as such.
func TestPlanHeSRPTWarningSaysWhy(t *testing.T) {
	dir := t.TempDir()
	asgdModel(t, dir)
	for _, c := range []struct{ rows, want string }{
		{"a,0,1800,,asgd.json\nb,0,900,,asgd.json\n", "job a's curve is a fitted model, not a power law"},
		{"a,0,1800,0.5,\nb,0,900,0.7,\n", "here the exponents differ"},
		{"a,0,1800,0.5,\nb,0,900,,asgd.json\n", "job b's curve is a fitted model, not a power law"},
	} {
		jobs := filepath.Join(dir, "jobs.csv")
		if err := os.WriteFile(jobs, []byte("job,arrival,size,p,model\n"+c.rows), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "4")
		if code != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.rows, code, stderr, c.want)
		}
	}
}

// The beyond-fit warning is given where the curves decide the shares: not
// for fcfs-rigid alone (each job holds its rigid_workers) nor under
// simulate's --energy-alpha (speed scaling replaces the curves); a review
// found it printed beside the line saying the curves were not used.
func TestBeyondFitWarningGated(t *testing.T) {
	dir := t.TempDir()
	asgdModel(t, dir)
	jobs := filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,arrival,size,model\nx,0,1800,asgd.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"plan", "--jobs", jobs, "--servers", "32", "--policy", "fcfs-rigid"}, false},
		{[]string{"simulate", "--jobs", jobs, "--servers", "32", "--energy-alpha", "2"}, false},
		{[]string{"simulate", "--jobs", jobs, "--servers", "32"}, true},
	} {
		code, _, stderr := runCmd(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		if got := strings.Contains(stderr, "is extrapolated (predict warns the same)"); got != c.want {
			t.Errorf("%v: warned %v, want %v: %s", c.args, got, c.want, stderr)
		}
	}
}

// With weights, the whole-worker columns give the weighted mean too: the
// plain mean alone made numeric's pick (weighted 3.794 s) look worse than
// srpt's (4.783 against 4.618 s, weighted 5.718).
func TestPlanTableWholeWeighted(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(dir, "wt.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p,weight\nbig,0,10,0.8,5\nsmall,0,9,0.8,1\n"), 0o644)
	code, out, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "4", "--policy", "srpt,numeric")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || !strings.Contains(lines[0], "whole workers: mean flow (s)  weighted mean flow (s)  mean slowdown") ||
		!strings.HasSuffix(strings.TrimSpace(lines[1]), "4.618                   5.718         0.4783") ||
		!strings.HasSuffix(strings.TrimSpace(lines[2]), "4.783                   3.794         0.5131") {
		t.Errorf("table:\n%s", out)
	}
}
