package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// convert compares the names in --out as the readers do, in lower case
// without .gz: a Steps.csv there had a steps.csv written beside it (exit
// 0), and inspect then refused the folder (one name in two cases); a
// leftover Evals.csv got no stale-file warning.
func TestConvertOutNamesAnyCase(t *testing.T) {
	in := filepath.Join("..", "..", "traces", "testdata", "chrome", "pytorch_profiler.json")
	for _, old := range []string{"Steps.csv", "STEPS.csv.gz", "Runs.CSV"} {
		t.Run(old, func(t *testing.T) {
			out := t.TempDir()
			if err := os.WriteFile(filepath.Join(out, old), []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--mode", "allreduce", in, "--out", out)
			want := "holds " + old + ", from an earlier conversion: the " + strings.ToLower(strings.TrimSuffix(old, ".gz")) + " this one writes beside it would make a folder that fit and inspect refuse (one name in two cases)"
			if code != exitBadInput || !strings.Contains(stderr, want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
			}
			if ents, _ := os.ReadDir(out); len(ents) != 1 {
				t.Errorf("%d files in --out, want only the old %s", len(ents), old)
			}
		})
	}
	// a canonical file of another kind, in another case, is read with the
	// new files: said as evals.csv is
	out := t.TempDir()
	for _, n := range []string{"Evals.csv", "evals2.csv", "THROUGHPUT.csv.gz"} {
		if err := os.WriteFile(filepath.Join(out, n), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--mode", "allreduce", in, "--out", out)
	if code != 0 || !strings.Contains(stderr, "also holds Evals.csv, THROUGHPUT.csv.gz, which this conversion did not write") {
		t.Errorf("exit %d, stderr %q; want 0 and a warning naming Evals.csv and THROUGHPUT.csv.gz", code, stderr)
	}
	if strings.Contains(stderr, "evals2.csv") {
		t.Errorf("warned of evals2.csv, a file of the user's: %q", stderr)
	}
}
