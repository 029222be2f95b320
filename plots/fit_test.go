package plots

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// mva is exact Mean Value Analysis of a closed network with delay z and
// queueing demands d: the independent reference for the fit figure's data.
func mva(n int, z float64, d []float64) float64 {
	q := make([]float64, len(d))
	var x float64
	for k := 1; k <= n; k++ {
		r := 0.0
		rs := make([]float64, len(d))
		for i := range d {
			rs[i] = d[i] * (1 + q[i])
			r += rs[i]
		}
		x = float64(k) / (z + r)
		for i := range d {
			q[i] = x * rs[i]
		}
	}
	return x
}

// fitExample is a job with Z = 0.1 s and demands 0.01, 0.01, 0.005 s:
// sum D = 0.025, max D = 0.01, so the bounds are N/0.125 and 100 updates/s
// and the knee is 0.125/0.01 = 12.5 workers.
func fitExample() FitData {
	z, d := 0.1, []float64{0.01, 0.01, 0.005}
	var curve []Band
	for n := 1; n <= 32; n++ {
		y := mva(n, z, d)
		curve = append(curve, Band{X: float64(n), Y: y, Lo: 0.95 * y, Hi: 1.05 * y})
	}
	var meas []Obs
	noise := []float64{0.02, -0.03, 0.01, 0.04, -0.02, 0.03, -0.01}
	for i, n := range []int{1, 2, 4, 8, 12, 16, 24} {
		y := mva(n, z, d) * (1 + noise[i])
		meas = append(meas, Repeats(float64(n), []float64{0.97 * y, y, 1.03 * y}))
	}
	return FitData{Label: "MVA fit", Measured: meas, Curve: curve, Z: z, SumD: 0.025, MaxD: 0.01}
}

func TestFitSeries(t *testing.T) {
	d := fitExample()
	// Knee (Z+ΣD)/max D = 0.125/0.01 = 12.5.
	if k := d.Knee(); !within(k, 12.5, 1e-12) {
		t.Errorf("knee %g, want 12.5", k)
	}
	for _, c := range []struct{ n, want float64 }{
		{1, 8},      // 1/0.125 = 8, below 1/0.01 = 100
		{12.5, 100}, // both bounds meet at the knee
		{20, 100},   // 20/0.125 = 160, capped by 100
	} {
		if got := d.Bound(c.n); !within(got, c.want, 1e-12) {
			t.Errorf("Bound(%g) = %g, want %g", c.n, got, c.want)
		}
	}
	// The bounds must hold for the exact MVA curve.
	for _, c := range d.Curve {
		if c.Y > d.Bound(c.X)*(1+1e-12) {
			t.Errorf("MVA X(%g) = %g above the bound %g", c.X, c.Y, d.Bound(c.X))
		}
	}
	d.Scale = 32
	if got := d.Bound(1); !within(got, 256, 1e-12) { // 32 * 8
		t.Errorf("scaled Bound(1) = %g, want 256", got)
	}
}

func TestFitResiduals(t *testing.T) {
	// Curve through (1, 10) and (3, 30): fitted 20 at x = 2, so a measured
	// 22 is +10%; fitted 10 at x = 1, so 9 is -10%.
	d := FitData{
		Measured: []Obs{{X: 2, Y: 22, Lo: math.NaN(), Hi: math.NaN()}, {X: 1, Y: 9, Lo: math.NaN(), Hi: math.NaN()}},
		Curve:    []Band{{X: 1, Y: 10, Lo: math.NaN(), Hi: math.NaN()}, {X: 3, Y: 30, Lo: math.NaN(), Hi: math.NaN()}},
	}
	r, err := d.Residuals()
	if err != nil {
		t.Fatal(err)
	}
	want := []XY{{2, 10}, {1, -10}}
	for i := range want {
		if r[i].X != want[i].X || !within(r[i].Y, want[i].Y, 1e-12) {
			t.Errorf("residual %d = %v, want %v", i, r[i], want[i])
		}
	}
	d.Measured = append(d.Measured, Obs{X: 4, Y: 1, Lo: math.NaN(), Hi: math.NaN()})
	if _, err := d.Residuals(); err == nil || !strings.Contains(err.Error(), "measured point 2") {
		t.Errorf("point outside the curve: err = %v, want one naming measured point 2", err)
	}
}

func TestFitHeldOut(t *testing.T) {
	// Points 0 and 2 were fitted on, point 1 held out: the split keeps the
	// order within each group, and the held-out point still gets its
	// residual (curve through (1, 10) and (3, 30): 20 at x = 2, measured
	// 18 is -10%).
	nan := math.NaN()
	d := FitData{
		Measured: []Obs{{X: 1, Y: 10, Lo: nan, Hi: nan}, {X: 2, Y: 18, Lo: nan, Hi: nan, HeldOut: true}, {X: 3, Y: 33, Lo: nan, Hi: nan}},
		Curve:    []Band{{X: 1, Y: 10, Lo: nan, Hi: nan}, {X: 3, Y: 30, Lo: nan, Hi: nan}},
	}
	r, err := d.Residuals()
	if err != nil {
		t.Fatal(err)
	}
	xys := make(plotter.XYs, len(r))
	for i, q := range r {
		xys[i] = plotter.XY{X: q.X, Y: q.Y}
	}
	fitted, held := splitHeld(xys, d.Measured)
	if len(fitted) != 2 || fitted[0].X != 1 || fitted[1].X != 3 {
		t.Errorf("fitted points %v, want x = 1 and 3", fitted)
	}
	if len(held) != 1 || held[0].X != 2 || !within(held[0].Y, -10, 1e-12) {
		t.Errorf("held-out points %v, want (2, -10)", held)
	}
	fig, err := FitFigure(d)
	if err != nil {
		t.Fatalf("FitFigure with a held-out point: %v", err)
	}
	var buf bytes.Buffer
	if err := fig.WritePNG(&buf); err != nil || buf.Len() == 0 {
		t.Fatalf("PNG: %d bytes, err %v", buf.Len(), err)
	}
}

func TestRepeats(t *testing.T) {
	// 9, 10, 11: mean 10, sd 1, t(0.975, 2) = 4.302653, half-width
	// 4.302653/sqrt(3) = 2.484138.
	o := Repeats(4, []float64{9, 10, 11, math.NaN()})
	if o.X != 4 || !within(o.Y, 10, 1e-12) || !within(o.Hi-o.Y, 2.484138, 1e-6) || !within(o.Y-o.Lo, 2.484138, 1e-6) {
		t.Errorf("Repeats = %+v, want 10 ± 2.484138", o)
	}
	if o := Repeats(1, []float64{5}); o.Y != 5 || !math.IsNaN(o.Lo) {
		t.Errorf("one repeat: %+v, want 5 with no interval", o)
	}
}

func TestFitBadInput(t *testing.T) {
	good := fitExample()
	cases := []struct {
		name string
		edit func(*FitData)
		want string
	}{
		{"empty", func(d *FitData) { d.Measured = nil }, "no measured points"},
		{"short curve", func(d *FitData) { d.Curve = d.Curve[:1] }, "at least 2"},
		{"NaN measured", func(d *FitData) { d.Measured[2].Y = math.NaN() }, "measured point 2"},
		{"NaN curve", func(d *FitData) { d.Curve[3].Y = math.NaN() }, "curve point 3"},
		{"unsorted", func(d *FitData) { d.Curve[4].X = 1 }, "curve point 4"},
		{"half interval", func(d *FitData) { d.Measured[0].Lo = math.NaN() }, "measured point 0"},
		{"interval misses", func(d *FitData) { d.Measured[1].Hi = d.Measured[1].Y - 1 }, "does not hold"},
	}
	for _, c := range cases {
		d := good
		d.Measured = append([]Obs(nil), good.Measured...)
		d.Curve = append([]Band(nil), good.Curve...)
		c.edit(&d)
		_, err := FitFigure(d)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "plots: fit: ") {
			t.Errorf("%s: err = %v, want one with %q", c.name, err, c.want)
		}
	}
}

func TestFitSmoke(t *testing.T) {
	fig, err := FitFigure(fitExample())
	if err != nil {
		t.Fatal(err)
	}
	smoke(t, fig, "fit")
	// Without bounds or intervals the figure still draws.
	d := fitExample()
	d.Z, d.SumD, d.MaxD = 0, 0, 0
	for i := range d.Measured {
		d.Measured[i].Lo, d.Measured[i].Hi = math.NaN(), math.NaN()
	}
	fig, err = FitFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	smoke(t, fig, "fit-plain")
}

// mvaFit is fitExample's job measured at the worker counts meas, with the
// curve drawn at the integers from lo to hi.
func mvaFit(lo, hi int, meas ...int) FitData {
	d := fitExample()
	d.Curve, d.Measured = nil, nil
	z, dd := 0.1, []float64{0.01, 0.01, 0.005}
	for n := lo; n <= hi; n++ {
		y := mva(n, z, dd)
		d.Curve = append(d.Curve, Band{X: float64(n), Y: y, Lo: 0.95 * y, Hi: 1.05 * y})
	}
	for _, n := range meas {
		y := mva(n, z, dd) * 1.02
		d.Measured = append(d.Measured, Repeats(float64(n), []float64{0.97 * y, y, 1.03 * y}))
	}
	return d
}

// recordX is an x scale that remembers every x it places.
type recordX struct {
	plot.Normalizer
	xs *[]float64
}

func (s recordX) Normalize(min, max, x float64) float64 {
	*s.xs = append(*s.xs, x)
	return s.Normalizer.Normalize(min, max, x)
}

// The workers axis is logarithmic (base 2, labelled at the powers of two,
// in both panels) when the largest count drawn is at least 16 times the
// smallest, and linear below; on a log axis nothing is placed at x <= 0
// (gonum's LogScale panics there) nor outside the axis, whose bounds start
// at its left end; every figure renders.
func TestFitLogAxis(t *testing.T) {
	pow2 := func(d FitData) FitData {
		d.Measured = nil
		for n := 1; n <= 64; n *= 2 {
			y := mva(n, 0.1, []float64{0.01, 0.01, 0.005})
			d.Measured = append(d.Measured, Obs{X: float64(n), Y: y, Lo: math.NaN(), Hi: math.NaN(), HeldOut: n > 8})
		}
		return d
	}
	earlyKnee := mvaFit(1, 128, 1, 8, 64) // knee 0.3: left of the axis
	earlyKnee.Z, earlyKnee.SumD, earlyKnee.MaxD = 0.002, 0.001, 0.01
	zero := mvaFit(1, 64, 1, 64) // a curve from 0 workers: no log axis
	zero.Curve = append([]Band{{X: 0, Y: 0, Lo: 0, Hi: 0}}, zero.Curve...)
	plain := fitExample()
	plain.Z, plain.SumD, plain.MaxD = 0, 0, 0
	cases := []struct {
		name   string
		d      FitData
		log    bool
		labels string // the tick labels of a log axis
	}{
		{"1-64 drawn to 128", pow2(mvaFit(1, 128)), true, "1 2 4 8 16 32 64 128"},
		{"2-64 drawn to 128", mvaFit(2, 128, 2, 3, 4, 6, 8, 16, 32, 64), true, "2 4 8 16 32 64 128"},
		{"one point", mvaFit(1, 64, 12), true, "1 2 4 8 16 32 64"},
		{"one point, one worker", mvaFit(1, 16, 1), true, "1 2 4 8 16"},
		{"fitExample 1-32", fitExample(), true, "1 2 4 8 16 32"},
		{"no bounds", plain, true, "1 2 4 8 16 32"},
		{"knee left of the axis", earlyKnee, true, "1 2 4 8 16 32 64 128"},
		{"curve from 0", zero, false, ""},
		{"demo 1-8", mvaFit(1, 8, 1, 2), false, ""},
		{"1-15", mvaFit(1, 15, 1, 2, 4, 8), false, ""},
		{"4-63", mvaFit(4, 63, 4, 8, 16, 32), false, ""},
	}
	for _, c := range cases {
		if got := c.d.LogWorkers(); got != c.log {
			t.Errorf("%s: LogWorkers() = %v, want %v", c.name, got, c.log)
		}
		p, r, err := fitPlots(c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, plog := p.X.Scale.(plot.LogScale)
		_, rlog := r.X.Scale.(plot.LogScale)
		if plog != c.log || rlog != c.log {
			t.Errorf("%s: log x axis %v (fit), %v (residuals), want %v", c.name, plog, rlog, c.log)
		}
		if strings.Contains(r.X.Label.Text, "log") != c.log {
			t.Errorf("%s: x label %q, want one that says log scale only on a log axis", c.name, r.X.Label.Text)
		}
		if r.X.Min != p.X.Min || r.X.Max != p.X.Max {
			t.Errorf("%s: residuals x [%g, %g], fit x [%g, %g]: want the same", c.name, r.X.Min, r.X.Max, p.X.Min, p.X.Max)
		}
		if !c.log {
			if p.X.Min != 0 {
				t.Errorf("%s: linear axis starts at %g, want 0", c.name, p.X.Min)
			}
			fig := fitFigure(p, r)
			var buf bytes.Buffer
			if err := fig.WritePNG(&buf); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !(p.X.Min > 0) || p.X.Min > c.d.Curve[0].X || p.X.Max < c.d.Curve[len(c.d.Curve)-1].X {
			t.Errorf("%s: log axis [%g, %g], want it positive and holding the curve", c.name, p.X.Min, p.X.Max)
		}
		var labels []string
		for _, tk := range r.X.Tick.Marker.Ticks(r.X.Min, r.X.Max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.labels {
			t.Errorf("%s: tick labels %q, want %q", c.name, got, c.labels)
		}
		var xs []float64
		min, max := p.X.Min, p.X.Max
		p.X.Scale = recordX{p.X.Scale, &xs}
		r.X.Scale = recordX{r.X.Scale, &xs}
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Errorf("%s: panic: %v", c.name, e)
				}
			}()
			var buf bytes.Buffer
			if err := fitFigure(p, r).WritePNG(&buf); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}()
		if len(xs) == 0 {
			t.Errorf("%s: nothing placed on the x axis", c.name)
		}
		for _, x := range xs {
			if !(x > 0) || x < min*(1-1e-12) || x > max*(1+1e-12) {
				t.Errorf("%s: x = %g placed on the log axis [%g, %g]", c.name, x, min, max)
				break
			}
		}
	}
}

// On a log axis the bound N/(Z+ΣD) is drawn through many points from the
// axis's left end, and the knee's label is judged where it is drawn.
func TestFitLogBounds(t *testing.T) {
	d := mvaFit(1, 128, 1, 2, 4, 8, 16, 32, 64)
	p, _, err := fitPlots(d)
	if err != nil {
		t.Fatal(err)
	}
	min, _, _ := d.workersAxis()
	if min != p.X.Min {
		t.Errorf("workersAxis min %g, plot's %g", min, p.X.Min)
	}
	pts := along(plotter.XY{X: min, Y: min / 0.125}, plotter.XY{X: 15, Y: 15 / 0.125}, 64, true)
	if len(pts) != 65 || pts[0].X != min || pts[64].X != 15 {
		t.Fatalf("along: %d points from %g to %g, want 65 from %g to 15", len(pts), pts[0].X, pts[64].X, min)
	}
	for i, q := range pts {
		if !within(q.Y, q.X/0.125, 1e-9) {
			t.Errorf("point %d (%g, %g) is off the line N/0.125", i, q.X, q.Y)
		}
		if i > 0 && !within(q.X/pts[i-1].X, math.Pow(15/min, 1.0/64), 1e-9) {
			t.Errorf("points %d and %d are not evenly spaced in log x", i-1, i)
		}
	}
	fig := func(d FitData) *Figure {
		f, err := FitFigure(d)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if s := svgText(t, fig(d)); !strings.Contains(s, "knee N*≈12.5") || !strings.Contains(s, "bound N/(Z+ΣD)") {
		t.Errorf("log figure lacks the knee label or the light-load bound's legend")
	}
	// a knee left of the axis: no knee, no light-load bound, no panic
	d.Z, d.SumD, d.MaxD = 0.002, 0.001, 0.01
	if s := svgText(t, fig(d)); strings.Contains(s, "knee") || strings.Contains(s, "N/(Z+ΣD)") || !strings.Contains(s, "1/max D") {
		t.Errorf("a knee at 0.3 on an axis from 1: want neither the knee nor N/(Z+ΣD), and 1/max D")
	}
}

// placeLegend judges the corners on a log x axis where the points are
// drawn: points at the top at 1 to 4 and 48 to 80 workers, on an axis from 1
// to 128, fill both top corners there (at x they leave the top right empty).
func TestPlaceLegendLogX(t *testing.T) {
	var pts []XY
	for _, x := range []float64{1, 1.5, 2, 3, 4, 48, 56, 64, 72, 80} {
		pts = append(pts, XY{x, 9.5})
	}
	for _, log := range []bool{false, true} {
		p := plot.New()
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 1, 128, 0, 10
		if log {
			p.X.Scale = plot.LogScale{}
		}
		l, _ := plotter.NewLine(plotter.XYs{{X: 1, Y: 0}, {X: 2, Y: 1}})
		p.Legend.Add("ten chars.", l) // two entries of 10 characters
		p.Legend.Add("ten chars!", l)
		placeLegend(p, pts, Width, Height)
		if log && (p.Legend.Top || !p.Legend.Left) {
			t.Errorf("log x: legend top %v, left %v, want bottom left", p.Legend.Top, p.Legend.Left)
		}
		if !log && (!p.Legend.Top || p.Legend.Left) {
			t.Errorf("linear x: legend top %v, left %v, want top right", p.Legend.Top, p.Legend.Left)
		}
	}
}

func TestLog2Ticks(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     string
	}{
		{0.87, 148, "1 2 4 8 16 32 64 128"},
		{1.8, 140, "2 4 8 16 32 64 128"},
		{0.2, 3, "0.25 0.5 1 2"},
		{1, math.Exp2(40), "1 32 1024 32768 1.049e+06 3.355e+07 1.074e+09 3.436e+10 1.1e+12"}, // every 5th power,
	} {
		var labels []string
		for _, tk := range (log2Ticks{}).Ticks(c.min, c.max) {
			if !(tk.Value > 0) || tk.Value < c.min || tk.Value > c.max {
				t.Errorf("[%g, %g]: tick at %g", c.min, c.max, tk.Value)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("[%g, %g]: labels %q, want %q", c.min, c.max, got, c.want)
		}
	}
	// minor ticks at 3, 6, 12, ... when every power is labelled
	var minor []float64
	for _, tk := range (log2Ticks{}).Ticks(0.87, 148) {
		if tk.Label == "" {
			minor = append(minor, tk.Value)
		}
	}
	if !slices.Equal(minor, []float64{1.5, 3, 6, 12, 24, 48, 96}) {
		t.Errorf("minor ticks %v, want 1.5 3 6 ... 96", minor)
	}
	for _, r := range [][2]float64{{0, 10}, {-1, 10}, {5, 5}, {1, math.Inf(1)}, {math.NaN(), 2}} {
		if ts := (log2Ticks{}).Ticks(r[0], r[1]); len(ts) != 0 {
			t.Errorf("[%g, %g]: ticks %v, want none", r[0], r[1], ts)
		}
	}
}

// demoTrainFit is the figure of docs/models.md's `sgdplan fit --plot`: the
// demo's traces (testdata/asgd) fitted on 1-2 workers, the held-out runs
// at 3-8 workers, the curve drawn to 16 (values rounded from the fit).
// Z+ΣD = 0.1018+0.1379 = 0.2397 s and max D = 0.06889 s: the bounds are
// N/0.2397 and 14.52 updates/s, the knee 3.48 workers.
func demoTrainFit() FitData {
	meas := []Obs{{1, 4.157, nan, nan, false}, {2, 8.022, nan, nan, false}, {3, 9.734, nan, nan, true},
		{4, 9.821, nan, nan, true}, {6, 11.34, nan, nan, true}, {8, 10.67, nan, nan, true}}
	curve := []Band{{1, 4.171, 4.159, 4.184}, {2, 7.160, 5.687, 9.015}, {3, 9.168, 6.364, 13.21},
		{4, 10.47, 6.606, 14.60}, {5, 11.32, 6.630, 14.60}, {6, 11.89, 6.554, 14.60}, {7, 12.29, 6.437, 14.60},
		{8, 12.59, 6.306, 14.60}, {9, 12.81, 6.173, 14.60}, {10, 12.99, 6.044, 14.60}, {11, 13.14, 5.921, 14.60},
		{12, 13.26, 5.805, 14.60}, {13, 13.36, 5.695, 14.60}, {14, 13.44, 5.592, 14.60}, {15, 13.52, 5.496, 14.60},
		{16, 13.58, 5.405, 14.60}}
	return FitData{Label: "mva", Title: "sgdplan fit: mva\nat 1 shard, 3e+06 B/s, batch 32 a worker\nnot shown: 6 fitted, 12 held-out points at other shards or link rates",
		YLabel: "throughput (steps/s)", Level: 0.9, Measured: meas, Curve: curve, Z: 0.1018, SumD: 0.1379, MaxD: 0.06889}
}

var nan = math.NaN()

// fitDrawn returns where FitFigure draws the fit panel p (stacked above
// the residual strip r) and its legend's rectangle, as stack lays them out.
func fitDrawn(p, r *plot.Plot) (draw.Canvas, vg.Rectangle) {
	dc := margin(draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: Width, Y: TallHeight}}})
	top := dc
	top.Min.Y = dc.Max.Y - (dc.Max.Y-dc.Min.Y)*3/4
	bottom := dc
	bottom.Max.Y = top.Min.Y
	dp, dr := p.DataCanvas(top), r.DataCanvas(bottom)
	left := max(dp.Min.X-top.Min.X, dr.Min.X-bottom.Min.X)
	right := max(top.Max.X-dp.Max.X, bottom.Max.X-dr.Max.X)
	c := draw.Crop(top, left-(dp.Min.X-top.Min.X), -(right - (top.Max.X - dp.Max.X)), 0, 0)
	d := p.DataCanvas(c)
	lr := p.Legend.Rectangle(d)
	size := lr.Size()
	// Rectangle puts a legend on the left at the right edge, and the
	// reverse (its Draw starts from the other edge): place it as Draw does.
	lr.Min.X = d.Min.X + p.Legend.XOffs
	if !p.Legend.Left {
		lr.Min.X = d.Max.X + p.Legend.XOffs - size.X
	}
	lr.Min.Y = d.Min.Y + p.Legend.YOffs
	if p.Legend.Top {
		lr.Min.Y = d.Max.Y + p.Legend.YOffs - size.Y
	}
	lr.Max = lr.Min.Add(size)
	return d, lr
}

// The fit panel's legend covers no point of the data, the curve, its band
// or the saturation bound, and leaves them most of the height: the legend
// of `fit --plot` on the demo raised the y axis to 28 for data reaching
// 14.6 (the saturation bound and the band), the light-load bound drawn to
// 17.4 at 1.2 times the knee; the same on a linear axis (the curve to 12).
func TestFitLegendKeepsHeight(t *testing.T) {
	linear := demoTrainFit()
	linear.Curve = linear.Curve[:12]
	for _, c := range []struct {
		name string
		d    FitData
	}{{"log, curve to 16", demoTrainFit()}, {"linear, curve to 12", linear}} {
		p, r, err := fitPlots(c.d)
		if err != nil {
			t.Fatal(err)
		}
		var pts []plotter.XY
		for _, m := range c.d.Measured {
			pts = append(pts, plotter.XY{X: m.X, Y: m.Y})
		}
		for i, b := range c.d.Curve {
			pts = append(pts, plotter.XY{X: b.X, Y: b.Y}, plotter.XY{X: b.X, Y: b.Lo}, plotter.XY{X: b.X, Y: b.Hi})
			if i > 0 { // between the curve's points too
				a := c.d.Curve[i-1]
				for _, f := range []float64{0.25, 0.5, 0.75} {
					x := a.X + f*(b.X-a.X)
					pts = append(pts, plotter.XY{X: x, Y: a.Y + f*(b.Y-a.Y)}, plotter.XY{X: x, Y: a.Lo + f*(b.Lo-a.Lo)}, plotter.XY{X: x, Y: a.Hi + f*(b.Hi-a.Hi)})
				}
			}
		}
		top := c.d.Bound(math.Inf(1)) // 14.52
		for x := p.X.Min; x <= c.d.Curve[len(c.d.Curve)-1].X; x += (p.X.Max - p.X.Min) / 100 {
			pts = append(pts, plotter.XY{X: x, Y: top})
		}
		high := 0.0
		for _, q := range pts {
			high = math.Max(high, q.Y)
		}
		// 14.6 of at least 0.8: the y axis ends below 18.25
		if p.Y.Max > high/0.8 {
			t.Errorf("%s: y axis [%g, %g] for data to %g: the data keep %.0f%% of the height, want 80%% or more",
				c.name, p.Y.Min, p.Y.Max, high, 100*high/p.Y.Max)
		}
		d, lr := fitDrawn(p, r)
		x, y := p.Transforms(&d)
		for _, q := range pts {
			at := vg.Point{X: x(q.X), Y: y(q.Y)}
			// a measured point's glyph is 3.2 pt in radius
			if at.X > lr.Min.X-vg.Points(3.2) && at.X < lr.Max.X+vg.Points(3.2) && at.Y > lr.Min.Y-vg.Points(3.2) && at.Y < lr.Max.Y+vg.Points(3.2) {
				t.Errorf("%s: the legend (top %v, left %v) covers (%g, %g)", c.name, p.Legend.Top, p.Legend.Left, q.X, q.Y)
			}
		}
	}
}

// The light-load bound N/(Z+ΣD) is drawn past the knee to show where it
// crosses the saturation bound, but not far above everything else: drawn to
// 1.2 times the knee it always ended 20% above the saturation bound, and set
// the y axis there. On the demo's fit, the saturation bound (and the band's
// top) at 14.6, it ends at 1.08 * 14.6 = 15.77, at 15.77 * 0.2397 = 3.78
// workers (1.086 times the knee 3.48), and so does the y axis; where the data
// are higher (points above the bound, which real runs beat with shards) it
// ends at 1.2 times the knee as before.
func TestFitLightBoundEnd(t *testing.T) {
	demo := demoTrainFit() // the report's fit.png: fitted on 1-2, curve to 8
	demo.Measured, demo.Curve = demo.Measured[:2], demo.Curve[:8]
	high := demoTrainFit()
	high.Measured = append(high.Measured, Obs{X: 8, Y: 30, Lo: nan, Hi: nan, HeldOut: true})
	for _, c := range []struct {
		name      string
		d         FitData
		end, ymax float64 // where the light-load bound ends, the axis's top
	}{
		{"demo, linear", demo, 1.08 * 14.6 * 0.2397, 1.08 * 14.6},
		{"demo training, log", demoTrainFit(), 1.08 * 14.6 * 0.2397, 1.08 * 14.6},
		{"a point at 30", high, 1.2 * 0.2397 / 0.06889, 30},
	} {
		p, _, err := fitPlots(c.d)
		if err != nil {
			t.Fatal(err)
		}
		_, xmax := c.d.workers()
		if end := c.d.lightEnd(xmax); !within(end, c.end, 1e-3) {
			t.Errorf("%s: the light-load bound ends at %g workers, want %g", c.name, end, c.end)
		}
		if !within(p.Y.Max, c.ymax, 1e-3) {
			t.Errorf("%s: y axis to %g, want %g", c.name, p.Y.Max, c.ymax)
		}
	}
}

// The y axis ends at fitYCap times the highest thing drawn within the
// measured workers, not at a band extrapolated far below them (the
// sync-gns fit, on 2 to 64 workers, reached 496.7 steps/s at one worker and
// squeezed the points, at most 16.2, into the axis's bottom 4%); what rises
// above is cut, and the legend says how far it goes.
func TestFitYAxisCap(t *testing.T) {
	d := FitData{
		Level: 0.9,
		Measured: []Obs{
			{X: 2, Y: 16.2, Lo: nan, Hi: nan}, {X: 4, Y: 14.6, Lo: nan, Hi: nan}, {X: 8, Y: 6.2, Lo: nan, Hi: nan},
		},
		Curve: []Band{
			{X: 1, Y: 30, Lo: 5, Hi: 500},
			{X: 2, Y: 16, Lo: 10, Hi: 28},
			{X: 4, Y: 11, Lo: 6, Hi: 16},
			{X: 8, Y: 8, Lo: 5, Hi: 11},
		},
	}
	// within the measured 2 to 8 workers the highest is the band's 28 at
	// N=2: the axis ends at 1.5 x 28 = 42; the band's 500 at N=1 is cut,
	// the curve's 30 there is not
	if got := d.inRangeTop(); got != 28 {
		t.Errorf("in-range top %g, want 28", got)
	}
	off := d.Off()
	if len(off) != 1 || off[0] != (OffAxis{What: "band", X: 1, Y: 500}) {
		t.Errorf("cut at the axis: %+v, want the band's 500 at N=1", off)
	}
	p, _, err := fitPlots(d)
	if err != nil {
		t.Fatal(err)
	}
	if !within(p.Y.Max, 42, 1e-12) {
		t.Errorf("y axis to %g, want 42", p.Y.Max)
	}
	f, err := FitFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "90% band, continues to 500 at N=1") {
		t.Errorf("the legend does not say where the band goes")
	}
	// the curve itself cut too: its own note
	d.Curve[0].Y = 60
	if off := d.Off(); len(off) != 2 || off[1] != (OffAxis{What: "fit", X: 1, Y: 60}) {
		t.Errorf("curve at 60 above 42: cut %+v", off)
	}
	// a band within 1.5 times the in-range top is drawn whole, as before
	d.Curve[0].Y, d.Curve[0].Hi = 30, 40
	if off := d.Off(); len(off) != 0 {
		t.Errorf("nothing above 42, yet cut: %+v", off)
	}
	if p, _, _ = fitPlots(d); !within(p.Y.Max, 40, 1e-12) {
		t.Errorf("uncut: y axis to %g, want the band's 40", p.Y.Max)
	}
}
