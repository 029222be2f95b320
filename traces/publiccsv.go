package traces

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/internal/csvtext"
	"github.com/sgdplan/sgdplan/internal/limits"
	"github.com/sgdplan/sgdplan/internal/words"
)

// pubTable reads a CSV file with a header row by column name, for the
// fixed-schema public tables (public*.go, jobs*.go). Errors are *ParseError
// with the file, line and column of the offending field.
type pubTable struct {
	file string
	r    *csv.Reader
	lim  *limits.Reader // the bytes under r: where lines end
	// the header's line (blank lines before it are skipped)
	headLine int
	col      map[string]int
	head     []string
	rec      []string
}

// pubOpenReader starts reading a table from r; file names the input in errors.
// required lists the columns that must be present.
func pubOpenReader(file string, r io.Reader, required ...string) (*pubTable, error) {
	br := bufio.NewReader(r)
	csvtext.DropBOM(br)
	lim := &limits.Reader{R: br, Rec: limits.NewRecord(pubMaxLine), Over: pubTooLong(file)}
	cr := csv.NewReader(lim)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, &ParseError{File: file, Msg: "empty file: expected a header row"}
	}
	if err != nil {
		return nil, pubCSVError(file, err)
	}
	for i, h := range head {
		if strings.IndexByte(h, '\r') >= 0 {
			l, c := cr.FieldPos(i)
			return nil, &ParseError{File: file, Line: l, Column: c, Msg: loneCRMsg}
		}
	}
	hl, _ := cr.FieldPos(0) // blank lines before the header are skipped
	t := &pubTable{file: file, r: cr, lim: lim, headLine: hl, col: make(map[string]int, len(head))}
	for i, h := range head {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		t.head = append(t.head, h)
		if j, dup := t.col[h]; dup && h != "" {
			// which one holds the values? (the first was used, silently)
			l, c := cr.FieldPos(i)
			return nil, &ParseError{File: file, Line: l, Column: c, Msg: fmt.Sprintf("column %q repeats field %d of the header: expected each column once", h, j+1)}
		} else if !dup {
			t.col[h] = i
		}
	}
	for _, name := range required {
		if _, ok := t.col[name]; !ok {
			return nil, &ParseError{File: file, Line: hl, Msg: fmt.Sprintf("missing required column %q (%s)", name, headerText(t.head, hl))}
		}
	}
	return t, nil
}

// pubMaxLine is the longest line the public-table readers accept: a longer
// one is an error found without reading the rest of it into memory.
const pubMaxLine = 1 << 20

// pubTooLong is the error of a public table's record past pubMaxLine.
func pubTooLong(file string) func(*limits.Record) error {
	return func(r *limits.Record) error {
		if r.Spans() {
			return &ParseError{File: file, Line: r.Start, Msg: fmt.Sprintf("record longer than %d bytes: a quoted field opened here runs on to line %d; not a table of this format", pubMaxLine, r.Line)}
		}
		return &ParseError{File: file, Line: r.Line, Msg: fmt.Sprintf("line longer than %d bytes: not a table of this format", pubMaxLine)}
	}
}

// pubCSVError turns an encoding/csv error into a positioned ParseError.
func pubCSVError(file string, err error) error {
	var own *ParseError
	if errors.As(err, &own) {
		return own
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: file, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
	}
	return &ParseError{File: file, Msg: err.Error()}
}

// next reads the next data row; it returns false at the end of the file.
// Blank lines are skipped by encoding/csv.
func (t *pubTable) next() (bool, error) {
	rec, err := t.r.Read()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, pubCSVError(t.file, err)
	}
	t.rec = rec
	if len(rec) < len(t.head) {
		// just past the end of the row's last line, where the missing
		// field would start
		l, c := t.lim.Ends.PastRecord(t.r, rec)
		return false, &ParseError{File: t.file, Line: l, Column: c,
			Msg: fmt.Sprintf("row ends after %d of the header's %d fields: column %q missing", len(rec), len(t.head), t.head[len(rec)])}
	}
	if len(rec) > len(t.head) {
		l, c := t.r.FieldPos(len(t.head))
		return false, &ParseError{File: t.file, Line: l, Column: c,
			Msg: fmt.Sprintf("%d fields, expected %d as in the header", len(rec), len(t.head))}
	}
	return true, nil
}

// each calls row for every data row in turn and returns the first error,
// row's or the reader's; nil at the end of the file.
//
// A table with a header and no data row is an error ("header only"), as in
// the canonical readers.
func (t *pubTable) each(row func() error) error {
	for n := 0; ; n++ {
		ok, err := t.next()
		if err != nil {
			return err
		}
		if !ok {
			if n == 0 {
				return &ParseError{File: t.file, Msg: fmt.Sprintf("header only: no data rows after line %d", t.headLine)}
			}
			return nil
		}
		if err := row(); err != nil {
			return err
		}
	}
}

// line is the line of the current row.
func (t *pubTable) line() int {
	l, _ := t.r.FieldPos(0)
	return l
}

// errAt is a ParseError at the field of column name in the current row.
func (t *pubTable) errAt(name, format string, args ...any) error {
	i, ok := t.col[name]
	if !ok || i >= len(t.rec) {
		return &ParseError{File: t.file, Line: t.line(), Msg: fmt.Sprintf(format, args...)}
	}
	l, c := t.r.FieldPos(i)
	return &ParseError{File: t.file, Line: l, Column: c, Msg: fmt.Sprintf(format, args...)}
}

// inRange is the fault of a row whose rates lie outside what throughput.csv
// holds (rateFault, shared by its reader and writer), at the field of column
// name of the current row, which gave them; nil when they are within it.
func (t *pubTable) inRange(r *Throughput, name string) error {
	for _, c := range []struct {
		v         float64
		col, what string
	}{{r.StepsPerS, "steps_per_s", stepsWhat}, {r.SamplesPerS, "samples_per_s", samplesWhat}} {
		if m := rateFault(c.v, c.what); m != "" {
			unit := ""
			if name == "step_time" {
				unit = " s"
			}
			return t.errAt(name, "column %s: %s%s gives %s %s, which %s", name, t.str(name), unit, c.col, fmtFloat(c.v), strings.TrimPrefix(m, fmtFloat(c.v)+" "))
		}
	}
	return nil
}

// pos is the line and column of the field of column name in the current row
// (column 0 when the row has no such field).
func (t *pubTable) pos(name string) (line, col int) {
	i, ok := t.col[name]
	if !ok || i >= len(t.rec) {
		return t.line(), 0
	}
	return t.r.FieldPos(i)
}

// has reports whether the file has column name.
func (t *pubTable) has(name string) bool { _, ok := t.col[name]; return ok }

// str is the trimmed text of column name in the current row ("" when the
// column is absent; next refuses rows shorter than the header).
func (t *pubTable) str(name string) string {
	i, ok := t.col[name]
	if !ok || i >= len(t.rec) {
		return ""
	}
	return strings.TrimSpace(t.rec[i])
}

// names refuses, at its column, the first of cols whose text is no name
// (words.NameFault): the converters build the series' model names of
// them, which the throughput writer refuses.
func (t *pubTable) names(cols ...string) error {
	for _, c := range cols {
		if s := t.str(c); s != "" {
			if f := words.NameFault(s); f != "" {
				return t.errAt(c, "column %s: %q %s", c, s, f)
			}
		}
	}
	return nil
}

// float parses column name as a finite number; empty is an error.
func (t *pubTable) float(name string) (float64, error) {
	s := t.str(name)
	if s == "" {
		return 0, t.errAt(name, "column %s: expected a number, got an empty field", name)
	}
	v, err := parseFloat(s)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, t.errAt(name, "column %s: expected a finite number, got %q", name, s)
	}
	return v, nil
}

// positive parses column name as a finite number > 0.
func (t *pubTable) positive(name string) (float64, error) {
	v, err := t.float(name)
	if err != nil {
		return 0, err
	}
	if v <= 0 {
		return 0, t.errAt(name, "column %s: expected a number > 0, got %v", name, v)
	}
	return v, nil
}

// measured parses column name as a measured value in unit (e.g. "steps/s")
// that must be >= 0. A 0 is not a measurement: it comes back as skip, a
// positioned warning "column <name>: 0 <unit> <why>; skipped", for the caller
// to collect before it skips the row.
func (t *pubTable) measured(name, unit, why string) (v float64, skip, err error) {
	v, err = t.float(name)
	if err != nil {
		return 0, nil, err
	}
	if v < 0 {
		return 0, nil, t.errAt(name, "column %s: expected %s >= 0, got %v", name, unit, v)
	}
	if v == 0 {
		return 0, t.errAt(name, "column %s: 0 %s %s; skipped", name, unit, why), nil
	}
	return v, nil, nil
}

// integer parses column name as an integer >= min; a float with no fraction
// (e.g. "4.0") is accepted.
func (t *pubTable) integer(name string, min int) (int, error) {
	s := t.str(name)
	if s == "" {
		return 0, t.errAt(name, "column %s: expected an integer, got an empty field", name)
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		f, ferr := parseFloat(s)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 || !wholeText(s) {
			return 0, t.errAt(name, "column %s: expected an integer, got %q", name, s)
		}
		v = int(f)
	}
	if v < min {
		return 0, t.errAt(name, "column %s: expected an integer >= %d, got %d", name, min, v)
	}
	return v, nil
}

// pubOpenFile opens path and starts a table on it; the caller closes f.
func pubOpenFile(path string, required ...string) (*pubTable, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("traces: %w", err)
	}
	t, err := pubOpenReader(path, f, required...)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return t, f, nil
}

// pubFiles is the folder of a public dataset: fsys holds its files (os.DirFS
// of dir, or an in-memory tree in tests), dir names them in errors.
type pubFiles struct {
	fsys fs.FS
	dir  string
}

// name is how errors name rel (a slash-separated path in fsys).
func (p pubFiles) name(rel string) string { return filepath.Join(p.dir, filepath.FromSlash(rel)) }

// exists reports whether rel is in the folder.
func (p pubFiles) exists(rel string) bool {
	_, err := fs.Stat(p.fsys, rel)
	return err == nil
}

// open starts a table on rel; the caller closes the returned file.
func (p pubFiles) open(rel string, required ...string) (*pubTable, io.Closer, error) {
	f, err := p.fsys.Open(rel)
	if err != nil {
		return nil, nil, fmt.Errorf("traces: %s: %w", p.name(rel), errors.Unwrap(err))
	}
	t, err := pubOpenReader(p.name(rel), f, required...)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return t, f, nil
}

// readTableFile reads the table at path, with the required columns cols,
// row by row through read.
func readTableFile[T any](path string, cols []string, read func(*pubTable) ([]T, error)) ([]T, error) {
	t, f, err := pubOpenFile(path, cols...)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(t)
}

// readTableFrom is readTableFile on r; file names the input in errors.
func readTableFrom[T any](file string, r io.Reader, cols []string, read func(*pubTable) ([]T, error)) ([]T, error) {
	t, err := pubOpenReader(file, r, cols...)
	if err != nil {
		return nil, err
	}
	return read(t)
}
