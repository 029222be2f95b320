package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// runCmd runs the program in-process and returns its exit code and output.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"sgdplan"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestDemoRunsWholePipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo runs every command (about 15 s)")
	}
	dir := t.TempDir()
	code, stdout, stderr := runCmd(t, "demo", "--out", dir)
	if code != 0 {
		t.Fatalf("demo exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, filepath.Join(dir, "index.html")) {
		t.Errorf("demo does not say where the report is: %q", stdout)
	}
	transcript, err := os.ReadFile(filepath.Join(dir, "demo.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"inspect", "fit", "predict", "check", "plan", "simulate", "report"} {
		if !strings.Contains(string(transcript), "$ sgdplan "+step+" ") {
			t.Errorf("transcript lacks the %s step", step)
		}
	}
	// the commands' warnings are in the transcript, after their command
	if i, j := strings.Index(string(transcript), "$ sgdplan predict "), strings.Index(string(transcript), "sgdplan: warning: predictions beyond 2 workers (the largest fitted) are extrapolations"); i < 0 || j < i {
		t.Errorf("transcript lacks predict's warning after its command (at %d, the command at %d)", j, i)
	}
	for _, f := range []string{"model.json", "jobs.csv", "index.html", "summary.md", "fit.png", "plan.png", "simulation.png"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Size() == 0 {
			t.Errorf("demo did not write %s: %v", f, err)
		}
	}
	jobs, _ := os.ReadFile(filepath.Join(dir, "jobs.csv"))
	if !strings.Contains(string(jobs), "async-ps-fitted") || !strings.Contains(string(jobs), "model.json") {
		t.Errorf("jobs.csv lacks the job with the fitted model:\n%s", jobs)
	}
	// its jobs name the model, so the report does not say the plan leaves it out
	if summary, _ := os.ReadFile(filepath.Join(dir, "summary.md")); strings.Contains(string(summary), "No job of") {
		t.Errorf("the demo's report says no job names its model")
	}
	// a finished demo removes its marker, and a rerun replaces its outputs
	if _, err := os.Lstat(filepath.Join(dir, ".sgdplan-demo-in-progress")); err == nil {
		t.Errorf("the demo left its in-progress marker")
	}
	if code, _, stderr := runCmd(t, "demo", "--out", dir); code != 0 {
		t.Errorf("demo rerun into its folder: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestUnknownFlagIsBadInput(t *testing.T) {
	code, _, stderr := runCmd(t, "demo", "--no-such-flag")
	if code != exitBadInput {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBadInput, stderr)
	}
}

// demo --out that is a file is bad input, said as demo's.
func TestDemoOutIsAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "demo", "--out", f)
	if code != exitBadInput || !strings.Contains(stderr, "demo: --out "+f+" is a file") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// A folder where the demo writes a file is bad input before anything is
// written: the demo stopped half-way (exit 1) and left its model, jobs and
// figures behind.
func TestDemoOutputsCheckedFirst(t *testing.T) {
	for _, name := range []string{"model.json", "index.html", "fit.png", "demo.txt"} {
		out := t.TempDir()
		if err := os.Mkdir(filepath.Join(out, name), 0o755); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCmd(t, "demo", "--out", out)
		if code != exitBadInput || !strings.Contains(stderr, filepath.Join(out, name)+" is a folder") {
			t.Errorf("%s a folder: exit %d, stderr %q", name, code, stderr)
		}
		if ents, _ := os.ReadDir(out); len(ents) != 1 {
			t.Errorf("%s a folder: the demo wrote %v", name, ents)
		}
	}
}

// A folder holding a file the demo would write, that no earlier demo
// wrote, is the user's: bad input, nothing written, the file unchanged
// (the demo replaced model.json, jobs.csv, fit-train.png, demo.txt and
// its input traces without a word; only the report's names were checked).
func TestDemoRefusesOthersFiles(t *testing.T) {
	for _, name := range []string{"model.json", "jobs.csv", "fit-train.png", "demo.txt",
		filepath.Join("input", "traces", "runs.csv"), filepath.Join("input", "traces", "cpu", "evals.csv")} {
		out := t.TempDir()
		p := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("hi\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCmd(t, "demo", "--out", out)
		if code != exitBadInput || !strings.Contains(stderr, "demo: --out "+out+" holds "+name+" but no earlier sgdplan demo") {
			t.Errorf("%s: exit %d, stderr %.300q", name, code, stderr)
		}
		if stdout != "" {
			t.Errorf("%s: the demo ran: %.200q", name, stdout)
		}
		if b, _ := os.ReadFile(p); string(b) != "hi\n" {
			t.Errorf("%s: changed to %.40q", name, b)
		}
		var written []string
		filepath.WalkDir(out, func(q string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && q != p {
				written = append(written, q)
			}
			return nil
		})
		if len(written) > 0 {
			t.Errorf("%s: the demo wrote %v", name, written)
		}
	}
}

// An earlier demo's folder, finished (its demo.txt) or cut short (its
// marker), is the demo's to replace; a demo.txt or marker that the demo did
// not write does not make the folder an earlier demo's.
func TestDemoOutputsEarlierDemo(t *testing.T) {
	for _, c := range []struct {
		name, file, text string
		ok               bool
	}{
		{"finished", "demo.txt", demoTranscriptHead + "real asynchronous-SGD traces\n", true},
		{"cut short", demoMarker, demoMarkerText, true},
		{"user's demo.txt", "demo.txt", "my notes on the demo\n", false},
		{"user's marker name", demoMarker, "x", false},
	} {
		out := t.TempDir()
		os.WriteFile(filepath.Join(out, c.file), []byte(c.text), 0o644)
		os.WriteFile(filepath.Join(out, "model.json"), []byte("{}"), 0o644)
		err := demoOutputs(out, demoTraces[0].dir)
		if (err == nil) != c.ok {
			t.Errorf("%s: demoOutputs = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// fit's output paths are judged by the file a write lands in: a --plot that
// is a link to the --out path would overwrite the model, and a dangling link
// into a missing folder fails after the fit; both are bad input up front.
func TestFitOutputLinks(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	link := filepath.Join(dir, "link.png")
	dangling := filepath.Join(dir, "dangling.png")
	if err := os.Symlink("m.json", link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	os.Symlink(filepath.Join(dir, "no", "x.png"), dangling)
	table := filepath.Join("testdata", "fit-table")
	for _, c := range []struct {
		plot, want string
	}{
		{link, "is the --out path"},
		{dangling, "folder " + filepath.Join(dir, "no") + " does not exist"},
	} {
		code, _, stderr := runCmd(t, "fit", table, "--out", out, "--plot", c.plot)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("--plot %s: exit %d, stderr %q, want %q", c.plot, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--plot %s: the model was written", c.plot)
		}
	}
}

// writeTestFile writes body to dir/name and returns the path.
func writeTestFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// version names the build's stamped version, else says devel; --version
// prints it and exits 0.
func TestVersion(t *testing.T) {
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261206020503-ed62cbddd124+dirty"}}, true, "v0.0.0-20261206020503-ed62cbddd124+dirty"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{&debug.BuildInfo{}, true, "devel"},
	} {
		if got := version(c.info, c.ok); got != c.want {
			t.Errorf("version(%+v) = %q, want %q", c.info, got, c.want)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"sgdplan", "--version"}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("--version: exit %d, stderr %q", code, errb.String())
	}
	if want := "sgdplan version " + version(debug.ReadBuildInfo()) + "\n"; out.String() != want {
		t.Errorf("--version printed %q, want %q", out.String(), want)
	}
}
