package fit

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
	"github.com/sgdplan/sgdplan/traces"
)

// An iteration of one worker started 100 s before the end of an earlier
// one (a clock that jumped, a row edited by hand) is warned of,
// first and once, by the streamed fit (with its row) and the one in memory;
// where it leaves a run's steady window empty, the error says so.
func TestFitWarnsOverlappingIterations(t *testing.T) {
	o := StepOptions{Family: "mva", Bootstrap: -1}
	dir, line := testenv.ShiftedAsyncPS(t, "w1", 0, 50, -100)
	str, _, err := FitStepsPaths([]string{dir}, o)
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := traces.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := FitSteps(tr, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	const head = `traces: run "w1": 1 iteration starts before the end of an earlier iteration of the worker (by more than 1 ms); worst: worker 0 step 50 starts 100 s before step 49 ends`
	pos := " (" + filepath.Join(dir, "steps.csv") + ":" + strconv.Itoa(line) + "). "
	for _, c := range []struct {
		name, want string
		warnings   []string
	}{{"streamed", head + pos, str.Warnings}, {"in memory", head + ". ", mem.Warnings}} {
		n := 0
		for _, w := range c.warnings {
			if strings.Contains(w, "before the end of an earlier iteration of the worker") {
				n++
			}
		}
		if n != 1 || len(c.warnings) == 0 || !strings.HasPrefix(c.warnings[0], c.want) || !strings.Contains(c.warnings[0], "a clock that jumped") {
			t.Errorf("%s: %d overlap warnings in %q\nwant one, first, starting %q", c.name, n, c.warnings, c.want)
		}
	}
	// no iteration of run w4 ends in its window once one starts 100 s early
	dir, line = testenv.ShiftedAsyncPS(t, "w4", 2, 20, -100)
	_, _, err = FitStepsPaths([]string{dir}, o)
	tr, _, lerr := traces.Load(dir)
	if lerr != nil {
		t.Fatal(lerr)
	}
	_, merr := FitSteps(tr, nil, o)
	const want = "its times contradict each other: 1 iteration starts before the end of an earlier iteration of the worker (by more than 1 ms); worst: worker 2 step 20 starts 100 s before step 19 ends"
	for name, err := range map[string]error{"streamed": err, "in memory": merr} {
		if err == nil || !strings.Contains(err.Error(), "run w4: no steps end in the steady window") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v\nwant the empty window of w4 and %q", name, err, want)
		}
	}
	if err == nil || !strings.Contains(err.Error(), "steps.csv:"+strconv.Itoa(line)+")") {
		t.Errorf("streamed: error %v, want the row's line %d", err, line)
	}
}
