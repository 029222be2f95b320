package traces

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scalarsOf is n values of tag, one a second from wall time t0, steps
// 0, 10, 20, ..., value f(i).
func scalarsOf(tag string, n int, t0 float64, f func(i int) float64) []TFScalar {
	s := make([]TFScalar, n)
	for i := range s {
		s[i] = TFScalar{WallTime: t0 + float64(i), Step: int64(10 * i), Tag: tag, Value: f(i)}
	}
	return s
}

func joinErrs(ws []error) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.Error() + "\n")
	}
	return b.String()
}

// The rates of a log are checked by the mode the row is read with: 20
// steps/s and 640 samples/s of 4 async workers of batch 32 agree (20 x 32,
// one worker's batch an update), and were dropped by the synchronous rule
// (20 x 128) when the mode was left empty beside --ps; 5 steps/s and 640
// samples/s of 4 sync workers of batch 32 agree (5 x 128).
func TestTFEventsRatesByReadMode(t *testing.T) {
	for _, c := range []struct {
		mode          string
		steps, sample float64
	}{{"", 20, 640}, {"async", 20, 640}, {"sync", 5, 640}} {
		sc := append(scalarsOf("global_step/sec", 30, 1000, func(int) float64 { return c.steps }),
			scalarsOf("examples/sec", 30, 1000, func(int) float64 { return c.sample })...)
		tr, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r", Workers: 4, PS: 2, Batch: 32, Mode: c.mode})
		if len(tr.Throughput) != 1 || tr.Throughput[0].SamplesPerS != c.sample || tr.Throughput[0].StepsPerS != c.steps {
			t.Errorf("mode %q: throughput %+v, want %g steps/s and %g samples/s kept\n%s", c.mode, tr.Throughput, c.steps, c.sample, joinErrs(warns))
		}
	}
}

// Mixed precision's loss scale is not a loss (a DeepSpeed log's
// Train/Samples/loss_scale, 65536, beat its train_loss on the name order),
// and gradient accumulation's steps are not an accuracy.
func TestTFEventsTagsNotLosses(t *testing.T) {
	sc := append(scalarsOf("Train/Samples/train_loss", 10, 0, func(i int) float64 { return 2 - 0.1*float64(i) }),
		scalarsOf("Train/Samples/loss_scale", 10, 0, func(int) float64 { return 65536 })...)
	sc = append(sc, scalarsOf("train/accumulated_steps", 10, 0, func(int) float64 { return 4 })...)
	sc = append(sc, scalarsOf("train/acc", 10, 0, func(i int) float64 { return 0.5 + 0.01*float64(i) })...)
	tr, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r", Batch: 32, Mode: "allreduce"})
	if len(tr.Evals) != 10 || tr.Evals[0].Loss != 2 || tr.Evals[9].Loss != 2-0.9 {
		t.Fatalf("evals %+v: want train_loss's 2 down to 1.1\n%s", tr.Evals, joinErrs(warns))
	}
	if tr.Evals[0].Accuracy != 0.5 {
		t.Errorf("accuracy %g: want train/acc's 0.5\n%s", tr.Evals[0].Accuracy, joinErrs(warns))
	}
	if all := joinErrs(warns); strings.Contains(all, "ignored Train/Samples/train_loss") || strings.Contains(all, `accuracy from tag "train/accumulated_steps"`) {
		t.Errorf("warnings:\n%s", all)
	}
}

// A worker count not given is said (a log of 8 workers was written as 1
// worker without a word), and so is a steady window that held fewer than 3
// of the rates: a restart's hour-long gap leaves 3 values at 2 steps/s and
// 27 at 10 on each side, so the window of 10% to 95% of the wall time
// (from 0 to 3630 s: 363 s to 3448.5 s) holds none, and all 60 are
// averaged, (6 x 2 + 54 x 10) / 60 = 9.2.
func TestTFEventsSaysWhatItAssumed(t *testing.T) {
	rate := func(i int) float64 {
		if i < 3 {
			return 2
		}
		return 10
	}
	sc := append(scalarsOf("global_step/sec", 30, 0, rate), scalarsOf("global_step/sec", 30, 3600, rate)...)
	tr, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r", Batch: 32, Mode: "allreduce"})
	all := joinErrs(warns)
	if len(tr.Throughput) != 1 || math.Abs(tr.Throughput[0].StepsPerS-9.2) > 1e-12 || tr.Throughput[0].Workers != 1 {
		t.Fatalf("throughput %+v: want 9.2 steps/s on 1 worker\n%s", tr.Throughput, all)
	}
	if !strings.Contains(all, "worker count unknown: throughput.csv gets 1 worker (give --workers)") {
		t.Errorf("no warning of the worker count:\n%s", all)
	}
	if !strings.Contains(all, `fewer than 3 of the 60 values of "global_step/sec" lie in the steady window`) {
		t.Errorf("no warning of the steady window:\n%s", all)
	}
	// one steady session: neither warning
	tr, warns = TFEventsTrace(scalarsOf("global_step/sec", 30, 0, rate), math.NaN(), ConvertOptions{Run: "r", Batch: 32, Workers: 8, Mode: "allreduce"})
	if all := joinErrs(warns); strings.Contains(all, "steady window") || strings.Contains(all, "worker count unknown") {
		t.Errorf("one session, --workers 8: %s", all)
	}
}

// Keras' epoch_loss is logged at the epoch number, which evals.csv would
// take as updates: said. A value logged before the files' first event (the
// clock stepped back 30 s) has a negative time: said too.
func TestTFEventsEpochTagsAndClock(t *testing.T) {
	sc := scalarsOf("epoch_loss", 5, 100, func(i int) float64 { return 1 / float64(i+1) })
	_, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r", Mode: "allreduce"})
	if all := joinErrs(warns); !strings.Contains(all, `tag "epoch_loss" is logged per epoch`) {
		t.Errorf("epoch_loss: %s", all)
	}
	// first event at 100 s, steps 0-40 at 100-104 s, then the clock
	// steps back 35 s: steps 50-90 at 70-74 s, 30 to 26 s before it
	sc = scalarsOf("loss", 10, 100, func(i int) float64 { return 1 / float64(i+1) })
	for i := 5; i < 10; i++ {
		sc[i].WallTime -= 35
	}
	tr, warns := TFEventsTrace(sc, 100, ConvertOptions{Run: "r", Mode: "allreduce"})
	all := joinErrs(warns)
	if tr.Evals[5].Time != -30 || !strings.Contains(all, "5 evaluations logged before the first event of the files (the first at step 50, 30 s before it") {
		t.Errorf("time %g: %s", tr.Evals[5].Time, all)
	}
	if strings.Contains(all, "per epoch") {
		t.Errorf("loss is not an epoch tag: %s", all)
	}
}

// An event file with no scalar (its file_version event alone) is an error
// naming the file, with no warning beside it saying the same of the run
// (both were printed).
func TestTFEventsNoScalarsOneMessage(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "events.out.tfevents.1.host")
	if err := os.WriteFile(p, AppendTFRecord(nil, tfTestEvent(1000, 0, "brain.Event:2")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, warns, err := Convert("tfevents", p, ConvertOptions{Mode: "allreduce"})
	if err == nil || !strings.Contains(err.Error(), p+": no scalar summaries to convert") {
		t.Fatalf("error %v: want the file named", err)
	}
	if all := joinErrs(warns); strings.Contains(all, "no scalar summaries") {
		t.Errorf("a warning says it too: %s", all)
	}
}

// Only a loss scale is no loss: train/unscaled_loss is one (a first
// version of the rule dropped every tag with "scale"). A short log of 4
// evenly logged rates leaves 2 inside the steady window as a matter of
// course: averaged whole, without the thin-window warning.
func TestTFEventsUnscaledLossAndShortLogs(t *testing.T) {
	sc := append(scalarsOf("train/unscaled_loss", 5, 0, func(i int) float64 { return 2 - 0.1*float64(i) }),
		scalarsOf("train/loss_scale", 5, 0, func(int) float64 { return 1024 })...)
	sc = append(sc, scalarsOf("global_step/sec", 4, 0, func(int) float64 { return 5 })...)
	tr, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r", Workers: 2, Batch: 8, Mode: "allreduce"})
	all := joinErrs(warns)
	if len(tr.Evals) != 5 || tr.Evals[0].Loss != 2 {
		t.Errorf("evals %+v: want unscaled_loss's 5 values from 2\n%s", tr.Evals, all)
	}
	if strings.Contains(all, "steady window") || len(tr.Throughput) != 1 || tr.Throughput[0].Repeats != 4 {
		t.Errorf("throughput %+v: want the 4 rates averaged without the window warning\n%s", tr.Throughput, all)
	}
}
