package traces

import (
	"strings"
	"testing"
)

// Two workers of a run whose steps never share a moment of its clock
// (worker 1's clock 6 s ahead, past the run's length) spread its steps
// over twice the wall time: its rate came out half without a word. The
// summary names the two workers and their spans; workers that overlap,
// even by little, get no such warning.
func TestSummaryDisjointWorkers(t *testing.T) {
	mk := func(offset float64) *Trace {
		tr := &Trace{}
		for w := 0; w < 2; w++ {
			for k := 0; k < 50; k++ {
				start := 0.1*float64(k) + float64(w)*offset
				tr.Steps = append(tr.Steps, Step{Run: "r", Workers: 2, PS: 1, Batch: 32, Worker: w, Step: int64(k), Start: start, End: start + 0.1, Pull: 0.01, Compute: 0.08, Push: 0.01, Staleness: -1, Loss: nan})
			}
		}
		return tr
	}
	for _, c := range []struct {
		offset float64
		want   string
	}{
		{6, "workers 0 and 1 never ran at the same time, nor any worker between them (worker 0's steps span [0, 5] s, worker 1's [6, 11] s)"},
		{4.9, ""}, // they meet for 0.1 s: not a sure sign
		{0, ""},
	} {
		sums := Summarize(mk(c.offset))
		var got string
		for _, w := range sums[0].Warnings {
			if strings.Contains(w.Error(), "never ran at the same time") {
				got = w.Error()
			}
		}
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("offset %g: warning %q, want %q", c.offset, got, c.want)
		}
	}
}

// One clock with a worker replaced while another runs on (worker 1 stops
// at 9.5 s, worker 2 starts at 10 s, worker 0 runs throughout) is no gap:
// a review found it called "separate clocks". A worker whose only row has
// no end (NaN, a row built in memory) is left out, not a span to -Inf.
func TestSummaryDisjointNotReplaced(t *testing.T) {
	tr := &Trace{}
	add := func(w int, from, to float64) {
		for k := 0; from+0.5*float64(k) < to; k++ {
			start := from + 0.5*float64(k)
			tr.Steps = append(tr.Steps, Step{Run: "r", Workers: 3, PS: 1, Batch: 32, Worker: w, Step: int64(k), Start: start, End: start + 0.5, Pull: 0.01, Compute: 0.4, Push: 0.01, Staleness: -1, Loss: nan})
		}
	}
	add(0, 0, 20)
	add(1, 0, 9.5)
	add(2, 10, 20)
	tr.Steps = append(tr.Steps, Step{Run: "r", Workers: 3, PS: 1, Batch: 32, Worker: 3, Step: 0, Start: 1, End: nan, Pull: nan, Compute: nan, Push: nan, Staleness: -1, Loss: nan})
	for _, w := range Summarize(tr)[0].Warnings {
		if strings.Contains(w.Error(), "never ran at the same time") {
			t.Errorf("a one-clock run: %v", w)
		}
	}
}
