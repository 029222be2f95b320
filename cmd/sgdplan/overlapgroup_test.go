package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// overlapFolders writes n folders of one 2-worker run each whose
// iterations start 10 ms before the previous one ends (a clock that
// drifts the same way in every run), as a scaling review made 300 of.
func overlapFolders(t *testing.T, n int) []string {
	t.Helper()
	var dirs []string
	for i := range n {
		d := filepath.Join(t.TempDir(), fmt.Sprintf("d%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		b.WriteString("run,workers,ps,batch,worker,step,start,end,pull,compute,push,staleness,loss\n")
		for w := range 2 {
			at := 0.0
			for s := range 50 {
				pull, comp, push := 0.05+0.001*float64((s*7+i)%10), 0.1, 0.05+0.001*float64((s*3+w)%10)
				fmt.Fprintf(&b, "r%d,2,1,32,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,1,%.4f\n", i, w, s, at, at+pull+comp+push, pull, comp, push, 2.3-0.01*float64(s))
				at += pull + comp + push - 0.01
			}
		}
		writeTestFile(t, d, "steps.csv", b.String())
		writeTestFile(t, d, "runs.csv", fmt.Sprintf("run,model,mode,param_bytes,nodes,bandwidth\nr%d,mlp,async,210040,1,3000000\n", i))
		dirs = append(dirs, d)
	}
	return dirs
}

// inspect and fit say the first 3 runs' overlap warnings in full and the
// rest in one line (300 runs gave 300 lines of 424 characters, and fit
// kept each in model.json); inspect's json still lists every run's.
func TestOverlapWarningsGrouped(t *testing.T) {
	dirs := overlapFolders(t, 6)
	full := "iterations start before the end of an earlier iteration of the worker"
	rest := `traces: 3 more runs have iterations that start before the end of an earlier iteration of their worker (by more than 1 ms), as said above of run "r0"`
	code, _, stderr := runCmd(t, append([]string{"inspect"}, dirs...)...)
	if code != 0 || strings.Count(stderr, full) != 3 || strings.Count(stderr, rest) != 1 || !strings.Contains(stderr, `runs "r3", "r4", "r5" (--format json lists every run's warnings)`) {
		t.Errorf("inspect: exit %d, stderr:\n%s\nwant 3 runs' warnings in full and one line for 3 more", code, stderr)
	}
	code, stdout, _ := runCmd(t, append([]string{"inspect", "--format", "json"}, dirs...)...)
	if code != 0 || strings.Count(stdout, full) != 6 {
		t.Errorf("inspect json: exit %d, %d runs' overlap warnings, want 6", code, strings.Count(stdout, full))
	}
	out := filepath.Join(t.TempDir(), "model.json")
	code, _, stderr = runCmd(t, append([]string{"fit", "--bootstrap", "0", "--out", out}, dirs...)...)
	if code != 0 || strings.Count(stderr, full) != 3 || strings.Count(stderr, rest) != 1 {
		t.Fatalf("fit: exit %d, stderr:\n%s\nwant 3 runs' warnings in full and one line for 3 more", code, stderr)
	}
	var m struct {
		Diagnostics struct {
			Warnings []string `json:"warnings"`
		} `json:"diagnostics"`
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range m.Diagnostics.Warnings {
		if strings.Contains(w, full) || strings.Contains(w, rest) {
			n++
		}
	}
	if n != 4 || !strings.HasPrefix(m.Diagnostics.Warnings[3], rest) {
		t.Errorf("model.json: %d overlap warnings, want 4, the grouped one fourth: %q", n, m.Diagnostics.Warnings)
	}
}
