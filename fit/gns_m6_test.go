package fit

import (
	"strings"
	"testing"
)

// The synchronous batch law's note gives the noise scale's interval only
// where there is one: at 3 global batches (3 runs) "(no interval)", at 4 a
// bracketed one.
func TestFitStepsBatchLawIntervalNote(t *testing.T) {
	for _, c := range []struct {
		mode     string
		workers  []int
		interval bool
	}{
		{"sync", []int{2, 4, 8}, false},
		{"allreduce", []int{1, 2, 4, 8}, true},
	} {
		sf, err := FitSteps(syncTrace(c.mode, c.workers), []string{"mem"}, StepOptions{Bootstrap: 20})
		if err != nil {
			t.Fatal(err)
		}
		e := sf.Model.Efficiency
		if e == nil || e.GNS == nil {
			t.Fatalf("%s %v: no batch law", c.mode, c.workers)
		}
		note := ""
		for _, w := range e.Warnings {
			if strings.HasPrefix(w, "synchronous runs at ") {
				note = w
			}
		}
		noIv := strings.Contains(note, "samples (no interval), ")
		bracket := strings.Contains(note, "samples [")
		if note == "" || noIv == c.interval || bracket != c.interval {
			t.Errorf("%s at %d batches: %q; want an interval %v", c.mode, len(c.workers), note, c.interval)
		}
	}
}

// Evals is the fewest evaluations of a curve (BatchScore's doc): curves of
// 3, 5 and 4 evaluations give 3, whichever comes first.
func TestScoreBatchSizeEvalsFewest(t *testing.T) {
	var cs []BatchCurve
	for i, b := range []float64{32, 64, 128, 256, 512, 1024} {
		s := 1000 * (1 + 256/b)
		c := BatchCurve{Batch: b, Steps: []float64{0, s, 2 * s}, Loss: []float64{1, 0.5, 0.4}}
		switch i {
		case 0: // 5 evaluations, the target met before the last
			c.Steps, c.Loss = []float64{0, s, 2 * s, 3 * s, 4 * s}, []float64{1, 0.5, 0.4, 0.35, 0.3}
		case 2: // 4
			c.Steps, c.Loss = []float64{0, s, 2 * s, 3 * s}, []float64{1, 0.5, 0.4, 0.35}
		}
		cs = append(cs, c)
	}
	s, err := ScoreBatchSize("mixed", cs)
	if err != nil {
		t.Fatal(err)
	}
	if s.Evals != 3 {
		t.Errorf("curves of 5, 3, 4, 3, 3, 3 evaluations: Evals %d, want 3", s.Evals)
	}
}
