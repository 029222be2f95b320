package plots

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"gonum.org/v1/plot/vg/draw"
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
			_, err := WriteReport(dir, exampleReport(t))
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %s: WriteReport: %v, want %q", kind, name, err, want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("%s %s: %d entries in the folder, want only the %s", kind, name, len(ents), kind)
			}
		}
	}
	// A link to a regular file is fine: the write replaces the file it
	// points to.
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
	if _, err := WriteReport(dir, exampleReport(t)); err != nil {
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
	_, err := WriteReport(t.TempDir(), r)
	wantErr(t, "unlisted figure", err, "report", `figure 1: file "other.png": want one of fit.png, phases.png`)
}

// earlierReport writes the index.html of an earlier report into dir.
func earlierReport(t *testing.T, dir string) {
	t.Helper()
	r := exampleReport(t)
	r.Figures = nil
	html, err := r.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ReportIndex), html, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A report written over an earlier one removes the earlier figures it does
// not draw (they used to stay beside a page that no longer showed them),
// says which, keeps the ones it draws, and leaves other files and links
// alone.
func TestWriteReportRemovesStaleFigures(t *testing.T) {
	dir := t.TempDir()
	earlierReport(t, dir)
	for _, name := range []string{"scaling.png", "simulation.png", "notes.png"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("notes.png", filepath.Join(dir, "phases.png")); err != nil {
		t.Fatal(err)
	}
	r := exampleReport(t) // fit.png and plan.png
	removed, err := WriteReport(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(removed, " "); got != "scaling.png simulation.png" {
		t.Errorf("removed %q, want scaling.png simulation.png", got)
	}
	for name, want := range map[string]bool{"fit.png": true, "plan.png": true, "scaling.png": false, "simulation.png": false, "notes.png": true, "phases.png": true} {
		_, err := os.Lstat(filepath.Join(dir, name))
		if got := err == nil; got != want {
			t.Errorf("%s: present %v, want %v (%v)", name, got, want, err)
		}
	}
}

// A folder without an earlier report that holds files of a report's names
// (the user's own staleness.png, index.html, or a link of such a name) is
// refused before anything is written, and they are left as they were: the
// report used to remove the user's PNGs of a figure's name that it did not
// draw, and overwrite the others, silently.
func TestWriteReportLeavesTheUsersFiles(t *testing.T) {
	for _, names := range [][]string{{"staleness.png"}, {"fit.png", "index.html"}, {"summary.md"}} {
		dir := t.TempDir()
		for _, name := range names {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		it := "it"
		if len(names) > 1 {
			it = "them"
		}
		want := dir + " holds " + strings.Join(names, ", ") + " but no earlier sgdplan report (an index.html or summary.md that sgdplan report wrote): the report would overwrite " + it + "; move " + it + " away or write the report into another folder"
		if err := CheckOthersFiles(dir); err == nil || err.Error() != "plots: report: "+want {
			t.Errorf("%v: CheckOthersFiles: %v, want %q", names, err, want)
		}
		removed, err := WriteReport(dir, exampleReport(t))
		if err == nil || !strings.Contains(err.Error(), want) || removed != nil {
			t.Errorf("%v: WriteReport: %v (removed %v), want %q", names, err, removed, want)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != len(names) {
			t.Errorf("%v: the folder holds %d entries, want only the user's", names, len(ents))
		}
		for _, name := range names {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != "mine" {
				t.Errorf("%v: %s now %q, %v", names, name, b, err)
			}
		}
	}
	// a link named as a figure would have its target overwritten
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.png"), []byte("mine"), 0o644)
	if err := os.Symlink("mine.png", filepath.Join(dir, "plan.png")); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteReport(dir, exampleReport(t)); err == nil || !strings.Contains(err.Error(), " holds plan.png but no earlier sgdplan report") {
		t.Errorf("a link named plan.png: %v", err)
	}
	// other files do not matter
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.png"), []byte("mine"), 0o644)
	if _, err := WriteReport(dir, exampleReport(t)); err != nil {
		t.Errorf("a folder with notes.png: %v", err)
	}
}

// An earlier report is told by the generator line of its index.html, or
// by the "Made by sgdplan report" line that index.html and summary.md have
// always had; a report marks its page with the generator line.
func TestEarlierReport(t *testing.T) {
	dir := t.TempDir()
	if EarlierReport(dir) || EarlierReport(filepath.Join(dir, "none")) {
		t.Error("an empty or missing folder holds an earlier report")
	}
	if _, err := WriteReport(dir, exampleReport(t)); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, ReportIndex))
	if !strings.Contains(string(html), reportGenerator) || !EarlierReport(dir) {
		t.Errorf("a report's own folder is not an earlier report:\n%s", html)
	}
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{ReportIndex, "<html><body><p class=\"muted\">Made by <code>sgdplan report --model m.json --jobs j.csv --servers 4 --out r</code></p>", true},
		{ReportSummary, "# sgdplan report\n\nMade by `sgdplan report --model m.json --jobs j.csv --servers 4 --out r`.\n", true},
		{ReportIndex, "<html><body>my page about sgdplan report</body></html>", false},
		{ReportSummary, "# notes\n", false},
	} {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, c.name), []byte(c.text), 0o644)
		if got := EarlierReport(d); got != c.want {
			t.Errorf("%s %q: earlier report %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// A first report cut short (killed after its marker and a figure, before
// index.html and summary.md) leaves a folder that the next run takes for
// an earlier report: it writes the report, removes the cut-short run's
// figure it does not draw, and removes the marker (the rerun was refused:
// the figure looked like the user's). The marker is written before any
// figure and is gone once the report is whole; a file of the marker's name
// that sgdplan did not write is the user's, and refused.
func TestWriteReportAfterCutShortRun(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{ReportMarker: reportMarkerText, "scaling.png": "half a report", "fit.png": "half a report"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := CheckOthersFiles(dir); err != nil {
		t.Errorf("CheckOthersFiles after a cut-short run: %v", err)
	}
	removed, err := WriteReport(dir, exampleReport(t)) // fit.png and plan.png
	if err != nil {
		t.Fatalf("WriteReport after a cut-short run: %v", err)
	}
	if got := strings.Join(removed, " "); got != "scaling.png" {
		t.Errorf("removed %q, want scaling.png", got)
	}
	var names []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "fit.png index.html plan.png summary.md" {
		t.Errorf("the folder holds %s, want fit.png index.html plan.png summary.md (no marker)", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "fit.png")); string(b) == "half a report" {
		t.Error("fit.png not replaced")
	}

	// a run killed while it draws its second figure (a panic here: nothing
	// after it runs) leaves the marker and the first figure, and the next
	// run writes the report
	dir = t.TempDir()
	r := exampleReport(t) // fit.png and plan.png
	r.Figures[1].Figure = &Figure{W: Width, H: PanelHeight, draw: func(draw.Canvas) { panic("killed") }}
	func() {
		defer func() { recover() }()
		WriteReport(dir, r)
		t.Error("WriteReport: no panic")
	}()
	names = nil
	ents, _ = os.ReadDir(dir)
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != ReportMarker+" fit.png" {
		t.Errorf("a run killed at its second figure left %s, want %s fit.png", got, ReportMarker)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ReportMarker)); err != nil || string(b) != reportMarkerText {
		t.Errorf("marker %q, %v", b, err)
	}
	if _, err := WriteReport(dir, exampleReport(t)); err != nil {
		t.Errorf("the run after a killed one: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ReportMarker)); err == nil || !EarlierReport(dir) {
		t.Errorf("after the rerun: the marker stays (%v), or no earlier report", err)
	}

	// the user's own file of the marker's name
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, ReportMarker), []byte("mine"), 0o644)
	if EarlierReport(dir) {
		t.Error("the user's own " + ReportMarker + " makes an earlier report")
	}
	if _, err := WriteReport(dir, exampleReport(t)); err == nil || !strings.Contains(err.Error(), " holds "+ReportMarker+" but no earlier sgdplan report") {
		t.Errorf("the user's own %s: %v", ReportMarker, err)
	}
}
