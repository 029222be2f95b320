package traces

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// writeBenchSteps writes a steps.csv of n rows with every column filled:
// 16 workers of one run, times on a µs clock (about 95 bytes a row).
func writeBenchSteps(tb testing.TB, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(stepsHeader)
	var b []byte
	const workers = 16
	for i := range n {
		wk, k := i%workers, i/workers
		start := float64(k)*0.123457 + float64(wk)*0.001
		b = b[:0]
		b = append(b, "bench-run,16,4,32,"...)
		b = strconv.AppendInt(b, int64(wk), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, start, 'f', 6, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, start+0.123457, 'f', 6, 64)
		b = append(b, ",0.011234,0.090987,0.021236,"...)
		b = strconv.AppendInt(b, int64(k%31), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, 2.5/(1+float64(k)*1e-4), 'f', 5, 64)
		b = append(b, '\n')
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// cpuSeconds is the user + system CPU time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkReadSteps reads a generated steps.csv in size tiers and reports
// rows/s, MB/s and the peak heap in use during the read (sampled every 64Ki
// rows) and the process's peak resident memory. The 10M tier (about 1 GB on
// disk) runs only when SGDPLAN_BENCH_10M=1:
//
//	SGDPLAN_BENCH_10M=1 go test ./traces -run '^$' -bench ReadSteps -benchtime 1x -count 3
func BenchmarkReadSteps(b *testing.B) {
	tiers := []int{100_000, 1_000_000}
	if os.Getenv("SGDPLAN_BENCH_10M") != "" {
		tiers = append(tiers, 10_000_000)
	}
	dir := b.TempDir()
	for _, n := range tiers {
		path := filepath.Join(dir, fmt.Sprintf("steps-%d.csv", n))
		writeBenchSteps(b, path, n)
		st, _ := os.Stat(path)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.SetBytes(st.Size())
			var peak uint64
			var ms runtime.MemStats
			runtime.GC()
			cpu0 := cpuSeconds()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				rows := 0
				var sum float64
				_, err = ReadSteps(f, "steps.csv", func(s Step) error {
					rows++
					sum += s.End - s.Start
					if rows&(1<<16-1) == 0 {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse)
					}
					return nil
				})
				f.Close()
				if err != nil || rows != n || sum <= 0 {
					b.Fatalf("%d rows, %v", rows, err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			// CPU time (user + system of the process) per row: the figure to
			// trust when other work shares the machine and wall time stretches
			b.ReportMetric((cpuSeconds()-cpu0)*1e9/(float64(n)*float64(b.N)), "cpu-ns/row")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			var ru syscall.Rusage
			if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
				b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss-MB") // Linux: KiB
			}
		})
		os.Remove(path)
	}
}

// BenchmarkReadStepsOrder reads n steps of one worker, every 10th step (the
// gaps of a profiler's schedule), in increasing, decreasing and random
// order: the duplicate check's set of intervals was a sorted slice, and a
// step inserted before others copied the tail (quadratic: 200,000 in
// decreasing order took 15 s). Rows are "a,1,1,1,0,STEP,T,T+0.5".
//
//	go test ./traces -run '^$' -bench ReadStepsOrder -count 6
func BenchmarkReadStepsOrder(b *testing.B) {
	for _, order := range []string{"increasing", "decreasing", "random"} {
		for _, n := range []int{10_000, 100_000} {
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			switch order {
			case "decreasing":
				slices.Reverse(idx)
			case "random":
				rand.New(rand.NewPCG(1, 1)).Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
			}
			var data []byte
			data = append(data, "run,workers,ps,batch,worker,step,start,end\n"...)
			for _, i := range idx {
				data = fmt.Appendf(data, "a,1,1,1,0,%d,%d,%d.5\n", 10*i, i, i)
			}
			b.Run(fmt.Sprintf("%s/rows=%d", order, n), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					rows := 0
					_, err := ReadSteps(bytes.NewReader(data), "steps.csv", func(Step) error { rows++; return nil })
					if err != nil || rows != n {
						b.Fatalf("%d rows, %v", rows, err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

// BenchmarkReadStepsPipeline reads a generated steps.csv (as
// BenchmarkReadSteps writes it) from memory, on the pipeline that
// ReadSteps uses and on the sequential reader it replaced (one goroutine),
// for a file of 10 rows (the pipeline's goroutines do not start) and one of
// 1,000,000. cpu-ns/row is the process's CPU time per row (both cores).
//
//	go test ./traces -run '^$' -bench ReadStepsPipeline -count 6
func BenchmarkReadStepsPipeline(b *testing.B) {
	dir := b.TempDir()
	for _, n := range []int{10, 1_000_000} {
		path := filepath.Join(dir, fmt.Sprintf("steps-%d.csv", n))
		writeBenchSteps(b, path, n)
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"sequential", "pipeline"} {
			o := stepsRead{sequential: mode == "sequential"}
			b.Run(fmt.Sprintf("rows=%d/%s", n, mode), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				cpu0 := cpuSeconds()
				for b.Loop() {
					rows := 0
					_, err := readStepsWith(bytes.NewReader(data), "steps.csv", func(Step, int) error { rows++; return nil }, nil, o)
					if err != nil || rows != n {
						b.Fatalf("%d rows, %v", rows, err)
					}
				}
				b.ReportMetric((cpuSeconds()-cpu0)*1e9/(float64(n)*float64(b.N)), "cpu-ns/row")
			})
		}
	}
}

// BenchmarkLoadManyFolders loads 1,000 folders of one run each (2 workers
// x 50 steps, and an updates.csv): every row was looked up in every file
// before it, rows x files (a scaling review: 4,000 such folders took 12 s
// to inspect, 250 took 0.13 s); now in the files that hold its run.
func BenchmarkLoadManyFolders(b *testing.B) {
	root := b.TempDir()
	var dirs []string
	for i := range 1000 {
		var st, up strings.Builder
		st.WriteString(stepsHeader)
		up.WriteString("run,shard,worker,time,version,staleness\n")
		for w := range 2 {
			for s := range 50 {
				t := float64(s) * 0.2
				fmt.Fprintf(&st, "r%d,2,1,32,%d,%d,%g,%g,0.05,0.1,0.05,1,\n", i, w, s, t, t+0.2)
				fmt.Fprintf(&up, "r%d,0,%d,%g,%d,1\n", i, w, t+0.2, 2*s+w+1)
			}
		}
		d := filepath.Join(root, fmt.Sprintf("d%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "steps.csv"), []byte(st.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "updates.csv"), []byte(up.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	cpu0 := cpuSeconds()
	for b.Loop() {
		if _, _, err := Load(dirs...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
}
