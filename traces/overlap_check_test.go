package traces

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// The check compares each row with the row of its worker read before it,
// in step order whatever the order of the rows; jitter of up to 1 ms (plus
// 1e-12 of the times, at epoch timestamps too) passes; an iteration is
// counted once; the in-memory Summarize and OverlapCheck agree.
func TestOverlapOrderAndTolerance(t *testing.T) {
	tr := &Trace{}
	add := func(worker int, step int64, start, end float64) {
		tr.Steps = append(tr.Steps, Step{Run: "r", Workers: 6, PS: 1, Batch: 1, Worker: worker, Step: step,
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
	// worker 3, rows 3, 5, 4: step 5 overlaps 3 and 4, counted once; its
	// overlap with 4, seen second, is the worst
	add(3, 3, 3, 4)
	add(3, 5, 3.6, 6)
	add(3, 4, 4, 5)
	// worker 4 with a gap in its steps, in order, then one step back in time
	add(4, 0, 0, 1)
	add(4, 10, 10, 11)
	add(4, 20, 10.25, 21)

	var c OverlapCheck
	for i := range tr.Steps {
		c.Add(&tr.Steps[i])
	}
	w := c.Warning("r")
	if w == nil {
		t.Fatal("OverlapCheck: no warning")
	}
	want := OverlapWarning{Run: "r", Count: 5, Worker: 3, Step: 5, PrevStep: 4, By: 1.4}
	if *w != want {
		t.Errorf("OverlapCheck: %+v, want %+v", *w, want)
	}
	if c.Warning("other") != nil {
		t.Error("a run with no rows has a warning")
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
	if msg := got.Error(); !strings.HasPrefix(msg, `traces: run "r": 5 iterations start before the end of the worker's previous iteration (by more than 1 ms); worst: worker 3 step 5 starts 1.4 s before step 4 ends. `) {
		t.Errorf("message %q", msg)
	}
}
