package fit

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// epochsByLaw are the epochs to target at b when the steps follow the GNS
// law: steps = s0 (1 + noise/b)/(1 + noise/ref), epochs = steps x b (per
// sample of the dataset).
func epochsByLaw(s0, noise, ref, b float64) float64 {
	return s0 * (1 + noise/b) / (1 + noise/ref) * b
}

// TestScoreBatchTableRecoversLaw: epochs simulated by the law, given in
// shuffled order, are fitted on the smallest half and the larger half is
// predicted exactly; the constant-epochs baseline misses by what the law
// says.
func TestScoreBatchTableRecoversLaw(t *testing.T) {
	const s0, noise = 0.02, 3000.0
	batches := []float64{8192, 256, 4096, 512, 1024, 2048, 16384, 128}
	epochs := make([]float64, len(batches))
	for i, b := range batches {
		epochs[i] = epochsByLaw(s0, noise, 128, b)
	}
	s, err := ScoreBatchTable("sim", batches, epochs)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := joinFloats(s.Train), "128 256 512 1024"; got != want {
		t.Errorf("train %s, want %s (the smallest half)", got, want)
	}
	if got, want := joinFloats(s.Test), "2048 4096 8192 16384"; got != want {
		t.Errorf("test %s, want %s", got, want)
	}
	if math.Abs(s.Noise-noise) > 1e-6*noise {
		t.Errorf("noise %g, want %g", s.Noise, noise)
	}
	constant := epochsByLaw(s0, noise, 128, 1024)
	var constSum float64
	for i, b := range s.Test {
		want := epochsByLaw(s0, noise, 128, b)
		if s.Measured[i] != want {
			t.Errorf("measured at %g: %g, want %g", b, s.Measured[i], want)
		}
		if math.Abs(s.Est[i]-want) > 1e-6*want {
			t.Errorf("predicted at %g: %g, want %g", b, s.Est[i], want)
		}
		if s.Constant[i] != constant {
			t.Errorf("constant at %g: %g, want %g (the largest training batch's epochs)", b, s.Constant[i], constant)
		}
		constSum += 100 * (want - constant) / want
	}
	if s.MAPE > 1e-4 || s.Worst > 1e-4 {
		t.Errorf("MAPE %g worst %g, want ~0", s.MAPE, s.Worst)
	}
	if want := constSum / 4; math.Abs(s.ConstMAPE-want) > 1e-9 || s.ConstMAPE < 10 {
		t.Errorf("constant MAPE %g, want %g (epochs grow with the batch here)", s.ConstMAPE, want)
	}
	if s.ConstWorst < s.ConstMAPE {
		t.Errorf("constant worst %g below its mean %g", s.ConstWorst, s.ConstMAPE)
	}
}

// TestScoreBatchTableSplit: an odd count trains on the smaller half
// (floor), and constant epochs are predicted as constant by both.
func TestScoreBatchTableSplit(t *testing.T) {
	batches := []float64{64, 32, 128, 512, 256}
	epochs := []float64{10, 10, 10, 10, 10}
	s, err := ScoreBatchTable("flat", batches, epochs)
	if err != nil {
		t.Fatal(err)
	}
	if joinFloats(s.Train) != "32 64" || joinFloats(s.Test) != "128 256 512" {
		t.Errorf("train %v test %v", s.Train, s.Test)
	}
	if s.ConstMAPE != 0 || s.MAPE > 1e-3 {
		t.Errorf("constant epochs: law MAPE %g, baseline %g, want both ~0", s.MAPE, s.ConstMAPE)
	}
	for _, c := range []struct {
		b, e []float64
		msg  string
	}{
		{[]float64{1, 2, 3}, []float64{1, 1, 1}, "3 batch sizes, want 4"},
		{[]float64{1, 2, 3, 4}, []float64{1, 1, 1}, "4 batch sizes, 3 epoch counts"},
		{[]float64{1, 2, 2, 4}, []float64{1, 1, 1, 1}, "appears twice"},
		{[]float64{1, 2, 3, 0}, []float64{1, 1, 1, 1}, "want positive"},
		{[]float64{1, 2, 3, 4}, []float64{1, math.NaN(), 1, 1}, "want positive"},
		{[]float64{1, 2, 3, 4}, []float64{1, 1, math.Inf(1), 1}, "want positive"},
	} {
		if _, err := ScoreBatchTable("bad", c.b, c.e); err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "fit: bad: ") {
			t.Errorf("%v %v: err %v, want one with %q", c.b, c.e, err, c.msg)
		}
	}
}

// TestMLPerfBatchTables: grouping by (round, benchmark), the filters and the
// median per batch on hand-made runs.
func TestMLPerfBatchTables(t *testing.T) {
	run := func(round, bench, div, status string, batch int, epochs float64) traces.MLPerfRun {
		return traces.MLPerfRun{Round: round, Benchmark: bench, Division: div, Status: status, GlobalBatch: batch, EpochsToTarget: epochs}
	}
	runs := []traces.MLPerfRun{
		run("v2.0", "ssd", "closed", "success", 256, 4),
		run("v2.0", "ssd", "closed", "success", 256, 5),
		run("v2.0", "ssd", "closed", "success", 256, 7),
		run("v2.0", "ssd", "closed", "success", 128, 5),
		run("v2.0", "ssd", "closed", "success", 128, 6),
		run("v2.0", "ssd", "open", "success", 128, 100),                   // open division
		run("v2.0", "ssd", "closed", "aborted", 128, 100),                 // aborted
		run("v2.0", "ssd", "closed", "success", 512, math.NaN()),          // no epochs
		run("v2.0", "ssd", "closed", "success", 512, 0),                   // no epochs
		run("v2.0", "bert", "closed", "success", 448, 2.7e6),              // excluded benchmark
		run("v0.7", "gnmt", "Closed", "Success", 2048, 4),                 // case as logged
		run("v2.0", "maskrcnn", "closed", "success", 96, 14),              // second benchmark
		run("v0.7", "ssd", "", "success", 1024, 50),                       // unknown division
		run("v0.7", "gnmt", "closed", "success", 2048, 5),                 // same batch
		run("v2.0", "ssd", "closed", "success", 1280, math.Inf(1)),        // not finite
		run("v0.7", "transformer", "closed", "abort", 512, 3),             // abort
		run("v0.7", "transformer", "closed", "success", 512, 3),           //
		run("v0.7", "transformer", "closed", "success", 2048, 5),          //
		run("v0.7", "transformer", "closed", "success", 2048, 5),          //
		run("v0.7", "transformer", "closed", "success", 2048, math.NaN()), //
	}
	tabs := MLPerfBatchTables(runs)
	var names []string
	for _, tb := range tabs {
		names = append(names, tb.Name())
	}
	if got, want := strings.Join(names, ","), "v2.0 maskrcnn,v2.0 ssd,v0.7 gnmt,v0.7 transformer"; got != want {
		t.Fatalf("tables %s, want %s", got, want)
	}
	ssd := tabs[1]
	if joinFloats(ssd.Batches) != "128 256" || joinFloats(ssd.Epochs) != "5.5 5" || ssd.Runs[0] != 2 || ssd.Runs[1] != 3 || ssd.Pooled() != 5 {
		t.Errorf("ssd table %+v: want batches 128 256, medians 5.5 5, runs 2 3", ssd)
	}
	if g := tabs[2]; joinFloats(g.Batches) != "2048" || joinFloats(g.Epochs) != "4.5" || g.Pooled() != 2 {
		t.Errorf("gnmt table %+v", g)
	}
	if tr := tabs[3]; joinFloats(tr.Epochs) != "3 5" || tr.Runs[0] != 1 || tr.Runs[1] != 2 {
		t.Errorf("transformer table %+v", tr)
	}
	if len(MLPerfBatchTables(nil)) != 0 {
		t.Error("no runs: want no tables")
	}
}

// TestMLPerfExcerptScores scores the gnmt and ssd tables of the testdata
// excerpt, which have 5 batches each.
func TestMLPerfExcerptScores(t *testing.T) {
	var runs []traces.MLPerfRun
	for _, f := range []string{"mlperf_training_v2.0_runs.csv", "mlperf_training_v0.7_runs.csv"} {
		rs, err := traces.ReadMLPerfRuns("../testdata/public/mlperf-training/" + f)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, rs...)
	}
	scored := 0
	for _, tb := range MLPerfBatchTables(runs) {
		if tb.Benchmark == "bert" {
			t.Errorf("bert tabulated")
		}
		if tb.Benchmark != "ssd" && tb.Benchmark != "gnmt" {
			continue
		}
		s, err := ScoreBatchTable(tb.Name(), tb.Batches, tb.Epochs)
		if err != nil {
			t.Fatalf("%s: %v", tb.Name(), err)
		}
		if len(s.Train) != 2 || len(s.Test) != 3 || !(s.MAPE >= 0) || s.Worst < s.MAPE || s.ConstWorst < s.ConstMAPE {
			t.Errorf("%s: %+v", tb.Name(), s)
		}
		scored++
	}
	if scored != 2 {
		t.Errorf("%d of the excerpt's ssd and gnmt tables scored, want 2", scored)
	}
}

func joinFloats(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(parts, " ")
}
