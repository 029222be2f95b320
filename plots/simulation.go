package plots

import (
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/sgdplan/sgdplan/internal/words"
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
	// NotSteady fades the policy's curve: its queue grew through the
	// runs, so the times are of a run's length, not the policy's.
	NotSteady bool
}

// LoadPoint is a policy's mean response time (s) at one load (the offered
// load, busy fraction in (0, 1)), with its interval (NaN: unknown), e.g. a
// 95% interval over seeds.
type LoadPoint struct {
	Policy             string
	Load, Mean, Lo, Hi float64
	// NotSteady is "" for a steady-state mean; otherwise the mark of a
	// mean that is none, the queue still growing at the run's end (report's
	// "*": overloaded, "†": likely a run too short), drawn faded.
	NotSteady string
}

// SimulationData is the input of the simulation figure.
type SimulationData struct {
	Responses []ResponseTimes // the CDF panel; at least one policy
	Loads     []LoadPoint     // the load panel; may be empty
	Palette   *Palette        // nil: built from the policy names
	// CDFTitle titles the distribution panel: the load, runs and workers
	// it is of ("": "Response-time distribution").
	CDFTitle string
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

// notSteadyAlpha is the opacity of a load point that is no steady state
// (LoadPoint.NotSteady), and notSteadyLegend its legend entry.
const (
	notSteadyAlpha  = 0.3
	notSteadyLegend = "faded: no steady state"
)

// arrowAlpha is the opacity of the arrow drawn for a mean above the load
// panel's axis: more than a faded point's, which it always is, so that
// the arrow shows.
const arrowAlpha = 0.6

// loadAxisSlack is how far the load panel's axis may reach above the
// steady means and their intervals before it is cut: when a faded mean or
// interval reaches further than loadAxisSlack times their top, the axis
// ends loadAxisHead times above it.
const (
	loadAxisSlack = 1.25
	loadAxisHead  = 1.1
)

// LoadAxis returns the top of the load panel's mean axis and the load
// points drawn above it, as arrows at its edge, in d.Loads's order. The
// axis follows the steady means and their intervals (LoadPoint.NotSteady
// ""): when the faded ones reach more than loadAxisSlack times as high
// (the demo's fifo at 15,687 s, its interval to 20,000 s, over steady
// means below 4,500 s squeezed into the bottom quarter), it ends
// loadAxisHead times above the steady top, and the faded means above that
// are drawn as arrows there, their lines and intervals cut at the edge.
// top is NaN (the axis fits everything drawn) otherwise, or when no mean
// is steady.
func (d SimulationData) LoadAxis() (top float64, above []LoadPoint) {
	steady, all := math.Inf(-1), math.Inf(-1)
	for _, l := range d.Loads {
		hi := l.Mean
		if isFinite(l.Hi) {
			hi = math.Max(hi, l.Hi)
		}
		all = math.Max(all, hi)
		if l.NotSteady == "" {
			steady = math.Max(steady, hi)
		}
	}
	if !(steady > 0) || all <= loadAxisSlack*steady {
		return math.NaN(), nil
	}
	top = loadAxisHead * steady
	for _, l := range d.Loads {
		if l.Mean > top {
			above = append(above, l)
		}
	}
	return top, above
}

// aboveLegend is the legend entry of the arrows of the means above the
// load panel's axis: how far the highest goes.
func aboveLegend(above []LoadPoint) string {
	hi := 0.0
	for _, l := range above {
		hi = math.Max(hi, l.Mean)
	}
	return "faded, above the axis: to " + Seconds(hi)
}

// Seconds writes a time in seconds as the simulation figure's legend and
// the report's caption both give it: thousands grouped from 1,000 to
// 999,999 s ("15,687 s"), else 4 significant digits ("842.3 s",
// "1.235e+06 s"; the caption wrote "842 s" and "1,234,567 s" beside them).
func Seconds(v float64) string {
	// the choice on the value as written: 999.96 is "1,000 s", not "1000 s"
	// beside it, and 999,999.6 "1e+06 s", not "1,000,000 s"
	if r := math.Round(v); isFinite(v) && math.Abs(v) >= 999.5 && math.Abs(r) < 1e6 {
		return words.Thousands(int(r)) + " s"
	}
	return num(v) + " s"
}

// cutBar is an interval from lo to hi at x with a cap at each end inside
// the axis: an end past the axis's edge is cut there, without a cap, so
// the bar reads as going on.
type cutBar struct {
	x, lo, hi float64
	style     draw.LineStyle
	cap       vg.Length
}

func (b cutBar) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	lo, hi := math.Max(b.lo, plt.Y.Min), math.Min(b.hi, plt.Y.Max)
	if !(hi >= lo) {
		return
	}
	x := trX(b.x)
	c.StrokeLine2(b.style, x, trY(lo), x, trY(hi))
	for _, e := range []float64{b.lo, b.hi} {
		if e >= plt.Y.Min && e <= plt.Y.Max {
			y := trY(e)
			c.StrokeLine2(b.style, x-b.cap/2, y, x+b.cap/2, y)
		}
	}
}

// DataRange makes the axes hold the whole interval, as YErrorBars did.
func (b cutBar) DataRange() (xmin, xmax, ymin, ymax float64) {
	return b.x, b.x, b.lo, b.hi
}

// upArrow is an arrow pointing up, its head at the point (centred on it
// when centred: the legend's): a mean above the axis.
type upArrow struct{ centred bool }

func (a upArrow) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	if a.centred {
		pt.Y += r * 1.3
	}
	head := vg.Path{}
	head.Move(pt)
	head.Line(vg.Point{X: pt.X - r*0.8, Y: pt.Y - r*1.2})
	head.Line(vg.Point{X: pt.X + r*0.8, Y: pt.Y - r*1.2})
	head.Close()
	c.SetColor(sty.Color)
	c.Fill(head)
	c.StrokeLine2(draw.LineStyle{Color: sty.Color, Width: r * 0.4}, pt.X, pt.Y-r, pt.X, pt.Y-r*2.6)
}

// loadSeriesOf is one policy's points in the load panel as drawn: X is
// the load shifted by the policy's offset (loadOffsets), Y the mean, lo
// and hi its interval (NaN: none), notSteady whether the mean is no
// steady state; in increasing load.
type loadSeriesOf struct {
	policy    string
	points    plotter.XYs
	lo, hi    []float64
	notSteady []bool
}

// loadSeries returns the load panel's series, one per policy in the
// order of first appearance in d.Loads.
func (d SimulationData) loadSeries() []loadSeriesOf {
	by := map[string][]LoadPoint{}
	var order []string
	for _, l := range d.Loads {
		if _, ok := by[l.Policy]; !ok {
			order = append(order, l.Policy)
		}
		by[l.Policy] = append(by[l.Policy], l)
	}
	off := d.loadOffsets(order)
	var out []loadSeriesOf
	for _, name := range order {
		ls := slices.Clone(by[name])
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].Load < ls[j].Load })
		s := loadSeriesOf{policy: name}
		for _, l := range ls {
			s.points = append(s.points, plotter.XY{X: l.Load + off[name], Y: l.Mean})
			s.lo, s.hi = append(s.lo, l.Lo), append(s.hi, l.Hi)
			s.notSteady = append(s.notSteady, l.NotSteady != "")
		}
		out = append(out, s)
	}
	return out
}

// loadSpread is the width, as a fraction of the smallest gap between two
// loads, over which the policies' points at one load are spread, so that
// their intervals do not hide each other; loadSpreadOne is that width on
// the axis of one load.
const (
	loadSpread    = 0.4
	loadSpreadOne = 0.06
)

// loadOffsets returns each policy's shift along the load axis: evenly
// spaced, in order, over loadSpread of the smallest gap between loads,
// centred on 0.
func (d SimulationData) loadOffsets(order []string) map[string]float64 {
	width := d.loadWidth()
	off := map[string]float64{}
	for i, name := range order {
		if len(order) > 1 {
			off[name] = width * (float64(i)/float64(len(order)-1) - 0.5)
		} else {
			off[name] = 0
		}
	}
	return off
}

// loadWidth is the width over which the policies' points at one load are
// spread: loadSpread times the smallest gap between loads or the least
// load, whichever is smaller, or loadSpreadOne for one load.
func (d SimulationData) loadWidth() float64 {
	loads := d.loads()
	if len(loads) < 2 {
		return loadSpreadOne
	}
	gap := math.Inf(1)
	for i := 1; i < len(loads); i++ {
		gap = math.Min(gap, loads[i]-loads[i-1])
	}
	// and no wider than loadSpread of the least load, so that no point
	// is shifted to a load of 0 or below (--loads 0.1,0.9 drew them from
	// -0.06, cut at the axis)
	return loadSpread * math.Min(gap, loads[0])
}

// LoadLabels returns the labels of loads, each written as Num writes it (4
// significant digits) or with the fewest more digits that tell every two
// apart and write no load below 1 as "1" or more: 0.5 and 0.50001 read
// "0.5" and "0.50001", not "0.5" twice; 0.9999999 reads "0.9999999", not
// "1" (a load the report refuses).
func LoadLabels(loads []float64) []string {
	out := make([]string, len(loads))
	for d := 4; d <= 17; d++ {
		ok := true
		seen := map[string]float64{}
		for i, l := range loads {
			out[i] = tickLabelDigits(roundSig(l, d), d)
			if prev, dup := seen[out[i]]; dup && prev != l {
				ok = false
			}
			seen[out[i]] = l
			if v, err := strconv.ParseFloat(out[i], 64); err == nil && l < 1 && v >= 1 {
				ok = false
			}
		}
		if ok {
			break
		}
	}
	return out
}

// loadTicks returns the load axis's ticks: one at each load, labelled
// with LoadLabels, when there are 2 to 12 loads at least 7% of the axis
// (lo to hi) apart; nil (the axis's own ticks) otherwise.
func (d SimulationData) loadTicks(lo, hi float64) []plot.Tick {
	loads := d.loads()
	if len(loads) < 2 || len(loads) > 12 {
		return nil
	}
	for i := 1; i < len(loads); i++ {
		if loads[i]-loads[i-1] < 0.07*(hi-lo) {
			return nil
		}
	}
	var ts []plot.Tick
	for i, l := range LoadLabels(loads) {
		ts = append(ts, plot.Tick{Value: loads[i], Label: l})
	}
	return ts
}

// loads returns the distinct loads of d.Loads, increasing.
func (d SimulationData) loads() []float64 {
	var v []float64
	for _, l := range d.Loads {
		v = append(v, l.Load)
	}
	slices.Sort(v)
	return slices.Compact(v)
}

// loadRange returns the load axis' range: the loads, the policies' shifts
// about them and a margin of a tenth of their span on each side, not below
// 0 unless a shifted point is; for one load, [0, 1] (or [0, 1.2 load] for
// a load of 1 or more), where gonum's default for a range of zero width
// was [load - 1, load + 1].
func (d SimulationData) loadRange() (lo, hi float64) {
	loads := d.loads()
	if len(loads) == 0 {
		return 0, 1
	}
	if len(loads) == 1 {
		return 0, math.Max(1, 1.2*loads[0])
	}
	first, last := loads[0]-d.loadWidth()/2, loads[len(loads)-1]+d.loadWidth()/2
	pad := 0.1 * (last - first)
	return math.Max(first-pad, math.Min(0, first)), last + pad
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
	title := d.CDFTitle
	if title == "" {
		title = "Response-time distribution"
	}
	p := newPlot(title, "response time (s)", "fraction of jobs done")
	faded := false
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
		p.X.Tick.Marker = log10Ticks{}
	}
	for _, r := range d.Responses {
		xy := stepXYs(thinCDF(CDF(r.Times), maxCDFPoints))
		l, _ := plotter.NewLine(xy)
		l.LineStyle = pal.line(r.Policy)
		key := *l // the legend's: the policy's own colour, as the load panel's
		if r.NotSteady {
			// (drawn as the others: six of ten curves of a run's length
			// read as the policies')
			l.LineStyle.Color = fade(l.LineStyle.Color, notSteadyAlpha)
			faded = true
		}
		p.Add(l)
		leg.Add(r.Policy, &key)
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
	if faded && len(d.Loads) == 0 {
		g, _ := plotter.NewScatter(plotter.XYs{{}})
		g.GlyphStyle = draw.GlyphStyle{Color: fade(Ink, notSteadyAlpha), Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		leg.Add(notSteadyLegend, g)
		longest = max(longest, len(notSteadyLegend))
	}
	strip := legendStrip(longest)
	if len(d.Loads) == 0 {
		return &Figure{W: w + strip, H: PanelHeight, draw: func(c draw.Canvas) {
			sideLegend(c, []*plot.Plot{p}, leg, strip)
		}}, nil
	}

	q := newPlot("Mean response time vs load", "load (offered work / capacity)", "mean response time (s)")
	top, above := d.LoadAxis()
	cut := !math.IsNaN(top)
	for _, sr := range d.loadSeries() {
		name := sr.policy
		col, dim := pal.Color(name), fade(pal.Color(name), notSteadyAlpha)
		line, pts, _ := plotter.NewLinePoints(sr.points)
		line.LineStyle = pal.line(name)
		pts.GlyphStyle = pal.glyph(name)
		// each segment and point on its own, so that those touching a
		// mean that is no steady state are faded
		for i, pt := range sr.points {
			if i > 0 {
				// (a line is cut at the axis's edge: one to a mean above
				// it runs out at the top towards that mean's arrow)
				seg, _ := plotter.NewLine(plotter.XYs{sr.points[i-1], pt})
				seg.LineStyle = pal.line(name)
				if sr.notSteady[i-1] || sr.notSteady[i] {
					seg.LineStyle.Color = dim
				}
				q.Add(seg)
			}
			g := pal.glyph(name)
			c := col
			if sr.notSteady[i] {
				g.Color, c = dim, dim
				faded = true
			}
			one, _ := plotter.NewScatter(plotter.XYs{pt})
			one.GlyphStyle = g
			if cut && pt.Y > top {
				// above the axis: an arrow at its top edge, pointing up
				one, _ = plotter.NewScatter(plotter.XYs{{X: pt.X, Y: top}})
				one.GlyphStyle = draw.GlyphStyle{Color: fade(col, arrowAlpha), Radius: vg.Points(4), Shape: upArrow{}}
			}
			q.Add(one)
			if !math.IsNaN(sr.lo[i]) {
				q.Add(cutBar{x: pt.X, lo: sr.lo[i], hi: sr.hi[i], style: draw.LineStyle{Color: c, Width: vg.Points(1)}, cap: vg.Points(4)})
			}
		}
		if !inCDF[name] {
			leg.Add(name, line, pts)
			longest = max(longest, len(name))
		}
	}
	if faded {
		g, _ := plotter.NewScatter(plotter.XYs{{}})
		g.GlyphStyle = draw.GlyphStyle{Color: fade(Ink, notSteadyAlpha), Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		leg.Add(notSteadyLegend, g)
		longest = max(longest, len(notSteadyLegend))
	}
	if len(above) > 0 {
		g, _ := plotter.NewScatter(plotter.XYs{{}})
		g.GlyphStyle = draw.GlyphStyle{Color: fade(Ink, arrowAlpha), Radius: vg.Points(4), Shape: upArrow{centred: true}}
		text := aboveLegend(above)
		leg.Add(text, g)
		longest = max(longest, len(text))
	}
	if cut {
		q.Y.Max = top
	}
	q.X.Min, q.X.Max = d.loadRange()
	if ts := d.loadTicks(q.X.Min, q.X.Max); ts != nil {
		q.X.Tick.Marker = plot.ConstantTicks(ts)
	}
	q.Y.Min = 0
	strip = legendStrip(longest)
	return &Figure{W: w + strip, H: PanelHeight, draw: func(c draw.Canvas) {
		sideLegend(c, []*plot.Plot{p, q}, leg, strip)
	}}, nil
}
