package traces

import (
	"strings"
	"testing"
)

// TestChromeRefusesContradictions: trailing bytes after the JSON, a
// distributedInfo rank outside its world, a step number past int64 and an
// event with a key twice are errors (they were read silently).
func TestChromeRefusesContradictions(t *testing.T) {
	ev := `{"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000}`
	obj := func(di string) string {
		return "{\n\"distributedInfo\": " + di + ",\n\"traceEvents\": [" + ev + "]}"
	}
	for _, c := range []struct{ name, in, want string }{
		{"garbage after the array", "[" + ev + "] xyz", `traces: t.json:1:72: unexpected "xyz" after the end of the JSON document (expected the end of the file)`},
		{"garbage after the object", obj(`{"rank":0}`) + "\n}", "traces: t.json:4:1: unexpected \"}\" after the end of the JSON document"},
		{"rank past world_size", obj(`{"rank":5,"world_size":2}`), "traces: t.json:2:1: distributedInfo: rank 5 is outside 0..1 for world_size 2"},
		{"negative rank", obj(`{"rank":-1,"world_size":2}`), "traces: t.json:2:1: distributedInfo: rank -1 is negative"},
		{"negative world_size", obj(`{"rank":0,"world_size":-2}`), "traces: t.json:2:1: distributedInfo: world_size -2: expected the number of ranks, >= 1"},
		// past the most workers steps.csv holds: its writer refused them,
		// at "steps.csv row 1 (line 2)", of a file never written
		{"world_size past the limit", obj(`{"rank":1,"world_size":2000000000}`), "traces: t.json:2:1: distributedInfo: world_size 2000000000 is above 1000000 (expected an integer from 1 to 1000000: predict stops there, and a figure's curve past it takes hours)"},
		{"world_size past the limit, --workers", obj(`{"rank":1,"world_size":1000001}`), "traces: t.json:2:1: distributedInfo: world_size 1000001 is above 1000000"},
		{"rank past the limit", obj(`{"rank":1000000}`), "traces: t.json:2:1: distributedInfo: rank 1000000 is above 999999 (expected 0 .. world_size-1, and at most 1000000 workers: predict stops there"},
		// not "invalid trace event: field "rank": expected a int"
		{"rank not an integer", obj(`{"rank":1.5,"world_size":2}`), "traces: t.json:2:1: distributedInfo: rank: expected an integer (0 .. world_size-1), got JSON number 1.5"},
		{"world_size text", obj(`{"rank":1,"world_size":"2"}`), "traces: t.json:2:1: distributedInfo: world_size: expected an integer (the number of ranks, >= 1), got JSON string"},
		{"distributedInfo not an object", obj(`[1]`), `traces: t.json:2:1: distributedInfo: expected an object {"rank": ..., "world_size": ...}, got JSON array`},
		// the position of the distributedInfo, as without --workers (it
		// had none)
		{"rank past --workers", obj(`{"rank":3}`) + "\n", "traces: t.json:2:1: distributedInfo: rank 3 is outside 0..1 for --workers 2"},
		{"rank past --workers and world_size", obj(`{"rank":1,"world_size":2}`), "traces: t.json:2:1: distributedInfo: rank 1 is outside 0..0 for --workers 1"},
		// more workers than the file's world_size has ranks (it was
		// written as 4 workers without a word)
		{"world_size under --workers", obj(`{"rank":1,"world_size":2}`), "traces: t.json:2:1: distributedInfo: world_size 2 is less than --workers 4 (expected at most world_size workers; leave --workers out to take world_size)"},
		{"step number past int64", `[{"ph":"X","name":"ProfilerStep#99999999999999999999999","pid":1,"tid":1,"ts":0,"dur":1000}]`,
			`traces: t.json:1:2: step marker "ProfilerStep#99999999999999999999999": step number 99999999999999999999999 is out of range`},
		{"dur twice", `[{"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000,"dur":5}]`,
			`traces: t.json:1:70: trace event: key "dur" repeats a key of the same event`},
		{"ts twice, other case", `[{"ph":"X","name":"a","ts":0,"pid":1,"tid":1,"dur":1,"TS":7}]`,
			`traces: t.json:1:54: trace event: key "TS" repeats`},
		{"escaped key twice", `[{"ph":"X","name":"a","ts":0,"pid":1,"tid":1,"dur":1,"d\u0075r":7}]`,
			`trace event: key "dur" repeats`},
	} {
		opts := ConvertOptions{}
		switch c.name {
		case "rank past --workers":
			opts.Workers = 2
		case "rank past --workers and world_size":
			opts.Workers = 1
		case "world_size under --workers":
			opts.Workers = 4
		case "world_size past the limit, --workers":
			opts.Workers, opts.PS = 2, 1 // (with --ps it warned, and converted)
		}
		_, _, err := ReadChromeTrace(strings.NewReader(c.in), "t.json", opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
	// keys repeated inside args, or in different events, are fine
	for _, in := range []string{
		`[{"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000,"args":{"dur":1,"name":"x","ts":[1,{"ts":2}]}}, {"ph":"X","name":"forward","pid":1,"tid":1,"ts":0,"dur":10}]` + "\n\n",
		`{"traceEvents":[` + ev + `],"distributedInfo":{"rank":1,"world_size":2}}  ` + "\n",
	} {
		if _, _, err := ReadChromeTrace(strings.NewReader(in), "t.json", ConvertOptions{}); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
	// fewer workers than world_size warns at the distributedInfo (the
	// other ranks may be parameter servers), unless --ps makes up the
	// difference; the same count says nothing
	for _, c := range []struct {
		workers, ps int
		warn        bool
	}{{1, 0, true}, {1, 1, false}, {2, 0, false}} {
		_, w, err := ReadChromeTrace(strings.NewReader(obj(`{"rank":0,"world_size":2}`)), "t.json", ConvertOptions{Workers: c.workers, PS: c.ps})
		const msg = "traces: t.json:2:1: distributedInfo: world_size 2 is more than --workers 1 (+ --ps 0): written as 1 workers"
		if err != nil || strings.Contains(errorsText(w), msg) != c.warn || strings.Contains(errorsText(w), "world_size 2 is more") != c.warn {
			t.Errorf("--workers %d --ps %d for world_size 2: warning %v expected, got %v, %v", c.workers, c.ps, c.warn, w, err)
		}
	}
	// a rank and no world_size: the workers are rank+1, with a warning
	_, w, err := ReadChromeTrace(strings.NewReader(obj(`{"rank":3}`)), "t.json", ConvertOptions{})
	if err != nil || !strings.Contains(errorsText(w), "distributedInfo gives rank 3 and no world_size: written as 4 workers") {
		t.Errorf("rank without world_size: %v %v", err, w)
	}
}

func errorsText(errs []error) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error() + "\n")
	}
	return b.String()
}

// TestChromeByteOrderMark: a trace saved with a UTF-8 byte-order mark reads
// as without one (it was "invalid character 'ï'"), and positions after it
// are those an editor shows (the mark is no column).
func TestChromeByteOrderMark(t *testing.T) {
	ev := `[{"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000}]`
	tr, _, err := ReadChromeTrace(strings.NewReader("\xef\xbb\xbf"+ev), "t.json", ConvertOptions{})
	if err != nil || len(tr.Steps) != 1 {
		t.Fatalf("with a byte-order mark: %v", err)
	}
	_, _, err = ReadChromeTrace(strings.NewReader("\xef\xbb\xbf"+ev+" x"), "t.json", ConvertOptions{})
	if want := "t.json:1:72:"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error after a mark: %v, want position %s", err, want)
	}
}
