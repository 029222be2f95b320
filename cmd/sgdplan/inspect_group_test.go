package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inspect gives the first three warnings of a kind on stderr and counts the
// rest in one line that names their runs (1,000 short runs printed 1,000
// lines); the json still lists every run's.
func TestInspectGroupsRunWarnings(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 6 {
		var b strings.Builder
		b.WriteString("run,workers,ps,batch,worker,step,start,end,pull,compute,push,staleness,loss\n")
		for w := range 2 {
			for s := range 10 { // 20 iterations: fewer than 30 in any window
				t0 := 0.2 * float64(s)
				fmt.Fprintf(&b, "r%d,2,1,32,%d,%d,%g,%g,0.05,0.1,0.05,1,\n", i, w, s, t0, t0+0.2)
			}
		}
		d := filepath.Join(dir, fmt.Sprintf("d%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		writeTestFile(t, d, "steps.csv", b.String())
		paths = append(paths, d)
	}
	code, _, stderr := runCmd(t, append([]string{"inspect"}, paths...)...)
	few := strings.Count(stderr, "iterations in the steady-state window: throughput is uncertain\n")
	if code != 0 || few != 3 {
		t.Errorf("exit %d, %d per-run lines of the kind, want 3:\n%s", code, few, stderr)
	}
	want := `sgdplan: warning: traces: 3 more runs have the warning given above for run "r0" (only `
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "each with its own numbers: r3, r4, r5 (--format json lists every run's warnings)\n") {
		t.Errorf("no line counting the rest, want %q...:\n%s", want, stderr)
	}
	code, out, stderr := runCmd(t, append([]string{"inspect", "--format", "json"}, paths...)...)
	var runs []struct {
		Run      string   `json:"run"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &runs); code != 0 || err != nil || len(runs) != 6 {
		t.Fatalf("json: exit %d, %v, %d runs: %s", code, err, len(runs), stderr)
	}
	for _, r := range runs {
		if len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "throughput is uncertain") {
			t.Errorf("json run %s: warnings %q", r.Run, r.Warnings)
		}
	}
}
