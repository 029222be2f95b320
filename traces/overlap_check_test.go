package traces

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The check compares each iteration with the latest end of the worker's
// iterations of smaller steps, whatever the order of the rows; jitter of up
// to 1 ms (plus 1e-12 of the times, at epoch timestamps too) passes; an
// iteration is counted once; the in-memory Summarize and Overlaps agree.
func TestOverlapOrderAndTolerance(t *testing.T) {
	tr := &Trace{}
	add := func(worker int, step int64, start, end float64) {
		tr.Steps = append(tr.Steps, Step{Run: "r", Workers: 7, PS: 1, Batch: 1, Worker: worker, Step: step,
			Start: start, End: end, Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()})
	}
	// worker 0 in order: step 5 starts 0.5 ms early (jitter), step 7 10 ms
	for k := range int64(10) {
		start := float64(k)
		switch k {
		case 5:
			start -= 0.0005
		case 7:
			start -= 0.01
		}
		add(0, k, start, float64(k+1))
	}
	// worker 1 in reverse order: step 3 starts 0.5 s before step 2 ends,
	// seen when step 2 arrives after it
	for k := int64(9); k >= 0; k-- {
		start := float64(k)
		if k == 3 {
			start = 2.5
		}
		add(1, k, start, float64(k+1))
	}
	// worker 2 at epoch times: ends 0.9 ms past the next start
	const epoch = 1.7e9
	for k := range int64(10) {
		add(2, k, epoch+float64(k), epoch+float64(k+1)+0.0009)
	}
	// worker 5 at epoch times: 2 ms past the next start passes only by
	// the relative term (1 ms + 1e-12 x 1.7e9 s = 2.7 ms), 3 ms does not
	for k := range int64(10) {
		past := 0.002
		if k == 4 {
			past = 0.003
		}
		add(5, k, epoch+float64(k), epoch+float64(k+1)+past)
	}
	// worker 3, rows 3, 5, 4: step 5 starts at 3.6, 0.4 s before step 3
	// ends (4) and 1.4 s before step 4 ends (5): counted once, by 1.4 s
	// before step 4, the worst of the run (the check used to compare
	// step 5 with its neighbour in the file only, step 3, and name worker 4
	// the worst)
	add(3, 3, 3, 4)
	add(3, 5, 3.6, 6)
	add(3, 4, 4, 5)
	// worker 4 with a gap in its steps, in order, then one step back in
	// time: step 20 starts 0.75 s before step 10 ends (11 - 10.25)
	add(4, 0, 0, 1)
	add(4, 10, 10, 11)
	add(4, 20, 10.25, 21)
	// worker 6 in order: step 1 starts 0.2 s before step 0 ends (2.2 - 2),
	// step 2 after step 1 ends but 0.075 s before step 0 ends (2.2 -
	// 2.125): two iterations (the check used to count step 1 only)
	add(6, 0, 0, 2.2)
	add(6, 1, 2, 2.1)
	add(6, 2, 2.125, 3)

	ws := Overlaps(tr.Steps)
	w := ws["r"]
	if w == nil || len(ws) != 1 {
		t.Fatalf("Overlaps: %v, want a warning of run r alone", ws)
	}
	// counted: worker 0 step 7, worker 1 step 3, worker 3 step 5, worker 4
	// step 20, worker 5 step 5, worker 6 steps 1 and 2; the worst by 1.4 s
	want := OverlapWarning{Run: "r", Count: 7, Worker: 3, Step: 5, PrevStep: 4, By: 1.4}
	if *w != want {
		t.Errorf("Overlaps: %+v, want %+v", *w, want)
	}
	s := Summarize(tr)[0]
	var got *OverlapWarning
	n := 0
	for _, e := range s.Warnings {
		if errors.As(e, &got) {
			n++
		}
	}
	if n != 1 || *got != want {
		t.Fatalf("Summarize: %d overlap warnings, %+v, want 1: %+v", n, got, want)
	}
	if msg := got.Error(); !strings.HasPrefix(msg, `traces: run "r": 7 iterations start before the end of an earlier iteration of the worker (by more than 1 ms); worst: worker 3 step 5 starts 1.4 s before step 4 ends. `) {
		t.Errorf("message %q", msg)
	}
}

// The tolerance's relative term: at epoch timestamps (1.7e9 s) an
// iteration may start 1 ms + 1e-12 x 1.7e9 s = 2.7 ms before the end of the
// previous one, at 1e12 s 1 ms + 1 s = 1.001 s; just inside passes, just
// outside is counted. Without the term both "inside" cases would be counted;
// with a term 10% larger or smaller one of each pair would change side.
func TestOverlapToleranceRelative(t *testing.T) {
	for _, c := range []struct {
		name    string
		at, by  float64 // step 1 starts by s before step 0 (at, at+1) ends
		counted bool
	}{
		{"epoch, 2.6 ms", 1.7e9, 0.0026, false},
		{"epoch, 2.8 ms", 1.7e9, 0.0028, true},
		{"1e12 s, 0.96 s", 1e12, 0.96, false},
		{"1e12 s, 1.04 s", 1e12, 1.04, true},
		// no relative term to speak of at small times: the 1 ms holds
		{"1 s, 0.9 ms", 1, 0.0009, false},
		{"1 s, 1.1 ms", 1, 0.0011, true},
	} {
		tr := &Trace{}
		for k, start := range []float64{c.at, c.at + 1 - c.by} {
			tr.Steps = append(tr.Steps, Step{Run: "r", Workers: 1, PS: 1, Batch: 1, Step: int64(k),
				Start: start, End: start + 1, Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()})
		}
		var sum *OverlapWarning
		for _, e := range Summarize(tr)[0].Warnings {
			errors.As(e, &sum)
		}
		for name, w := range map[string]*OverlapWarning{"Overlaps": Overlaps(tr.Steps)["r"], "Summarize": sum} {
			if (w != nil) != c.counted {
				t.Errorf("%s: %s: warning %+v, want counted %v", c.name, name, w, c.counted)
				continue
			}
			// by is end - start of floats near at: within their spacing
			if w != nil && (w.Count != 1 || w.Step != 1 || w.PrevStep != 0 || math.Abs(w.By-c.by) > 1e-3*c.by) {
				t.Errorf("%s: %s: %+v, want step 1 by %g s", c.name, name, *w, c.by)
			}
		}
	}
}

// The summary of files finds the worst overlap of rows out of step order
// and names its row, in whichever file it is: worker 0 of run r has steps
// 0, 1, 3 in a.csv's folder and 2 (rows 3, 1, 0 and 2 in that order) in
// b's, step 3 starting 1.5 s before step 2 ends; worker 1 is in order with
// one overlap of 0.5 s.
func TestSummarizePathsOverlapOutOfOrder(t *testing.T) {
	row := func(worker int, step int64, start, end float64) Step {
		return Step{Run: "r", Workers: 2, PS: 1, Batch: 1, Worker: worker, Step: step,
			Start: start, End: end, Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()}
	}
	a := []Step{
		row(1, 0, 0, 1),
		row(0, 3, 2.5, 4), // line 3: 1.5 s before step 2 ends (4 - 2.5)
		row(1, 1, 0.5, 2), // 0.5 s before step 0 ends
		row(0, 1, 1, 2),
		row(0, 0, 0, 1),
		row(1, 2, 2, 3),
	}
	b := []Step{row(0, 2, 2, 4)}
	dirA, dirB := t.TempDir(), t.TempDir()
	for dir, rows := range map[string][]Step{dirA: a, dirB: b} {
		var sb strings.Builder
		if err := WriteSteps(&sb, rows); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "steps.csv"), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := OverlapWarning{Run: "r", Count: 2, Worker: 0, Step: 3, PrevStep: 2, By: 1.5, File: filepath.Join(dirA, "steps.csv"), Line: 3}
	for _, paths := range [][]string{{dirA, dirB}, {dirB, dirA}} {
		sums, _, err := SummarizePaths(paths...)
		if err != nil {
			t.Fatal(err)
		}
		var got *OverlapWarning
		for _, e := range sums[0].Warnings {
			errors.As(e, &got)
		}
		if got == nil || *got != want {
			t.Errorf("%q: %+v, want %+v", paths, got, want)
		}
	}
}

// A worker whose first row (built in memory) has no end (NaN) is still
// checked: its latest end began as NaN, which no later end exceeded, so no
// later row of the worker was compared.
func TestOverlapsFirstEndNaN(t *testing.T) {
	row := func(step int64, start, end float64) Step {
		return Step{Run: "r", Workers: 1, PS: 1, Batch: 1, Step: step, Start: start, End: end,
			Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()}
	}
	// step 2 starts 1 s before step 1 ends
	w := Overlaps([]Step{row(0, 0, math.NaN()), row(1, 1, 3), row(2, 2, 4)})["r"]
	if w == nil || w.Count != 1 || w.Step != 2 || w.PrevStep != 1 || w.By != 1 {
		t.Errorf("Overlaps: %+v, want step 2 starting 1 s before step 1 ends", w)
	}
}
