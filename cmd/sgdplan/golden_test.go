package main

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag: golden rewrites the golden files instead of
// comparing. It is registered here, once, as a package-level variable, so it
// exists before any init function runs; test files that look the flag up
// with flag.Lookup("update") (and register it only when absent) see this one.
var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with the file testdata/name (name may hold a folder,
// e.g. "inspect/table.stdout"), or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(name))
	test, _, _ := strings.Cut(t.Name(), "/")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/sgdplan -run '^%s$' -update to create it)", err, test)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test ./cmd/sgdplan -run '^%s$' -update, then review the diff)\n got:\n%s\nwant:\n%s", path, test, got, want)
	}
}

// goldenRun is a command line whose stdout, then "--- stderr", then stderr
// must equal testdata/golden.
type goldenRun struct {
	golden string
	args   []string
}

// runGoldens runs each command, which must exit 0, against its golden file.
func runGoldens(t *testing.T, runs []goldenRun) {
	t.Helper()
	for _, r := range runs {
		code, stdout, stderr := runCmd(t, r.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr:\n%s", r.args, code, stderr)
		}
		golden(t, r.golden, stdout+"--- stderr\n"+stderr)
	}
}

// checkPNG fails the test unless path is a PNG image of at least 500 x 300
// pixels, the size every plot of the commands is drawn at or above.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if r := img.Bounds(); r.Dx() < 500 || r.Dy() < 300 {
		t.Errorf("%s: plot is %v, want at least 500 x 300", path, r)
	}
}

// TestUpdateFlagIsOne: the flag other test files find with
// flag.Lookup("update") is this file's variable, so -update reaches every
// golden helper: setting it through the flag set changes *update.
func TestUpdateFlagIsOne(t *testing.T) {
	f := flag.Lookup("update")
	if f == nil {
		t.Fatal("no -update flag")
	}
	old := f.Value.String()
	defer f.Value.Set(old)
	for _, v := range []bool{true, false} {
		if err := f.Value.Set(map[bool]string{true: "true", false: "false"}[v]); err != nil {
			t.Fatal(err)
		}
		if *update != v {
			t.Errorf("flag.Lookup(\"update\") set to %v, package variable is %v: two registrations", v, *update)
		}
	}
}
