package traces

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// Tests from mutation round 5 (convert --from chrome's nested markers,
// unmatched pids and markers given twice).

// chromeNestedMarkers: a step marker within another of its pid (start at
// or after, end at or before) is nested; of two equal intervals the later
// in ivs; an inner one sharing the outer's start is nested whichever comes
// first in ivs; GPU copies and other pids' markers are no markers.
func TestChromeNestedMarkersCasesM5(t *testing.T) {
	iv := func(name, pid string, start, end float64, gpu bool) chromeInterval {
		return chromeInterval{name: name, pid: pid, start: start, end: end, gpu: gpu}
	}
	for _, c := range []struct {
		name string
		ivs  []chromeInterval
		want []int
	}{
		{"equal intervals", []chromeInterval{iv("ProfilerStep#1", "1", 0, 100, false), iv("train_step", "1", 0, 100, false)}, []int{1}},
		{"same end", []chromeInterval{iv("ProfilerStep#1", "1", 0, 100, false), iv("train_step", "1", 10, 100, false)}, []int{1}},
		{"same start, inner first", []chromeInterval{iv("train_step", "1", 0, 50, false), iv("ProfilerStep#1", "1", 0, 100, false)}, []int{0}},
		{"same start, outer first", []chromeInterval{iv("ProfilerStep#1", "1", 0, 100, false), iv("train_step", "1", 0, 50, false)}, []int{1}},
		{"gpu copy", []chromeInterval{iv("ProfilerStep#1", "1", 0, 100, false), iv("ProfilerStep#1", "1", 10, 90, true)}, nil},
		{"other pid", []chromeInterval{iv("ProfilerStep#1", "1", 0, 100, false), iv("ProfilerStep#1", "2", 10, 90, false)}, nil},
		{"one after another", []chromeInterval{iv("step 1", "1", 0, 100, false), iv("step 2", "1", 100, 200, false)}, nil},
	} {
		got := slices.Sorted(maps.Keys(chromeNestedMarkers(c.ivs)))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: nested %v, want %v", c.name, got, c.want)
		}
	}
}

// The phase intervals on a pid that marks no step are counted after
// merging overlaps: two all-reduce kernels of pid 0 apart in time (50-60,
// 70-80 us) are 2 intervals, on 1 process.
func TestChromeUnmatchedCountsIntervalsM5(t *testing.T) {
	two := `[{"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 100, "pid": 1, "tid": 1},
{"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 100, "pid": 2, "tid": 1},
{"name": "ncclAllReduce", "ph": "X", "ts": 50, "dur": 10, "pid": 0, "tid": 7},
{"name": "ncclAllReduce", "ph": "X", "ts": 70, "dur": 10, "pid": 0, "tid": 7}]`
	_, warns, err := ReadChromeTrace(strings.NewReader(two), "t.json", ConvertOptions{Batch: 8, Mode: "allreduce"})
	if err != nil {
		t.Fatal(err)
	}
	if all := joinErrs(warns); !strings.Contains(all, "2 phase intervals (after merging overlaps) on 1 process marking no step (pid 0") {
		t.Errorf("warnings:\n%s", all)
	}
}

// Steps marked twice are one warning that counts them and names the first:
// steps 1 and 2 each marked again later (at 20 and 30 us) are 2 steps
// marked twice, the first worker 0 step 1.
func TestChromeMarkedTwiceNamesFirstM5(t *testing.T) {
	tr := `[{"name": "step 1", "ph": "X", "ts": 0, "dur": 5},
{"name": "step 2", "ph": "X", "ts": 10, "dur": 5},
{"name": "step 1", "ph": "X", "ts": 20, "dur": 5},
{"name": "step 2", "ph": "X", "ts": 30, "dur": 5}]`
	got, warns, err := ReadChromeTrace(strings.NewReader(tr), "t.json", ConvertOptions{Batch: 8, Mode: "allreduce"})
	if err != nil {
		t.Fatal(err)
	}
	if all := joinErrs(warns); len(got.Steps) != 2 || !strings.Contains(all, "2 steps marked twice (the first, worker 0 step 1)") {
		t.Errorf("%d steps, warnings:\n%s", len(got.Steps), all)
	}
}
