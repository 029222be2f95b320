package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/plots"
)

// A folder where the report writes a file is bad input before any work: it
// used to exit 1 after writing every PNG (and index.html when summary.md was
// the folder).
func TestReportRefusesFolderForFile(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	for _, name := range []string{"index.html", "summary.md", "fit.png", "simulation.png"} {
		out := filepath.Join(tmp, "out-"+name)
		if err := os.MkdirAll(filepath.Join(out, name), 0o755); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCmd(t, "report", "--model", m, "--jobs", reportJobs, "--servers", "16", "--out", out,
			"--seeds", "2", "--sim-jobs", "20", "--loads", "0.5")
		want := "sgdplan: report: --out " + out + ": " + filepath.Join(out, name) + " is a folder: want the path of a file to write (a report writes " + name + " there)\n"
		if code != exitBadInput || stderr != want || stdout != "" {
			t.Errorf("%s a folder: exit %d, stdout %q, stderr %q; want %d and %q", name, code, stdout, stderr, exitBadInput, want)
		}
		ents, _ := os.ReadDir(out)
		if len(ents) != 1 {
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			t.Errorf("%s a folder: the report folder holds %v, want only the folder", name, names)
		}
	}
	if len(plots.ReportFiles()) != 10 {
		t.Errorf("ReportFiles %v, want the 7 figures, index.html, summary.md and the in-progress marker", plots.ReportFiles())
	}
}

// The user's own PNG of a figure's name in a folder without an earlier
// report is bad input, left as it was (report used to delete it, silently,
// when it did not draw that figure); over an earlier report (here one
// written before the generator line) the figures it does not draw go, and
// stdout names them.
func TestReportLeavesTheUsersFigures(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	own := filepath.Join(tmp, "own")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(own, "staleness.png")
	if err := os.WriteFile(mine, []byte("my figure"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"report", "--model", m, "--jobs", reportJobs, "--servers", "1", "--seeds", "2", "--sim-jobs", "20", "--loads", "0.5", "--out"}
	code, stdout, stderr := runCmd(t, append(args, own)...)
	want := "sgdplan: report: --out " + own + ": " + own + " holds staleness.png but no earlier sgdplan report (an index.html or summary.md that sgdplan report wrote): the report would overwrite it; move it away or write the report into another folder\n"
	if code != exitBadInput || stderr != want || stdout != "" {
		t.Errorf("own staleness.png: exit %d, stdout %q, stderr %q; want %d and %q", code, stdout, stderr, exitBadInput, want)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "my figure" {
		t.Errorf("own staleness.png now %q, %v", b, err)
	}
	if ents, _ := os.ReadDir(own); len(ents) != 1 {
		t.Errorf("the refused folder holds %d entries, want the user's file only", len(ents))
	}

	old := filepath.Join(tmp, "old")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	page := `<p class="muted">Made by <code>sgdplan report --model m.json --jobs j.csv --servers 16 --out old</code></p>`
	for name, text := range map[string]string{"index.html": page, "scaling.png": "old figure"} {
		if err := os.WriteFile(filepath.Join(old, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr = runCmd(t, append(args, old)...) // one server: no speedup figure
	if code != 0 {
		t.Fatalf("over an earlier report: exit %d\n%s", code, stderr)
	}
	if w := "removed the earlier report's figures this one does not draw: " + filepath.Join(old, "scaling.png") + "\n"; !strings.HasPrefix(stdout, w) {
		t.Errorf("over an earlier report: stdout %q, want it to start with %q", stdout, w)
	}
	if _, err := os.Stat(filepath.Join(old, "scaling.png")); err == nil {
		t.Error("the earlier report's scaling.png stays")
	}
}

// A first report killed after some figures, before index.html and
// summary.md, leaves its marker (plots.ReportMarker, written before any
// figure) beside them; the next report into that folder takes it for an
// earlier report and writes the report over it, removing the killed run's
// figures it does not draw and the marker (it refused the folder: the
// figures looked like the user's). The marker's first line is
// "sgdplan report in progress" (docs/figures.md).
func TestReportAfterKilledReport(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	out := filepath.Join(tmp, "r")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{plots.ReportMarker: "sgdplan report in progress\n", "fit.png": "half", "scaling.png": "half"} {
		if err := os.WriteFile(filepath.Join(out, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// one server: no speedup figure, so the killed run's scaling.png goes
	code, stdout, stderr := runCmd(t, "report", "--model", m, "--jobs", reportJobs, "--servers", "1", "--out", out,
		"--seeds", "2", "--sim-jobs", "20", "--loads", "0.5")
	if code != 0 {
		t.Fatalf("report after a killed one: exit %d\n%s", code, stderr)
	}
	if w := "removed the earlier report's figures this one does not draw: " + filepath.Join(out, "scaling.png") + "\n"; !strings.HasPrefix(stdout, w) {
		t.Errorf("stdout %q, want it to start with %q", stdout, w)
	}
	for name, want := range map[string]bool{plots.ReportMarker: false, "scaling.png": false, "fit.png": true, "index.html": true, "summary.md": true} {
		if _, err := os.Stat(filepath.Join(out, name)); (err == nil) != want {
			t.Errorf("%s: present %v, want %v", name, err == nil, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "fit.png")); string(b) == "half" {
		t.Error("the killed run's fit.png is not replaced")
	}
}
