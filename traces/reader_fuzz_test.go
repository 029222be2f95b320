package traces

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets check, for any input: no panic; an error is a
// *ParseError naming the file, with a position that is not negative, and
// reading stops there; a read that succeeds gives rows that write and read
// back equal (so the reader's checks and the writer agree, and no row keeps a
// reference to the read buffer); FuzzReadSteps also compares the pipelined
// steps reader with the sequential one (steps_pipe_test.go). Seeds: traces/testdata/canonical, the
// malformed-input table, and a gzipped file.

func addSeeds(f *testing.F, name string, extra ...string) {
	b, err := os.ReadFile(filepath.Join("testdata", "canonical", name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(gzipString(string(b))))
	f.Add([]byte(""))
	f.Add(b[:bytes.IndexByte(b, '\n')+1]) // header only
	for _, e := range extra {
		f.Add([]byte(e))
	}
}

// requirePositioned fails t unless err is nil or a *ParseError of file
// with a line and a column.
func requirePositioned(t *testing.T, err error, file string) {
	t.Helper()
	if err == nil {
		return
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != file || pe.Line < 0 || pe.Column < 0 || !strings.HasPrefix(err.Error(), "traces: "+file) {
		t.Fatalf("error %T %q is not a positioned *ParseError of %s", err, err, file)
	}
}

// fuzzRead runs one reader on in and checks the properties above.
func fuzzRead[T any](t *testing.T, in []byte, file string,
	read func(io.Reader, string, func(T) error) ([]error, error), write func(io.Writer, []T) error) {
	var rows []T
	warnings, err := read(bytes.NewReader(in), file, func(r T) error { rows = append(rows, r); return nil })
	for _, w := range append(warnings, err) {
		requirePositioned(t, w, file)
	}
	if err != nil {
		return
	}
	if len(rows) == 0 {
		t.Fatal("no rows and no error")
	}
	var buf bytes.Buffer
	if err := write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	var again []T
	if _, err := read(bytes.NewReader(buf.Bytes()), file, func(r T) error { again = append(again, r); return nil }); err != nil {
		t.Fatalf("written rows do not read back: %v\n%s", err, buf.Bytes())
	}
	// where a row was read (Throughput.Pos) is no part of the round trip:
	// the writer adds a mode column that the input may lack
	for _, rs := range [][]T{rows, again} {
		for i := range rs {
			if t, ok := any(&rs[i]).(*Throughput); ok {
				t.at = throughputPos{}
			}
			if r, ok := any(&rs[i]).(*RunInfo); ok {
				r.at = throughputPos{}
			}
		}
	}
	if g, w := fmt.Sprintf("%+v", again), fmt.Sprintf("%+v", rows); g != w {
		t.Fatalf("round trip differs:\n got %s\nwant %s", g, w)
	}
}

func FuzzReadSteps(f *testing.F) {
	addSeeds(f, "steps.csv",
		stepsHeader+"a,2,1,32,0,0,3.5,3.1,,,,,\n",
		stepsHeader+"a,1,1,1,0,0,0,1,,,,,\na,1,1,1,0,0,1,2,,,,,\n",
		"run,workers,ps,batch,worker,step,start,end\n\"x \"\"y\"\"\nz\",4.0,1,1e1,3,5,0,1\n",
		stepsHeader+"a,2,1,32,0,0,NaN,1,,,,,\n")
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzRead(t, in, "steps.csv", ReadSteps, WriteSteps)
		// the pipeline (ReadSteps) reads as the sequential reader did:
		// the same steps, lines, warnings and error, in batches of
		// the default size and of two rows (a boundary every other
		// row), with fn stopping the read or not
		for _, stop := range []int{0, 2} {
			want := stepsOutcome(in, stepsRead{sequential: true}, true, stop, nil, "steps.csv")
			for _, o := range []stepsRead{{}, {batchRows: 2, parsers: 2}} {
				if got := stepsOutcome(in, o, true, stop, nil, "steps.csv"); got != want {
					t.Fatalf("%+v, fn stops at row %d: the pipeline differs from the sequential read:\n got %s\nwant %s", o, stop, got, want)
				}
			}
		}
	})
}

func FuzzReadUpdates(f *testing.F) {
	addSeeds(f, "updates.csv", "run,shard,worker,time,version,staleness\na,0,0,1,1,-2\n")
	f.Fuzz(func(t *testing.T, in []byte) { fuzzRead(t, in, "updates.csv", ReadUpdates, WriteUpdates) })
}

func FuzzReadRuns(f *testing.F) {
	addSeeds(f, "runs.csv", "run,mode\na,asynch\n", "run,model\na,x\na,y\n", "run,notes\na,\"one, two\"\n")
	f.Fuzz(func(t *testing.T, in []byte) { fuzzRead(t, in, "runs.csv", ReadRuns, WriteRuns) })
}

func FuzzReadEvals(f *testing.F) {
	addSeeds(f, "evals.csv", "run,updates,accuracy\na,10,1.5\n", "run,time,loss\na,,1\n", "run,time,updates,loss\na,1,5,2\na,2,5,2\na,1,5,3\n")
	f.Fuzz(func(t *testing.T, in []byte) { fuzzRead(t, in, "evals.csv", ReadEvals, WriteEvals) })
}

func FuzzReadThroughput(f *testing.F) {
	addSeeds(f, "throughput.csv", "workers,ps,batch\n1,1,32\n", "workers,ps,global_batch,steps_per_s\n8,0,256,0\n")
	f.Fuzz(func(t *testing.T, in []byte) { fuzzRead(t, in, "throughput.csv", ReadThroughput, WriteThroughput) })
}

// TestCanonicalSamples reads the sample folder: row counts and values
// checked against the files.
func TestCanonicalSamples(t *testing.T) {
	tr, warnings, err := Load(filepath.Join("testdata", "canonical"))
	if err != nil || len(warnings) != 0 {
		t.Fatalf("err %v warnings %v", err, warnings)
	}
	if len(tr.Steps) != 12 || len(tr.Updates) != 12 || len(tr.Runs) != 3 || len(tr.Evals) != 9 || len(tr.Throughput) != 4 {
		t.Fatalf("rows %d %d %d %d %d", len(tr.Steps), len(tr.Updates), len(tr.Runs), len(tr.Evals), len(tr.Throughput))
	}
	// tf-cnn-benchmarks row 18: 8 GPUs, 1734 images/s
	if th := tr.Throughput[3]; th.Workers != 8 || th.SamplesPerS != 1734 || th.Batch != 64 || th.Mode != "sync" || th.Model != "ResNet-50" {
		t.Errorf("throughput row 4: %+v", th)
	}
	for _, s := range tr.Steps {
		if s.Run != "w2" || s.Workers != 2 || s.End < s.Start {
			t.Errorf("step %+v", s)
		}
	}
}
