package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// pos is a place in a manifest: its line and column from 1, the column in
// bytes. A column of 0 is the line alone (a YAML error the library names
// by its line), a line of 0 no place.
type pos struct{ line, col int }

// posAt is the place of the byte offset at in text.
func posAt(text string, at int) pos {
	return pos{strings.Count(text[:at], "\n") + 1, at - strings.LastIndex(text[:at], "\n")}
}

// String is "LINE:COL", "LINE" for a line alone, "" for no place.
func (p pos) String() string {
	switch {
	case p.line < 1:
		return ""
	case p.col < 1:
		return strconv.Itoa(p.line)
	}
	return fmt.Sprintf("%d:%d", p.line, p.col)
}

// in is p in the file path as messages name it: "PATH:LINE:COL", or PATH
// alone when p is no place.
func (p pos) in(path string) string {
	if p.line < 1 {
		return path
	}
	return path + ":" + p.String()
}

// before reports whether p stands before q in the file; no place stands
// after every place.
func (p pos) before(q pos) bool {
	switch {
	case p.line < 1:
		return false
	case q.line < 1:
		return true
	}
	return p.line < q.line || p.line == q.line && p.col < q.col
}

// cmp orders p and q as before does, for slices.SortStableFunc: -1 when p
// is before q, 1 when q is before p, 0 otherwise.
func (p pos) cmp(q pos) int {
	switch {
	case p.before(q):
		return -1
	case q.before(p):
		return 1
	}
	return 0
}

// offset is the byte offset of p in text; -1 when out of range.
func (p pos) offset(text string) int {
	off := 0
	for l := 1; l < p.line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	if p.line < 1 || p.col < 1 || off+p.col-1 > len(text) {
		return -1
	}
	return off + p.col - 1
}

// lastLine is the number of the last line of text: the line a final line
// break ends is none (the YAML library names the end of the stream, where
// an unclosed "[" is told, or the line below an explicit key, there).
func lastLine(text string) int {
	return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
}

// fault is an error of check's at a place in the manifest path: "check:
// PATH:LINE:COL: msg" (or "check: PATH: msg" at no place).
type fault struct {
	path string
	at   pos
	msg  string
}

func (f *fault) Error() string { return "check: " + f.at.in(f.path) + ": " + f.msg }

// faultf is a fault at at in path, its message formatted as by fmt.Sprintf.
func faultf(path string, at pos, format string, a ...any) error {
	return &fault{path, at, fmt.Sprintf(format, a...)}
}

// firstFault is the fault of faults that stands first in the file (ties,
// and faults at no place, in the order given); nil when there is none.
func firstFault(faults []error) error {
	var first error
	var firstAt pos
	for _, e := range faults {
		var f *fault
		var p pos
		if errors.As(e, &f) {
			p = f.at
		}
		if first == nil || p.before(firstAt) {
			first, firstAt = e, p
		}
	}
	return first
}
