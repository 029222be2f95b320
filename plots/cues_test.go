package plots

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
)

// The scaling figure's series differ by more than colour: no two of the
// demo's nine jobs share both marker shape and dash pattern (Glyph gave
// the first and the ninth name, async-ps-fitted and transformer, both a
// filled circle on a solid line), and two jobs of one colour differ in
// shape.
func TestScalingSecondCue(t *testing.T) {
	names := []string{"async-ps-fitted", "bert-base", "gpt-tiny", "lstm-small", "mnist", "resnet18", "resnet50", "transformer", "vgg16"}
	for _, n := range []int{9, 24} {
		all := slices.Clone(names)
		for i := len(all); i < n; i++ {
			all = append(all, fmt.Sprintf("job%02d", i))
		}
		pal := NewPalette(all...)
		seen := map[string]string{}
		for _, name := range all {
			key := fmt.Sprintf("%T %v", seriesGlyph(pal, name), pal.Dashes(name))
			if other, dup := seen[key]; dup {
				t.Errorf("%d jobs: %s and %s share marker and dashes (%s)", n, other, name, key)
			}
			seen[key] = name
		}
		for _, a := range all {
			for _, b := range all {
				if a < b && pal.Color(a) == pal.Color(b) && reflect.TypeOf(seriesGlyph(pal, a)) == reflect.TypeOf(seriesGlyph(pal, b)) {
					t.Errorf("%d jobs: %s and %s share colour and marker", n, a, b)
				}
			}
		}
	}
}

// Each curve carries scalingMarksPerCurve markers inside its workers,
// evenly spaced, and two curves' markers stand at different counts.
func TestScalingMarks(t *testing.T) {
	c := ScalingCurve{Job: "a", Workers: []float64{1, 2, 4, 8, 16}, Speedup: []float64{1, 2, 3, 4, 5}}
	// spacing (16-1)/4 = 3.75; curve 0 of 3 starts a sixth of it in
	got := scalingMarks(c, 0, 3)
	want := []float64{1.625, 5.375, 9.125, 12.875}
	if len(got) != len(want) {
		t.Fatalf("marks %v, want %v", got, want)
	}
	for i := range want {
		if !within(got[i], want[i], 1e-12) {
			t.Errorf("mark %d at %g, want %g", i, got[i], want[i])
		}
	}
	for k := 0; k < 3; k++ {
		for _, x := range scalingMarks(c, k, 3) {
			if x < 1 || x > 16 {
				t.Errorf("curve %d: mark at %g outside 1..16", k, x)
			}
		}
	}
	a, b := scalingMarks(c, 0, 3), scalingMarks(c, 1, 3)
	for i := range a {
		if math.Abs(a[i]-b[i]) < 1 {
			t.Errorf("curves 0 and 1: marks %g and %g less than a worker apart", a[i], b[i])
		}
	}
}

// The load panel's axis follows the steady means and their intervals:
// a faded mean far above them (the demo's fifo at 15,687 s over steady
// means below 4,500 s) is drawn as an arrow at the axis's top, named in
// the legend, not squeezing the rest into the bottom.
func TestSimulationLoadAxisFollowsSteady(t *testing.T) {
	d := SimulationData{Loads: []LoadPoint{
		{Policy: "hesrpt", Load: 0.5, Mean: 2000, Lo: 1800, Hi: 2200},
		{Policy: "hesrpt", Load: 0.85, Mean: 4300, Lo: 3300, Hi: 5000},
		{Policy: "fifo", Load: 0.5, Mean: 5200, Lo: 3000, Hi: 7700, NotSteady: "†"},
		{Policy: "fifo", Load: 0.85, Mean: 15687, Lo: 11000, Hi: 20300, NotSteady: "*"},
		{Policy: "srpt", Load: 0.85, Mean: 5400, Lo: 4000, Hi: 7000, NotSteady: "*"},
	}}
	top, above := d.LoadAxis()
	if !within(top, 5500, 1e-9) { // 1.1 x the steady top, hesrpt's 5,000
		t.Errorf("axis top %g, want 5500", top)
	}
	var got []string
	for _, l := range above {
		got = append(got, fmt.Sprintf("%s %g", l.Policy, l.Load))
	}
	// srpt's 5,400 is under the top (its interval is cut there); fifo's
	// 5,200 at 0.5 too
	if want := []string{"fifo 0.85"}; !slices.Equal(got, want) {
		t.Errorf("above the axis %v, want %v", got, want)
	}
	if got, want := aboveLegend(above), "faded, above the axis: to 15,687 s"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
	// faded means within 1.25 times the steady top: the axis fits all
	d.Loads[2].Hi = 6000
	d.Loads[3].Mean, d.Loads[3].Lo, d.Loads[3].Hi = 5800, 5000, 6200
	d.Loads[4].Hi = 6100
	if top, above := d.LoadAxis(); !math.IsNaN(top) || above != nil {
		t.Errorf("faded within reach: top %g, above %v; want NaN, none", top, above)
	}
	// no steady mean: nothing to follow
	for i := range d.Loads {
		d.Loads[i].NotSteady = "*"
	}
	if top, _ := d.LoadAxis(); !math.IsNaN(top) {
		t.Errorf("no steady mean: top %g, want NaN", top)
	}
	if _, err := SimulationFigure(SimulationData{Responses: []ResponseTimes{{Policy: "fifo", Times: []float64{1, 2}}}, Loads: d.Loads}); err != nil {
		t.Error(err)
	}
}
