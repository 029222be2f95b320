package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// plan, simulate and report say, as predict and check do, when a job's
// asynchronous model has a staleness cost the data did not identify
// (testdata/asgd fitted on 1 worker: loss curves at one staleness level,
// lambda taken as 0); a model fitted on 1-2 workers measures it and gets
// no such word.
func TestPlanSaysStalenessUnknown(t *testing.T) {
	dir := t.TempDir()
	const say = "the staleness cost is not identified (the loss curves are at one staleness level) and is taken as 0: their speedups past 1 worker leave staleness out"
	for _, c := range []struct {
		train string
		warns bool
	}{{"1", true}, {"1,2", false}} {
		name := strings.ReplaceAll(c.train, ",", "-") // (a comma in the path is a field)
		m := filepath.Join(dir, "m"+name+".json")
		if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", c.train, "--bootstrap", "20", "--out", m); code != 0 {
			t.Fatalf("fit: %s", stderr)
		}
		jobs := writeTestFile(t, dir, "jobs"+name+".csv", fmt.Sprintf("job,arrival,size,model\nx,0,1800,%s\ny,0,900,%s\n", m, m))
		for _, args := range [][]string{
			{"plan", "--jobs", jobs, "--servers", "16"},
			{"simulate", "--jobs", jobs, "--servers", "16"},
			{"report", "--model", m, "--jobs", jobs, "--servers", "16", "--seeds", "2", "--sim-jobs", "20", "--loads", "0.5", "--out", filepath.Join(dir, "rep"+name)},
		} {
			code, _, stderr := runCmd(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			if got := strings.Contains(stderr, "sgdplan: warning: the model of 2 jobs (x, y): "+say); got != c.warns {
				t.Errorf("--train-workers %s, %s: warned %v, want %v:\n%s", c.train, args[0], got, c.warns, stderr)
			}
		}
	}
}
