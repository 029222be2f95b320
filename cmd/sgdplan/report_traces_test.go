package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyDir copies the files of src (no subfolders) into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A report run from another folder than fit finds the traces beside the
// model (data.paths_from_model) and draws the phases and staleness figures;
// with a model file that has no paths_from_model (written before it) it
// cannot, and says so on stderr and in the page's inputs. It used to drop
// both figures with exit 0, a note at the page's end, nothing on stderr,
// and the traces listed among the inputs as if read.
func TestReportTracesFromAnotherFolder(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "synthetic", "async-ps"))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := filepath.Abs(reportJobs)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	copyDir(t, src, filepath.Join(tmp, "run", "input", "traces"))
	t.Chdir(tmp)
	code, _, stderr := runCmd(t, "fit", filepath.Join("run", "input", "traces"), "--family", "mva", "--out", filepath.Join("run", "model.json"), "--bootstrap", "20")
	if code != 0 {
		t.Fatalf("fit exit %d:\n%s", code, stderr)
	}
	doc := readModelDoc(t, filepath.Join("run", "model.json"))
	data := doc["data"].(map[string]any)
	if got, _ := json.Marshal(data["paths_from_model"]); string(got) != `["input/traces"]` {
		t.Fatalf("data.paths_from_model %s, want [\"input/traces\"]", got)
	}
	// the same model as written before paths_from_model
	delete(data, "paths_from_model")
	old, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("run", "old.json"), old, 0o644); err != nil {
		t.Fatal(err)
	}

	t.Chdir(filepath.Join(tmp, "run"))
	report := func(model, out string) (string, string) {
		t.Helper()
		code, _, stderr := runCmd(t, "report", "--model", model, "--jobs", jobs, "--servers", "16", "--out", out,
			"--seeds", "2", "--sim-jobs", "20", "--loads", "0.5")
		if code != 0 {
			t.Fatalf("report --model %s: exit %d:\n%s", model, code, stderr)
		}
		html, err := os.ReadFile(filepath.Join(out, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		return stderr, string(html)
	}

	stderr, html := report("model.json", "new")
	for _, f := range []string{"phases.png", "staleness.png"} {
		if _, err := os.Stat(filepath.Join("new", f)); err != nil {
			t.Errorf("model with paths_from_model, from its folder: %v", err)
		}
	}
	if strings.Contains(stderr, "sgdplan: warning: the traces ") || !strings.Contains(html, "<code>"+filepath.Join("input", "traces")+"</code>") {
		t.Errorf("model with paths_from_model: stderr %q, want no warning of the traces; the inputs should name input/traces, the traces read:\n%s", stderr, html)
	}

	stderr, html = report("old.json", "old")
	want := "sgdplan: warning: the traces old.json was fitted on are not found (tried " + filepath.Join("run", "input", "traces") +
		"): the phases and staleness figures are left out; run report from the folder fit ran in, or put the traces at one of the paths tried\n"
	if !strings.HasPrefix(stderr, want) {
		t.Errorf("older model from another folder: stderr\n%s\nwant it to start with\n%s", stderr, want)
	}
	for _, f := range []string{"phases.png", "staleness.png"} {
		if _, err := os.Stat(filepath.Join("old", f)); err == nil {
			t.Errorf("older model from another folder: %s drawn", f)
		}
	}
	// the note follows the path, outside its code span (it sat inside
	// the backticks)
	if !strings.Contains(html, "<code>"+filepath.Join("run", "input", "traces")+"</code> (not found: no phases or staleness figure)") {
		t.Errorf("the page's inputs do not mark the traces not found:\n%s", html)
	}
	if md, _ := os.ReadFile(filepath.Join("old", "summary.md")); !strings.Contains(string(md), "- `"+filepath.Join("run", "input", "traces")+"` (not found: no phases or staleness figure)\n") {
		t.Errorf("summary.md's inputs do not mark the traces not found outside the path:\n%s", md)
	}
	if !strings.Contains(html, "<li>the traces old.json was fitted on are not found") {
		t.Errorf("the page's warnings do not say the traces are not found")
	}
}

// A report run from another folder that has a folder of the same relative
// name as the model's traces (fit ran in d1 on input/traces; report runs
// in d2, which has input/traces of its own, on ../d1/model.json) reads the
// traces beside the model, d1's, not the working folder's: it read d2's,
// another run's phases and staleness drawn as the model's, silently.
func TestReportTracesBesideModelFirst(t *testing.T) {
	jobs, err := filepath.Abs(reportJobs)
	if err != nil {
		t.Fatal(err)
	}
	sync, err := filepath.Abs(filepath.Join("..", "..", "testdata", "synthetic", "async-ps"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	copyDir(t, sync, filepath.Join(tmp, "d1", "input", "traces"))
	copyDir(t, sync, filepath.Join(tmp, "d2", "input", "traces"))
	t.Chdir(filepath.Join(tmp, "d1"))
	if code, _, stderr := runCmd(t, "fit", filepath.Join("input", "traces"), "--family", "mva", "--out", "model.json", "--bootstrap", "20"); code != 0 {
		t.Fatalf("fit exit %d:\n%s", code, stderr)
	}
	t.Chdir(filepath.Join(tmp, "d2"))
	model := filepath.Join("..", "d1", "model.json")
	code, _, stderr := runCmd(t, "report", "--model", model, "--jobs", jobs, "--servers", "16", "--out", "r",
		"--seeds", "2", "--sim-jobs", "20", "--loads", "0.5")
	if code != 0 {
		t.Fatalf("report exit %d:\n%s", code, stderr)
	}
	html, err := os.ReadFile(filepath.Join("r", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "<code>" + filepath.Join("..", "d1", "input", "traces") + "</code>"; !strings.Contains(string(html), want) {
		t.Errorf("the page's inputs lack %s, the traces beside the model:\n%s", want, html)
	}
	if strings.Contains(string(html), "<code>"+filepath.Join("input", "traces")+"</code>") {
		t.Errorf("the page read input/traces of the working folder, another run's")
	}
}

// A model fitted on two traces, one of which is not found: no trace is
// read, the warning says which one is missing (it said "the traces ... are
// not found" of both), and the page's inputs do not list the one found as
// if it was read.
func TestReportOneTraceMissing(t *testing.T) {
	dir := t.TempDir()
	m := reportModel(t, dir)
	doc := readModelDoc(t, m)
	data := doc["data"].(map[string]any)
	found := data["paths"].([]any)[0].(string)
	none := filepath.Join(dir, "nowhere")
	data["paths"] = []string{found, none}
	delete(data, "paths_from_model")
	writeModelDoc(t, m, doc)
	out := filepath.Join(dir, "r")
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", reportJobs, "--servers", "16", "--out", out, "--seeds", "2", "--sim-jobs", "20", "--loads", "0.5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "sgdplan: warning: 1 of the 2 traces " + m + " was fitted on are not found, " + none + " (tried " + none + "): the phases and staleness figures are left out"; !strings.Contains(stderr, want) {
		t.Errorf("stderr\n%s\nwant\n%s", stderr, want)
	}
	html, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !strings.Contains(string(html), "<code>"+found+"</code> (found, not read: another trace of the model is not found)") || strings.Contains(string(html), "<code>"+found+"</code>, ") {
		t.Errorf("the page lists %s as read:\n%s", found, html)
	}
	for _, f := range []string{"phases.png", "staleness.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s drawn", f)
		}
	}
}

// readModelDoc reads the model file at path as a generic JSON document, for
// a test to edit.
func readModelDoc(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// writeModelDoc writes doc to path as JSON.
func writeModelDoc(t *testing.T, path string, doc map[string]any) {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
