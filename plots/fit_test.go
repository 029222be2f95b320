package plots

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
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
