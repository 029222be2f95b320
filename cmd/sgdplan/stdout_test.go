package main

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullDisk takes n bytes, then fails every write as a full disk does.
type fullDisk struct{ n int }

func (f *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	k := f.n
	f.n = 0
	return k, &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// An error writing to stdout is exit 1 with its message, whichever line
// meets it: check printed its verdict to a full disk and exited with the
// verdict's code (0 for fine), predict's and fit's tables exited 0, and
// the lines after plan's and simulate's tables, and convert's, validate's
// and report's summaries dropped their errors.
func TestStdoutWriteErrors(t *testing.T) {
	dir := t.TempDir()
	m := fitModel(t, dir)
	jobs := filepath.Join(jobsExample, "jobs.csv")
	tr := asyncTrace(t, dir)
	cases := [][]string{
		{"check", "--model", m, "--workers", "1"},
		{"check", "--model", m, "--workers", "16"},
		{"check", "--model", m, "--workers", "64"},
		{"check", "--model", m, "--workers", "1", "--format", "json"},
		{"check", "--model", m, "--workers", "64", "--format", "json"},
		{"predict", "--model", m, "--workers", "1-4"},
		{"predict", "--model", m, "--workers", "1-4", "--format", "csv"},
		{"predict", "--model", m, "--workers", "1-4", "--format", "json"},
		{"fit", fitAsync, "--out", filepath.Join(dir, "again.json")},
		{"fit", fitAsync, "--out", filepath.Join(dir, "again.json"), "--format", "json"},
		{"inspect", fitAsync},
		{"inspect", fitAsync, "--format", "json"},
		{"inspect", fitAsync, "--format", "csv"},
		{"inspect", filepath.Join("testdata", "fit-table")},
		{"plan", "--jobs", jobs, "--servers", "8", "--policy", "all"},
		{"plan", "--jobs", jobs, "--servers", "8", "--policy", "hesrpt"},
		{"simulate", "--jobs", jobs, "--servers", "8", "--policy", "all"},
		{"convert", "--from", "itp", "--p", "0.8", "../../testdata/public/microsoft-itp-elasticflow-traces/raw/cluster10.csv", "--out", filepath.Join(dir, "conv")},
		{"convert", "--from", "chrome", "../../traces/testdata/chrome/pytorch_profiler.json", "--out", filepath.Join(dir, "conv-chrome")},
		{"validate", "--data", t.TempDir(), "--async", tr, "--out", filepath.Join(dir, "v.md")},
		{"report", "--model", m, "--jobs", jobs, "--servers", "4", "--out", filepath.Join(dir, "r"), "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5"},
	}
	const want = "sgdplan: write /dev/stdout: no space left on device\n"
	for _, args := range cases {
		name := strings.Join(args, " ")
		code, stdout, stderr := runCmd(t, args...)
		if code == exitFailure || code == exitBadInput || stdout == "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, code, stdout, stderr)
			continue
		}
		// the first byte, the middle and the last: each line's error
		for _, n := range []int{0, len(stdout) / 2, len(stdout) - 1} {
			var errb bytes.Buffer
			got := run(append([]string{"sgdplan"}, args...), strings.NewReader(""), &fullDisk{n: n}, &errb)
			if got != exitFailure || !strings.HasSuffix(errb.String(), want) {
				t.Errorf("%s, stdout full after %d of %d bytes: exit %d (%d when written), stderr ends %q; want exit 1 and %q",
					name, n, len(stdout), got, code, tail(errb.String()), want)
			}
		}
	}
}

// tail is the last line of s.
func tail(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}
