package traces

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/sgdplan/sgdplan/internal/csvtext"
	"github.com/sgdplan/sgdplan/internal/decimal"
)

// MaxLineBytes is the longest record the canonical readers accept. A longer
// line is an error, found without reading the rest of it into memory.
const MaxLineBytes = 1 << 20

// readBufferBytes is the size of the buffered reader under a csvReader.
const readBufferBytes = 64 << 10

// csvReader reads a canonical CSV file record by record. Memory is bounded by
// MaxLineBytes plus the buffers: nothing grows with the number of rows.
//
// The canonical files are written by machines, so the reader is a hand-written
// splitter rather than encoding/csv: an unquoted line (the usual case) is
// converted to one string and cut at commas, with no other allocation, and
// quoted fields (RFC 4180, doubled quotes, embedded newlines) take a slower
// path. This keeps positioned errors exact (line and byte column) and reads
// faster than encoding/csv with ReuseRecord (docs/performance.md).
//
// The fields of an unquoted line alias the read buffer, with no copy: they are
// valid only until the next read. Everything kept beyond a row is copied
// (row.str clones, the interner clones run names, header names are cloned);
// numbers are parsed in place.
type csvReader struct {
	file   string
	br     *bufio.Reader
	gz     bool
	line   int // line number where the current record starts (1-based)
	next   int // line number of the next physical line
	ending int // bytes of the line ending readLine cut off (0, 1 or 2)
	long   []byte
	fields []string

	// Positions, for errors only (nothing on the unquoted path): bom is the
	// bytes of the byte-order mark cut off line 1 (0 or 3; columns count
	// them, as encoding/csv does). A record with quotes records where each
	// field starts (qpos, valid while qline == line) and where the content
	// of its last line ends (qend); an unquoted line's positions are
	// computed from its fields' lengths when an error needs them.
	bom   int
	qline int
	qpos  []filePos
	qend  filePos
}

// filePos is a 1-based line and byte column.
type filePos struct{ line, col int }

var gzipMagic = []byte{0x1f, 0x8b}

// newCSVReader sniffs gzip compression and returns a reader of records.
func newCSVReader(r io.Reader, file string) (*csvReader, error) {
	br := bufio.NewReaderSize(r, readBufferBytes)
	c := &csvReader{file: file, next: 1}
	head, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, &ParseError{File: file, Msg: err.Error()}
	}
	if bytes.Equal(head, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{File: file, Msg: "bad gzip header: " + err.Error() + " (expected a gzip file, by its first two bytes 1f 8b, or plain text)"}
		}
		zr.Multistream(false)
		br = bufio.NewReaderSize(&gzipMembers{br: br, zr: zr}, readBufferBytes)
		c.gz = true
	}
	c.br = br
	return c, nil
}

// errorf returns a ParseError at field i (0-based) of the current record:
// the line and 1-based byte column where the field starts (its opening quote
// when quoted). i = len(fields) is just past the end of the record's last
// line, where a missing field would be.
func (c *csvReader) errorf(i int, format string, args ...any) *ParseError {
	p := c.fieldPos(i)
	return c.errorAt(p, format, args...)
}

// errorAt returns a ParseError at p.
func (c *csvReader) errorAt(p filePos, format string, args ...any) *ParseError {
	return &ParseError{File: c.file, Line: p.line, Column: p.col, Msg: fmt.Sprintf(format, args...)}
}

// fieldPos is where field i (0-based) of the current record starts; i =
// len(fields) is just past the end of the record's last line. It costs a
// pass over the fields before i, and is meant for errors.
func (c *csvReader) fieldPos(i int) filePos {
	if i < 0 {
		return filePos{c.line, 0} // no field: the whole line
	}
	if c.qline == c.line && c.line > 0 {
		if i < len(c.qpos) {
			return c.qpos[i]
		}
		return c.qend
	}
	// an unquoted line: the fields are its bytes cut at commas (a
	// byte-order mark is a part of the first, as encoding/csv reads it)
	col := 1
	if c.line == 1 && i > 0 {
		col += c.bom
	}
	for j := 0; j < i && j < len(c.fields); j++ {
		col += len(c.fields[j]) + 1
	}
	if i >= len(c.fields) && len(c.fields) > 0 {
		col-- // no comma after the last field
	}
	return filePos{c.line, col}
}

// fieldPositions is fieldPos(i) for each of the first n fields of the
// current record (n <= len(fields)), in one pass. readHeader keeps every
// column's position: calling fieldPos per column made an unquoted header of
// n columns cost O(n²) (160,000 unknown columns in a 0.96 MB steps.csv took
// 26 s).
func (c *csvReader) fieldPositions(n int) []filePos {
	pos := make([]filePos, n)
	if c.qline == c.line && c.line > 0 {
		copy(pos, c.qpos)
		return pos
	}
	bom := 0
	if c.line == 1 {
		bom = c.bom
	}
	col := 1
	for i := range pos {
		pos[i] = filePos{c.line, col}
		col += len(c.fields[i]) + 1
		if i == 0 {
			col += bom // a part of the first field (see fieldPos)
		}
	}
	return pos
}

// readLine returns the next physical line without its line ending. The slice
// is valid until the next call. At the end of the input it returns io.EOF.
func (c *csvReader) readLine() ([]byte, error) {
	b, err := c.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		c.long = append(c.long[:0], b...)
		for err == bufio.ErrBufferFull {
			if len(c.long) > MaxLineBytes {
				return nil, c.longLine(c.long)
			}
			b, err = c.br.ReadSlice('\n')
			c.long = append(c.long, b...)
		}
		b = c.long
	}
	if err != nil && err != io.EOF {
		return nil, c.readError(err)
	}
	if err == io.EOF && len(b) == 0 {
		return nil, io.EOF
	}
	n := len(b)
	b = bytes.TrimSuffix(b, []byte{'\n'})
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if len(b) > MaxLineBytes {
		// the limit is on the line without its ending (a line of
		// MaxLineBytes+1 before LF, or at the end of the file, was read)
		return nil, c.longLine(b)
	}
	c.next++
	c.ending = n - len(b)
	return b, nil
}

// longLine is the error of a line longer than MaxLineBytes, b its start; a
// line that holds carriage returns is a file whose lines end in a lone CR.
func (c *csvReader) longLine(b []byte) error {
	msg := fmt.Sprintf("line longer than %d bytes", MaxLineBytes)
	if bytes.IndexByte(bytes.TrimSuffix(b, []byte{'\r'}), '\r') >= 0 {
		// a CR at b's end may be a CRLF's, cut off at the limit
		msg += "; it holds a " + loneCRMsg
	}
	return &ParseError{File: c.file, Line: c.next, Msg: msg}
}

// errGzipTrailing is bytes after a gzip stream that start no gzip member.
var errGzipTrailing = errors.New("gzip trailing bytes")

// gzipMembers reads the members of a gzip file one after the other (as
// gzip's multistream mode does), but says errGzipTrailing, not a truncated
// stream, when bytes that are not a gzip member follow the last member.
type gzipMembers struct {
	br *bufio.Reader
	zr *gzip.Reader
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		// the end of a member: the end of the file, or another member
		head, perr := g.br.Peek(2)
		switch {
		case len(head) == 0 && perr == io.EOF:
			return n, io.EOF
		case !bytes.Equal(head, gzipMagic):
			return n, errGzipTrailing
		}
		if err := g.zr.Reset(g.br); err != nil {
			return n, err
		}
		g.zr.Multistream(false)
		if n > 0 {
			return n, nil
		}
	}
}

// readError turns an error of the underlying reader into a positioned one.
func (c *csvReader) readError(err error) error {
	switch {
	case errors.Is(err, errGzipTrailing):
		return &ParseError{File: c.file, Line: c.next, Msg: "bytes after the end of the gzip stream that are not gzip data (expected the end of the file or another gzip member)"}
	case c.gz && errors.Is(err, io.ErrUnexpectedEOF):
		return &ParseError{File: c.file, Line: c.next, Msg: "truncated gzip stream (the compressed data ends early)"}
	case c.gz: // gzip.ErrChecksum, gzip.ErrHeader, flate.CorruptInputError
		return &ParseError{File: c.file, Line: c.next, Msg: "corrupt gzip stream: " + err.Error() + " (expected a whole gzip file: cut short, or damaged?)"}
	}
	return &ParseError{File: c.file, Line: c.next, Msg: err.Error()}
}

// read returns the fields of the next non-blank record, reusing the slice. It
// returns io.EOF at the end of the input.
func (c *csvReader) read() ([]string, error) {
	b, fields, err := c.readRecord()
	if b == nil {
		return fields, err
	}
	c.fields = splitComma(c.fields[:0], unsafe.String(unsafe.SliceData(b), len(b)))
	if bytes.IndexByte(b, '\r') >= 0 {
		// a line end, whatever the field count (see loneCR)
		return nil, c.loneCR(c.fields)
	}
	return c.fields, nil
}

// readRecord reads the next non-blank record. A line without quotes comes
// back as it is, in plain (valid until the next read), for the caller to
// cut at commas and to refuse with a carriage return, as read does; a record
// with quotes comes back cut into fields (plain is nil). It returns io.EOF
// at the end of the input.
func (c *csvReader) readRecord() (plain []byte, fields []string, err error) {
	for {
		c.line = c.next
		b, err := c.readLine()
		if err != nil {
			return nil, nil, err
		}
		if c.line == 1 {
			// before the blank test: a byte-order mark alone on line 1
			// is a blank line (it was a record of one empty field, a
			// header with an empty column name)
			n := len(b)
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // UTF-8 byte-order mark
			c.bom = n - len(b)
		}
		if len(b) == 0 {
			continue
		}
		if bytes.IndexByte(b, '"') < 0 {
			return b, nil, nil
		}
		fields, err := c.readQuoted(b)
		return nil, fields, err
	}
}

// splitComma appends the comma-separated fields of s to dst.
func splitComma(dst []string, s string) []string {
	for {
		i := strings.IndexByte(s, ',')
		if i < 0 {
			return append(dst, s)
		}
		dst = append(dst, s[:i])
		s = s[i+1:]
	}
}

// readQuoted parses a record that contains quotes, reading more lines while a
// quoted field is open. The record as a whole is bounded by MaxLineBytes,
// the line endings inside it counted (not the one after it, as for a line).
// It records where each field starts (qpos) and where the record's last line
// ends (qend), for errors.
func (c *csvReader) readQuoted(first []byte) ([]string, error) {
	c.fields = c.fields[:0]
	c.qpos = c.qpos[:0]
	c.qline = c.line
	var field strings.Builder
	line := first
	total := len(first)
	// the physical line being cut (its number) and the byte-order mark cut
	// off it, a part of its first field, as encoding/csv reads it
	num, full, bom := c.line, first, 0
	if num == 1 {
		bom = c.bom
	}
	here := func() filePos {
		if off := len(full) - len(line); off > 0 {
			return filePos{num, off + bom + 1}
		}
		return filePos{num, 1}
	}
	for {
		// start of a field
		at := here()
		c.qpos = append(c.qpos, at)
		if len(line) > 0 && line[0] == '"' {
			line = line[1:]
			for {
				i := bytes.IndexByte(line, '"')
				if i < 0 {
					// the quoted field continues on the next line
					field.Write(line)
					field.WriteByte('\n')
					brk := c.ending // the line ending inside the field
					next, err := c.readLine()
					if err == io.EOF {
						return nil, c.errorAt(at, "quoted field not closed before the end of the file")
					}
					if err != nil {
						return nil, err
					}
					total += brk + len(next)
					if total > MaxLineBytes {
						return nil, c.errorAt(at, "record longer than %d bytes", MaxLineBytes)
					}
					line = next
					num, full, bom = num+1, next, 0
					continue
				}
				field.Write(line[:i])
				line = line[i+1:]
				if len(line) > 0 && line[0] == '"' {
					field.WriteByte('"')
					line = line[1:]
					continue
				}
				break
			}
			if len(line) > 0 && line[0] == '\r' {
				return nil, c.errorAt(at, "%s", loneCRMsg)
			}
			if len(line) > 0 && line[0] != ',' {
				return nil, c.errorAt(at, "unexpected %q after a closing quote; expected ',' or the end of the line", line[0])
			}
		} else {
			i := bytes.IndexByte(line, ',')
			if i < 0 {
				i = len(line)
			}
			if bytes.IndexByte(line[:i], '\r') >= 0 {
				return nil, c.errorAt(at, "%s", loneCRMsg) // a line end, which a bare quote may follow
			}
			if j := bytes.IndexByte(line[:i], '"'); j >= 0 {
				return nil, c.errorAt(at, "bare quote in an unquoted field; quote the whole field and double the quote")
			}
			field.Write(line[:i])
			line = line[i:]
		}
		c.fields = append(c.fields, field.String())
		field.Reset()
		if len(line) == 0 {
			c.qend = here()
			return c.fields, nil
		}
		line = line[1:] // the comma
	}
}

// header maps the column names of a file to their positions.
type header struct {
	file  string
	line  int // the header's line (blank lines may come before it)
	names []string
	pos   []filePos // where each name starts, for warnings
	index map[string]int
	used  []bool
}

// readHeader reads the header row. An empty input is an error that says what
// the file should start with.
func (c *csvReader) readHeader(expect string) (*header, error) {
	rec, err := c.read()
	if err == io.EOF {
		return nil, &ParseError{File: c.file, Msg: "empty file: expected a header row (" + expect + ")"}
	}
	if err != nil {
		return nil, err
	}
	if err := c.loneCR(rec); err != nil {
		return nil, err
	}
	h := &header{file: c.file, line: c.line, index: make(map[string]int, len(rec)), used: make([]bool, len(rec)), pos: c.fieldPositions(len(rec))}
	for i, name := range rec {
		name = strings.Clone(csvtext.LowerName(strings.TrimSpace(name)))
		if name == "" {
			return nil, c.errorAt(h.pos[i], "empty column name in the header")
		}
		if j, dup := h.index[name]; dup {
			return nil, c.errorAt(h.pos[i], "column %q repeats column %d", name, j+1)
		}
		h.index[name] = i
		h.names = append(h.names, name)
	}
	return h, nil
}

// loneCRMsg says what a carriage return inside a record means.
const loneCRMsg = "carriage return (CR) inside the line: the file's lines end in a lone CR (classic Mac); expected LF or CRLF line ends (tr '\\r' '\\n' converts it)"

// loneCR returns an error at the first field of rec that holds a carriage
// return: lines end in LF or CRLF (both removed by readLine), so a CR left
// inside a record means lines that end in a lone CR, read as one line.
// read refuses a CR in an unquoted field (or just after a closing quote),
// whatever the record's field count: such a CR in a row of the header's
// count read as a part of the value ("2\r is not a number"). A CR inside
// quotes is data, which the writers write for a text holding one; the
// header, and a row whose field count is wrong, are refused for one there
// too (it likely explains the count).
func (c *csvReader) loneCR(rec []string) error {
	for i, f := range rec {
		if strings.IndexByte(f, '\r') >= 0 {
			return c.errorf(i, "%s", loneCRMsg)
		}
	}
	return nil
}

// col returns the position of a column, or -1 when absent. A required column
// that is absent is an error.
func (h *header) col(name string, required bool, errp *error) int {
	i, ok := h.index[name]
	if !ok {
		if required && *errp == nil {
			*errp = &ParseError{File: h.file, Line: h.line, Msg: fmt.Sprintf("missing required column %q (%s)", name, headerText(h.names, h.line))}
		}
		return -1
	}
	h.used[i] = true
	return i
}

// headerText describes the header row on line line for an error message:
// "header has a,b,c" when it is printable text, cut at 200 bytes; quoted
// with a question when it holds tabs (a tab-separated file, which reads as
// one column); else "line N is not text" and the first 32 bytes quoted with
// Go escapes (%q), so that a binary file given by mistake does not print
// raw bytes to the terminal. (A tab is text: a tab-separated header was
// called "not text", and the line was always 1, even after blank lines.)
func headerText(names []string, line int) string {
	s := strings.Join(names, ",")
	if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return r != '\t' && !unicode.IsPrint(r) }) >= 0 {
		return fmt.Sprintf("line %d is not text: not a CSV file? It starts %s", line, quoteCut(s, 32))
	}
	switch csvtext.OtherSeparator(names) {
	case "tabs":
		return fmt.Sprintf("header has %s: tab-separated? expected columns separated by commas", quoteCut(s, 200))
	case "semicolons":
		return fmt.Sprintf("header has %s: separated by semicolons? expected columns separated by commas", quoteCut(s, 200))
	}
	if len(s) > 200 {
		return "header has " + quoteCut(s, 200)
	}
	return "header has " + s
}

// quoteCut is s quoted (%q), cut to its first n bytes with "..." when longer.
func quoteCut(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:n]) + "..."
}

// maxUnknownWarnings is the most unknown columns warned about one by one;
// past it they are one warning (a header of 160,000 unknown columns wrote
// 160,000 lines to stderr).
const maxUnknownWarnings = 10

// unknownNamed is how many unknown columns the one warning of many names.
const unknownNamed = 5

// unknown returns a warning per column that no field of the kind reads, or,
// past maxUnknownWarnings of them, one warning at the first that names a
// few and counts the rest.
func (h *header) unknown() []error {
	var idx []int
	for i, u := range h.used {
		if !u {
			idx = append(idx, i)
		}
	}
	if len(idx) > maxUnknownWarnings {
		names := make([]string, unknownNamed)
		for k, i := range idx[:unknownNamed] {
			names[k] = strconv.Quote(h.names[i])
		}
		p := h.pos[idx[0]]
		return []error{&ParseError{File: h.file, Line: p.line, Column: p.col, Msg: fmt.Sprintf("%d unknown columns ignored: %s and %d more", len(idx), strings.Join(names, ", "), len(idx)-unknownNamed)}}
	}
	var w []error
	for _, i := range idx {
		w = append(w, &ParseError{File: h.file, Line: h.pos[i].line, Column: h.pos[i].col, Msg: fmt.Sprintf("unknown column %q ignored", h.names[i])})
	}
	return w
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat is strconv.ParseFloat restricted to plain decimal numbers (see
// decimal.Plain; Go's other syntax, "1_0", "0x1p4", is a syntax error) and
// to inf and nan, which strconv reads as before (callers refuse them with
// their own message). It has a fast path for [-]digits[.digits] with at most
// 15 digits: the digits m form an exact float64 and so does 10^k, so m / 10^k
// is the correctly rounded value, the same float64 strconv returns
// (Clinger's fast path). Up to 19 digits after the leading zeros (what
// strconv.AppendFloat's shortest form writes: 17 digits), m is still exact
// in a uint64 and eiselLemire64 converts it as strconv does, when it can
// (see eisel.go). Longer plain decimals, and those, go to strconv directly,
// the rest to strconv after the syntax check.
func parseFloat(s string) (float64, error) {
	i, neg := 0, false
	if len(s) > 0 && s[0] == '-' {
		i, neg = 1, true
	}
	// [-]digits[.digits]: m the digits (wrapped past 19 significant
	// ones), frac those after the point
	start := i
	var m uint64
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			break
		}
		m = m*10 + uint64(c)
	}
	digits, frac := i-start, 0
	if i < len(s) && s[i] == '.' {
		i++
		f := i
		for ; len(s)-i >= 8; i += 8 {
			v, ok := eightDigits(s[i : i+8])
			if !ok {
				break
			}
			m = m*100_000_000 + v
		}
		for ; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				break
			}
			m = m*10 + uint64(c)
		}
		frac = i - f
		digits += frac
	}
	if i < len(s) {
		return parseFloatChecked(s)
	}
	if digits == 0 { // "", "-", ".", "-.": an error
		return strconv.ParseFloat(s, 64)
	}
	if digits > 15 {
		// m is the digits after the leading zeros: at most 19 of them
		// have not wrapped it
		zeros := 0
		for _, c := range []byte(s[start:]) {
			if c == '0' {
				zeros++
			} else if c != '.' {
				break
			}
		}
		if digits-zeros <= 19 && frac <= -eiselMinExp10 {
			if v, ok := eiselLemire64(m, -frac, neg); ok {
				return v, nil
			}
		}
		return strconv.ParseFloat(s, 64)
	}
	v := float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return v, nil
}

// eightDigits is the value of s's 8 bytes when they are all decimal
// digits, read at once (SWAR: simdjson's is_made_of_eight_digits_fast and
// parse_eight_digits_unrolled, on the bytes as a little-endian word).
func eightDigits(s string) (uint64, bool) {
	_ = s[7]
	v := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	if (v&0xF0F0F0F0F0F0F0F0)|(((v+0x0606060606060606)&0xF0F0F0F0F0F0F0F0)>>4) != 0x3333333333333333 {
		return 0, false
	}
	v -= 0x3030303030303030
	v = v*10 + v>>8 // pairs of digits
	const mask, mul1, mul2 = 0x000000FF000000FF, 100 + 1000000<<32, 1 + 10000<<32
	v = ((v&mask)*mul1 + (v>>16&mask)*mul2) >> 32
	return uint64(uint32(v)), true
}

// parseFloatChecked is strconv.ParseFloat on a plain decimal number, inf or
// nan; anything else is a syntax error.
func parseFloatChecked(s string) (float64, error) {
	if !decimal.Plain(s) && !infOrNaN(s) {
		return 0, &strconv.NumError{Func: "ParseFloat", Num: strings.Clone(s), Err: strconv.ErrSyntax}
	}
	return strconv.ParseFloat(s, 64)
}

// infOrNaN reports whether s is what strconv reads as an infinity or NaN
// ([+-]inf, [+-]infinity, nan, in any case).
func infOrNaN(s string) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") || strings.EqualFold(s, "nan")
}

// parseInt is strconv.ParseInt(s, 10, 64) with a fast path for up to 18
// plain digits.
func parseInt(s string) (int64, error) {
	if len(s) == 0 || len(s) > 18 {
		return strconv.ParseInt(s, 10, 64)
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return strconv.ParseInt(s, 10, 64)
		}
		v = v*10 + int64(c-'0')
	}
	return v, nil
}
