package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A throughput table has no two-node profile: its mva is scored by
// leave-one-out as the other families, but the heading of the families
// said "for mva, the profile's error on the other runs" (100, 205, 420
// and 850 samples/s at 1-8 workers). A step trace's profile keeps it
// (cmd/sgdplan/testdata/fit-async.golden).
func TestFitTableFamiliesHeading(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,205\n4,1,32,420\n8,1,32,850\n")
	code, out, stderr := runCmd(t, "fit", dir, "--out", filepath.Join(dir, "m.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "families tried (leave-one-configuration-out MAPE):\n") || strings.Contains(out, "profile") || !strings.Contains(out, "\n  mva ") {
		t.Errorf("a table's heading:\n%s", out)
	}
}
