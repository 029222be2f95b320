package fit

import (
	"math"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// PointsFromThroughput against the rule of docs/trace-format.md: an
// asynchronous update is one worker's batch, a synchronous step the
// global batch (the batch times the workers). 320 samples/s at 4 workers
// of 32: async 320/32 = 10 updates/s of 32 samples; sync 320/128 = 2.5
// steps/s of 128; with global_batch 128 and no batch, the per-worker batch
// is 128/4 = 32 and a sync step 128 samples; steps_per_s, when given, is
// taken as it is.
func TestPointsFromThroughput(t *testing.T) {
	nan := math.NaN()
	rows := []traces.Throughput{
		{Workers: 4, PS: 1, Batch: 32, StepsPerS: nan, SamplesPerS: 320, Mode: "async"},
		{Workers: 4, PS: 1, Batch: 32, StepsPerS: nan, SamplesPerS: 320, Mode: ""},
		{Workers: 4, PS: 1, Batch: 32, StepsPerS: nan, SamplesPerS: 320, Mode: "sync"},
		{Workers: 4, GlobalBatch: 128, StepsPerS: nan, SamplesPerS: 320, Mode: "allreduce"},
		{Workers: 4, PS: 2, Batch: 32, StepsPerS: 7, SamplesPerS: nan, Mode: "sync"},
	}
	want := []struct {
		steps, perStep, batch float64
		async                 bool
	}{{10, 32, 32, true}, {10, 32, 32, true}, {2.5, 128, 32, false}, {2.5, 128, 32, false}, {7, 128, 32, false}}
	pts, err := PointsFromThroughput(rows)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		p := pts[i]
		if p.StepsPerS != w.steps || p.SamplesPerStep != w.perStep || p.Config.Batch != w.batch || p.Async != w.async {
			t.Errorf("row %d: steps/s %g, samples/step %g, batch %g, async %v; want %g, %g, %g, %v", i+1, p.StepsPerS, p.SamplesPerStep, p.Config.Batch, p.Async, w.steps, w.perStep, w.batch, w.async)
		}
	}
	// neither rate: an error naming the row
	if _, err := PointsFromThroughput([]traces.Throughput{rows[0], {Workers: 2, StepsPerS: nan, SamplesPerS: nan, Model: "m", Run: "r"}}); err == nil || err.Error() != "fit: throughput row 2 (m r): no positive steps_per_s, nor samples_per_s with a batch" {
		t.Errorf("no rate: %v", err)
	}
}

// better: the lower cross-validated error wins, a known one over NaN, and
// with both NaN (fewer than 3 configurations) the lower RMSLE.
func TestBetterFit(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		a, b ThroughputFit
		want bool
	}{
		{ThroughputFit{CVError: 1, RMSLE: 0.5}, ThroughputFit{CVError: 2, RMSLE: 0.1}, true},
		{ThroughputFit{CVError: 2, RMSLE: 0.1}, ThroughputFit{CVError: 1, RMSLE: 0.5}, false},
		{ThroughputFit{CVError: 5, RMSLE: 0.5}, ThroughputFit{CVError: nan, RMSLE: 0.1}, true},
		{ThroughputFit{CVError: nan, RMSLE: 0.1}, ThroughputFit{CVError: 5, RMSLE: 0.5}, false},
		{ThroughputFit{CVError: nan, RMSLE: 0.1}, ThroughputFit{CVError: nan, RMSLE: 0.2}, true},
		{ThroughputFit{CVError: nan, RMSLE: 0.2}, ThroughputFit{CVError: nan, RMSLE: 0.1}, false},
	} {
		if got := better(&c.a, &c.b); got != c.want {
			t.Errorf("better(cv %g rmsle %g, cv %g rmsle %g) = %v, want %v", c.a.CVError, c.a.RMSLE, c.b.CVError, c.b.RMSLE, got, c.want)
		}
	}
}
