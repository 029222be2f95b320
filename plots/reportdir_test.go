package plots

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// A folder (or a fifo) where a report file goes stops WriteReport before it
// writes anything: it used to write every PNG, and index.html too when
// summary.md was the folder, before it failed.
func TestWriteReportRefusesNonFiles(t *testing.T) {
	for _, name := range ReportFiles() {
		for _, kind := range []string{"folder", "fifo"} {
			dir := t.TempDir()
			p := filepath.Join(dir, name)
			want := p + " is a folder: want the path of a file to write"
			if kind == "folder" {
				if err := os.Mkdir(p, 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skipf("no fifo: %v", err)
				}
				want = p + " is a named pipe, not a regular file"
			}
			if err := CheckReportDir(dir); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %s: CheckReportDir: %v, want %q", kind, name, err, want)
			}
			err := WriteReport(dir, exampleReport(t))
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %s: WriteReport: %v, want %q", kind, name, err, want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("%s %s: %d entries in the folder, want only the %s", kind, name, len(ents), kind)
			}
		}
	}
	// A link to a regular file is fine: the rename replaces it.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "old.md"), []byte("old"), 0o644)
	if err := os.Symlink("old.md", filepath.Join(dir, ReportSummary)); err != nil {
		t.Fatal(err)
	}
	if err := CheckReportDir(dir); err != nil {
		t.Errorf("link to a file: %v", err)
	}
}

// WriteReport writes only names of ReportFiles, so that a check of them
// before any work covers every file it writes.
func TestReportFilesCoverWriteReport(t *testing.T) {
	dir := t.TempDir()
	if err := WriteReport(dir, exampleReport(t)); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !slices.Contains(ReportFiles(), e.Name()) {
			t.Errorf("WriteReport wrote %s, not in ReportFiles %v", e.Name(), ReportFiles())
		}
	}
	r := exampleReport(t)
	r.Figures[1].File = "other.png"
	err := WriteReport(t.TempDir(), r)
	wantErr(t, "unlisted figure", err, "report", `figure 1: file "other.png": want one of fit.png, phases.png`)
}

// A report written over an earlier one removes the earlier figures it does
// not draw (they used to stay beside a page that no longer showed them),
// keeps the ones it draws, and leaves other files and links alone.
func TestWriteReportRemovesStaleFigures(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"scaling.png", "simulation.png", "notes.png"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("notes.png", filepath.Join(dir, "phases.png")); err != nil {
		t.Fatal(err)
	}
	r := exampleReport(t) // fit.png and plan.png
	if err := WriteReport(dir, r); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"fit.png": true, "plan.png": true, "scaling.png": false, "simulation.png": false, "notes.png": true, "phases.png": true} {
		_, err := os.Lstat(filepath.Join(dir, name))
		if got := err == nil; got != want {
			t.Errorf("%s: present %v, want %v (%v)", name, got, want, err)
		}
	}
}
