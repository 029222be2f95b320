package traces

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"
)

// FuzzWriteReadBack: rows built from fuzzed values are either refused by
// their writer (a *RowError naming the file and a row, nothing written) or
// written so that the file's reader gives back equal rows (NaN equal to NaN,
// an empty throughput mode read as async, the format's default). Two rows a
// file, so the checks across rows (a run's configuration, duplicates) are
// reached too.
func FuzzWriteReadBack(f *testing.F) {
	for _, s := range writeSeeds {
		f.Add(s.run, s.text, s.a, s.b, s.c, s.d, s.x, s.y, s.z, s.u, s.v)
	}
	f.Fuzz(func(t *testing.T, run, text string, a, b, c, d int64, x, y, z, u, v float64) {
		writeReadBack(t, fuzzTrace(run, text, a, b, c, d, x, y, z, u, v))
	})
}

type writeSeed struct {
	run, text     string
	a, b, c, d    int64
	x, y, z, u, v float64
}

// writeSeeds: the first makes a trace every writer writes (see
// TestWriteSeedWritten); the others sit on or past bounds.
var writeSeeds = []writeSeed{
	{"a", "b", 2, 1, 1, 1, 0, 1, 0.5, 0.25, 0.125},
	{"a", "a", 2, 1, 0, 0, 0, 1, 0.5, 0.25, 0.125},                             // duplicates
	{"a", " b", 1, 0, -1, -2, -1e12, 1e12, 0, math.NaN(), 1},                   // absent values, bounds
	{"a\r\nb", "m\n", 0, -1, 2, 3, math.Inf(1), math.NaN(), -0.0, 1e-12, 1e12}, // outside
	{"x", "Sync", 3, 2, 4, 4, 5e-324, -5e-324, 1.0000000000000002, 1e300, -1},
	{"a", "b", 2, 1, 1, 1, 0, 1e15, 1e-9, 0.25, 0.125}, // runs.csv's bandwidth at its bounds
	{"a", "b", 2, 1, 1, 1, 0, 1.0000000000000001e15, 0.9e-9, 0.25, 0.125},
}

// fuzzTrace builds two rows of each file from the values.
func fuzzTrace(run, text string, a, b, c, d int64, x, y, z, u, v float64) *Trace {
	modes := []string{"", "async", "sync", "allreduce", text}
	mode := modes[(c%5+5)%5]
	return &Trace{
		Steps: []Step{
			{Run: run, Workers: int(a), PS: int(b), Batch: int(a * b), Worker: int(c) - 1, Step: d, Start: x, End: y, Pull: z, Compute: u, Push: v, Staleness: int(c) - 1, Loss: u},
			{Run: text, Workers: int(a), PS: int(b), Batch: int(a), Worker: int(d) - 1, Step: c, Start: y, End: y + z, Pull: v, Compute: z, Push: u, Staleness: int(b) - 1, Loss: z},
		},
		Updates: []Update{
			{Run: run, Shard: int(b) - 1, Worker: int(c) - 1, Time: x, Version: d, Staleness: int(c), Apply: z},
			{Run: run, Shard: int(a) - 2, Worker: int(d) - 1, Time: y, Version: c + d, Staleness: int(b), Apply: u},
		},
		Runs: []RunInfo{
			{Run: run, Model: text, Mode: mode, ParamBytes: a * 1000, Nodes: int(b), Bandwidth: y, Dataset: c, Epochs: u, Notes: text},
			{Run: text, Mode: modes[(d%5+5)%5], ParamBytes: b, Nodes: int(a), Bandwidth: z * 1e9, Dataset: d, Epochs: u, Framework: run},
		},
		Evals: []Eval{
			{Run: run, Time: x, Updates: c - 1, Loss: y, Accuracy: z},
			{Run: text, Time: u, Updates: d - 1, Loss: v, Accuracy: math.NaN()},
		},
		Throughput: []Throughput{
			{Workers: int(a), PS: int(b), Batch: int(c), StepsPerS: y, SamplesPerS: math.NaN(), Mode: mode, Nodes: int(c) - 1, Model: text, Run: run, Repeats: int(d), Std: z},
			{Workers: int(a), PS: int(b), GlobalBatch: int(a * d), StepsPerS: math.NaN(), SamplesPerS: u, Mode: modes[(d%5+5)%5], Run: text, Repeats: int(c), Std: math.NaN()},
		},
	}
}

// writeReadBack checks each file of tr and reports how many were written.
func writeReadBack(t *testing.T, tr *Trace) (written int) {
	t.Helper()
	for _, ok := range []bool{
		fileReadBack(t, "steps.csv", tr.Steps, WriteSteps, ReadSteps),
		fileReadBack(t, "updates.csv", tr.Updates, WriteUpdates, ReadUpdates),
		fileReadBack(t, "runs.csv", tr.Runs, WriteRuns, ReadRuns),
		fileReadBack(t, "evals.csv", tr.Evals, WriteEvals, ReadEvals),
		fileReadBack(t, "throughput.csv", tr.Throughput, WriteThroughput, ReadThroughput),
	} {
		if ok {
			written++
		}
	}
	return written
}

// fileReadBack writes rows with write and, unless it refuses them, reads
// them back with read; it reports whether they were written.
func fileReadBack[T any](t *testing.T, file string, rows []T,
	write func(io.Writer, []T) error, read func(io.Reader, string, func(T) error) ([]error, error)) bool {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf, rows); err != nil {
		var re *RowError
		if !errors.As(err, &re) || re.File != file || re.Row < 1 || re.Row > len(rows) || re.Field == "" {
			t.Fatalf("%s: error %T %v is not a *RowError of the file and a row", file, err, err)
		}
		if buf.Len() != 0 {
			t.Fatalf("%s: %d bytes written before the error %v", file, buf.Len(), err)
		}
		return false
	}
	var got []T
	if _, err := read(bytes.NewReader(buf.Bytes()), file, func(r T) error { got = append(got, r); return nil }); err != nil {
		t.Fatalf("%s: written, but the reader refuses it: %v\n%s", file, err, buf.Bytes())
	}
	want := append([]T(nil), rows...)
	for _, rs := range [][]T{got, want} {
		for i := range rs {
			if r, ok := any(&rs[i]).(*RunInfo); ok {
				r.at = throughputPos{}
			}
			if p, ok := any(&rs[i]).(*Throughput); ok {
				p.at = throughputPos{}
				if p.Mode == "" {
					p.Mode = "async"
				}
			}
		}
	}
	// %+v prints every NaN alike, and -0 as -0
	if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
		t.Fatalf("%s: does not read back equal:\n got %s\nwant %s\nfile:\n%s", file, g, w, buf.Bytes())
	}
	return true
}

// TestWriteSeedWritten: the first seed of FuzzWriteReadBack is written by
// every writer, so the seeds reach the read-back and not only the refusals.
func TestWriteSeedWritten(t *testing.T) {
	s := writeSeeds[0]
	if n := writeReadBack(t, fuzzTrace(s.run, s.text, s.a, s.b, s.c, s.d, s.x, s.y, s.z, s.u, s.v)); n != 5 {
		t.Errorf("%d of 5 files written", n)
	}
}
