package plots

import (
	"math"
	"strings"
	"testing"
)

// The time panel's axis is cut as the fit panel's is: at 1.5 times the
// highest it draws within the measured counts, when an extrapolated band
// rises above that (testdata/sync-gns, fitted on 2 to 64 workers: the
// band at 1 worker reached 11,800 s and the fitted range sat in the
// bottom of the panel).
func TestConvergenceTimeCap(t *testing.T) {
	d := ConvergenceData{Target: 0.1, Level: 0.9,
		Curves: []LossCurve{
			{Workers: 2, Updates: []float64{0, 10}, Loss: []float64{1, 0.1}},
			{Workers: 8, Updates: []float64{0, 5}, Loss: []float64{1, 0.1}},
			{Workers: 16}, // a fit only: not a measured count
		},
		TimePredicted: []Band{
			{X: 1, Y: 1700, Lo: 100, Hi: 11800},
			{X: 2, Y: 1690, Lo: 950, Hi: 5200},
			{X: 8, Y: 900, Lo: 700, Hi: 1400},
			{X: 16, Y: 700, Lo: 600, Hi: 1500},
		},
	}
	capY, off := d.timeCap()
	if capY != 1.5*5200 || off.What != "band" || off.X != 1 || off.Y != 11800 {
		t.Errorf("cap %g, off %+v: want 7800 and the band's 11800 at N=1", capY, off)
	}
	// nothing past 1.5 times: no cap
	d.TimePredicted[0].Hi = 7000
	if capY, off := d.timeCap(); !math.IsInf(capY, 1) || off.What != "" {
		t.Errorf("band to 7000 of 7800: cap %g off %+v, want none", capY, off)
	}
	// no measured count: no range to cap by
	d.TimePredicted[0].Hi = 11800
	d.Curves = []LossCurve{{Workers: 2, FitUpdates: []float64{0, 1}, FitLoss: []float64{1, 0.5}}}
	if capY, _ := d.timeCap(); !math.IsInf(capY, 1) {
		t.Errorf("no measured counts: cap %g, want none", capY)
	}
	// the figure draws with the cap
	d.Curves[0].Updates, d.Curves[0].Loss = []float64{0, 10}, []float64{1, 0.1}
	if _, err := ConvergenceFigure(d); err != nil {
		t.Fatal(err)
	}
}

// The cut's note goes where the cut is: on the predicted line's legend
// entry when the line runs off the top and no band is drawn (it went on
// the band's entry alone, and without a band the cut was not said).
func TestConvergenceTimeCapNoteOnLine(t *testing.T) {
	nan := math.NaN()
	d := ConvergenceData{Target: 0.1, Level: 0.9,
		Curves: []LossCurve{
			{Workers: 2, Updates: []float64{0, 10}, Loss: []float64{1, 0.1}},
			{Workers: 8, Updates: []float64{0, 5}, Loss: []float64{1, 0.1}},
		},
		TimePredicted: []Band{{X: 1, Y: 20000, Lo: nan, Hi: nan}, {X: 2, Y: 1690, Lo: nan, Hi: nan}, {X: 8, Y: 900, Lo: nan, Hi: nan}, {X: 16, Y: 700, Lo: nan, Hi: nan}},
	}
	f, err := ConvergenceFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "predicted, continues to 20000 at N=1") {
		t.Errorf("no note on the predicted line: %s", s)
	}
}
