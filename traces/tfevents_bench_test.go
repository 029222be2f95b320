package traces

import (
	"bytes"
	"fmt"
	"testing"
)

// benchEventFile is an event file of n steps, each with a loss and a rate.
func benchEventFile(n int) []byte {
	f := AppendTFRecord(nil, tfTestEvent(1000, 0, "brain.Event:2"))
	for i := 1; i <= n; i++ {
		f = AppendTFRecord(f, tfTestEvent(1000+float64(i), int64(i), "",
			tfTestValue{tag: "loss", simple: f32(1 / float32(i))},
			tfTestValue{tag: "global_step/sec", tensor: tfTestTensor(2, 2, true)}))
	}
	return f
}

// BenchmarkReadTFEvents: events/s of ReadTFEvents (CRC check and decode).
func BenchmarkReadTFEvents(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		data := benchEventFile(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				s, _, _, err := ReadTFEvents(bytes.NewReader(data), "bench")
				if err != nil || len(s) != 2*n {
					b.Fatal(err, len(s))
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
