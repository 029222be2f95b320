package fit

import (
	"math"
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
