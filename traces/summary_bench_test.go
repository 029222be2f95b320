package traces

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkSummarizePaths summarizes a generated 1M-row steps.csv with the
// streaming two-pass reader and reports rows/s (rows of one pass; the file is
// read twice) and the peak heap in use, sampled every 10 ms.
//
//	go test ./traces -run '^$' -bench SummarizePaths -benchtime 1x -count 3
func BenchmarkSummarizePaths(b *testing.B) {
	const n = 1_000_000
	dir := b.TempDir()
	writeBenchSteps(b, filepath.Join(dir, "steps.csv"), n)
	var peak uint64
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	runtime.GC()
	for b.Loop() {
		sums, _, err := SummarizePaths(dir)
		if err != nil || len(sums) != 1 || sums[0].Steps != n || !(sums[0].UpdatesPerS > 0) {
			b.Fatalf("%v %+v", err, sums)
		}
	}
	close(done)
	<-exited
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	os.Remove(filepath.Join(dir, "steps.csv"))
}
