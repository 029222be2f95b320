package plots

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestNoPanicOnHostileInput feeds every figure random inputs full of NaN,
// ±Inf, zeros, negatives, duplicates and empty slices: each call must return
// a figure that renders, or an error; never panic.
func TestNoPanicOnHostileInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	val := func() float64 {
		switch rng.IntN(40) {
		case 0, 1:
			return math.NaN()
		case 2:
			return math.Inf(1 - 2*rng.IntN(2))
		case 3, 4, 5, 6:
			return 0
		case 7:
			return -rng.Float64()
		}
		return rng.Float64() * 100
	}
	vals := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = val()
		}
		return v
	}
	// iv returns an interval around y: unknown, or y ± a hostile width.
	iv := func(y float64) (float64, float64) {
		if rng.IntN(2) == 0 {
			return math.NaN(), math.NaN()
		}
		w := math.Abs(val())
		return y - w, y + w
	}
	inc := func(n int) []float64 {
		v := make([]float64, n)
		x := 0.0
		for i := range v {
			x += 1 + rng.Float64()
			v[i] = x
		}
		return v
	}
	cases := 80
	if testing.Short() {
		cases = 30
	}
	drawn := map[string]int{}
	defer func() { t.Logf("figures drawn from hostile input: %v", drawn) }()
	for i := range cases {
		n := rng.IntN(4)
		try := func(name string, f func() (*Figure, error)) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("case %d: %s panicked: %v", i, name, r)
				}
			}()
			fig, err := f()
			if err != nil {
				return
			}
			drawn[name]++
			// Render at a small size: the point is not panicking.
			fig.W, fig.H = fig.W/4, fig.H/4
			var buf bytes.Buffer
			if err := fig.WritePNG(&buf); err != nil {
				t.Errorf("case %d: %s: %v", i, name, err)
			}
		}
		try("fit", func() (*Figure, error) {
			d := FitData{Z: val(), SumD: val(), MaxD: val(), Scale: val()}
			for j, x := range inc(n + 1) {
				y := val()
				lo, hi := iv(y)
				d.Curve = append(d.Curve, Band{X: x, Y: y, Lo: lo, Hi: hi})
				if j%2 == 0 {
					y = val()
					lo, hi = iv(y)
					d.Measured = append(d.Measured, Obs{X: x, Y: y, Lo: lo, Hi: hi})
				}
			}
			return FitFigure(d)
		})
		try("phases", func() (*Figure, error) {
			var d PhasesData
			for range n {
				d.Measured = append(d.Measured, PhaseTimes{Workers: rng.IntN(4), Pull: val(), Compute: val(), Push: val()})
			}
			return PhasesFigure(d)
		})
		try("staleness", func() (*Figure, error) {
			var d StalenessData
			for range n {
				d.Samples = append(d.Samples, StalenessSample{Workers: rng.IntN(4), Values: vals(rng.IntN(5))})
			}
			return StalenessFigure(d)
		})
		try("convergence", func() (*Figure, error) {
			d := ConvergenceData{Target: val()}
			for range n {
				m := rng.IntN(4)
				d.Curves = append(d.Curves, LossCurve{Workers: rng.IntN(4), Updates: inc(m), Loss: vals(m), FitUpdates: inc(m), FitLoss: vals(m)})
			}
			for _, x := range inc(rng.IntN(4)) {
				y := val()
				lo, hi := iv(y)
				d.TimePredicted = append(d.TimePredicted, Band{X: x, Y: y, Lo: lo, Hi: hi})
			}
			return ConvergenceFigure(d)
		})
		try("scaling", func() (*Figure, error) {
			var d ScalingData
			for k := range n {
				m := rng.IntN(4)
				d.Jobs = append(d.Jobs, ScalingCurve{Job: fmt.Sprint(k), Workers: inc(m), Speedup: vals(m), Knee: val()})
			}
			return ScalingFigure(d)
		})
		try("plan", func() (*Figure, error) {
			d := PlanData{Servers: val(), Completions: map[string]float64{"a": val()}}
			for _, x := range inc(n) {
				d.Segments = append(d.Segments, PlanSegment{Start: x - 1 + val()/200, End: x, Alloc: map[string]float64{"a": val(), "b": val()}})
			}
			return PlanFigure(d)
		})
		try("simulation", func() (*Figure, error) {
			var d SimulationData
			for k := range n {
				d.Responses = append(d.Responses, ResponseTimes{Policy: fmt.Sprint(k), Times: vals(rng.IntN(5))})
				y := val()
				lo, hi := iv(y)
				d.Loads = append(d.Loads, LoadPoint{Policy: fmt.Sprint(k), Load: val() / 100, Mean: y, Lo: lo, Hi: hi})
			}
			return SimulationFigure(d)
		})
	}
}
