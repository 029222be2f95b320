package plots

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// An interval bar past the load axis's top is cut at the edge, with no cap
// there, and keeps its cap at the end inside (round 7's surviving mutant
// Q8 drew the bar past the axis). On a 100-point-high data area from 0 to
// 10, a bar from 2 to 20 is a stroke from y = 20 to 100 points and one
// cap, at 20; a bar from 2 to 8 has both caps.
func TestCutBarClipsAtTheAxis(t *testing.T) {
	strokes := func(b cutBar) [][2]vg.Point {
		p := plot.New()
		p.Y.Min, p.Y.Max, p.X.Min, p.X.Max = 0, 10, 0, 1
		rc := &recorder.Canvas{}
		c := draw.Canvas{Canvas: rc, Rectangle: vg.Rectangle{Max: vg.Point{X: 100, Y: 100}}}
		b.Plot(c, p)
		var out [][2]vg.Point
		for _, a := range rc.Actions {
			if s, ok := a.(*recorder.Stroke); ok && len(s.Path) == 2 {
				out = append(out, [2]vg.Point{s.Path[0].Pos, s.Path[1].Pos})
			}
		}
		return out
	}
	style := draw.LineStyle{Width: 1}
	got := strokes(cutBar{x: 0.5, lo: 2, hi: 20, style: style, cap: 4})
	if len(got) != 2 {
		t.Fatalf("bar 2 to 20: %d strokes, want the bar and one cap: %v", len(got), got)
	}
	bar := got[0]
	if math.Abs(float64(bar[0].Y)-20) > 1e-9 || math.Abs(float64(bar[1].Y)-100) > 1e-9 {
		t.Errorf("bar 2 to 20 drawn from y %v to %v, want 20 to 100 (cut at the top)", bar[0].Y, bar[1].Y)
	}
	if cap := got[1]; math.Abs(float64(cap[0].Y)-20) > 1e-9 || cap[0].Y != cap[1].Y {
		t.Errorf("cap %v, want one at y 20", cap)
	}
	if got := strokes(cutBar{x: 0.5, lo: 2, hi: 8, style: style, cap: 4}); len(got) != 3 {
		t.Errorf("bar 2 to 8: %d strokes, want the bar and two caps", len(got))
	}
	if got := strokes(cutBar{x: 0.5, lo: 12, hi: 20, style: style, cap: 4}); len(got) != 0 {
		t.Errorf("bar 12 to 20, all above the axis: %d strokes, want none", len(got))
	}
}

// SqrtTime's middle change of an even count is the lower of the two: ends
// at 1, 2, 50 and 100 s put the lower middle (2 s) within the first 15% of
// the span and the upper (50 s) past it, so the axis is square-root (round
// 7's Q14 took the upper one and survived; the doc said "the middle one").
func TestSqrtTimeLowerMiddle(t *testing.T) {
	seg := func(a, b float64) PlanSegment {
		return PlanSegment{Start: a, End: b, Alloc: map[string]float64{"a": 1}}
	}
	d := PlanData{Segments: []PlanSegment{seg(0, 1), seg(1, 2), seg(2, 50), seg(50, 100)}}
	if !d.SqrtTime() {
		t.Error("ends 1, 2, 50, 100 s: want the square-root axis (lower middle 2 s at 2% of the span)")
	}
	d = PlanData{Segments: []PlanSegment{seg(0, 1), seg(1, 20), seg(20, 50), seg(50, 100)}}
	if d.SqrtTime() {
		t.Error("ends 1, 20, 50, 100 s: want a linear axis (lower middle 20 s at 20% of the span)")
	}
}
