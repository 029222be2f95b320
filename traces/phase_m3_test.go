package traces

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// chromePhase follows ReadChromeTrace's documented word lists (see its
// "# Phases"): push words (negotiate among them: Horovod's NEGOTIATE_*
// waits for the other ranks) are tested before pull words, those before
// compute words.
func TestChromePhaseDocumentedWords(t *testing.T) {
	for _, c := range []struct {
		name string
		want int // 0 none, 1 pull, 2 compute, 3 push
	}{
		{"ncclAllReduce", 3}, // the doc's own example: push first
		{"NEGOTIATE_BROADCAST", 3},
		{"Horovod negotiate", 3},
		{"reduce_scatter", 3},
		{"SendRecv", 3}, // send (push) before recv (pull)
		{"ncclBroadcast", 1},
		{"all_gather", 1},
		{"aten::backward", 2},
		{"Optimizer.step#SGD.step", 2},
		{"cudaMemcpyAsync", 0},
	} {
		if got := chromePhase(c.name); got != c.want {
			t.Errorf("chromePhase(%q) = %d, want %d", c.name, got, c.want)
		}
	}
}

// The loss tag is chosen by TFEventsTrace's documented rank: a bare loss,
// then a train tag, then a tag naming neither validation nor test, then the
// rest. Of "test_loss" and "total_loss" the test loss is the held-out one:
// "total_loss" (rank 2) is taken over "test_loss" (rank 3) although it
// sorts after it.
func TestTFEventsLossTagSkipsTest(t *testing.T) {
	var sc []TFScalar
	for step := int64(0); step < 3; step++ {
		w := 100 + float64(step)
		sc = append(sc, TFScalar{WallTime: w, Step: step, Tag: "test_loss", Value: 5 + float64(step)},
			TFScalar{WallTime: w, Step: step, Tag: "total_loss", Value: 1 + float64(step)})
	}
	tr, warns := TFEventsTrace(sc, math.NaN(), ConvertOptions{Run: "r"})
	if len(tr.Evals) != 3 {
		t.Fatalf("%d eval rows, want 3: %v", len(tr.Evals), tr.Evals)
	}
	for i, e := range tr.Evals {
		if want := 1 + float64(i); e.Loss != want {
			t.Errorf("step %d: loss %g, want %g (total_loss's)", e.Updates, e.Loss, want)
		}
	}
	found := false
	for _, w := range warns {
		found = found || strings.Contains(w.Error(), `loss from tag "total_loss"; ignored test_loss`)
	}
	if !found {
		t.Errorf("warnings %v, want one naming total_loss taken and test_loss ignored", warns)
	}
}

// Shape broadcasting is a local op, not a pull: aten::broadcast_tensors
// gave an all-reduce job's trace 1 ms of pull a step (a convert-path
// review); a real broadcast still is one.
func TestChromeLocalBroadcastIsNoPhase(t *testing.T) {
	for name, want := range map[string]int{
		"aten::broadcast_tensors": 0, "aten::broadcast_to": 0, "torch.broadcast_shapes": 0,
		"ncclBroadcast": 1, "BROADCAST": 1, "ps.broadcast_params": 1,
	} {
		if got := chromePhase(name); got != want {
			t.Errorf("chromePhase(%q) = %d, want %d", name, got, want)
		}
	}
}

// Two workers' steps in one file (pids 1 and 2) beside a GPU stream (pid 0)
// whose all-reduce kernels match no step's pid: the push they hold is not
// counted, as documented, and now said (it was lost without a word); with
// one worker marking steps every pid counts and nothing is said.
func TestChromeUnmatchedStreamsSaid(t *testing.T) {
	two := `[{"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 100, "pid": 1, "tid": 1},
{"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 100, "pid": 2, "tid": 1},
{"name": "ncclAllReduce", "ph": "X", "ts": 50, "dur": 30, "pid": 0, "tid": 7},
{"name": "ncclAllReduce", "ph": "X", "ts": 60, "dur": 30, "pid": 0, "tid": 8}]`
	tr, warns, err := ReadChromeTrace(strings.NewReader(two), "t.json", ConvertOptions{Batch: 8, Mode: "allreduce"})
	if err != nil {
		t.Fatal(err)
	}
	all := joinErrs(warns)
	if !strings.Contains(all, "1 phase interval (after merging overlaps) on 1 process marking no step (pid 0: GPU streams?) not counted") {
		t.Errorf("warnings:\n%s", all)
	}
	for _, s := range tr.Steps {
		if !math.IsNaN(s.Push) {
			t.Errorf("step %+v: push %g, want none (the stream's pid marks no step)", s, s.Push)
		}
	}
	one := `[{"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 100, "pid": 1, "tid": 1},
{"name": "ncclAllReduce", "ph": "X", "ts": 50, "dur": 30, "pid": 0, "tid": 7}]`
	tr, warns, err = ReadChromeTrace(strings.NewReader(one), "t.json", ConvertOptions{Batch: 8, Mode: "allreduce"})
	if err != nil || strings.Contains(joinErrs(warns), "marking no step") || len(tr.Steps) != 1 || tr.Steps[0].Push != 30e-6 {
		t.Errorf("one worker: %v, steps %+v, warnings %s", err, tr.Steps, joinErrs(warns))
	}
}

// A Horovod timeline (NEGOTIATE_ALLREDUCE, ALLREDUCE; no step marker) is
// read as one step, and the warning says why and what to add.
func TestChromeHorovodTimelineHint(t *testing.T) {
	hvd := `[{"name": "NEGOTIATE_ALLREDUCE", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1},
{"name": "ALLREDUCE", "ph": "X", "ts": 10, "dur": 40, "pid": 1, "tid": 1}]`
	tr, warns, err := ReadChromeTrace(strings.NewReader(hvd), "t.json", ConvertOptions{Batch: 8, Mode: "allreduce"})
	if err != nil || len(tr.Steps) != 1 {
		t.Fatalf("%v, %d steps", err, len(tr.Steps))
	}
	if all := joinErrs(warns); !strings.Contains(all, "the whole trace is read as one step (a Horovod timeline marks none") {
		t.Errorf("warnings: %s", all)
	}
	plain := `[{"name": "forward", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1}]`
	_, warns, _ = ReadChromeTrace(strings.NewReader(plain), "t.json", ConvertOptions{Batch: 8, Mode: "allreduce"})
	if all := joinErrs(warns); !strings.Contains(all, "read as one step") || strings.Contains(all, "Horovod") {
		t.Errorf("no Horovod events: %s", all)
	}
}

// A step marker inside another of its process (record_function("train_step")
// within each ProfilerStep#N) is no step of its own: the outer markers are
// the steps, numbered as they say, and one warning counts the inner ones
// (the inner took the next number, collided with the next ProfilerStep and
// gave the rows their shorter intervals).
func TestChromeNestedStepMarkers(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for n := 1; n <= 3; n++ {
		ts := 100 * (n - 1)
		fmt.Fprintf(&b, `{"name": "ProfilerStep#%d", "ph": "X", "ts": %d, "dur": 100, "pid": 1, "tid": 1},`, n, ts)
		fmt.Fprintf(&b, `{"name": "train_step", "ph": "X", "ts": %d, "dur": 98, "pid": 1, "tid": 1},`, ts+1)
		fmt.Fprintf(&b, `{"name": "forward", "ph": "X", "ts": %d, "dur": 50, "pid": 1, "tid": 1}`, ts+2)
		if n < 3 {
			b.WriteString(",")
		}
	}
	b.WriteString("]")
	tr, warns, err := ReadChromeTrace(strings.NewReader(b.String()), "t.json", ConvertOptions{Batch: 8, Mode: "allreduce"})
	if err != nil {
		t.Fatal(err)
	}
	all := joinErrs(warns)
	if len(tr.Steps) != 3 || strings.Contains(all, "marked twice") || !strings.Contains(all, "3 step markers inside another step marker of its process") {
		t.Fatalf("%d steps, warnings:\n%s", len(tr.Steps), all)
	}
	for i, s := range tr.Steps {
		// ProfilerStep#i+1: 100 us from 100 i us, forward 50 us inside
		if s.Step != int64(i+1) || math.Abs(s.Start-1e-4*float64(i)) > 1e-12 || math.Abs(s.End-s.Start-1e-4) > 1e-12 || math.Abs(s.Compute-5e-5) > 1e-12 {
			t.Errorf("step %d: %+v, want ProfilerStep#%d's 100 us from %g s, compute 50 us", i, s, i+1, 1e-4*float64(i))
		}
	}
}
