package traces

import (
	"bytes"
	"fmt"
	"testing"
)

// benchChrome is a PyTorch-like trace of n steps with 4 events each.
func benchChrome(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"traceEvents": [`)
	for i := range n {
		t := float64(i) * 1000
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": 1, "tid": 1, "ts": %g, "dur": 1000},
{"ph": "X", "cat": "cpu_op", "name": "## forward ##", "pid": 1, "tid": 1, "ts": %g, "dur": 300},
{"ph": "X", "cat": "cpu_op", "name": "## backward ##", "pid": 1, "tid": 1, "ts": %g, "dur": 400},
{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce", "pid": 0, "tid": 7, "ts": %g, "dur": 300}`, i, t, t, t+300, t+500)
	}
	b.WriteString("]}")
	return b.Bytes()
}

// BenchmarkReadChromeTrace: events/s of ReadChromeTrace.
func BenchmarkReadChromeTrace(b *testing.B) {
	for _, n := range []int{1000, 25000} {
		data := benchChrome(n)
		b.Run(fmt.Sprint(4*n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				tr, _, err := ReadChromeTrace(bytes.NewReader(data), "bench.json", ConvertOptions{Batch: 1})
				if err != nil || len(tr.Steps) != n {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(4*n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// chromeLongEvent is a PyTorch-like trace of n steps of 1000 us with
// perStep compute events each, and one compute event over all the steps
// (pid 1, tid 3): the review's case of convert made quadratic by one long
// event.
func chromeLongEvent(n, perStep int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"traceEvents": [`)
	fmt.Fprintf(&b, `{"name": "forward_long", "ph": "X", "ts": 0, "dur": %d, "pid": 1, "tid": 3}`, n*1000)
	for i := range n {
		t := i * 1000
		fmt.Fprintf(&b, ",\n"+`{"name": "ProfilerStep#%d", "ph": "X", "ts": %d, "dur": 1000, "pid": 1, "tid": 1}`, i, t)
		for k := range perStep {
			fmt.Fprintf(&b, ",\n"+`{"name": "aten::forward", "ph": "X", "ts": %d, "dur": 50, "pid": 1, "tid": 1}`, t+10+90*k)
		}
	}
	b.WriteString("]}")
	return b.Bytes()
}

// BenchmarkChromeLongEvent: steps of 10 events each and one event as long
// as all of them (the union of a phase's events in each step scanned from
// the first event: 20,000 steps took 12 s, against 1 s without it).
//
//	go test ./traces -run '^$' -bench ChromeLongEvent -count 6
func BenchmarkChromeLongEvent(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		data := chromeLongEvent(n, 10)
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				tr, _, err := ReadChromeTrace(bytes.NewReader(data), "bench.json", ConvertOptions{Batch: 1})
				if err != nil || len(tr.Steps) != n {
					b.Fatal(err)
				}
			}
		})
	}
}
