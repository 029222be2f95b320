package planner

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/internal/csvtext"
	"github.com/sgdplan/sgdplan/internal/decimal"
	"github.com/sgdplan/sgdplan/internal/limits"
	"github.com/sgdplan/sgdplan/internal/words"
)

// Job is one training job to be scheduled.
type Job struct {
	ID      string
	Arrival float64 // s since the start of the plan, >= 0
	Size    float64 // s of work on one worker, > 0
	Curve   Speedup // speedup curve; rate on k workers is Curve.Speedup(k)
	// MaxWorkers caps the workers the job can use; 0 means no cap.
	MaxWorkers int
	// Weight multiplies the job's flow time in weighted objectives; 0 means 1,
	// else from MinWeight to MaxWeight.
	Weight float64
	// RigidWorkers is the fixed number of workers the job holds for its whole
	// life under fcfs-rigid; 0 means MaxWorkers when that is set (at most the
	// servers), else 1.
	RigidWorkers int
}

// weight returns the job's weight with its default.
func (j *Job) weight() float64 { return j.EffectiveWeight() }

// EffectiveWeight is the weight the objectives use: Weight, or 1 when it
// is 0 (absent).
func (j Job) EffectiveWeight() float64 {
	if j.Weight == 0 {
		return 1
	}
	return j.Weight
}

// RigidTooWide names the first job whose rigid_workers exceed servers, which
// fcfs-rigid cannot place ("" when none does): plan's reader refuses such a
// job when fcfs-rigid runs; numeric and report leave that policy out.
func RigidTooWide(jobs []Job, servers float64) string {
	for _, j := range jobs {
		if float64(j.RigidWorkers) > servers {
			word := "servers"
			if servers == 1 {
				word = "server"
			}
			return fmt.Sprintf("job %q needs %d rigid workers, more than the %g %s", j.ID, j.RigidWorkers, servers, word)
		}
	}
	return ""
}

// RigidOn is the workers the job holds under fcfs-rigid on n servers:
// rigid_workers, else max_workers (at most n), else 1.
func (j *Job) RigidOn(n float64) int { return j.rigid(n) }

// rigid returns the job's rigid allocation on n servers with its default.
func (j *Job) rigid(n float64) int {
	switch {
	case j.RigidWorkers > 0:
		return j.RigidWorkers
	case j.MaxWorkers > 0:
		return int(math.Max(1, math.Min(float64(j.MaxWorkers), math.Floor(n))))
	}
	return 1
}

// ParseError is bad input at a position of a jobs file. Line and Column count
// from 1; Column 0 means the whole line, Line 0 the whole file. Column is the
// byte column where the field starts, after any spaces before it (as
// encoding/csv with TrimLeadingSpace gives it), as in traces.ParseError.
type ParseError struct {
	File   string
	Line   int
	Column int
	Msg    string
	// Err, when set, is the kind of the error for errors.Is (ErrNoCurve);
	// Msg holds the text.
	Err error
}

// Unwrap returns e.Err.
func (e *ParseError) Unwrap() error { return e.Err }

// MaxTime bounds a job's size and arrival in jobs.csv, s: 1e12 s is some
// 30,000 years, and sums of larger values (1e308) overflow the simulation's
// clock to +Inf (plan printed a table of +Inf, and numeric crashed). The
// job-trace converters of package traces write no more (limits.MaxTime).
const MaxTime = limits.MaxTime

// MinSize bounds a job's size below, s (limits.MinSize): a size of 1e-300
// made the job's slowdown +Inf, and plan and simulate --format json failed
// with "json: unsupported value: +Inf", naming no job.
const MinSize = limits.MinSize

// MinWeight and MaxWeight bound a job's weight, when it has one (limits.MinWeight,
// limits.MaxWeight): weights of 1e308 or 5e-324 overflowed or underflowed
// heSRPT's sum of the weights and gave a job NaN workers, and one of 1e300
// made the weighted flow time +Inf.
const (
	MinWeight = limits.MinWeight
	MaxWeight = limits.MaxWeight
)

// ErrNoCurve is the kind of the ParseError for a job with neither a speedup
// exponent nor a model (and no ReadOptions.DefaultP), and for a header with
// neither a p nor a model column.
var ErrNoCurve = errors.New("planner: no speedup curve")

// Error formats the error with the package prefix and the position.
func (e *ParseError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("planner: %s: %s", e.File, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("planner: %s:%d: %s", e.File, e.Line, e.Msg)
	default:
		return fmt.Sprintf("planner: %s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
}

// Resolver turns the model column of a jobs file into a speedup curve (the
// command wires it to sgdplan fit's model.json loader). A nil Resolver makes
// every model cell an error.
type Resolver func(path string) (Speedup, error)

// jobColumns are the columns ReadJobs understands; others are ignored, with
// a warning (ReadOptions.Warn).
var jobColumns = []string{"job", "arrival", "size", "p", "model", "max_workers", "weight", "rigid_workers"}

// ReadJobs reads a jobs.csv (columns job, arrival, size, p or model,
// max_workers, weight, rigid_workers, in any order, with a header row; see
// docs/planner.md). file names the input in errors. Every row has one field
// per column of the header; numbers are plain decimals (digits, at most one
// point, an optional sign and exponent). Arrivals must not decrease from one
// row to the next. Columns it does not know are ignored (ReadJobsWith can
// report them). Every row needs p or model; ReadJobsWith can supply a
// default exponent.
func ReadJobs(r io.Reader, file string, resolve Resolver) ([]Job, error) {
	jobs, _, err := ReadJobsWith(r, file, &ReadOptions{Resolve: resolve})
	return jobs, err
}

// ReadOptions are the settings of ReadJobsWith. A nil *ReadOptions means the
// zero value.
type ReadOptions struct {
	// Resolve turns the model column into a speedup curve; nil makes every
	// model cell an error.
	Resolve Resolver
	// DefaultP, in (0, 1], is the speedup exponent of the rows with neither
	// p nor model (as sgdplan convert writes them without --p); rows that
	// have one keep theirs. 0, the default, makes such a row an error
	// (ErrNoCurve), as it does the lack of both columns.
	DefaultP float64
	// Warn, when not nil, is called with a *ParseError for each column of
	// the header that ReadJobs does not know and ignores.
	Warn func(error)
	// Servers, when > 0, makes a rigid_workers above it an error at its
	// cell: fcfs-rigid could never place the job on Servers workers.
	Servers int
}

// ReadJobsWith is ReadJobs with options. It also returns the IDs of the jobs
// that got opt.DefaultP, in file order. It panics if DefaultP is set outside
// (0, 1] (a programmer error: check user input first).
func ReadJobsWith(r io.Reader, file string, opt *ReadOptions) (jobs []Job, defaulted []string, err error) {
	var o ReadOptions
	if opt != nil {
		o = *opt
	}
	if o.DefaultP != 0 && !(o.DefaultP > 0 && o.DefaultP <= 1) {
		panic(fmt.Sprintf("planner: ReadOptions.DefaultP %g outside (0, 1]", o.DefaultP))
	}
	br := bufio.NewReader(r)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		return nil, nil, &ParseError{File: file, Line: 1, Column: 1, Msg: "a gzip file: plan and simulate read plain CSV (gunzip it first)"}
	}
	if line, col, ok := jsonStart(br); ok {
		// it read as a header of unknown columns ("{", "[1") and then
		// missed the column job
		return nil, nil, &ParseError{File: file, Line: line, Column: col, Msg: "a JSON file, not a jobs.csv: want a CSV file with a header row (job, arrival, size, p or model); a model.json that sgdplan fit wrote goes in a job's model column, as its path (a header job,arrival,size,model and rows such as a,0,3600,model.json)"}
	}
	csvtext.DropBOM(br)
	lim := &limits.Reader{R: br, Rec: limits.NewRecord(MaxLineBytes), Over: tooLong(file)}
	cr := csv.NewReader(lim)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	perr := func(line, col int, format string, a ...any) *ParseError {
		return &ParseError{File: file, Line: line, Column: col, Msg: fmt.Sprintf(format, a...)}
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil, perr(0, 0, "empty file: want a header row with job, size and p or model")
	}
	if err != nil {
		return nil, nil, csvError(file, err)
	}
	hline, _ := cr.FieldPos(0) // blank lines before the header are skipped
	if strings.ContainsFunc(strings.Join(header, ","), func(r rune) bool { return r < ' ' && r != '\t' && r != '\r' }) {
		// a binary file: not a list of unknown columns
		return nil, nil, perr(hline, 1, "line %d is not text (control characters): want a CSV file with a header row (job, size and p or model)", hline)
	}
	col := map[string]int{}
	for i, h := range header {
		h = csvtext.LowerName(strings.TrimSpace(h))
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		hl, hc := cr.FieldPos(i)
		if strings.IndexByte(h, '\r') >= 0 {
			// encoding/csv ends lines at LF: a lone CR stays in the field
			return nil, nil, perr(hl, hc, "a carriage return inside the header: the file's lines end in lone CRs (old Mac style); write them as LF or CRLF")
		}
		if _, dup := col[h]; dup {
			return nil, nil, perr(hl, hc, "column %q appears twice", h)
		}
		col[h] = i
		if o.Warn != nil && !slices.Contains(jobColumns, h) {
			o.Warn(perr(hl, hc, "unknown column %q ignored (the columns: %s)", h, strings.Join(jobColumns, ", ")))
		}
	}
	for _, need := range []string{"job", "size"} {
		if _, ok := col[need]; !ok {
			sep := ""
			if other := csvtext.OtherSeparator(header); other != "" {
				// (one field: "job;arrival;size;p" named no separator)
				sep = fmt.Sprintf("; the header reads %q: separated by %s? expected commas", strings.Join(header, ","), other)
			}
			return nil, nil, perr(hline, 0, "missing column %q (columns: %s)%s", need, strings.Join(jobColumns, ", "), sep)
		}
	}
	_, hasP := col["p"]
	_, hasModel := col["model"]
	if !hasP && !hasModel && o.DefaultP == 0 {
		e := perr(hline, 0, "missing column \"p\" or \"model\": each job needs a speedup exponent or a fitted model.json")
		e.Err = ErrNoCurve
		return nil, nil, e
	}
	seen := map[string]int{}
	prevArrival := 0.0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, csvError(file, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) > len(header) {
			l, c := cr.FieldPos(len(header))
			return nil, nil, perr(l, c, "row has %d fields, more than the %d columns of the header (%s)", len(rec), len(header), headerList(header))
		}
		if len(rec) < len(header) {
			l, c := lim.Ends.PastRecord(cr, rec) // just past the line's end, where the next field should be
			return nil, nil, perr(l, c, "row ends after %d of %d fields: want one per column of the header (%s); the first missing is %q",
				len(rec), len(header), headerList(header), strings.TrimSpace(header[len(rec)]))
		}
		cell := func(name string) (string, int, bool) {
			i, ok := col[name]
			if !ok || i >= len(rec) {
				return "", 0, false
			}
			_, c := cr.FieldPos(i)
			return strings.TrimSpace(rec[i]), c, true
		}
		// fieldErr is an error at the field of column name: the line and
		// column where it starts (a field of a record that a quoted field
		// runs on across lines is on its own line, not the record's first)
		fieldErr := func(name, format string, a ...any) *ParseError {
			l, c := line, 0
			if i, ok := col[name]; ok && i < len(rec) {
				l, c = cr.FieldPos(i)
			}
			return perr(l, c, format, a...)
		}
		num := func(name string) (float64, int, bool, error) {
			s, c, ok := cell(name)
			if !ok || s == "" {
				return 0, c, false, nil
			}
			v, err := strconv.ParseFloat(s, 64)
			if !decimal.Plain(s) || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, c, true, fieldErr(name, "%s: want a finite decimal number (such as 3600, 0.5 or 1.5e3), got %q", name, s)
			}
			return v, c, true, nil
		}
		integer := func(name string) (int, error) {
			s, _, ok := cell(name)
			if !ok || s == "" {
				return 0, nil
			}
			v, err := strconv.Atoi(s)
			if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-") {
				return 0, fieldErr(name, "%s: %s is too large: want a whole number >= 1 (at most %d)", name, s, math.MaxInt)
			}
			if err != nil || v < 1 {
				return 0, fieldErr(name, "%s: want a whole number >= 1, got %q", name, s)
			}
			return v, nil
		}
		var j Job
		id, _, _ := cell("job")
		if id == "" {
			return nil, nil, fieldErr("job", "job: empty job name")
		}
		if f := words.NameFault(id); f != "" {
			return nil, nil, fieldErr("job", "job: %q %s", id, f)
		}
		if first, dup := seen[id]; dup {
			return nil, nil, fieldErr("job", "job: %q already defined on line %d", id, first)
		}
		seen[id] = line
		j.ID = id
		v, _, ok, err := num("arrival")
		if err != nil {
			return nil, nil, err
		}
		if ok {
			if v < 0 || v > MaxTime {
				return nil, nil, fieldErr("arrival", "arrival: want a time from 0 to %g s, got %g", MaxTime, v)
			}
			if v == 0 {
				v = 0 // -0 is read as 0: plan printed it back as "-0"
			}
			if v < prevArrival {
				return nil, nil, fieldErr("arrival", "arrival: %g s is before the previous job's %g s: sort the jobs by arrival", v, prevArrival)
			}
			j.Arrival = v
		} else {
			j.Arrival = prevArrival
		}
		prevArrival = j.Arrival
		v, _, ok, err = num("size")
		if err != nil {
			return nil, nil, err
		}
		if !ok || v < MinSize || v > MaxTime {
			s, _, _ := cell("size")
			return nil, nil, fieldErr("size", "size: want seconds on one worker from %g to %g, got %q", MinSize, MaxTime, s)
		}
		j.Size = v
		p, pc, hasP, err := num("p")
		if err != nil {
			return nil, nil, err
		}
		mpath, _, _ := cell("model")
		switch {
		case hasP && mpath != "":
			return nil, nil, fieldErr("model", "model: give p or model, not both")
		case hasP:
			if !(p > 0 && p <= 1) {
				s, _, _ := cell("p")
				return nil, nil, fieldErr("p", "p: want a speedup exponent in (0, 1], got %s", asWritten(s, p))
			}
			j.Curve = PowerLaw{P: p}
		case mpath != "":
			if o.Resolve == nil {
				return nil, nil, fieldErr("model", "model: %s: no model loader available", mpath)
			}
			sp, err := o.Resolve(mpath)
			if err != nil {
				return nil, nil, fieldErr("model", "model: job %q: %v", j.ID, err)
			}
			j.Curve = sp
		case o.DefaultP > 0:
			j.Curve = PowerLaw{P: o.DefaultP}
			defaulted = append(defaulted, j.ID)
		default:
			at := "p" // the p column's, else the model column's
			if pc == 0 {
				at = "model"
			}
			e := fieldErr(at, "p, model: both empty: want a speedup exponent p or a model path")
			e.Err = ErrNoCurve
			return nil, nil, e
		}
		if j.MaxWorkers, err = integer("max_workers"); err != nil {
			return nil, nil, err
		}
		if j.RigidWorkers, err = integer("rigid_workers"); err != nil {
			return nil, nil, err
		}
		if j.MaxWorkers > 0 && j.RigidWorkers > j.MaxWorkers {
			return nil, nil, fieldErr("rigid_workers", "rigid_workers: %d is above max_workers %d", j.RigidWorkers, j.MaxWorkers)
		}
		if o.Servers > 0 && j.RigidWorkers > o.Servers {
			return nil, nil, fieldErr("rigid_workers", "rigid_workers: job %q needs %d rigid workers, more than the %s", j.ID, j.RigidWorkers, words.Count(o.Servers, "server"))
		}
		v, _, ok, err = num("weight")
		if err != nil {
			return nil, nil, err
		}
		if ok {
			if !(v >= MinWeight && v <= MaxWeight) {
				s, _, _ := cell("weight")
				return nil, nil, fieldErr("weight", "weight: want a weight from %g to %g, got %s", MinWeight, MaxWeight, asWritten(s, v))
			}
			j.Weight = v
		}
		jobs = append(jobs, j)
	}
	if len(jobs) == 0 {
		return nil, nil, perr(0, 0, "no jobs: the file has a header and no rows")
	}
	return jobs, defaulted, nil
}

// asWritten is a number's text s, read as v, for an error: v as %g, or the
// text as written, quoted, when v is a 0 that the text is not (a value
// such as 1e-400 underflows to 0, and "got 0" did not say so).
func asWritten(s string, v float64) string {
	if decimal.Underflows(s, v) {
		return fmt.Sprintf("%q, which underflows to 0", s)
	}
	return fmt.Sprintf("%g", v)
}

// headerList is the header's names, trimmed, joined with commas (cut past 8).
func headerList(header []string) string {
	var names []string
	for i, h := range header {
		if i == 8 {
			names = append(names, fmt.Sprintf("and %d more", len(header)-8))
			break
		}
		names = append(names, strings.TrimSpace(h))
	}
	return strings.Join(names, ", ")
}

// csvError turns an encoding/csv error into a ParseError.
func csvError(file string, err error) error {
	var ours *ParseError
	if errors.As(err, &ours) {
		return ours
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: file, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
	}
	return &ParseError{File: file, Msg: err.Error()}
}

// MaxLineBytes is the longest line of a jobs file that is read; a longer one
// is an error, so that a file without line breaks cannot fill the memory.
const MaxLineBytes = 1 << 20

// tooLong is the error of a jobs file's record past MaxLineBytes.
func tooLong(file string) func(*limits.Record) error {
	return func(r *limits.Record) error {
		if r.Spans() {
			return &ParseError{File: file, Line: r.Start, Msg: fmt.Sprintf("record longer than %d bytes: a quoted field opened here runs on to line %d; want one job per line", MaxLineBytes, r.Line)}
		}
		return &ParseError{File: file, Line: r.Line, Msg: fmt.Sprintf("line longer than %d bytes: want one job per line", MaxLineBytes)}
	}
}

// jsonStart reports whether the first byte of br that is not white space
// (after a UTF-8 byte-order mark) opens a JSON object or array, with its
// line and column, without consuming it. Only the buffered start is looked
// at.
func jsonStart(br *bufio.Reader) (line, col int, ok bool) {
	head, _ := br.Peek(br.Size())
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	i := bytes.IndexFunc(head, func(r rune) bool { return r != ' ' && r != '\t' && r != '\r' && r != '\n' })
	if i < 0 || (head[i] != '{' && head[i] != '[') {
		return 0, 0, false
	}
	return bytes.Count(head[:i], []byte{'\n'}) + 1, i - bytes.LastIndexByte(head[:i], '\n'), true
}
