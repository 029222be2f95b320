package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCmd runs the program in-process and returns its exit code and output.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"sgdplan"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestDemoWritesSummary(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCmd(t, "demo", "--out", dir)
	if code != 0 {
		t.Fatalf("demo exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, dir) {
		t.Errorf("demo does not say where the report is: %q", stdout)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "testdata/README.md") {
		t.Errorf("summary does not list the embedded testdata:\n%s", b)
	}
}

func TestUnknownFlagIsBadInput(t *testing.T) {
	code, _, stderr := runCmd(t, "demo", "--no-such-flag")
	if code != exitBadInput {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBadInput, stderr)
	}
}
