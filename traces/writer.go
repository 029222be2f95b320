package traces

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
)

// The writers emit the canonical files of docs/trace-format.md. Required
// columns come first, in the order of the format; an optional column is
// written only when some row has a value in it, and an absent value is an
// empty field. Floats are written in the shortest form that reads back to the
// same float64, so a write and a read give back equal rows.

// WriteSteps writes rows as steps.csv.
func WriteSteps(w io.Writer, rows []Step) error { return writeRows(w, rows, stepColumns) }

// WriteUpdates writes rows as updates.csv.
func WriteUpdates(w io.Writer, rows []Update) error { return writeRows(w, rows, updateColumns) }

// WriteRuns writes rows as runs.csv.
func WriteRuns(w io.Writer, rows []RunInfo) error { return writeRows(w, rows, runColumns) }

// WriteEvals writes rows as evals.csv. An update count below -1 (absent) is
// an error naming the row, and nothing is written.
func WriteEvals(w io.Writer, rows []Eval) error {
	if err := checkEvals(rows); err != nil {
		return err
	}
	return writeRows(w, rows, evalColumns)
}

// checkEvals refuses an eval row that evals.csv cannot hold: an update count
// below -1 was written as an empty field, as if absent.
func checkEvals(rows []Eval) error {
	for i := range rows {
		if u := rows[i].Updates; u < -1 {
			return fmt.Errorf("traces: evals.csv row %d (line %d, run %q): updates %d is negative (expected a count >= 0, or -1 when absent)", i+1, i+2, rows[i].Run, u)
		}
	}
	return nil
}

// WriteThroughput writes rows as throughput.csv.
func WriteThroughput(w io.Writer, rows []Throughput) error {
	return writeRows(w, rows, throughputColumns)
}

// TraceFile is one file WriteDir writes: its name in the folder and its rows.
type TraceFile struct {
	Name  string
	Rows  int
	write func(io.Writer) error
}

// Files lists the files WriteDir writes for t, in its order: one per kind
// of row t holds.
func (t *Trace) Files() []TraceFile {
	var out []TraceFile
	for _, f := range []struct {
		kind  Kind
		n     int
		write func(io.Writer) error
	}{
		{KindSteps, len(t.Steps), func(w io.Writer) error { return WriteSteps(w, t.Steps) }},
		{KindUpdates, len(t.Updates), func(w io.Writer) error { return WriteUpdates(w, t.Updates) }},
		{KindRuns, len(t.Runs), func(w io.Writer) error { return WriteRuns(w, t.Runs) }},
		{KindEvals, len(t.Evals), func(w io.Writer) error { return WriteEvals(w, t.Evals) }},
		{KindThroughput, len(t.Throughput), func(w io.Writer) error { return WriteThroughput(w, t.Throughput) }},
	} {
		if f.n > 0 {
			out = append(out, TraceFile{f.kind.FileName(), f.n, f.write})
		}
	}
	return out
}

// WriteDir writes each non-empty part of t into dir (created when missing) as
// steps.csv, updates.csv, runs.csv, evals.csv and throughput.csv. Each file is
// written to a temporary file in dir and renamed, so a reader never sees a
// half-written file and a failed write leaves no file behind.
// An eval row WriteEvals refuses is refused before anything is written.
func WriteDir(dir string, t *Trace) error {
	// rows no file can hold are refused before the folder is made
	if err := checkEvals(t.Evals); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("traces: %w", err)
	}
	files := t.Files()
	// a folder or another non-regular file where one of the files goes is
	// refused before any is written: no partial output
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if _, err := atomicfile.CheckFiles(dir, names...); err != nil {
		return fmt.Errorf("traces: %w", err)
	}
	// all files or none: each goes to a temporary file, and they are
	// renamed into place only when every one is written
	paths := make([]string, len(files))
	writes := make([]func(io.Writer) error, len(files))
	for i, f := range files {
		paths[i], writes[i] = filepath.Join(dir, f.Name), f.write
	}
	if err := atomicfile.WriteAll(paths, writes); err != nil {
		return fmt.Errorf("traces: %w", err)
	}
	return nil
}

// column describes how one column of a canonical file is written.
type column[T any] struct {
	name     string
	required bool
	has      func(*T) bool // for optional columns: the row has a value
	put      func([]byte, *T) []byte
}

func writeRows[T any](w io.Writer, rows []T, cols []column[T]) error {
	var use []column[T]
	for _, c := range cols {
		if c.required {
			use = append(use, c)
			continue
		}
		for i := range rows {
			if c.has(&rows[i]) {
				use = append(use, c)
				break
			}
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	for i, c := range use {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c.name...)
	}
	b = append(b, '\n')
	for i := range rows {
		for j, c := range use {
			if j > 0 {
				b = append(b, ',')
			}
			if c.required || c.has(&rows[i]) {
				b = c.put(b, &rows[i])
			}
		}
		b = append(b, '\n')
		if len(b) > 32<<10 {
			if _, err := bw.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

func putInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

func putFloat(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'g', -1, 64) }

// putString quotes s when it holds a comma, a quote, a line break or spaces at
// either end (which the reader would trim).
func putString(b []byte, s string) []byte {
	if s == "" || !strings.ContainsAny(s, ",\"\r\n") && strings.TrimSpace(s) == s {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

func isSet(v float64) bool { return !math.IsNaN(v) }

var stepColumns = []column[Step]{
	{"run", true, nil, func(b []byte, s *Step) []byte { return putString(b, s.Run) }},
	{"workers", true, nil, func(b []byte, s *Step) []byte { return putInt(b, int64(s.Workers)) }},
	{"ps", true, nil, func(b []byte, s *Step) []byte { return putInt(b, int64(s.PS)) }},
	{"batch", true, nil, func(b []byte, s *Step) []byte { return putInt(b, int64(s.Batch)) }},
	{"worker", true, nil, func(b []byte, s *Step) []byte { return putInt(b, int64(s.Worker)) }},
	{"step", true, nil, func(b []byte, s *Step) []byte { return putInt(b, s.Step) }},
	{"start", true, nil, func(b []byte, s *Step) []byte { return putFloat(b, s.Start) }},
	{"end", true, nil, func(b []byte, s *Step) []byte { return putFloat(b, s.End) }},
	{"pull", false, func(s *Step) bool { return isSet(s.Pull) }, func(b []byte, s *Step) []byte { return putFloat(b, s.Pull) }},
	{"compute", false, func(s *Step) bool { return isSet(s.Compute) }, func(b []byte, s *Step) []byte { return putFloat(b, s.Compute) }},
	{"push", false, func(s *Step) bool { return isSet(s.Push) }, func(b []byte, s *Step) []byte { return putFloat(b, s.Push) }},
	{"staleness", false, func(s *Step) bool { return s.Staleness >= 0 }, func(b []byte, s *Step) []byte { return putInt(b, int64(s.Staleness)) }},
	{"loss", false, func(s *Step) bool { return isSet(s.Loss) }, func(b []byte, s *Step) []byte { return putFloat(b, s.Loss) }},
}

var updateColumns = []column[Update]{
	{"run", true, nil, func(b []byte, u *Update) []byte { return putString(b, u.Run) }},
	{"shard", true, nil, func(b []byte, u *Update) []byte { return putInt(b, int64(u.Shard)) }},
	{"worker", true, nil, func(b []byte, u *Update) []byte { return putInt(b, int64(u.Worker)) }},
	{"time", true, nil, func(b []byte, u *Update) []byte { return putFloat(b, u.Time) }},
	{"version", true, nil, func(b []byte, u *Update) []byte { return putInt(b, u.Version) }},
	{"staleness", true, nil, func(b []byte, u *Update) []byte { return putInt(b, int64(u.Staleness)) }},
	{"apply", false, func(u *Update) bool { return isSet(u.Apply) }, func(b []byte, u *Update) []byte { return putFloat(b, u.Apply) }},
}

var runColumns = []column[RunInfo]{
	{"run", true, nil, func(b []byte, r *RunInfo) []byte { return putString(b, r.Run) }},
	{"model", false, func(r *RunInfo) bool { return r.Model != "" }, func(b []byte, r *RunInfo) []byte { return putString(b, r.Model) }},
	{"mode", false, func(r *RunInfo) bool { return r.Mode != "" }, func(b []byte, r *RunInfo) []byte { return putString(b, r.Mode) }},
	{"param_bytes", false, func(r *RunInfo) bool { return r.ParamBytes > 0 }, func(b []byte, r *RunInfo) []byte { return putInt(b, r.ParamBytes) }},
	{"nodes", false, func(r *RunInfo) bool { return r.Nodes > 0 }, func(b []byte, r *RunInfo) []byte { return putInt(b, int64(r.Nodes)) }},
	{"bandwidth", false, func(r *RunInfo) bool { return isSet(r.Bandwidth) }, func(b []byte, r *RunInfo) []byte { return putFloat(b, r.Bandwidth) }},
	{"dataset", false, func(r *RunInfo) bool { return r.Dataset > 0 }, func(b []byte, r *RunInfo) []byte { return putInt(b, r.Dataset) }},
	{"epochs", false, func(r *RunInfo) bool { return isSet(r.Epochs) }, func(b []byte, r *RunInfo) []byte { return putFloat(b, r.Epochs) }},
	{"framework", false, func(r *RunInfo) bool { return r.Framework != "" }, func(b []byte, r *RunInfo) []byte { return putString(b, r.Framework) }},
	{"hardware", false, func(r *RunInfo) bool { return r.Hardware != "" }, func(b []byte, r *RunInfo) []byte { return putString(b, r.Hardware) }},
	{"notes", false, func(r *RunInfo) bool { return r.Notes != "" }, func(b []byte, r *RunInfo) []byte { return putString(b, r.Notes) }},
}

var evalColumns = []column[Eval]{
	{"run", true, nil, func(b []byte, e *Eval) []byte { return putString(b, e.Run) }},
	{"time", false, func(e *Eval) bool { return isSet(e.Time) }, func(b []byte, e *Eval) []byte { return putFloat(b, e.Time) }},
	{"updates", false, func(e *Eval) bool { return e.Updates >= 0 }, func(b []byte, e *Eval) []byte { return putInt(b, e.Updates) }},
	{"loss", false, func(e *Eval) bool { return isSet(e.Loss) }, func(b []byte, e *Eval) []byte { return putFloat(b, e.Loss) }},
	{"accuracy", false, func(e *Eval) bool { return isSet(e.Accuracy) }, func(b []byte, e *Eval) []byte { return putFloat(b, e.Accuracy) }},
}

var throughputColumns = []column[Throughput]{
	{"workers", true, nil, func(b []byte, t *Throughput) []byte { return putInt(b, int64(t.Workers)) }},
	{"ps", true, nil, func(b []byte, t *Throughput) []byte { return putInt(b, int64(t.PS)) }},
	{"batch", false, func(t *Throughput) bool { return t.Batch > 0 }, func(b []byte, t *Throughput) []byte { return putInt(b, int64(t.Batch)) }},
	{"global_batch", false, func(t *Throughput) bool { return t.GlobalBatch > 0 }, func(b []byte, t *Throughput) []byte { return putInt(b, int64(t.GlobalBatch)) }},
	{"steps_per_s", false, func(t *Throughput) bool { return isSet(t.StepsPerS) }, func(b []byte, t *Throughput) []byte { return putFloat(b, t.StepsPerS) }},
	{"samples_per_s", false, func(t *Throughput) bool { return isSet(t.SamplesPerS) }, func(b []byte, t *Throughput) []byte { return putFloat(b, t.SamplesPerS) }},
	{"mode", false, func(t *Throughput) bool { return t.Mode != "" }, func(b []byte, t *Throughput) []byte { return putString(b, t.Mode) }},
	{"nodes", false, func(t *Throughput) bool { return t.Nodes > 0 }, func(b []byte, t *Throughput) []byte { return putInt(b, int64(t.Nodes)) }},
	{"model", false, func(t *Throughput) bool { return t.Model != "" }, func(b []byte, t *Throughput) []byte { return putString(b, t.Model) }},
	{"run", false, func(t *Throughput) bool { return t.Run != "" }, func(b []byte, t *Throughput) []byte { return putString(b, t.Run) }},
	{"repeats", false, func(t *Throughput) bool { return t.Repeats > 0 }, func(b []byte, t *Throughput) []byte { return putInt(b, int64(t.Repeats)) }},
	{"std", false, func(t *Throughput) bool { return isSet(t.Std) }, func(b []byte, t *Throughput) []byte { return putFloat(b, t.Std) }},
}
