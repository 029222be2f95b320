package plots

import (
	"fmt"
	"image/color"
	"slices"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PhaseTimes is the mean time of one worker iteration's phases at a worker
// count, seconds.
type PhaseTimes struct {
	Workers             int
	Pull, Compute, Push float64
}

// PhasesData is the input of the phases figure: measured and predicted
// phase times per worker count. Either list may miss a worker count.
type PhasesData struct {
	Title     string // "" means "Iteration time by phase"
	Measured  []PhaseTimes
	Predicted []PhaseTimes
	// PredictedLabel names the predicted bars in the legend ("":
	// "predicted (light)"), e.g. how the model splits its cycle.
	PredictedLabel string
}

// Phases are the phase names in stacking order, bottom up.
var Phases = []string{"pull", "compute", "push"}

// StackBar is one stacked bar of the phases figure: its worker count, whether
// it is measured or predicted, its x position (category index ± 0.2) and the
// bottom and top of each phase's box, in Phases order, seconds.
type StackBar struct {
	Workers   int
	Predicted bool
	X         float64
	Bottom    [3]float64
	Top       [3]float64
}

// Bars returns the stacked bars drawn: worker counts in increasing order,
// measured at index-0.2 and predicted at index+0.2.
func (d PhasesData) Bars() []StackBar {
	cats := d.workers()
	idx := map[int]int{}
	for i, w := range cats {
		idx[w] = i
	}
	var out []StackBar
	add := func(ts []PhaseTimes, pred bool, dx float64) {
		for _, t := range ts {
			b := StackBar{Workers: t.Workers, Predicted: pred, X: float64(idx[t.Workers]) + dx}
			v := [3]float64{t.Pull, t.Compute, t.Push}
			var y float64
			for k := range v {
				b.Bottom[k] = y
				y += v[k]
				b.Top[k] = y
			}
			out = append(out, b)
		}
	}
	add(d.Measured, false, -0.2)
	add(d.Predicted, true, 0.2)
	sort.SliceStable(out, func(i, j int) bool { return out[i].X < out[j].X })
	return out
}

func (d PhasesData) workers() []int {
	seen := map[int]bool{}
	var ws []int
	for _, ts := range [][]PhaseTimes{d.Measured, d.Predicted} {
		for _, t := range ts {
			if !seen[t.Workers] {
				seen[t.Workers] = true
				ws = append(ws, t.Workers)
			}
		}
	}
	sort.Ints(ws)
	return ws
}

func (d PhasesData) validate() error {
	if len(d.Measured)+len(d.Predicted) == 0 {
		return inputError("phases", "no phase times")
	}
	for _, s := range []struct {
		name string
		ts   []PhaseTimes
	}{{"measured", d.Measured}, {"predicted", d.Predicted}} {
		seen := map[int]bool{}
		for i, t := range s.ts {
			if t.Workers < 1 {
				return inputError("phases", "%s %d: workers %d: want >= 1", s.name, i, t.Workers)
			}
			if seen[t.Workers] {
				return inputError("phases", "%s %d: workers %d appears twice", s.name, i, t.Workers)
			}
			seen[t.Workers] = true
			for k, v := range []float64{t.Pull, t.Compute, t.Push} {
				if !isFinite(v) || v < 0 {
					return inputError("phases", "%s %d: %s time %g: want a finite time >= 0 s", s.name, i, Phases[k], v)
				}
			}
		}
	}
	return nil
}

// phaseColor is the colour of phase k; the phases take palette slots of
// their own so they never read as jobs.
func phaseColor(k int) color.Color {
	return []color.Color{OkabeIto[5], OkabeIto[1], OkabeIto[4]}[k]
}

// PhasesFigure returns the phases figure: for each worker count, the measured
// pull/compute/push times stacked (solid, left) beside the predicted ones
// (light, right).
func PhasesFigure(d PhasesData) (*Figure, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	title := d.Title
	if title == "" {
		title = "Iteration time by phase"
	}
	bars := d.Bars()
	// without predicted bars (a model that is no queueing network) the
	// axis and the legend do not promise them
	predicted := slices.ContainsFunc(bars, func(b StackBar) bool { return b.Predicted })
	xlabel := "workers N"
	if predicted {
		xlabel = "workers N (left: measured, right: predicted)"
	}
	f := &panel{p: newPlot(title, xlabel, "time per iteration (s)")}
	p := f.p
	const half = 0.17
	var top float64
	for _, b := range bars {
		for k := range Phases {
			if b.Top[k] == b.Bottom[k] {
				continue
			}
			poly, err := plotter.NewPolygon(plotter.XYs{
				{X: b.X - half, Y: b.Bottom[k]}, {X: b.X + half, Y: b.Bottom[k]},
				{X: b.X + half, Y: b.Top[k]}, {X: b.X - half, Y: b.Top[k]},
			})
			if err != nil {
				return nil, fmt.Errorf("plots: phases: %w", err)
			}
			c := phaseColor(k)
			poly.Color = c
			poly.LineStyle = draw.LineStyle{Color: color.White, Width: vg.Points(0.6)}
			if b.Predicted {
				poly.Color = fade(c, 0.4)
				poly.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(0.8)}
			}
			p.Add(poly)
			f.see(XY{b.X - half, b.Top[k]}, XY{b.X, b.Top[k]}, XY{b.X + half, b.Top[k]})
		}
		top = max(top, b.Top[2])
	}
	for k := len(Phases) - 1; k >= 0; k-- {
		sw := swatch{fill: phaseColor(k)}
		f.legend(Phases[k]+" (measured)", sw)
	}
	if predicted {
		label := d.PredictedLabel
		if label == "" {
			label = "predicted (light)"
		}
		f.legend(label, swatch{fill: fade(Ink, 0.25), line: Ink})
	}
	cats := d.workers()
	var ticks []plot.Tick
	for i, w := range cats {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: strconv.Itoa(w)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.6, float64(len(cats)-1)+0.6
	p.Y.Min, p.Y.Max = 0, top*1.05
	f.placeLegend(Width, Height)
	return NewFigure(p, Width, Height), nil
}

// swatch is a legend thumbnail: a filled box with an optional outline.
type swatch struct {
	fill  color.Color
	line  color.Color
	hatch int // stripes over the fill (Palette.Hatch)
}

func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	poly := c.ClipPolygonY(pts)
	c.FillPolygon(s.fill, poly)
	for _, st := range stripes(c.Min.X, c.Max.X, c.Min.Y, c.Max.Y, s.hatch, hatchSpacing) {
		c.StrokeLine2(draw.LineStyle{Color: hatchColor, Width: vg.Points(0.9)}, st[0].X, st[0].Y, st[1].X, st[1].Y)
	}
	if s.line != nil {
		pts = append(pts, pts[0])
		c.StrokeLines(draw.LineStyle{Color: s.line, Width: vg.Points(0.8)}, c.ClipLinesY(pts)...)
	}
}
