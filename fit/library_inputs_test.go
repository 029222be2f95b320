package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// Points and settings a library caller can build, which the trace readers
// never make: each is an error naming the point or the setting (a NaN
// rate was fitted, parameters NaN, and a level of 2 taken as 0.9, with no
// error; NaN levels gave NaN intervals), and a nil trace is an error, not
// a nil dereference.
func TestFitLibraryInputs(t *testing.T) {
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
		{"NaN rate", pts(func(p *Point) { p.StepsPerS = math.NaN() }), nil, "fit: point 1 (w=2 ps=0): steps_per_s NaN, want a finite rate > 0"},
		{"negative rate", pts(func(p *Point) { p.StepsPerS = -1 }), nil, "steps_per_s -1, want a finite rate > 0"},
		{"no workers", pts(func(p *Point) { p.Config.Workers = 0 }), nil, "workers 0, want >= 1"},
		{"NaN batch", pts(func(p *Point) { p.Config.Batch = math.NaN() }), nil, "batch NaN, want a finite batch >= 0"},
		{"negative link rate", pts(func(p *Point) { p.Config.Bandwidth = -5 }), nil, "bandwidth -5, want a finite rate >= 0 B/s"},
		{"ps -1", pts(func(p *Point) { p.Config.PS = -1 }), nil, "ps -1, want >= 0"},
		{"level 2", pts(func(*Point) {}), &Settings{Level: 2}, "fit: level 2: want a coverage in (0, 1), or 0 for 0.9"},
		{"level NaN", pts(func(*Point) {}), &Settings{Level: math.NaN()}, "fit: level NaN"},
	} {
		_, _, err := FitThroughput(c.pts, "amdahl", c.set)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// the good points fit, at the default level and at 0.8
	for _, set := range []*Settings{nil, {Level: 0.8, Bootstrap: 20}} {
		if _, _, err := FitThroughput(pts(func(*Point) {}), "amdahl", set); err != nil {
			t.Errorf("good points, %+v: %v", set, err)
		}
	}
	if _, err := FitSteps(nil, nil, StepOptions{}); err == nil || !strings.Contains(err.Error(), "no trace") {
		t.Errorf("FitSteps(nil): %v, want no trace", err)
	}
	if _, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{Level: 2, Bootstrap: -1}); err == nil || !strings.Contains(err.Error(), "fit: level 2") {
		t.Errorf("FitStepsPaths level 2: %v, want the level refused", err)
	}
	if _, err := Stats(nil); err == nil {
		t.Error("Stats(nil): no error")
	}
	if v := Percentile([]float64{1, 2, 3}, math.NaN()); !math.IsNaN(v) {
		t.Errorf("Percentile q NaN = %g, want NaN", v)
	}
	if v := Percentile([]float64{1, 2, 3}, 1.5); !math.IsNaN(v) {
		t.Errorf("Percentile q 1.5 = %g, want NaN", v)
	}
	if v := Percentile([]float64{1, 2, 3}, 0.5); v != 2 {
		t.Errorf("Percentile q 0.5 = %g, want 2", v)
	}
}

// A query the model cannot answer (a negative count, a NaN or negative
// batch or link rate) is refused by CheckConfig, and Predict gives NaN
// for it: a bandwidth of -5 or NaN was answered at the model's own rate,
// as if it were the reference. Workers 0 stays the reference's one worker.
func TestPredictBadConfig(t *testing.T) {
	sf, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	one := m.Predict(model.Config{Workers: 1}, math.NaN(), 0).StepsPerS.Value
	if v := m.Predict(model.Config{}, math.NaN(), 0).StepsPerS.Value; v != one || m.CheckConfig(model.Config{}) != nil {
		t.Errorf("workers 0: %g steps/s, want the one worker's %g", v, one)
	}
	for _, c := range []struct {
		c    model.Config
		want string
	}{
		{model.Config{Workers: -1}, "workers -1"},
		{model.Config{Workers: 4, PS: -1}, "ps -1"},
		{model.Config{Workers: 4, Nodes: -2}, "nodes -2"},
		{model.Config{Workers: 4, Batch: math.NaN()}, "batch NaN"},
		{model.Config{Workers: 4, Bandwidth: -5}, "bandwidth -5"},
		{model.Config{Workers: 4, Bandwidth: math.Inf(1)}, "bandwidth +Inf"},
	} {
		if err := m.CheckConfig(c.c); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.c, err, c.want)
		}
		p := m.Predict(c.c, math.NaN(), 0)
		for name, iv := range map[string]Interval{"steps": p.StepsPerS, "speedup": p.Speedup, "time": p.TimeToTarget} {
			if !math.IsNaN(iv.Value) || !math.IsNaN(iv.Lo) || !math.IsNaN(iv.Hi) {
				t.Errorf("%+v: %s %+v, want NaN", c.c, name, iv)
			}
		}
	}
	if p := m.Predict(model.Config{Workers: 4, Bandwidth: 6e6}, math.NaN(), 0); !(p.StepsPerS.Value > 0) {
		t.Errorf("4 workers at 6e6 B/s: %+v, want a rate", p.StepsPerS)
	}
}
