// Package words writes the small pieces of English that messages share.
package words

import "strconv"

// Count writes n with what, plural unless n is 1: "1 job", "0 jobs",
// "3 rows". The plural adds an s: give it nouns that take one.
func Count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
