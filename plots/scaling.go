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
// efficiency s(N)/N (right) of several jobs, one colour and one marker
// shape per job (the shape repeated along the line, so that the jobs are
// told apart without colour), knees marked by the job's marker drawn
// large. Jobs whose curves and knees are the same (jobs on one model) are
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
	groups := sameCurves(d.Jobs)
	for k, g := range groups {
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
		// the second cue beside the colour: the job's marker shape along
		// its line in both panels (nine series told apart by colour alone
		// merged in greyscale and for a colour-blind reader)
		mark := draw.GlyphStyle{Color: pal.Color(c.Job), Radius: vg.Points(2.6), Shape: seriesGlyph(pal, c.Job)}
		var ms, me plotter.XYs
		for _, x := range scalingMarks(c, k, len(groups)) {
			if v, ok := c.at(x); ok {
				ms = append(ms, plotter.XY{X: x, Y: v})
				me = append(me, plotter.XY{X: x, Y: v / x})
			}
		}
		thumbs := []plot.Thumbnailer{sl}
		if len(ms) > 0 {
			ss, _ := plotter.NewScatter(ms)
			ss.GlyphStyle = mark
			sf.p.Add(ss)
			se, _ := plotter.NewScatter(me)
			se.GlyphStyle = mark
			ef.p.Add(se)
			thumbs = append(thumbs, ss)
		}
		if c.marked() {
			if v, ok := c.at(c.Knee); ok {
				knees = true
				g := mark
				g.Radius = kneeRadius
				ks, _ := plotter.NewScatter(plotter.XYs{{X: c.Knee, Y: v}})
				ks.GlyphStyle = g
				sf.p.Add(ks)
				ke, _ := plotter.NewScatter(plotter.XYs{{X: c.Knee, Y: v / c.Knee}})
				ke.GlyphStyle = g
				ef.p.Add(ke)
			}
		}
		leg.Add(g.label, thumbs...)
		longest = max(longest, len(g.label))
	}
	leg.Add("ideal", il)
	if knees {
		ks, _ := plotter.NewScatter(plotter.XYs{{X: 0, Y: 0}})
		ks.GlyphStyle = draw.GlyphStyle{Color: Ink, Radius: kneeRadius, Shape: draw.RingGlyph{}}
		leg.Add(kneeLegend, ks)
	}
	sf.p.X.Min, sf.p.Y.Min, ef.p.X.Min, ef.p.Y.Min = 0, 0, 0, 0
	ef.p.Y.Max = math.Max(ef.p.Y.Max, 1.05)
	strip := legendStrip(max(longest, len(kneeLegend)))
	return &Figure{W: WideWidth + strip, H: PanelHeight, draw: func(c draw.Canvas) {
		sideLegend(c, []*plot.Plot{sf.p, ef.p}, leg, strip)
	}}, nil
}

// kneeRadius is the size of a knee's marker, and kneeLegend its legend
// entry: the job's marker, larger than the ones along its line.
const (
	kneeRadius = vg.Length(4.8) // points
	kneeLegend = "knee: the job's marker, large"
)

// scalingMarksPerCurve is how many markers each curve of the scaling
// figure carries along its line (besides its knee's).
const scalingMarksPerCurve = 4

// scalingMarks returns the worker counts at which the k-th of n curves
// carries its marker: scalingMarksPerCurve evenly spaced over the curve's
// workers, each curve's shifted by k/n of the spacing, so that curves
// that run close together do not put their markers one over another.
func scalingMarks(c ScalingCurve, k, n int) []float64 {
	lo, hi := c.Workers[0], c.Workers[len(c.Workers)-1]
	step := (hi - lo) / scalingMarksPerCurve
	if !(step > 0) || n <= 0 {
		return nil
	}
	out := make([]float64, scalingMarksPerCurve)
	for j := range out {
		out[j] = lo + step*(float64(j)+(float64(k%n)+0.5)/float64(n))
	}
	return out
}

// seriesGlyph returns the marker shape of name in a figure that tells its
// series apart by shape as well as colour: one of seriesShapes by the
// palette slot, turned one shape further every eight slots, so that two
// names of one colour (slots eight apart) differ in shape, and with the
// dash pattern (which changes every eight slots) the shape and dashes
// alone tell apart as many series as the colour and dashes do (Glyph's
// seven shapes gave the first and the eighth job both a filled circle,
// both solid).
func seriesGlyph(p *Palette, name string) draw.GlyphDrawer {
	s := p.Slot(name)
	return seriesShapes[(s+s/len(OkabeIto))%len(seriesShapes)]
}

// seriesShapes are the eight marker shapes of seriesGlyph, one per colour
// of OkabeIto: Glyph's seven and a diamond.
var seriesShapes = glyphShapes

// diamondGlyph is a filled square standing on a corner.
type diamondGlyph struct{}

func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.25
	p := vg.Path{}
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.SetColor(sty.Color)
	c.Fill(p)
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
