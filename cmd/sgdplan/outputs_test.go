package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTestFiles copies the files srcs into the folder dst (created) and
// returns dst.
func copyTestFiles(t *testing.T, dst string, srcs ...string) string {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(s)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// refusesInput runs args and wants exit 2 before anything is written: a
// message naming the output's flag with want (the file it would replace,
// and how it is read), and the input's bytes as they were.
func refusesInput(t *testing.T, input, want string, args ...string) {
	t.Helper()
	before, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, args...)
	if code != exitBadInput || !strings.Contains(stderr, want) || !strings.Contains(stderr, "refusing to overwrite it") || stdout != "" {
		t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", args, code, stdout, stderr, exitBadInput, want)
	}
	after, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("%v: %s was replaced (%d bytes, were %d)", args, input, len(after), len(before))
	}
}

var asyncPS = filepath.Join("..", "..", "testdata", "synthetic", "async-ps")

// asyncTrace copies testdata/synthetic/async-ps into dir/tr.
func asyncTrace(t *testing.T, dir string) string {
	t.Helper()
	srcs, err := filepath.Glob(filepath.Join(asyncPS, "*.csv"))
	if err != nil || len(srcs) == 0 {
		t.Fatalf("no trace in %s: %v", asyncPS, err)
	}
	return copyTestFiles(t, filepath.Join(dir, "tr"), srcs...)
}

// fit's --out and --plot may not name a file of the trace it reads: fit
// tr --out tr/steps.csv replaced the trace with the model and exited 0.
func TestFitRefusesInputAsOutput(t *testing.T) {
	tmp := t.TempDir()
	tr := asyncTrace(t, tmp)
	steps, runs, evals := filepath.Join(tr, "steps.csv"), filepath.Join(tr, "runs.csv"), filepath.Join(tr, "evals.csv")
	m := filepath.Join(tmp, "m.json")
	refusesInput(t, steps, "fit: --out "+steps+" is also an input (steps.csv of "+tr+")",
		"fit", tr, "--bootstrap", "0", "--out", steps)
	refusesInput(t, runs, "fit: --out "+runs+" is also an input (the trace "+runs+")",
		"fit", steps, runs, "--bootstrap", "0", "--out", runs)
	refusesInput(t, evals, "fit: --plot "+evals+" is also an input (evals.csv of "+tr+")",
		"fit", tr, "--bootstrap", "0", "--out", m, "--plot", evals)
	// the same path written otherwise
	other := filepath.Join(tr, ".", "..", "tr", "updates.csv")
	refusesInput(t, filepath.Join(tr, "updates.csv"), "fit: --out "+other+" is also an input (updates.csv of "+tr+")",
		"fit", tr, "--bootstrap", "0", "--out", other)
	if _, err := os.Stat(m); err == nil {
		t.Errorf("the model was written")
	}
}

// A symbolic link to an input is the input: the write follows it.
func TestFitRefusesLinkToInput(t *testing.T) {
	tmp := t.TempDir()
	tr := asyncTrace(t, tmp)
	link := filepath.Join(tmp, "link.json")
	if err := os.Symlink(filepath.Join("tr", "steps.csv"), link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	refusesInput(t, filepath.Join(tr, "steps.csv"), "fit: --out "+link+" is also an input (steps.csv of "+tr+")",
		"fit", tr, "--bootstrap", "0", "--out", link)
	// a hard link to the jobs file: the same file
	jobs := copyTestFiles(t, filepath.Join(tmp, "jobs"), reportJobs)
	hard := filepath.Join(tmp, "hard.png")
	if err := os.Link(filepath.Join(jobs, "jobs.csv"), hard); err != nil {
		t.Skip("no hard links:", err)
	}
	refusesInput(t, filepath.Join(jobs, "jobs.csv"), "plan: --plot "+hard+" is also an input (--jobs "+filepath.Join(jobs, "jobs.csv")+")",
		"plan", "--jobs", filepath.Join(jobs, "jobs.csv"), "--servers", "4", "--plot", hard)
}

// An output beside the inputs, under another name, is written as before.
func TestOutputBesideInputsWritten(t *testing.T) {
	tmp := t.TempDir()
	tr := asyncTrace(t, tmp)
	m, png := filepath.Join(tr, "model.json"), filepath.Join(tr, "fit.png")
	if code, _, stderr := runCmd(t, "fit", tr, "--bootstrap", "0", "--out", m, "--plot", png); code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	for _, p := range []string{m, png} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", p, err)
		}
	}
	jobs := copyTestFiles(t, filepath.Join(tmp, "jobs"), reportJobs)
	plot := filepath.Join(jobs, "plan.png")
	if code, _, stderr := runCmd(t, "plan", "--jobs", filepath.Join(jobs, "jobs.csv"), "--servers", "4", "--plot", plot); code != 0 {
		t.Fatalf("plan exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(plot); err != nil {
		t.Errorf("plan's figure not written: %v", err)
	}
	x := copyTestFiles(t, filepath.Join(tmp, "x"), itpRaw)
	if code, _, stderr := runCmd(t, "convert", "--from", "itp", filepath.Join(x, "cluster10.csv"), "--out", x); code != 0 {
		t.Fatalf("convert exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(x, "jobs.csv")); err != nil {
		t.Errorf("convert's jobs.csv not written: %v", err)
	}
}

// plan's and simulate's --plot may not name the jobs file, nor a model
// file a job of it names.
func TestPlanSimulateRefuseInputAsPlot(t *testing.T) {
	tmp := t.TempDir()
	jobs := filepath.Join(copyTestFiles(t, tmp, reportJobs), "jobs.csv")
	for _, cmd := range []string{"plan", "simulate"} {
		refusesInput(t, jobs, cmd+": --plot "+jobs+" is also an input (--jobs "+jobs+")",
			cmd, "--jobs", jobs, "--servers", "4", "--plot", jobs)
	}
	m := reportModel(t, tmp)
	withModel := writeTestFile(t, tmp, "jobs-model.csv", "job,arrival,size,model\na,0,100,model.json\nb,0,200,model.json\n")
	refusesInput(t, m, "plan: --plot "+m+" is also an input (a model file named in --jobs "+withModel+")",
		"plan", "--jobs", withModel, "--servers", "4", "--plot", m)
}

var itpRaw = filepath.Join("..", "..", "testdata", "public", "microsoft-itp-elasticflow-traces", "raw", "cluster10.csv")

// convert --out DIR may not hold the input under a name convert writes.
func TestConvertRefusesInputAsOutput(t *testing.T) {
	x := filepath.Join(t.TempDir(), "x")
	copyTestFiles(t, x, itpRaw)
	in := filepath.Join(x, "jobs.csv")
	if err := os.Rename(filepath.Join(x, "cluster10.csv"), in); err != nil {
		t.Fatal(err)
	}
	refusesInput(t, in, "convert: --out "+x+": "+in+" is also an input (the input "+in+")",
		"convert", "--from", "itp", in, "--out", x)
}

// report --out DIR may not hold its --model or --jobs (or a trace the
// model names) under a name the report writes.
func TestReportRefusesInputAsOutput(t *testing.T) {
	tmp := t.TempDir()
	tr := asyncTrace(t, tmp)
	m := filepath.Join(tmp, "model.json")
	if code, _, stderr := runCmd(t, "fit", tr, "--family", "mva", "--bootstrap", "0", "--out", m); code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	out := filepath.Join(tmp, "report")
	jobs := filepath.Join(copyTestFiles(t, out, reportJobs), "summary.md")
	if err := os.Rename(filepath.Join(out, "jobs.csv"), jobs); err != nil {
		t.Fatal(err)
	}
	args := []string{"report", "--model", m, "--servers", "8", "--out", out, "--seeds", "2", "--sim-jobs", "20", "--loads", "0.5"}
	refusesInput(t, jobs, "report: --out "+out+": "+jobs+" is also an input (--jobs "+jobs+")",
		append(args, "--jobs", jobs)...)
	// the trace the model was fitted on, through a link in the folder
	os.Remove(jobs)
	link := filepath.Join(out, "index.html")
	if err := os.Symlink(filepath.Join(tr, "steps.csv"), link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	refusesInput(t, filepath.Join(tr, "steps.csv"), "report: --out "+out+": "+link+" is also an input (steps.csv of "+tr+")",
		append(args, "--jobs", reportJobs)...)
}

// validate's --out may not name a file of the traces it scores.
func TestValidateRefusesInputAsOutput(t *testing.T) {
	tmp := t.TempDir()
	tr := asyncTrace(t, tmp)
	runs := filepath.Join(tr, "runs.csv")
	refusesInput(t, runs, "validate: --out "+runs+" is also an input (runs.csv of "+tr+")",
		"validate", "--data", tmp, "--async", tr, "--out", runs)
	// an existing file of a dataset folder it scores
	ds := filepath.Join(tmp, "pollux-osdi21")
	f := writeTestFile(t, copyTestFiles(t, ds), "notes.csv", "x\n")
	refusesInput(t, f, "validate: --out "+f+" is also an input (a file of the dataset folder "+ds+")",
		"validate", "--data", tmp, "--async", tr, "--out", f)
}

// report --out in a folder that takes no entry is bad input before any
// work (it ran every simulation, then failed making the folder, exit 1).
func TestReportOutUnwritableFirst(t *testing.T) {
	tmp := t.TempDir()
	tr := asyncTrace(t, tmp)
	m := filepath.Join(tmp, "model.json")
	if code, _, stderr := runCmd(t, "fit", tr, "--family", "mva", "--bootstrap", "0", "--out", m); code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", reportJobs, "--servers", "8", "--out", "/proc/sgdplan-none/report", "--seeds", "2", "--sim-jobs", "20", "--loads", "0.5")
	if code != exitBadInput || !strings.Contains(stderr, "report: --out /proc/sgdplan-none/report: cannot write in folder /proc") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
