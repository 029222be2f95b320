package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Obs is one measured value at X with its interval [Lo, Hi] (e.g. a 95%
// interval from repeats or a bootstrap); Lo and Hi are NaN when unknown, and
// the point is then drawn without an error bar.
type Obs struct {
	X, Y, Lo, Hi float64
	// HeldOut marks a point the fit did not see (a prediction, not a
	// fitted value): it is drawn as a ring, here and in the residuals.
	HeldOut bool
}

// Band is one point of a fitted curve with its confidence band [Lo, Hi]
// (NaN when the fit gives none).
type Band struct {
	X, Y, Lo, Hi float64
}

// Repeats returns the mean of the repeated measurements ys at x with its
// 95% Student-t interval, mean ± t(0.975, n-1) sd/sqrt(n). With one
// measurement the interval is unknown (NaN). NaN values are skipped.
func Repeats(x float64, ys []float64) Obs {
	var v []float64
	for _, y := range ys {
		if !math.IsNaN(y) {
			v = append(v, y)
		}
	}
	o := Obs{X: x, Y: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	switch len(v) {
	case 0:
		return o
	case 1:
		o.Y = v[0]
		return o
	}
	m, sd := stat.MeanStdDev(v, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(v) - 1)}.Quantile(0.975)
	h := t * sd / math.Sqrt(float64(len(v)))
	return Obs{X: x, Y: m, Lo: m - h, Hi: m + h}
}

// FitData is the input of the fit figure: measured throughput against
// workers, the fitted curve with its band, and the asymptotic bounds of the
// closed queueing network (design.md, section 1).
type FitData struct {
	Title  string // "" means "Throughput vs workers"
	YLabel string // "" means "throughput (updates/s)"
	Label  string // name of the fitted model in the legend; "" means "fit"

	Measured []Obs   // at least one; Y finite
	Curve    []Band  // the fitted curve, X increasing, at least two points
	Level    float64 // coverage of the curve's band; 0 means 0.95

	// Z, SumD and MaxD are the delay (compute) demand, the sum of the
	// queueing demands and the largest queueing demand, seconds per update.
	// The bounds N/(Z+SumD) and 1/MaxD and the knee (Z+SumD)/MaxD are drawn
	// when SumD+Z > 0 and MaxD > 0; set them to 0 to leave them out.
	Z, SumD, MaxD float64
	// Scale multiplies the bounds, e.g. the batch for samples/s; 0 means 1.
	Scale float64
}

func (d FitData) scale() float64 {
	if d.Scale == 0 {
		return 1
	}
	return d.Scale
}

// HeldOut is the number of measured points the fit did not see.
func (d FitData) HeldOut() int {
	n := 0
	for _, o := range d.Measured {
		if o.HeldOut {
			n++
		}
	}
	return n
}

// HasBounds says whether the bounds and the knee are drawn.
func (d FitData) HasBounds() bool {
	return d.Z+d.SumD > 0 && d.MaxD > 0 && isFinite(d.Z+d.SumD) && isFinite(d.MaxD)
}

// Bound returns the asymptotic bound on throughput at n workers,
// min(n/(Z+SumD), 1/MaxD) times Scale; NaN without bounds.
func (d FitData) Bound(n float64) float64 {
	if !d.HasBounds() {
		return math.NaN()
	}
	return d.scale() * math.Min(n/(d.Z+d.SumD), 1/d.MaxD)
}

// Knee returns the worker count where the two bounds meet, (Z+SumD)/MaxD;
// NaN without bounds.
func (d FitData) Knee() float64 {
	if !d.HasBounds() {
		return math.NaN()
	}
	return (d.Z + d.SumD) / d.MaxD
}

// Residuals returns, for each measured point, its relative residual against
// the fitted curve (linearly interpolated at the point's X), in percent:
// 100 (measured - fitted) / fitted.
func (d FitData) Residuals() ([]XY, error) {
	xs := make([]float64, len(d.Curve))
	ys := make([]float64, len(d.Curve))
	for i, c := range d.Curve {
		xs[i], ys[i] = c.X, c.Y
	}
	out := make([]XY, len(d.Measured))
	for i, m := range d.Measured {
		f, ok := interp(xs, ys, m.X)
		if !ok {
			return nil, inputError("fit", "measured point %d at %g workers is outside the fitted curve [%g, %g]", i, m.X, xs[0], xs[len(xs)-1])
		}
		if f == 0 {
			return nil, inputError("fit", "fitted curve is 0 at measured point %d (%g workers)", i, m.X)
		}
		out[i] = XY{m.X, 100 * (m.Y - f) / f}
	}
	return out, nil
}

func (d FitData) validate() error {
	if len(d.Measured) == 0 {
		return inputError("fit", "no measured points")
	}
	if len(d.Curve) < 2 {
		return inputError("fit", "fitted curve has %d points, want at least 2", len(d.Curve))
	}
	for i, m := range d.Measured {
		if !isFinite(m.X) || !isFinite(m.Y) {
			return inputError("fit", "measured point %d: (%g, %g): want finite workers and throughput", i, m.X, m.Y)
		}
		if err := checkInterval("fit", "measured point", i, m.Y, m.Lo, m.Hi); err != nil {
			return err
		}
	}
	for i, c := range d.Curve {
		if !isFinite(c.X) || !isFinite(c.Y) {
			return inputError("fit", "curve point %d: (%g, %g): want finite values", i, c.X, c.Y)
		}
		if i > 0 && c.X <= d.Curve[i-1].X {
			return inputError("fit", "curve point %d: workers %g not above the previous %g", i, c.X, d.Curve[i-1].X)
		}
		if err := checkInterval("fit", "curve point", i, c.Y, c.Lo, c.Hi); err != nil {
			return err
		}
	}
	if d.Scale < 0 || !isFinite(d.Scale) {
		return inputError("fit", "scale %g: want >= 0", d.Scale)
	}
	return nil
}

// lightOver is how far the fit figure's light-load bound N/(Z+ΣD) may
// rise above the rest of the panel (FitData.dataTop), as a multiple of it.
const lightOver = 1.08

// lightEnd returns the worker count where the fit figure's light-load bound
// ends, on an axis whose counts end at xmax: past the knee, to show where
// it crosses the saturation bound, to 1.2 times the knee, but no higher
// than lightOver times the data's top. Drawn to 1.2 times the knee it
// always rose to 1.2 times the saturation bound, and the y axis with it,
// 20% above everything else. NaN without bounds.
func (d FitData) lightEnd(xmax float64) float64 {
	if !d.HasBounds() {
		return math.NaN()
	}
	end := math.Min(xmax, 1.2*d.Knee())
	return math.Min(end, lightOver*d.dataTop()*(d.Z+d.SumD)/d.scale())
}

// fitYCap is how far the fit panel's y axis may rise above what it shows
// within the measured workers (FitData.inRangeTop), as a multiple of it: a
// band extrapolated far from the data (the sync-gns fit's, on 2 to 64
// workers, reached 496.7 steps/s at one worker) set the axis, and the
// measured points, at most 16.2, sat in its bottom 4%. What rises above
// is cut at the axis's top, and the legend says how far it goes
// (FitData.Off).
const fitYCap = 1.5

// inRangeTop returns the highest value the fit panel draws within the
// measured workers: the measured points and their intervals, the curve and
// its band at the worker counts from the least measured to the most, and
// the saturation bound.
func (d FitData) inRangeTop() float64 { return d.top(true) }

// allTop returns the highest value of the measured points and their
// intervals, the curve and its band, and the saturation bound.
func (d FitData) allTop() float64 { return d.top(false) }

// top is inRangeTop (inRange) or allTop.
func (d FitData) top(inRange bool) float64 {
	top := math.Inf(-1)
	lo, hi := math.Inf(-1), math.Inf(1)
	if inRange {
		lo, hi = math.Inf(1), math.Inf(-1)
	}
	for _, m := range d.Measured {
		top = math.Max(top, m.Y)
		if !math.IsNaN(m.Hi) {
			top = math.Max(top, m.Hi)
		}
		if inRange {
			lo, hi = math.Min(lo, m.X), math.Max(hi, m.X)
		}
	}
	for _, c := range d.Curve {
		if c.X < lo || c.X > hi {
			continue
		}
		top = math.Max(top, c.Y)
		if !math.IsNaN(c.Hi) {
			top = math.Max(top, c.Hi)
		}
	}
	if d.HasBounds() {
		top = math.Max(top, d.Bound(math.Inf(1)))
	}
	return top
}

// dataTop returns the highest value the fit panel draws but the light-load
// bound: of the measured points and their intervals, the curve and its band,
// and the saturation bound; no higher than fitYCap times inRangeTop.
func (d FitData) dataTop() float64 {
	top := d.allTop()
	if limit := fitYCap * d.inRangeTop(); limit > 0 && top > limit {
		return limit
	}
	return top
}

// OffAxis is a part of the fit panel cut at the y axis's top: the curve or
// its band (What: "fit" or "band") reaches Y at X workers, its highest.
type OffAxis struct {
	What string
	X, Y float64
}

// Off returns what the fit panel cuts at its y axis's top (dataTop): the
// band's highest end and the curve's highest point, each when it rises
// above; none when nothing does.
func (d FitData) Off() []OffAxis {
	top := d.dataTop()
	var band, curve OffAxis
	for _, c := range d.Curve {
		if c.Y > top && c.Y > curve.Y {
			curve = OffAxis{What: "fit", X: c.X, Y: c.Y}
		}
		if !math.IsNaN(c.Hi) && c.Hi > top && c.Hi > band.Y {
			band = OffAxis{What: "band", X: c.X, Y: c.Hi}
		}
	}
	var out []OffAxis
	for _, o := range []OffAxis{band, curve} {
		if o.What != "" {
			out = append(out, o)
		}
	}
	return out
}

// offNote is the legend's note on the part what ("fit", "band") of off,
// cut at the axis's top: how far it goes; "" when it is not cut.
func offNote(off []OffAxis, what string) string {
	for _, o := range off {
		if o.What == what {
			return fmt.Sprintf(", continues to %s at N=%s", num(o.Y), num(o.X))
		}
	}
	return ""
}

// LogSpan is the ratio of the largest worker count the fit figure draws to
// the smallest from which its workers axis is logarithmic (base 2): on the
// public traces (1 to 64 workers, the curve drawn to 128) a linear axis put
// the small configurations, where a fit is trained, into the left tenth.
const LogSpan = 16

// workers returns the smallest and the largest worker count drawn (of the
// measured points and the curve).
func (d FitData) workers() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range d.Curve {
		lo, hi = math.Min(lo, c.X), math.Max(hi, c.X)
	}
	for _, m := range d.Measured {
		lo, hi = math.Min(lo, m.X), math.Max(hi, m.X)
	}
	return lo, hi
}

// LogWorkers says whether FitFigure draws the workers on a logarithmic axis:
// when every worker count drawn is positive and the largest is at least
// LogSpan times the smallest.
func (d FitData) LogWorkers() bool {
	_, _, log := d.workersAxis()
	return log
}

// workersAxis returns the workers axis's range and whether it is
// logarithmic. A linear axis starts at 0 and ends 3% past the largest count;
// a logarithmic one reaches 3% of its width past the smallest and the
// largest count on both sides, and starts above 0.
func (d FitData) workersAxis() (min, max float64, log bool) {
	lo, hi := d.workers()
	if lo > 0 && hi/lo >= LogSpan && !math.IsInf(hi/lo, 0) {
		pad := 0.03 * math.Log2(hi/lo)
		min, max = math.Exp2(math.Log2(lo)-pad), math.Exp2(math.Log2(hi)+pad)
		if min > 0 && !math.IsInf(max, 0) {
			return min, max, true
		}
	}
	return 0, hi * 1.03, false
}

// along returns n+1 points from a to b on the straight line through them,
// spaced evenly as the x axis draws them: in x, or in log x when logX
// (there the line's points bunch at the left when spaced evenly in x).
func along(a, b plotter.XY, n int, logX bool) plotter.XYs {
	out := make(plotter.XYs, n+1)
	for k := 0; k <= n; k++ {
		t := float64(k) / float64(n)
		x := a.X + t*(b.X-a.X)
		if logX {
			x = a.X * math.Pow(b.X/a.X, t)
		}
		if k == n {
			x = b.X
		}
		y := a.Y
		if b.X != a.X {
			y = a.Y + (x-a.X)/(b.X-a.X)*(b.Y-a.Y)
		}
		out[k] = plotter.XY{X: x, Y: y}
	}
	return out
}

// xys returns xys as XY, for panel.see.
func xys(p plotter.XYs) []XY {
	out := make([]XY, len(p))
	for i, q := range p {
		out[i] = XY{q.X, q.Y}
	}
	return out
}

// FitFigure returns the fit figure: measured throughput with error bars, the fitted
// curve with its confidence band, both asymptotic bounds and the knee, and
// beneath them a panel of relative residuals. The workers axis is
// logarithmic (base 2, labelled at the powers of two) when d.LogWorkers().
func FitFigure(d FitData) (*Figure, error) {
	p, r, err := fitPlots(d)
	if err != nil {
		return nil, err
	}
	return fitFigure(p, r), nil
}

// fitFigure stacks the fit panel p above the residual strip r.
func fitFigure(p, r *plot.Plot) *Figure {
	return &Figure{W: Width, H: TallHeight, draw: func(c draw.Canvas) {
		stack(margin(c), []*plot.Plot{p, r}, []float64{3, 1})
	}}
}

// fitPlots returns FitFigure's two panels: the fit and the residuals.
func fitPlots(d FitData) (p, r *plot.Plot, err error) {
	if err := d.validate(); err != nil {
		return nil, nil, err
	}
	res, err := d.Residuals()
	if err != nil {
		return nil, nil, err
	}
	xlo, xhi, logX := d.workersAxis()
	title := d.Title
	if title == "" {
		title = "Throughput vs workers"
	}
	ylabel := d.YLabel
	if ylabel == "" {
		ylabel = "throughput (updates/s)"
	}
	label := d.Label
	if label == "" {
		label = "fit"
	}
	fitColor := OkabeIto[0]
	measColor := OkabeIto[3]
	top, off := d.dataTop(), d.Off()

	f := &panel{p: newPlot(title, "", ylabel)}
	p = f.p
	// Confidence band.
	var band plotter.XYs
	var lower plotter.XYs
	for _, c := range d.Curve {
		if !math.IsNaN(c.Hi) {
			band = append(band, plotter.XY{X: c.X, Y: c.Hi})
		}
	}
	for i := len(d.Curve) - 1; i >= 0; i-- {
		if c := d.Curve[i]; !math.IsNaN(c.Lo) {
			lower = append(lower, plotter.XY{X: c.X, Y: c.Lo})
		}
	}
	if len(band) >= 2 && len(lower) >= 2 {
		poly, err := plotter.NewPolygon(append(band, lower...))
		if err != nil {
			return nil, nil, fmt.Errorf("plots: fit: %w", err)
		}
		poly.Color = fade(fitColor, 0.18)
		poly.LineStyle.Width = 0
		p.Add(poly)
		f.legend(bandLabel(d.Level)+offNote(off, "band"), poly)
		// (as drawn: cut at the axis's top)
		for _, q := range densify(band, 10) {
			f.see(XY{q.X, math.Min(q.Y, top)})
		}
		f.seeXYs(lower)
	}
	// Bounds and knee.
	xmax := d.Curve[len(d.Curve)-1].X
	for _, m := range d.Measured {
		xmax = math.Max(xmax, m.X)
	}
	if d.HasBounds() {
		knee := d.Knee()
		top := d.Bound(math.Inf(1))
		lightEnd := d.lightEnd(xmax)
		lightAt := func(x float64) plotter.XY { return plotter.XY{X: x, Y: d.scale() * x / (d.Z + d.SumD)} }
		// Both bounds start at the axis's left end: at 0 on a linear
		// axis, above 0 on a log one (which cannot place 0). There the
		// line N/(Z+ΣD) is a curve, drawn through 64 points.
		var light plotter.XYs
		switch {
		case !logX:
			light = plotter.XYs{lightAt(0), lightAt(lightEnd)}
		case lightEnd > xlo:
			light = along(lightAt(xlo), lightAt(lightEnd), 64, true)
		}
		heavy := plotter.XYs{{X: xlo, Y: top}, {X: xmax, Y: top}}
		hl, _ := plotter.NewLine(heavy)
		hl.LineStyle = draw.LineStyle{Color: Ink, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1.5), vg.Points(2.5)}}
		if len(light) > 0 {
			ll, _ := plotter.NewLine(light)
			ll.LineStyle = draw.LineStyle{Color: Ink, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
			p.Add(ll)
			f.legend("bound N/(Z+ΣD)", ll)
		}
		p.Add(hl)
		f.legend("bound 1/max D", hl)
		if logX {
			f.see(xys(light)...)
			f.see(xys(along(heavy[0], heavy[1], 40, true))...)
		} else {
			f.see(densify(light, 20)...)
			f.see(densify(heavy, 20)...)
		}
		if knee <= xmax && knee >= xlo {
			kl, _ := plotter.NewLine(plotter.XYs{{X: knee, Y: 0}, {X: knee, Y: top}})
			kl.LineStyle = draw.LineStyle{Color: fade(Ink, 0.6), Width: vg.Points(0.8)}
			p.Add(kl)
			lab, err := plotter.NewLabels(plotter.XYLabels{
				XYs:    []plotter.XY{{X: knee, Y: top * 0.04}},
				Labels: []string{" knee N*≈" + num(knee)},
			})
			if err == nil {
				lab.TextStyle[0].Font = font.From(sans, tickSize)
				lab.TextStyle[0].Color = Ink
				p.Add(lab)
			}
			if logX {
				// the label's width as a share of the axis's (0.55 of the
				// font size a character, as legendWidth; the data area
				// taken as 80% of the width), spread in log x
				n := len([]rune(" knee N*≈" + num(knee)))
				frac := float64(vg.Points(tickSize*0.55*float64(n))) / float64(Width*0.8)
				end := knee * math.Pow(xhi/xlo, frac)
				f.see(xys(along(plotter.XY{X: knee, Y: top * 0.04}, plotter.XY{X: end, Y: top * 0.04}, 8, true))...)
			} else {
				f.see(XY{knee, top * 0.04}, XY{knee * 1.15, top * 0.04})
			}
		}
	}
	// Fitted curve.
	cxy := make(plotter.XYs, len(d.Curve))
	for i, c := range d.Curve {
		cxy[i] = plotter.XY{X: c.X, Y: c.Y}
	}
	cl, _ := plotter.NewLine(cxy)
	cl.LineStyle = draw.LineStyle{Color: fitColor, Width: vg.Points(2)}
	p.Add(cl)
	f.legend(label+offNote(off, "fit"), cl)
	for _, q := range densify(cxy, 10) {
		f.see(XY{q.X, math.Min(q.Y, top)})
	}
	// Measured points with error bars.
	mxy := make(plotter.XYs, len(d.Measured))
	var errs plotter.XYs
	var yerr plotter.YErrors
	for i, m := range d.Measured {
		mxy[i] = plotter.XY{X: m.X, Y: m.Y}
		f.see(XY{m.X, m.Y})
		if !math.IsNaN(m.Lo) {
			errs = append(errs, plotter.XY{X: m.X, Y: m.Y})
			yerr = append(yerr, struct{ Low, High float64 }{m.Y - m.Lo, m.Hi - m.Y})
			f.see(XY{m.X, m.Lo}, XY{m.X, m.Hi})
		}
	}
	if len(errs) > 0 {
		eb, err := plotter.NewYErrorBars(errBars{errs, yerr})
		if err != nil {
			return nil, nil, fmt.Errorf("plots: fit: %w", err)
		}
		eb.LineStyle = draw.LineStyle{Color: measColor, Width: vg.Points(1.2)}
		eb.CapWidth = vg.Points(5)
		p.Add(eb)
	}
	fitted, held := splitHeld(mxy, d.Measured)
	sc, _ := plotter.NewScatter(fitted)
	sc.GlyphStyle = draw.GlyphStyle{Color: measColor, Radius: vg.Points(3.2), Shape: draw.CircleGlyph{}}
	if len(fitted) > 0 {
		p.Add(sc)
		switch {
		case len(held) > 0:
			f.legend("measured, fitted on", sc)
		case len(errs) > 0:
			f.legend("measured (95% CI)", sc)
		default:
			f.legend("measured", sc)
		}
	}
	if len(held) > 0 {
		hs, _ := plotter.NewScatter(held)
		hs.GlyphStyle = draw.GlyphStyle{Color: measColor, Radius: vg.Points(3.6), Shape: draw.RingGlyph{}}
		p.Add(hs)
		f.legend("measured, held out", hs)
	}
	xlabel := "workers N"
	p.X.Min, p.X.Max = xlo, xhi
	p.Y.Min = 0
	if len(off) > 0 {
		// the axis ends at the capped top, or the light-load bound's end
		// above it; what rises higher is cut there (gonum clips lines and
		// polygons to the data area)
		p.Y.Max = top
		if d.HasBounds() {
			_, xmax := d.workers()
			p.Y.Max = math.Max(top, d.scale()*d.lightEnd(xmax)/(d.Z+d.SumD))
		}
	}
	if logX {
		xlabel = "workers N (log scale)"
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, log2Ticks{}
	}
	hideTickLabels(&p.X)
	f.placeLegend(Width, TallHeight*0.75)

	// Residuals.
	r = newPlot("", xlabel, "residual (%)")
	zero, _ := plotter.NewLine(plotter.XYs{{X: xlo, Y: 0}, {X: xhi, Y: 0}})
	zero.LineStyle = draw.LineStyle{Color: fitColor, Width: vg.Points(1.2)}
	r.Add(zero)
	rxy := make(plotter.XYs, len(res))
	lim := 1.0
	for i, q := range res {
		rxy[i] = plotter.XY{X: q.X, Y: q.Y}
		lim = math.Max(lim, math.Abs(q.Y))
	}
	rfit, rheld := splitHeld(rxy, d.Measured)
	if len(rfit) > 0 {
		rs, _ := plotter.NewScatter(rfit)
		rs.GlyphStyle = draw.GlyphStyle{Color: measColor, Radius: vg.Points(2.8), Shape: draw.CircleGlyph{}}
		r.Add(rs)
	}
	if len(rheld) > 0 {
		rh, _ := plotter.NewScatter(rheld)
		rh.GlyphStyle = draw.GlyphStyle{Color: measColor, Radius: vg.Points(3.2), Shape: draw.RingGlyph{}}
		r.Add(rh)
	}
	r.X.Min, r.X.Max = p.X.Min, p.X.Max
	r.X.Scale, r.X.Tick.Marker = p.X.Scale, p.X.Tick.Marker
	r.Y.Min, r.Y.Max = -lim*1.15, lim*1.15
	r.Y.Tick.Marker = niceTicks{strip: true}
	return p, r, nil
}

// splitHeld splits xys, one per measured point, into the points the fit
// saw and those it did not (Obs.HeldOut).
func splitHeld(xys plotter.XYs, obs []Obs) (fitted, held plotter.XYs) {
	for i, q := range xys {
		if obs[i].HeldOut {
			held = append(held, q)
		} else {
			fitted = append(fitted, q)
		}
	}
	return fitted, held
}

// errBars joins points and their asymmetric errors for plotter.YErrorBars.
type errBars struct {
	plotter.XYs
	plotter.YErrors
}

// densify returns n points along each segment of the polyline xys, so that
// legend placement sees lines and not only their ends.
func densify(xys plotter.XYs, n int) []XY {
	var out []XY
	for i := 1; i < len(xys); i++ {
		a, b := xys[i-1], xys[i]
		for k := 0; k <= n; k++ {
			t := float64(k) / float64(n)
			out = append(out, XY{a.X + t*(b.X-a.X), a.Y + t*(b.Y-a.Y)})
		}
	}
	if len(xys) == 1 {
		out = append(out, XY{xys[0].X, xys[0].Y})
	}
	return out
}

// bandLabel names a confidence band of coverage level (0 means 0.95).
func bandLabel(level float64) string {
	if level == 0 {
		level = 0.95
	}
	return fmt.Sprintf("%.0f%% band", 100*level)
}
