package traces

import (
	"path/filepath"
	"strings"
	"testing"
)

// A row is checked against the files before it that hold its run (found
// once per run, not every row against every file): with runs interleaved
// over three files, a duplicate names the earlier file that holds that
// step (f2, the second of run a's two), a step of run b the file of b, and a
// configuration that differs the first file of the run (f1); rows of
// distinct steps of the same runs are read. Updates alike.
func TestCrossFileHolders(t *testing.T) {
	root := t.TempDir()
	dir := func(n string) string { return filepath.Join(root, n) }
	f1 := writeTestFile(t, dir("f1"), "steps.csv", stepsHeader+"a,2,1,32,0,0,0,1,,,,,\na,2,1,32,0,1,1,2,,,,,\n")
	f2 := writeTestFile(t, dir("f2"), "steps.csv", stepsHeader+"b,1,1,32,0,0,0,1,,,,,\na,2,1,32,1,0,0,1,,,,,\nb,1,1,32,0,1,1,2,,,,,\n")
	ok := stepsHeader + "a,2,1,32,1,5,5,6,,,,,\nb,1,1,32,0,5,5,6,,,,,\na,2,1,32,0,5,5,6,,,,,\n"
	for _, c := range []struct {
		rows, want string // want "": read
	}{
		{ok, ""},
		{ok + "b,1,1,32,0,7,7,8,,,,,\na,2,1,32,1,0,9,10,,,,,\n", `:6:12: step: (run "a", worker 1, step 0) is also in ` + f2},
		{ok + "a,2,1,32,0,1,9,10,,,,,\n", `:5:12: step: (run "a", worker 0, step 1) is also in ` + f1},
		{ok + "b,1,1,32,0,1,9,10,,,,,\n", `:5:12: step: (run "b", worker 0, step 1) is also in ` + f2},
		{stepsHeader + "b,1,1,32,0,5,5,6,,,,,\na,2,1,64,1,8,9,10,,,,,\n", "batch"},
	} {
		f3 := writeTestFile(t, dir("f3"), "steps.csv", c.rows)
		_, _, err := Load(dir("f1"), dir("f2"), dir("f3"))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("distinct steps: %v", err)
		case c.want == "batch" && (err == nil || !strings.Contains(err.Error(), f3+":3:") || !strings.Contains(err.Error(), f1)):
			t.Errorf("run a at batch 64 in f3: error %v, want one at line 3 naming %s, the run's first file", err, f1)
		case c.want != "" && c.want != "batch" && (err == nil || !strings.Contains(err.Error(), f3+c.want)):
			t.Errorf("error %v, want %q", err, f3+c.want)
		}
	}
	const head = "run,shard,worker,time,version,staleness\n"
	u1 := writeTestFile(t, dir("f1"), "updates.csv", head+"a,0,0,0.5,1,0\n")
	u2 := writeTestFile(t, dir("f2"), "updates.csv", head+"b,0,0,0.5,1,0\na,0,1,0.6,2,0\n")
	writeTestFile(t, dir("f3"), "steps.csv", ok)
	for _, c := range []struct{ rows, want string }{
		{head + "a,0,0,0.7,3,0\nb,0,0,0.7,2,0\n", ""},
		{head + "b,0,0,0.7,2,0\na,0,0,0.8,2,0\n", `:3:11: version: (run "a", shard 0, version 2) is also in ` + u2},
		{head + "a,0,0,0.7,3,0\na,0,0,0.8,1,0\n", `:3:11: version: (run "a", shard 0, version 1) is also in ` + u1},
		{head + "b,0,0,0.7,1,0\n", `:2:11: version: (run "b", shard 0, version 1) is also in ` + u2},
	} {
		u3 := writeTestFile(t, dir("f3"), "updates.csv", c.rows)
		_, _, err := Load(dir("f1"), dir("f2"), dir("f3"))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), u3+c.want)) {
			t.Errorf("updates: error %v, want %q", err, c.want)
		}
	}
}
