package traces

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestThroughputContradictions: a throughput row that states a value twice
// must state it once: samples_per_s = steps_per_s x samples per step,
// global_batch = workers x batch, and the mode agrees with ps.
func TestThroughputContradictions(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"workers,ps,batch,steps_per_s,samples_per_s\n2,1,64,2,999\n",
			"traces: throughput.csv:2:10: samples_per_s: 999 contradicts steps_per_s 2 x 64 samples (batch, one worker's mini-batch per async update) = 128 (expected one of the rates, or rates that agree to 1e-6)"},
		{"workers,ps,batch,steps_per_s,samples_per_s,mode\n2,1,64,2,128,sync\n",
			"traces: throughput.csv:2:10: samples_per_s: 128 contradicts steps_per_s 2 x 128 samples (batch x workers per synchronous step) = 256 (expected one of the rates, or rates that agree to 1e-6)"},
		{"workers,ps,global_batch,steps_per_s,samples_per_s,mode\n8,0,256,2,500,allreduce\n",
			"traces: throughput.csv:2:11: samples_per_s: 500 contradicts steps_per_s 2 x 256 samples (global_batch per synchronous step) = 512 (expected one of the rates, or rates that agree to 1e-6)"},
		{"workers,ps,batch,global_batch,steps_per_s,mode\n2,1,64,256,2,sync\n",
			"traces: throughput.csv:2:8: global_batch: 256 contradicts batch 64 x workers 2 = 128 (expected one of them, or values that agree)"},
		{"workers,ps,batch,steps_per_s,mode\n2,0,64,2,sync\n",
			"traces: throughput.csv:2:3: ps: 0 with mode sync: sync is a parameter-server mode and needs the shard count (expected ps >= 1; a run without parameter servers is mode allreduce)"},
		{"workers,ps,batch,steps_per_s,mode\n2,0,64,2,async\n",
			"traces: throughput.csv:2:3: ps: 0 with mode async: async is a parameter-server mode and needs the shard count (expected ps >= 1; a run without parameter servers is mode allreduce)"},
		{"workers,ps,batch,steps_per_s\n2,0,64,2\n",
			"traces: throughput.csv:2:3: ps: 0 with mode async, the default when mode is empty: async is a parameter-server mode and needs the shard count (expected ps >= 1; a run without parameter servers is mode allreduce)"},
		{"workers,ps,batch,steps_per_s,mode\n2,1,64,2,allreduce\n",
			"traces: throughput.csv:2:3: ps: 1 with mode allreduce: all-reduce has no parameter servers (expected ps 0, or mode async or sync)"},
		// fit fitted them, and predict refused the model at that
		// configuration (less than a sample per worker)
		{"workers,ps,global_batch,samples_per_s,mode\n1,1,64,219,sync\n128,1,64,840,sync\n",
			"traces: throughput.csv:3:7: global_batch: 64 is below workers 128: each worker takes at least one sample a step (expected global_batch >= 128, or fewer workers)"},
		{"workers,ps,batch,samples_per_s,mode,nodes,model\n1,1,64,219,sync,5,m\n",
			"traces: throughput.csv:2:17: nodes: 5 is above workers 1: each machine runs at least one worker (expected nodes from 1 to 1, or empty: one machine per worker)"},
	} {
		if _, err := readKind("throughput", c.in); err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	// rows that agree (to the tolerance) are read
	for _, in := range []string{
		"workers,ps,batch,steps_per_s,samples_per_s\n2,1,64,2,128\n",
		"workers,ps,batch,global_batch,steps_per_s,samples_per_s,mode\n2,1,64,128,2,256.0000001,sync\n",
		"workers,ps,global_batch,steps_per_s,samples_per_s,mode\n3,0,100,0.3,30,allreduce\n",
		"workers,ps,global_batch,steps_per_s,samples_per_s\n4,2,256,10,640\n",    // async: 256/4 per update
		"workers,ps,global_batch,steps_per_s,mode,nodes\n4,0,4,10,allreduce,4\n", // at the bounds
	} {
		if n, err := readKind("throughput", in); err != nil || n != 1 {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestUpdatesOutOfRange: an update's worker and shard lie in the run's
// 0..workers-1 and 0..ps-1 (from steps.csv), in Load and SummarizePaths,
// whatever order the files are named in.
func TestUpdatesOutOfRange(t *testing.T) {
	dir := t.TempDir()
	steps := writeTestFile(t, dir, "steps.csv", "run,workers,ps,batch,worker,step,start,end\na,1,1,32,0,0,0,1\na,1,1,32,0,1,1,2\n")
	for _, c := range []struct{ in, want string }{
		{"run,shard,worker,time,version,staleness\na,0,0,1,1,0\na,0,7,1,2,0\n",
			`:3:5: worker: 7 is out of range (expected 0..0: run "a" has workers=1 in ` + steps + " line 2)"},
		{"run,shard,worker,time,version,staleness\na,5,0,1,1,0\n",
			`:2:3: shard: 5 is out of range (expected 0..0: run "a" has ps=1 in ` + steps + " line 2)"},
	} {
		upd := writeTestFile(t, dir, "updates.csv", c.in)
		want := "traces: " + upd + c.want
		for _, paths := range [][]string{{dir}, {upd, steps}} {
			if _, _, err := Load(paths...); err == nil || err.Error() != want {
				t.Errorf("Load(%v):\n got %v\nwant %s", paths, err, want)
			}
			if _, _, err := SummarizePaths(paths...); err == nil || err.Error() != want {
				t.Errorf("SummarizePaths(%v):\n got %v\nwant %s", paths, err, want)
			}
		}
	}
	// updates of a run without steps cannot be checked, and are read
	other := filepath.Join(t.TempDir(), "x")
	upd := writeTestFile(t, other, "updates.csv", "run,shard,worker,time,version,staleness\nb,5,0,1,1,0\n")
	if tr, _, err := Load(steps, upd); err != nil || len(tr.Updates) != 1 {
		t.Errorf("Load: %v", err)
	}
	// a run with ps 0 has no parameter server to apply updates
	zero := writeTestFile(t, filepath.Join(t.TempDir(), "z"), "steps.csv", "run,workers,ps,batch,worker,step,start,end\nb,1,0,32,0,0,0,1\n")
	if _, _, err := Load(zero, upd); err == nil || !strings.Contains(err.Error(), `shard: 5: run "b" has ps=0`) {
		t.Errorf("Load, ps 0: %v", err)
	}
}
