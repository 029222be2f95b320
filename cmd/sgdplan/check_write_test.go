package main

import (
	"bytes"
	"strings"
	"testing"
)

// countWrites counts the writes to it.
type countWrites struct {
	bytes.Buffer
	n int
}

func (c *countWrites) Write(p []byte) (int, error) {
	c.n++
	return c.Buffer.Write(p)
}

// check writes its answer (table or json) in one write, so that a reader
// that stops after the first line ("check ... | head -1" in a CI gate)
// cannot kill it with SIGPIPE between writes: in four writes it exited 141
// or with its verdict, as the race went.
func TestCheckWritesOnce(t *testing.T) {
	m := fitModel(t, t.TempDir(), "--bootstrap", "20")
	for _, format := range []string{"table", "json"} {
		var out countWrites
		var errb bytes.Buffer
		code := run([]string{"sgdplan", "check", "--model", m, "--workers", "4", "--format", format}, strings.NewReader(""), &out, &errb)
		if code == exitBadInput || code == exitFailure || out.n != 1 || strings.Count(out.String(), "\n") < 2 {
			t.Errorf("--format %s: exit %d, %d writes of %q, want one write of the whole answer (%s)", format, code, out.n, out.String(), errb.String())
		}
	}
}
