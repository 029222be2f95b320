// Package words writes the small pieces of English that messages share.
package words

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Count writes n with what, plural unless n is 1: "1 job", "0 jobs",
// "3 rows". The plural adds an s: give it nouns that take one.
func Count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Either writes the distinct values of xs, smallest first, as a choice:
// "4", "1 or 2", "1, 2 or 8"; "" for none.
func Either(xs []int) string {
	xs = slices.Compact(slices.Sorted(slices.Values(xs)))
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return join(s, " or ")
}

// And writes a list: "a", "a and b", "a, b and c"; "" for none.
func And(s []string) string { return join(s, " and ") }

// FirstOf writes the first most items of s, ", " between them, and how
// many more there are: "a, b and 5 more"; all of them when they are at most
// most.
func FirstOf(s []string, most int) string {
	if len(s) <= most {
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(s[:most], ", "), len(s)-most)
}

// join is s with ", " between its items and last before the last.
func join(s []string, last string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + last + s[len(s)-1]
}

// NameFault says what is wrong with s as a name (a run's, a job's): not
// valid UTF-8 (it went into model.json as U+FFFD, another name), or a
// control character other than the tab, LF and CR a quoted CSV field may
// hold and read back (NUL, ESC, DEL, the C1 controls); "" when s is fine.
func NameFault(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ { // the common case, per row of a trace
		if b := s[i]; b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7f {
			ascii = false
			break
		} else if b >= 0x80 {
			ascii = false
		}
	}
	if ascii {
		return ""
	}
	if !utf8.ValidString(s) {
		return "is not valid UTF-8 (expected a name in UTF-8 text)"
	}
	for i, r := range s {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return fmt.Sprintf("holds the control character %U at byte %d (expected a name without control characters; a tab or a line break in a quoted field is read)", r, i+1)
		}
	}
	return ""
}

// Thousands writes n with commas between groups of three digits:
// "15,687", "-1,200", "999".
func Thousands(n int) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}
