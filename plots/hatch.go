package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Hatch returns the stripes of name's fills: 0 for none (the first eight
// names, one colour each), +1 for rising stripes and -1 for falling ones on
// the names whose colour repeats an earlier one's. Lines tell those apart by
// their dashes; filled areas (the plan's stacked bands) by these stripes.
func (p *Palette) Hatch(name string) int {
	switch (p.Slot(name) / len(OkabeIto)) % 3 {
	case 1:
		return 1
	case 2:
		return -1
	}
	return 0
}

// hatchSpacing is the distance along x (and y) between two stripes.
const hatchSpacing = 5 * vg.Millimeter / 2

// hatchColor is the stripes' colour: white on the band's fill.
var hatchColor color.Color = color.White

// stripes returns the segments of the 45-degree stripes y = dir·x + k that
// cross the rectangle [x0, x1] x [y0, y1] (canvas units), k a multiple of
// step: every rectangle takes its stripes from the same lines, so that
// stripes run on across the bands' adjacent segments. dir is +1 or -1.
func stripes(x0, x1, y0, y1 vg.Length, dir int, step vg.Length) [][2]vg.Point {
	if x1 <= x0 || y1 <= y0 || step <= 0 || (dir != 1 && dir != -1) {
		return nil
	}
	d := vg.Length(dir)
	// k = y - d x over the corners.
	kmin, kmax := y0-d*x1, y1-d*x0
	if dir < 0 {
		kmin, kmax = y0-d*x0, y1-d*x1
	}
	var out [][2]vg.Point
	for k := vg.Length(math.Ceil(float64(kmin/step))) * step; k <= kmax; k += step {
		// x where the line meets y0 and y1.
		xa, xb := (y0-k)/d, (y1-k)/d
		if xa > xb {
			xa, xb = xb, xa
		}
		lo, hi := max(x0, xa), min(x1, xb)
		if hi <= lo {
			continue
		}
		out = append(out, [2]vg.Point{{X: lo, Y: d*lo + k}, {X: hi, Y: d*hi + k}})
	}
	return out
}

// dataRect is a rectangle in data coordinates.
type dataRect struct{ x0, x1, y0, y1 float64 }

// hatchPlotter draws stripes over rectangles given in data coordinates.
type hatchPlotter struct {
	rects []dataRect
	dir   int
}

func (h hatchPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ls := draw.LineStyle{Color: hatchColor, Width: vg.Points(0.9)}
	for _, r := range h.rects {
		for _, s := range stripes(trX(r.x0), trX(r.x1), trY(r.y0), trY(r.y1), h.dir, hatchSpacing) {
			c.StrokeLine2(ls, s[0].X, s[0].Y, s[1].X, s[1].Y)
		}
	}
}
