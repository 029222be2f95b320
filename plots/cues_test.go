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

// demoPlan is the demo's plan as far as the time axis goes: its
// allocation changes at the arrivals and completions, and the jobs'
// completions.
func demoPlan() PlanData {
	ts := []float64{0, 30, 60, 120, 180, 300, 404.5, 420, 600, 653.8, 952.8, 1203, 2269, 2918, 2969, 3681, 7297}
	d := PlanData{Servers: 16, Completions: map[string]float64{
		"mnist": 404.5, "lstm-small": 653.8, "gpt-tiny": 952.8, "resnet18": 1203, "async-ps-fitted": 2269,
		"vgg16": 2918, "resnet50": 2969, "transformer": 3681, "bert-base": 7297,
	}}
	for i := 1; i < len(ts); i++ {
		d.Segments = append(d.Segments, PlanSegment{Start: ts[i-1], End: ts[i], Alloc: map[string]float64{"bert-base": 8}})
	}
	return d
}

// The demo's plan, its changes crowded into the first tenth, is drawn on
// a square-root time axis; a plan whose changes are spread is not, nor
// one with idle gaps shortened.
func TestPlanSqrtTime(t *testing.T) {
	if !demoPlan().SqrtTime() {
		t.Error("demo plan: SqrtTime false, want true (the middle change at 600 s of 7,297 s)")
	}
	even := PlanData{Completions: map[string]float64{"a": 400, "b": 1000}}
	for i := 0; i < 10; i++ {
		even.Segments = append(even.Segments, PlanSegment{Start: float64(100 * i), End: float64(100 * (i + 1)), Alloc: map[string]float64{"a": 1}})
	}
	if even.SqrtTime() {
		t.Error("changes every 100 s over 1,000 s: SqrtTime true, want false")
	}
	// with an idle gap shortened: linear, true time in each stretch
	gap := demoPlan()
	last := gap.Segments[len(gap.Segments)-1]
	gap.Segments = append(gap.Segments, PlanSegment{Start: last.End + 1e6, End: last.End + 1e6 + 100, Alloc: map[string]float64{"x": 1}})
	if gap.SqrtTime() {
		t.Error("demo plan and an arrival 1e6 s later: SqrtTime true, want false (gaps shortened)")
	}
	// the square root: half the axis at a quarter of the time
	if got := (sqrtScale{}).Normalize(0, 10000, 2500); !within(got, 0.5, 1e-12) {
		t.Errorf("Normalize(0, 10000, 2500) = %g, want 0.5", got)
	}
	if got := (sqrtScale{origin: 1e6}).Normalize(1e6, 1e6+400, 1e6+100); !within(got, 0.5, 1e-12) {
		t.Errorf("from 1e6: Normalize(+100 of +400) = %g, want 0.5", got)
	}
}

// The square-root axis is labelled in true time: each label is its
// tick's time, labels stand at least sqrtTickGap apart as drawn, and the
// early decades get labels a linear axis's 2,000 s steps left out.
func TestSqrtTicksHonest(t *testing.T) {
	lo, hi := 0.0, 7297*1.02
	var labels []string
	var at []float64
	for _, tk := range (sqrtTicks{}).Ticks(lo, hi) {
		if tk.Value < lo || tk.Value > hi {
			t.Errorf("tick at %g outside [%g, %g]", tk.Value, lo, hi)
		}
		if tk.Label == "" {
			continue
		}
		if tk.Label != tickLabel(tk.Value) {
			t.Errorf("tick at %g labelled %q", tk.Value, tk.Label)
		}
		labels = append(labels, tk.Label)
		at = append(at, (sqrtScale{}).Normalize(lo, hi, tk.Value))
	}
	if want := []string{"0", "100", "500", "1000", "2000", "4000", "6000"}; !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	for i := 1; i < len(at); i++ {
		if at[i]-at[i-1] < sqrtTickGap {
			t.Errorf("labels %s and %s %.3f of the axis apart", labels[i-1], labels[i], at[i]-at[i-1])
		}
	}
	// from 1e6 s: the start as it is, then the time since it
	var got []string
	for _, tk := range (sqrtTicks{origin: 1e6}).Ticks(1e6, 1e6+7000) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if len(got) < 3 || got[0] != "1e+06" || got[1] != "+100" {
		t.Errorf("labels from 1e6: %v, want 1e+06, +100, ...", got)
	}
}

// Completion marks that fall close on the axis take different rows: the
// demo's vgg16 (2,918 s) and resnet50 (2,969 s), a fiftieth of a percent
// apart as drawn, hid one triangle under the other.
func TestPlanCompletionMarksStack(t *testing.T) {
	got := map[string]int{}
	for _, m := range demoPlan().CompletionMarks() {
		got[m.Job] = m.Level
	}
	want := map[string]int{"mnist": 0, "lstm-small": 0, "gpt-tiny": 0, "resnet18": 0, "async-ps-fitted": 0,
		"vgg16": 0, "resnet50": 1, "transformer": 0, "bert-base": 0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	// three at one time: three rows; one far off: the first row again
	d := PlanData{Segments: []PlanSegment{{Start: 0, End: 100, Alloc: map[string]float64{"a": 1}}},
		Completions: map[string]float64{"a": 50, "b": 50, "c": 50.5, "d": 90}}
	rows := map[string]int{}
	for _, m := range d.CompletionMarks() {
		rows[m.Job] = m.Level
	}
	if want := map[string]int{"a": 0, "b": 1, "c": 2, "d": 0}; !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %v, want %v", rows, want)
	}
}

// Binned on a square-root axis: bins of equal width as drawn (edges at
// (i/n)^2 of the span), each job's worker-seconds kept.
func TestPlanBinnedSqrt(t *testing.T) {
	d := PlanData{Segments: []PlanSegment{
		{Start: 0, End: 10, Alloc: map[string]float64{"a": 4}},
		{Start: 10, End: 100, Alloc: map[string]float64{"b": 2}},
	}}
	got := d.binned(2, true)
	if len(got) != 2 || got[0].Start != 0 || !within(got[0].End, 25, 1e-12) || got[1].End != 100 {
		t.Fatalf("bins %+v, want [0, 25) and [25, 100)", got)
	}
	// [0, 25): a 4 x 10/25, b 2 x 15/25; [25, 100): b 2
	if !within(got[0].Alloc["a"], 1.6, 1e-12) || !within(got[0].Alloc["b"], 1.2, 1e-12) || !within(got[1].Alloc["b"], 2, 1e-12) || got[1].Alloc["a"] != 0 {
		t.Errorf("bins %+v", got)
	}
}

// A long plan whose changes crowd into its start is drawn on the
// square-root axis and binned evenly as drawn there: PlanFigure's segments
// are binned(MaxDrawnSegments, true), whose bins grow as (i/n)^2 (the
// mutant that binned linearly on the square-root axis survived every test
// of binned itself).
func TestPlanDrawnSegmentsSqrtBinned(t *testing.T) {
	var segs []PlanSegment
	// MaxDrawnSegments+100 short segments in the first second, then one
	// long one to 1000 s: the changes crowd into the start
	n := MaxDrawnSegments + 100
	for i := 0; i < n; i++ {
		segs = append(segs, PlanSegment{Start: float64(i) / float64(n), End: float64(i+1) / float64(n), Alloc: map[string]float64{"a": 1 + float64(i%2)}})
	}
	segs = append(segs, PlanSegment{Start: 1, End: 1000, Alloc: map[string]float64{"a": 1}})
	d := PlanData{Segments: segs, Completions: map[string]float64{"a": 1000}}
	drawn, _, sqrt := d.drawnSegments()
	if !sqrt {
		t.Fatal("changes crowd into the first 0.1%: want the square-root axis")
	}
	if len(drawn.Segments) != MaxDrawnSegments {
		t.Fatalf("%d drawn segments, want %d bins", len(drawn.Segments), MaxDrawnSegments)
	}
	// the i-th bin ends at 1000 (i/n)^2: the first at 1000/n^2
	m := float64(MaxDrawnSegments)
	if got, want := drawn.Segments[0].End, 1000/(m*m); !within(got, want, 1e-9) {
		t.Errorf("first bin ends at %g, want %g (square-root spacing)", got, want)
	}
	if got, want := drawn.Segments[MaxDrawnSegments/2-1].End, 250.0; !within(got, want, 1e-9) {
		t.Errorf("middle bin ends at %g, want %g", got, want)
	}
}
