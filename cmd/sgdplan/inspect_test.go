package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// inspectSynthetic is the small committed async-PS trace (testdata/README.md).
var inspectSynthetic = filepath.Join("..", "..", "testdata", "synthetic", "async-ps")

func TestInspectGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"table", []string{"inspect", inspectSynthetic}, 0},
		{"json", []string{"inspect", "--format", "json", inspectSynthetic}, 0},
		{"csv", []string{"inspect", "--format", "csv", inspectSynthetic}, 0},
		// flags after the paths, as docs/design.md writes the command line
		{"json", []string{"inspect", inspectSynthetic, "--format", "json"}, 0},
		{"csv", []string{"inspect", inspectSynthetic, "--format=csv"}, 0},
		{"warn", []string{"inspect", filepath.Join("testdata", "inspect-warn")}, 0},
		{"bad", []string{"inspect", filepath.Join("testdata", "inspect-bad")}, exitBadInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			golden(t, "inspect/"+c.name+".stdout", stdout)
			golden(t, "inspect/"+c.name+".stderr", stderr)
		})
	}
}

// TestInspectNumbers checks the JSON against values worked out from the
// trace by hand-checkable arithmetic, independent of the golden files.
func TestInspectNumbers(t *testing.T) {
	// inspect-warn: one worker, 4 iterations of 1 s from 0 to 4: window
	// [0.4, 3.8] (3.4 s) holds the ends 1, 2, 3: 3/3.4 = 0.88235 updates/s,
	// x batch 8 = 7.0588 samples/s.
	code, stdout, stderr := runCmd(t, "inspect", "--format", "json", filepath.Join("testdata", "inspect-warn"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []struct {
		Run         string
		Mode        string
		Model       string
		WindowSteps int64    `json:"window_iterations"`
		UpdatesPerS *float64 `json:"updates_per_s"`
		SamplesPerS *float64 `json:"samples_per_s"`
		Warnings    []string
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d runs, want 2:\n%s", len(got), stdout)
	}
	a := got[0]
	if a.Run != "a" || a.WindowSteps != 3 || a.UpdatesPerS == nil || !inspectNear(*a.UpdatesPerS, 3/3.4) || !inspectNear(*a.SamplesPerS, 8*3/3.4) || a.Model != "tiny" {
		t.Errorf("run a: %+v", a)
	}
	// the run known only from runs.csv has no throughput (null) and a warning
	if m := got[1]; m.Run != "meta-only" || m.Mode != "sync" || m.UpdatesPerS != nil || len(m.Warnings) != 1 {
		t.Errorf("run meta-only: %+v", m)
	}
	if !strings.Contains(stderr, `unknown column "host" ignored`) || !strings.Contains(stderr, "only 3 iterations in the steady-state window") {
		t.Errorf("stderr lacks the warnings:\n%s", stderr)
	}
}

// TestInspectWindowTooShort: a steady-state window of a few subnormal
// seconds gives no finite rate: CSV wrote +Inf updates/s where JSON wrote
// null. Both now leave it unknown (empty, null) with a warning.
func TestInspectWindowTooShort(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "steps.csv"), []byte("run,workers,ps,batch,worker,step,start,end\n"+
		"a,1,1,8,0,0,0,5e-323\na,1,1,8,0,1,5e-323,1e-322\na,1,1,8,0,2,1e-322,1.5e-322\na,1,1,8,0,3,1.5e-322,2e-322\n"), 0o644)
	const warning = "too short for a finite rate: updates/s and samples/s unknown"
	code, stdout, stderr := runCmd(t, "inspect", "--format", "csv", dir)
	if code != 0 || !strings.Contains(stderr, warning) {
		t.Fatalf("csv: exit %d, stderr %q; want 0 and %q", code, stderr, warning)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(recs) != 2 {
		t.Fatalf("csv: %d records, %v:\n%s", len(recs), err, stdout)
	}
	for i, col := range recs[0] {
		switch col {
		case "updates_per_s", "updates_per_s_lo", "updates_per_s_hi", "samples_per_s":
			if recs[1][i] != "" {
				t.Errorf("csv %s = %q, want empty (unknown)", col, recs[1][i])
			}
		case "window_iterations":
			if recs[1][i] != "3" {
				t.Errorf("csv window_iterations = %q, want 3", recs[1][i])
			}
		}
	}
	code, stdout, stderr = runCmd(t, "inspect", "--format", "json", dir)
	if code != 0 || !strings.Contains(stderr, warning) {
		t.Fatalf("json: exit %d, stderr %q; want 0 and %q", code, stderr, warning)
	}
	var got []struct {
		UpdatesPerS *float64 `json:"updates_per_s"`
		SamplesPerS *float64 `json:"samples_per_s"`
		Warnings    []string
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || len(got) != 1 {
		t.Fatalf("json: %d runs, %v:\n%s", len(got), err, stdout)
	}
	if got[0].UpdatesPerS != nil || got[0].SamplesPerS != nil || !slices.ContainsFunc(got[0].Warnings, func(w string) bool { return strings.Contains(w, warning) }) {
		t.Errorf("json: %+v; want null rates and the warning", got[0])
	}
}

func inspectNear(got, want float64) bool {
	return got == want || (got-want)/want < 1e-12 && (want-got)/want < 1e-12
}

// TestInspectThroughputOnly: throughput.csv is listed, not summarized as
// runs: its rows in json and csv (which printed [] and a bare header),
// their ranges in the table.
func TestInspectThroughputOnly(t *testing.T) {
	path := filepath.Join("..", "..", "traces", "testdata", "canonical", "throughput.csv")
	code, stdout, stderr := runCmd(t, "inspect", "--format", "json", path)
	var doc struct {
		Throughput []map[string]any `json:"throughput"`
		Runs       []any            `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil || len(doc.Throughput) != 4 || len(doc.Runs) != 0 ||
		!strings.Contains(stderr, "holds 4 run-level throughput rows, no step trace: inspect lists them, one record a row") {
		t.Errorf("exit %d, %v, stdout %q, stderr %q", code, err, stdout, stderr)
	}
	// the table, which was an empty header of step columns, gives the
	// rows' ranges by file and model
	dir := t.TempDir()
	mixed := filepath.Join(dir, "throughput.csv")
	os.WriteFile(mixed, []byte("workers,ps,batch,samples_per_s,model\n1,1,64,100,a\n4,1,64,300,a\n2,2,32,50,b\n"), 0o644)
	code, stdout, stderr = runCmd(t, "inspect", mixed)
	lines := strings.Split(stdout, "\n")
	if code != 0 || len(lines) < 3 || !strings.HasPrefix(lines[0], "file") ||
		// async: steps/s (updates/s) = samples/s / batch: 100/64 = 1.5625,
		// 300/64 = 4.6875; 50/32 = 1.5625
		strings.Join(strings.Fields(lines[1])[1:], " ") != "a 2 1-4 1 64 async 1.562-4.688 100-300" ||
		strings.Join(strings.Fields(lines[2])[1:], " ") != "b 1 2 2 32 async 1.562 50" ||
		!strings.Contains(stdout, "steps/s: the row's steps_per_s, or its samples/s divided by the samples of one step") ||
		!strings.Contains(stderr, "holds 3 run-level throughput rows, no step trace: inspect lists their ranges by model") {
		t.Errorf("exit %d:\n%s%s", code, stdout, stderr)
	}
	// a model whose rows give global_batch (strong scaling) has its batch
	// marked global; one with batch alone does not
	global := filepath.Join(dir, "global", "throughput.csv")
	os.MkdirAll(filepath.Dir(global), 0o755)
	os.WriteFile(global, []byte("workers,ps,batch,global_batch,samples_per_s,model\n1,1,,256,100,g\n4,1,,256,300,g\n2,2,32,,50,b\n"), 0o644)
	code, stdout, stderr = runCmd(t, "inspect", global)
	lines = strings.Split(stdout, "\n")
	if code != 0 || len(lines) < 3 ||
		// async: an update is one worker's share of the global batch,
		// as fit reads it: 100/256 = 0.3906 on 1 worker, 300/64 = 4.688
		// on 4
		strings.Join(strings.Fields(lines[1])[1:], " ") != "g 2 1-4 1 256 (global) async 0.3906-4.688 100-300" ||
		strings.Join(strings.Fields(lines[2])[1:], " ") != "b 1 2 2 32 async 1.562 50" {
		t.Errorf("global batch: exit %d:\n%s%s", code, stdout, stderr)
	}
	// steps/s alone (a converted TensorBoard log): samples/s is steps/s
	// times the samples of a step, as fit multiplies them: async 2 x 32 =
	// 64, sync 4 workers x 16 = 64 samples a step: 128; it read "-"
	steps := filepath.Join(dir, "steps", "throughput.csv")
	os.MkdirAll(filepath.Dir(steps), 0o755)
	os.WriteFile(steps, []byte("workers,ps,batch,steps_per_s,mode,model\n4,1,32,2,async,a\n4,1,16,2,sync,s\n"), 0o644)
	code, stdout, stderr = runCmd(t, "inspect", steps)
	lines = strings.Split(stdout, "\n")
	if code != 0 || len(lines) < 3 ||
		strings.Join(strings.Fields(lines[1])[1:], " ") != "a 1 4 1 32 async 2 64" ||
		strings.Join(strings.Fields(lines[2])[1:], " ") != "s 1 4 1 16 sync 2 128" ||
		!strings.Contains(stdout, "samples/s: the row's samples_per_s, or, where it gives none, its steps/s times the samples of one step") {
		t.Errorf("steps/s alone: exit %d:\n%s%s", code, stdout, stderr)
	}
}

// inspect's note on a throughput.csv beside steps.csv said "fit reads
// these", but fit reads the step traces then and ignores the file (it
// warns so now): the note says what fit does.
func TestInspectThroughputBesideSteps(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "mix")
	if err := os.CopyFS(trace, os.DirFS(fitAsync)); err != nil {
		t.Fatal(err)
	}
	tp := filepath.Join(trace, "throughput.csv")
	if err := os.WriteFile(tp, []byte("workers,ps,batch,steps_per_s\n1,1,32,10\n2,1,32,18\n4,1,32,30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "sgdplan: note: " + tp + " holds 3 run-level throughput rows; inspect summarizes step traces only, and fit, given steps.csv, reads those and ignores this file (give it alone to fit its rows)\n"
	for _, format := range []string{"table", "json"} {
		code, _, stderr := runCmd(t, "inspect", "--format", format, trace)
		if code != 0 || !strings.Contains(stderr, want) || strings.Contains(stderr, "fit reads these") {
			t.Errorf("--format %s: exit %d, stderr:\n%s\nwant the note %q", format, code, stderr, want)
		}
	}
}

// A converted TensorBoard log is evals.csv, runs.csv and throughput.csv, no
// steps: inspect listed its run at 0 workers, 0 ps, batch 0 and hid the
// throughput row, the folder's one measurement. Now the row's range comes
// first, the run's counts are unknown ("-", null, empty), and the warning
// does not claim a steps.csv that is not there.
func TestInspectStepless(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"runs.csv":       "run,mode\nr1,allreduce\n",
		"evals.csv":      "run,time,updates,loss\nr1,0,0,2\nr1,1,10,1.5\n",
		"throughput.csv": "workers,ps,batch,steps_per_s,mode,run\n1,0,1,5.5,allreduce,r1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runCmd(t, "inspect", dir)
	lines := strings.Split(stdout, "\n")
	var run []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "r1" {
			run = f
		}
	}
	if code != 0 || len(lines) < 2 || !strings.HasPrefix(lines[0], "file") ||
		// samples/s = 5.5 steps/s x 1 worker x batch 1 (it read "-")
		strings.Join(strings.Fields(lines[1])[1:], " ") != "- 1 1 0 1 allreduce 5.5 5.5" ||
		strings.Join(run[:4], " ") != "r1 - - -" {
		t.Errorf("table: exit %d:\n%s", code, stdout)
	}
	if !strings.Contains(stderr, "holds 1 run-level throughput row, no step trace") || strings.Contains(stderr, "in steps.csv") {
		t.Errorf("stderr %q", stderr)
	}
	// json: the throughput row and the run (its loss curve), whose
	// counts are unknown (null)
	code, stdout, _ = runCmd(t, "inspect", "--format", "json", dir)
	var doc struct {
		Throughput []map[string]any `json:"throughput"`
		Runs       []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil || len(doc.Runs) != 1 || len(doc.Throughput) != 1 {
		t.Fatalf("json: exit %d, %v:\n%s", code, err, stdout)
	}
	for _, k := range []string{"workers", "ps", "batch"} {
		if v, ok := doc.Runs[0][k]; !ok || v != nil {
			t.Errorf("json %s = %v, want null", k, v)
		}
	}
	if tp := doc.Throughput[0]; tp["steps_per_s"] != 5.5 || tp["steps_per_s_from"] != "steps_per_s" || tp["run"] != "r1" {
		t.Errorf("json throughput row %v", tp)
	}
	// csv: the throughput row; the run is said to be in json and table
	code, stdout, stderr = runCmd(t, "inspect", "--format", "csv", dir)
	if rows := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(rows) != 2 || rows[1] != filepath.Join(dir, "throughput.csv")+",2,,r1,1,0,,1,,allreduce,5.5,steps_per_s,," ||
		!strings.Contains(stderr, "csv lists the throughput rows only; --format json and table list 1 run without step rows too") {
		t.Errorf("csv: exit %d:\n%s%s", code, stdout, stderr)
	}
}

// The fit-table folder (TensorFlow benchmarks, samples/s at batch 64 per
// worker, sync) in every format: json and csv give each row with its
// steps/s, samples/s / (64 x workers); the table its range, where it
// printed "-".
func TestInspectThroughputFormats(t *testing.T) {
	dir := filepath.Join("testdata", "fit-table")
	code, stdout, stderr := runCmd(t, "inspect", "--format", "csv", dir)
	// 52.4 / 64 = 0.81875; 2744 / (64 x 64) = 0.669921875
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	tp := filepath.Join(dir, "throughput.csv")
	if code != 0 || len(rows) != 6 ||
		rows[0] != "file,line,model,run,workers,ps,nodes,batch,global_batch,mode,steps_per_s,steps_per_s_from,samples_per_s,repeats" ||
		rows[1] != tp+",2,ResNet-50,,1,1,1,64,,sync,0.81875,samples_per_s,52.4,5" ||
		rows[5] != tp+",6,ResNet-50,,64,8,8,64,,sync,0.669921875,samples_per_s,2744,5" {
		t.Errorf("csv: exit %d:\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCmd(t, "inspect", "--format", "json", dir)
	var doc struct {
		Throughput []struct {
			Workers     int     `json:"workers"`
			StepsPerS   float64 `json:"steps_per_s"`
			SamplesPerS float64 `json:"samples_per_s"`
		} `json:"throughput"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil || len(doc.Throughput) != 5 ||
		doc.Throughput[1].Workers != 8 || !inspectNear(doc.Throughput[1].StepsPerS, 378.0/512) {
		t.Errorf("json: exit %d, %v:\n%s", code, err, stdout)
	}
	code, stdout, _ = runCmd(t, "inspect", dir)
	if f := strings.Fields(strings.Split(stdout, "\n")[1]); code != 0 || len(f) < 9 || f[7] != "0.6699-0.8187" {
		t.Errorf("table: exit %d:\n%s", code, stdout)
	}
}

func TestInspectBadUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"inspect"}, "inspect: no trace given"},
		{[]string{"inspect", "--format", "xml", inspectSynthetic}, `inspect: --format "xml": expected table, json or csv`},
		{[]string{"inspect", "no-such-dir"}, "no-such-dir"},
		{[]string{"inspect", filepath.Join("testdata", "inspect-bad", "throughput.csv")}, "throughput.csv:2:8: steps_per_s: 0 is not positive"},
		{[]string{"inspect", inspectSynthetic, "--format"}, "inspect: --format needs a value"},
		{[]string{"inspect", "inspect_test.go"}, "not a canonical trace file"},
		{[]string{"inspect", inspectSynthetic, "--bogus"}, "inspect: unknown flag --bogus"},
		// the example error of docs/trace-format.md, with its position
		{[]string{"inspect", filepath.Join("testdata", "inspect-bad", "steps.csv")}, "steps.csv:3:18: end: 3.1 is before start 3.5"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

// TestInspectDocExamples runs the examples of the command's manual (its
// Description), with paths taken from the repository root.
func TestInspectDocExamples(t *testing.T) {
	n := 0
	for _, line := range strings.Split(inspectCommand().Description, "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "sgdplan" || fields[1] != "inspect" {
			continue
		}
		args := fields[1:]
		for i, a := range args {
			if strings.HasPrefix(a, "testdata/") {
				args[i] = filepath.Join("..", "..", a)
			}
		}
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 || !strings.Contains(stdout, "w4") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", line, code, stdout, stderr)
		}
		n++
	}
	if n < 2 {
		t.Errorf("%d examples found in the manual, want at least 2", n)
	}
}

// inspect's table says that a synchronous run's updates/s are its steps/s
// (worker iterations / workers), and says nothing of it for async traces;
// b128-w2's updates/s are fit's 16.17 steps/s (they were 32.34, the
// iterations/s).
func TestInspectSyncNote(t *testing.T) {
	const note = "their updates/s are steps/s (what fit uses) = iterations/s / workers"
	code, out, e := runCmd(t, "inspect", filepath.Join("..", "..", "testdata", "sync-gns"))
	if code != 0 || !strings.Contains(out, note) || !regexp.MustCompile(`b128-w2 +2 +0 +64 +allreduce +40 +1\.113 +16\.17 `).MatchString(out) {
		t.Errorf("sync trace: exit %d, stdout %q, stderr %q", code, out, e)
	}
	if _, out, _ := runCmd(t, "inspect", filepath.Join("..", "..", "testdata", "synthetic", "async-ps")); strings.Contains(out, note) {
		t.Errorf("async trace: the sync note is printed: %q", out)
	}
}

// TestInspectStepsTwice: a trace given twice (a folder and its copy), or a
// folder with steps.csv and steps.csv.gz, would count every step twice (192
// steps and 17.27 updates/s instead of 96 and 8.63): exit 2 naming both.
func TestInspectStepsTwice(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(inspectSynthetic, "steps.csv"))
	if err != nil {
		t.Fatal(err)
	}
	cp, both := filepath.Join(dir, "copy"), filepath.Join(dir, "both")
	for _, d := range []string{cp, both} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	for p, data := range map[string][]byte{
		filepath.Join(cp, "steps.csv"): b, filepath.Join(both, "steps.csv"): b, filepath.Join(both, "steps.csv.gz"): z.Bytes(),
	} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{inspectSynthetic, cp}, []string{filepath.Join(cp, "steps.csv") + ":2:", `step: (run "w1", worker 0, step 0) is also in ` + filepath.Join(inspectSynthetic, "steps.csv")}},
		{[]string{both}, []string{"folder holds both " + filepath.Join(both, "steps.csv") + " and " + filepath.Join(both, "steps.csv.gz")}},
	} {
		code, stdout, stderr := runCmd(t, append([]string{"inspect"}, c.args...)...)
		if code != exitBadInput || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q; want exit 2 and no output", c.args, code, stdout)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, stderr, w)
			}
		}
	}
}

// A run or job name with a tab, a control character or a 0xff byte (the
// tab writer's escape) is printed quoted, so the table keeps its columns
// and the terminal gets no control sequence.
func TestTableNamesQuoted(t *testing.T) {
	for in, want := range map[string]string{"w\xff2": `"w\xff2"`, "a\tb\x1b[31m": `"a\tb\x1b[31m"`, "résumé run": "résumé run", "plain": "plain"} {
		if got := cellText(in); got != want {
			t.Errorf("cellText(%q) = %s, want %s", in, got, want)
		}
	}
	dir := t.TempDir()
	// (a name not UTF-8 is refused since 2026-12-06: a tab reads)
	os.WriteFile(filepath.Join(dir, "steps.csv"), []byte("run,workers,ps,batch,worker,step,start,end\nw\t2,2,1,32,0,0,1,2\nw\t2,2,1,32,1,0,1,2\n"), 0o644)
	code, stdout, stderr := runCmd(t, "inspect", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, line := range strings.Split(stdout, "\n") {
		if strings.Contains(line, "w") && strings.Contains(line, "\t") {
			t.Errorf("a raw tab in the table: %q", line)
		}
	}
	if !strings.Contains(stdout, `"w\t2"`) {
		t.Errorf("the run name is not quoted:\n%s", stdout)
	}
}

// fit on the same trace is bad input naming the run (it failed writing
// model.json: "json: unsupported value: NaN", exit 1).
func TestFitWindowTooShort(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "steps.csv"), []byte("run,workers,ps,batch,worker,step,start,end\n"+
		"a,1,1,8,0,0,0,5e-323\na,1,1,8,0,1,5e-323,1e-322\na,1,1,8,0,2,1e-322,1.5e-322\na,1,1,8,0,3,1.5e-322,2e-322\n"), 0o644)
	out := filepath.Join(dir, "m.json")
	code, _, stderr := runCmd(t, "fit", dir, "--out", out)
	if code != exitBadInput || !strings.Contains(stderr, "run a: its steady window") || !strings.Contains(stderr, "gives no finite positive rate") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("model.json written")
	}
}

// The table's count column is of iterations (steps.csv rows), which the
// sync footnote relates to steps: it was headed "steps" and a 2-worker
// sync run of 20 steps showed 40. Iterations of one length have SCV 0 in
// every format, not the rounding noise of end - start (9.233e-30 here).
func TestInspectIterationsAndFlatSCV(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("run,workers,ps,batch,worker,step,start,end,pull,compute,push\n")
	for k := range 60 {
		// starts 0.3, 0.4, ... written as decimals: end - start is 0.1
		// give or take the last bits
		s := math.Round((0.1*float64(k)+0.3)*1e10) / 1e10
		fmt.Fprintf(&b, "r,1,1,8,0,%d,%g,%g,0.01,0.07,0.02\n", k, s, math.Round((s+0.1)*1e10)/1e10)
	}
	writeTestFile(t, dir, "steps.csv", b.String())
	code, stdout, stderr := runCmd(t, "inspect", dir)
	lines := strings.Split(stdout, "\n")
	if f := strings.Fields(lines[0]); code != 0 || len(f) < 6 || f[5] != "iterations" {
		t.Fatalf("exit %d, header %q: %s", code, lines[0], stderr)
	}
	if f := strings.Fields(lines[1]); len(f) < 19 || f[5] != "60" || strings.Join(f[17:19], " ") != "0.1 (0)" {
		t.Errorf("row %q: want 60 iterations and iteration s 0.1 (0)", lines[1])
	}
	_, js, _ := runCmd(t, "inspect", "--format", "json", dir)
	var got []struct {
		Iteration struct {
			Var float64 `json:"var_s2"`
			SCV float64 `json:"scv"`
		} `json:"iteration"`
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil || len(got) != 1 || got[0].Iteration.SCV != 0 || got[0].Iteration.Var != 0 {
		t.Errorf("json: %v %+v", err, got)
	}
	_, cs, _ := runCmd(t, "inspect", "--format", "csv", dir)
	if strings.Contains(cs, "e-") {
		t.Errorf("csv keeps the rounding noise:\n%s", cs)
	}
}

// A run with no step rows and no mode in runs.csv has an unknown mode
// ("-", null, empty), as its counts: it printed allreduce beside ps "-"
// (the mode of 0 shards), against runs.csv's default, async. A mode
// runs.csv gives is printed.
func TestInspectSteplessMode(t *testing.T) {
	for _, c := range []struct{ runs, table, csv string }{
		{"", "-", ""},
		{"run,model\nr1,x\n", "-", ""},
		{"run,mode\nr1,async\n", "async", "async"},
	} {
		dir := t.TempDir()
		files := map[string]string{"evals.csv": "run,time,updates,loss\nr1,0,0,2\nr1,1,10,1.5\nr1,2,20,1.2\n"}
		if c.runs != "" {
			files["runs.csv"] = c.runs
		}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, stdout, _ := runCmd(t, "inspect", dir)
		var run []string
		for _, l := range strings.Split(stdout, "\n") {
			if f := strings.Fields(l); len(f) > 4 && f[0] == "r1" {
				run = f
			}
		}
		if len(run) < 5 || run[4] != c.table {
			t.Errorf("runs.csv %q: table row %q, want mode %q", c.runs, run, c.table)
		}
		_, stdout, _ = runCmd(t, "inspect", "--format", "json", dir)
		var rows []map[string]any
		if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 1 {
			t.Fatalf("json: %v: %s", err, stdout)
		}
		if m, ok := rows[0]["mode"]; !ok || (c.csv == "" && m != nil) || (c.csv != "" && m != c.csv) {
			t.Errorf("runs.csv %q: json mode %v, want %q (null when empty)", c.runs, m, c.csv)
		}
		_, stdout, _ = runCmd(t, "inspect", "--format", "csv", dir)
		if rows := strings.Split(strings.TrimSpace(stdout), "\n"); len(rows) != 2 || strings.Split(rows[1], ",")[4] != c.csv {
			t.Errorf("runs.csv %q: csv %q, want mode %q", c.runs, stdout, c.csv)
		}
	}
}

// inspect checks a one-worker run's transfer against S/B from runs.csv as
// fit does: the synthetic trace's 10 ms transfers at S/B = 10 ms pass; the
// same runs.csv with a link 1000 times faster (times read 1000 times too
// long, as a trace in milliseconds) or 100 times slower (faster than the
// link can carry) are named. inspect said nothing where fit warned.
func TestInspectLinkPlausible(t *testing.T) {
	for _, c := range []struct {
		bandwidth string
		want      string
	}{
		{"4e+08", ""},
		{"4e+11", "times S/B from runs.csv (1e-05 s: 4000000 B at 4e+11 B/s): latency dominates the link, or the times are not in seconds"},
		{"4e+06", "of S/B from runs.csv (1 s: 4000000 B at 4e+06 B/s), faster than the link can carry it"},
	} {
		dir := t.TempDir()
		copyDir(t, filepath.Join("..", "..", "testdata", "synthetic", "async-ps"), dir)
		runs := filepath.Join(dir, "runs.csv")
		b, err := os.ReadFile(runs)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(runs, []byte(strings.ReplaceAll(string(b), ",4e+08,", ","+c.bandwidth+",")), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCmd(t, "inspect", dir)
		if code != 0 {
			t.Fatalf("bandwidth %s: exit %d: %s", c.bandwidth, code, stderr)
		}
		got := strings.Contains(stderr, "run w1: the measured transfer of the model")
		if got != (c.want != "") || (c.want != "" && !strings.Contains(stderr, c.want)) {
			t.Errorf("bandwidth %s: stderr %q, want %q", c.bandwidth, stderr, c.want)
		}
		if strings.Contains(stderr, "run w2: the measured transfer") {
			t.Errorf("bandwidth %s: a 2-worker run checked (its transfers queue): %s", c.bandwidth, stderr)
		}
	}
}
