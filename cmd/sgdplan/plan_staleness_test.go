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
		if !c.warns {
			continue
		}
		// fcfs-rigid alone holds a job at its rigid count: warned at 8
		// (it said nothing, the sharing policies' peaks gating it), not
		// at 1; --energy-alpha replaces the curves: nothing
		for _, r := range []struct {
			rigid string
			args  []string
			warns bool
		}{
			{"8", []string{"plan", "--policy", "fcfs-rigid"}, true},
			{"1", []string{"plan", "--policy", "fcfs-rigid"}, false},
			{"8", []string{"simulate", "--energy-alpha", "2"}, false},
		} {
			rj := writeTestFile(t, dir, "rigid"+r.rigid+".csv", fmt.Sprintf("job,arrival,size,model,rigid_workers\nr,0,1800,%s,%s\n", m, r.rigid))
			code, _, stderr := runCmd(t, append(r.args, "--jobs", rj, "--servers", "16")...)
			if code != 0 || strings.Contains(stderr, "job r's model: the staleness cost is not identified") != r.warns {
				t.Errorf("rigid_workers %s %v: exit %d, want the warning %v:\n%s", r.rigid, r.args, code, r.warns, stderr)
			}
		}
	}
}
