package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The same data named two ways ("./x/" and "x//", as a shell completes
// or a script joins them) write the same model.json: its paths and its
// command line keep one spelling, the lexically clean one. A path with a
// ".." element stays as typed (after a symbolic link it names another
// folder than its cleaned form).
func TestFitStoredPathsOneSpelling(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "model.json")
	var docs [][]byte
	for _, p := range []string{"." + string(filepath.Separator) + fitAsync + string(filepath.Separator), filepath.Join("testdata") + string(filepath.Separator) + string(filepath.Separator) + "fit-async"} {
		if code, _, stderr := runCmd(t, "fit", p, "--family", "mva", "--bootstrap", "20", "--out", out); code != 0 {
			t.Fatalf("fit %s: exit %d: %s", p, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	if !bytes.Equal(docs[0], docs[1]) {
		t.Errorf("./%s/ and testdata//fit-async wrote other model.json bytes", fitAsync)
	}
	d := readModelDoc(t, out)["data"].(map[string]any)
	if got := d["paths"].([]any)[0]; got != fitAsync {
		t.Errorf("data.paths[0] = %v, want %s", got, fitAsync)
	}
	if got := d["command"].(string); !bytes.HasSuffix([]byte(got), []byte(" "+fitAsync)) {
		t.Errorf("data.command = %q, want it to end in %s", got, fitAsync)
	}
}

func TestStoredPaths(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"./x/", "x"},
		{"a//b/.", "a/b"},
		{"/abs/./dir/", "/abs/dir"},
		{"a/../b", "a/../b"},
		{"../x/", "../x/"},
		{"..", ".."},
		{"x", "x"},
	} {
		if got := storedPaths([]string{filepath.FromSlash(c.in)})[0]; got != filepath.FromSlash(c.want) {
			t.Errorf("storedPaths(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
