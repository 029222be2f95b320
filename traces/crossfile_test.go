package traces

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTestFile writes content to dir/name, creating dir.
func writeTestFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const crossSteps = stepsHeader +
	"a,2,1,32,0,0,0,1,,,,,\n" +
	"a,2,1,32,1,0,0,1,,,,,\n" +
	"a,2,1,32,0,1,1,2,,,,,\n" +
	"a,2,1,32,1,1,1,2,,,,,\n"

// TestPlainAndGzipInOneFolder: a folder holding steps.csv and steps.csv.gz
// would count its steps twice; it is an error naming both.
func TestPlainAndGzipInOneFolder(t *testing.T) {
	dir := t.TempDir()
	p := writeTestFile(t, dir, "steps.csv", crossSteps)
	q := writeTestFile(t, dir, "steps.csv.gz", gzipString(crossSteps))
	for name, call := range map[string]func() error{
		"Files":          func() error { _, err := Files(dir); return err },
		"Load":           func() error { _, _, err := Load(dir); return err },
		"SummarizePaths": func() error { _, _, err := SummarizePaths(dir); return err },
	} {
		err := call()
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), q) || !strings.Contains(err.Error(), "both") {
			t.Errorf("%s: error %v, want one naming both %s and %s", name, err, p, q)
		}
	}
}

// TestStepInTwoFiles: the same trace given twice (a folder and its copy)
// is an error naming the step and both files, in Load and SummarizePaths;
// a run split over files with distinct steps is read.
func TestStepInTwoFiles(t *testing.T) {
	root := t.TempDir()
	base, cp := filepath.Join(root, "base"), filepath.Join(root, "copy")
	p := writeTestFile(t, base, "steps.csv", crossSteps)
	q := writeTestFile(t, cp, "steps.csv.gz", gzipString(crossSteps))
	want := "traces: " + q + `:2:12: step: (run "a", worker 0, step 0) is also in ` + p
	if _, _, err := Load(base, cp); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Load: error %v, want %q...", err, want)
	}
	if _, _, err := SummarizePaths(base, cp); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("SummarizePaths: error %v, want %q...", err, want)
	}
	// a later step only: the duplicate is found wherever it lies
	late := writeTestFile(t, filepath.Join(root, "late"), "steps.csv", stepsHeader+"a,2,1,32,1,7,5,6,,,,,\na,2,1,32,1,1,1,2,,,,,\n")
	if _, _, err := Load(base, late); err == nil || !strings.Contains(err.Error(), late+`:3:12: step: (run "a", worker 1, step 1) is also in `+p) {
		t.Errorf("Load: error %v, want the duplicate on line 3 of %s", err, late)
	}

	// one worker per file: the run is read whole
	w0 := writeTestFile(t, filepath.Join(root, "w0"), "steps.csv", stepsHeader+"a,2,1,32,0,0,0,1,,,,,\na,2,1,32,0,1,1,2,,,,,\n")
	w1 := writeTestFile(t, filepath.Join(root, "w1"), "steps.csv", stepsHeader+"a,2,1,32,1,0,0,1,,,,,\na,2,1,32,1,1,1,2,,,,,\n")
	tr, _, err := Load(w0, w1)
	if err != nil || len(tr.Steps) != 4 {
		t.Fatalf("Load of a run split by worker: %v", err)
	}
	sums, _, err := SummarizePaths(w0, w1)
	if err != nil || len(sums) != 1 || sums[0].Steps != 4 {
		t.Fatalf("SummarizePaths of a run split by worker: %v %+v", err, sums)
	}
	// the same file named twice (itself and through its folder) is read once
	if tr, _, err := Load(base, p); err != nil || len(tr.Steps) != 4 {
		t.Errorf("Load(folder, its file): %v", err)
	}
}

// TestRunsAndEvalsInTwoFiles: a runs.csv row that an earlier runs.csv holds
// is read once when the two agree and an error when they differ (the last
// one silently won); an evals.csv row held by two files is an error (the
// loss curve counted it twice). In Load and SummarizePaths alike.
func TestRunsAndEvalsInTwoFiles(t *testing.T) {
	root := t.TempDir()
	a, b, c := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")
	writeTestFile(t, a, "steps.csv", crossSteps)
	writeTestFile(t, a, "runs.csv", "run,mode,bandwidth\na,async,1e8\n")
	writeTestFile(t, a, "evals.csv", "run,updates,loss\na,1,2.5\na,2,2.0\n")
	writeTestFile(t, b, "runs.csv", "run,mode,bandwidth\na,async,1e8\n") // the same
	tr, _, err := Load(a, b)
	if err != nil || len(tr.Runs) != 1 {
		t.Errorf("a run described twice alike: %v, %d runs, want 1", err, len(tr.Runs))
	}
	// an empty mode and the mode it defaults to (async: ps 1) say the same
	e := filepath.Join(root, "e")
	writeTestFile(t, e, "runs.csv", "run,mode,bandwidth\na,,1e8\n")
	if tr, _, err := Load(a, e); err != nil || len(tr.Runs) != 1 {
		t.Errorf("a run described twice, once with its default mode: %v", err)
	}
	// notes that differ (convert --from chrome notes each worker's file)
	// describe the same run; the first file's row is kept
	n := filepath.Join(root, "n")
	writeTestFile(t, a, "runs.csv", "run,mode,bandwidth,notes\na,async,1e8,from trace-0.json\n")
	writeTestFile(t, n, "runs.csv", "run,mode,bandwidth,notes\na,async,1e8,from trace-1.json\n")
	if tr, _, err := Load(a, n); err != nil || len(tr.Runs) != 1 || tr.Runs[0].Notes != "from trace-0.json" {
		t.Errorf("a run described twice with other notes: %v, runs %+v", err, tr)
	}
	writeTestFile(t, a, "runs.csv", "run,mode,bandwidth\na,async,1e8\n")
	writeTestFile(t, c, "runs.csv", "run,mode,bandwidth\na,sync,1e8\n") // differs
	writeTestFile(t, c, "evals.csv", "run,updates,loss\na,2,2.0\n")     // a repeat
	d := filepath.Join(root, "d")
	writeTestFile(t, d, "evals.csv", "run,updates,loss\na,2,1.5\n") // contradicts
	for name, call := range map[string]func(...string) error{
		"Load":           func(p ...string) error { _, _, err := Load(p...); return err },
		"SummarizePaths": func(p ...string) error { _, _, err := SummarizePaths(p...); return err },
	} {
		// at the second file's row and run column (they had no position)
		if err := call(a, filepath.Join(c, "runs.csv")); err == nil || !strings.Contains(err.Error(), filepath.Join(c, "runs.csv")+`:2:1: run "a" is described again, differently`) {
			t.Errorf("%s, runs differ: %v", name, err)
		}
		if err := call(a, filepath.Join(c, "evals.csv")); err == nil || !strings.Contains(err.Error(), filepath.Join(c, "evals.csv")+`:2:1: the evaluation of run "a" at 2 updates is also in`) {
			t.Errorf("%s, an eval twice: %v", name, err)
		}
		// the same evaluation with another loss: it was read (the rows were
		// compared whole)
		if err := call(a, filepath.Join(d, "evals.csv")); err == nil || !strings.Contains(err.Error(), filepath.Join(d, "evals.csv")+`:2:1: the evaluation of run "a" at 2 updates is also in`) {
			t.Errorf("%s, an eval twice, differently: %v", name, err)
		}
		if err := call(a, b); err != nil {
			t.Errorf("%s, runs alike: %v", name, err)
		}
	}
}

// With one evals.csv there is nothing to compare: no row is kept (the
// streaming summary stays flat in memory); with two, rows are compared.
func TestEvalCheckOnlyAcrossFiles(t *testing.T) {
	e := Eval{Run: "a", Updates: 1, Time: 1, Loss: 2}
	one := newCrossFiles([]File{{Kind: KindSteps}, {Kind: KindEvals}})
	h := one.evalHandler("x.csv", func(Eval) error { return nil })
	if h(e) != nil || h(e) != nil || one.evals != nil {
		t.Errorf("one evals file: kept %d rows", len(one.evals))
	}
	two := newCrossFiles([]File{{Kind: KindEvals}, {Kind: KindEvals}})
	if err := two.evalHandler("x.csv", func(Eval) error { return nil })(e); err != nil {
		t.Fatal(err)
	}
	if err := two.evalHandler("y.csv", func(Eval) error { return nil })(e); err == nil {
		t.Error("two evals files holding one row: no error")
	}
}

// TestUpdateVersionTwice: a shard reaches each model version once, so a
// repeated (run, shard, version) is an error at its version column, in one
// file and across files (the same updates.csv given twice doubled the
// staleness counts); the same version at two shards is read.
func TestUpdateVersionTwice(t *testing.T) {
	const head = "run,shard,worker,time,version,staleness\n"
	root := t.TempDir()
	ok := head + "a,0,0,0.5,1,0\na,0,1,0.6,2,0\n"
	a := writeTestFile(t, filepath.Join(root, "a"), "updates.csv", ok)
	b := writeTestFile(t, filepath.Join(root, "b"), "updates.csv.gz", gzipString(ok))
	writeTestFile(t, filepath.Join(root, "a"), "steps.csv", crossSteps)
	for name, call := range map[string]func(...string) error{
		"Load":           func(p ...string) error { _, _, err := Load(p...); return err },
		"SummarizePaths": func(p ...string) error { _, _, err := SummarizePaths(p...); return err },
	} {
		want := "traces: " + b + `:2:11: version: (run "a", shard 0, version 1) is also in ` + a
		if err := call(filepath.Join(root, "a"), b); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s, a copy: error %v, want %q...", name, err, want)
		}
		if err := call(filepath.Join(root, "a")); err != nil {
			t.Errorf("%s, once: %v", name, err)
		}
	}
	var n int
	_, err := ReadUpdates(strings.NewReader(head+"a,0,0,0.5,1,0\na,1,0,0.5,1,0\na,0,1,0.7,3,1\na,0,0,0.9,1,0\n"), "u.csv",
		func(Update) error { n++; return nil })
	want := `traces: u.csv:5:11: version: duplicate (run "a", shard 0, version 1)`
	if err == nil || !strings.HasPrefix(err.Error(), want) || n != 3 {
		t.Errorf("a version twice in one file: error %v after %d rows, want %q after 3", err, n, want)
	}
	// other runs may reuse versions
	if _, err := ReadUpdates(strings.NewReader(head+"a,0,0,0.5,1,0\nb,0,0,0.5,1,0\n"), "u.csv", func(Update) error { return nil }); err != nil {
		t.Errorf("two runs at version 1: %v", err)
	}
}

// TestRunModeAgainstPS: a mode in runs.csv that the run's ps in steps.csv
// contradicts is an error at the mode column (an all-reduce trace described
// as async was fitted with the asynchronous families); an empty mode, or no
// runs.csv, follows ps: allreduce at ps 0, async otherwise.
func TestRunModeAgainstPS(t *testing.T) {
	root := t.TempDir()
	ar := writeTestFile(t, filepath.Join(root, "ar"), "steps.csv", stepsHeader+
		"a,2,0,32,0,0,0,1,,,,,\na,2,0,32,1,0,0,1,,,,,\na,2,0,32,0,1,1,2,,,,,\na,2,0,32,1,1,1,2,,,,,\n")
	ps := writeTestFile(t, filepath.Join(root, "ps"), "steps.csv", crossSteps)
	cases := []struct {
		steps, runs, want string // want: an error's suffix after the runs file, or the mode read
	}{
		{ar, "run,mode\na,async\n", `:2:3: mode: async, but run "a" has ps=0 in ` + ar + ` line 2: async is a parameter-server mode and needs shards (expected allreduce, or ps >= 1 there)`},
		{ar, "run,mode\na,SYNC\n", `:2:3: mode: sync, but run "a" has ps=0 in ` + ar + ` line 2`},
		{ps, "run,model,mode\na,m,allreduce\n", `:2:5: mode: allreduce, but run "a" has ps=1 in ` + ps + ` line 2: all-reduce has no parameter servers`},
		{ar, "run,mode\na,allreduce\n", "allreduce"},
		{ar, "run,mode\na,\n", "allreduce"},
		{ar, "", "allreduce"},
		{ps, "run,mode\na,\n", "async"},
		{ps, "run,mode\na,sync\n", "sync"},
		{ps, "", "async"},
	}
	for i, c := range cases {
		paths := []string{c.steps}
		runs := ""
		if c.runs != "" {
			runs = writeTestFile(t, filepath.Join(root, "runs", string(rune('a'+i))), "runs.csv", c.runs)
			paths = append(paths, runs)
		}
		sums, _, err := SummarizePaths(paths...)
		_, _, lerr := Load(paths...)
		if strings.HasPrefix(c.want, ":") {
			want := "traces: " + runs + c.want
			for name, e := range map[string]error{"SummarizePaths": err, "Load": lerr} {
				if e == nil || !strings.HasPrefix(e.Error(), want) {
					t.Errorf("case %d, %s: error %v, want %q...", i, name, e, want)
				}
			}
			continue
		}
		if err != nil || lerr != nil || len(sums) != 1 || sums[0].Mode != c.want {
			t.Errorf("case %d: %v %v %+v, want mode %s", i, err, lerr, sums, c.want)
		}
	}
}

// TestWorkersAbsent: steps of 1 of a run's 4 workers (one worker's profile
// converted with --workers 4) were read as the job's throughput, a quarter
// of it for async and, for synchronous steps (divided by the workers), a
// quarter too. The rate is now scaled by workers/seen, with a warning that
// says whether that is exact (synchronous) or an estimate (async).
func TestWorkersAbsent(t *testing.T) {
	for _, c := range []struct {
		ps   int
		want string
	}{{1, "an estimate that assumes the absent workers run at their mean rate"}, {0, "every worker takes each allreduce step"}} {
		var b strings.Builder
		b.WriteString(stepsHeader)
		for s := 0; s < 100; s++ {
			fmt.Fprintf(&b, "a,4,%d,32,0,%d,%d,%d,,,,,\n", c.ps, s, s, s+1)
		}
		dir := t.TempDir()
		writeTestFile(t, dir, "steps.csv", b.String())
		sums, _, err := SummarizePaths(dir)
		if err != nil {
			t.Fatal(err)
		}
		r := sums[0]
		// the window [10, 95] s holds the 86 iterations ending at 10..95:
		// 86/85 per second of the worker seen, 4 times that of the job;
		// an allreduce step is one iteration of each worker and one
		// update, so its updates/s are the worker's iterations/s
		iters := 4 * 86.0 / 85
		want := iters
		if c.ps == 0 {
			want = iters / 4
		}
		if r.WorkersSeen != 1 || math.Abs(r.UpdatesPerS-want) > 1e-9 || math.Abs(r.SamplesPerS-32*iters) > 1e-9 {
			t.Errorf("ps %d: %d workers seen, %g updates/s, %g samples/s; want 1, %g, %g", c.ps, r.WorkersSeen, r.UpdatesPerS, r.SamplesPerS, want, 32*iters)
		}
		found := false
		for _, w := range r.Warnings {
			found = found || strings.Contains(w.Error(), c.want)
		}
		if !found {
			t.Errorf("ps %d: warnings %v lack %q", c.ps, r.Warnings, c.want)
		}
	}
}

// TestCrossFilePlacement: a row that repeats or contradicts another file's
// is placed at the field in conflict, as trace-format.md says (it said the
// run field, and the code placed them here): a step at step, an update at
// version, a configuration at the first of workers, ps, batch that
// differs; a runs.csv row and an evaluation at run. Load refuses a run
// whose configuration differs between steps files as SummarizePaths does
// (it returned the run's steps with workers 1 and 2, and report read them).
func TestCrossFilePlacement(t *testing.T) {
	const h = "run,workers,ps,batch,worker,step,start,end\n"
	root := t.TempDir()
	x1, x2, y := filepath.Join(root, "x1"), filepath.Join(root, "x2"), filepath.Join(root, "y")
	writeTestFile(t, x1, "steps.csv", h+"a,1,1,1,0,0,0,1\n")
	writeTestFile(t, x1, "updates.csv", "run,shard,worker,time,version,staleness\na,0,0,1,1,0\n")
	writeTestFile(t, x1, "runs.csv", "run,mode\na,async\n")
	writeTestFile(t, x1, "evals.csv", "run,updates,loss\na,1,2\n")
	// "a,1,1,1,0," is 10 bytes: step at 11
	writeTestFile(t, x2, "steps.csv", h+"a,1,1,1,0,0,0,1\n")
	// "a,0,0,1," is 8 bytes: version at 9
	writeTestFile(t, x2, "updates.csv", "run,shard,worker,time,version,staleness\na,0,0,1,1,0\n")
	writeTestFile(t, x2, "runs.csv", "run,mode\na,sync\n")
	writeTestFile(t, x2, "evals.csv", "run,updates,loss\na,1,2\n")
	// workers at 3, ps at 5, batch at 7
	writeTestFile(t, y, "steps.csv", h+"a,2,1,1,0,5,0,1\n")
	yp, yb := filepath.Join(root, "yp"), filepath.Join(root, "yb")
	writeTestFile(t, yp, "steps.csv", h+"a,1,2,1,0,5,0,1\n")
	writeTestFile(t, yb, "steps.csv", h+"a,1,1,8,0,5,0,1\n")
	sub := func(d, f string) string { return filepath.Join(d, f) }
	cases := []struct {
		paths []string
		want  string
		calls string // which readers check it: L Load, S SummarizePaths
	}{
		{[]string{x1, sub(x2, "steps.csv")}, sub(x2, "steps.csv") + `:2:11: step: (run "a", worker 0, step 0) is also in ` + sub(x1, "steps.csv"), "LS"},
		{[]string{x1, sub(x2, "updates.csv")}, sub(x2, "updates.csv") + `:2:9: version: (run "a", shard 0, version 1) is also in ` + sub(x1, "updates.csv"), "LS"},
		{[]string{x1, sub(x2, "runs.csv")}, sub(x2, "runs.csv") + `:2:1: run "a" is described again, differently, after ` + sub(x1, "runs.csv"), "LS"},
		{[]string{x1, sub(x2, "evals.csv")}, sub(x2, "evals.csv") + `:2:1: the evaluation of run "a" at 1 updates is also in ` + sub(x1, "evals.csv"), "LS"},
		{[]string{x1, y}, sub(y, "steps.csv") + `:2:3: run "a": workers, ps, batch = 2, 1, 1, but 1, 1, 1 in ` + sub(x1, "steps.csv") + " on line 2", "LS"},
		{[]string{x1, yp}, sub(yp, "steps.csv") + `:2:5: run "a": workers, ps, batch = 1, 2, 1, but 1, 1, 1 in ` + sub(x1, "steps.csv") + " on line 2", "LS"},
		{[]string{x1, yb}, sub(yb, "steps.csv") + `:2:7: run "a": workers, ps, batch = 1, 1, 8, but 1, 1, 1 in ` + sub(x1, "steps.csv") + " on line 2", "LS"},
	}
	for _, c := range cases {
		for name, call := range map[string]func(...string) error{
			"L": func(p ...string) error { _, _, err := Load(p...); return err },
			"S": func(p ...string) error { _, _, err := SummarizePaths(p...); return err },
		} {
			if !strings.Contains(c.calls, name) {
				continue
			}
			if err := call(c.paths...); err == nil || !strings.HasPrefix(err.Error(), "traces: "+c.want) {
				t.Errorf("%s %v: %v\nwant traces: %s...", name, c.paths, err, c.want)
			}
		}
	}
}
