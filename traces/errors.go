package traces

import "fmt"

// ParseError is bad input at a position in a file. Line and Column count from
// 1; Column 0 means the whole line, Line 0 the whole file. For binary formats
// (TFRecord) Line is the record number and Offset the byte offset.
type ParseError struct {
	File   string
	Line   int
	Column int
	Offset int64 // byte offset, for binary formats; -1 or 0 when not used
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
