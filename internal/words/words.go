// Package words writes the small pieces of English that messages share.
package words

import (
	"slices"
	"strconv"
	"strings"
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

// join is s with ", " between its items and last before the last.
func join(s []string, last string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + last + s[len(s)-1]
}
