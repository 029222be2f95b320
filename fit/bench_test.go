package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// simSteps simulates n steps of async runs with 1, 2, 4 and 8 workers
// (compute 0.05 + Exp(0.05) s, pull = push = 0.01 s, with a loss), spread
// evenly over the runs. Timing is approximate (no queueing): enough for
// the estimators' cost, which does not depend on the values.
func simSteps(n int) *traces.Trace {
	rng := rand.New(rand.NewPCG(1, 2))
	t := &traces.Trace{}
	ws := []int{1, 2, 4, 8}
	per := n / len(ws)
	for _, w := range ws {
		run := "w" + string(rune('0'+w))
		clock := make([]float64, w)
		for i := 0; i < per; i++ {
			k := i % w
			c := 0.05 + 0.05*rng.ExpFloat64()
			start := clock[k]
			end := start + c + 0.02
			clock[k] = end
			t.Steps = append(t.Steps, traces.Step{Run: run, Workers: w, PS: 1, Batch: 32, Worker: k, Step: int64(i / w),
				Start: start, End: end, Pull: 0.01, Compute: c, Push: 0.01, Staleness: w - 1, Loss: 1/(0.001*float64(i)+0.5) + 0.1})
		}
		t.Runs = append(t.Runs, traces.RunInfo{Run: run, Mode: "async", ParamBytes: 4e6, Bandwidth: 4e8, Epochs: math.NaN()})
	}
	return t
}

// cpuSeconds is the process's user + system CPU time: on a shared, loaded
// machine CPU time per op is steadier than wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// loopCPU runs f b.N times (b.Loop) and reports CPU seconds per op.
func loopCPU(b *testing.B, f func()) {
	c0 := cpuSeconds()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric((cpuSeconds()-c0)/float64(n), "cpu-s/op")
}

// BenchmarkFitSteps1M: the step-level fit (run statistics, profile, auto
// family choice, loss curves) of a 1,000,000-row trace in memory.
func BenchmarkFitSteps1M(b *testing.B) {
	t := simSteps(1_000_000)
	loopCPU(b, func() {
		if _, err := FitSteps(t, nil, StepOptions{}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkFitStepsFile1M: end to end, a 1,000,000-row steps.csv read
// into memory (traces.Load) and fitted; BenchmarkFitStepsPaths1M streams
// it instead (FitStepsPaths, what sgdplan fit does).
func BenchmarkFitStepsFile1M(b *testing.B) {
	dir := b.TempDir()
	t := simSteps(1_000_000)
	f, err := os.Create(filepath.Join(dir, "steps.csv"))
	if err != nil {
		b.Fatal(err)
	}
	if err := traces.WriteSteps(f, t.Steps); err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.ResetTimer()
	b.Run("load", func(b *testing.B) {
		loopCPU(b, func() {
			tr, _, err := traces.Load(dir)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := FitSteps(tr, nil, StepOptions{}); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("stream", func(b *testing.B) {
		loopCPU(b, func() {
			if _, _, err := FitStepsPaths([]string{dir}, StepOptions{}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkFitTableBootstrap1000: a throughput table (5 worker counts x 3
// shard counts x 2 repeats) fitted with 1,000 bootstrap resamples.
func BenchmarkFitTableBootstrap1000(b *testing.B) {
	pts := synth("optimus-sync", []float64{1e-3, 0.05, 0.01, 0.002, 0.005}, []int{1, 2, 4, 8, 16}, []int{1, 2, 4}, 32, false, 0.02, 1)
	for _, fam := range []string{"optimus-sync", "auto"} {
		b.Run(fam, func(b *testing.B) {
			loopCPU(b, func() {
				if _, _, err := FitThroughput(pts, fam, &Settings{Bootstrap: 1000}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
	// a table where auto keeps a mean of three families: each resample
	// refits every member
	close := closeFamiliesData()
	b.Run("auto-mean", func(b *testing.B) {
		loopCPU(b, func() {
			tf, _, err := FitThroughput(close, "auto", &Settings{Bootstrap: 1000})
			if err != nil || len(tf.Family.Members) < 2 {
				b.Fatalf("%v, %v", tf, err)
			}
		})
	})
}

// BenchmarkPredictWorkers1000: Model.Predict of a fitted mva model (50
// bootstrap samples) at 1..1000 workers, as predict --workers 1-1000 does:
// "memo" with the model's sweep memo (one MVA pass per sample), "direct"
// solving each worker count on its own (the cost before the memo).
func BenchmarkPredictWorkers1000(b *testing.B) {
	m := sweepModel(b)
	for _, v := range []struct {
		name string
		memo bool
	}{{"memo", true}, {"direct", false}} {
		b.Run(v.name, func(b *testing.B) {
			loopCPU(b, func() {
				c := *m
				c.sweeps = nil
				if v.memo {
					c.sweeps = newSweepMemo()
				}
				for w := 1; w <= 1000; w++ {
					c.Predict(model.Config{Workers: w}, 0.5, 0)
				}
			})
		})
	}
}

// BenchmarkPredictAboveSweepMax: Model.Predict at the 1,000 worker counts
// just above sweepMax (16,385-17,384), each solved on its own ("alone")
// or after Model.Prime (one sweep per parameter vector, "primed"), as
// sgdplan predict --workers 16385-17384 does.
func BenchmarkPredictAboveSweepMax(b *testing.B) {
	m := sweepModel(b)
	var cs []model.Config
	for w := sweepMax + 1; w <= sweepMax+1000; w++ {
		cs = append(cs, model.Config{Workers: w})
	}
	for _, primed := range []bool{true, false} {
		name := "alone"
		if primed {
			name = "primed"
		}
		b.Run(name, func(b *testing.B) {
			loopCPU(b, func() {
				c := *m
				c.sweeps = newSweepMemo()
				if primed {
					c.Prime(cs)
				}
				for _, x := range cs {
					c.Predict(x, 0.5, 0)
				}
			})
		})
	}
}

// BenchmarkPredictRange: Model.Predict at 1..N workers, one shard, of the
// demo's model (testdata/asgd fitted on 1-2 workers with 200 bootstrap
// samples and loss curves, as sgdplan fit --train-workers 1,2 writes it),
// after Model.Prime as sgdplan predict --workers 1-N does; a fresh memo
// per op. cpu-s/op is the CPU time per op (steadier than wall time on a
// shared machine).
func BenchmarkPredictRange(b *testing.B) {
	sf, _, err := FitStepsPaths([]string{filepath.Join(repoRoot(b), "testdata", "asgd")}, StepOptions{TrainWorkers: []int{1, 2}})
	if err != nil {
		b.Skipf("no real async traces: %v", err)
	}
	m := sf.Model
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			cs := make([]model.Config, n)
			for i := range cs {
				cs[i] = model.Config{Workers: i + 1, PS: 1}
			}
			loopCPU(b, func() { primeAndPredict(m, cs) })
		})
	}
}

// primeAndPredict is what sgdplan predict does with m at cs, on a copy of
// m with a fresh memo: Prime, then Predict at each configuration in turn.
func primeAndPredict(m *Model, cs []model.Config) {
	c := *m
	c.sweeps = newSweepMemo()
	c.Prime(cs)
	for _, x := range cs {
		c.Predict(x, math.NaN(), 0)
	}
}
