package limits

import (
	"encoding/csv"
	"strings"
)

// LineEnds remembers where the last lines read end, for errors that point
// just past the end of a line (a CSV row short of fields) when the line's
// bytes are gone: encoding/csv gives where each field starts, not where
// its line ends, and does not say whether its last field was quoted. It
// sees the bytes before encoding/csv's buffered reader does, so it keeps
// the lines that reader may have read ahead (4096 bytes, so at most 4096
// lines) and some more.
type LineEnds struct {
	ends []int32 // content length of line n at ends[n%len(ends)]
	line int     // current physical line, from 1
	cur  int     // bytes of it so far
	cr   bool    // its last byte was a CR
}

// lineEndsKept is how many lines LineEnds remembers.
const lineEndsKept = 8192

// Add takes the next byte.
func (e *LineEnds) Add(b byte) {
	if e.ends == nil {
		e.ends, e.line = make([]int32, lineEndsKept), 1
	}
	if b != '\n' {
		e.cur++
		e.cr = b == '\r'
		return
	}
	n := e.cur
	if e.cr {
		n-- // a CRLF's CR: not content
	}
	e.ends[e.line%lineEndsKept] = int32(min(n, 1<<30))
	e.line++
	e.cur, e.cr = 0, false
}

// End returns the bytes of content of line (from 1) as read so far (its
// line ending, LF or CR LF, not counted; nor a CR that ends the last line of
// the input, which encoding/csv drops too), and false when the line is not
// remembered or not reached.
func (e *LineEnds) End(line int) (int, bool) {
	switch {
	case e.ends == nil || line < 1 || line > e.line || e.line-line >= lineEndsKept:
		return 0, false
	case line == e.line: // the last line, no line ending yet
		if e.cr {
			return e.cur - 1, true
		}
		return e.cur, true
	}
	return int(e.ends[line%lineEndsKept]), true
}

// PastRecord is the position (line and byte column, from 1) just past the
// content of the last line of rec, the record r read last from the bytes e
// saw: where a field missing from rec would start. When e does not keep
// that line it is just past the last field as read (which falls short of
// the line's end when the field was quoted).
func (e *LineEnds) PastRecord(r *csv.Reader, rec []string) (line, col int) {
	last := rec[len(rec)-1]
	line, col = r.FieldPos(len(rec) - 1)
	if i := strings.LastIndexByte(last, '\n'); i >= 0 { // a quoted field's line breaks
		line += strings.Count(last, "\n")
		col = len(last) - i
	} else {
		col += len(last)
	}
	if n, ok := e.End(line); ok {
		col = n + 1
	}
	return line, col
}
