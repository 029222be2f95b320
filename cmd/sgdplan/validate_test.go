package main

import (
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

// sharedData finds ../shared/data beside the repository (or $SGDPLAN_DATA),
// and skips the test with a message when it is absent.
func sharedData(t *testing.T) string { return testenv.DataDir(t) }

func TestValidateWritesReport(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every public dataset (a few seconds)")
	}
	data := sharedData(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "validation.md")
	code, stdout, stderr := runCmd(t, "validate", "--data", data, "--out", out, "--async", fitAsync)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote "+out) {
		t.Errorf("stdout %q", stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, ds := range []string{"pollux-osdi21", "dl2-mxnet-ps-speed", "elasticflow-asplos23", "tf-cnn-benchmarks-2017", "async traces"} {
		if !strings.Contains(md, "## "+ds) {
			t.Errorf("no section for %s", ds)
		}
	}
	// tf-cnn-benchmarks: 5 distributed series fitted on 1 and 8 GPUs; the
	// summary row gives sgdplan's mean MAPE, which beats the linear
	// baseline (6.2%).
	m := regexp.MustCompile(`\| tf-cnn-benchmarks-2017 \| 5 \| ([0-9.]+) \|`).FindStringSubmatch(md)
	if m == nil {
		t.Fatalf("no tf-cnn summary row:\n%s", md)
	}
	if v, _ := strconv.ParseFloat(m[1], 64); !(v < 6.2) {
		t.Errorf("tf-cnn sgdplan MAPE %g, want < 6.2", v)
	}
	f, err := os.Open(filepath.Join(dir, "img", "validation.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}
}

func TestValidateBadData(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "validate", "--data", filepath.Join(dir, "none"), "--out", filepath.Join(dir, "v.md"))
	if code != exitBadInput || !strings.Contains(stderr, "not a folder") {
		t.Errorf("exit %d stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "validate", "--data", dir, "--out", filepath.Join(dir, "v.md"), "--async", filepath.Join(dir))
	if code != exitBadInput {
		t.Errorf("empty data folder: exit %d stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "v.md")); err == nil {
		t.Error("a report was written despite the error")
	}
}

// The async-traces row on the real link-bound sweep: 4 series (shards x
// link rate), sgdplan (the two-node profile's exact MVA, fitted on <= 2
// workers) under the 10% target, ahead of every peer's form; the
// 1-worker profile table and the note on selection on the test sets are
// there.
func TestValidateASGD(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every public dataset (a few seconds)")
	}
	data := sharedData(t)
	asgd := filepath.Join("..", "..", "testdata", "asgd")
	if _, err := os.Stat(filepath.Join(asgd, "runs.csv")); err != nil {
		t.Skipf("no testdata/asgd: %v", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "validation.md")
	code, _, stderr := runCmd(t, "validate", "--data", data, "--out", out, "--async", asgd)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	m := regexp.MustCompile(`\| async traces \| 4 \| ([0-9.]+) \| [0-9.]+ \| [a-z]+ ([0-9.]+) \|`).FindStringSubmatch(md)
	if m == nil {
		t.Fatalf("no async summary row with 4 series:\n%s", md)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	peer, _ := strconv.ParseFloat(m[2], 64)
	if !(v < 10) || !(v < peer) {
		t.Errorf("async traces: sgdplan %g%%, best peer %g%%: want under 10 and under the peer", v, peer)
	}
	for _, s := range []string{"Two-node profile alone", "Selection on the test sets", "without the 1-SE rule and overhead", "ps=2 6e+06 B/s"} {
		if !strings.Contains(md, s) {
			t.Errorf("no %q in the report", s)
		}
	}
}
