// Package csvtext holds what the CSV readers (traces, planner) share about
// the text of a file: a UTF-8 byte-order mark at its start and the case of
// its column names.
package csvtext

import (
	"bufio"
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// mark is the UTF-8 byte-order mark.
var mark = []byte("\xef\xbb\xbf")

// DropBOM discards a byte-order mark at the start of br when a line end
// (LF or CRLF), a quote or the end of the file follows it: the first line
// is then blank, and encoding/csv, which skips blank lines, read the mark
// alone as a header of one empty column; a quoted first field ("job" as
// R's write.csv writes it) read as a bare quote after the mark; a file of
// the mark alone as a header of one unknown column, where it is empty. A
// mark before other text is left to the caller, whose positions count its
// bytes.
func DropBOM(br *bufio.Reader) {
	head, _ := br.Peek(len(mark) + 2)
	rest, ok := bytes.CutPrefix(head, mark)
	if ok && (len(rest) == 0 || rest[0] == '"' || rest[0] == '\n' || bytes.HasPrefix(rest, []byte("\r\n"))) {
		br.Discard(len(mark))
	}
}

// LowerName is a column name in lower case, for matching without regard
// to case: strings.ToLower, except that bytes that are not UTF-8 are kept
// as they are (ToLower made each U+FFFD, so that "\xff" and "\xfe" were
// one name, a repeated column, and the warnings printed neither).
func LowerName(s string) string {
	if utf8.ValidString(s) {
		return strings.ToLower(s)
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, s[i])
		} else {
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
		i += n
	}
	return string(b)
}

// OtherSeparator names the separator a header row seems to use instead of
// commas, for the readers' missing-column errors: "tabs" when a field holds
// a tab (a tab-separated file reads as one column), "semicolons" when the
// row is one field holding a semicolon (a spreadsheet's export in a locale
// whose decimal mark is a comma); "" otherwise.
func OtherSeparator(header []string) string {
	for _, f := range header {
		if strings.IndexByte(f, '\t') >= 0 {
			return "tabs"
		}
	}
	if len(header) == 1 && strings.IndexByte(header[0], ';') >= 0 {
		return "semicolons"
	}
	return ""
}
