package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// The excerpt's one series (Dell, ResNet-50, A100-SXM-40GB, 4-128 GPUs):
// trained on the three smallest systems, the others predicted, at the
// samples/s computed from the same files by a separate script (the upper
// median over the runs; this reader interpolates the median, hence 0.5%).
func TestMLPerfThroughputSeriesExcerpt(t *testing.T) {
	const dir = "../testdata/public/mlperf-throughput/"
	runs, err := traces.ReadMLPerfRuns(dir + "mlperf_training_v2.0_runs.csv")
	if err != nil {
		t.Fatal(err)
	}
	evals, err := traces.ReadMLPerfEvals(dir + "mlperf_training_v2.0_eval_curves.csv")
	if err != nil {
		t.Fatal(err)
	}
	ss, rd := MLPerfThroughputSeries(runs, evals)
	if len(ss) != 1 || len(ss[0].Train) != 3 || len(ss[0].Test) != 3 {
		t.Fatalf("%d series %+v, want one of 3 training and 3 test configurations", len(ss), ss)
	}
	if rd.Runs != 28 || rd.Read != 28 || rd.UnitErrors != 0 || rd.Configs != 6 {
		t.Errorf("reading %+v, want the 28 successful runs (of 30) read, 6 configurations", rd)
	}
	want := []struct {
		gpus, nodes int
		global, sps float64
	}{{4, 1, 1024, 12038}, {8, 2, 1632, 22516}, {16, 4, 3264, 43687}, {32, 8, 3264, 76273}, {64, 16, 13056, 174255}, {128, 32, 16384, 309050}}
	all := append(append([]Point{}, ss[0].Train...), ss[0].Test...)
	for i, w := range want {
		p := all[i]
		if p.Config.Workers != w.gpus || p.Config.Nodes != w.nodes || p.SamplesPerStep != w.global || p.Config.Batch != w.global/float64(w.gpus) {
			t.Errorf("point %d: %+v, want %d GPUs on %d nodes, global batch %g", i, p, w.gpus, w.nodes, w.global)
		}
		if got := p.StepsPerS * p.SamplesPerStep; math.Abs(got-w.sps) > 0.005*w.sps {
			t.Errorf("%d GPUs: %.1f samples/s, want %.0f", w.gpus, got, w.sps)
		}
	}
}

// A reading beyond 100,000 samples/s per accelerator is a unit error and
// left out; a v0.7 bert run without samples_count is not read (its
// epoch_num is submitter-dependent); a run not a success is not read.
func TestMLPerfThroughputSeriesRules(t *testing.T) {
	var runs []traces.MLPerfRun
	var evals []traces.MLPerfEval
	add := func(round, bench string, n int, status string, perAcc float64, samples bool) {
		run := traces.MLPerfRun{Round: round, Submitter: "S", System: bench + string(rune('a'+n%26)) + strings.Repeat("x", n/26), Benchmark: bench,
			Status: status, GlobalBatch: 64 * n, Accelerators: n, Nodes: (n + 7) / 8, Accelerator: "A", Run: "0", TrainSamples: 1000}
		runs = append(runs, run)
		for k := 0; k < 3; k++ {
			sec := 10 + 100*float64(k)
			x := perAcc * float64(n) * sec
			e := traces.MLPerfEval{Round: round, Submitter: "S", System: run.System, Benchmark: bench, Run: "0", GlobalBatch: run.GlobalBatch,
				Epoch: x / 1000, Samples: math.NaN(), Seconds: sec}
			if bench == "bert" {
				e.Epoch = x
				if samples {
					e.Samples = x
				}
			}
			evals = append(evals, e)
		}
	}
	for _, n := range []int{1, 2, 4, 8, 16} {
		add("v2.0", "ssd", n, "success", 500/(1+0.01*float64(n)), false)
		add("v0.7", "bert", n, "success", 300, false)
		add("v0.7", "resnet", n, "success", 2e5, false) // unit error
		add("v2.0", "bert", n, "aborted", 300, true)
	}
	ss, rd := MLPerfThroughputSeries(runs, evals)
	if len(ss) != 1 || !strings.Contains(ss[0].Name, "v2.0 ssd") {
		t.Fatalf("series %+v, want v2.0 ssd only", ss)
	}
	if rd.UnitErrors != 5 || rd.Runs != 15 || rd.Read != 10 {
		t.Errorf("reading %+v, want 15 successful runs, 10 read, 5 unit errors", rd)
	}
	s := ss[0]
	if len(s.Train) != 3 || len(s.Test) != 2 || s.Train[2].Config.Workers != 4 || s.Test[0].Config.Workers != 8 {
		t.Errorf("train %+v test %+v: want 1-4 accelerators to train, 8-16 to predict", s.Train, s.Test)
	}
	if got, want := s.Test[1].StepsPerS*s.Test[1].SamplesPerStep, 16*500/1.16; math.Abs(got-want) > 1e-9*want {
		t.Errorf("16 accelerators: %g samples/s, want %g", got, want)
	}
}
