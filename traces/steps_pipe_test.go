package traces

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The pipelined steps reader (readStepsPipelined) against the sequential
// one it replaced (readRows on one goroutine): the same steps with their
// lines, the same warnings, the same error, on many inputs, batch sizes and
// parser counts, seekable or not, with fn failing or not, and with the
// cross-file checks; and no goroutine left behind.

// errStopRead is fn's error in the tests that stop a read from fn.
var errStopRead = errors.New("fn stops the read")

// stepsOutcome reads in as o says and returns what the read gave, as text:
// each step (%+v) with its line, each warning, and the error with its type.
// stopAt > 0: fn returns errStopRead at that row. seek: the input is a
// bytes.Reader (readSteps rewinds it to name a duplicate's first line), else
// a reader that cannot seek.
func stepsOutcome(in []byte, o stepsRead, seek bool, stopAt int, dups *crossFiles, file string) string {
	var r io.Reader = bytes.NewReader(in)
	if !seek {
		r = io.MultiReader(r)
	}
	var out strings.Builder
	n := 0
	warnings, err := readStepsWith(r, file, func(s Step, line int) error {
		n++
		fmt.Fprintf(&out, "%d %+v\n", line, s)
		if n == stopAt {
			return errStopRead
		}
		return nil
	}, dups, o)
	for _, w := range warnings {
		fmt.Fprintf(&out, "warning %T %v\n", w, w)
	}
	if err != nil {
		fmt.Fprintf(&out, "error %T %v (stop %v)\n", err, err, err == errStopRead)
	}
	return out.String()
}

// stepsReads are the ways the tests read with the pipeline: the default,
// and small batches (a batch boundary every few rows) with one to three
// parsers.
var stepsReads = []stepsRead{
	{}, {batchRows: 1, parsers: 1}, {batchRows: 2, parsers: 2}, {batchRows: 3, parsers: 3},
	{batchRows: 5, parsers: 2}, {batchRows: 64, parsers: 1},
}

// compareSteps fails t unless every pipelined read of in gives what the
// sequential read gives, for fn stopping nowhere and at the rows of
// stopAts, seekable or not.
func compareSteps(t *testing.T, name string, in []byte, stopAts ...int) {
	t.Helper()
	for _, seek := range []bool{true, false} {
		for _, stop := range append([]int{0}, stopAts...) {
			want := stepsOutcome(in, stepsRead{sequential: true}, seek, stop, nil, "steps.csv")
			for _, o := range stepsReads {
				if got := stepsOutcome(in, o, seek, stop, nil, "steps.csv"); got != want {
					t.Fatalf("%s (seek %v, fn stops at row %d, %+v): the pipeline differs from the sequential read:\n got %s\nwant %s",
						name, seek, stop, o, cut(got), cut(want))
				}
			}
		}
	}
}

// cut is s, or its last 2,000 bytes.
func cut(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// stepsInputs are the steps files of the repository's test data, the seeds
// of FuzzReadSteps and the malformed rows of the tests.
func stepsInputs(t *testing.T) map[string][]byte {
	ins := map[string][]byte{}
	var paths []string
	for _, pat := range []string{"testdata/*/*steps*.csv*", "testdata/*/*/*steps*.csv*", "../testdata/*/*steps*.csv*",
		"../testdata/*/*/*steps*.csv*", "../testdata/*/*/*/*steps*.csv*", "../cmd/sgdplan/testdata/*/steps.csv"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) < 8 {
		t.Fatalf("found only %d steps files: %v", len(paths), paths)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ins[p] = b
	}
	canonical := ins["testdata/canonical/steps.csv"]
	ins["seed: gzip"] = []byte(gzipString(string(canonical)))
	ins["seed: empty"] = nil
	ins["seed: header only"] = canonical[:bytes.IndexByte(canonical, '\n')+1]
	for i, s := range []string{
		stepsHeader + "a,2,1,32,0,0,3.5,3.1,,,,,\n",
		stepsHeader + "a,1,1,1,0,0,0,1,,,,,\na,1,1,1,0,0,1,2,,,,,\n",
		"run,workers,ps,batch,worker,step,start,end\n\"x \"\"y\"\"\nz\",4.0,1,1e1,3,5,0,1\n",
		stepsHeader + "a,2,1,32,0,0,NaN,1,,,,,\n",
		"\xef\xbb\xbfend, start,step,worker,batch,ps,workers,run\r\n2, 1 ,0,0,8,0,1,\"r,1\"\r\n",
		stepsHeader + "\na,1,1,1,0,0,0,0,,,,,\n\n",
		"run,workers,ps,batch,worker,step,start,end,host\na,1,1,1,0,0,0,1,h\na,1,1,1,0,2,2,3,h\na,1,1,1,0,1,1,2,h\n",
		"\xef\xbb\xbf\nrun,workers,ps,batch,worker,step,start,end\n",
		"run,workers,ps,batch,worker,step\n",
		"run,workers,ps,batch,worker,step,start,end,run\n",
		"run\tworkers\n",
		"run,workers,ps,batch,worker,step,start,end\ra,1,1,1,0,0,0,1\r",
		"run,workers,ps,batch,worker,step,start,end\na,1,1,1,0,0,0,1\n\x1f\x8b",
		string([]byte(gzipString(stepsHeader + "a,1,1,1,0,0,0,1,,,,,\n"))[:30]),
	} {
		ins[fmt.Sprintf("seed %d", i)] = []byte(s)
	}
	return ins
}

// TestStepsPipelineSame reads the repository's steps files and the seeds
// both ways.
func TestStepsPipelineSame(t *testing.T) {
	g := runtime.NumGoroutine()
	for name, in := range stepsInputs(t) {
		compareSteps(t, name, in, 1, 2, 5)
	}
	noLeak(t, g)
}

// stepRowText is row i of the crafted files: 3 workers of run a, in order.
func stepRowText(i int) string {
	return fmt.Sprintf("a,3,1,32,%d,%d,%d.25,%d.75,0.125,0.25,0.0625,%d,%d.5\n", i%3, i/3, i, i, i%4, 100-i)
}

// TestStepsPipelineFaults puts a fault at row 1, in the middle of a batch,
// at the batch boundaries of the small batch sizes, and at the last row of a
// 40-row file, and two faults in one batch (a duplicate, a check on the rows
// before it, before a value that does not parse, and the other way round).
func TestStepsPipelineFaults(t *testing.T) {
	const rows = 40
	faults := map[string]string{
		"not a number":     "a,3,1,32,0,999,x,1,,,,,\n",
		"end before start": "a,3,1,32,0,999,5,1,,,,,\n",
		"worker range":     "a,3,1,32,7,999,0,1,,,,,\n",
		"duplicate":        "a,3,1,32,0,0,0,1,,,,,\n", // row 1's key (a row 1 fault is a parse fault then)
		"configuration":    "a,4,1,32,0,999,0,1,,,,,\n",
		"fields":           "a,3,1,32,0,999,0,1\n",
		"many fields":      "a,3,1,32,0,999,0,1,,,,,,,\n",
		"lone CR":          "a,3,1,32,0,999,0,1,,,,,\r\r\n",
		"bare quote":       "a,3,1,32,0,999,0,1,,x\"y,,,\n",
		"quoted, good":     "\"a\",3,1,\"32\",0,999,\"0\",\"1\",,,,,\n",
		"quoted, bad":      "\"a\",3,1,\"32\",0,999,\"0\",\"x\",,,,,\n",
		"quoted newline":   "\"a\nb\",3,1,32,0,999,0,1,,,,,\n",
		"quoted fields":    "\"a\",3,1,32,0,999,0,1,,,\n",
		"open quote":       "\"a,3,1,32,0,999,0,1,,,,,\n",
		"blank":            "\n",
	}
	for what, bad := range faults {
		for _, at := range []int{0, 1, 2, 3, 4, 5, 6, 9, 10, 15, 20, 31, 32, 33, rows - 1} {
			var b strings.Builder
			b.WriteString(stepsHeader)
			for i := range rows {
				if i == at {
					b.WriteString(bad)
					continue
				}
				b.WriteString(stepRowText(i))
			}
			in := b.String()
			compareSteps(t, fmt.Sprintf("%s at row %d", what, at+1), []byte(in), 1, at, at+1, rows)
			if at == 20 || at == rows-1 {
				compareSteps(t, fmt.Sprintf("%s at row %d, gzip", what, at+1), []byte(gzipString(in)), at)
			}
		}
	}
	// a duplicate (a check on the rows before) before a value that does
	// not parse, in one batch and in the next one; and after it
	for _, gap := range []int{1, 2, 3, 6} {
		for _, dupFirst := range []bool{true, false} {
			var b strings.Builder
			b.WriteString(stepsHeader)
			for i := range rows {
				switch {
				case i == 10 && dupFirst || i == 10+gap && !dupFirst:
					b.WriteString(stepRowText(4)) // a duplicate of row 5
				case i == 10+gap && dupFirst || i == 10 && !dupFirst:
					b.WriteString("a,3,1,32,0,999,0,1,,,,,oops\n")
				default:
					b.WriteString(stepRowText(i))
				}
			}
			compareSteps(t, fmt.Sprintf("duplicate first %v, gap %d", dupFirst, gap), []byte(b.String()), 5, 11)
		}
	}
	// a line longer than MaxLineBytes after a batch or two
	long := stepsHeader + stepRowText(0) + stepRowText(1) + stepRowText(2) + stepRowText(3) + "a," + strings.Repeat("1", MaxLineBytes) + "\n" + stepRowText(5)
	compareSteps(t, "long line", []byte(long))
}

// TestStepsPipelineCrossFiles reads two files with one crossFiles, as Load
// does: a step in both, and a run with another configuration in the second.
func TestStepsPipelineCrossFiles(t *testing.T) {
	var first strings.Builder
	first.WriteString(stepsHeader)
	for i := range 30 {
		first.WriteString(stepRowText(i))
	}
	seconds := map[string]string{
		"clean":         stepsHeader + "b,2,1,8,0,0,0,1,,,,,\nb,2,1,8,1,0,0,1,,,,,\n",
		"step in both":  stepsHeader + "b,2,1,8,0,0,0,1,,,,,\nb,2,1,8,1,0,0,1,,,,,\n" + stepRowText(17) + "b,2,1,8,0,1,0,1,,,,,\n",
		"configuration": stepsHeader + "b,2,1,8,0,0,0,1,,,,,\nb,2,1,8,1,0,0,1,,,,,\n" + "a,3,1,16,0,999,0,1,,,,,\n",
		"ps":            stepsHeader + "b,2,1,8,0,0,0,1,,,,,\na,3,2,32,0,999,0,1,,,,,\n",
	}
	for name, second := range seconds {
		read := func(o stepsRead) string {
			d := &crossFiles{}
			return stepsOutcome([]byte(first.String()), o, true, 0, d, "a/steps.csv") + "--\n" +
				stepsOutcome([]byte(second), o, true, 0, d, "b/steps.csv")
		}
		want := read(stepsRead{sequential: true})
		if !strings.Contains(want, "error") && name != "clean" {
			t.Fatalf("%s: no error:\n%s", name, want)
		}
		for _, o := range stepsReads {
			if got := read(o); got != want {
				t.Fatalf("%s, %+v:\n got %s\nwant %s", name, o, got, want)
			}
		}
	}
}

// TestStepsPipelineStops: a read that stops early (a fault, fn's error, the
// duplicate's second read) leaves no goroutine behind, and the pipeline
// reads only a bounded way past the row where it stopped.
func TestStepsPipelineStops(t *testing.T) {
	g := runtime.NumGoroutine()
	var b strings.Builder
	b.WriteString(stepsHeader)
	const rows = 100_000
	for i := range rows {
		b.WriteString(stepRowText(i))
	}
	in := []byte(b.String())
	cr := &countingReader{r: bytes.NewReader(in)}
	n := 0
	_, err := ReadSteps(cr, "steps.csv", func(Step) error {
		if n++; n == 3*stepBatchRows {
			return errStopRead
		}
		return nil
	})
	if err != errStopRead {
		t.Fatalf("err %v, want fn's", err)
	}
	// at most the batches in the pipe, their bytes, and the buffer under
	// the csvReader past the row where fn stopped
	if max := int64(3*stepBatchRows+8*stepBatchRows)*int64(len(stepRowText(rows))) + 2*readBufferBytes; cr.n > max {
		t.Errorf("read %d bytes of %d, more than %d", cr.n, len(in), max)
	}
	noLeak(t, g)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// noLeak fails t when more goroutines than g run a second from now.
func noLeak(t *testing.T, g int) {
	t.Helper()
	for range 100 {
		if runtime.NumGoroutine() <= g {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	buf := make([]byte, 1<<16)
	t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), g, buf[:runtime.Stack(buf, true)])
}

// A stream that cannot seek is read on the caller's goroutine: stopped by
// fn while its writer stalls (no more data, no close), ReadSteps returns at
// once. Through the pipeline it waited for the reading goroutine, held in
// a Read that never returned (a review, 2026-12-06).
func TestReadStepsStalledStream(t *testing.T) {
	var b strings.Builder
	b.WriteString("run,workers,ps,batch,worker,step,start,end\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "a,1,1,32,0,%d,%d,%d.5\n", i, i, i)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write([]byte(b.String())) // all rows, then the writer stalls
	stop := errors.New("stop")
	done := make(chan error, 1)
	go func() {
		n := 0
		_, err := ReadSteps(pr, "steps.csv", func(Step) error {
			if n++; n == 3000 {
				return stop
			}
			return nil
		})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, stop) {
			t.Errorf("ReadSteps: %v, want fn's error", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("ReadSteps did not return 5 s after fn stopped it (the stream's writer stalled)")
		pw.Close()
		<-done
	}
}

// panicReader is a seekable input whose Read panics once past n bytes.
type panicReader struct {
	*bytes.Reader
	n int64
}

func (p *panicReader) Read(b []byte) (int, error) {
	pos, _ := p.Seek(0, io.SeekCurrent)
	if pos >= p.n {
		panic("the disk went away")
	}
	return p.Reader.Read(b[:min(int64(len(b)), p.n-pos)])
}

// A Read that panics after the first batch panicked on the pipeline's
// reading goroutine, which ended the program; it now reaches the caller,
// after fn has had the rows before it, as the sequential reader's did.
func TestStepsPipelineReadPanic(t *testing.T) {
	g := runtime.NumGoroutine()
	var in strings.Builder
	in.WriteString(stepsHeader)
	for i := range 40 {
		in.WriteString(stepRowText(i))
	}
	text := in.String()
	cut := int64(strings.Index(text, stepRowText(30))) // rows 0-29 readable
	for _, o := range []stepsRead{{sequential: true}, {batchRows: 4, parsers: 2}, {batchRows: 7, parsers: 1}} {
		rows := 0
		func() {
			defer func() {
				if v := recover(); v != "the disk went away" {
					t.Errorf("%+v: recovered %v, want the reader's panic", o, v)
				}
			}()
			readStepsWith(&panicReader{bytes.NewReader([]byte(text)), cut}, "steps.csv", func(s Step, line int) error {
				rows++
				return nil
			}, nil, o)
		}()
		// the sequential reader reads ahead in its buffer; the rows fn
		// saw are those before the panic, at most the 30 readable
		if rows > 30 || (o.batchRows > 0 && rows < 30-2*o.batchRows) {
			t.Errorf("%+v: fn saw %d rows before the panic, want up to 30", o, rows)
		}
	}
	noLeak(t, g)
}
