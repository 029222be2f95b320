package traces

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
	want := `traces: run "r": accuracy tag "accuracy" reads as fractions (its largest value up to 100, 0.5, is not above 1.5): 2 values outside [0, 1] dropped, the first 200 at step 2`
	if !strings.Contains(errorsText(warns), want) {
		t.Errorf("warnings\n%s\nlack %q", errorsText(warns), want)
	}
}

// TestTFEventsAccuracyRule: the warning on dropped accuracy values states
// the rule applied to the tag. Fractions that drift past 1 (largest 1.09)
// were said to be dropped as "outside [0, 1] and (1, 100] (percent)", the
// first 1.0099999904632568, which is inside (1, 100].
func TestTFEventsAccuracyRule(t *testing.T) {
	f := func(v float32) float64 { return float64(v) } // as logged: a float32
	cases := []struct {
		name string
		acc  []float64 // at steps 1, 2, 3
		want string
	}{
		{"fractions past 1", []float64{f(0.5), f(1.01), f(1.09)},
			`traces: run "r": accuracy tag "acc" reads as fractions (its largest value, 1.09, is not above 1.5): 2 values outside [0, 1] dropped, the first 1.01 at step 2`},
		{"percent", []float64{f(40.5), 250, -3},
			`traces: run "r": accuracy tag "acc" reads as percent (its largest value up to 100, 40.5, is above 1.5): all its values divided by 100; 2 values outside [0, 100] dropped, the first 250 at step 2`},
		{"percent, none dropped", []float64{f(40.5), 60, 70},
			`traces: run "r": accuracy tag "acc" reads as percent (its largest value, 70, is above 1.5): all its values divided by 100`},
		{"nothing up to 100", []float64{200, 300, 0.25},
			`traces: run "r": accuracy tag "acc" reads as fractions (its largest value up to 100, 0.25, is not above 1.5): 2 values outside [0, 1] dropped, the first 200 at step 1`},
		{"all above 100", []float64{200, 300, 400},
			`traces: run "r": accuracy tag "acc" reads as fractions (no value of it is in (1.5, 100]): 3 values outside [0, 1] dropped, the first 200 at step 1`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s []TFScalar
			for i, a := range c.acc {
				w, step := 10+float64(i), int64(i+1)
				s = append(s, TFScalar{w, step, "loss", 1}, TFScalar{w, step, "acc", a})
			}
			_, warns := TFEventsTrace(s, math.NaN(), ConvertOptions{Run: "r"})
			var got []string
			for _, w := range warns {
				if strings.Contains(w.Error(), "accuracy tag") {
					got = append(got, w.Error())
				}
			}
			if len(got) != 1 || got[0] != c.want {
				t.Errorf("accuracy warnings %q\nwant %q", got, c.want)
			}
		})
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
		`traces: run "r": 1 values with a non-finite value or wall time, or a wall time more than 1e+12 s from the first (before or after), skipped`,
		`traces: run "r": 3 loss or accuracy values at a negative step skipped`,
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

// TestTFEventsRestart: a run restarted from its checkpoint at step 20 logs
// steps 30 and 40 again in a second event file. Each row took the first
// event's time and the last event's value, a row no event had, and the
// values in between were dropped without a word. Now each step keeps the
// event logged last, time and value, with one warning per tag.
func TestTFEventsRestart(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, events ...[]byte) {
		var f []byte
		for _, e := range events {
			f = AppendTFRecord(f, e)
		}
		if err := os.WriteFile(filepath.Join(dir, name), f, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loss := func(v float32) tfTestValue { return tfTestValue{tag: "loss", simple: f32(v)} }
	acc := func(v float32) tfTestValue { return tfTestValue{tag: "accuracy", simple: f32(v)} }
	write("events.out.tfevents.1000.host",
		tfTestEvent(1000, 0, "brain.Event:2"),
		tfTestEvent(1010, 10, "", loss(4)), tfTestEvent(1020, 20, "", loss(3)),
		tfTestEvent(1030, 30, "", loss(2), acc(0.5)), tfTestEvent(1040, 40, "", loss(1)))
	write("events.out.tfevents.1100.host", // the restart
		tfTestEvent(1100, 0, "brain.Event:2"),
		tfTestEvent(1110, 30, "", loss(1.5), acc(0.75)), tfTestEvent(1120, 40, "", loss(1.25)),
		tfTestEvent(1130, 50, "", loss(1)))
	res, warns, err := Convert("tfevents", dir, ConvertOptions{Run: "r"})
	if err != nil {
		t.Fatal(err)
	}
	// time = wall - 1000: steps 10, 20 from the first file; 30, 40 (and
	// 50) the restart's, at 110 and 120 s, not the first file's 30 and 40 s
	want := []Eval{
		{Run: "r", Time: 10, Updates: 10, Loss: 4, Accuracy: math.NaN()},
		{Run: "r", Time: 20, Updates: 20, Loss: 3, Accuracy: math.NaN()},
		{Run: "r", Time: 110, Updates: 30, Loss: 1.5, Accuracy: 0.75},
		{Run: "r", Time: 120, Updates: 40, Loss: 1.25, Accuracy: math.NaN()},
		{Run: "r", Time: 130, Updates: 50, Loss: 1, Accuracy: math.NaN()},
	}
	if got := res.Trace.Evals; !sameEvals(got, want) {
		t.Errorf("evals\n%+v\nwant\n%+v", got, want)
	}
	for _, w := range []string{
		// (the folder converted, not the run, as the warnings of Convert say)
		"traces: " + dir + `: loss tag "loss": 2 steps logged more than once, the first step 30: kept at each the value logged last (the latest wall time; after a restart from a checkpoint, the restart's, as TensorBoard shows), with its time; 2 earlier values dropped`,
		"traces: " + dir + `: accuracy tag "accuracy": 1 steps logged more than once, the first step 30: kept at each the value logged last`,
	} {
		if !strings.Contains(errorsText(warns), w) {
			t.Errorf("warnings\n%s\nlack %q", errorsText(warns), w)
		}
	}
	var b bytes.Buffer
	if err := WriteEvals(&b, res.Trace.Evals); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEvals(&b, "evals.csv", func(Eval) error { return nil }); err != nil {
		t.Errorf("evals do not read back: %v", err)
	}
}

// TestTFEventsStepTwice: one file logging a step more than once keeps, at
// each step, the value of the latest wall time, of equal ones the later in
// the file, with that value's time.
func TestTFEventsStepTwice(t *testing.T) {
	s := []TFScalar{
		{1000, 0, "loss", 2}, {1001, 0, "loss", 1.9}, // the later: 1.9 at 1 s
		{1002, 10, "loss", 1.8}, {1002, 10, "loss", 1.7}, {1002, 10, "loss", 1.6}, // one wall time: the last, 1.6 at 2 s
		{1004, 20, "loss", 1.5}, {1003, 20, "loss", 1.4}, // clock order, not file order: 1.5 at 4 s
		{1005, 30, "loss", 1.3},
	}
	tr, warns := TFEventsTrace(s, 1000, ConvertOptions{Run: "r"})
	want := []Eval{
		{Run: "r", Time: 1, Updates: 0, Loss: 1.9, Accuracy: math.NaN()},
		{Run: "r", Time: 2, Updates: 10, Loss: 1.6, Accuracy: math.NaN()},
		{Run: "r", Time: 4, Updates: 20, Loss: 1.5, Accuracy: math.NaN()},
		{Run: "r", Time: 5, Updates: 30, Loss: 1.3, Accuracy: math.NaN()},
	}
	if !sameEvals(tr.Evals, want) {
		t.Errorf("evals\n%+v\nwant\n%+v", tr.Evals, want)
	}
	// steps 0, 10 and 20 repeated; 1 + 2 + 1 values dropped
	w := `traces: run "r": loss tag "loss": 3 steps logged more than once, the first step 0: kept at each the value logged last`
	if !strings.Contains(errorsText(warns), w) || !strings.Contains(errorsText(warns), "; 4 earlier values dropped") {
		t.Errorf("warnings\n%s\nlack %q or 4 dropped", errorsText(warns), w)
	}
}

// sameEvals compares evals exactly, NaN equal to NaN.
func sameEvals(a, b []Eval) bool {
	same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Run != y.Run || x.Updates != y.Updates || !same(x.Time, y.Time) || !same(x.Loss, y.Loss) || !same(x.Accuracy, y.Accuracy) {
			return false
		}
	}
	return true
}

// TestTFEventsSubfolders: a Keras log folder keeps its event files in
// train/ and validation/, one run each; converting the folder said it held
// no event file. The error now names the subfolders, one or two levels
// down, without reading them; deeper ones are not looked for.
func TestTFEventsSubfolders(t *testing.T) {
	event := AppendTFRecord(nil, tfTestEvent(1000, 1, "", tfTestValue{tag: "loss", simple: f32(1)}))
	cases := []struct {
		name  string
		files []string // event files under the folder converted
		want  string   // the error after "traces: DIR: "; DIR stands for the folder
	}{
		{"keras", []string{"train/events.out.tfevents.1.host", "validation/events.out.tfevents.2.host", "notes/readme.txt"},
			`no file whose name contains "tfevents", but its subfolders DIR/train and DIR/validation hold event files: give one of them (one run per conversion)`},
		{"two levels", []string{"run1/train/events.out.tfevents.1.host"},
			`no file whose name contains "tfevents", but its subfolder DIR/run1/train holds event files: give it`},
		{"many", []string{"a/x.tfevents", "b/x.tfevents", "c/x.tfevents", "d/x.tfevents", "e/x.tfevents", "f/x.tfevents", "g/h/x.tfevents"},
			`no file whose name contains "tfevents", but its subfolders DIR/a, DIR/b, DIR/c, DIR/d, DIR/e and 2 more hold event files: give one of them (one run per conversion)`},
		{"three levels", []string{"a/b/c/events.out.tfevents.1.host"},
			`no file whose name contains "tfevents"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, event, c.files...)
			_, _, err := Convert("tfevents", dir, ConvertOptions{Batch: 1})
			want := "traces: " + dir + ": " + strings.ReplaceAll(c.want, "DIR/", dir+string(filepath.Separator))
			if err == nil || err.Error() != want {
				t.Errorf("error %v\nwant  %s", err, want)
			}
		})
	}
}

// A TF Estimator model_dir holds the training events and, in eval/, the
// evaluation's: converting the folder reads its own files and warns that
// the subfolder's were not read (they were left out without a word).
func TestTFEventsSubfolderNotRead(t *testing.T) {
	event := AppendTFRecord(nil, tfTestEvent(1000, 1, "", tfTestValue{tag: "loss", simple: f32(1)}))
	dir := t.TempDir()
	writeFiles(t, dir, event, "events.out.tfevents.1.host", "eval/events.out.tfevents.2.host")
	c, warns, err := Convert("tfevents", dir, ConvertOptions{Batch: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Trace.Evals) != 1 {
		t.Errorf("%d eval rows, want the folder's own 1", len(c.Trace.Evals))
	}
	want := "traces: " + dir + ": its subfolder " + filepath.Join(dir, "eval") + " holds event files too, not read (one run per conversion: convert it on its own)"
	found := false
	for _, w := range warns {
		found = found || w.Error() == want
	}
	if !found {
		t.Errorf("warnings %v\nwant %s", warns, want)
	}
}

// writeFiles writes body to each of files (slash-separated paths below
// dir), making their folders.
func writeFiles(t *testing.T, dir string, body []byte, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeEventFile writes the events, each framed as a TFRecord, to
// dir/name.
func writeEventFile(t *testing.T, dir, name string, events ...[]byte) {
	t.Helper()
	var f []byte
	for _, e := range events {
		f = AppendTFRecord(f, e)
	}
	if err := os.WriteFile(filepath.Join(dir, name), f, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTFEventsSessionStart: a run logs steps 0..9, crashes, and restarts
// from its checkpoint at step 5, writing a SessionLog START at step 5 in a
// new event file, then steps 5..7. Steps 8 and 9 of the first run were
// kept beside the restart's 5..7 (the reader did not parse SessionLog);
// TensorBoard drops them at the START, of every tag, and so does the
// reader now, with one warning naming the START.
func TestTFEventsSessionStart(t *testing.T) {
	loss := func(v float32) tfTestValue { return tfTestValue{tag: "loss", simple: f32(v)} }
	acc := func(v float32) tfTestValue { return tfTestValue{tag: "accuracy", simple: f32(v)} }
	version := tfTestEvent(1000, 0, "brain.Event:2")
	first := [][]byte{version, tfTestSession(1000, 0, 1)} // TensorFlow's START at session start
	for step := range int64(10) {
		first = append(first, tfTestEvent(1000+float64(step), step, "", loss(10-float32(step)), acc(float32(step)/10)))
	}
	second := [][]byte{version, tfTestSession(1100, 5, 1)}
	for step := int64(5); step <= 7; step++ {
		second = append(second, tfTestEvent(1100+float64(step), step, "", loss(100+float32(step))))
	}
	want := func(file string, record, offset int) string {
		return fmt.Sprintf("traces: %s: record %d at byte %d: SessionLog START at step 5 (a restart): dropped the 10 values, of any tag, read before it at step 5 or later (steps 5 to 9), as TensorBoard does", file, record, offset)
	}
	// the START is the record given, at the byte offset given, of file
	check := func(t *testing.T, evals []Eval, warns []error, file string, record, offset int) {
		t.Helper()
		var rows []Eval
		for step := range int64(8) {
			e := Eval{Run: "r", Time: float64(step), Updates: step, Loss: float64(10 - step), Accuracy: float64(float32(step) / 10)}
			if step >= 5 { // the restart's: its loss and time, no accuracy
				e = Eval{Run: "r", Time: float64(100 + step), Updates: step, Loss: float64(100 + step), Accuracy: math.NaN()}
			}
			rows = append(rows, e)
		}
		if !sameEvals(evals, rows) {
			t.Errorf("evals\n%+v\nwant\n%+v", evals, rows)
		}
		n := 0
		for _, w := range warns {
			if strings.Contains(w.Error(), "SessionLog") {
				n++
				if w.Error() != want(file, record, offset) {
					t.Errorf("warning\n%v\nwant\n%s", w, want(file, record, offset))
				}
			}
			// what remains has no step twice: no duplicate-step warning
			if strings.Contains(w.Error(), "logged more than once") {
				t.Errorf("warning %v", w)
			}
		}
		if n != 1 {
			t.Errorf("%d SessionLog warnings in %v, want 1", n, warns)
		}
	}

	t.Run("two files", func(t *testing.T) {
		dir := t.TempDir()
		writeEventFile(t, dir, "events.out.tfevents.1000.host", first...)
		writeEventFile(t, dir, "events.out.tfevents.1100.host", second...)
		res, warns, err := Convert("tfevents", dir, ConvertOptions{Run: "r"})
		if err != nil {
			t.Fatal(err)
		}
		check(t, res.Trace.Evals, warns, filepath.Join(dir, "events.out.tfevents.1100.host"), 2, len(AppendTFRecord(nil, version)))
	})
	t.Run("one file", func(t *testing.T) {
		// the restart appended to the same file: ReadTFEvents drops them
		var f []byte
		for _, e := range first {
			f = AppendTFRecord(f, e)
		}
		offset := len(f)
		for _, e := range second[1:] {
			f = AppendTFRecord(f, e)
		}
		s, fw, warns, err := ReadTFEvents(bytes.NewReader(f), "run.tfevents")
		if err != nil {
			t.Fatal(err)
		}
		tr, w := TFEventsTrace(s, fw, ConvertOptions{Run: "r"})
		check(t, tr.Evals, append(warns, w...), "run.tfevents", len(first)+1, offset)
	})
}

// TestTFEventsSessionNoPurge: TensorFlow's START at step 0 at the start of
// the first file drops nothing and warns of nothing; a SessionLog of
// another status (STOP, CHECKPOINT, unspecified) changes nothing, the
// steps logged again are the duplicate-step rule's (the latest wall time).
func TestTFEventsSessionNoPurge(t *testing.T) {
	loss := func(v float32) tfTestValue { return tfTestValue{tag: "loss", simple: f32(v)} }
	for _, status := range []int{1, 0, 2, 3} {
		t.Run(fmt.Sprint("status ", status), func(t *testing.T) {
			dir := t.TempDir()
			events := [][]byte{tfTestEvent(1000, 0, "brain.Event:2"), tfTestSession(1000, 0, 1)}
			for step := range int64(10) {
				events = append(events, tfTestEvent(1000+float64(step), step, "", loss(float32(step))))
			}
			if status != 1 {
				events = append(events, tfTestSession(1100, 5, status))
				for step := int64(5); step <= 7; step++ {
					events = append(events, tfTestEvent(1100+float64(step), step, "", loss(100+float32(step))))
				}
			}
			writeEventFile(t, dir, "events.out.tfevents.1000.host", events...)
			res, warns, err := Convert("tfevents", dir, ConvertOptions{Run: "r"})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(errorsText(warns), "SessionLog") {
				t.Errorf("warnings %s", errorsText(warns))
			}
			var rows []Eval
			for step := range int64(10) {
				e := Eval{Run: "r", Time: float64(step), Updates: step, Loss: float64(step), Accuracy: math.NaN()}
				if status != 1 && step >= 5 && step <= 7 {
					e.Time, e.Loss = float64(100+step), float64(100+step)
				}
				rows = append(rows, e)
			}
			if !sameEvals(res.Trace.Evals, rows) {
				t.Errorf("evals\n%+v\nwant\n%+v", res.Trace.Evals, rows)
			}
		})
	}
}

// TestTFPurgeAsTensorBoard: tfPurge keeps what TensorBoard's sequential
// rule keeps (at each START, of the values kept so far, those at its step
// or later go), for random values and STARTs, several of them; the warning
// counts all that went.
func TestTFPurgeAsTensorBoard(t *testing.T) {
	// two restarts: at step 5, dropping 5..9, then at step 6, dropping the
	// first restart's 6 and 7
	var s []TFScalar
	for step := range int64(10) {
		s = append(s, TFScalar{Step: step, Tag: "loss"})
	}
	for step := int64(5); step <= 7; step++ {
		s = append(s, TFScalar{Step: step, Tag: "loss"})
	}
	starts := []tfStart{{File: "a", Record: 12, Offset: 500, Step: 5, Scalars: 10}, {File: "b", Record: 2, Offset: 40, Step: 6, Scalars: 13}}
	kept, w := tfPurge(s, starts)
	if len(kept) != 6 || kept[5].Step != 5 {
		t.Errorf("kept %v, want steps 0..5", kept)
	}
	if want := "traces: a: record 12 at byte 500: SessionLog START at step 5 (a restart): dropped the 5 values, of any tag, read before it at step 5 or later (steps 5 to 9), as TensorBoard does; 1 later STARTs dropped 2 more, the last at step 6 (b, record 2)"; w == nil || w.Error() != want {
		t.Errorf("warning\n%v\nwant\n%s", w, want)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		var s []TFScalar
		var starts []tfStart
		for i := range rng.IntN(30) {
			if rng.IntN(4) == 0 {
				starts = append(starts, tfStart{File: "f", Record: i + 1, Step: rng.Int64N(12) - 1, Scalars: len(s)})
				continue
			}
			s = append(s, TFScalar{WallTime: float64(i), Step: rng.Int64N(12) - 1, Tag: "loss", Value: float64(i)})
		}
		// TensorBoard's order: the values, each START purging those before it
		var want []TFScalar
		k := 0
		for i := 0; i <= len(s); i++ {
			for ; k < len(starts) && starts[k].Scalars == i; k++ {
				want = slices.DeleteFunc(want, func(x TFScalar) bool { return x.Step >= starts[k].Step })
			}
			if i < len(s) {
				want = append(want, s[i])
			}
		}
		got, w := tfPurge(s, starts)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: values %v starts %v: kept %v, want %v", trial, s, starts, got, want)
		}
		dropped := len(s) - len(want)
		if (w != nil) != (dropped > 0) {
			t.Fatalf("trial %d: %d dropped, warning %v", trial, dropped, w)
		}
		if w == nil {
			continue
		}
		var first, more int
		var pe *ParseError
		if !errors.As(w, &pe) || pe.Record < 1 {
			t.Fatalf("trial %d: warning not positioned: %#v", trial, w)
		}
		if _, err := fmt.Sscanf(w.Error()[strings.Index(w.Error(), "dropped the "):], "dropped the %d values", &first); err != nil {
			t.Fatal(err)
		}
		if i := strings.Index(w.Error(), " later STARTs dropped "); i >= 0 {
			fmt.Sscanf(w.Error()[i:], " later STARTs dropped %d more", &more)
		}
		if first+more != dropped {
			t.Fatalf("trial %d: warning counts %d + %d, %d dropped: %v", trial, first, more, dropped, w)
		}
	}
}
