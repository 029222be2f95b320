package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// model.json keeps the fit command line that made it, with every option
// that changes the model (flags after the path too, as users write them),
// and that line, given the same --out folder, writes the same file.
func TestFitCommandRepeatsTheModel(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	asgd := filepath.Join("..", "..", "testdata", "asgd")
	if code, _, stderr := runCmd(t, "fit", asgd, "--train-workers", "1,2", "--bootstrap", "20", "--seed", "3", "--out", a, "--format", "table"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := loadModel("test", a)
	if err != nil {
		t.Fatal(err)
	}
	// the defaults that are values written out too (--family auto,
	// --combine mean, --queueing exact): another release's defaults would
	// make the line another fit
	want := "sgdplan fit --family auto --train-workers 1,2 --combine mean --bootstrap 20 --seed 3 --queueing exact " + asgd
	if m.Data.Command != want {
		t.Fatalf("command %q, want %q", m.Data.Command, want)
	}
	b := filepath.Join(dir, "b.json")
	args := append(strings.Fields(m.Data.Command)[1:], "--out", b)
	if code, _, stderr := runCmd(t, args...); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, stderr)
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if len(ab) == 0 || !bytes.Equal(ab, bb) {
		t.Errorf("the command's rerun wrote another model (%d and %d bytes)", len(ab), len(bb))
	}
	// another seed: another bootstrap, so the seed matters and is kept
	c := filepath.Join(dir, "c.json")
	if code, _, stderr := runCmd(t, "fit", asgd, "--train-workers", "1,2", "--bootstrap", "20", "--out", c); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cb, _ := os.ReadFile(c)
	if bytes.Equal(bytes.ReplaceAll(ab, []byte(" --seed 3"), nil), cb) {
		t.Error("--seed 3 and the default seed wrote the same model")
	}
}
