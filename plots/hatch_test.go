package plots

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/plot/vg"
)

// Every stripe lies in its rectangle at 45 degrees on a line y = dir x + k
// with k a multiple of the step, and the stripes of two adjacent
// rectangles are the stripes of their union cut at the shared edge.
func TestStripes(t *testing.T) {
	const step = 2
	for _, dir := range []int{1, -1} {
		whole := stripes(0, 20, 0, 5, dir, step)
		left, right := stripes(0, 10, 0, 5, dir, step), stripes(10, 20, 0, 5, dir, step)
		for _, s := range append(append([][2]vg.Point{}, left...), right...) {
			for _, p := range s {
				if p.X < 0 || p.X > 20 || p.Y < -1e-9 || p.Y > 5+1e-9 {
					t.Errorf("dir %d: point %v outside the rectangle", dir, p)
				}
			}
			dx, dy := s[1].X-s[0].X, s[1].Y-s[0].Y
			if dx <= 0 || math.Abs(float64(dy-vg.Length(dir)*dx)) > 1e-9 {
				t.Errorf("dir %d: stripe %v is not at 45 degrees", dir, s)
			}
			k := float64(s[0].Y - vg.Length(dir)*s[0].X)
			if r := math.Mod(math.Abs(k), step); r > 1e-9 && step-r > 1e-9 {
				t.Errorf("dir %d: stripe %v off the grid of lines (k = %g)", dir, s, k)
			}
		}
		// Length is conserved by the cut: the union's stripes are as long
		// as the two halves' together.
		length := func(ss [][2]vg.Point) float64 {
			var l float64
			for _, s := range ss {
				l += math.Hypot(float64(s[1].X-s[0].X), float64(s[1].Y-s[0].Y))
			}
			return l
		}
		if a, b := length(whole), length(left)+length(right); math.Abs(a-b) > 1e-9 {
			t.Errorf("dir %d: stripes of the union %g long, of the halves %g", dir, a, b)
		}
		// 20 x 5 with lines every 2 in k: k from -20 to 5 (dir +1) meets
		// the rectangle on k = -20 (a corner, dropped), then -18, ..., 4:
		// 12 (dir -1: k = 0 dropped, then 2, ..., 24).
		if len(whole) != 12 {
			t.Errorf("dir %d: %d stripes over 20 x 5 at step 2, want 12", dir, len(whole))
		}
	}
	if s := stripes(0, 10, 0, 5, 0, step); s != nil {
		t.Errorf("dir 0 gives stripes %v", s)
	}
	if s := stripes(0, 0, 0, 5, 1, step); s != nil {
		t.Errorf("an empty rectangle gives stripes %v", s)
	}
}

// Nine jobs: the ninth repeats the first one's colour, and its band in the
// plan is striped where it holds workers; the first eight are not.
func TestPlanHatchesRepeatedColours(t *testing.T) {
	var jobs []string
	for i := range 9 {
		jobs = append(jobs, fmt.Sprintf("job%d", i))
	}
	pal := NewPalette(jobs...)
	if pal.Color("job8") != pal.Color("job0") {
		t.Fatalf("job8's colour differs from job0's: the test's premise is gone")
	}
	d := PlanData{Servers: 9, Segments: []PlanSegment{
		{Start: 0, End: 10, Alloc: map[string]float64{}},
		{Start: 10, End: 20, Alloc: map[string]float64{}},
	}}
	for _, j := range jobs {
		d.Segments[0].Alloc[j] = 1
	}
	d.Segments[1].Alloc["job8"] = 0 // holds no worker after t = 10
	d.Segments[1].Alloc["job0"] = 3
	areas, err := d.Areas()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range areas {
		h := planHatch(a, pal)
		switch {
		case a.Job == "job8" && (h.dir == 0 || len(h.rects) != 1 || h.rects[0].x1 != 10):
			t.Errorf("job8: stripes %+v, want one rectangle over [0, 10]", h)
		case a.Job != "job8" && h.dir != 0:
			t.Errorf("%s has its own colour but is striped", a.Job)
		}
	}
	if _, err := PlanFigure(PlanData{Servers: d.Servers, Segments: d.Segments, Palette: pal}); err != nil {
		t.Fatal(err)
	}
}
