package limits

import "io"

// Reader passes R through to encoding/csv, feeding every byte to Ends
// (where the lines read end) and to Rec, and fails with Over's error once
// a record grows past Rec.Max, before encoding/csv holds it. The planner's
// jobs reader and traces' public-table readers wrap their input with one.
type Reader struct {
	R    io.Reader
	Rec  Record
	Ends LineEnds
	// Over returns the error of the record in rec, past rec.Max: one that
	// runs on across lines (rec.Spans) was opened at rec.Start by a quoted
	// field and is at rec.Line now.
	Over func(rec *Record) error
}

// Read implements io.Reader; it returns the bytes before the one that put
// a record past its bound, with Over's error.
func (l *Reader) Read(p []byte) (int, error) {
	n, err := l.R.Read(p)
	for i, b := range p[:n] {
		l.Ends.Add(b)
		if l.Rec.Add(b) {
			return i, l.Over(&l.Rec)
		}
	}
	return n, err
}
