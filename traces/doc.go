// Package traces reads every input format into the canonical trace of
// docs/trace-format.md, with errors that name file, line and column.
package traces
