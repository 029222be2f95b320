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
