package traces

import (
	"math"
	"strings"
	"testing"
)

// Tests from mutation round 5 (convert's tfevents path and psMode): each
// case fails on a mutant that every earlier test let through.

// --ps without --mode is written as the readers take an empty mode beside
// shards (async, DefaultMode), with a warning, from one shard up: the
// existing cases gave --ps 2 only.
func TestPSModeOneShardM5(t *testing.T) {
	for _, ps := range []int{1, 3} {
		o, warns, err := ConvertOptions{PS: ps, source: "t.json"}.psMode()
		if err != nil || o.Mode != "async" || len(warns) != 1 || !strings.Contains(warns[0].Error(), "no --mode: written as mode async") {
			t.Errorf("--ps %d: mode %q, warnings %v, error %v; want async and one warning", ps, o.Mode, warns, err)
		}
	}
}

// A tag naming gradient accumulation (accumulated_steps, grad_accum) is no
// accuracy, whatever else is logged: with no other accuracy tag the evals
// have none (a value of 4 read as 4% was written), and the tag is listed
// among those not converted.
func TestTFEventsAccumIsNoAccuracyM5(t *testing.T) {
	for _, tag := range []string{"train/accumulated_steps", "grad_accum"} {
		sc := append(scalarsOf("loss", 10, 0, func(i int) float64 { return 2 - 0.1*float64(i) }),
			scalarsOf(tag, 10, 0, func(int) float64 { return 4 })...)
		tr, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r", Mode: "allreduce"})
		for _, e := range tr.Evals {
			if !math.IsNaN(e.Accuracy) {
				t.Fatalf("%s: accuracy %g at step %d, want none\n%s", tag, e.Accuracy, e.Updates, joinErrs(warns))
			}
		}
		if all := joinErrs(warns); !strings.Contains(all, "tags not converted: "+tag) {
			t.Errorf("%s: not listed as not converted:\n%s", tag, all)
		}
	}
}

// The thin steady window is warned from 6 values: 6 rates in two bursts,
// at 0, 0.1, 0.2 s and 10, 10.1, 10.2 s, span 10.2 s: the window 10% to
// 95% of it, [1.02, 9.69] s, holds none, so all 6 are averaged and said.
// 5 rates (the last burst 10, 10.1) are not said (a short log leaves few
// inside as a matter of course).
func TestTFEventsThinWindowFromSixM5(t *testing.T) {
	for _, c := range []struct {
		times []float64
		said  bool
	}{
		{[]float64{0, 0.1, 0.2, 10, 10.1, 10.2}, true},
		{[]float64{0, 0.1, 0.2, 10, 10.1}, false},
	} {
		var sc []TFScalar
		for i, w := range c.times {
			sc = append(sc, TFScalar{WallTime: w, Step: int64(10 * i), Tag: "global_step/sec", Value: 5})
		}
		_, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r", Workers: 1, Batch: 8, Mode: "allreduce"})
		want := "fewer than 3 of the 6 values"
		if !c.said {
			want = "fewer than 3 of the"
		}
		if got := strings.Contains(joinErrs(warns), want); got != c.said {
			t.Errorf("%d values: thin window said %v, want %v:\n%s", len(c.times), got, c.said, joinErrs(warns))
		}
	}
}

// steadyValues' whole says the window held fewer than 3 values AND the log
// had more: two values at one wall time both lie in the window (it is that
// instant), so they are all there is, not the whole taken for a thin window.
func TestSteadyValuesWholeM5(t *testing.T) {
	in, whole := steadyValues([]TFScalar{{WallTime: 5, Value: 1}, {WallTime: 5, Value: 3}})
	if len(in) != 2 || whole {
		t.Errorf("two values at one instant: %v, whole %v; want both, not whole", in, whole)
	}
	// three values at 0, 1 and 100 s: the window [10, 95] holds none
	in, whole = steadyValues([]TFScalar{{WallTime: 0, Value: 1}, {WallTime: 1, Value: 2}, {WallTime: 100, Value: 3}})
	if len(in) != 3 || !whole {
		t.Errorf("none in the window: %v, whole %v; want all 3, whole", in, whole)
	}
}

// Keras' epoch tags are warned under a folder prefix too ("train/epoch_loss",
// as a writer per split names them), not only at the tag's start.
func TestTFEventsEpochTagUnderPrefixM5(t *testing.T) {
	for _, tag := range []string{"train/epoch_loss", "Train/Epoch_Accuracy"} {
		sc := scalarsOf(tag, 5, 100, func(i int) float64 { return 0.9 / float64(i+1) })
		_, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r", Mode: "allreduce"})
		if all := joinErrs(warns); !strings.Contains(all, `tag "`+tag+`" is logged per epoch`) {
			t.Errorf("%s: not said to be per epoch:\n%s", tag, all)
		}
	}
}
