package fit

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// FitThroughput's level is in (0, 1) or 0 (0.9): -0.5 and 1 are refused as
// 2 is (a level of 1 has an infinite t quantile). A point's rate must be
// finite (+Inf is not a rate a reader makes), its nodes >= 0, its batch
// and link rate finite and >= 0: each refused, naming the point.
func TestFitLibraryInputsM7(t *testing.T) {
	pts := func(mod func(*Point)) []Point {
		ps := []Point{{Config: model.Config{Workers: 1}, StepsPerS: 1}, {Config: model.Config{Workers: 2}, StepsPerS: 1.8}, {Config: model.Config{Workers: 4}, StepsPerS: 3}}
		mod(&ps[1])
		return ps
	}
	for _, c := range []struct {
		name string
		pts  []Point
		set  *Settings
		want string
	}{
		{"level -0.5", pts(func(*Point) {}), &Settings{Level: -0.5}, "fit: level -0.5: want a coverage in (0, 1)"},
		{"level 1", pts(func(*Point) {}), &Settings{Level: 1}, "fit: level 1: want a coverage in (0, 1)"},
		{"+Inf rate", pts(func(p *Point) { p.StepsPerS = math.Inf(1) }), nil, "steps_per_s +Inf, want a finite rate > 0"},
		{"nodes -1", pts(func(p *Point) { p.Config.Nodes = -1 }), nil, "nodes -1, want >= 0"},
		{"+Inf batch", pts(func(p *Point) { p.Config.Batch = math.Inf(1) }), nil, "batch +Inf, want a finite batch >= 0"},
		{"NaN link rate", pts(func(p *Point) { p.Config.Bandwidth = math.NaN() }), nil, "bandwidth NaN, want a finite rate >= 0 B/s"},
		{"+Inf link rate", pts(func(p *Point) { p.Config.Bandwidth = math.Inf(1) }), nil, "bandwidth +Inf, want a finite rate >= 0 B/s"},
	} {
		_, _, err := FitThroughput(c.pts, "amdahl", c.set)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// Percentile's q is in [0, 1], both ends included: q 0 is the least
// value and q 1 the greatest (the order statistics' ends); below 0 is
// NaN as above 1 is.
func TestPercentileRangeM7(t *testing.T) {
	xs := []float64{3, 1, 2}
	if v := Percentile(xs, 0); v != 1 {
		t.Errorf("q 0 = %g, want the least, 1", v)
	}
	if v := Percentile(xs, 1); v != 3 {
		t.Errorf("q 1 = %g, want the greatest, 3", v)
	}
	for _, q := range []float64{-0.1, math.Inf(-1)} {
		if v := Percentile(xs, q); !math.IsNaN(v) {
			t.Errorf("q %g = %g, want NaN", q, v)
		}
	}
}

// asgdModelM7 is testdata/asgd fitted on 1 and 2 workers (fitted at the
// link rates 3e6 and 6e6 B/s), as TestLinkRateWidens fits it.
func asgdModelM7(t *testing.T) *Model {
	t.Helper()
	sf, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	return sf.Model
}

// A batch of +Inf is no query (CheckConfig says so, as for a link rate of
// +Inf), and Predict answers a refused configuration with NaN in every
// interval it has: the samples/s, staleness, efficiency and updates to
// target as well as the steps/s, speedup and time.
func TestPredictBadConfigAllNaNM7(t *testing.T) {
	m := asgdModelM7(t)
	if err := m.CheckConfig(model.Config{Workers: 4, Batch: math.Inf(1)}); err == nil || !strings.Contains(err.Error(), "batch +Inf") {
		t.Errorf("batch +Inf: %v, want it refused", err)
	}
	for _, c := range []model.Config{{Workers: -1}, {Workers: 4, Bandwidth: -5}, {Workers: 4, Batch: math.Inf(1)}} {
		p := m.Predict(c, math.NaN(), 0)
		for name, iv := range map[string]Interval{"steps": p.StepsPerS, "samples": p.SamplesPerS, "staleness": p.Staleness, "speedup": p.Speedup,
			"efficiency": p.Efficiency, "updates": p.UpdatesToTarget, "time": p.TimeToTarget} {
			if !math.IsNaN(iv.Value) || !math.IsNaN(iv.Lo) || !math.IsNaN(iv.Hi) {
				t.Errorf("%+v: %s %+v, want NaN", c, name, iv)
			}
		}
	}
}

// A fitted configuration whose link rate is unknown (0) is no rate: the
// distance below the fitted rates, 3e6 to 6e6 B/s, stays ln(3e6/1e6) =
// ln 3 at 1e6 B/s, and above them ln(3e7/6e6) = ln 5 at 3e7.
func TestLinkDistanceUnknownRateM7(t *testing.T) {
	m := *asgdModelM7(t)
	m.Data.Configurations = append(slices.Clone(m.Data.Configurations), ConfigData{Workers: 1, PS: 1})
	for _, c := range []struct{ bw, d float64 }{{1e6, math.Log(3)}, {3e7, math.Log(5)}, {4e6, 0}} {
		if got := m.linkDistance(m.Config(model.Config{Workers: 2, Bandwidth: c.bw})); math.Abs(got-c.d) > 1e-12 {
			t.Errorf("with a configuration at rate 0: distance at %g B/s %g, want %g", c.bw, got, c.d)
		}
	}
}

// The link widening and its warning follow the model's level. With a
// measured rate r (not assumed) the spread is t s, Student's t with 2
// degrees of freedom, s^2 = (sigma0^2 + r^2)/2, sigma0 = AssumedDriftRate
// sqrt(pi/2) (docs/fitting.md, extrapolation); t with 2 degrees of
// freedom has the closed-form quantile (2p-1)/sqrt(2p(1-p)), at
// p = (1+L)/2: t = L sqrt(2/(1-L^2)). At L = 0.8, r = 0.2:
// t = 0.8 sqrt(2/0.36) = 1.8856, sigma0 = 0.12533,
// s = sqrt((0.015708 + 0.04)/2) = 0.16690, spread 0.31471: a doubling of
// the rate past the fitted 6e6 B/s widens by 2^0.31471 = 1.2437, "24.4%
// per doubling" (at 0.9 it would be t = 2.92 and 40.2%).
func TestLinkWidensAtModelLevelM7(t *testing.T) {
	m := *asgdModelM7(t)
	m.Level = 0.8
	m.Extrapolation = &Extrapolation{Rate: 0.2, MaxWorkers: 2}
	L, r := 0.8, 0.2
	sigma0 := AssumedDriftRate * math.Sqrt(math.Pi/2)
	spread := L * math.Sqrt(2/(1-L*L)) * math.Sqrt((sigma0*sigma0+r*r)/2)
	want := math.Pow(2, spread)
	if got := m.linkFactor(m.Config(model.Config{Workers: 1, Bandwidth: 1.2e7})); math.Abs(got-want) > 1e-9*want {
		t.Errorf("link factor at twice the top fitted rate, level 0.8: %g, want 2^%g = %g", got, spread, want)
	}
	wide, err := m.WithBandwidth(1.2e7)
	if err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("widen as for workers beyond the data, %.3g%% per doubling", 100*(want-1))
	if w := wide.BandwidthWarning(); !strings.Contains(w, text) || !strings.Contains(text, "24.4%") {
		t.Errorf("warning %q, want %q (24.4%%)", w, text)
	}
}
