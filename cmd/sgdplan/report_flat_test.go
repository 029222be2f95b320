package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/planner"
)

// The report's parameter table notes the parameters fit marks "**" (the
// fit is flat along a combination of them, and their narrow intervals do
// not show it), as fit's table does; the note column was empty for them.
func TestReportNotesFlatParameters(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "synthetic", "async-ps"), "--bootstrap", "20", "--out", m); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	flat, _ := readModelDoc(t, m)["diagnostics"].(map[string]any)["flat_parameters"].([]any)
	if len(flat) == 0 {
		t.Fatalf("the fit has no flat parameters: the case under test is gone")
	}
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p,model,max_workers\na,0,1800,,m.json,8\nb,0,900,0.5,,8\n")
	md := quickReport(t, m, jobs, "8", filepath.Join(dir, "r"))
	for _, p := range flat {
		row := "| " + p.(string) + " |"
		i := strings.Index(md, row)
		if i < 0 {
			t.Errorf("summary.md has no row for %s", p)
			continue
		}
		line, _, _ := strings.Cut(md[i:], "\n")
		if !strings.Contains(line, "not identified separately: the fit is flat along a combination of parameters") {
			t.Errorf("row %q: want the flat note", line)
		}
	}
}

// The parameter table gives the efficiency law beside the throughput's
// parameters, with its interval from model.json: an async model's lambda,
// a synchronous batch law's noise scale. A report put two jobs at 1 worker
// for a staleness cost of 1.16 it never showed.
func TestReportShowsTheEfficiencyLaw(t *testing.T) {
	dir := t.TempDir()
	gns := filepath.Join(dir, "gns.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--bootstrap", "20", "--out", gns); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	for _, c := range []struct {
		model, name string
		val         func(e map[string]any) []any
	}{
		{asgdModel(t, dir), "lambda", func(e map[string]any) []any { return []any{e["lambda"], e["lambda_lo"], e["lambda_hi"]} }},
		{gns, "noise_batch", func(e map[string]any) []any {
			g := e["gns"].(map[string]any)
			return []any{g["noise_batch"], g["noise_batch_lo"], g["noise_batch_hi"]}
		}},
	} {
		e := readModelDoc(t, c.model)["efficiency"].(map[string]any)
		v := c.val(e)
		jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p,model,max_workers\na,0,1800,,"+filepath.Base(c.model)+",8\n")
		md := quickReport(t, c.model, jobs, "8", filepath.Join(dir, "r-"+c.name))
		want := "| " + c.name + " | " + num4(v[0].(float64)) + " | [" + num4(v[1].(float64)) + ", " + num4(v[2].(float64)) + "] |"
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
}

// The report's notes say what its words mean: every policy the comparison
// lists (planner.PolicyNames and numeric) and the knee at --knee-alpha;
// the demo's page used them and defined none.
func TestReportTermsNameEveryPolicy(t *testing.T) {
	s := reportTerms(0.1)
	for _, name := range append(slices.Clone(planner.PolicyNames), "numeric") {
		if !strings.Contains(s, " "+name+" (") {
			t.Errorf("terms lack %q:\n%s", name, s)
		}
	}
	// and the three rules the page calls a knee, each apart
	for _, want := range []string{"flow time", "slowdown", "p99", "by at least 10%", "Knee names three rules on this page", "the fit figure's N*, where the throughput's two bounds cross", "sgdplan check's, past which one more worker adds less than half a worker's speed"} {
		if !strings.Contains(s, want) {
			t.Errorf("terms lack %q:\n%s", want, s)
		}
	}
	dir := t.TempDir()
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p\na,0,100,0.5\nb,0,200,0.7\n")
	m := asgdModel(t, dir)
	if md := quickReport(t, m, jobs, "4", filepath.Join(dir, "r")); !strings.Contains(md, "- Terms: a job's flow time") {
		t.Errorf("summary.md has no terms note:\n%s", md)
	}
}

// The report's plan table gives the whole-worker counts at start beside
// the whole-worker completions, as plan's table does (the times came
// without the counts behind them): the same numbers plan --format json
// gives.
func TestReportWholeWorkersAtStart(t *testing.T) {
	dir := t.TempDir()
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p\na,0,7200,0.8\nb,0,14400,0.6\nc,60,900,0.3\n")
	code, stdout, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "16", "--policy", "hesrpt", "--format", "json")
	var p planPolicy
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatalf("plan exit %d: %v: %s", code, err, stderr)
	}
	md := quickReport(t, asgdModel(t, dir), jobs, "16", filepath.Join(dir, "r"))
	if !strings.Contains(md, "| whole workers at start | with whole workers (s) |") {
		t.Fatalf("summary.md has no whole-workers column:\n%s", md)
	}
	for _, j := range p.Jobs {
		i := strings.Index(md, "| "+j.Job+" |")
		if i < 0 {
			t.Fatalf("summary.md has no row for %s", j.Job)
		}
		line, _, _ := strings.Cut(md[i:], "\n")
		if want := fmt.Sprintf("| %d | %s |", j.WorkersInteger, num4(j.CompletionInteger)); !strings.HasSuffix(line, want) {
			t.Errorf("row %q: want it to end %q (plan's whole workers and completion)", line, want)
		}
	}
}
