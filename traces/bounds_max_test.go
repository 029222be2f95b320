package traces

import (
	"strings"
	"testing"
)

// A worker or shard count above limits.MaxCount (a million) is refused at
// its line and column, as any value out of its range: a throughput table
// of 1e8 workers made fit --plot walk 2e8 counts for hours, and a steps.csv
// of 1e9 workers failed after the whole fit with a message about the
// model.json it did not write. A million itself reads.
func TestReadersRefuseCountsAboveMax(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
		read             func(string) error
	}{
		{"throughput workers", "workers,ps,batch,samples_per_s,mode\n1,1,64,52.4,sync\n100000000,4,64,1388,sync\n",
			"traces: t.csv:3:1: workers: 100000000 is above 1000000 (expected an integer from 1 to 1000000", readThroughputText},
		{"throughput ps", "workers,ps,batch,samples_per_s,mode\n1,1000001,64,52.4,sync\n",
			"traces: t.csv:2:3: ps: 1000001 is above 1000000 (expected an integer from 0 to 1000000", readThroughputText},
		{"throughput at the bound", "workers,ps,batch,samples_per_s,mode\n1000000,1000000,64,52.4,sync\n", "", readThroughputText},
		{"steps workers", "run,workers,ps,batch,worker,step,start,end\nr,1000000000,1,32,0,0,0,1\n",
			"traces: t.csv:2:3: workers: 1000000000 is above 1000000 (expected an integer from 1 to 1000000", readStepsText},
		{"steps ps", "run,workers,ps,batch,worker,step,start,end\nr,1,2000000,32,0,0,0,1\n",
			"traces: t.csv:2:5: ps: 2000000 is above 1000000", readStepsText},
		{"steps at the bound", "run,workers,ps,batch,worker,step,start,end\nr,1000000,1000000,32,0,0,0,1\n", "", readStepsText},
	} {
		err := c.read(c.text)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want it read", c.name, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q...", c.name, err, c.want)
		}
	}
}

func readThroughputText(s string) error {
	_, err := ReadThroughput(strings.NewReader(s), "t.csv", func(Throughput) error { return nil })
	return err
}

func readStepsText(s string) error {
	_, err := ReadSteps(strings.NewReader(s), "t.csv", func(Step) error { return nil })
	return err
}
