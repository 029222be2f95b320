package traces

import (
	"strings"
	"testing"
)

// The warnings of a chrome or tfevents conversion name the input file (and
// the position where one is known), as its errors do: some named the run,
// by default the file's stem ("traces: c12:", "traces: events:"), which
// reads as a file and is none.
func TestConvertWarningsNameTheFile(t *testing.T) {
	// two equal markers: the second lies inside the first (at byte 73 of
	// line 1); a rank without world_size, at the distributedInfo (line 2)
	const ev = `{"name":"step","ph":"X","ts":0,"dur":0,"pid":1,"tid":1}`
	in := `{"traceEvents":[` + ev + `,` + ev + "],\n" + `"distributedInfo":{"rank":2}}`
	_, warns, err := ReadChromeTrace(strings.NewReader(in), "c12.json", ConvertOptions{Run: "myrun", Mode: "allreduce"})
	if err != nil {
		t.Fatal(err)
	}
	all := errorsText(warns)
	for _, want := range []string{
		`traces: c12.json:1:73: 1 step marker inside another step marker of its process (a record_function("train_step") within ProfilerStep#N?) ignored: the outer marker is the step; the first here`,
		`traces: c12.json:2:1: distributedInfo gives rank 2 and no world_size: written as 3 workers (give --workers)`,
		`traces: c12.json: the trace holds the steps of 1 of the 3 workers`,
		`traces: c12.json: batch size unknown: steps.csv gets batch 1 (give --batch)`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings\n%s\nlack %s", all, want)
		}
	}
	if strings.Contains(all, "myrun") {
		t.Errorf("a warning names the run, not the file:\n%s", all)
	}

	const sample = "testdata/tfevents/events.out.tfevents.1000.sample"
	res, warns, err := Convert("tfevents", sample, ConvertOptions{Run: "myrun", Mode: "allreduce"})
	if err != nil {
		t.Fatal(err)
	}
	all = errorsText(warns)
	for _, want := range []string{
		"traces: " + sample + ": worker count unknown: throughput.csv gets 1 worker (give --workers)",
		"traces: " + sample + ": batch size unknown: throughput.csv gets batch 1 (give --batch)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings\n%s\nlack %s", all, want)
		}
	}
	if strings.Contains(all, "myrun") || res.Trace.Runs[0].Run != "myrun" {
		t.Errorf("a warning names the run, not the file (or the run is not myrun: %q):\n%s", res.Trace.Runs[0].Run, all)
	}
}
