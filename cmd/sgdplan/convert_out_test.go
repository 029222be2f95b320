package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// convert checks --out before it reads the input, as report does (a long
// conversion, the 82,247-row philly trace, finished before the refusal):
// an --out through a file is told first, though the input does not exist
// either.
func TestConvertChecksOutFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(file, "sub")
	code, _, stderr := runCmd(t, "convert", "--from", "itp", filepath.Join(t.TempDir(), "missing.csv"), "--out", out)
	if code != exitBadInput || !strings.HasPrefix(stderr, "sgdplan: convert: --out "+out+": ") || strings.Contains(stderr, "missing.csv") {
		t.Errorf("exit %d, stderr %q; want %d, the --out error before the input's", code, stderr, exitBadInput)
	}
}

// An --out under a folder that takes no new entry is bad input naming
// --out, before the input is read (it was exit 1, "mkdir DIR/sub:
// permission denied", after the conversion). Root writes anywhere: the
// test needs another user.
func TestConvertOutNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes in a folder of mode 555")
	}
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	in := "../../testdata/public/microsoft-itp-elasticflow-traces/raw/cluster10.csv"
	for _, out := range []string{ro, filepath.Join(ro, "sub")} {
		code, _, stderr := runCmd(t, "convert", "--from", "itp", in, "--out", out)
		if code != exitBadInput || !strings.HasPrefix(stderr, "sgdplan: convert: --out "+out+": ") || !strings.Contains(stderr, "permission denied") {
			t.Errorf("--out %s: exit %d, stderr %q; want %d naming --out", out, code, stderr, exitBadInput)
		}
	}
}
