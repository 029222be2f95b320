package traces

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/internal/decimal"
)

const stepsHeader = "run,workers,ps,batch,worker,step,start,end,pull,compute,push,staleness,loss\n"

func readAllSteps(t *testing.T, in string) ([]Step, []error, error) {
	t.Helper()
	var rows []Step
	w, err := ReadSteps(strings.NewReader(in), "steps.csv", func(s Step) error {
		rows = append(rows, s)
		return nil
	})
	return rows, w, err
}

func TestReadSteps(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name     string
		in       string
		want     []Step
		warnings []string
	}{
		{
			name: "all columns",
			in:   stepsHeader + "a,2,1,32,1,7,10.5,11.25,0.125,0.5,0.625,3,2.5\n",
			want: []Step{{Run: "a", Workers: 2, PS: 1, Batch: 32, Worker: 1, Step: 7, Start: 10.5, End: 11.25,
				Pull: 0.125, Compute: 0.5, Push: 0.625, Staleness: 3, Loss: 2.5}},
		},
		{
			// optional columns absent: NaN, staleness -1
			name: "required only, other order, CRLF, spaces, BOM",
			in:   "\xef\xbb\xbfend, start,step,worker,batch,ps,workers,run\r\n2, 1 ,0,0,8,0,1,\"r,1\"\r\n",
			want: []Step{{Run: "r,1", Workers: 1, PS: 0, Batch: 8, Worker: 0, Step: 0, Start: 1, End: 2,
				Pull: nan, Compute: nan, Push: nan, Staleness: -1, Loss: nan}},
		},
		{
			name: "empty optional fields and blank lines",
			in:   stepsHeader + "\na,1,1,1,0,0,0,0,,,,,\n\n",
			want: []Step{{Run: "a", Workers: 1, PS: 1, Batch: 1, Worker: 0, Step: 0, Start: 0, End: 0,
				Pull: nan, Compute: nan, Push: nan, Staleness: -1, Loss: nan}},
		},
		{
			// steps 0,2,1 of one worker: out of order but no duplicate
			name: "out of order steps, unknown column",
			in: "run,workers,ps,batch,worker,step,start,end,host\n" +
				"a,1,1,1,0,0,0,1,h\na,1,1,1,0,2,2,3,h\na,1,1,1,0,1,1,2,h\n",
			want: []Step{
				{Run: "a", Workers: 1, PS: 1, Batch: 1, Step: 0, Start: 0, End: 1, Pull: nan, Compute: nan, Push: nan, Staleness: -1, Loss: nan},
				{Run: "a", Workers: 1, PS: 1, Batch: 1, Step: 2, Start: 2, End: 3, Pull: nan, Compute: nan, Push: nan, Staleness: -1, Loss: nan},
				{Run: "a", Workers: 1, PS: 1, Batch: 1, Step: 1, Start: 1, End: 2, Pull: nan, Compute: nan, Push: nan, Staleness: -1, Loss: nan},
			},
			warnings: []string{`traces: steps.csv:1:44: unknown column "host" ignored`},
		},
		{
			name: "quoted field with doubled quote and newline; integer written as float",
			in:   "run,workers,ps,batch,worker,step,start,end\n\"x \"\"y\"\"\nz\",4.0,1,1e1,3,5,0,1\n",
			want: []Step{{Run: "x \"y\"\nz", Workers: 4, PS: 1, Batch: 10, Worker: 3, Step: 5, Start: 0, End: 1,
				Pull: nan, Compute: nan, Push: nan, Staleness: -1, Loss: nan}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, w, err := readAllSteps(t, c.in)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %d rows, want %d: %+v", len(got), len(c.want), got)
			}
			for i := range got {
				if !sameStep(got[i], c.want[i]) {
					t.Errorf("row %d:\n got %+v\nwant %+v", i, got[i], c.want[i])
				}
			}
			if len(w) != len(c.warnings) {
				t.Fatalf("warnings %v, want %v", w, c.warnings)
			}
			for i := range w {
				if w[i].Error() != c.warnings[i] {
					t.Errorf("warning %q, want %q", w[i], c.warnings[i])
				}
			}
		})
	}
}

// sameStep compares two steps, NaN equal to NaN.
func sameStep(a, b Step) bool {
	f := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	return a.Run == b.Run && a.Workers == b.Workers && a.PS == b.PS && a.Batch == b.Batch &&
		a.Worker == b.Worker && a.Step == b.Step && f(a.Start, b.Start) && f(a.End, b.End) &&
		f(a.Pull, b.Pull) && f(a.Compute, b.Compute) && f(a.Push, b.Push) &&
		a.Staleness == b.Staleness && f(a.Loss, b.Loss)
}

func gzipString(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// TestMalformed gives each kind of bad input its own positioned error.
// Columns of stepsHeader: run 1, workers 2, ps 3, batch 4, worker 5, step 6,
// start 7, end 8, pull 9, compute 10, push 11, staleness 12, loss 13.
func TestMalformed(t *testing.T) {
	okRow := "a,2,1,32,0,0,0,1,,,,,\n"
	many := stepsHeader
	for i := range 2000 {
		many += "a,1,1,1,0," + itoaTest(i) + ",0,1,0.5,0.25,0.125,0,1.5\n"
	}
	zipped := gzipString(many)
	cases := []struct {
		name, kind, in string
		want           string
		line, col      int
	}{
		{"empty file", "steps", "", "traces: steps.csv: empty file: expected a header row (run,workers,ps,batch,worker,step,start,end[,pull,compute,push,staleness,loss])", 0, 0},
		{"header only", "steps", stepsHeader, "traces: steps.csv:1: header only: no data rows after line 1", 1, 0},
		// blank lines before the header: its errors are at its own line
		{"header only after blank lines", "steps", "\n\n" + stepsHeader, "traces: steps.csv:3: header only: no data rows after line 3", 3, 0},
		{"missing column after blank lines", "evals", "\n\nrun,loss\na,1\n", "traces: evals.csv:3: missing column: expected \"time\" or \"updates\"", 3, 0},
		{"missing required column", "steps", "run,workers,ps,batch,worker,step,start\na,1,1,1,0,0,0\n",
			`traces: steps.csv:1: missing required column "end" (header has run,workers,ps,batch,worker,step,start)`, 1, 0},
		{"text in a number column", "steps", stepsHeader + okRow + "a,2,1,32,1,0,abc,1,,,,,\n",
			`traces: steps.csv:3:14: start: "abc" is not a number (expected seconds)`, 3, 14},
		{"text in an integer column", "steps", stepsHeader + "a,two,1,32,0,0,0,1,,,,,\n",
			`traces: steps.csv:2:3: workers: "two" is not an integer (expected an integer >= 1)`, 2, 3},
		{"negative duration", "steps", stepsHeader + "a,2,1,32,0,0,0,1,-0.25,,,,\n",
			"traces: steps.csv:2:18: pull: -0.25 is negative (expected a duration in seconds >= 0)", 2, 18},
		// the example of the brief: end 3.1 < start 3.5
		{"end before start", "steps", stepsHeader + "a,2,1,32,0,0,3.5,3.1,,,,,\n",
			"traces: steps.csv:2:18: end: 3.1 is before start 3.5", 2, 18},
		{"NaN", "steps", stepsHeader + "a,2,1,32,0,0,NaN,1,,,,,\n",
			"traces: steps.csv:2:14: start: NaN is not allowed (expected a finite number: seconds; leave the field empty when unknown)", 2, 14},
		{"Inf", "steps", stepsHeader + "a,2,1,32,0,0,0,1,,+Inf,,,\n",
			"traces: steps.csv:2:19: compute: +Inf is not allowed (expected a finite number: a duration in seconds >= 0; leave the field empty when unknown)", 2, 19},
		{"duplicate (run, worker, step)", "steps", stepsHeader + okRow + "a,2,1,32,1,0,0,1,,,,,\n" + "a,2,1,32,0,0,1,2,,,,,\n",
			`traces: steps.csv:4:12: step: duplicate (run "a", worker 0, step 0), first on line 2`, 4, 12},
		{"duplicate out of order", "steps", stepsHeader + "a,1,1,1,0,0,0,1,,,,,\na,1,1,1,0,5,0,1,,,,,\na,1,1,1,0,3,0,1,,,,,\na,1,1,1,0,5,0,1,,,,,\n",
			`traces: steps.csv:5:11: step: duplicate (run "a", worker 0, step 5), first on line 3`, 5, 11},
		{"workers < 1", "steps", stepsHeader + "a,0,1,32,0,0,0,1,,,,,\n",
			"traces: steps.csv:2:3: workers: 0 is below 1 (expected an integer >= 1)", 2, 3},
		{"worker out of range", "steps", stepsHeader + "a,2,1,32,2,0,0,1,,,,,\n",
			"traces: steps.csv:2:10: worker: 2 is out of range (expected 0..1 for workers=2)", 2, 10},
		{"configuration changes within a run", "steps", stepsHeader + okRow + "a,4,1,32,1,0,0,1,,,,,\n",
			`traces: steps.csv:3:3: workers: 4 differs from 2 on line 2 for run "a" (a run is one configuration)`, 3, 3},
		{"shards change within a run", "steps", stepsHeader + okRow + "a,2,2,32,1,0,0,1,,,,,\n",
			`traces: steps.csv:3:5: ps: 2 differs from 1 on line 2 for run "a" (a run is one configuration)`, 3, 5},
		{"negative staleness", "steps", stepsHeader + "a,2,1,32,0,0,0,1,,,,-1,\n",
			"traces: steps.csv:2:21: staleness: -1 is below 0 (expected an integer >= 0)", 2, 21},
		{"missing run", "steps", stepsHeader + ",2,1,32,0,0,0,1,,,,,\n",
			"traces: steps.csv:2:1: run: missing value", 2, 1},
		{"missing required value", "steps", stepsHeader + "a,2,1,32,0,,0,1,,,,,\n",
			"traces: steps.csv:2:12: step: missing value (expected an integer >= 0)", 2, 12},
		{"too few fields", "steps", stepsHeader + "a,2,1,32,0,0,0,1\n",
			`traces: steps.csv:2:17: row ends after 8 of the header's 13 fields: column "pull" missing`, 2, 17},
		{"bare quote", "steps", stepsHeader + "a\"b,2,1,32,0,0,0,1,,,,,\n",
			"traces: steps.csv:2:1: bare quote in an unquoted field; quote the whole field and double the quote", 2, 1},
		{"unclosed quote", "steps", stepsHeader + "\"a,2,1,32,0,0,0,1,,,,,\n",
			"traces: steps.csv:2:1: quoted field not closed before the end of the file", 2, 1},
		{"duplicate column", "steps", "run,workers,run\n", `traces: steps.csv:1:13: column "run" repeats column 1`, 1, 13},
		{"truncated gzip", "steps", zipped[:len(zipped)/2], "", -1, 0},
		{"updates: negative staleness", "updates", "run,shard,worker,time,version,staleness\na,0,0,1,1,-2\n",
			"traces: updates.csv:2:11: staleness: -2 is below 0 (expected an integer >= 0)", 2, 11},
		// staleness = version after apply - 1 - version read: a worker cannot
		// have read a version below 0 (a staleness counted across shards
		// beside a version counted per shard, or swapped columns)
		{"updates: staleness above version", "updates", "run,shard,worker,time,version,staleness\na,0,0,1,3,4\n",
			"traces: updates.csv:2:11: staleness: 4 is above version 3 (expected at most 3: staleness = version after apply - 1 - version the worker read, and no version below 0 was read; are version and staleness counted the same way, per shard or across shards?)", 2, 11},
		{"runs: bad mode", "runs", "run,mode\na,ASYNCH\n", // as written (it was lower-cased)
			`traces: runs.csv:2:3: mode: "ASYNCH" is not a mode (expected async, sync or allreduce)`, 2, 3},
		{"runs: run twice", "runs", "run,model\na,x\na,y\n",
			`traces: runs.csv:3:1: run: "a" is described twice (first on line 2)`, 3, 1},
		{"runs: negative bandwidth", "runs", "run,bandwidth\na,-1e9\n",
			"traces: runs.csv:2:3: bandwidth: -1e+09 is not positive (expected bytes per second > 0)", 2, 3},
		// 5e-324 B/s was read, and fit dropped the link demand S/B
		{"runs: bandwidth that underflows", "runs", "run,bandwidth\na,5e-324\n",
			"traces: runs.csv:2:3: bandwidth: 5e-324 is outside 1 to 1e+15 (expected bytes per second: a link's rate, 1 B/s to 1 PB/s)", 2, 3},
		{"runs: bandwidth too large", "runs", "run,model,bandwidth\na,m,1.5e15\n",
			"traces: runs.csv:2:5: bandwidth: 1.5e+15 is outside 1 to 1e+15 (expected bytes per second: a link's rate, 1 B/s to 1 PB/s)", 2, 5},
		{"evals: accuracy above 1", "evals", "run,updates,accuracy\na,10,1.5\n",
			"traces: evals.csv:2:6: accuracy: 1.5 is outside [0, 1]", 2, 6},
		{"evals: no time nor updates column", "evals", "run,loss\na,1\n",
			`traces: evals.csv:1: missing column: expected "time" or "updates"`, 1, 0},
		{"evals: empty row", "evals", "run,time,loss\na,,1\n",
			"traces: evals.csv:2:3: time, updates: both empty (expected at least one)", 2, 3},
		// an evaluation (run, updates, time) given twice in one file, as a copy
		// or with another loss: both were read, the loss curve fitted to them
		{"evals: row twice", "evals", "run,time,updates,loss\nw1,3.1,25,1.89\nw1,5.878934,50,1.6439\nw2,5.878934,50,1.6439\nw1,5.878934,50,1.6439\n",
			`traces: evals.csv:5:13: updates: the evaluation of run "w1" at 50 updates (time 5.878934 s) is given twice (the same row as line 3: the loss curve would count it twice)`, 5, 13},
		{"evals: another loss", "evals", "run,time,updates,loss\nw1,5.878934,50,1.6439\nw1,5.878934,50,1.7\n",
			`traces: evals.csv:3:13: updates: the evaluation of run "w1" at 50 updates (time 5.878934 s) is given again, differently, after line 2 (expected one row per evaluation, its loss and accuracy together)`, 3, 13},
		{"evals: loss and accuracy in two rows", "evals", "run,updates,loss,accuracy\na,10,1.5,\na,10,,0.5\n",
			`traces: evals.csv:3:3: updates: the evaluation of run "a" at 10 updates is given again, differently, after line 2 (expected one row per evaluation, its loss and accuracy together)`, 3, 3},
		{"evals: time twice, no updates", "evals", "run,time,loss\na,-0,1\na,2,1\na,0,1\n",
			`traces: evals.csv:4:3: time: the evaluation of run "a" at 0 s is given twice (the same row as line 2: the loss curve would count it twice)`, 4, 3},
		{"throughput: no rate column", "throughput", "workers,ps,batch\n1,1,32\n",
			`traces: throughput.csv:1: missing column: expected "steps_per_s" or "samples_per_s"`, 1, 0},
		{"throughput: zero rate", "throughput", "workers,ps,batch,steps_per_s\n1,1,32,0\n",
			"traces: throughput.csv:2:8: steps_per_s: 0 is not positive (expected steps per second > 0)", 2, 8},
		{"throughput: a rate that underflows", "throughput", "workers,ps,batch,samples_per_s\n1,1,32,1e-300\n",
			"traces: throughput.csv:2:8: samples_per_s: 1e-300 is outside 1e-12 to 1e+12 (expected samples per second within the range of the times, one per 1e+12 s at least)", 2, 8},
		{"throughput: a rate too large", "throughput", "workers,ps,batch,steps_per_s\n1,1,32,2e12\n",
			"traces: throughput.csv:2:8: steps_per_s: 2e+12 is outside 1e-12 to 1e+12 (expected steps per second within the range of the times, one per 1e+12 s at least)", 2, 8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readKind(c.kind, c.in)
			if err == nil {
				t.Fatal("no error")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			if c.line == -1 { // truncated gzip: position depends on the cut
				if !strings.Contains(err.Error(), "truncated gzip stream") || pe.Line < 2 {
					t.Fatalf("error %q, want a truncated gzip stream at a line >= 2", err)
				}
				return
			}
			if err.Error() != c.want {
				t.Errorf("error\n got %q\nwant %q", err, c.want)
			}
			if pe.Line != c.line || pe.Column != c.col {
				t.Errorf("position %d:%d, want %d:%d", pe.Line, pe.Column, c.line, c.col)
			}
		})
	}
}

// A duplicate step or update names the line of the first row with its key,
// found by reading the input again when it can seek (a file, gzipped or not,
// and from where the read began); from a pipe the error is as before. The
// callback sees each row once.
func TestDuplicateNamesFirstLine(t *testing.T) {
	const steps = stepsHeader + "a,1,1,1,0,0,0,1,,,,,\na,1,1,1,0,1,1,2,,,,,\na,1,1,1,0,2,2,3,,,,,\na,1,1,1,0,1,3,4,,,,,\n"
	const updates = "run,shard,worker,time,version,staleness\na,0,0,0.5,1,0\na,0,0,0.7,2,0\na,1,0,0.7,1,0\na,0,0,0.9,2,0\n"
	const (
		wantSteps   = `traces: steps.csv:5:11: step: duplicate (run "a", worker 0, step 1)`
		wantUpdates = `traces: updates.csv:5:11: version: duplicate (run "a", shard 0, version 2)`
	)
	read := func(kind string, r io.Reader) (int, error) {
		n := 0
		var err error
		if kind == "steps" {
			_, err = ReadSteps(r, "steps.csv", func(Step) error { n++; return nil })
		} else {
			_, err = ReadUpdates(r, "updates.csv", func(Update) error { n++; return nil })
		}
		return n, err
	}
	for _, c := range []struct {
		kind, in, want string
	}{
		{"steps", steps, wantSteps + ", first on line 3"},
		{"updates", updates, wantUpdates + ", first on line 3: a shard reaches each model version once"},
	} {
		for name, r := range map[string]func() io.Reader{
			"seeker": func() io.Reader { return strings.NewReader(c.in) },
			"gzip":   func() io.Reader { return strings.NewReader(gzipString(c.in)) },
			// 5 bytes read before ReadSteps: the read begins after them
			"after a prefix": func() io.Reader {
				r := strings.NewReader("junk\n" + c.in)
				io.ReadFull(r, make([]byte, 5))
				return r
			},
		} {
			n, err := read(c.kind, r())
			if err == nil || err.Error() != c.want || n != 3 {
				t.Errorf("%s, %s: error %v after %d rows, want %q after 3", c.kind, name, err, n, c.want)
			}
		}
		// a pipe: not read again
		_, err := read(c.kind, struct{ io.Reader }{strings.NewReader(c.in)})
		want := map[string]string{"steps": wantSteps, "updates": wantUpdates + ": a shard reaches"}[c.kind]
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "first on line") {
			t.Errorf("%s, not a seeker: error %v, want %q... without the first line", c.kind, err, want)
		}
	}
	// the files of a folder
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "steps.csv.gz"), []byte(gzipString(steps)), 0o644)
	if _, _, err := Load(dir); err == nil || !strings.HasSuffix(err.Error(), `step: duplicate (run "a", worker 0, step 1), first on line 3`) {
		t.Errorf("Load: %v", err)
	}
}

func itoaTest(i int) string { return string(putInt(nil, int64(i))) }

// readKind reads in as the named kind and returns the number of rows.
func readKind(kind, in string) (int, error) {
	n := 0
	var err error
	r := strings.NewReader(in)
	switch kind {
	case "steps":
		_, err = ReadSteps(r, "steps.csv", func(Step) error { n++; return nil })
	case "updates":
		_, err = ReadUpdates(r, "updates.csv", func(Update) error { n++; return nil })
	case "runs":
		_, err = ReadRuns(r, "runs.csv", func(RunInfo) error { n++; return nil })
	case "evals":
		_, err = ReadEvals(r, "evals.csv", func(Eval) error { n++; return nil })
	case "throughput":
		_, err = ReadThroughput(r, "throughput.csv", func(Throughput) error { n++; return nil })
	default:
		panic(kind)
	}
	return n, err
}

// endless is a line of 'a' that never ends; it counts the bytes read.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n >= 2<<30 {
		return 0, io.EOF
	}
	for i := range p {
		p[i] = 'a'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestLongLine: a 2 GB line is refused after reading about MaxLineBytes.
func TestLongLine(t *testing.T) {
	for _, name := range []string{"header", "row"} {
		src := &endless{}
		var r io.Reader = src
		line := 1
		if name == "row" {
			r = io.MultiReader(strings.NewReader(stepsHeader), src)
			line = 2
		}
		_, err := ReadSteps(r, "steps.csv", func(Step) error { return nil })
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != line || !strings.Contains(err.Error(), "line longer than 1048576 bytes") {
			t.Fatalf("%s: error %v, want line %d longer than 1048576 bytes", name, err, line)
		}
		if src.n > 2*MaxLineBytes {
			t.Errorf("%s: read %d bytes of the long line, want at most %d", name, src.n, 2*MaxLineBytes)
		}
	}
}

// TestLongLineBoundary: MaxLineBytes bounds a line without its ending,
// whatever the ending. A line one or two bytes longer was read before an LF
// or at the end of the file, and before a CRLF was called a lone-CR file.
func TestLongLineBoundary(t *testing.T) {
	const header = "run,workers,ps,batch,worker,step,start,end,note\n"
	const prefix = "a,1,1,1,0,0,0,1,"
	for _, n := range []int{MaxLineBytes, MaxLineBytes + 1, MaxLineBytes + 2} {
		for _, end := range []string{"\n", "\r\n", ""} {
			line := prefix + strings.Repeat("x", n-len(prefix))
			rows, _, err := readAllSteps(t, header+line+end)
			var pe *ParseError
			switch {
			case n == MaxLineBytes && (err != nil || len(rows) != 1):
				t.Errorf("line of %d bytes, end %q: %d rows, %v; want it read", n, end, len(rows), err)
			case n > MaxLineBytes && (!errors.As(err, &pe) || pe.Line != 2 || err.Error() != "traces: steps.csv:2: line longer than 1048576 bytes"):
				t.Errorf("line of %d bytes, end %q: error %v; want steps.csv:2: line longer than 1048576 bytes", n, end, err)
			}
		}
	}
}

// TestQuotedRecordLimit: a record whose quoted field spans lines is bounded
// by MaxLineBytes with the line endings inside it counted (they were not: a
// record one line ending above the limit was read).
func TestQuotedRecordLimit(t *testing.T) {
	const header = "run,workers,ps,batch,worker,step,start,end,note\n"
	const prefix = "a,1,1,1,0,0,0,1,\""
	// record of n bytes: prefix, the field's text around the line ending
	// brk, the closing quote (the line ending after the record not counted)
	record := func(n int, brk string) string {
		text := n - len(prefix) - len(brk) - 1
		return prefix + strings.Repeat("x", text/2) + brk + strings.Repeat("y", text-text/2) + "\"\n"
	}
	for _, c := range []struct {
		n    int
		brk  string
		fail bool
	}{
		{MaxLineBytes, "\n", false},
		{MaxLineBytes + 1, "\n", true},
		{MaxLineBytes, "\r\n", false},
		{MaxLineBytes + 1, "\r\n", true},
		{MaxLineBytes + 2, "\r\n", true},
	} {
		rows, _, err := readAllSteps(t, header+record(c.n, c.brk))
		var pe *ParseError
		if c.fail {
			if !errors.As(err, &pe) || pe.Line != 2 || pe.Column != 17 || !strings.Contains(err.Error(), "record longer than 1048576 bytes") {
				t.Errorf("record of %d bytes, break %q: error %v; want steps.csv:2:17: record longer than 1048576 bytes", c.n, c.brk, err)
			}
		} else if err != nil || len(rows) != 1 {
			t.Errorf("record of %d bytes, break %q: %d rows, %v; want it read", c.n, c.brk, len(rows), err)
		}
	}
}

func TestGzip(t *testing.T) {
	in := stepsHeader + "a,1,1,1,0,0,0,1,,,,,\na,1,1,1,0,1,1,2,,,,,\n"
	n, err := readKind("steps", gzipString(in))
	if err != nil || n != 2 {
		t.Fatalf("gzip: %d rows, %v; want 2 rows", n, err)
	}
}

// TestHandlerError: an error of fn stops the read and comes back as it is.
func TestHandlerError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	_, err := ReadSteps(strings.NewReader(stepsHeader+"a,1,1,1,0,0,0,1,,,,,\na,1,1,1,0,1,1,2,,,,,\n"), "steps.csv",
		func(Step) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("err %v after %d rows, want stop after 1", err, n)
	}
}

func TestStepSet(t *testing.T) {
	var s stepSet
	// insert 0,1,2 then 10, 5, 4, 6..9: intervals merge into [0,2] [4,10]
	for _, v := range []int64{0, 1, 2, 10, 5, 4, 6, 7, 8, 9} {
		if !s.add(v) {
			t.Fatalf("%d reported as duplicate", v)
		}
	}
	if iv := s.intervals(); len(iv) != 2 || iv[0] != [2]int64{0, 2} || iv[1] != [2]int64{4, 10} {
		t.Fatalf("intervals %v, want [[0 2] [4 10]]", iv)
	}
	for _, v := range []int64{0, 2, 4, 7, 10} {
		if s.add(v) {
			t.Errorf("%d not reported as duplicate", v)
		}
	}
	if !s.add(3) || len(s.intervals()) != 1 || s.intervals()[0] != [2]int64{0, 10} {
		t.Errorf("after 3: %v, want [[0 10]]", s.intervals())
	}
	// the largest int64, twice: last+1 overflowed and the duplicate was new
	if !s.add(math.MaxInt64) || s.add(math.MaxInt64) || !s.add(math.MaxInt64-1) || s.add(math.MaxInt64-1) {
		t.Errorf("math.MaxInt64: %v", s.intervals())
	}
	if iv := s.intervals(); len(iv) != 2 || iv[1] != [2]int64{math.MaxInt64 - 1, math.MaxInt64} {
		t.Errorf("intervals %v, want [0 10] [max-1 max]", iv)
	}
	// the smallest int64 (a step is >= 0, but the set takes any)
	if !s.add(math.MinInt64) || s.add(math.MinInt64) || !s.add(math.MinInt64+1) || len(s.intervals()) != 3 {
		t.Errorf("math.MinInt64: %v", s.intervals())
	}
}

// TestReadStepsOutOfOrder: 200,000 steps of a worker in decreasing order,
// every 10th (the gaps of a profiler's schedule), then a duplicate. The
// set of steps was a sorted slice whose insertions at the front copied it:
// 15 s, quadratic; its speed now is BenchmarkReadStepsOrder's
// (docs/performance.md) and its bound TestStepSetOrders' balanced tree.
// The duplicate's error is as before: the row's step field, naming the
// first row's line. The same for updates.csv.
func TestReadStepsOutOfOrder(t *testing.T) {
	const n = 200_000
	var b bytes.Buffer
	b.WriteString("run,workers,ps,batch,worker,step,start,end\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "a,1,1,1,0,%d,%d,%d.5\n", 10*i, i, i)
	}
	// step 1,234,560 is on line 2 + (n-1-123456) = 76,545
	b.WriteString("a,1,1,1,0,1234560,1,1.5\n") // line n+2 = 200,002
	rows := 0
	_, err := ReadSteps(bytes.NewReader(b.Bytes()), "steps.csv", func(Step) error { rows++; return nil })
	want := `traces: steps.csv:200002:11: step: duplicate (run "a", worker 0, step 1234560), first on line 76545`
	if err == nil || err.Error() != want || rows != n {
		t.Errorf("%d rows, error %v; want %d rows and %s", rows, err, n, want)
	}
	b.Reset()
	b.WriteString("run,shard,worker,time,version,staleness\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "a,0,0,%d,%d,0\n", i, 10*i)
	}
	b.WriteString("a,0,0,1,1234560,0\n")
	_, err = ReadUpdates(bytes.NewReader(b.Bytes()), "updates.csv", func(Update) error { return nil })
	want = `traces: updates.csv:200002:9: version: duplicate (run "a", shard 0, version 1234560), first on line 76545: a shard reaches each model version once`
	if err == nil || err.Error() != want {
		t.Errorf("updates: error %v; want %s", err, want)
	}
}

// TestStepSetOrders: in any order (increasing, decreasing, random, with and
// without gaps, with repeats) the set agrees with a map, its intervals are
// disjoint, increasing and not adjacent (the tree's before the tail's), and
// its tree is balanced (AVL:
// heights as stored, subtrees differing by at most 1); the nodes are no
// more than the intervals ever held at once.
func TestStepSetOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	orders := map[string]func(n int) []int64{
		"increasing": func(n int) []int64 { return seq(n, func(i int) int64 { return int64(i) }) },
		"gaps":       func(n int) []int64 { return seq(n, func(i int) int64 { return int64(10 * i) }) },
		"reverse":    func(n int) []int64 { return seq(n, func(i int) int64 { return int64(n - 1 - i) }) },
		"reverse gaps": func(n int) []int64 {
			return seq(n, func(i int) int64 { return int64(10 * (n - 1 - i)) })
		},
		"random": func(n int) []int64 {
			v := seq(n, func(i int) int64 { return int64(i) })
			rng.Shuffle(n, func(i, j int) { v[i], v[j] = v[j], v[i] })
			return v
		},
		"random repeats": func(n int) []int64 {
			return seq(n, func(int) int64 { return rng.Int64N(int64(n)) })
		},
		"random gaps": func(n int) []int64 {
			v := seq(n, func(i int) int64 { return int64(10 * i) })
			rng.Shuffle(n, func(i, j int) { v[i], v[j] = v[j], v[i] })
			return v
		},
		"evens then odds": func(n int) []int64 { // the odds fill the gaps
			return seq(n, func(i int) int64 {
				if i < (n+1)/2 {
					return int64(2 * i)
				}
				return int64(2*(i-(n+1)/2) + 1)
			})
		},
		"blocks": func(n int) []int64 { // runs of 5 in increasing order, the runs in decreasing
			return seq(n, func(i int) int64 { return int64(6*((n-1)/5-i/5) + i%5) })
		},
		"interleaved": func(n int) []int64 { // 0, n-1, 1, n-2, ...
			return seq(n, func(i int) int64 {
				if i%2 == 0 {
					return int64(i / 2)
				}
				return int64(n - 1 - i/2)
			})
		},
	}
	for name, order := range orders {
		for _, n := range []int{1, 2, 3, 10, 100, 2000} {
			var s stepSet
			seen := map[int64]bool{}
			most := 0
			for i, v := range order(n) {
				if got, want := s.add(v), !seen[v]; got != want {
					t.Fatalf("%s n=%d: add(%d) at %d = %v, want %v", name, n, v, i, got, want)
				}
				seen[v] = true
				most = max(most, len(s.intervals()))
				if i%97 == 0 || i == n-1 {
					checkStepSet(t, &s, seen, fmt.Sprintf("%s n=%d after %d", name, n, i))
				}
			}
			if len(s.nodes) > most {
				t.Errorf("%s n=%d: %d nodes for at most %d intervals at once", name, n, len(s.nodes), most)
			}
		}
	}
}

func seq(n int, f func(i int) int64) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = f(i)
	}
	return v
}

// checkStepSet checks s against the values of seen (see TestStepSetOrders).
func checkStepSet(t *testing.T, s *stepSet, seen map[int64]bool, what string) {
	t.Helper()
	iv := s.intervals()
	total := 0
	for i, x := range iv {
		if x[0] > x[1] || i > 0 && x[0] <= iv[i-1][1]+1 {
			t.Fatalf("%s: intervals %v not disjoint, increasing and apart", what, iv)
		}
		total += int(x[1] - x[0] + 1)
	}
	if total != len(seen) {
		t.Fatalf("%s: intervals hold %d values, want %d", what, total, len(seen))
	}
	for v := range seen {
		if !s.contains(v) {
			t.Fatalf("%s: contains(%d) false", what, v)
		}
		for _, w := range []int64{v - 1, v + 1} {
			if s.contains(w) != seen[w] {
				t.Fatalf("%s: contains(%d) = %v", what, w, !seen[w])
			}
		}
	}
	if len(s.tail) == 0 { // intervals' order checks the tree's before the tail's
		t.Fatalf("%s: an empty tail", what)
	}
	var height func(int32) int32
	height = func(i int32) int32 {
		if i == 0 {
			return 0
		}
		n := s.at(i)
		l, r := height(n.left), height(n.right)
		if l-r > 1 || r-l > 1 || n.height != 1+max(l, r) {
			t.Fatalf("%s: node [%d, %d] heights %d, %d, stored %d", what, n.lo, n.hi, l, r, n.height)
		}
		return n.height
	}
	height(s.root)
}

// TestParseFloatFastPath: the fast path gives the same float64 as strconv.
func TestParseFloatFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	cases := []string{"0", "-0", "1.5", "0.1", "0.30000000000000004", "123456789012345", "1234567890123456",
		".5", "5.", "-.25", "1e3", "0x1p-2", "1_000", "inf", "-", ".", "", "00012.3400", "999999999999999.9"}
	for range 10000 {
		cases = append(cases, strconv.FormatFloat(rng.Float64()*math.Pow(10, float64(rng.IntN(12)-4)), 'f', rng.IntN(10), 64))
	}
	for _, s := range cases {
		got, gerr := parseFloat(s)
		want, werr := strconv.ParseFloat(s, 64)
		if !decimal.Plain(s) && !infOrNaN(s) {
			want, werr = 0, strconv.ErrSyntax // Go's other syntax is refused
		}
		if (gerr == nil) != (werr == nil) || gerr == nil && math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseFloat(%q) = %v, %v; strconv %v, %v", s, got, gerr, want, werr)
		}
	}
	for _, s := range []string{"0", "7", "123456789012345678", "1234567890123456789", "-3", "+3", "1a", ""} {
		got, gerr := parseInt(s)
		want, werr := strconv.ParseInt(s, 10, 64)
		if (gerr == nil) != (werr == nil) || got != want {
			t.Errorf("parseInt(%q) = %v, %v; strconv %v, %v", s, got, gerr, want, werr)
		}
	}
}

// TestReadTables: a table per reader for updates, runs, evals and
// throughput; rows compared through %+v (every NaN prints alike).
func TestReadTables(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name, kind, in string
		want           any
	}{
		{"updates: all columns", "updates", "run,shard,worker,time,version,staleness,apply\na,1,3,2.5,10,4,0.001\n",
			[]Update{{Run: "a", Shard: 1, Worker: 3, Time: 2.5, Version: 10, Staleness: 4, Apply: 0.001}}},
		{"updates: no apply column, other order", "updates", "staleness,version,time,worker,shard,run\n0,11,3,0,0,b\n",
			[]Update{{Run: "b", Time: 3, Version: 11, Apply: nan}}},
		{"updates: empty apply", "updates", "run,shard,worker,time,version,staleness,apply\nc,0,2,-1.5,9,7,\n",
			[]Update{{Run: "c", Worker: 2, Time: -1.5, Version: 9, Staleness: 7, Apply: nan}}},
		// mode absent: async; quoted notes keep their comma
		{"runs: all columns", "runs", "run,model,mode,param_bytes,nodes,bandwidth,dataset,epochs,framework,hardware,notes\n" +
			"a,resnet,SYNC,102400000,2,1.25e9,50000,90,tf,k80,\"one, two\"\n",
			[]RunInfo{{Run: "a", Model: "resnet", Mode: "sync", ParamBytes: 102400000, Nodes: 2, Bandwidth: 1.25e9,
				Dataset: 50000, Epochs: 90, Framework: "tf", Hardware: "k80", Notes: "one, two",
				at: throughputPos{file: "runs.csv", line: 2, modeCol: 10}}}},
		{"runs: run only", "runs", "run\nx\ny\n",
			[]RunInfo{{Run: "x", Bandwidth: nan, Epochs: nan, at: throughputPos{file: "runs.csv", line: 2}},
				{Run: "y", Bandwidth: nan, Epochs: nan, at: throughputPos{file: "runs.csv", line: 3}}}}, // mode absent: "", modeCol 0
		{"evals: time and loss", "evals", "run,time,loss\na,10,2.5\n",
			[]Eval{{Run: "a", Time: 10, Updates: -1, Loss: 2.5, Accuracy: nan}}},
		{"evals: updates and accuracy", "evals", "run,updates,accuracy\na,200,0.5\n",
			[]Eval{{Run: "a", Time: nan, Updates: 200, Loss: nan, Accuracy: 0.5}}},
		{"evals: every column, some empty", "evals", "run,time,updates,loss,accuracy\na,,7,1,\n",
			[]Eval{{Run: "a", Time: nan, Updates: 7, Loss: 1, Accuracy: nan}}},
		{"throughput: strong scaling all-reduce", "throughput", "workers,ps,global_batch,samples_per_s,mode,nodes,model,repeats,std\n8,0,256,1200.5,allreduce,2,bert,5,10\n",
			[]Throughput{{Workers: 8, GlobalBatch: 256, StepsPerS: nan, SamplesPerS: 1200.5, Mode: "allreduce", Nodes: 2,
				Model: "bert", Repeats: 5, Std: 10, at: throughputPos{file: "throughput.csv", line: 2, modeCol: 16}}}},
		{"throughput: weak scaling PS, default mode", "throughput", "workers,ps,batch,steps_per_s,run\n4,2,32,12.5,r1\n",
			[]Throughput{{Workers: 4, PS: 2, Batch: 32, StepsPerS: 12.5, SamplesPerS: nan, Mode: "async", Run: "r1", Std: nan,
				at: throughputPos{file: "throughput.csv", line: 2}}}}, // no mode column: modeCol 0
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got any
			var err error
			r := strings.NewReader(c.in)
			switch c.kind {
			case "updates":
				var rows []Update
				_, err = ReadUpdates(r, "updates.csv", func(v Update) error { rows = append(rows, v); return nil })
				got = rows
			case "runs":
				var rows []RunInfo
				_, err = ReadRuns(r, "runs.csv", func(v RunInfo) error { rows = append(rows, v); return nil })
				got = rows
			case "evals":
				var rows []Eval
				_, err = ReadEvals(r, "evals.csv", func(v Eval) error { rows = append(rows, v); return nil })
				got = rows
			case "throughput":
				var rows []Throughput
				_, err = ReadThroughput(r, "throughput.csv", func(v Throughput) error { rows = append(rows, v); return nil })
				got = rows
			}
			if err != nil {
				t.Fatal(err)
			}
			if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", c.want); g != w {
				t.Errorf("\n got %s\nwant %s", g, w)
			}
		})
	}
}

// TestCorruptGzip: a flipped byte in the compressed data or the checksum is a
// positioned "corrupt gzip stream" error.
func TestCorruptGzip(t *testing.T) {
	z := []byte(gzipString(stepsHeader + "a,1,1,1,0,0,0,1,,,,,\n"))
	z[len(z)-8] ^= 0xff // first byte of the CRC-32 trailer
	_, err := ReadSteps(bytes.NewReader(z), "steps.csv.gz", func(Step) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "traces: steps.csv.gz:") || !strings.Contains(err.Error(), "corrupt gzip stream: gzip: invalid checksum") {
		t.Errorf("error %v, want a corrupt gzip stream (invalid checksum)", err)
	}
}

// TestEvalsSameUpdatesLater: the same update count at another time is another
// evaluation (a model evaluated again before it changed: testdata/asgd/cpu
// holds such rows), not a row given twice.
func TestEvalsSameUpdatesLater(t *testing.T) {
	in := "run,time,updates,loss\na,0.012191,0,2.33102\na,1.001665,0,2.33102\nb,0.012191,0,2.33102\n"
	if n, err := readKind("evals", in); err != nil || n != 3 {
		t.Errorf("%d rows, %v; want 3 rows", n, err)
	}
}
