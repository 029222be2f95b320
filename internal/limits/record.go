package limits

// Record bounds a CSV record as its bytes are read, before encoding/csv
// holds it: a line, or the lines a quoted field runs on across (counted
// from the line where the record starts, the line breaks inside it
// included), so that neither a file without line breaks nor one whose
// quote never closes can fill the memory. A line's own ending is not
// counted (a CRLF's CR either). The planner's jobs reader and traces'
// public-table readers wrap their input with one each.
type Record struct {
	Max   int // the most bytes a record may hold
	Line  int // current physical line, from 1
	Start int // line where the current record starts

	run    int  // bytes of the current record so far
	quoted bool // inside a quoted field (a doubled quote toggles twice)
	cr     bool // the last byte was a CR outside quotes, not yet counted
	broke  bool // the last byte was a line break inside quotes: Line moves on next
}

// NewRecord is a Record of at most max bytes at the first line.
func NewRecord(max int) Record { return Record{Max: max, Line: 1} }

// Add takes the next byte and reports whether the record now holds more
// than Max bytes (Spans says whether it runs on across lines).
func (r *Record) Add(b byte) bool {
	if r.broke {
		// (a break inside quotes is a byte of the line it ends)
		r.Line++
		r.broke = false
	}
	switch b {
	case '"':
		r.quoted = !r.quoted
	case '\n':
		if !r.quoted {
			r.Line++
			r.run, r.Start, r.cr = 0, r.Line, false
			return false
		}
		r.broke = true
	}
	// a CR is counted when the next byte is not the LF that ends the line
	// with it: a line of Max bytes ending in CRLF is read as one ending in
	// LF is
	if r.cr {
		r.run++
	}
	if r.cr = b == '\r' && !r.quoted; r.cr {
		return false
	}
	if r.Start == 0 {
		r.Start = r.Line
	}
	r.run++
	return r.run > r.Max
}

// Spans reports whether the current record runs on across lines (a quoted
// field opened on line Start).
func (r *Record) Spans() bool { return r.Start != r.Line }
