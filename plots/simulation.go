package plots

import (
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ResponseTimes are the response times (completion - arrival, s) of the
// jobs of one policy's simulation.
type ResponseTimes struct {
	Policy string
	Times  []float64
}

// LoadPoint is a policy's mean response time (s) at one load (the offered
// load, busy fraction in (0, 1)), with its interval (NaN: unknown), e.g. a
// 95% interval over seeds.
type LoadPoint struct {
	Policy             string
	Load, Mean, Lo, Hi float64
}

// SimulationData is the input of the simulation figure.
type SimulationData struct {
	Responses []ResponseTimes // the CDF panel; at least one policy
	Loads     []LoadPoint     // the load panel; may be empty
	Palette   *Palette        // nil: built from the policy names
}

// CDF returns the empirical distribution function of times as the corners
// of its steps: sorted t_(1) <= ... <= t_(n), the points (t_(i), i/n), ties
// kept (NaN dropped). It does not change times.
func CDF(times []float64) []XY {
	v := make([]float64, 0, len(times))
	for _, t := range times {
		if !math.IsNaN(t) {
			v = append(v, t)
		}
	}
	sort.Float64s(v)
	out := make([]XY, len(v))
	for i, t := range v {
		out[i] = XY{t, float64(i+1) / float64(len(v))}
	}
	return out
}

// maxCDFPoints is the most CDF corners drawn per policy: beyond it the
// staircase is drawn through evenly spaced ranks, within 1/maxCDFPoints of
// the exact curve, so that 100000 jobs draw as fast as 1000.
const maxCDFPoints = 1000

// thinCDF keeps k corners of c at evenly spaced ranks, the first and the
// last included; c itself when it has at most k.
func thinCDF(c []XY, k int) []XY {
	if len(c) <= k || k < 2 {
		return c
	}
	out := make([]XY, k)
	for i := range out {
		out[i] = c[int(math.Round(float64(i)*float64(len(c)-1)/float64(k-1)))]
	}
	return out
}

// stepXYs turns CDF corners into a staircase starting at probability 0.
func stepXYs(c []XY) plotter.XYs {
	out := make(plotter.XYs, 0, 2*len(c))
	prev := 0.0
	for _, q := range c {
		out = append(out, plotter.XY{X: q.X, Y: prev}, plotter.XY{X: q.X, Y: q.Y})
		prev = q.Y
	}
	return out
}

func (d SimulationData) validate() error {
	if len(d.Responses) == 0 {
		return inputError("simulation", "no response times")
	}
	seen := map[string]bool{}
	for i, r := range d.Responses {
		if seen[r.Policy] {
			return inputError("simulation", "responses %d: policy %q appears twice", i, r.Policy)
		}
		seen[r.Policy] = true
		if len(r.Times) == 0 {
			return inputError("simulation", "responses %d (%s): no times", i, r.Policy)
		}
		for j, t := range r.Times {
			if !isFinite(t) || t < 0 {
				return inputError("simulation", "responses %d (%s): time %d is %g: want a finite time >= 0 s", i, r.Policy, j, t)
			}
		}
	}
	for i, l := range d.Loads {
		if !isFinite(l.Load) || l.Load <= 0 || !isFinite(l.Mean) || l.Mean < 0 {
			return inputError("simulation", "load point %d (%s): load %g, mean %g: want load > 0 and a finite mean >= 0 s", i, l.Policy, l.Load, l.Mean)
		}
		if err := checkInterval("simulation", "load point", i, l.Mean, l.Lo, l.Hi); err != nil {
			return err
		}
	}
	return nil
}

// SimulationFigure returns the response-time CDF per policy (log time axis
// when every time is positive) and, beside it when Loads is set, the mean
// response time against load per policy with intervals.
func SimulationFigure(d SimulationData) (*Figure, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	pal := d.Palette
	if pal == nil {
		var names []string
		for _, r := range d.Responses {
			names = append(names, r.Policy)
		}
		for _, l := range d.Loads {
			names = append(names, l.Policy)
		}
		pal = NewPalette(names...)
	}
	w := Width
	if len(d.Loads) > 0 {
		w = WideWidth
	}
	leg := newLegend()
	longest := 0
	p := newPlot("Response-time distribution", "response time (s)", "fraction of jobs done")
	positive := true
	tmin, tmax := math.Inf(1), 0.0
	for _, r := range d.Responses {
		for _, t := range r.Times {
			positive = positive && t > 0
			tmin, tmax = math.Min(tmin, t), math.Max(tmax, t)
		}
	}
	if positive {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for _, r := range d.Responses {
		xy := stepXYs(thinCDF(CDF(r.Times), maxCDFPoints))
		l, _ := plotter.NewLine(xy)
		l.LineStyle = pal.line(r.Policy)
		p.Add(l)
		leg.Add(r.Policy, l)
		longest = max(longest, len(r.Policy))
	}
	p.Y.Min, p.Y.Max = 0, 1
	if positive {
		p.X.Min, p.X.Max = tmin/1.2, tmax*1.2
	} else {
		p.X.Min = 0
	}
	// Policies not in the CDF panel still need a legend entry.
	inCDF := map[string]bool{}
	for _, r := range d.Responses {
		inCDF[r.Policy] = true
	}
	strip := legendStrip(longest)
	if len(d.Loads) == 0 {
		return &Figure{W: w + strip, H: PanelHeight, draw: func(c draw.Canvas) {
			sideLegend(c, []*plot.Plot{p}, leg, strip)
		}}, nil
	}

	q := newPlot("Mean response time vs load", "load (offered work / capacity)", "mean response time (s)")
	by := map[string][]LoadPoint{}
	var order []string
	for _, l := range d.Loads {
		if _, ok := by[l.Policy]; !ok {
			order = append(order, l.Policy)
		}
		by[l.Policy] = append(by[l.Policy], l)
	}
	for _, name := range order {
		ls := by[name]
		sort.Slice(ls, func(i, j int) bool { return ls[i].Load < ls[j].Load })
		var xy, exy plotter.XYs
		var ye plotter.YErrors
		for _, l := range ls {
			xy = append(xy, plotter.XY{X: l.Load, Y: l.Mean})
			if !math.IsNaN(l.Lo) {
				exy = append(exy, plotter.XY{X: l.Load, Y: l.Mean})
				ye = append(ye, struct{ Low, High float64 }{l.Mean - l.Lo, l.Hi - l.Mean})
			}
		}
		line, pts, _ := plotter.NewLinePoints(xy)
		line.LineStyle = pal.line(name)
		pts.GlyphStyle = pal.glyph(name)
		q.Add(line, pts)
		if len(exy) > 0 {
			eb, err := plotter.NewYErrorBars(errBars{exy, ye})
			if err == nil {
				eb.LineStyle = draw.LineStyle{Color: pal.Color(name), Width: vg.Points(1)}
				eb.CapWidth = vg.Points(4)
				q.Add(eb)
			}
		}
		if !inCDF[name] {
			leg.Add(name, line, pts)
			longest = max(longest, len(name))
		}
	}
	q.Y.Min = 0
	strip = legendStrip(longest)
	return &Figure{W: w + strip, H: PanelHeight, draw: func(c draw.Canvas) {
		sideLegend(c, []*plot.Plot{p, q}, leg, strip)
	}}, nil
}
