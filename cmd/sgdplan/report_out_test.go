package main

import (
	"os"
	"path/filepath"
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
	if len(plots.ReportFiles()) != 9 {
		t.Errorf("ReportFiles %v, want the 7 figures, index.html and summary.md", plots.ReportFiles())
	}
}
