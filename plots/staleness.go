package plots

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// StalenessSample is the staleness of the updates of the runs at one worker
// count, in updates (the version lag of each applied gradient).
type StalenessSample struct {
	Workers int
	Values  []float64
}

// StalenessData is the input of the staleness figure.
type StalenessData struct {
	Title   string // "" means "Staleness by worker count"
	Samples []StalenessSample
	// Predicted is the model's mean staleness at a worker count (NaN or
	// absent: not drawn); nil means N-1, the round-robin expectation.
	Predicted func(workers int) float64
	// Interval is the predicted mean's interval at a worker count, drawn
	// as an error bar on the dash (NaN ends or absent: none); Level is
	// its coverage for the legend (0: 0.9).
	Interval func(workers int) (lo, hi float64)
	Level    float64
}

// BoxSummary is the five-number summary drawn as one box: the quartiles by
// Tukey's hinges (median of each half, as gonum/plot's BoxPlot), whiskers to
// the most extreme values within 1.5 IQR of the box, and the mean.
type BoxSummary struct {
	Workers                  int
	N                        int
	Min, Q1, Median, Q3, Max float64
	WhiskerLo, WhiskerHi     float64
	Mean                     float64
	Outliers                 int
}

// Summaries returns one BoxSummary per sample, by increasing workers.
func (d StalenessData) Summaries() ([]BoxSummary, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	out := make([]BoxSummary, 0, len(d.Samples))
	for _, s := range d.Samples {
		b, err := plotter.NewBoxPlot(1, 0, plotter.Values(s.Values))
		if err != nil {
			return nil, fmt.Errorf("plots: staleness: %w", err)
		}
		var sum float64
		for _, v := range s.Values {
			sum += v
		}
		out = append(out, BoxSummary{
			Workers: s.Workers, N: len(s.Values),
			Min: b.Min, Q1: b.Quartile1, Median: b.Median, Q3: b.Quartile3, Max: b.Max,
			WhiskerLo: b.AdjLow, WhiskerHi: b.AdjHigh,
			Mean: sum / float64(len(s.Values)), Outliers: len(b.Outside),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Workers < out[j].Workers })
	return out, nil
}

func (d StalenessData) validate() error {
	if len(d.Samples) == 0 {
		return inputError("staleness", "no samples")
	}
	seen := map[int]bool{}
	for i, s := range d.Samples {
		if s.Workers < 1 {
			return inputError("staleness", "sample %d: workers %d: want >= 1", i, s.Workers)
		}
		if seen[s.Workers] {
			return inputError("staleness", "sample %d: workers %d appears twice", i, s.Workers)
		}
		seen[s.Workers] = true
		if len(s.Values) == 0 {
			return inputError("staleness", "sample %d (%d workers): no values", i, s.Workers)
		}
		for j, v := range s.Values {
			if !isFinite(v) || v < 0 {
				return inputError("staleness", "sample %d (%d workers): value %d is %g: want a finite staleness >= 0", i, s.Workers, j, v)
			}
		}
	}
	return nil
}

// StalenessFigure returns the staleness figure: one box per worker count
// (quartiles, whiskers at 1.5 IQR, outliers), the mean as a triangle and the
// predicted mean (N-1 by default) as a dash.
func StalenessFigure(d StalenessData) (*Figure, error) {
	sums, err := d.Summaries()
	if err != nil {
		return nil, err
	}
	title := d.Title
	if title == "" {
		title = "Staleness by worker count"
	}
	pred := d.Predicted
	if pred == nil {
		pred = func(n int) float64 { return float64(n - 1) }
	}
	f := &panel{p: newPlot(title, "workers N", "staleness (updates)")}
	p := f.p
	byW := map[int][]float64{}
	for _, s := range d.Samples {
		byW[s.Workers] = s.Values
	}
	boxColor := OkabeIto[0]
	var ticks []plot.Tick
	var means, preds, bars plotter.XYs
	var barErr plotter.YErrors
	var top float64
	for i, s := range sums {
		x := float64(i)
		b, err := plotter.NewBoxPlot(vg.Points(26), x, plotter.Values(byW[s.Workers]))
		if err != nil {
			return nil, fmt.Errorf("plots: staleness: %w", err)
		}
		b.FillColor = fade(boxColor, 0.25)
		b.BoxStyle = draw.LineStyle{Color: boxColor, Width: vg.Points(1.2)}
		b.MedianStyle = draw.LineStyle{Color: boxColor, Width: vg.Points(2.2)}
		b.WhiskerStyle = draw.LineStyle{Color: boxColor, Width: vg.Points(0.9)}
		b.GlyphStyle = draw.GlyphStyle{Color: fade(boxColor, 0.6), Radius: vg.Points(1.6), Shape: draw.CircleGlyph{}}
		p.Add(b)
		if i == 0 {
			// (box and whiskers were one entry, and the dots, darker
			// where several iterations share a value, none)
			f.legend("box: quartiles; whiskers: 1.5 IQR", swatch{fill: fade(boxColor, 0.25), line: boxColor})
			dot, _ := plotter.NewScatter(plotter.XYs{{}})
			dot.GlyphStyle = b.GlyphStyle
			f.legend("beyond (darker: several)", dot)
		}
		ticks = append(ticks, plot.Tick{Value: x, Label: strconv.Itoa(s.Workers)})
		means = append(means, plotter.XY{X: x, Y: s.Mean})
		f.see(XY{x, s.Max}, XY{x, s.Q3}, XY{x, s.Median}, XY{x, s.Q1}, XY{x, s.Min})
		top = max(top, s.Max)
		if v := pred(s.Workers); isFinite(v) {
			preds = append(preds, plotter.XY{X: x, Y: v})
			f.see(XY{x, v})
			top = max(top, v)
			if d.Interval != nil && d.Predicted != nil {
				if lo, hi := d.Interval(s.Workers); isFinite(lo) && isFinite(hi) && lo <= v && v <= hi && hi > lo {
					// beside the box, whose whiskers it would hide
					bars = append(bars, plotter.XY{X: x + barOffset, Y: v})
					barErr = append(barErr, struct{ Low, High float64 }{v - lo, hi - v})
					f.see(XY{x + barOffset, lo}, XY{x + barOffset, hi})
					top = max(top, hi)
				}
			}
		}
	}
	ms, _ := plotter.NewScatter(means)
	ms.GlyphStyle = draw.GlyphStyle{Color: OkabeIto[3], Radius: vg.Points(3.5), Shape: draw.PyramidGlyph{}}
	p.Add(ms)
	f.legend("mean", ms)
	if len(preds) > 0 {
		ps, _ := plotter.NewScatter(preds)
		ps.GlyphStyle = draw.GlyphStyle{Color: Ink, Radius: vg.Points(7), Shape: dashGlyph{}}
		p.Add(ps)
		if d.Predicted == nil {
			f.legend("N−1 (round robin)", ps)
		} else {
			f.legend("predicted mean", ps)
		}
	}
	if len(bars) > 0 {
		eb, err := plotter.NewYErrorBars(errBars{bars, barErr})
		if err != nil {
			return nil, fmt.Errorf("plots: staleness: %w", err)
		}
		eb.LineStyle = draw.LineStyle{Color: Ink, Width: vg.Points(1.2)}
		eb.CapWidth = vg.Points(6)
		p.Add(eb)
		level := d.Level
		if !(level > 0 && level < 1) {
			level = 0.9
		}
		f.legend(fmt.Sprintf("predicted %.0f%% interval", 100*level), errorBarThumb{})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.6, float64(len(sums)-1)+0.6
	p.Y.Min, p.Y.Max = 0, math.Max(top*1.05, 1)
	f.placeLegend(Width, Height)
	return NewFigure(p, Width, Height), nil
}

// barOffset is how far right of its box (in worker-count slots) the
// predicted interval's bar is drawn.
const barOffset = 0.25

// dashGlyph is a horizontal dash as wide as twice the radius.
type dashGlyph struct{}

func (dashGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.StrokeLine2(draw.LineStyle{Color: sty.Color, Width: vg.Points(2)}, pt.X-sty.Radius, pt.Y, pt.X+sty.Radius, pt.Y)
}

// errorBarThumb is an error bar's legend entry: a vertical line with caps.
type errorBarThumb struct{}

func (errorBarThumb) Thumbnail(c *draw.Canvas) {
	sty := draw.LineStyle{Color: Ink, Width: vg.Points(1.2)}
	x := (c.Min.X + c.Max.X) / 2
	w := vg.Points(3)
	c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
	c.StrokeLine2(sty, x-w, c.Min.Y, x+w, c.Min.Y)
	c.StrokeLine2(sty, x-w, c.Max.Y, x+w, c.Max.Y)
}
