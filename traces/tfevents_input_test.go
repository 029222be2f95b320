package traces

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTFEventsAccuracyOutOfRange: accuracy values that are neither a
// fraction nor a percent (200, -0.5) are dropped with a warning, not
// silently.
func TestTFEventsAccuracyOutOfRange(t *testing.T) {
	s := []TFScalar{
		{10, 1, "loss", 3}, {10, 1, "accuracy", 0.5},
		{11, 2, "loss", 2}, {11, 2, "accuracy", 200},
		{12, 3, "loss", 1}, {12, 3, "accuracy", -0.5},
	}
	tr, warns := TFEventsTrace(s, math.NaN(), ConvertOptions{Run: "r", Mode: "allreduce"})
	if len(tr.Evals) != 3 || tr.Evals[0].Accuracy != 0.5 || !math.IsNaN(tr.Evals[1].Accuracy) || !math.IsNaN(tr.Evals[2].Accuracy) {
		t.Errorf("evals %+v", tr.Evals)
	}
	want := `traces: r: accuracy tag "accuracy": 2 values outside [0, 1] and (1, 100] (percent) dropped, the first 200 at step 2`
	if !strings.Contains(errorsText(warns), want) {
		t.Errorf("warnings\n%s\nlack %q", errorsText(warns), want)
	}
}

// TestTFEventsNoFiniteWallTime: event files whose every wall time is NaN or
// Inf convert to nothing: an error, not a runs.csv alone; one NaN wall time
// among finite ones no longer hides them all.
func TestTFEventsNoFiniteWallTime(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, walls ...float64) string {
		var f []byte
		for i, w := range walls {
			f = AppendTFRecord(f, tfTestEvent(w, int64(i+1), "", tfTestValue{tag: "loss", simple: f32(1)}))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, f, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("a.tfevents.1", math.NaN(), math.Inf(1), math.NaN())
	_, _, err := Convert("tfevents", bad, ConvertOptions{})
	if err == nil || !strings.Contains(err.Error(), "nothing to convert: no loss, accuracy or throughput scalar with a finite value and wall time") {
		t.Errorf("all wall times NaN/Inf: %v", err)
	}
	mixed := write("b.tfevents.1", math.NaN(), 100, 101)
	res, _, err := Convert("tfevents", mixed, ConvertOptions{})
	if err != nil || len(res.Trace.Evals) != 2 || res.Trace.Evals[0].Time != 0 {
		t.Errorf("one NaN wall time: %v %+v", err, res.Trace)
	}
}

// TestTFEventsRatesThatDisagree: steps/s and samples/s logged as two tags
// average to rates that seldom agree to 1e-6 with the batch; the row kept
// both, and ReadThroughput then refused the file convert had written. Now
// the row keeps steps/s alone, with a warning, and reads back; rates that
// agree keep both.
func TestTFEventsRatesThatDisagree(t *testing.T) {
	var s []TFScalar
	for i := 1; i <= 5; i++ {
		w := 1000 + float64(10*i)
		s = append(s, TFScalar{w, int64(10 * i), "loss", 1 / float64(i)},
			TFScalar{w, int64(10 * i), "global_step/sec", 2 + 0.01*float64(i)},
			TFScalar{w, int64(10 * i), "examples/sec", 65 + 0.3*float64(i)})
	}
	opts := ConvertOptions{Run: "r", Workers: 1, PS: 1, Batch: 32, Mode: "async"}
	tr, warns := TFEventsTrace(s, 1000, opts)
	if len(tr.Throughput) != 1 || !math.IsNaN(tr.Throughput[0].SamplesPerS) || !(tr.Throughput[0].StepsPerS > 0) {
		t.Fatalf("throughput %+v, want steps/s alone", tr.Throughput)
	}
	if !strings.Contains(fmt.Sprint(warns), "written as steps/s alone") {
		t.Errorf("warnings %v, want one on the rates", warns)
	}
	var buf bytes.Buffer
	if err := WriteThroughput(&buf, tr.Throughput); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadThroughput(&buf, "throughput.csv", func(Throughput) error { return nil }); err != nil {
		t.Errorf("the converted row does not read back: %v", err)
	}
	// samples/s exactly 32 x steps/s: both kept
	for i := range s {
		if s[i].Tag == "examples/sec" {
			s[i].Value = 32 * (2 + 0.01*float64(i/3+1))
		}
	}
	tr, _ = TFEventsTrace(s, 1000, opts)
	if th := tr.Throughput[0]; math.IsNaN(th.SamplesPerS) {
		t.Errorf("agreeing rates: %+v, want samples/s kept", th)
	}
}

// TestTFEventsWhatEvalsReadBack: a wall time more than 1e12 s after the
// first was written to evals.csv's time (1e+30), which ReadEvals refuses; a
// negative step was written as an empty updates, and two at one wall time
// were one evaluation given twice. Both are skipped with a warning, and the
// rows written read back.
func TestTFEventsWhatEvalsReadBack(t *testing.T) {
	s := []TFScalar{{1000, 1, "loss", 2}, {1e30, 2, "loss", 1.5}, {1001, -3, "loss", 1}, {1001, -2, "loss", 1},
		{1001, -2, "accuracy", 0.5}, {1000 + 1e12, 3, "loss", 1.25}}
	tr, warns := TFEventsTrace(s, 1000, ConvertOptions{Run: "r"})
	for _, want := range []string{
		"traces: r: 1 values with a non-finite value or wall time, or a wall time more than 1e+12 s from the first (before or after), skipped",
		"traces: r: 3 loss or accuracy values at a negative step skipped",
	} {
		if !strings.Contains(errorsText(warns), want) {
			t.Errorf("warnings\n%s\nlack %q", errorsText(warns), want)
		}
	}
	if len(tr.Evals) != 2 || tr.Evals[0].Updates != 1 || tr.Evals[1].Updates != 3 || tr.Evals[1].Time != 1e12 {
		t.Errorf("evals %+v, want steps 1 and 3 (at 1e12 s)", tr.Evals)
	}
	var b bytes.Buffer
	if err := WriteEvals(&b, tr.Evals); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEvals(&b, "evals.csv", func(Eval) error { return nil }); err != nil {
		t.Errorf("evals do not read back: %v", err)
	}
}
