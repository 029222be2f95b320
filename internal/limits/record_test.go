package limits

import (
	"strings"
	"testing"
)

// feed adds s to r byte by byte and returns the index of the byte that
// took the record past Max (-1: none).
func feed(r *Record, s string) int {
	for i := 0; i < len(s); i++ {
		if r.Add(s[i]) {
			return i
		}
	}
	return -1
}

// A line of Max bytes is read whatever its ending; one more byte is not;
// a quoted field that runs on across short lines is bounded as one record
// from the line it opens on, its line breaks counted.
func TestRecord(t *testing.T) {
	for _, end := range []string{"\n", "\r\n"} {
		r := NewRecord(10)
		if i := feed(&r, "a"+end+strings.Repeat("x", 10)+end+"b"+end); i >= 0 {
			t.Errorf("ending %q: a line of 10 bytes went over at byte %d", end, i)
		}
		if r.Line != 4 || r.Spans() {
			t.Errorf("ending %q: line %d, spans %v; want 4, false", end, r.Line, r.Spans())
		}
		r = NewRecord(10)
		if i := feed(&r, "a"+end+strings.Repeat("x", 11)+end); i != len("a"+end)+10 || r.Spans() || r.Line != 2 {
			t.Errorf("ending %q: 11 bytes over at byte %d on line %d (spans %v), want the 11th byte on line 2", end, i, r.Line, r.Spans())
		}
	}
	r := NewRecord(10)
	// "q then lines of "xx\n", 2 + 3 + 3 + 3 bytes: the 11th is the break
	// ending line 4, which holds it
	if i := feed(&r, "h\n\"q"+strings.Repeat("xx\n", 4)+"\"\n"); i != 12 || !r.Spans() || r.Start != 2 || r.Line != 4 {
		t.Errorf("quoted run: over at %d, start %d, line %d, spans %v; want over, from line 2 on line 4", i, r.Start, r.Line, r.Spans())
	}
	// a doubled quote does not open a field: the next line starts anew
	r = NewRecord(10)
	if i := feed(&r, "a\"\"b\n"+strings.Repeat("x", 10)+"\n"); i >= 0 || r.Line != 3 {
		t.Errorf("doubled quote: over at %d, line %d; want none, line 3", i, r.Line)
	}
	// a lone CR is a byte of the line, counted when the next byte is not
	// an LF: 9 bytes, a CR and a "y" are 11
	r = NewRecord(10)
	if i := feed(&r, strings.Repeat("x", 9)+"\ry"); i != 10 {
		t.Errorf("lone CR: over at %d, want 10", i)
	}
}

// LineEnds gives each line's content length, its LF or CR LF not counted,
// for the lines it keeps; the last line without an ending too.
func TestLineEnds(t *testing.T) {
	var e LineEnds
	if _, ok := e.End(1); ok {
		t.Error("End before any byte: ok")
	}
	in := "ab,c\r\n\nx\"y\rz\n" + strings.Repeat("q\n", lineEndsKept) + "last\r"
	for i := 0; i < len(in); i++ {
		e.Add(in[i])
	}
	last := 3 + lineEndsKept + 1
	for _, c := range []struct{ line, want int }{{last - lineEndsKept + 1, 1}, {last - 1, 1}, {last, 4}} {
		if got, ok := e.End(c.line); !ok || got != c.want {
			t.Errorf("End(%d) = %d, %v; want %d", c.line, got, ok, c.want)
		}
	}
	for _, line := range []int{0, 1, 3, last - lineEndsKept, last + 1} {
		if got, ok := e.End(line); ok {
			t.Errorf("End(%d) = %d; want not kept", line, got)
		}
	}
	e = LineEnds{}
	for i := 0; i < len("ab,c\r\n\nx\"y\rz\n"); i++ {
		e.Add("ab,c\r\n\nx\"y\rz\n"[i])
	}
	for _, c := range []struct{ line, want int }{{1, 4}, {2, 0}, {3, 5}, {4, 0}} {
		if got, ok := e.End(c.line); !ok || got != c.want {
			t.Errorf("End(%d) = %d, %v; want %d", c.line, got, ok, c.want)
		}
	}
}
