package fit

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// A link rate outside the fitted ones widens the steps/s interval as the
// workers beyond the data do: Value/f to Value*f (the top cut at what the
// busiest station carries), f = exp(spread x ln(B/B_max)); the speedup
// over one worker at the same rate does not move, and inside the rates
// nothing widens. The warning says so, with the rate per doubling.
func TestLinkRateWidens(t *testing.T) {
	sf, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	if m.Extrapolation == nil {
		t.Fatal("no extrapolation record")
	}
	spread := m.Extrapolation.Spread(m.Level)
	for _, c := range []struct {
		bw, d float64
	}{{3e6, 0}, {6e6, 0}, {4.5e6, 0}, {3e7, math.Log(5)}, {1e6, math.Log(3)}} {
		if got := m.linkDistance(m.Config(model.Config{Workers: 2, Bandwidth: c.bw})); math.Abs(got-c.d) > 1e-12 {
			t.Errorf("link distance at %g B/s: %g, want %g", c.bw, got, c.d)
		}
	}
	far := model.Config{Workers: 2, PS: 1, Bandwidth: 3e7}
	p := m.Predict(far, math.NaN(), 0)
	// the same model without the fitted rates' record: no link widening
	plain := *m
	plain.Data.Configurations = nil
	q := plain.Predict(far, math.NaN(), 0)
	// the bootstrap and rivals' interval, widened by the workers' drift
	// (this profile's record ends at 1 worker) times the link's
	cc := m.Config(far)
	boot := widen(m.sweeps, m.stepsSamples(m.IntervalScale, cc), m.Rivals, cc)
	f := m.Extrapolation.Factor(cc, m.Level) * math.Exp(spread*math.Log(5))
	if want := math.Min(boot.Lo, p.StepsPerS.Value/f); math.Abs(p.StepsPerS.Lo-want) > 1e-9*want || !(p.StepsPerS.Lo < q.StepsPerS.Lo) {
		t.Errorf("2 workers at 3e7 B/s: low end %g, want min(%g, value %g / %g), below %g without the link's widening", p.StepsPerS.Lo, boot.Lo, p.StepsPerS.Value, f, q.StepsPerS.Lo)
	}
	if sat := m.Saturation(far); math.Abs(p.StepsPerS.Hi-math.Min(math.Max(boot.Hi, p.StepsPerS.Value*f), math.Max(sat, p.StepsPerS.Value))) > 1e-9*p.StepsPerS.Hi {
		t.Errorf("2 workers at 3e7 B/s: high end %g, want max(%g, %g) cut at saturation %g", p.StepsPerS.Hi, boot.Hi, p.StepsPerS.Value*f, sat)
	}
	// the speedup's interval does not move
	if q.Speedup != p.Speedup {
		t.Errorf("speedup %+v, without the link's widening %+v: want the same", p.Speedup, q.Speedup)
	}
	// inside the fitted rates: as without the record
	in := model.Config{Workers: 2, PS: 1, Bandwidth: 4.5e6}
	if a, b := m.Predict(in, math.NaN(), 0).StepsPerS, plain.Predict(in, math.NaN(), 0).StepsPerS; a != b {
		t.Errorf("at 4.5e6 B/s: %+v, without the record %+v: want the same", a, b)
	}
	wide, err := m.WithBandwidth(3e7)
	if err != nil {
		t.Fatal(err)
	}
	// per doubling of the rate: exp(spread ln 2) - 1, spread the model's
	// own (the demo's 25.9%)
	per := fmt.Sprintf("widen as for workers beyond the data, %.3g%% per doubling", 100*(math.Pow(2, spread)-1))
	if w := wide.BandwidthWarning(); !strings.Contains(w, per) {
		t.Errorf("warning: %q, want %q", w, per)
	}
}

// A library caller who puts the link rate in Config.Bandwidth gets the
// speedup over one worker at that rate, as WithBandwidth gives it (it was
// over one worker at the model's own rate: 4.11 at 2 workers of 3e7 B/s,
// an efficiency above 2).
func TestPredictSpeedupAtConfigRate(t *testing.T) {
	sf, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	w, err := m.WithBandwidth(3e7)
	if err != nil {
		t.Fatal(err)
	}
	a := m.Predict(model.Config{Workers: 2, PS: 1, Bandwidth: 3e7}, math.NaN(), 0)
	b := w.Predict(model.Config{Workers: 2, PS: 1}, math.NaN(), 0)
	if a.Speedup != b.Speedup || a.StepsPerS != b.StepsPerS {
		t.Errorf("Config.Bandwidth: speedup %+v, steps %+v; WithBandwidth: %+v, %+v", a.Speedup, a.StepsPerS, b.Speedup, b.StepsPerS)
	}
	if !(a.Speedup.Value <= 2) {
		t.Errorf("speedup %g at 2 workers: want at most 2", a.Speedup.Value)
	}
}
