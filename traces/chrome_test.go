package traces

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// chromeWant is one expected step; NaN phases must be absent.
type chromeWant struct {
	worker                          int
	step                            int64
	start, end, pull, compute, push float64 // s
}

func chromeCheck(t *testing.T, tr *Trace, workers int, want []chromeWant) {
	t.Helper()
	if len(tr.Steps) != len(want) {
		t.Fatalf("%d steps, want %d: %+v", len(tr.Steps), len(want), tr.Steps)
	}
	same := func(got, want float64) bool {
		if math.IsNaN(want) {
			return math.IsNaN(got)
		}
		return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
	}
	for i, w := range want {
		s := tr.Steps[i]
		if s.Worker != w.worker || s.Step != w.step || s.Workers != workers || !same(s.Start, w.start) || !same(s.End, w.end) ||
			!same(s.Pull, w.pull) || !same(s.Compute, w.compute) || !same(s.Push, w.push) || s.Staleness != -1 {
			t.Errorf("step %d = %+v, want %+v with %d workers", i, s, w, workers)
		}
	}
}

func chromeFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "chrome", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var nan = math.NaN()

func TestReadChromeTraceSamples(t *testing.T) {
	// pytorch_profiler.json: t0 = 1000 us. ProfilerStep#5 [1000, 2000] us:
	// compute = forward 300 + backward 400 + optimizer 50 = 750 us (aten::conv2d
	// is inside forward and has no phase); push = the NCCL kernel on the GPU
	// pid, 1600..1900 = 300 us. ProfilerStep#6 [2000, 2500]: compute 200 us,
	// push = kernel 2400..2600 clipped to 2500 = 100 us. Worker = rank 1 of 2.
	pytorch := []chromeWant{
		{1, 5, 0, 0.001, nan, 750e-6, 300e-6},
		{1, 6, 0.001, 0.0015, nan, 200e-6, 100e-6},
	}
	// ps_begin_end.json: two pids, so phases match their own pid. pid 1 =
	// worker 0, step 0 [0, 650] us: pull 0..100, forward 100..400, push
	// 400..600. pid 2 = worker 1, step 0 [50, 850]: NEGOTIATE_ALLREDUCE
	// 500..700 = 200 us push; pull and compute absent.
	ps := []chromeWant{
		{0, 0, 0, 650e-6, 100e-6, 300e-6, 200e-6},
		{1, 0, 50e-6, 850e-6, nan, nan, 200e-6},
	}
	// tf_timeline.json: no step marker, so one step [100, 120] us of worker
	// 0: pull = RecvTensor 10 us; MatMul and GetNext have no phase.
	tf := []chromeWant{{0, 0, 0, 20e-6, 10e-6, nan, nan}}
	cases := []struct {
		file    string
		workers int
		want    []chromeWant
		warn    string
	}{
		{"pytorch_profiler.json", 2, pytorch, "batch size unknown"},
		{"pytorch_profiler.json.gz", 2, pytorch, "batch size unknown"},
		{"ps_begin_end.json", 2, ps, "batch size unknown"},
		{"tf_timeline.json", 1, tf, "no step markers"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			tr, warns, err := ReadChromeTrace(bytes.NewReader(chromeFile(t, c.file)), c.file, ConvertOptions{})
			if err != nil {
				t.Fatal(err)
			}
			chromeCheck(t, tr, c.workers, c.want)
			msg := ""
			for _, w := range warns {
				msg += w.Error()
			}
			if !strings.Contains(msg, c.warn) {
				t.Errorf("warnings %q lack %q", msg, c.warn)
			}
			if tr.Steps[0].Run != strings.SplitN(c.file, ".", 2)[0] || tr.Steps[0].Batch != 1 {
				t.Errorf("run %q batch %d, want the file's base name and batch 1", tr.Steps[0].Run, tr.Steps[0].Batch)
			}
		})
	}
}

func TestReadChromeTraceOptions(t *testing.T) {
	tr, warns, err := ReadChromeTrace(bytes.NewReader(chromeFile(t, "ps_begin_end.json")), "x.json",
		ConvertOptions{Run: "r", Workers: 8, PS: 2, Batch: 64, Mode: "async"})
	// the file holds 2 of the 8 workers: the one warning says so
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].Error(), "the steps of 2 of the 8 workers") {
		t.Fatalf("err %v warnings %v", err, warns)
	}
	s := tr.Steps[0]
	if s.Run != "r" || s.Workers != 8 || s.PS != 2 || s.Batch != 64 || tr.Runs[0].Mode != "async" {
		t.Errorf("step %+v run %+v: options not applied", s, tr.Runs[0])
	}
}

// TestReadChromeTraceRoundTrip writes the converted steps with WriteSteps
// and reads them back with ReadSteps: the canonical reader accepts them.
func TestReadChromeTraceRoundTrip(t *testing.T) {
	tr, _, err := ReadChromeTrace(bytes.NewReader(chromeFile(t, "pytorch_profiler.json")), "p.json", ConvertOptions{Batch: 32})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteSteps(&buf, tr.Steps); err != nil {
		t.Fatal(err)
	}
	var back []Step
	if _, err := ReadSteps(&buf, "steps.csv", func(s Step) error { back = append(back, s); return nil }); err != nil {
		t.Fatalf("canonical reader rejects converted steps: %v\n%s", err, buf.String())
	}
	if len(back) != 2 || back[1].Push != tr.Steps[1].Push || back[0].Compute != tr.Steps[0].Compute {
		t.Errorf("read back %+v, wrote %+v", back, tr.Steps)
	}
}

func TestReadChromeTraceMalformed(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	good := string(chromeFile(t, "ps_begin_end.json"))
	cases := []struct {
		name string
		data []byte
		want string // error substring; "" = no error
		warn string
	}{
		{"empty", nil, "t.json: empty file", ""},
		{"not an array", []byte("42"), "t.json:1:1: expected a JSON array", ""},
		// line 3 is {"name": "b" "ph": "X"}: the second key starts at byte 14.
		{"bad JSON", []byte("[\n{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"dur\": 2},\n{\"name\": \"b\" \"ph\": \"X\"}\n]"), "t.json:3:14: invalid JSON: invalid character '\"' after object key", ""},
		{"truncated event", []byte("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"d"), "t.json:1:38: invalid JSON: the file ends in the middle of a value", ""},
		{"ts is text", []byte("[\n  {\"name\": \"a\", \"ph\": \"X\", \"ts\": \"1\", \"dur\": 2}]"), "t.json:2:3: invalid trace event: field \"ts\"", ""},
		{"missing ts", []byte("[\n  {\"name\": \"a\", \"ph\": \"X\", \"dur\": 2}]"), "t.json:2:3: event \"a\" (ph X): missing ts", ""},
		{"missing dur", []byte("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 2}]"), "t.json:1:2: complete event \"a\": missing dur", ""},
		{"negative dur", []byte("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 2, \"dur\": -1}]"), "t.json:1:2: complete event \"a\": negative dur -1 (expected a duration >= 0 microseconds)", ""},
		{"dur overflows", []byte("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1e308, \"dur\": 1e308}]"), "t.json:1:2: complete event \"a\": ts 1e+308 + dur 1e+308 out of range (expected an end ts + dur below 1.8e308 microseconds)", ""},
		{"span overflows", []byte(`[{"name": "a", "ph": "X", "ts": -1e308, "dur": 1}, {"name": "b", "ph": "X", "ts": 1e308, "dur": 1}]`), "t.json:1:52: event ends at 1e+308 us, and the event at line 1, column 2 starts at -1e+308 us: the span overflows", ""},
		// of a B/E pair, at the E, which gives the end (it was at the B)
		{"span overflows at an end event", []byte("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": -1e308, \"dur\": 1},\n{\"name\": \"b\", \"ph\": \"B\", \"ts\": 0, \"pid\": 1, \"tid\": 1},\n{\"ph\": \"E\", \"ts\": 1e308, \"pid\": 1, \"tid\": 1}]"),
			"t.json:3:1: event ends at 1e+308 us, and the event at line 1, column 2 starts at -1e+308 us: the span overflows", ""},
		// times past steps.csv's ±1e12 s were written, and the file then
		// refused by its own reader: refused at the event at fault (of a
		// B/E pair, the B for a start, the E for an end), naming the
		// earliest event, where times start
		{"step beyond 1e12 s", []byte("[{\"name\": \"step 1\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5},\n {\"name\": \"step 2\", \"ph\": \"X\", \"ts\": 1e30, \"dur\": 5}]"),
			"t.json:2:2: event \"step 2\" starts 1e+24 s after the earliest event (line 1, column 2): beyond 1e+12 s, steps.csv's limit (expected ts and dur in microseconds, on one clock)", ""},
		{"earliest event far back", []byte("[{\"name\": \"x\", \"ph\": \"X\", \"ts\": -1e30, \"dur\": 1},\n{\"name\": \"step 1\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5}]"),
			"t.json:2:1: event \"step 1\" starts 1e+24 s after the earliest event (line 1, column 2)", ""},
		{"end past 1e12 s", []byte("[{\"name\": \"step 1\", \"ph\": \"B\", \"ts\": 0, \"pid\": 1, \"tid\": 1},\n{\"ph\": \"E\", \"ts\": 1.5e18, \"pid\": 1, \"tid\": 1}]"),
			"t.json:2:1: end event of \"step 1\" (begun at line 1, column 2) comes 1.5e+12 s after the earliest event (line 1, column 2): beyond 1e+12 s", ""},
		{"begin past 1e12 s", []byte("[{\"name\": \"step 1\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5},\n{\"name\": \"step 2\", \"ph\": \"B\", \"ts\": 1e30, \"pid\": 1, \"tid\": 1},\n{\"ph\": \"E\", \"ts\": 2e30, \"pid\": 1, \"tid\": 1}]"),
			"t.json:2:1: event \"step 2\" starts 1e+24 s after the earliest event (line 1, column 2)", ""},
		{"no step marker, past 1e12 s", []byte("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 0, \"dur\": 1},\n{\"name\": \"b\", \"ph\": \"X\", \"ts\": 0, \"dur\": 1e20}]"),
			"t.json:2:1: event \"b\" ends 1e+14 s after the earliest event (line 1, column 2)", ""},
		{"no step marker, end event past 1e12 s", []byte("[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 0, \"dur\": 1},\n{\"name\": \"b\", \"ph\": \"B\", \"ts\": 0, \"pid\": 1, \"tid\": 1},\n{\"ph\": \"E\", \"ts\": 1e20, \"pid\": 1, \"tid\": 1}]"),
			"t.json:3:1: end event of \"b\" (begun at line 2, column 1) comes 1e+14 s after the earliest event (line 1, column 2)", ""},
		{"1e12 s exactly", []byte(`[{"name": "step 1", "ph": "X", "ts": 0, "dur": 1e18}]`), "", "batch size unknown"},
		{"end before begin", []byte("[{\"name\": \"a\", \"ph\": \"B\", \"ts\": 5, \"pid\": 1, \"tid\": 1},\n{\"ph\": \"E\", \"ts\": 4, \"pid\": 1, \"tid\": 1}]"), "t.json:2:1: end event at ts 4 is before its begin \"a\" at ts 5 (line 1, column 2)", ""},
		{"no traceEvents", []byte(`{"foo": [1, 2]}`), "t.json:1:1: object has no traceEvents array", ""},
		{"traceEvents not array", []byte(`{"traceEvents": 3}`), "t.json:1:17: traceEvents: expected an array", ""},
		{"no events", []byte(`[]`), "t.json: no complete (X) or begin/end (B/E) events", ""},
		{"truncated gzip", gz(good)[:60], "t.json: truncated gzip stream", ""},
		{"bad gzip header", []byte{0x1f, 0x8b, 0, 0}, "t.json: bad gzip header: unexpected EOF (expected a gzip file, by its first two bytes 1f 8b, or plain text)", ""},
		{"gzip ok", gz(good), "", "batch size unknown"},
		{"no closing bracket", []byte(strings.TrimSuffix(strings.TrimSpace(good), "]")), "", "no closing ]"},
		// cut off after an event's comma, as a trace written while profiling is
		{"cut after a comma", []byte(strings.TrimSuffix(strings.TrimSpace(good), "]") + ",\n"), "", "ends in a comma with no closing ]"},
		{"traceEvents twice", []byte(`{"traceEvents": [{"name": "step 1", "ph": "X", "ts": 0, "dur": 5}],` + "\n" + ` "traceEvents": [{"name": "step 2", "ph": "X", "ts": 5, "dur": 5}]}`), "t.json:2:2: traceEvents given twice in the object", ""},
		{"distributedInfo twice", []byte(`{"distributedInfo": {"rank": 0, "world_size": 2},` + "\n" + ` "traceEvents": [{"name": "step 1", "ph": "X", "ts": 0, "dur": 5}],` + "\n" + ` "distributedInfo": {"world_size": 4}}`), "t.json:3:2: distributedInfo given twice in the object, first at line 1, column 2", ""},
		// a complete array and a comma: the error alone, no warning that
		// it was read
		{"array and a comma", []byte(strings.TrimSpace(good) + ","), "t.json", ""},
		{"object cut after a comma", []byte(`{"traceEvents": [{"name": "step 1", "ph": "X", "ts": 0, "dur": 5},`), "the file ends in the middle of a value", ""},
		{"end without begin", []byte("[{\"name\": \"step 1\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5},\n {\"ph\": \"E\", \"ts\": 4, \"pid\": 1, \"tid\": 1}]"), "", "t.json:2:2: end event \"\" on pid 1 tid 1 has no begin"},
		{"begin without end", []byte("[{\"name\": \"step 1\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5},\n{\"name\": \"x\", \"ph\": \"B\", \"ts\": 4, \"pid\": 1, \"tid\": 1}]"), "", "t.json:2:1: begin event \"x\" has no end"},
		{"duplicate step", []byte(`[{"name": "step 1", "ph": "X", "ts": 0, "dur": 5}, {"name": "step 1", "ph": "X", "ts": 5, "dur": 5}]`), "", "1 step marked twice (the first, worker 0 step 1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, warns, err := ReadChromeTrace(bytes.NewReader(c.data), "t.json", ConvertOptions{})
			if c.want != "" {
				if err == nil || !strings.HasPrefix(err.Error(), "traces: ") || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("error %v, want %q", err, c.want)
				}
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Errorf("error %T is not a *ParseError", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if tr == nil || len(tr.Steps) == 0 {
				t.Errorf("no steps")
			}
			msg := ""
			for _, w := range warns {
				msg += w.Error() + "\n"
			}
			if !strings.Contains(msg, c.warn) {
				t.Errorf("warnings\n%s\nlack %q", msg, c.warn)
			}
		})
	}
}

func FuzzChromeTrace(f *testing.F) {
	ents, _ := os.ReadDir(filepath.Join("testdata", "chrome"))
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join("testdata", "chrome", e.Name())); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`[{"name": "step", "ph": "B", "ts": 1, "pid": "a", "tid": 2}, {"ph": "E", "ts": 3, "pid": "a", "tid": 2}`))
	f.Add([]byte(`[{"name": "step 1", "ph": "X", "ts": 0, "dur": 5}, {"name": "step 2", "ph": "X", "ts": 1e30, "dur": 5}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, warns, err := ReadChromeTrace(bytes.NewReader(data), "fuzz.json", ConvertOptions{Batch: 1})
		for _, e := range append(warns, err) {
			if e == nil {
				continue
			}
			if !strings.HasPrefix(e.Error(), "traces: ") {
				t.Fatalf("error without package prefix: %v", e)
			}
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T not positioned: %v", err, err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteSteps(&buf, tr.Steps); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSteps(&buf, "steps.csv", func(Step) error { return nil }); err != nil {
			t.Fatalf("converted steps do not read back: %v\n%+v", err, tr.Steps)
		}
		for _, s := range tr.Steps {
			if !(s.End >= s.Start) || math.IsInf(s.End, 0) || math.IsInf(s.Start, 0) || s.Worker < 0 || s.Worker >= s.Workers {
				t.Fatalf("bad step %+v", s)
			}
			for _, p := range []float64{s.Pull, s.Compute, s.Push} {
				if !math.IsNaN(p) && !(p >= 0 && p <= s.End-s.Start+1e-9*(1+s.End)) {
					t.Fatalf("phase %v outside step %+v", p, s)
				}
			}
		}
	})
}

// A complete array followed by a comma is an error, and no warning says
// the array was read up to the comma (both came back together).
func TestChromeArrayThenComma(t *testing.T) {
	doc := `[{"name": "ProfilerStep#1", "ph": "X", "ts": 0, "dur": 5, "pid": 1, "tid": 1}],`
	_, warns, err := ReadChromeTrace(strings.NewReader(doc), "t.json", ConvertOptions{})
	if err == nil || strings.Contains(fmt.Sprint(warns), "read up to the comma") {
		t.Errorf("error %v, warnings %v", err, warns)
	}
}

// A trace whose ts and dur were written in seconds, not microseconds, has
// steps a million times too short: a median step under 1 us is warned of.
// The samples (steps of milliseconds) are not.
func TestReadChromeTraceSecondsWarned(t *testing.T) {
	const inS = `{"traceEvents": [
{"name": "ProfilerStep#1", "ph": "X", "ts": 0.0, "dur": 0.1, "pid": 1, "tid": 1},
{"name": "aten::conv2d", "ph": "X", "ts": 0.01, "dur": 0.08, "pid": 1, "tid": 1},
{"name": "ProfilerStep#2", "ph": "X", "ts": 0.1, "dur": 0.1, "pid": 1, "tid": 1},
{"name": "aten::conv2d", "ph": "X", "ts": 0.11, "dur": 0.08, "pid": 1, "tid": 1}]}`
	tr, warns, err := ReadChromeTrace(strings.NewReader(inS), "s.json", ConvertOptions{})
	if err != nil || tr == nil || len(tr.Steps) != 2 {
		t.Fatalf("err %v, trace %+v", err, tr)
	}
	if !slices.ContainsFunc(warns, func(e error) bool { return strings.Contains(e.Error(), "were they written in seconds?") }) {
		t.Errorf("warnings %v: want the units questioned", warns)
	}
	// the warning is at the first event in the file of a step under 1 us
	// (it named the file alone): here the second step's, the first lasting
	// 5 us
	const later = `{"traceEvents": [
{"name": "ProfilerStep#1", "ph": "X", "ts": 0.0, "dur": 5, "pid": 1, "tid": 1},
{"name": "ProfilerStep#3", "ph": "X", "ts": 5.2, "dur": 0.1, "pid": 1, "tid": 1},
  {"name": "ProfilerStep#2", "ph": "X", "ts": 5.1, "dur": 0.1, "pid": 1, "tid": 1}]}`
	_, warns, err = ReadChromeTrace(strings.NewReader(later), "s.json", ConvertOptions{})
	i := slices.IndexFunc(warns, func(e error) bool { return strings.Contains(e.Error(), "were they written in seconds?") })
	var pe *ParseError
	if err != nil || i < 0 || !errors.As(warns[i], &pe) || pe.Line != 3 || pe.Column != 1 || !strings.Contains(pe.Msg, "this step, the first in the file under 1 us, 0.1 us") {
		t.Errorf("err %v, warnings %v: want the units questioned at line 3, column 1", err, warns)
	}
	_, warns, err = ReadChromeTrace(bytes.NewReader(chromeFile(t, "ps_begin_end.json")), "x.json", ConvertOptions{})
	if err != nil || slices.ContainsFunc(warns, func(e error) bool { return strings.Contains(e.Error(), "written in seconds") }) {
		t.Errorf("a sample: err %v, warnings %v", err, warns)
	}
}

// A phase interval in no step is said not to count, one that holds a
// whole step and more to count in part in each, those that run past the
// last step's end to lose their tails, with the tails' total, and those
// that start before the first step's start to lose their heads, with the
// heads' total (an event at ts 1e308 was dropped, a 5 s forward pass over
// 1 ms steps counted as compute in every one, and a kernel's tail past the
// last step and head before the first dropped, without a word); of the
// samples, whose phases sit inside their steps, only pytorch_profiler.json
// warns, of its NCCL kernel past the last step's end.
func TestChromePhasesOffSteps(t *testing.T) {
	step := func(n, ts int) string {
		return fmt.Sprintf(`{"name": "ProfilerStep#%d", "ph": "X", "ts": %d, "dur": 1000, "pid": 1, "tid": 1}`, n, ts)
	}
	steps := step(1, 0) + ",\n" + step(2, 1000) + ",\n" + step(3, 2000)
	for _, c := range []struct {
		name, events, want string
	}{
		{"inside", `{"name": "forward", "ph": "X", "ts": 100, "dur": 500, "pid": 1, "tid": 1}`, ""},
		{"far outside", `{"name": "pull", "ph": "X", "ts": 1e308, "dur": 100, "pid": 1, "tid": 1}`, "traces: t.json: of its phase intervals (after merging overlaps), 1 in no step of its process, not counted (the first at 1e+302 s after the earliest event)"},
		{"before", `{"name": "forward", "ph": "X", "ts": -500, "dur": 400, "pid": 1, "tid": 1}`, "1 in no step of its process, not counted (the first at 0 s after the earliest event)"},
		{"across", `{"name": "forward", "ph": "X", "ts": 500, "dur": 2000, "pid": 1, "tid": 1}`, "traces: t.json: of its phase intervals (after merging overlaps), 1 holding a whole step and more, each step counting the part inside it (the first at 0.0005 s"},
		{"both", `{"name": "forward", "ph": "X", "ts": 500, "dur": 2000, "pid": 1, "tid": 1}, {"name": "pull", "ph": "X", "ts": 9000, "dur": 10, "pid": 1, "tid": 1}`, "1 in no step of its process, not counted (the first at 0.009 s after the earliest event); 1 holding a whole step and more"},
		// a GPU kernel that runs on into the next step holds no step
		// whole: the streams lag the CPU's markers (a review's false
		// alarm)
		{"lag", `{"name": "ncclKernel_AllReduce", "ph": "X", "ts": 800, "dur": 450, "pid": 2, "tid": 7}, {"name": "ncclKernel_AllReduce", "ph": "X", "ts": 1800, "dur": 450, "pid": 2, "tid": 7}`, ""},
		// the last step ends at 3000 us: a forward pass to 3100 and a
		// kernel to 3300 (two phases, so two intervals) lose
		// 100 + 300 = 400 us = 0.0004 s
		{"past the last", `{"name": "forward", "ph": "X", "ts": 2500, "dur": 600, "pid": 1, "tid": 1}, {"name": "ncclKernel_AllReduce", "ph": "X", "ts": 2800, "dur": 500, "pid": 2, "tid": 7}`,
			"traces: t.json: of its phase intervals (after merging overlaps), 2 running past the end of its process's last step, the part after it not counted (0.0004 s in all"},
		// 1500 to 3500 us holds step 3 whole, overlaps step 2, and runs
		// 500 us past step 3's end
		{"across and past", `{"name": "forward", "ph": "X", "ts": 1500, "dur": 2000, "pid": 1, "tid": 1}`,
			"1 holding a whole step and more, each step counting the part inside it (the first at 0.0015 s: a phase longer than a step, or steps marked around part of the work?); 1 running past the end of its process's last step, the part after it not counted (0.0005 s in all"},
		// one starting as the last step ends is in no step, not past it
		{"after the last", `{"name": "forward", "ph": "X", "ts": 3000, "dur": 100, "pid": 1, "tid": 1}`, "of its phase intervals (after merging overlaps), 1 in no step of its process, not counted (the first at 0.003 s after the earliest event)"},
		// the first step starts at 0 us: a forward pass from -300 and a
		// kernel from -100 (two phases, so two intervals) lose
		// 300 + 100 = 400 us = 0.0004 s
		{"before the first", `{"name": "forward", "ph": "X", "ts": -300, "dur": 500, "pid": 1, "tid": 1}, {"name": "ncclKernel_AllReduce", "ph": "X", "ts": -100, "dur": 500, "pid": 2, "tid": 7}`,
			"traces: t.json: of its phase intervals (after merging overlaps), 2 starting before its process's first step, the part before it not counted (0.0004 s in all: work begun before the first step's marker, as a kernel launched before the profiled steps?)"},
		// -200 to 3300 us holds every step whole, and runs 300 us past
		// the last step's end and 200 us before the first's start (the
		// earliest event, so the first at 0 s)
		{"across, past and before", `{"name": "forward", "ph": "X", "ts": -200, "dur": 3500, "pid": 1, "tid": 1}`,
			"1 holding a whole step and more, each step counting the part inside it (the first at 0 s: a phase longer than a step, or steps marked around part of the work?); 1 running past the end of its process's last step, the part after it not counted (0.0003 s in all: a GPU kernel still running when the last step's marker ended?); 1 starting before its process's first step, the part before it not counted (0.0002 s in all"},
		// one ending as the first step starts is in no step, not before it
		{"before the first, ending at it", `{"name": "forward", "ph": "X", "ts": -100, "dur": 100, "pid": 1, "tid": 1}`, "of its phase intervals (after merging overlaps), 1 in no step of its process, not counted (the first at 0 s after the earliest event)"},
	} {
		_, warns, err := ReadChromeTrace(strings.NewReader("["+steps+",\n"+c.events+"]"), "t.json", ConvertOptions{Run: "t", Batch: 32})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w := fmt.Sprint(warns)
		if got := strings.Contains(w, "of its phase intervals"); got != (c.want != "") || !strings.Contains(w, c.want) {
			t.Errorf("%s: warnings %s, want %q", c.name, w, c.want)
		}
	}
	// pytorch_profiler.json's last step ends at 2500 us and its NCCL
	// kernel at 2600: 100 us = 0.0001 s lost
	for _, c := range []struct{ file, want string }{
		{"pytorch_profiler.json", "traces: pytorch_profiler.json: of its phase intervals (after merging overlaps), 1 running past the end of its process's last step, the part after it not counted (0.0001 s in all: a GPU kernel still running when the last step's marker ended?)"},
		{"ps_begin_end.json", ""},
		{"tf_timeline.json", ""},
		{"real-torch-profiler.pt.trace.json.gz", ""},
	} {
		_, warns, err := ReadChromeTrace(bytes.NewReader(chromeFile(t, c.file)), c.file, ConvertOptions{Batch: 32})
		i := slices.IndexFunc(warns, func(e error) bool { return strings.Contains(e.Error(), "of its phase intervals") })
		if err != nil || (i >= 0) != (c.want != "") || i >= 0 && warns[i].Error() != c.want {
			t.Errorf("%s: %v, warnings %v; want %q", c.file, err, warns, c.want)
		}
	}
}
