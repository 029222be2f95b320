package plots

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LossCurve is the loss of one run (or the runs at one worker count) against
// global updates, with the fitted curve evaluated at FitUpdates. Either may
// be empty, not both: a report made from a model file has only the fit.
type LossCurve struct {
	Workers    int
	Updates    []float64 // global updates, increasing
	Loss       []float64
	FitUpdates []float64
	FitLoss    []float64
}

// ConvergenceData is the input of the convergence figure: loss curves per
// worker count and, when known, the time to a target loss against workers.
type ConvergenceData struct {
	Title   string  // "" means "Convergence"
	Target  float64 // the target loss, drawn as a line; NaN or 0: none
	Curves  []LossCurve
	Palette *Palette // colours by worker count ("4"); nil: built from Curves

	TimeMeasured  []Obs   // time to target (s) against workers, may be empty
	TimePredicted []Band  // predicted time to target, X increasing, may be empty
	Level         float64 // coverage of TimePredicted's band; 0 means 0.95
	// InfiniteFrom is the least worker count past TimePredicted whose
	// predicted time is infinite (the target is not reached), left out;
	// 0 when none is. With it, the time does not fall on past the last
	// count drawn: StillFalling is false.
	InfiniteFrom float64
	// Servers is the cluster's size: where TimePredicted runs past it to
	// a Best beyond it, the least time within it (ClusterBest) is marked
	// too. 0: no cluster, Best alone is marked.
	Servers int
}

// ClusterBest returns the worker count with the least predicted time to
// target among those up to Servers, and that time, when the figure marks
// it beside Best: Servers is set, Best lies beyond it and some count drawn
// is within it. ok is false otherwise.
func (d ConvergenceData) ClusterBest() (workers, seconds float64, ok bool) {
	bw, _ := d.Best()
	if d.Servers <= 0 || !(bw > float64(d.Servers)) {
		return math.NaN(), math.NaN(), false
	}
	var in ConvergenceData
	for _, b := range d.TimePredicted {
		if b.X <= float64(d.Servers) {
			in.TimePredicted = append(in.TimePredicted, b)
		}
	}
	if len(in.TimePredicted) == 0 {
		return math.NaN(), math.NaN(), false
	}
	workers, seconds = in.Best()
	return workers, seconds, true
}

// FitsCoincide reports whether the figure draws one fitted line for every
// worker count, "fitted, every N alike": two or more curves have fitted
// lines and each agrees within 0.5% with the one that reaches furthest,
// wherever they share an update count (two of them may differ by twice
// that; the loss per update hardly depends on the workers: no staleness
// cost, or a small one). A caption says so from this, the figure's own
// rule.
func (d ConvergenceData) FitsCoincide() bool {
	return coincidentFits(d.Curves) >= 0
}

// workersRange returns the time panel's workers axis: from 0, or, where 0
// would leave more than a quarter of the panel empty left of the least
// count drawn, from 5% of the counts' span below it (half a worker for one
// count), to the largest count (room for the ring at the right edge).
func (d ConvergenceData) workersRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, b := range d.TimePredicted {
		lo, hi = math.Min(lo, b.X), math.Max(hi, b.X)
	}
	for _, o := range d.TimeMeasured {
		lo, hi = math.Min(lo, o.X), math.Max(hi, o.X)
	}
	if math.IsInf(lo, 0) {
		return 0, 1
	}
	if hi == lo {
		return math.Max(0, lo-0.5), hi + 0.5
	}
	if lo > 0.25*hi {
		pad := 0.05 * (hi - lo)
		return lo - pad, hi + pad
	}
	return 0, hi * 1.04
}

// wholeTicks are ticks at each whole number from lo to hi, labelled, for an
// axis of worker counts at most 12 wide (niceTicks put ticks at 0.5, 1.5
// on one from 0 to 2); nil (the axis's own ticks) on a wider one.
func wholeTicks(lo, hi float64) []plot.Tick {
	if hi-lo > 12 {
		return nil
	}
	var ts []plot.Tick
	for v := math.Ceil(lo); v <= hi; v++ {
		ts = append(ts, plot.Tick{Value: v, Label: tickLabel(v)})
	}
	return ts
}

// Best returns the worker count with the least predicted time to target and
// that time; NaN, NaN without predictions.
func (d ConvergenceData) Best() (workers, seconds float64) {
	workers, seconds = math.NaN(), math.NaN()
	for _, b := range d.TimePredicted {
		if math.IsNaN(seconds) || b.Y < seconds {
			workers, seconds = b.X, b.Y
		}
	}
	return workers, seconds
}

// StillFalling reports whether the predicted time to target is least at
// the largest worker count drawn, one of two or more, and finite past it
// (InfiniteFrom 0): it is still falling there, and Best is the end of the
// drawn range, not the fastest count. Where the counts past it take
// forever, Best is the fastest.
func (d ConvergenceData) StillFalling() bool {
	n := len(d.TimePredicted)
	if n < 2 || d.InfiniteFrom > 0 {
		return false
	}
	w, _ := d.Best()
	return w == d.TimePredicted[n-1].X
}

func (d ConvergenceData) validate() error {
	if len(d.Curves) == 0 {
		return inputError("convergence", "no loss curves")
	}
	for i, c := range d.Curves {
		if c.Workers < 1 {
			return inputError("convergence", "curve %d: workers %d: want >= 1", i, c.Workers)
		}
		if len(c.Updates) != len(c.Loss) {
			return inputError("convergence", "curve %d (%d workers): %d updates and %d losses: want as many", i, c.Workers, len(c.Updates), len(c.Loss))
		}
		if len(c.Updates) == 0 && len(c.FitUpdates) < 2 {
			return inputError("convergence", "curve %d (%d workers): no measured points and %d fitted points: want either", i, c.Workers, len(c.FitUpdates))
		}
		if len(c.FitUpdates) != len(c.FitLoss) {
			return inputError("convergence", "curve %d (%d workers): fitted curve has %d updates and %d losses", i, c.Workers, len(c.FitUpdates), len(c.FitLoss))
		}
		for j := range c.Updates {
			if !isFinite(c.Updates[j]) || !isFinite(c.Loss[j]) {
				return inputError("convergence", "curve %d (%d workers): point %d (%g, %g): want finite values", i, c.Workers, j, c.Updates[j], c.Loss[j])
			}
		}
		for j := range c.FitUpdates {
			if !isFinite(c.FitUpdates[j]) || !isFinite(c.FitLoss[j]) {
				return inputError("convergence", "curve %d (%d workers): fitted point %d (%g, %g): want finite values", i, c.Workers, j, c.FitUpdates[j], c.FitLoss[j])
			}
		}
	}
	for i, o := range d.TimeMeasured {
		if !isFinite(o.X) || !isFinite(o.Y) || o.Y < 0 {
			return inputError("convergence", "time to target %d: (%g, %g): want finite workers and time >= 0 s", i, o.X, o.Y)
		}
		if err := checkInterval("convergence", "time to target", i, o.Y, o.Lo, o.Hi); err != nil {
			return err
		}
	}
	for i, b := range d.TimePredicted {
		if !isFinite(b.X) || !isFinite(b.Y) || b.Y < 0 {
			return inputError("convergence", "predicted time %d: (%g, %g): want finite workers and time >= 0 s", i, b.X, b.Y)
		}
		if i > 0 && b.X <= d.TimePredicted[i-1].X {
			return inputError("convergence", "predicted time %d: workers %g not above the previous %g", i, b.X, d.TimePredicted[i-1].X)
		}
		if err := checkInterval("convergence", "predicted time", i, b.Y, b.Lo, b.Hi); err != nil {
			return err
		}
	}
	return nil
}

// workersName is the palette name of a worker count.
func workersName(n int) string { return strconv.Itoa(n) }

// ConvergenceFigure returns the convergence figure: loss against updates per
// worker count (measured points, fitted lines) and, beside it when known, the
// time to the target against workers with the best worker count marked.
func ConvergenceFigure(d ConvergenceData) (*Figure, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	pal := d.Palette
	if pal == nil {
		var names []string
		for _, c := range d.Curves {
			names = append(names, workersName(c.Workers))
		}
		pal = NewPalette(names...)
	}
	title := d.Title
	if title == "" {
		title = "Convergence"
	}
	hasTime := len(d.TimeMeasured)+len(d.TimePredicted) > 0
	w := Width
	lossTitle := title
	if hasTime {
		w = WideWidth
		lossTitle = "Loss vs updates"
	}
	f := &panel{p: newPlot(lossTitle, "global updates", "loss")}
	p := f.p
	xmax := 0.0
	// one fitted curve for every worker count (no staleness cost): each
	// N's line hid under the last, whose legend entry (N=16, a count
	// with no runs) named the curve of them all
	one := coincidentFits(d.Curves)
	for _, c := range d.Curves {
		name := workersName(c.Workers)
		xy := make(plotter.XYs, len(c.Updates))
		for j := range c.Updates {
			xy[j] = plotter.XY{X: c.Updates[j], Y: c.Loss[j]}
			xmax = max(xmax, c.Updates[j])
		}
		var thumbs []plot.Thumbnailer
		if len(xy) > 0 {
			sc, _ := plotter.NewScatter(xy)
			gs := pal.glyph(name)
			gs.Color = fade(gs.Color, 0.85)
			gs.Radius = vg.Points(3)
			sc.GlyphStyle = gs
			p.Add(sc)
			f.seeXYs(xy)
			thumbs = append(thumbs, sc)
		}
		if one >= 0 {
			if len(thumbs) > 0 {
				f.legend(fmt.Sprintf("N=%d", c.Workers), thumbs...)
			}
			continue
		}
		if len(c.FitUpdates) >= 2 {
			fxy := c.fitXYs()
			for _, q := range fxy {
				xmax = max(xmax, q.X)
			}
			l, _ := plotter.NewLine(fxy)
			l.LineStyle = pal.line(name)
			p.Add(l)
			thumbs = append([]plot.Thumbnailer{l}, thumbs...)
			f.see(densify(fxy, 4)...)
		}
		f.legend(fmt.Sprintf("N=%d", c.Workers), thumbs...)
	}
	if one >= 0 {
		c := d.Curves[one]
		fxy := c.fitXYs()
		for _, q := range fxy {
			xmax = max(xmax, q.X)
		}
		l, _ := plotter.NewLine(fxy)
		l.LineStyle = draw.LineStyle{Color: Ink, Width: vg.Points(2)}
		p.Add(l)
		f.see(densify(fxy, 4)...)
		f.legend("fitted, every N alike", l)
	}
	if isFinite(d.Target) && d.Target != 0 {
		tl, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: d.Target}, {X: xmax, Y: d.Target}})
		tl.LineStyle = draw.LineStyle{Color: Ink, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
		p.Add(tl)
		f.legend("target "+num(d.Target), tl)
		f.see(densify(plotter.XYs{{X: 0, Y: d.Target}, {X: xmax, Y: d.Target}}, 20)...)
	}
	p.X.Min = 0
	f.placeLegend(w/2, PanelHeight)
	if !hasTime {
		return NewFigure(p, w, PanelHeight), nil
	}

	g := &panel{p: newPlot("Time to target", "workers N", "time to target (s)")}
	q := g.p
	col := OkabeIto[0]
	fastest := math.Inf(-1)
	capY, off := d.timeCap()
	seen := func(xys plotter.XYs) plotter.XYs {
		// what the legend must keep clear of: the drawn part, cut at
		// the axis's top
		out := make(plotter.XYs, len(xys))
		for i, v := range xys {
			out[i] = plotter.XY{X: v.X, Y: math.Min(v.Y, capY)}
		}
		return out
	}
	if len(d.TimePredicted) > 0 {
		var hi, lo, line plotter.XYs
		for _, b := range d.TimePredicted {
			line = append(line, plotter.XY{X: b.X, Y: b.Y})
			if !math.IsNaN(b.Hi) {
				hi = append(hi, plotter.XY{X: b.X, Y: b.Hi})
			}
		}
		for i := len(d.TimePredicted) - 1; i >= 0; i-- {
			if b := d.TimePredicted[i]; !math.IsNaN(b.Lo) {
				lo = append(lo, plotter.XY{X: b.X, Y: b.Lo})
			}
		}
		if len(hi) >= 2 && len(lo) >= 2 {
			poly, err := plotter.NewPolygon(append(hi, lo...))
			if err == nil {
				poly.Color = fade(col, 0.18)
				poly.LineStyle.Width = 0
				q.Add(poly)
				note := ""
				if off.What == "band" {
					note = fmt.Sprintf(", continues to %s at N=%s", num(off.Y), num(off.X))
					off = OffAxis{} // said
				}
				g.legend(bandLabel(d.Level)+note, poly)
				// its edges, not only their corners: on 1 to 2
				// workers the legend covered the band between them
				g.see(densify(seen(hi), 10)...)
				g.see(densify(seen(lo), 10)...)
			}
		}
		l, _ := plotter.NewLine(line)
		l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(2)}
		q.Add(l)
		// the line cut at the top, or a band cut where none is drawn
		// (the note went on the band's entry alone)
		note := ""
		if off.What != "" {
			note = fmt.Sprintf(", continues to %s at N=%s", num(off.Y), num(off.X))
		}
		g.legend("predicted"+note, l)
		g.see(densify(seen(line), 4)...)
		bw, bt := d.Best()
		bs, _ := plotter.NewScatter(plotter.XYs{{X: bw, Y: bt}})
		bs.GlyphStyle = draw.GlyphStyle{Color: OkabeIto[2], Radius: vg.Points(5), Shape: draw.RingGlyph{}}
		q.Add(bs)
		if cw, ct, ok := d.ClusterBest(); ok {
			// the least time the cluster holds, which the caption names
			// first (it marked only the curve's, past the cluster)
			cs, _ := plotter.NewScatter(plotter.XYs{{X: cw, Y: ct}})
			cs.GlyphStyle = draw.GlyphStyle{Color: OkabeIto[4], Radius: vg.Points(5), Shape: draw.SquareGlyph{}}
			q.Add(cs)
			g.legend("best on "+serversText(float64(d.Servers))+": N="+num(cw)+", "+num(ct)+" s", cs)
			g.see(XY{cw, ct})
		}
		if d.StillFalling() {
			// not the fastest: the least drawn, the curve still falls
			g.legend("still falling: N="+num(bw)+", "+num(bt)+" s", bs)
		} else {
			g.legend("fastest: N="+num(bw)+", "+num(bt)+" s", bs)
		}
		g.see(XY{bw, bt})
		fastest = bw
	}
	if len(d.TimeMeasured) > 0 {
		var xy, exy plotter.XYs
		var ye plotter.YErrors
		for _, o := range d.TimeMeasured {
			xy = append(xy, plotter.XY{X: o.X, Y: o.Y})
			g.see(XY{o.X, o.Y})
			if !math.IsNaN(o.Lo) {
				exy = append(exy, plotter.XY{X: o.X, Y: o.Y})
				ye = append(ye, struct{ Low, High float64 }{o.Y - o.Lo, o.Hi - o.Y})
				g.see(XY{o.X, o.Lo}, XY{o.X, o.Hi})
			}
		}
		if len(exy) > 0 {
			eb, err := plotter.NewYErrorBars(errBars{exy, ye})
			if err == nil {
				eb.LineStyle = draw.LineStyle{Color: OkabeIto[3], Width: vg.Points(1.2)}
				eb.CapWidth = vg.Points(5)
				q.Add(eb)
			}
		}
		sc, _ := plotter.NewScatter(xy)
		sc.GlyphStyle = draw.GlyphStyle{Color: OkabeIto[3], Radius: vg.Points(3.2), Shape: draw.CircleGlyph{}}
		q.Add(sc)
		g.legend("measured", sc)
	}
	q.Y.Min = 0
	if !math.IsInf(capY, 1) {
		q.Y.Max = capY
	}
	q.X.Min, q.X.Max = d.workersRange()
	if fastest >= q.X.Max {
		// room for the ring at the right edge (half of it lay past the axis)
		q.X.Max = fastest * 1.04
	}
	if ts := wholeTicks(q.X.Min, q.X.Max); ts != nil {
		q.X.Tick.Marker = plot.ConstantTicks(ts)
	}
	g.placeLegend(w/2, PanelHeight)
	return &Figure{W: w, H: PanelHeight, draw: func(c draw.Canvas) {
		side(margin(c), []*plot.Plot{p, q})
	}}, nil
}

// timeCap is the time panel's y axis's top when something predicted
// rises above fitYCap times the highest it draws within the measured
// worker counts (TimeMeasured's and the Curves' with measured losses:
// the measured times and their intervals, and the prediction and its band
// from the least of those counts to the most), as the fit panel's is cut, and the highest part
// cut, the band's or the curve's (What "band" or "fit"); +Inf and none
// when nothing rises so high or nothing is measured. A model fitted on 2
// to 64 workers (testdata/sync-gns) had its band at 1 worker, extrapolated,
// reach 11,800 s and set the axis, and its fitted range, 485 to 5,211 s,
// sat in the bottom sixth.
func (d ConvergenceData) timeCap() (float64, OffAxis) {
	lo, hi, top := math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, o := range d.TimeMeasured {
		lo, hi = math.Min(lo, o.X), math.Max(hi, o.X)
		top = math.Max(top, o.Y)
		if !math.IsNaN(o.Hi) {
			top = math.Max(top, o.Hi)
		}
	}
	for _, c := range d.Curves {
		// the counts whose losses were measured: the report has times
		// measured only where every run at a count reached the target
		if len(c.Updates) > 0 {
			lo, hi = math.Min(lo, float64(c.Workers)), math.Max(hi, float64(c.Workers))
		}
	}
	for _, b := range d.TimePredicted {
		if b.X >= lo && b.X <= hi {
			top = math.Max(top, b.Y)
			if !math.IsNaN(b.Hi) {
				top = math.Max(top, b.Hi)
			}
		}
	}
	limit := fitYCap * top
	if !(limit > 0) || math.IsInf(limit, 0) {
		return math.Inf(1), OffAxis{}
	}
	var off OffAxis
	for _, b := range d.TimePredicted {
		if !math.IsNaN(b.Hi) && b.Hi > limit && b.Hi > off.Y {
			off = OffAxis{What: "band", X: b.X, Y: b.Hi}
		}
		if b.Y > limit && off.What != "band" && b.Y > off.Y {
			off = OffAxis{What: "fit", X: b.X, Y: b.Y}
		}
	}
	if off.What == "" {
		return math.Inf(1), OffAxis{}
	}
	return limit, off
}

// coincidentFits is the index of the curve of curves whose fitted loss
// reaches furthest, when every curve with a fit (two or more) has the same
// fitted loss, within 0.5%, wherever two share an update count: one line
// then stands for them all. -1 otherwise.
func coincidentFits(curves []LossCurve) int {
	best, n := -1, 0
	for i, c := range curves {
		if len(c.FitUpdates) < 2 {
			continue
		}
		n++
		if best < 0 || c.FitUpdates[len(c.FitUpdates)-1] > curves[best].FitUpdates[len(curves[best].FitUpdates)-1] {
			best = i
		}
	}
	if n < 2 {
		return -1
	}
	ref := curves[best]
	at := map[float64]float64{}
	for j, u := range ref.FitUpdates {
		at[u] = ref.FitLoss[j]
	}
	for _, c := range curves {
		shared := 0
		for j, u := range c.FitUpdates {
			l, ok := at[u]
			if !ok {
				continue
			}
			shared++
			if math.Abs(c.FitLoss[j]-l) > 0.005*math.Abs(l) {
				return -1
			}
		}
		if len(c.FitUpdates) >= 2 && shared < 2 {
			return -1
		}
	}
	return best
}

// fitXYs is the curve's fitted loss against its updates.
func (c LossCurve) fitXYs() plotter.XYs {
	fxy := make(plotter.XYs, len(c.FitUpdates))
	for j := range c.FitUpdates {
		fxy[j] = plotter.XY{X: c.FitUpdates[j], Y: c.FitLoss[j]}
	}
	return fxy
}
