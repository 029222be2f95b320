package traces

import "fmt"

// ParseError is bad input at a position in a file. Line and Column count from
// 1; Column 0 means the whole line, Line 0 the whole file. In a CSV file the
// Column is the byte column where the offending field starts (its opening
// quote when quoted; the byte just past the line's content for a field that
// is missing), in every reader, as encoding/csv counts it. Binary formats
// (TFRecord) have no lines: Line is 0, Record the record number (from 1) and
// Offset the record's byte offset, both also in Msg.
type ParseError struct {
	File   string
	Line   int
	Column int
	Record int   // record number from 1, for record-based binary formats; 0 when not used
	Offset int64 // byte offset; -1 or 0 when not used
	Msg    string
}

// Error formats the error with the package prefix and the position.
func (e *ParseError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("traces: %s: %s", e.File, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("traces: %s:%d: %s", e.File, e.Line, e.Msg)
	default:
		return fmt.Sprintf("traces: %s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
}
