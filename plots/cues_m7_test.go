package plots

import (
	"image/color"
	"math"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// recordedM7 draws f on a recorder and returns what it drew.
func recordedM7(f *Figure) []recorder.Action {
	rc := &recorder.Canvas{}
	f.draw(draw.Canvas{Canvas: rc, Rectangle: vg.Rectangle{Max: vg.Point{X: f.W, Y: f.H}}})
	return rc.Actions
}

// fillM7 is a filled path and the colour it was filled in.
type fillM7 struct {
	col  color.Color
	path vg.Path
}

// fillsM7 are the recorded fills, each with the colour last set before it.
func fillsM7(acts []recorder.Action) []fillM7 { return pathsM7(acts, false) }

// pathsM7 are the recorded fills, or the strokes, each with the colour
// last set before it.
func pathsM7(acts []recorder.Action, strokes bool) []fillM7 {
	var col color.Color
	var out []fillM7
	for _, a := range acts {
		switch a := a.(type) {
		case *recorder.SetColor:
			col = a.Color
		case *recorder.Fill:
			if !strokes {
				out = append(out, fillM7{col, a.Path})
			}
		case *recorder.Stroke:
			if strokes {
				out = append(out, fillM7{col, a.Path})
			}
		}
	}
	return out
}

// textsM7 are the recorded strings and where each was drawn.
func textsM7(acts []recorder.Action) map[string][]vg.Point {
	out := map[string][]vg.Point{}
	for _, a := range acts {
		if s, ok := a.(*recorder.FillString); ok {
			out[s.String] = append(out[s.String], s.Point)
		}
	}
	return out
}

// The faded means that reach more than loadAxisSlack (1.25) times the
// steady top cut the axis; reaching exactly 1.25 times does not: steady
// top 4,000 s, a faded interval to 5,000 s = 1.25 x 4,000 keeps the
// whole axis.
func TestLoadAxisSlackEdgeM7(t *testing.T) {
	d := SimulationData{Loads: []LoadPoint{
		{Policy: "a", Load: 0.5, Mean: 3000, Lo: 2000, Hi: 4000},
		{Policy: "b", Load: 0.5, Mean: 4500, Lo: 4000, Hi: 5000, NotSteady: "*"},
	}}
	if top, above := d.LoadAxis(); !math.IsNaN(top) || above != nil {
		t.Errorf("faded to exactly 1.25 x the steady top: top %g, above %v; want NaN, none", top, above)
	}
	d.Loads[1].Hi = 5001
	if top, _ := d.LoadAxis(); top != 4400 { // 1.1 x 4,000
		t.Errorf("faded to 5,001 s: top %g, want 4400", top)
	}
}

// The legend gives the highest of the means above the axis, whichever
// comes first; Seconds groups the thousands with three digits after
// the comma ("15,087 s", not "15,87 s"), from 1,000 s.
func TestAboveLegendHighestM7(t *testing.T) {
	above := []LoadPoint{{Policy: "fifo", Load: 0.85, Mean: 15687}, {Policy: "srpt", Load: 0.85, Mean: 9000}}
	if got, want := aboveLegend(above), "faded, above the axis: to 15,687 s"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{15087, "15,087 s"}, {1000, "1,000 s"}, {2005.4, "2,005 s"}, {-3040, "-3,040 s"},
		// the format is chosen on the value as written (rounded): not
		// "1000 s" beside "1,000 s", nor "1,000,000 s" beside "1e+06 s"
		{999.96, "1,000 s"}, {999.4, "999.4 s"}, {999999.6, "1e+06 s"}, {999999.4, "999,999 s"}, {842.3, "842.3 s"}} {
		if got := Seconds(c.v); got != c.want {
			t.Errorf("Seconds(%g) = %q, want %q", c.v, got, c.want)
		}
	}
}

// Drawn, the load panel's axis ends at the cut: no tick label above 5,500
// s (1.1 x the steady 5,000) where the faded fifo reaches 20,300 s, and
// fifo's mean at 0.85 above it is an arrow in fifo's colour at
// arrowAlpha (the only fill in that colour).
func TestSimulationCutDrawnM7(t *testing.T) {
	d := SimulationData{Responses: []ResponseTimes{{Policy: "fifo", Times: []float64{1, 2}}}, Loads: []LoadPoint{
		{Policy: "hesrpt", Load: 0.5, Mean: 2000, Lo: 1800, Hi: 2200},
		{Policy: "hesrpt", Load: 0.85, Mean: 4300, Lo: 3300, Hi: 5000},
		{Policy: "fifo", Load: 0.5, Mean: 5200, Lo: 3000, Hi: 7700, NotSteady: "†"},
		{Policy: "fifo", Load: 0.85, Mean: 15687, Lo: 11000, Hi: 20300, NotSteady: "*"},
	}}
	d.Palette = NewPalette("fifo", "hesrpt")
	f, err := SimulationFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	acts := recordedM7(f)
	hi := 0.0
	for s := range textsM7(acts) {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			hi = math.Max(hi, v)
		}
	}
	if hi > 5500 || hi < 4000 {
		t.Errorf("highest tick label %g, want one of 4000 to 5500 (the axis cut at 5,500 s)", hi)
	}
	arrow := fade(d.Palette.Color("fifo"), arrowAlpha)
	n := 0
	for _, fl := range fillsM7(acts) {
		if fl.col == arrow {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d fills in fifo's arrow colour, want 1 (the arrow at the axis's top)", n)
	}
}

// Drawn on its square-root axis, the demo plan's labels stand where the
// square root puts them: from 2,000 to 4,000 s is sqrt(4000)-sqrt(2000)
// of the axis and 4,000 to 6,000 s sqrt(6000)-sqrt(4000), a ratio
// (sqrt 6 - 2)/(2 - sqrt 2) = 0.7673 (1 on a linear axis); the axis says
// so in its label.
func TestPlanSqrtAxisDrawnM7(t *testing.T) {
	f, err := PlanFigure(demoPlan())
	if err != nil {
		t.Fatal(err)
	}
	tx := textsM7(recordedM7(f))
	if len(tx["time (s, square-root scale)"]) != 1 {
		t.Errorf("no axis label \"time (s, square-root scale)\"")
	}
	for _, l := range []string{"2000", "4000", "6000"} {
		if len(tx[l]) != 1 {
			t.Fatalf("label %s drawn %d times, want once", l, len(tx[l]))
		}
	}
	x2, x4, x6 := tx["2000"][0].X, tx["4000"][0].X, tx["6000"][0].X
	want := (math.Sqrt(6) - 2) / (2 - math.Sqrt(2))
	if got := float64((x6 - x4) / (x4 - x2)); math.Abs(got-want) > 1e-3 {
		t.Errorf("labels 2000, 4000, 6000 at %v, %v, %v: spacing ratio %g, want %g", x2, x4, x6, got, want)
	}
}

// Drawn, resnet50's completion triangle (the second row) stands above
// vgg16's by more than a triangle's height (1.8 x its 4-point radius), so
// neither covers the other.
func TestPlanMarksStackDrawnM7(t *testing.T) {
	d := demoPlan()
	d.Palette = NewPalette(d.Jobs()...)
	f, err := PlanFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]vg.Length{}
	for _, fl := range fillsM7(recordedM7(f)) {
		// a triangle: move, two lines, close, in the job's own colour
		if len(fl.path) != 4 || fl.path[3].Type != vg.CloseComp {
			continue
		}
		for _, j := range []string{"vgg16", "resnet50"} {
			if fl.col == d.Palette.Color(j) {
				top[j] = fl.path[1].Pos.Y
			}
		}
	}
	if len(top) != 2 {
		t.Fatalf("triangles found %v, want vgg16's and resnet50's", top)
	}
	if gap := top["resnet50"] - top["vgg16"]; gap < vg.Points(4)*1.8 {
		t.Errorf("resnet50's triangle %v above vgg16's, want at least its height %v", gap, vg.Points(4)*1.8)
	}
}

// Rows follow the axis as drawn: on a square-root axis (changes crowded
// into the first 100 s of 10,000 s) marks at 10 and 100 s are far apart,
// sqrt(10/10200) = 0.031 and sqrt(100/10200) = 0.099 of the axis (its
// end 2% past 10,000 s), 0.068 > markGap: both on the first row. On a
// linear axis they would be 0.009 apart and stack.
func TestPlanMarksSqrtRowsM7(t *testing.T) {
	d := PlanData{Completions: map[string]float64{"a": 10, "b": 100}}
	prev := 0.0
	for _, end := range []float64{5, 10, 20, 50, 100, 10000} {
		d.Segments = append(d.Segments, PlanSegment{Start: prev, End: end, Alloc: map[string]float64{"c": 1}})
		prev = end
	}
	if !d.SqrtTime() {
		t.Fatal("SqrtTime false, want true (the middle change at 20 s of 10,000 s)")
	}
	for _, m := range d.CompletionMarks() {
		if m.Level != 0 {
			t.Errorf("%s on row %d, want 0", m.Job, m.Level)
		}
	}
}

// Drawn, the scaling figure puts each job's marker along its line and its
// knee as the same marker, larger: job a (a circle, speedup s(N) = N, so
// efficiency 1 at every N) has in each panel four small circles and one
// large, and in the efficiency panel all five at one height (s(N)/N = 1);
// job b's markers stand at other counts than a's (shifted by half the
// spacing: two curves).
func TestScalingMarksDrawnM7(t *testing.T) {
	d := ScalingData{Jobs: []ScalingCurve{
		{Job: "a", Workers: []float64{1, 2, 4, 8, 16}, Speedup: []float64{1, 2, 4, 8, 16}, Knee: 8},
		{Job: "b", Workers: []float64{1, 2, 4, 8, 16}, Speedup: []float64{1, 1.8, 3, 4, 4.5}},
	}}
	d.Palette = NewPalette("a", "b")
	f, err := ScalingFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	type mark struct {
		at vg.Point
		r  vg.Length
	}
	var a, b []mark
	acts := recordedM7(f)
	for _, fl := range fillsM7(acts) {
		if fl.col == d.Palette.Color("a") && len(fl.path) == 3 && fl.path[1].Type == vg.ArcComp {
			// a's circle: move, arc about the centre, close
			a = append(a, mark{fl.path[1].Pos, fl.path[1].Radius})
		}
	}
	for _, st := range pathsM7(acts, true) {
		if st.col == d.Palette.Color("b") && len(st.path) == 5 && st.path[4].Type == vg.CloseComp {
			// b's square (stroked, closed): its centre is the middle of
			// two opposite corners
			p0, p2 := st.path[0].Pos, st.path[2].Pos
			b = append(b, mark{vg.Point{X: (p0.X + p2.X) / 2, Y: (p0.Y + p2.Y) / 2}, 0})
		}
	}
	// drawn in order: the speedup panel's marks and knee, the efficiency
	// panel's, then the legend's marker
	if len(a) != 11 {
		t.Fatalf("%d circles of job a, want 11 (4 marks and a knee in each panel, 1 in the legend)", len(a))
	}
	for p, ms := range [][]mark{a[:5], a[5:10]} {
		for i, m := range ms {
			large := i == 4
			if large != (m.r > ms[0].r) || large && m.r < ms[0].r*1.5 {
				t.Errorf("panel %d: circle %d radius %v, want the knee's (the last) at least 1.5 x the marks' %v", p, i, m.r, ms[0].r)
			}
		}
	}
	for i, m := range a[5:10] {
		if math.Abs(float64(m.at.Y-a[5].at.Y)) > 1e-6 {
			t.Errorf("efficiency panel: circle %d at height %v, want %v (efficiency 1)", i, m.at.Y, a[5].at.Y)
		}
	}
	if len(b) < 4 {
		t.Fatalf("%d squares of job b, want its markers", len(b))
	}
	ax := make([]float64, 4)
	for i := range ax {
		ax[i] = float64(a[i].at.X)
	}
	for _, m := range b[:4] {
		if slices.ContainsFunc(ax, func(x float64) bool { return math.Abs(x-float64(m.at.X)) < 1 }) {
			t.Errorf("job b's marker at x %v on one of a's %v", m.at.X, ax)
		}
	}
}
