package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"
)

// Tests from mutation round 5 (plan's JSON ranges).

// The p99 and makespan ranges are each of their own figure: two jobs of
// 1800 s on a model fitted on 1-2 workers, one at time 0 and one at
// 100,000 s (long after the first is done), each alone on 8 servers at its
// fastest count. With s the best speedup over 1..8 workers (predict's fit,
// low and high ends): both flow times are 1800/s, so the p99 flow time is
// 1800/s and its range [1800/s_hi, 1800/s_lo]; the makespan, from time 0,
// is 100,000 + 1800/s, its range [100,000 + 1800/s_hi, 100,000 +
// 1800/s_lo]; the mean slowdown 1/s, [1/s_hi, 1/s_lo]. Each range holds
// its point. (A lone job at time 0, TestPlanRangesFromPredictIntervals,
// has one value for all three times: a range built from another figure
// passed it.)
func TestPlanRangesOfTwoJobsM5(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--bootstrap", "20", "--out", mp); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,2,3,4,5,6,7,8", "--format", "json")
	if code != 0 {
		t.Fatalf("predict: %s", stderr)
	}
	var rows []struct {
		Speedup   float64 `json:"speedup"`
		SpeedupLo float64 `json:"speedup_lo"`
		SpeedupHi float64 `json:"speedup_hi"`
	}
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	var best, lo, hi float64
	for _, r := range rows {
		best, lo, hi = math.Max(best, r.Speedup), math.Max(lo, r.SpeedupLo), math.Max(hi, r.SpeedupHi)
	}
	if !(lo < best && best < hi) {
		t.Fatalf("predict's best speedups: low %g, fit %g, high %g: want a range to test", lo, best, hi)
	}
	const size, later = 1800.0, 100000.0
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,model\nx,0,1800,m.json\ny,100000,1800,m.json\n")
	code, stdout, stderr = runCmd(t, "plan", "--jobs", jobs, "--servers", "8", "--format", "json")
	if code != 0 {
		t.Fatalf("plan: %s", stderr)
	}
	var p planPolicy
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatal(err)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-9*want }
	for _, c := range []struct {
		name         string
		point        float64
		r            *[2]float64
		want, lo, hi float64
	}{
		{"p99_flow_time", p.P99FlowTime, p.P99FlowRange, size / best, size / hi, size / lo},
		{"makespan", p.Makespan, p.MakespanRange, later + size/best, later + size/hi, later + size/lo},
		{"mean_flow_time", p.MeanFlowTime, p.MeanFlowRange, size / best, size / hi, size / lo},
		{"mean_slowdown", p.MeanSlowdown, p.MeanSlowdownRange, 1 / best, 1 / hi, 1 / lo},
	} {
		if c.r == nil || !near(c.point, c.want) || !near(c.r[0], c.lo) || !near(c.r[1], c.hi) || !(c.r[0] <= c.point && c.point <= c.r[1]) {
			t.Errorf("%s %g, range %v: want %g in [%g, %g]", c.name, c.point, c.r, c.want, c.lo, c.hi)
		}
	}
}
