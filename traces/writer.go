package traces

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
	"github.com/sgdplan/sgdplan/internal/words"
)

// The writers emit the canonical files of docs/trace-format.md. Required
// columns come first, in the order of the format; an optional column is
// written only when some row has a value in it, and an absent value is an
// empty field. Floats are written in the shortest form that reads back to the
// same float64, so a write and a read give back equal rows.

// The writers refuse, before writing anything, a row that the reader of its
// file would refuse or that would not read back equal: the error names the
// file, the row (from 1), its line in the file (row i is on line i+1, after
// the header), its run, the column and the value, with what was expected.
// The bounds are the readers' own (bounds.go, stepFault, evalFault,
// throughputFault, the readers' duplicate checks), so the two agree. No
// rows write the header alone (which the readers refuse as a file with no
// data rows; WriteDir writes no file for an empty part).

// WriteSteps writes rows as steps.csv.
func WriteSteps(w io.Writer, rows []Step) error { return writeFile(w, rows, &stepsFile) }

// WriteUpdates writes rows as updates.csv.
func WriteUpdates(w io.Writer, rows []Update) error { return writeFile(w, rows, &updatesFile) }

// WriteRuns writes rows as runs.csv.
func WriteRuns(w io.Writer, rows []RunInfo) error { return writeFile(w, rows, &runsFile) }

// WriteEvals writes rows as evals.csv.
func WriteEvals(w io.Writer, rows []Eval) error { return writeFile(w, rows, &evalsFile) }

// WriteThroughput writes rows as throughput.csv.
func WriteThroughput(w io.Writer, rows []Throughput) error {
	return writeFile(w, rows, &throughputFile)
}

// RowError is a row a writer refuses: one its file's reader would refuse,
// or one that would not read back equal.
type RowError struct {
	File  string // steps.csv, ...
	Row   int    // from 1; on line Row+1 of the file, after the header
	Run   string
	Field string // the column at fault
	Msg   string // the fault, "field: value ... (expected ...)"
}

func (e *RowError) Error() string {
	return fmt.Sprintf("traces: %s row %d (line %d, run %q): %s", e.File, e.Row, e.Row+1, e.Run, e.Msg)
}

// TraceFile is one file WriteDir writes: its name in the folder and its rows.
type TraceFile struct {
	Name string
	Rows int
	// prepare checks the rows (with x, against the files prepared before
	// with it) and returns the function that writes them
	prepare func(x *crossFiles) (func(io.Writer) error, error)
}

// Files lists the files WriteDir writes for t, in its order: one per kind
// of row t holds.
func (t *Trace) Files() []TraceFile {
	var out []TraceFile
	type prep = func(*crossFiles) (func(io.Writer) error, error)
	for _, f := range []struct {
		kind    Kind
		n       int
		prepare prep
	}{
		{KindSteps, len(t.Steps), func(x *crossFiles) (func(io.Writer) error, error) { return prepareFile(t.Steps, &stepsFile, x) }},
		{KindUpdates, len(t.Updates), func(x *crossFiles) (func(io.Writer) error, error) { return prepareFile(t.Updates, &updatesFile, x) }},
		{KindRuns, len(t.Runs), func(x *crossFiles) (func(io.Writer) error, error) { return prepareFile(t.Runs, &runsFile, x) }},
		{KindEvals, len(t.Evals), func(x *crossFiles) (func(io.Writer) error, error) { return prepareFile(t.Evals, &evalsFile, x) }},
		{KindThroughput, len(t.Throughput), func(x *crossFiles) (func(io.Writer) error, error) {
			return prepareFile(t.Throughput, &throughputFile, x)
		}},
	} {
		if f.n > 0 {
			out = append(out, TraceFile{f.kind.FileName(), f.n, f.prepare})
		}
	}
	return out
}

// Check returns the error WriteDir would refuse t's rows with (a
// *RowError), or nil when every row can be written. It writes nothing.
func (t *Trace) Check() error {
	x := &crossFiles{}
	for _, f := range t.Files() {
		if _, err := f.prepare(x); err != nil {
			return err
		}
	}
	return nil
}

// WriteDir writes each non-empty part of t into dir (created when missing) as
// steps.csv, updates.csv, runs.csv, evals.csv and throughput.csv. Each file is
// written to a temporary file in dir and renamed, so a reader never sees a
// half-written file and a failed write leaves no file behind.
// A row that a writer refuses (see WriteSteps), or that Load would refuse
// beside the other files (an update's worker or shard outside its run's
// workers and ps in steps.csv, a runs.csv mode that the run's ps there
// contradicts), is refused before anything is written: no folder is made
// and no file written.
func WriteDir(dir string, t *Trace) error {
	files := t.Files()
	// rows no file can hold are refused before the folder is made
	paths := make([]string, len(files))
	writes := make([]func(io.Writer) error, len(files))
	x := &crossFiles{}
	for i, f := range files {
		write, err := f.prepare(x)
		if err != nil {
			return err
		}
		paths[i], writes[i] = filepath.Join(dir, f.Name), write
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("traces: %w", err)
	}
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
	if err := atomicfile.WriteAll(paths, writes); err != nil {
		return fmt.Errorf("traces: %w", err)
	}
	return nil
}

// fileSpec is how the rows of one canonical file are checked and written.
type fileSpec[T any] struct {
	name string // steps.csv, ...
	cols []column[T]
	run  func(*T) string
	// rowCheck returns the check of the faults that involve several
	// columns or rows (the reader's), with its own state: rows[i] is
	// checked after rows[:i]. With a non-nil x it also checks the rows
	// against the files checked before with x, as Load does (and
	// registers what the files after it are checked against).
	rowCheck func(x *crossFiles) func(rows []T, i int) *rowFault
}

func writeFile[T any](w io.Writer, rows []T, spec *fileSpec[T]) error {
	write, err := prepareFile(rows, spec, nil)
	if err != nil {
		return err
	}
	return write(w)
}

// prepareFile checks rows and returns the function that writes them.
func prepareFile[T any](rows []T, spec *fileSpec[T], x *crossFiles) (func(io.Writer) error, error) {
	use := usedColumns(rows, spec.cols)
	check := spec.rowCheck(x)
	fault := func(i int, field, msg string) error {
		return &RowError{File: spec.name, Row: i + 1, Run: spec.run(&rows[i]), Field: field, Msg: msg}
	}
	for i := range rows {
		for _, c := range spec.cols {
			if m := c.check(&rows[i]); m != "" {
				return nil, fault(i, c.name, c.name+": "+m)
			}
		}
		if f := check(rows, i); f != nil {
			return nil, fault(i, f.column, f.msg)
		}
		if field, m := lineFault(&rows[i], use); m != "" {
			return nil, fault(i, field, m)
		}
	}
	return func(w io.Writer) error { return writeRows(w, rows, use) }, nil
}

// usedColumns is the columns written: the required ones and the optional
// ones some row has a value in.
func usedColumns[T any](rows []T, cols []column[T]) []column[T] {
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
	return use
}

// lineFault is the fault of a row whose record would be longer than the
// readers' MaxLineBytes (csvReader.readLine and readQuoted count the bytes
// of the record, the line breaks inside quotes included, not its own line
// ending), and the longest text field it holds. A field that is not text
// takes at most 24 bytes; the record is formatted only when its text might
// reach the limit.
func lineFault[T any](r *T, use []column[T]) (field, msg string) {
	n, longest, at := 0, -1, ""
	for _, c := range use {
		n += 25 // 24 bytes and a comma
		if c.text != nil {
			t := c.text(r)
			n += 2*len(t) + 2 // quoted, each quote doubled
			if len(t) > longest {
				longest, at = len(t), c.name
			}
		}
	}
	if n <= MaxLineBytes {
		return "", ""
	}
	b := appendRow(nil, r, use)
	if len(b) <= MaxLineBytes {
		return "", ""
	}
	return at, fmt.Sprintf("%s: the record would be %d bytes, longer than the readers' limit of %d (expected a shorter %s, %d bytes here)", at, len(b), MaxLineBytes, at, longest)
}

// column describes how one column of a canonical file is written.
type column[T any] struct {
	name     string
	required bool
	has      func(*T) bool // for optional columns: the row has a value
	put      func([]byte, *T) []byte
	check    func(*T) string // the fault of the row's value, without the column's name ("" when none)
	text     func(*T) string // for text columns: the text (nil for numbers)
}

// writeRows writes the header of the columns use and the rows.
func writeRows[T any](w io.Writer, rows []T, use []column[T]) error {
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
		b = appendRow(b, &rows[i], use)
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

// appendRow appends r's fields in the columns use, without a line end.
func appendRow[T any](b []byte, r *T, use []column[T]) []byte {
	for j, c := range use {
		if j > 0 {
			b = append(b, ',')
		}
		if c.required || c.has(r) {
			b = c.put(b, r)
		}
	}
	return b
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

// intCol is an integer column within b; an optional one holds b.absent
// as an empty field.
func intCol[T any](name string, required bool, b intBound, get func(*T) int64) column[T] {
	return column[T]{name: name, required: required,
		has: func(r *T) bool { return get(r) != b.absent },
		put: func(buf []byte, r *T) []byte { return putInt(buf, get(r)) },
		check: func(r *T) string {
			v := get(r)
			if !required && v == b.absent {
				return ""
			}
			if b.max > 0 && v > b.max {
				return b.aboveMsg(v)
			}
			if v >= b.min {
				return ""
			}
			return b.belowMsg(v, !required && b.absent < b.min)
		},
	}
}

// A floatKind is how the reader reads a float column: row.number, clock,
// duration, positive, rate, std or bandwidth.
type floatKind int

const (
	numberKind floatKind = iota
	clockKind
	durationKind
	positiveKind
	rateKind
	stdKind       // throughput.csv's std
	bandwidthKind // runs.csv's bandwidth
)

// floatCol is a float column read as kind k (what as the reader says it);
// an optional one holds NaN as an empty field.
func floatCol[T any](name string, required bool, k floatKind, what string, get func(*T) float64) column[T] {
	return column[T]{name: name, required: required,
		has:   func(r *T) bool { return isSet(get(r)) },
		put:   func(buf []byte, r *T) []byte { return putFloat(buf, get(r)) },
		check: func(r *T) string { return floatFault(get(r), required, k, what) },
	}
}

// floatFault is the fault the reader of kind k finds in v as written: the
// checks of row.number and then those of the kind, in the reader's order.
func floatFault(v float64, required bool, k floatKind, what string) string {
	if math.IsNaN(v) && !required {
		return "" // an empty field
	}
	numWhat := what
	if k == positiveKind || k == rateKind || k == bandwidthKind {
		numWhat = positiveWhat(what)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return notFiniteMsg(fmtFloat(v), numWhat)
	}
	switch k {
	case clockKind:
		return clockFault(v)
	case durationKind:
		return durationFault(v)
	case positiveKind:
		return positiveFault(v, what)
	case stdKind:
		return stdFault(v)
	case rateKind:
		if m := positiveFault(v, what); m != "" {
			return m
		}
		return rateFault(v, what)
	case bandwidthKind:
		if m := positiveFault(v, what); m != "" {
			return m
		}
		return bandwidthFault(v)
	}
	return ""
}

// textCol is a text column; an optional one holds "" as an empty field.
func textCol[T any](name string, required bool, get func(*T) string) column[T] {
	return column[T]{name: name, required: required,
		has:   func(r *T) bool { return get(r) != "" },
		put:   func(buf []byte, r *T) []byte { return putString(buf, get(r)) },
		check: func(r *T) string { return textFault(get(r), required) },
		text:  get,
	}
}

// nameCol is a text column of names (run, model): textCol, and a name the
// reader refuses (words.NameFault) is refused too.
func nameCol[T any](name string, required bool, get func(*T) string) column[T] {
	c := textCol(name, required, get)
	c.check = func(r *T) string {
		s := get(r)
		if f := textFault(s, required); f != "" {
			return f
		}
		if f := words.NameFault(s); f != "" {
			return quoteCut(s, 64) + " " + f
		}
		return ""
	}
	return c
}

// textFault is the fault of a text that would not read back as it is. The
// reader's trimming is trimField, shared; the CR LF is the CSV layer's
// (csvReader.readLine cuts a line's LF or CR LF, and readQuoted joins the
// lines of a quoted field with LF), inseparable from reading lines, so it
// is checked here.
func textFault(s string, required bool) string {
	switch {
	case s == "" && required:
		return missingMsg
	case trimField(s) != s:
		return fmt.Sprintf("%s has a space or tab at either end, which the reader trims (expected the text without it)", quoteCut(s, 64))
	case strings.Contains(s, "\r\n"):
		return fmt.Sprintf("%s holds a CR LF, which the reader reads as a line break LF (expected LF or CR alone)", quoteCut(s, 64))
	}
	return ""
}

// modeCol is a mode column; "" is an empty field (absent: runs.csv keeps
// it empty, throughput.csv reads it as async, the format's default).
func modeCol[T any](get func(*T) string) column[T] {
	return column[T]{name: "mode",
		has: func(r *T) bool { return get(r) != "" },
		put: func(buf []byte, r *T) []byte { return putString(buf, get(r)) },
		check: func(r *T) string {
			m := get(r)
			if m == "" {
				return ""
			}
			got, ok := modeOf(strings.ToLower(trimField(m)))
			switch {
			case !ok:
				return notModeMsg(m)
			case got != m:
				return fmt.Sprintf("%q reads back as %s (expected async, sync or allreduce as the reader gives it)", m, got)
			}
			return ""
		},
	}
}

var stepsFile = fileSpec[Step]{
	name: "steps.csv",
	cols: []column[Step]{
		nameCol("run", true, func(s *Step) string { return s.Run }),
		intCol("workers", true, stepInts.workers, func(s *Step) int64 { return int64(s.Workers) }),
		intCol("ps", true, stepInts.ps, func(s *Step) int64 { return int64(s.PS) }),
		intCol("batch", true, stepInts.batch, func(s *Step) int64 { return int64(s.Batch) }),
		intCol("worker", true, stepInts.worker, func(s *Step) int64 { return int64(s.Worker) }),
		intCol("step", true, stepInts.step, func(s *Step) int64 { return s.Step }),
		floatCol("start", true, clockKind, secondsWhat, func(s *Step) float64 { return s.Start }),
		floatCol("end", true, clockKind, secondsWhat, func(s *Step) float64 { return s.End }),
		floatCol("pull", false, durationKind, durationWhat, func(s *Step) float64 { return s.Pull }),
		floatCol("compute", false, durationKind, durationWhat, func(s *Step) float64 { return s.Compute }),
		floatCol("push", false, durationKind, durationWhat, func(s *Step) float64 { return s.Push }),
		intCol("staleness", false, stepInts.staleness, func(s *Step) int64 { return int64(s.Staleness) }),
		floatCol("loss", false, numberKind, lossWhat, func(s *Step) float64 { return s.Loss }),
	},
	run: func(s *Step) string { return s.Run },
	rowCheck: func(x *crossFiles) func([]Step, int) *rowFault {
		runs := newStepChecker()
		x.add("steps.csv", runs)
		return func(rows []Step, i int) *rowFault {
			s := &rows[i]
			if f := stepFault(s); f != nil {
				return f
			}
			f := runs.check(i+2, s)
			if f != nil && runs.dup { // name the first row of the key
				if j := slices.IndexFunc(rows[:i], func(p Step) bool { return p.Worker == s.Worker && p.Step == s.Step && p.Run == s.Run }); j >= 0 {
					f.msg = stepDupMsg(s, j+2)
				}
			}
			return f
		}
	},
}

var updatesFile = fileSpec[Update]{
	name: "updates.csv",
	cols: []column[Update]{
		nameCol("run", true, func(u *Update) string { return u.Run }),
		intCol("shard", true, updateInts.shard, func(u *Update) int64 { return int64(u.Shard) }),
		intCol("worker", true, updateInts.worker, func(u *Update) int64 { return int64(u.Worker) }),
		floatCol("time", true, clockKind, secondsWhat, func(u *Update) float64 { return u.Time }),
		intCol("version", true, updateInts.version, func(u *Update) int64 { return u.Version }),
		intCol("staleness", true, updateInts.staleness, func(u *Update) int64 { return int64(u.Staleness) }),
		floatCol("apply", false, durationKind, durationWhat, func(u *Update) float64 { return u.Apply }),
	},
	run: func(u *Update) string { return u.Run },
	rowCheck: func(x *crossFiles) func([]Update, int) *rowFault {
		seen := &updateChecker{runs: map[string]map[int]*stepSet{}}
		return func(rows []Update, i int) *rowFault {
			u := &rows[i]
			if f := updateStalenessFault(u); f != nil {
				return f
			}
			if st, from := x.run(u.Run); st != nil {
				if f := updateRunFault(u, st, from); f != nil {
					return f
				}
			}
			f := seen.check(u)
			if f != nil { // name the first row of the key
				if j := slices.IndexFunc(rows[:i], func(p Update) bool { return p.Shard == u.Shard && p.Version == u.Version && p.Run == u.Run }); j >= 0 {
					f.msg = updateDupMsg(u, j+2)
				}
			}
			return f
		}
	},
}

var runsFile = fileSpec[RunInfo]{
	name: "runs.csv",
	cols: []column[RunInfo]{
		nameCol("run", true, func(r *RunInfo) string { return r.Run }),
		nameCol("model", false, func(r *RunInfo) string { return r.Model }),
		modeCol(func(r *RunInfo) string { return r.Mode }),
		intCol("param_bytes", false, runInts.paramBytes, func(r *RunInfo) int64 { return r.ParamBytes }),
		intCol("nodes", false, runInts.nodes, func(r *RunInfo) int64 { return int64(r.Nodes) }),
		floatCol("bandwidth", false, bandwidthKind, bandwidthWhat, func(r *RunInfo) float64 { return r.Bandwidth }),
		intCol("dataset", false, runInts.dataset, func(r *RunInfo) int64 { return r.Dataset }),
		floatCol("epochs", false, positiveKind, epochsWhat, func(r *RunInfo) float64 { return r.Epochs }),
		textCol("framework", false, func(r *RunInfo) string { return r.Framework }),
		textCol("hardware", false, func(r *RunInfo) string { return r.Hardware }),
		textCol("notes", false, func(r *RunInfo) string { return r.Notes }),
	},
	run: func(r *RunInfo) string { return r.Run },
	rowCheck: func(x *crossFiles) func([]RunInfo, int) *rowFault {
		seen := runsSeen{}
		return func(rows []RunInfo, i int) *rowFault {
			if st, from := x.run(rows[i].Run); st != nil && rows[i].Mode != "" {
				if f := runModeFault(&rows[i], st, from); f != nil {
					return f
				}
			}
			return seen.check(rows[i].Run, i+2)
		}
	},
}

var evalsFile = fileSpec[Eval]{
	name: "evals.csv",
	cols: []column[Eval]{
		nameCol("run", true, func(e *Eval) string { return e.Run }),
		floatCol("time", false, clockKind, secondsWhat, func(e *Eval) float64 { return e.Time }),
		intCol("updates", false, evalInts.updates, func(e *Eval) int64 { return e.Updates }),
		floatCol("loss", false, numberKind, lossWhat, func(e *Eval) float64 { return e.Loss }),
		floatCol("accuracy", false, numberKind, accuracyWhat, func(e *Eval) float64 { return e.Accuracy }),
	},
	run: func(e *Eval) string { return e.Run },
	rowCheck: func(*crossFiles) func([]Eval, int) *rowFault {
		seen := evalsSeen{}
		return func(rows []Eval, i int) *rowFault {
			if f := evalFault(&rows[i]); f != nil {
				return f
			}
			return seen.check(&rows[i], i+2)
		}
	},
}

var throughputFile = fileSpec[Throughput]{
	name: "throughput.csv",
	cols: []column[Throughput]{
		intCol("workers", true, throughputInts.workers, func(t *Throughput) int64 { return int64(t.Workers) }),
		intCol("ps", true, throughputInts.ps, func(t *Throughput) int64 { return int64(t.PS) }),
		intCol("batch", false, throughputInts.batch, func(t *Throughput) int64 { return int64(t.Batch) }),
		intCol("global_batch", false, throughputInts.globalBatch, func(t *Throughput) int64 { return int64(t.GlobalBatch) }),
		floatCol("steps_per_s", false, rateKind, stepsWhat, func(t *Throughput) float64 { return t.StepsPerS }),
		floatCol("samples_per_s", false, rateKind, samplesWhat, func(t *Throughput) float64 { return t.SamplesPerS }),
		modeCol(func(t *Throughput) string { return t.Mode }),
		intCol("nodes", false, throughputInts.nodes, func(t *Throughput) int64 { return int64(t.Nodes) }),
		nameCol("model", false, func(t *Throughput) string { return t.Model }),
		nameCol("run", false, func(t *Throughput) string { return t.Run }),
		intCol("repeats", false, throughputInts.repeats, func(t *Throughput) int64 { return int64(t.Repeats) }),
		floatCol("std", false, stdKind, stdWhat, func(t *Throughput) float64 { return t.Std }),
	},
	run: func(t *Throughput) string { return t.Run },
	rowCheck: func(*crossFiles) func([]Throughput, int) *rowFault {
		return func(rows []Throughput, i int) *rowFault {
			t := rows[i] // a copy: an empty mode reads back as async
			if t.Mode == "" {
				t.Mode = "async"
			}
			return throughputFault(&t, rows[i].Mode == "")
		}
	},
}
