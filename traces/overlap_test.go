package traces

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
	"github.com/sgdplan/sgdplan/internal/words"
)

// overlapWarnings are the warnings of s that say iterations of one worker
// overlap.
func overlapWarnings(s RunSummary) []string {
	var out []string
	for _, w := range s.Warnings {
		if strings.Contains(w.Error(), "before the end of an earlier iteration of the worker") {
			out = append(out, w.Error())
		}
	}
	return out
}

// One iteration of worker 0 of run w1 started 100 s early (a clock that
// jumped, a row edited by hand) overlaps the worker's earlier iterations
// and stretches the run's wall time by 100 s: inspect's updates/s fell from
// 8.4 to 0.046 with no warning but "only 4 iterations in the steady-state
// window". The streamed and the in-memory summary warn once for the run,
// with the count, the worst iteration and (streamed) its row.
func TestSummarizeWarnsOverlappingIterations(t *testing.T) {
	dir, line := testenv.ShiftedAsyncPS(t, "w1", 0, 50, -100)
	sums, _, err := SummarizePaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	mem := Summarize(tr)
	pos := filepath.Join(dir, "steps.csv") + ":" + strconv.Itoa(line)
	for i, s := range sums {
		got, gotMem := overlapWarnings(s), overlapWarnings(mem[i])
		if s.Run != "w1" {
			if len(got) > 0 || len(gotMem) > 0 {
				t.Errorf("run %s: %q %q, want no overlap warning", s.Run, got, gotMem)
			}
			continue
		}
		if len(got) != 1 || len(gotMem) != 1 {
			t.Fatalf("run w1: overlap warnings %q (in memory %q), want one", got, gotMem)
		}
		for _, want := range []string{
			`traces: run "w1": 1 iteration starts before the end of an earlier iteration of the worker (by more than 1 ms)`,
			"worst: worker 0 step 50 starts 100 s before step 49 ends (" + pos + ")",
			"a clock that jumped, times in other units than seconds, or a row edited by hand",
		} {
			if !strings.Contains(got[0], want) {
				t.Errorf("warning %q\nlacks %q", got[0], want)
			}
		}
		if want := "worst: worker 0 step 50 starts 100 s before step 49 ends. "; !strings.Contains(gotMem[0], want) {
			t.Errorf("in memory: warning %q\nlacks %q", gotMem[0], want)
		}
	}
	// three iterations of two workers: counted, the worst named
	dir, _ = testenv.ShiftedAsyncPS(t, "w2", 1, 30, -0.5)
	tr, _, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Steps {
		s := &tr.Steps[i]
		if s.Run == "w2" && (s.Worker == 0 && (s.Step == 10 || s.Step == 20)) {
			s.Start -= 0.25
		}
	}
	for _, s := range Summarize(tr) {
		got := overlapWarnings(s)
		if s.Run != "w2" {
			if len(got) > 0 {
				t.Errorf("run %s: %q, want no overlap warning", s.Run, got)
			}
			continue
		}
		if len(got) != 1 || !strings.Contains(got[0], `run "w2": 3 iterations start before`) || !strings.Contains(got[0], "worst: worker 1 step 30 starts 0.5 s before step 29 ends.") {
			t.Errorf("run w2: %q, want one warning of 3 iterations, the worst worker 1 step 30 by 0.5 s", got)
		}
	}
}

// The traces of the project (recorded, converted and synthetic) have no
// iteration of a worker that starts before an earlier one of the worker ends:
// the tolerance (1 ms plus 1e-12 of the times) passes them.
func TestNoOverlapInFixtures(t *testing.T) {
	dirs := []string{
		filepath.Join("..", "testdata", "asgd"),
		filepath.Join("..", "testdata", "asgd", "cpu"),
		filepath.Join("..", "testdata", "sync-gns"),
		filepath.Join("testdata", "canonical"),
	}
	synth, err := filepath.Glob(filepath.Join("..", "testdata", "synthetic", "*"))
	if err != nil || len(synth) == 0 {
		t.Fatalf("glob testdata/synthetic: %v %v", synth, err)
	}
	for _, dir := range append(dirs, synth...) {
		sums, _, err := SummarizePaths(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		steps := 0
		for _, s := range sums {
			steps += int(s.Steps)
			if w := overlapWarnings(s); len(w) > 0 {
				t.Errorf("%s: %q", dir, w)
			}
		}
		if steps == 0 {
			t.Errorf("%s: no steps", dir)
		}
	}
	// the converters' fixtures
	chrome, err := filepath.Glob(filepath.Join("testdata", "chrome", "*"))
	if err != nil || len(chrome) == 0 {
		t.Fatalf("glob testdata/chrome: %v %v", chrome, err)
	}
	type src struct{ format, path string }
	srcs := []src{{"tfevents", filepath.Join("testdata", "tfevents")}}
	for _, p := range chrome {
		srcs = append(srcs, src{"chrome", p})
	}
	for _, s := range srcs {
		c, _, err := Convert(s.format, s.path, ConvertOptions{})
		if err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
		for _, r := range Summarize(c.Trace) {
			if w := overlapWarnings(r); len(w) > 0 {
				t.Errorf("%s: %q", s.path, w)
			}
		}
	}
}

// GroupOverlaps gives the first OverlapsShown runs' warnings in full and
// one line for the rest: how many runs and iterations, the worst of them
// (by its seconds, not the first) and at most 8 names.
func TestGroupOverlaps(t *testing.T) {
	var ws []*OverlapWarning
	for i := range 13 {
		ws = append(ws, &OverlapWarning{Run: fmt.Sprintf("r%d", i), Count: int64(100 + i), Worker: i % 2, Step: 10, PrevStep: 9, By: 0.01, File: "s.csv", Line: 10 + i})
	}
	ws[7].By, ws[7].Step, ws[7].PrevStep = 2.5, 40, 38
	ws[1].By = 9 // among the shown: not the rest's worst
	g := GroupOverlaps(ws)
	if len(g) != OverlapsShown+1 {
		t.Fatalf("%d warnings, want %d:\n%s", len(g), OverlapsShown+1, strings.Join(g, "\n"))
	}
	for i := range OverlapsShown {
		if g[i] != ws[i].Error() {
			t.Errorf("warning %d: %q, want the run's own %q", i, g[i], ws[i].Error())
		}
	}
	count := 0
	for _, w := range ws[OverlapsShown:] {
		count += int(w.Count)
	}
	want := fmt.Sprintf(`traces: 10 more runs have iterations that start before the end of an earlier iteration of their worker (by more than 1 ms), as said above of run "r0": %s iterations in all; worst: run "r7", worker 1 step 40 starts 2.5 s before step 38 ends (s.csv:17); runs "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10" and 2 more`, words.Thousands(count))
	if g[OverlapsShown] != want {
		t.Errorf("the rest:\n%s\nwant\n%s", g[OverlapsShown], want)
	}
	// one more run: said so; up to OverlapsShown: each in full, no summary
	g = GroupOverlaps(ws[:OverlapsShown+1])
	if !strings.HasPrefix(g[OverlapsShown], `traces: 1 more run has iterations`) || !strings.Contains(g[OverlapsShown], `103 iterations in all; worst: run "r3"`) || !strings.HasSuffix(g[OverlapsShown], `runs "r3"`) {
		t.Errorf("one more run: %s", g[OverlapsShown])
	}
	if g := GroupOverlaps(ws[:OverlapsShown]); len(g) != OverlapsShown {
		t.Errorf("%d runs: %d warnings, want each in full", OverlapsShown, len(g))
	}
	if g := GroupOverlaps(nil); len(g) != 0 {
		t.Errorf("none: %q", g)
	}
}
