package traces

import (
	"strings"
	"testing"
)

// A step marked twice, by a second thread, makes no row: its marker's end
// does not hide a kernel's tail past the last step the rows keep (tid 2's
// step 2 ran to 2110 us, past the kernel's end at 2100, and the 100 us
// after the kept step 2's end at 2000 were dropped without a word).
func TestChromeTailPastTwiceMarkedStep(t *testing.T) {
	const trace = `[{"name":"ProfilerStep#1","ph":"X","ts":0,"dur":1000,"pid":1,"tid":1},
{"name":"ProfilerStep#2","ph":"X","ts":1000,"dur":1000,"pid":1,"tid":1},
{"name":"ProfilerStep#2","ph":"X","ts":1010,"dur":1100,"pid":1,"tid":2},
{"name":"ncclKernel_AllReduce","ph":"X","ts":1800,"dur":300,"pid":2,"tid":7}]`
	tr, warns, err := ReadChromeTrace(strings.NewReader(trace), "t.json", ConvertOptions{Run: "t", Batch: 32})
	if err != nil {
		t.Fatal(err)
	}
	all := joinErrs(warns)
	if len(tr.Steps) != 2 || tr.Steps[1].End != 0.002 ||
		!strings.Contains(all, "traces: t: of its phase intervals (after merging overlaps), 1 running past the end of its process's last step, the part after it not counted (0.0001 s in all") ||
		!strings.Contains(all, "1 step marked twice (the first, worker 0 step 2)") {
		t.Errorf("%d steps %v, warnings %s", len(tr.Steps), tr.Steps, all)
	}
}
