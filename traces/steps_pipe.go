package traces

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Reading steps.csv on several cores. Most of the time of reading a large
// steps.csv goes to cutting its lines into fields and parsing the numbers,
// which need no other row; the checks that do (a run's configuration, the
// duplicate steps, the files read before) and fn are a small part. So
// readStepsPipelined reads in batches of rows: one goroutine reads the
// records (csvReader.readRecord) and copies them into a batch, a line
// without quotes as it is and a quoted record's fields unquoted; goroutines
// beside it (as many as GOMAXPROCS, at most maxStepParsers) cut the lines at
// commas and parse the batches into Steps (stepCols.parse, stepFault); and
// the calling goroutine takes the batches in file order and runs the ordered
// part (stepChecks: the checks, then fn, always on the caller's goroutine).
// A fixed number of batches circulates, so memory does not grow with the
// file. (Cutting the lines in the parsers, not in the reading goroutine,
// balances the two cores: reading the lines is the smaller part.)
//
// The result is the sequential reader's (readRows), error for error: a
// batch is parsed up to its first fault, which the caller reports only after
// checking the rows before it, so the first fault in file order wins,
// whichever stage found it; a read error or a row of the wrong field count
// ends a batch the same way. An error is positioned from the row's line and
// fields kept in its batch, by the code that positions the sequential
// reader's (csvReader.errorf). When the caller stops (a fault, fn's error),
// the goroutines stop and readStepsPipelined returns after they have: the
// input is not read after it returns (readSteps may rewind it). The reading
// goroutine may have read a few batches past the row at fault.
//
// The first batch is read and parsed on the calling goroutine, and the
// goroutines start only when the file has more rows: a small file costs
// what it did.

// stepsRead says how readSteps reads; the zero value is the pipeline with
// its default sizes.
type stepsRead struct {
	sequential bool // on the caller's goroutine only (readRows): the reader before the pipeline, for the tests
	batchRows  int  // rows per batch (0: stepBatchRows)
	parsers    int  // parsing goroutines (0: GOMAXPROCS, at most maxStepParsers)
}

const (
	// stepBatchRows is the number of rows of a batch; a batch ends earlier
	// when its fields hold stepBatchBytes bytes or stepBatchFields fields
	// (a file of long lines or many columns), so that a batch holds at
	// most that plus one record (MaxLineBytes).
	stepBatchRows   = 2048
	stepBatchBytes  = 256 << 10
	stepBatchFields = 32 << 10
	// maxStepParsers bounds the parsing goroutines: beyond a few, the one
	// that reads the lines is the bottleneck.
	maxStepParsers = 4
)

// stepBatch is a batch of rows of steps.csv: their text as read, then the
// Steps parsed from them.
type stepBatch struct {
	buf    []byte      // the text of the rows, one after the other
	rows   []rawRow    // the rows, in order
	quoted []quotedRow // the rows read with quotes
	qends  []int32     // where each field of a quoted row ends in buf
	qpos   []filePos   // where each field of a quoted row starts in the file

	// end is what ends the batch after its rows: io.EOF at the end of the
	// input, or the error that stops the read there; nil when more rows
	// follow.
	end error

	steps []Step // the rows parsed, those before the first fault
	fault error  // the fault of row len(steps), positioned; nil: all rows parsed
	ready chan struct{}
}

// rawRow is a row of a batch: the line where it starts, where its text ends
// in buf (it starts where the row before ends), and 0 for a line without
// quotes (its text is the line, cut at commas when parsed) or 1 + the index
// of its quotedRow (its text is its fields, unquoted, one after the other).
type rawRow struct {
	line int
	end  int32
	q    int32
}

// quotedRow is a record read with quotes: its fields are qends[from:to]
// and qpos[from:to]; end is where its last line ends.
type quotedRow struct {
	from, to int
	end      filePos
}

func newStepBatch() *stepBatch { return &stepBatch{ready: make(chan struct{}, 1)} }

// fill reads up to rows records into b (fewer at the end of the input, at
// an error, or when stop is set).
func (b *stepBatch) fill(c *csvReader, rows int, stop *atomic.Bool) {
	b.buf, b.rows, b.quoted, b.qends, b.qpos, b.end = b.buf[:0], b.rows[:0], b.quoted[:0], b.qends[:0], b.qpos[:0], nil
	for len(b.rows) < rows && len(b.buf) < stepBatchBytes && len(b.qends) < stepBatchFields {
		if stop != nil && stop.Load() {
			return
		}
		plain, fields, err := c.readRecord()
		if err != nil {
			b.end = err // io.EOF included
			return
		}
		r := rawRow{line: c.line}
		if plain != nil {
			b.buf = append(b.buf, plain...)
		} else {
			b.quoted = append(b.quoted, quotedRow{from: len(b.qends), to: len(b.qends) + len(fields), end: c.qend})
			for _, f := range fields {
				b.buf = append(b.buf, f...)
				b.qends = append(b.qends, int32(len(b.buf)))
			}
			b.qpos = append(b.qpos, c.qpos...)
			r.q = int32(len(b.quoted))
		}
		r.end = int32(len(b.buf))
		b.rows = append(b.rows, r)
	}
}

// readPanic ends a batch whose read panicked on the reading goroutine
// (a reader's Read that panics): the caller panics again with v, after the
// rows before it, as the sequential reader panicked on the caller's
// goroutine, where a recover can see it (on the reading goroutine it ended
// the program).
type readPanic struct{ v any }

func (r *readPanic) Error() string { return fmt.Sprint("traces: panic reading steps: ", r.v) }

// fillOrPanic is fill, a panic in it ending the batch with a readPanic.
func (b *stepBatch) fillOrPanic(c *csvReader, rows int, stop *atomic.Bool) {
	defer func() {
		if v := recover(); v != nil {
			b.end = &readPanic{v}
		}
	}()
	b.fill(c, rows, stop)
}

// record sets c to row i of b as the csvReader that read the row was just
// after reading it (its line, its fields, and where they start when
// quoted), and returns the fields, appended to dst; c.errorf then positions
// an error in the row as that reader did. The error is the one of a row that
// read or readRows refuses before parsing it: a carriage return, or a field
// count other than the header's. The fields alias b.buf.
func (b *stepBatch) record(i int, c *csvReader, h *header, dst []string) ([]string, error) {
	text := unsafe.String(unsafe.SliceData(b.buf), len(b.buf))
	start := 0
	if i > 0 {
		start = int(b.rows[i-1].end)
	}
	r := b.rows[i]
	t := text[start:r.end]
	c.line = r.line
	if r.q == 0 {
		dst = splitComma(dst, t)
		c.fields, c.qline = dst, 0
		if strings.IndexByte(t, '\r') >= 0 {
			return dst, c.loneCR(dst) // as read says it
		}
	} else {
		q := b.quoted[r.q-1]
		for _, e := range b.qends[q.from:q.to] {
			dst = append(dst, text[start:e])
			start = int(e)
		}
		c.fields, c.qline, c.qpos, c.qend = dst, c.line, b.qpos[q.from:q.to], q.end
	}
	if len(dst) != len(h.names) {
		return dst, fieldCountError(c, h, dst)
	}
	return dst, nil
}

// stepParser parses the rows of batches: one per goroutine.
type stepParser struct {
	cols   *stepCols
	h      *header
	c      csvReader // positions errors in the row being parsed
	fields []string
	r      row
}

func newStepParser(file string, bom int, h *header, cols *stepCols) *stepParser {
	p := &stepParser{cols: cols, h: h, c: csvReader{file: file, bom: bom}, fields: make([]string, 0, len(h.names))}
	p.r = row{c: &p.c, h: h}
	return p
}

// parse parses b's rows into b.steps, up to the first fault (b.fault); it
// stops early when stop is set (the batch is then dropped).
func (b *stepBatch) parse(p *stepParser, stop *atomic.Bool) {
	b.steps, b.fault = b.steps[:0], nil
	for i := range b.rows {
		if stop != nil && i&63 == 0 && stop.Load() {
			return
		}
		f, err := b.record(i, &p.c, p.h, p.fields[:0])
		p.fields = f
		if err != nil {
			b.fault = err
			return
		}
		p.r.f, p.r.err = f, nil
		s, err := p.cols.parse(&p.r)
		if err != nil {
			b.fault = rowError(&p.c, p.h, err)
			return
		}
		b.steps = append(b.steps, s)
	}
}

// rowError is err, an error of the row c has just read, as readRows returns
// it: a *rowFault positioned at its column.
func rowError(c *csvReader, h *header, err error) error {
	var rf *rowFault
	if errors.As(err, &rf) {
		return c.errorf(rf.at(h), "%s", rf.msg)
	}
	return err
}

// fieldCountError is the error of a record f that c has just read whose
// field count is not the header's.
func fieldCountError(c *csvReader, h *header, f []string) error {
	if err := c.loneCR(f); err != nil {
		return err
	}
	if len(f) < len(h.names) {
		// just past the end of the line, where the missing field
		// would start, as the public tables say it
		return c.errorf(len(f), "row ends after %d of the header's %d fields: column %q missing", len(f), len(h.names), h.names[len(f)])
	}
	return c.errorf(len(h.names), "%d fields, expected %d as in the header", len(f), len(h.names))
}

// stepPipe is the goroutines that read and parse the batches after the
// first: the batches come out of order in file order, parsed once ready
// receives; the caller hands each one back to free when done with it.
type stepPipe struct {
	stop  atomic.Bool
	done  chan struct{}
	free  chan *stepBatch
	order chan *stepBatch
	wg    sync.WaitGroup
}

// startStepPipe starts reading c's rows after those read, in batches of
// rows, parsed by parsers goroutines. batches is the number of batches the
// pipe may hold (the caller hands its first batch to free too).
func startStepPipe(c *csvReader, rows, parsers, batches int, newParser func() *stepParser) *stepPipe {
	p := &stepPipe{done: make(chan struct{}), free: make(chan *stepBatch, batches+1), order: make(chan *stepBatch, batches+1)}
	work := make(chan *stepBatch, batches+1)
	for range batches {
		p.free <- newStepBatch()
	}
	p.wg.Go(func() {
		defer close(p.order)
		defer close(work)
		for {
			var b *stepBatch
			select {
			case b = <-p.free:
			case <-p.done:
				return
			}
			b.fillOrPanic(c, rows, &p.stop)
			if p.stop.Load() {
				return
			}
			// neither blocks: the channels hold every batch
			p.order <- b
			work <- b
			if b.end != nil {
				return
			}
		}
	})
	for range parsers {
		ps := newParser()
		p.wg.Go(func() {
			for b := range work {
				b.parse(ps, &p.stop)
				b.ready <- struct{}{}
			}
		})
	}
	return p
}

// close stops the goroutines and waits for them.
func (p *stepPipe) close() {
	p.stop.Store(true)
	close(p.done)
	p.wg.Wait()
}

// readStepsPipelined is readStepsOnce on several goroutines (see above).
func readStepsPipelined(rd io.Reader, file string, fn func(s Step, line int) error, dups *crossFiles, dup **Step, o stepsRead) (warnings []error, err error) {
	c, err := newCSVReader(rd, file)
	if err != nil {
		return nil, err
	}
	h, err := c.readHeader(stepsExpect)
	if err != nil {
		return nil, err
	}
	cols, err := stepColumns(h)
	if err != nil {
		return nil, err
	}
	check := stepChecks(file, fn, dups, dup)
	warnings = h.unknown()

	rows, parsers := o.batchRows, o.parsers
	if rows <= 0 {
		rows = stepBatchRows
	}
	if parsers <= 0 {
		parsers = min(runtime.GOMAXPROCS(0), maxStepParsers)
	}
	bom := c.bom
	newParser := func() *stepParser { return newStepParser(file, bom, h, cols) }

	// the first batch on this goroutine
	b := newStepBatch()
	b.fill(c, rows, nil)
	b.parse(newParser(), nil)
	var pipe *stepPipe
	if b.end == nil && b.fault == nil {
		// reading on: c is the pipe's from here
		pipe = startStepPipe(c, rows, parsers, parsers+2, newParser)
		defer pipe.close()
	}
	pc := &csvReader{file: file, bom: bom} // positions the faults check finds
	n := 0
	for {
		for i := range b.steps {
			if err := check(&b.steps[i], b.rows[i].line); err != nil {
				b.record(i, pc, h, nil)
				return warnings, rowError(pc, h, err)
			}
			n++
		}
		if b.fault != nil {
			return warnings, b.fault
		}
		if b.end == io.EOF {
			break
		}
		if rp, ok := b.end.(*readPanic); ok {
			panic(rp.v) // (the deferred close stops the goroutines)
		}
		if b.end != nil {
			return warnings, b.end
		}
		pipe.free <- b
		b = <-pipe.order
		<-b.ready
	}
	if n == 0 {
		return warnings, &ParseError{File: file, Line: h.line, Msg: fmt.Sprintf("header only: no data rows after line %d", h.line)}
	}
	return warnings, nil
}
