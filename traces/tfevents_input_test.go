package traces

import (
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
