package main

import (
	"strings"
	"testing"
)

// A flag value that does not parse says what the flag wants, also after a
// path (fit and check parse those flags themselves: they printed the flag
// package's "parse error"), and a sign on a flag of counts >= 0 is told as
// such ("-5" is decimal digits; the message said to write them).
func TestFlagValueWants(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", fitAsync, "--seed", "-5"}, `fit: --seed "-5": want a whole number >= 0; --seed: `},
		{[]string{"fit", fitAsync, "--bootstrap", "abc"}, `fit: --bootstrap "abc": want a whole number in decimal digits`},
		{[]string{"fit", fitAsync, "--bootstrap=abc"}, `fit: --bootstrap "abc": want a whole number in decimal digits`},
		{[]string{"simulate", "--seed", "-5"}, `simulate: --seed "-5": want a whole number >= 0; --seed: `},
	} {
		code, _, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.HasPrefix(stderr, "sgdplan: "+c.want) || strings.Contains(stderr, "parse error") {
			t.Errorf("%v: exit %d, stderr %q, want %d and %q...", c.args, code, stderr, exitBadInput, c.want)
		}
	}
}
