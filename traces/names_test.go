package traces

import (
	"bytes"
	"strings"
	"testing"
)

// A run name with a control character (NUL, ESC: not the tab or line
// break a quoted field may hold) or bytes that are not UTF-8 is refused at
// its line and column by the readers, and by the writers (what they write
// reads back): such names went into model.json as U+FFFD, another name.
func TestRunNamesAreText(t *testing.T) {
	for _, c := range []struct{ run, want string }{
		{`"w1,` + "\x1b" + `x"`, `traces: t.csv:2:1: run: "w1,\x1bx" holds the control character U+001B at byte 4`},
		{"w\xff1", `traces: t.csv:2:1: run: "w\xff1" is not valid UTF-8`},
		{"a\x00", `traces: t.csv:2:1: run: "a\x00" holds the control character U+0000`},
	} {
		err := readStepsText("run,workers,ps,batch,worker,step,start,end\n" + c.run + ",1,1,32,0,0,0,1\n")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("steps run %q: error %v, want %q...", c.run, err, c.want)
		}
		_, err = ReadRuns(strings.NewReader("run,mode\n"+c.run+",async\n"), "t.csv", func(RunInfo) error { return nil })
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("runs run %q: error %v, want %q...", c.run, err, c.want)
		}
	}
	// a model name too (runs.csv, throughput.csv): the key of a series
	_, err := ReadRuns(strings.NewReader("run,mode,model\nr,async,synth\xe9tic\n"), "t.csv", func(RunInfo) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), `traces: t.csv:2:9: model: "synth\xe9tic" is not valid UTF-8`) {
		t.Errorf("runs model: error %v", err)
	}
	err = readThroughputText("workers,ps,batch,samples_per_s,mode,model\n1,1,64,52.4,sync,m\x1b\n")
	if err == nil || !strings.HasPrefix(err.Error(), `traces: t.csv:2:18: model: "m\x1b" holds the control character U+001B`) {
		t.Errorf("throughput model: error %v", err)
	}
	if err := readStepsText("run,workers,ps,batch,worker,step,start,end\nréseau,1,1,32,0,0,0,1\n"); err != nil {
		t.Errorf("a UTF-8 name: %v", err)
	}
	var buf bytes.Buffer
	err = WriteSteps(&buf, []Step{{Run: "a\x00b", Workers: 1, PS: 1, Batch: 32, End: 1, Staleness: -1}})
	if err == nil || !strings.Contains(err.Error(), "holds the control character U+0000") || buf.Len() != 0 {
		t.Errorf("WriteSteps of run \"a\\x00b\": error %v, %d bytes written; want it refused, nothing written", err, buf.Len())
	}
}
