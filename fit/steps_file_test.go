package fit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run whose steady window gives no rate (every step of zero length) is
// an error naming its steps file: "run r: its steady window ..." named no
// file, and a fit of several folders left the user to find the run.
func TestFitStepsPathsNoRateNamesFile(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	zero := "run,workers,ps,batch,worker,step,start,end,pull,compute,push\nr,1,1,32,0,0,0,0,0,0,0\nr,1,1,32,0,1,0,0,0,0,0\nr,1,1,32,0,2,0,0,0,0,0\n"
	var good strings.Builder
	good.WriteString("run,workers,ps,batch,worker,step,start,end\n")
	for i := range 40 {
		fmt.Fprintf(&good, "g,2,1,32,0,%d,%d,%d\n", i, i, i+1)
	}
	if err := os.WriteFile(filepath.Join(a, "steps.csv"), []byte(good.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, "steps.csv"), []byte(zero), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := FitStepsPaths([]string{a, b}, StepOptions{})
	want := filepath.Join(b, "steps.csv") + ": run r: its steady window [0, 0] s gives no finite positive rate"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	if strings.Contains(err.Error(), filepath.Join(a, "steps.csv")) {
		t.Errorf("error %v names the other run's file", err)
	}
}
