package traces

import (
	"fmt"
	"strings"
	"testing"
)

// A phase interval that runs from a step into a gap between two steps of
// its process loses the part in the gap, which no row counts: the warning
// counts such intervals and totals the gaps' parts in seconds, apart from
// the head before the first step and the tail past the last, and one
// wholly in a gap stays in no step (the gap's 500 us of a kernel from 900
// to 1500 us over steps at 0-1000 and 2000-3000 were dropped without a
// word).
func TestChromePhasesInGaps(t *testing.T) {
	step := func(n, ts int) string {
		return fmt.Sprintf(`{"name": "ProfilerStep#%d", "ph": "X", "ts": %d, "dur": 1000, "pid": 1, "tid": 1}`, n, ts)
	}
	// three steps with 1000 us gaps: 0-1000, 2000-3000, 4000-5000
	steps := step(1, 0) + ",\n" + step(2, 2000) + ",\n" + step(3, 4000)
	const pre = "traces: t.json: of its phase intervals (after merging overlaps), "
	const gap = " running from a step into a gap between two of its process's steps, the part in the gap not counted ("
	const why = " s in all: a kernel still running when its step's marker ended, with the next step not yet begun?)"
	for _, c := range []struct {
		name, events, want string
	}{
		// the brief's reproducer: 900-1500 us, 500 us in the gap
		{"into a gap", `{"name": "ncclKernel_AllReduce", "ph": "X", "ts": 900, "dur": 600, "pid": 2, "tid": 7}`,
			pre + "1" + gap + "0.0005" + why},
		// from a gap into a step: 1500-2100 us, 500 us in the gap
		{"from a gap", `{"name": "forward", "ph": "X", "ts": 1500, "dur": 600, "pid": 1, "tid": 1}`,
			pre + "1" + gap + "0.0005" + why},
		// over a whole gap, from one step into the next: 1000 us
		{"over a gap", `{"name": "forward", "ph": "X", "ts": 900, "dur": 1200, "pid": 1, "tid": 1}`,
			pre + "1" + gap + "0.001" + why},
		// 3500-5500 us, over step 3 alone: 500 us in the gap, and 500 us
		// past the last step, counted once each
		{"gap and tail", `{"name": "forward", "ph": "X", "ts": 3500, "dur": 2000, "pid": 1, "tid": 1}`,
			pre + "1 running past the end of its process's last step, the part after it not counted (0.0005 s in all: a GPU kernel still running when the last step's marker ended?); 1" + gap + "0.0005" + why},
		// -500 to 1500 us: 500 us before the first step, 500 us in the gap
		{"head and gap", `{"name": "forward", "ph": "X", "ts": -500, "dur": 2000, "pid": 1, "tid": 1}`,
			pre + "1 starting before its process's first step, the part before it not counted (0.0005 s in all: work begun before the first step's marker, as a kernel launched before the profiled steps?); 1" + gap + "0.0005" + why},
		// 500-4500 us holds step 2 whole and runs over both gaps: 2000 us
		{"across two gaps", `{"name": "forward", "ph": "X", "ts": 500, "dur": 4000, "pid": 1, "tid": 1}`,
			pre + "1 holding a whole step and more, each step counting the part inside it (the first at 0.0005 s: a phase longer than a step, or steps marked around part of the work?); 1" + gap + "0.002" + why},
		// two phases, two intervals: 200 + 300 us
		{"two", `{"name": "forward", "ph": "X", "ts": 800, "dur": 400, "pid": 1, "tid": 1}, {"name": "ncclKernel_AllReduce", "ph": "X", "ts": 2700, "dur": 600, "pid": 2, "tid": 7}`,
			pre + "2" + gap + "0.0005" + why},
		// wholly in a gap: in no step, not in a gap's part
		{"in a gap", `{"name": "forward", "ph": "X", "ts": 1200, "dur": 600, "pid": 1, "tid": 1}`,
			pre + "1 in no step of its process, not counted (the first at 0.0012 s after the earliest event)"},
		// ending as the gap begins, starting as it ends: inside steps
		{"touching", `{"name": "forward", "ph": "X", "ts": 500, "dur": 500, "pid": 1, "tid": 1}, {"name": "pull", "ph": "X", "ts": 2000, "dur": 500, "pid": 1, "tid": 1}`, ""},
	} {
		_, warns, err := ReadChromeTrace(strings.NewReader("["+steps+",\n"+c.events+"]"), "t.json", ConvertOptions{Run: "t", Batch: 32})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := ""
		for _, w := range warns {
			if strings.Contains(w.Error(), "of its phase intervals") {
				got = w.Error()
			}
		}
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// A step marked twice, by a second thread, makes no row: its marker's end
// does not hide a kernel's tail past the last step the rows keep (tid 2's
// step 2 ran to 2110 us, past the kernel's end at 2100, and the 100 us
// after the kept step 2's end at 2000 were dropped without a word).
func TestChromeTailPastTwiceMarkedStep(t *testing.T) {
	const trace = `[{"name":"ProfilerStep#1","ph":"X","ts":0,"dur":1000,"pid":1,"tid":1},
{"name":"ProfilerStep#2","ph":"X","ts":1000,"dur":1000,"pid":1,"tid":1},
{"name":"ProfilerStep#2","ph":"X","ts":1010,"dur":1100,"pid":1,"tid":2},
{"name":"ncclKernel_AllReduce","ph":"X","ts":1800,"dur":300,"pid":2,"tid":7}]`
	tr, warns, err := ReadChromeTrace(strings.NewReader(trace), "t.json", ConvertOptions{Run: "t", Batch: 32})
	if err != nil {
		t.Fatal(err)
	}
	all := joinErrs(warns)
	if len(tr.Steps) != 2 || tr.Steps[1].End != 0.002 ||
		!strings.Contains(all, "traces: t.json: of its phase intervals (after merging overlaps), 1 running past the end of its process's last step, the part after it not counted (0.0001 s in all") ||
		!strings.Contains(all, "1 step marked twice (the first, worker 0 step 2)") {
		t.Errorf("%d steps %v, warnings %s", len(tr.Steps), tr.Steps, all)
	}
}

// A total past float64's largest (three phases of 1e308 us each past the
// last step) is written as more than 1e302 s, not as +Inf.
func TestChromePhasesOffStepsOverflow(t *testing.T) {
	const trace = `[{"name":"ProfilerStep#1","ph":"X","ts":0,"dur":1000,"pid":1,"tid":1},
{"name":"forward","ph":"X","ts":500,"dur":1e308,"pid":1,"tid":1},
{"name":"pull","ph":"X","ts":500,"dur":1e308,"pid":1,"tid":1},
{"name":"ncclKernel_AllReduce","ph":"X","ts":500,"dur":1e308,"pid":2,"tid":7}]`
	_, warns, err := ReadChromeTrace(strings.NewReader(trace), "t.json", ConvertOptions{Run: "t", Batch: 32})
	if err != nil {
		t.Fatal(err)
	}
	all := joinErrs(warns)
	if !strings.Contains(all, "3 running past the end of its process's last step, the part after it not counted (more than 1e302 s in all:") || strings.Contains(all, "Inf") {
		t.Errorf("warnings %s", all)
	}
}
