package fit

import (
	"math"
	"slices"
	"testing"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// elasticflow-asplos23's series are its models, global batches pooled
// (the unit the figures issue 4 quotes were computed on): train on at most
// 8 GPUs, test on 16 or more.
func TestProtocolSeriesElasticFlowPerModel(t *testing.T) {
	var rows []traces.Throughput
	for _, gb := range []int{64, 128} {
		for _, g := range []int{1, 2, 4, 8, 16, 32} {
			rows = append(rows, traces.Throughput{Model: "bert", Workers: g, Nodes: (g + 7) / 8, GlobalBatch: gb, Batch: gb / g, StepsPerS: 10 / float64(gb) * float64(g), SamplesPerS: math.NaN(), Mode: "allreduce"})
		}
	}
	ss, skipped, err := ProtocolSeries("elasticflow-asplos23", rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Name != "bert" || len(skipped) != 0 {
		t.Fatalf("series %v, skipped %v: want one, bert", ss, skipped)
	}
	if len(ss[0].Train) != 8 || len(ss[0].Test) != 4 {
		t.Fatalf("train %d, test %d: want 8 and 4", len(ss[0].Train), len(ss[0].Test))
	}
	for _, p := range ss[0].Test {
		if p.Config.Workers < 16 {
			t.Errorf("test point at %d GPUs", p.Config.Workers)
		}
	}
}

// The constant and linear baselines start from the largest training
// configuration at the predicted configuration's own batch (global batch
// on synchronous data), then at its per-worker batch (the weak-scaling
// baseline), and from the largest of all when neither was trained on.
func TestBaselinesMatchTheBatch(t *testing.T) {
	pt := func(w int, gb, stepsPerS float64) Point {
		return Point{Config: model.Config{Workers: w, Batch: gb / float64(w)}, StepsPerS: stepsPerS, SamplesPerStep: gb}
	}
	train := []Point{pt(1, 64, 5), pt(8, 64, 20), pt(1, 128, 3), pt(4, 128, 9), pt(8, 32, 30)}
	bs := BaselineMethods()
	constant, _, _ := bs[0].Fit(train)
	linear, _, _ := bs[1].Fit(train)
	for _, c := range []struct {
		w         int
		gb        float64
		cons, lin float64
	}{
		{16, 64, 20, 40},   // from (8, 64): 20 steps/s, 2x the workers
		{16, 128, 9, 36},   // from (4, 128): 9 steps/s, 4x
		{16, 512, 9, 9},    // 512 not trained on, its per-worker 32 is: from (4, 128), the per-worker rate kept
		{16, 256, 30, 7.5}, // neither 256 nor 16 a worker trained on: the largest of all, (8, 32): 960 samples/s, 2x the workers, over 256 samples a step
	} {
		cfg := model.Config{Workers: c.w, Batch: c.gb / float64(c.w)}
		if got := constant(cfg); math.Abs(got-c.cons) > 1e-12 {
			t.Errorf("constant at %d workers, global batch %g: %g, want %g", c.w, c.gb, got, c.cons)
		}
		if got := linear(cfg); math.Abs(got-c.lin) > 1e-9 {
			t.Errorf("linear at %d workers, global batch %g: %g, want %g", c.w, c.gb, got, c.lin)
		}
	}
}

// TestSeriesErrorByHand: the protocol's error of one prediction is
// |predicted - measured| / measured in its unit of prediction
// (../shared/docs/validation-protocol.md): pollux-osdi21's is the step
// time. Measured 2 and 4 steps/s (0.5 s and 0.25 s a step), predicted 1
// and 5 steps/s (1 s and 0.2 s):
//
//	step time: |1 - 0.5|/0.5 = 100%, |0.2 - 0.25|/0.25 = 20%: MAPE 60, worst 100
//	steps/s:   |1 - 2|/2 = 50%,      |5 - 4|/4 = 25%:        MAPE 37.5, worst 50
//
// and a NaN prediction is an infinite error.
func TestSeriesErrorByHand(t *testing.T) {
	test := []Point{{Config: model.Config{Workers: 8}, StepsPerS: 2}, {Config: model.Config{Workers: 16}, StepsPerS: 4}}
	pred := func(c model.Config) float64 {
		if c.Workers == 8 {
			return 1
		}
		return 5
	}
	for _, c := range []struct {
		timeUnit    bool
		mape, worst float64
	}{{true, 60, 100}, {false, 37.5, 50}} {
		mape, worst := seriesError(Series{Test: test, TimeUnit: c.timeUnit}, pred)
		if math.Abs(mape-c.mape) > 1e-9 || math.Abs(worst-c.worst) > 1e-9 {
			t.Errorf("time unit %v: MAPE %g, worst %g; want %g, %g", c.timeUnit, mape, worst, c.mape, c.worst)
		}
	}
	mape, worst := seriesError(Series{Test: test, TimeUnit: true}, func(model.Config) float64 { return math.NaN() })
	if !math.IsInf(mape, 1) || !math.IsInf(worst, 1) {
		t.Errorf("NaN predictions: MAPE %g, worst %g; want +Inf", mape, worst)
	}
}

// pollux-osdi21's split, in the protocol's words: fit on "rows on one node
// with at most 4 GPUs", predict "every row on 2 or more nodes"
// (../shared/docs/validation-protocol.md). Rows of one model at 1, 2, 4
// and 8 GPUs on one node and 4, 8 on 2 nodes: train on 1, 2, 4 (4 GPUs on
// one node included), test on the two 2-node rows; the 8 GPUs on one node
// are neither. Step times are scored (TimeUnit).
func TestProtocolSeriesPolluxSplit(t *testing.T) {
	var rows []traces.Throughput
	for _, r := range []struct{ nodes, gpus int }{{1, 1}, {1, 2}, {1, 4}, {1, 8}, {2, 4}, {2, 8}} {
		rows = append(rows, traces.Throughput{Model: "cifar10", Workers: r.gpus, Nodes: r.nodes, Batch: 32, GlobalBatch: 32 * r.gpus,
			StepsPerS: 5, SamplesPerS: 5 * 32 * float64(r.gpus), Mode: "allreduce"})
	}
	ss, skipped, err := ProtocolSeries("pollux-osdi21", rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || len(skipped) != 0 || !ss[0].TimeUnit {
		t.Fatalf("series %+v, skipped %v: want one, scored in step time", ss, skipped)
	}
	var train, test []int
	for _, p := range ss[0].Train {
		train = append(train, p.Config.Workers)
	}
	for _, p := range ss[0].Test {
		test = append(test, p.Config.Workers)
	}
	if !slices.Equal(train, []int{1, 2, 4}) || !slices.Equal(test, []int{4, 8}) {
		t.Errorf("train on %v GPUs, test on %v; want 1, 2, 4 (one node) and 4, 8 (two nodes)", train, test)
	}
}
