package fit

import (
	"math"
	"testing"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// Tests from mutation round 4 of PointsFromThroughput and the
// leave-one-configuration-out error.

// looCVErrs is a MAPE over the left-out points, a configuration measured
// twice counting twice; each configuration's own error is the mean over
// its points. A flat family (one speed everywhere), fitted in log space,
// takes the geometric mean of the points it is fitted on. Rates: 1 at 1
// worker, 1 at 2, 1 and 4 at 3 (two runs).
//
//	without 1: fitted on 1, 1, 4: 4^(1/3) = 1.5874; error at 1: 0.5874
//	without 2: the same: 0.5874
//	without 3: fitted on 1, 1: 1; errors |1 - 1|/1 = 0, |1 - 4|/4 = 0.75
//	MAPE over the 4 points: (2 x 0.5874 + 0 + 0.75)/4 = 48.12%
//	per configuration: 58.74%, 58.74%, 37.5%
//
// (over the 3 configurations the sum would give 64.16%).
func TestLooCVErrsOverPoints(t *testing.T) {
	flat := Family{Name: "flat", Params: []Param{{"x", "1/s", 1e-6, 1e6}},
		Predict: func(th []float64, c model.Config) float64 { return th[0] },
		Guess:   func([]Point) [][]float64 { return [][]float64{{2}} },
	}
	at := func(w int, x float64) Point {
		return Point{Config: model.Config{Workers: w}, StepsPerS: x, Async: true}
	}
	pts := []Point{at(1, 1), at(2, 1), at(3, 1), at(3, 4)}
	e := math.Cbrt(4) - 1
	mape, errs, note := looCVErrs(flat, pts)
	if want := 100 * (2*e + 0.75) / 4; relErr(mape, want) > 1e-6 || note != "" {
		t.Errorf("MAPE %g%% (%q), want %g%%", mape, note, want)
	}
	want := map[float64]bool{100 * e: true, 37.5: true}
	if len(errs) != 3 {
		t.Fatalf("per-configuration errors %v, want 3", errs)
	}
	for _, v := range errs {
		ok := false
		for w := range want {
			ok = ok || relErr(v, w) < 1e-6
		}
		if !ok {
			t.Errorf("per-configuration errors %v, want 58.74, 58.74 and 37.5", errs)
			break
		}
	}
	// three configurations at one rate: every fold hits it
	if m := looCV(flat, pts[:3]); !(m < 1e-6) {
		t.Errorf("equal rates: MAPE %g%%, want 0", m)
	}
	// two configurations: not scored
	if m := looCV(flat, pts[:2]); !math.IsNaN(m) {
		t.Errorf("2 configurations: MAPE %g, want NaN", m)
	}
}

// PointsFromThroughput: an asynchronous update is one worker's batch
// (Point.SamplesPerStep's doc: b for asynchronous updates, the global
// batch for synchronous steps), even when the row gives the global batch
// too. 320 samples/s:
//
//	async, batch 32, global 128 on 4 workers: 320/32 = 10 updates/s
//	async, global 256 on 3 workers only: b = 256/3 = 85.33, 3.75 updates/s
//	sync, global 256 on 3 workers: 320/256 = 1.25 steps/s
func TestPointsFromThroughputAsyncWithGlobalBatch(t *testing.T) {
	nan := math.NaN()
	rows := []traces.Throughput{
		{Workers: 4, PS: 1, Batch: 32, GlobalBatch: 128, StepsPerS: nan, SamplesPerS: 320, Mode: "async"},
		{Workers: 3, PS: 1, GlobalBatch: 256, StepsPerS: nan, SamplesPerS: 320, Mode: "async"},
		{Workers: 3, GlobalBatch: 256, StepsPerS: nan, SamplesPerS: 320, Mode: "sync"},
	}
	want := []struct{ steps, perStep, batch float64 }{{10, 32, 32}, {3.75, 256.0 / 3, 256.0 / 3}, {1.25, 256, 256.0 / 3}}
	pts, err := PointsFromThroughput(rows)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		p := pts[i]
		if relErr(p.StepsPerS, w.steps) > 1e-12 || relErr(p.SamplesPerStep, w.perStep) > 1e-12 || relErr(p.Config.Batch, w.batch) > 1e-12 {
			t.Errorf("row %d: steps/s %g, samples/step %g, batch %g; want %g, %g, %g", i+1, p.StepsPerS, p.SamplesPerStep, p.Config.Batch, w.steps, w.perStep, w.batch)
		}
	}
}
