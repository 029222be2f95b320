package plots

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ScalingCurve is one job's speedup s(N) = T(1)/T(N) against workers, with
// an optional knee (NaN: none) marked on the curve.
type ScalingCurve struct {
	Job     string
	Workers []float64 // increasing, > 0
	Speedup []float64
	Knee    float64 // workers; NaN or 0: not marked
}

// ScalingData is the input of the speedup and efficiency figure.
type ScalingData struct {
	Jobs    []ScalingCurve
	Palette *Palette // nil: built from the job names
}

// Efficiency returns s(N)/N at each of c's worker counts.
func (c ScalingCurve) Efficiency() []float64 {
	e := make([]float64, len(c.Workers))
	for i, n := range c.Workers {
		e[i] = c.Speedup[i] / n
	}
	return e
}

// marked says whether c has a knee to mark (NaN or 0: none).
func (c ScalingCurve) marked() bool { return isFinite(c.Knee) && c.Knee > 0 }

// at returns the speedup at n by linear interpolation.
func (c ScalingCurve) at(n float64) (float64, bool) { return interp(c.Workers, c.Speedup, n) }

func (d ScalingData) validate() error {
	if len(d.Jobs) == 0 {
		return inputError("scaling", "no jobs")
	}
	seen := map[string]bool{}
	for i, c := range d.Jobs {
		if seen[c.Job] {
			return inputError("scaling", "job %d: name %q appears twice", i, c.Job)
		}
		seen[c.Job] = true
		if len(c.Workers) < 2 || len(c.Workers) != len(c.Speedup) {
			return inputError("scaling", "job %d (%s): %d worker counts and %d speedups: want as many, at least 2", i, c.Job, len(c.Workers), len(c.Speedup))
		}
		for j := range c.Workers {
			if !isFinite(c.Workers[j]) || c.Workers[j] <= 0 || !isFinite(c.Speedup[j]) || c.Speedup[j] < 0 {
				return inputError("scaling", "job %d (%s): point %d (%g, %g): want workers > 0 and a finite speedup >= 0", i, c.Job, j, c.Workers[j], c.Speedup[j])
			}
			if j > 0 && c.Workers[j] <= c.Workers[j-1] {
				return inputError("scaling", "job %d (%s): point %d: workers %g not above the previous %g", i, c.Job, j, c.Workers[j], c.Workers[j-1])
			}
		}
	}
	return nil
}

// ScalingFigure returns the speedup (left, with the ideal s(N) = N) and
// efficiency s(N)/N (right) of several jobs, one colour per job, knees
// marked. Jobs whose curves and knees are the same (jobs on one model) are
// drawn once, in the first one's style, and named together in the legend.
func ScalingFigure(d ScalingData) (*Figure, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	pal := d.Palette
	if pal == nil {
		var names []string
		for _, c := range d.Jobs {
			names = append(names, c.Job)
		}
		pal = NewPalette(names...)
	}
	sf := &panel{p: newPlot("Speedup", "workers N", "speedup s(N) = T(1)/T(N)")}
	ef := &panel{p: newPlot("Efficiency", "workers N", "efficiency s(N)/N")}
	var xmax, smax float64
	for _, c := range d.Jobs {
		xmax = max(xmax, c.Workers[len(c.Workers)-1])
		for _, s := range c.Speedup {
			smax = max(smax, s)
		}
	}
	ideal := plotter.XYs{{X: 0, Y: 0}, {X: math.Min(xmax, smax*1.15), Y: math.Min(xmax, smax*1.15)}}
	il, _ := plotter.NewLine(ideal)
	il.LineStyle = draw.LineStyle{Color: Ink, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
	sf.p.Add(il)
	sf.see(densify(ideal, 20)...)
	one, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 1}, {X: xmax, Y: 1}})
	one.LineStyle = il.LineStyle
	ef.p.Add(one)
	ef.see(densify(plotter.XYs{{X: 0, Y: 1}, {X: xmax, Y: 1}}, 20)...)
	var knees bool
	leg := newLegend()
	longest := 0
	for _, g := range sameCurves(d.Jobs) {
		c := g.ScalingCurve
		s := make(plotter.XYs, len(c.Workers))
		e := make(plotter.XYs, len(c.Workers))
		eff := c.Efficiency()
		for i, n := range c.Workers {
			s[i] = plotter.XY{X: n, Y: c.Speedup[i]}
			e[i] = plotter.XY{X: n, Y: eff[i]}
		}
		sl, _ := plotter.NewLine(s)
		sl.LineStyle = pal.line(c.Job)
		el, _ := plotter.NewLine(e)
		el.LineStyle = pal.line(c.Job)
		sf.p.Add(sl)
		ef.p.Add(el)
		sf.see(densify(s, 3)...)
		ef.see(densify(e, 3)...)
		thumbs := []plot.Thumbnailer{sl}
		if c.marked() {
			if v, ok := c.at(c.Knee); ok {
				knees = true
				g := pal.glyph(c.Job)
				g.Radius = vg.Points(4)
				ks, _ := plotter.NewScatter(plotter.XYs{{X: c.Knee, Y: v}})
				ks.GlyphStyle = g
				sf.p.Add(ks)
				ke, _ := plotter.NewScatter(plotter.XYs{{X: c.Knee, Y: v / c.Knee}})
				ke.GlyphStyle = g
				ef.p.Add(ke)
				// the job's entry shows its knee's marker: one hollow
				// "knee" ring beside seven shapes told none of them
				thumbs = append(thumbs, ks)
			}
		}
		leg.Add(g.label, thumbs...)
		longest = max(longest, len(g.label))
	}
	leg.Add("ideal", il)
	if knees {
		ks, _ := plotter.NewScatter(plotter.XYs{{X: 0, Y: 0}})
		ks.GlyphStyle = draw.GlyphStyle{Color: Ink, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
		leg.Add("knee: the job's marker", ks)
	}
	sf.p.X.Min, sf.p.Y.Min, ef.p.X.Min, ef.p.Y.Min = 0, 0, 0, 0
	ef.p.Y.Max = math.Max(ef.p.Y.Max, 1.05)
	strip := legendStrip(max(longest, len("knee: the job's marker")))
	return &Figure{W: WideWidth + strip, H: PanelHeight, draw: func(c draw.Canvas) {
		sideLegend(c, []*plot.Plot{sf.p, ef.p}, leg, strip)
	}}, nil
}

// curveGroup is the curve of one or more jobs with one label.
type curveGroup struct {
	ScalingCurve
	label string
}

// sameCurves groups jobs whose worker counts, speedups and knees are equal,
// in the order of their first job. Drawn one by one, such curves lay
// exactly over each other and only the last drawn showed, under a legend
// naming every job in its own colour.
func sameCurves(cs []ScalingCurve) []curveGroup {
	var out []curveGroup
	var names [][]string
	for _, c := range cs {
		i := slices.IndexFunc(out, func(g curveGroup) bool {
			sameKnee := g.Knee == c.Knee || !g.marked() && !c.marked()
			return sameKnee && slices.Equal(g.Workers, c.Workers) && slices.Equal(g.Speedup, c.Speedup)
		})
		if i < 0 {
			out = append(out, curveGroup{ScalingCurve: c})
			names = append(names, []string{c.Job})
			continue
		}
		names[i] = append(names[i], c.Job)
	}
	for i := range out {
		n := names[i]
		out[i].label = strings.Join(n, ", ")
		if len(n) > 3 {
			out[i].label = fmt.Sprintf("%s, %s and %d more (one curve)", n[0], n[1], len(n)-2)
		} else if len(n) > 1 {
			out[i].label += " (one curve)"
		}
	}
	return out
}
