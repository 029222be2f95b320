package plots

import (
	"bytes"
	"fmt"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// wantErr checks that err is a plots error about fig containing want.
func wantErr(t *testing.T, name string, err error, fig, want string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one with %q", name, want)
		return
	}
	if !strings.HasPrefix(err.Error(), "plots: "+fig+": ") || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: err = %v, want \"plots: %s: ...%s...\"", name, err, fig, want)
	}
}

func phasesExample() PhasesData {
	var m, p []PhaseTimes
	for _, n := range []int{1, 2, 4, 8, 16} {
		q := float64(n) / 16 // contention grows the transfers
		m = append(m, PhaseTimes{Workers: n, Pull: 0.010 + 0.012*q, Compute: 0.100 + 0.004*q, Push: 0.011 + 0.013*q})
		p = append(p, PhaseTimes{Workers: n, Pull: 0.010 + 0.011*q, Compute: 0.100, Push: 0.010 + 0.012*q})
	}
	return PhasesData{Measured: m, Predicted: p[:4]}
}

func TestPhasesBars(t *testing.T) {
	d := PhasesData{
		Measured:  []PhaseTimes{{Workers: 4, Pull: 1, Compute: 2, Push: 3}, {Workers: 1, Pull: 0.5, Compute: 2, Push: 0.5}},
		Predicted: []PhaseTimes{{Workers: 4, Pull: 1.5, Compute: 2, Push: 2}},
	}
	// Worker counts 1, 4 are categories 0, 1. Measured at 4 workers:
	// pull 0..1, compute 1..3, push 3..6; predicted at 4: 0..1.5, 1.5..3.5,
	// 3.5..5.5; measured at 1: 0..0.5, 0.5..2.5, 2.5..3.
	want := []StackBar{
		{Workers: 1, X: -0.2, Bottom: [3]float64{0, 0.5, 2.5}, Top: [3]float64{0.5, 2.5, 3}},
		{Workers: 4, X: 0.8, Bottom: [3]float64{0, 1, 3}, Top: [3]float64{1, 3, 6}},
		{Workers: 4, Predicted: true, X: 1.2, Bottom: [3]float64{0, 1.5, 3.5}, Top: [3]float64{1.5, 3.5, 5.5}},
	}
	if got := d.Bars(); !reflect.DeepEqual(got, want) {
		t.Errorf("Bars =\n%+v\nwant\n%+v", got, want)
	}
}

func TestPhasesBadInput(t *testing.T) {
	_, err := PhasesFigure(PhasesData{})
	wantErr(t, "empty", err, "phases", "no phase times")
	_, err = PhasesFigure(PhasesData{Measured: []PhaseTimes{{Workers: 2, Pull: math.NaN()}}})
	wantErr(t, "NaN", err, "phases", "measured 0: pull time NaN")
	_, err = PhasesFigure(PhasesData{Predicted: []PhaseTimes{{Workers: 2}, {Workers: 2}}})
	wantErr(t, "twice", err, "phases", "predicted 1: workers 2 appears twice")
}

func TestStalenessSummaries(t *testing.T) {
	// 2 workers: sorted 0 1 1 1 2 3 9: median 1; lower half 0 1 1 → Q1 1;
	// upper half 1 2 3 9 → Q3 2.5; IQR 1.5, fences -1.25 and 4.75, so 9 is
	// an outlier and the whiskers end at 0 and 3; mean 17/7.
	d := StalenessData{Samples: []StalenessSample{
		{Workers: 4, Values: []float64{3, 3, 3, 3}},
		{Workers: 2, Values: []float64{1, 0, 2, 1, 9, 1, 3}},
	}}
	s, err := d.Summaries()
	if err != nil {
		t.Fatal(err)
	}
	want := []BoxSummary{
		{Workers: 2, N: 7, Min: 0, Q1: 1, Median: 1, Q3: 2.5, Max: 9, WhiskerLo: 0, WhiskerHi: 3, Mean: 17.0 / 7, Outliers: 1},
		{Workers: 4, N: 4, Min: 3, Q1: 3, Median: 3, Q3: 3, Max: 3, WhiskerLo: 3, WhiskerHi: 3, Mean: 3},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Summaries =\n%+v\nwant\n%+v", s, want)
	}
	_, err = StalenessFigure(StalenessData{Samples: []StalenessSample{{Workers: 3}}})
	wantErr(t, "no values", err, "staleness", "sample 0 (3 workers): no values")
	_, err = StalenessFigure(StalenessData{Samples: []StalenessSample{{Workers: 3, Values: []float64{1, -1}}}})
	wantErr(t, "negative", err, "staleness", "value 1 is -1")
}

func stalenessExample() StalenessData {
	rng := rand.New(rand.NewPCG(1, 2))
	var ss []StalenessSample
	for _, n := range []int{1, 2, 4, 8, 16} {
		v := make([]float64, 400)
		for i := range v {
			// Around N-1 with spread growing with N.
			v[i] = math.Max(0, math.Round(float64(n-1)+rng.NormFloat64()*math.Sqrt(float64(n))))
		}
		ss = append(ss, StalenessSample{Workers: n, Values: v})
	}
	return StalenessData{Samples: ss}
}

// lossExample follows l(k) = 1/(b0 k + b1) + b2 with b0 = 1e-3/(1 + 0.1 (N-1)).
func lossExample() ConvergenceData {
	rng := rand.New(rand.NewPCG(3, 4))
	var cs []LossCurve
	var tm []Obs
	var tp []Band
	for _, n := range []int{1, 2, 4, 8} {
		b0 := 1e-3 / (1 + 0.1*float64(n-1))
		l := func(k float64) float64 { return 1/(b0*k+0.5) + 0.1 }
		var c LossCurve
		c.Workers = n
		for k := 0.0; k <= 20000; k += 1000 {
			c.Updates = append(c.Updates, k)
			c.Loss = append(c.Loss, l(k)*(1+0.03*rng.NormFloat64()))
			c.FitUpdates = append(c.FitUpdates, k)
			c.FitLoss = append(c.FitLoss, l(k))
		}
		cs = append(cs, c)
	}
	for n := 1; n <= 16; n++ {
		// updates to 0.2: 1/(b0 k + 0.5) = 0.1 → k = 9.5/b0; rate ∝ n/(1+n/12).
		b0 := 1e-3 / (1 + 0.1*float64(n-1))
		tt := 9.5 / b0 / (20 * float64(n) / (1 + float64(n)/6))
		tp = append(tp, Band{X: float64(n), Y: tt, Lo: 0.9 * tt, Hi: 1.1 * tt})
		if n == 1 || n == 2 || n == 4 || n == 8 {
			tm = append(tm, Obs{X: float64(n), Y: tt * 1.04, Lo: tt * 0.98, Hi: tt * 1.1})
		}
	}
	return ConvergenceData{Target: 0.2, Curves: cs, TimeMeasured: tm, TimePredicted: tp}
}

func TestConvergenceBest(t *testing.T) {
	d := ConvergenceData{TimePredicted: []Band{{X: 1, Y: 100}, {X: 2, Y: 60}, {X: 4, Y: 45}, {X: 8, Y: 50}}}
	if n, s := d.Best(); n != 4 || s != 45 {
		t.Errorf("Best = %g, %g; want 4, 45", n, s)
	}
	if n, _ := (ConvergenceData{}).Best(); !math.IsNaN(n) {
		t.Errorf("Best without predictions = %g, want NaN", n)
	}
	if d.StillFalling() {
		t.Errorf("StillFalling with the best at N = 4 of 1 to 8")
	}
	_, err := ConvergenceFigure(ConvergenceData{})
	wantErr(t, "empty", err, "convergence", "no loss curves")
	_, err = ConvergenceFigure(ConvergenceData{Curves: []LossCurve{{Workers: 2, Updates: []float64{1, 2}, Loss: []float64{1}}}})
	wantErr(t, "ragged", err, "convergence", "curve 0 (2 workers): 2 updates and 1 losses")
	_, err = ConvergenceFigure(ConvergenceData{Curves: []LossCurve{{Workers: 3, FitUpdates: []float64{1}, FitLoss: []float64{1}}}})
	wantErr(t, "nothing", err, "convergence", "curve 0 (3 workers): no measured points and 1 fitted points")
	if (ConvergenceData{}).StillFalling() || (ConvergenceData{TimePredicted: []Band{{X: 1, Y: 100}}}).StillFalling() {
		t.Errorf("StillFalling with fewer than two counts drawn")
	}
	d.TimePredicted[3].Y = 40
	if !d.StillFalling() {
		t.Errorf("not StillFalling with the best at N = 8, the largest drawn")
	}
	// the counts past the range take forever: N = 8 is the fastest
	d.InfiniteFrom = 16
	if d.StillFalling() {
		t.Errorf("StillFalling at N = 8 with an infinite time from N = 16 on")
	}
}

// The time panel's legend calls the least time "fastest" only when the
// curve rises again past it; at the end of the drawn range it says the
// time is still falling (it called the largest drawn count the fastest).
func TestConvergenceLegendStillFalling(t *testing.T) {
	d := lossExample()
	f, err := ConvergenceFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "fastest: N=") || strings.Contains(s, "still falling") {
		t.Errorf("best inside the range: legend does not say fastest")
	}
	d.TimePredicted = d.TimePredicted[:2] // 1 and 2 workers: falling
	if f, err = ConvergenceFigure(d); err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); strings.Contains(s, "fastest") || !strings.Contains(s, "still falling: N=2,") {
		t.Errorf("best at the largest drawn: legend calls it fastest")
	}
	d.InfiniteFrom = 3 // N = 3 on never reach the target: 2 is the fastest
	if f, err = ConvergenceFigure(d); err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "fastest: N=2,") || strings.Contains(s, "still falling") {
		t.Errorf("best at the last finite count: legend says still falling")
	}
}

func TestScalingEfficiency(t *testing.T) {
	// s = 1, 1.8, 3.2, 4 at N = 1, 2, 4, 8: efficiency 1, 0.9, 0.8, 0.5.
	c := ScalingCurve{Job: "a", Workers: []float64{1, 2, 4, 8}, Speedup: []float64{1, 1.8, 3.2, 4}}
	want := []float64{1, 0.9, 0.8, 0.5}
	for i, e := range c.Efficiency() {
		if !within(e, want[i], 1e-12) {
			t.Errorf("efficiency at %g = %g, want %g", c.Workers[i], e, want[i])
		}
	}
	_, err := ScalingFigure(ScalingData{Jobs: []ScalingCurve{c, c}})
	wantErr(t, "twice", err, "scaling", `"a" appears twice`)
	_, err = ScalingFigure(ScalingData{Jobs: []ScalingCurve{{Job: "b", Workers: []float64{1, 1}, Speedup: []float64{1, 1}}}})
	wantErr(t, "unsorted", err, "scaling", "point 1: workers 1 not above")
}

func scalingExample() ScalingData {
	var jobs []ScalingCurve
	for _, j := range []struct {
		name string
		p    float64
	}{{"resnet", 0.9}, {"bert", 0.7}, {"lstm", 0.5}} {
		c := ScalingCurve{Job: j.name}
		for n := 1.0; n <= 32; n++ {
			c.Workers = append(c.Workers, n)
			c.Speedup = append(c.Speedup, math.Pow(n, j.p))
		}
		// Knee: where one more worker gains less than 5%: ((n+1)/n)^p < 1.05.
		c.Knee = math.Ceil(1 / (math.Pow(1.05, 1/j.p) - 1))
		jobs = append(jobs, c)
	}
	return ScalingData{Jobs: jobs}
}

func TestPlanAreas(t *testing.T) {
	// heSRPT-like: 4 servers; [0, 2): a 1, b 3; [2, 5): b 4.
	// Jobs by completion: a (2 s) at the bottom, b (5 s) above it.
	// a: [0,2) 0..1 (its band ends with its workers); b: [0,2) 1..4,
	// [2,5) 0..4.
	d := PlanData{
		Servers: 4,
		Segments: []PlanSegment{
			{Start: 0, End: 2, Alloc: map[string]float64{"a": 1, "b": 3}},
			{Start: 2, End: 5, Alloc: map[string]float64{"b": 4}},
		},
		Completions: map[string]float64{"b": 5, "a": 2},
	}
	got, err := d.Areas()
	if err != nil {
		t.Fatal(err)
	}
	want := []PlanArea{
		{Job: "a", X: []float64{0, 2}, Lower: []float64{0, 0}, Upper: []float64{1, 1}},
		{Job: "b", X: []float64{0, 2, 2, 5}, Lower: []float64{1, 1, 0, 0}, Upper: []float64{4, 4, 4, 4}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Areas =\n%+v\nwant\n%+v", got, want)
	}
	// an idle gap [5, 9) between two segments: the bands drop to
	// nothing over it (they were joined end to start, a slope from b's 4
	// workers at 5 s down to c's at 9 s, as if b still held them)
	gap := d
	gap.Segments = append(slices.Clone(d.Segments), PlanSegment{Start: 9, End: 10, Alloc: map[string]float64{"b": 2}})
	got, err = gap.Areas()
	if err != nil {
		t.Fatal(err)
	}
	wantB := PlanArea{Job: "b", X: []float64{0, 2, 2, 5, 5, 9, 9, 10}, Lower: []float64{1, 1, 0, 0, 0, 0, 0, 0}, Upper: []float64{4, 4, 4, 4, 0, 0, 2, 2}}
	if !reflect.DeepEqual(got[1], wantB) {
		t.Errorf("Areas with a gap, b =\n%+v\nwant\n%+v", got[1], wantB)
	}
	bad := d
	bad.Segments = []PlanSegment{{Start: 0, End: 1, Alloc: map[string]float64{"a": 5}}}
	_, err = PlanFigure(bad)
	wantErr(t, "over", err, "plan", "segment 0: 5 workers allocated, more than the 4 servers")
	bad.Segments = []PlanSegment{{Start: 0, End: 2}, {Start: 1, End: 3}}
	_, err = PlanFigure(bad)
	wantErr(t, "overlap", err, "plan", "segment 1 starts at 1 s, before segment 0 ends")
	_, err = PlanFigure(PlanData{})
	wantErr(t, "empty", err, "plan", "no segments")
}

// planExample is the heSRPT flow-optimal schedule of design.md's worked
// example (N = 1, sizes 4, 3, 2, 1, p = 0.5) scaled to 16 servers; q = 2
// and with m jobs left the i-th largest gets (i/m)^2 - ((i-1)/m)^2.
func planExample() PlanData {
	sizes := map[string]float64{"j1": 4, "j2": 3, "j3": 2, "j4": 1}
	order := []string{"j1", "j2", "j3", "j4"} // largest first
	left := map[string]float64{}
	for k, v := range sizes {
		left[k] = v * 16 // seconds on one worker of 16 servers' work scale
	}
	var segs []PlanSegment
	done := map[string]float64{}
	t := 0.0
	for m := len(order); m > 0; m-- {
		alloc := map[string]float64{}
		rate := map[string]float64{}
		for i := 1; i <= m; i++ {
			th := math.Pow(float64(i)/float64(m), 2) - math.Pow(float64(i-1)/float64(m), 2)
			alloc[order[i-1]] = 16 * th
			rate[order[i-1]] = math.Sqrt(16 * th) // s(k) = k^0.5
		}
		small := order[m-1]
		dt := left[small] / rate[small]
		for j, r := range rate {
			left[j] -= r * dt
		}
		segs = append(segs, PlanSegment{Start: t, End: t + dt, Alloc: alloc})
		t += dt
		done[small] = t
		order = order[:m-1]
	}
	return PlanData{Policy: "hesrpt", Servers: 16, Segments: segs, Completions: done}
}

func TestPlanBinned(t *testing.T) {
	// [0, 1) a 4; [1, 3) a 2, b 2; gap [3, 4). Two bins of 2 s:
	// bin [0, 2): a (4x1 + 2x1)/2 = 3, b (2x1)/2 = 1;
	// bin [2, 4]: a (2x1)/2 = 1, b (2x1)/2 = 1 (the gap holds nothing).
	d := PlanData{Segments: []PlanSegment{
		{Start: 0, End: 1, Alloc: map[string]float64{"a": 4}},
		{Start: 1, End: 3, Alloc: map[string]float64{"a": 2, "b": 2}},
		{Start: 3.5, End: 4, Alloc: map[string]float64{}},
	}}
	got := d.Binned(2)
	want := []PlanSegment{
		{Start: 0, End: 2, Alloc: map[string]float64{"a": 3, "b": 1}},
		{Start: 2, End: 4, Alloc: map[string]float64{"a": 1, "b": 1}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Binned = %+v, want %+v", got, want)
	}
	// Worker-seconds are kept on a long random plan.
	rng := rand.New(rand.NewPCG(9, 9))
	var long PlanData
	area := map[string]float64{}
	t0 := 0.0
	for range 1000 {
		dt := rng.ExpFloat64()
		a := map[string]float64{"x": rng.Float64() * 8, "y": rng.Float64() * 8}
		long.Segments = append(long.Segments, PlanSegment{Start: t0, End: t0 + dt, Alloc: a})
		for j, v := range a {
			area[j] += v * dt
		}
		t0 += dt
	}
	binned := map[string]float64{}
	for _, s := range long.Binned(MaxDrawnSegments) {
		for j, v := range s.Alloc {
			binned[j] += v * (s.End - s.Start)
		}
	}
	for j := range area {
		if !within(binned[j], area[j], 1e-9) {
			t.Errorf("job %s: %g worker-seconds binned, %g in the plan", j, binned[j], area[j])
		}
	}
}

func TestCDF(t *testing.T) {
	// 3, 1, 2, 2 sorted: 1, 2, 2, 3 → (1, .25), (2, .5), (2, .75), (3, 1).
	got := CDF([]float64{3, 1, math.NaN(), 2, 2})
	want := []XY{{1, 0.25}, {2, 0.5}, {2, 0.75}, {3, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CDF = %v, want %v", got, want)
	}
	// The staircase starts at 0 and rises at each time.
	st := stepXYs(got[:2])
	if len(st) != 4 || st[0].Y != 0 || st[1].Y != 0.25 || st[2].Y != 0.25 || st[3].Y != 0.5 {
		t.Errorf("steps = %v", st)
	}
	// Thinning 5 corners to 3 keeps ranks 0, 2, 4.
	c := []XY{{1, 0.2}, {2, 0.4}, {3, 0.6}, {4, 0.8}, {5, 1}}
	if th := thinCDF(c, 3); !reflect.DeepEqual(th, []XY{{1, 0.2}, {3, 0.6}, {5, 1}}) {
		t.Errorf("thinCDF = %v", th)
	}
	if th := thinCDF(c, 10); len(th) != 5 {
		t.Errorf("thinCDF of a short curve changed it: %v", th)
	}
	_, err := SimulationFigure(SimulationData{})
	wantErr(t, "empty", err, "simulation", "no response times")
	_, err = SimulationFigure(SimulationData{Responses: []ResponseTimes{{Policy: "equi", Times: []float64{1, math.Inf(1)}}}})
	wantErr(t, "inf", err, "simulation", "responses 0 (equi): time 1 is +Inf")
}

func simulationExample() SimulationData {
	rng := rand.New(rand.NewPCG(5, 6))
	var rs []ResponseTimes
	var ls []LoadPoint
	for k, pol := range []string{"hesrpt", "equi", "srpt", "fifo"} {
		scale := []float64{1, 1.15, 1.3, 2}[k]
		r := ResponseTimes{Policy: pol}
		for range 300 {
			r.Times = append(r.Times, scale*rng.ExpFloat64()*60+5)
		}
		rs = append(rs, r)
		for _, rho := range []float64{0.3, 0.5, 0.7, 0.8, 0.9} {
			m := scale * 60 / (1 - rho)
			ls = append(ls, LoadPoint{Policy: pol, Load: rho, Mean: m, Lo: 0.93 * m, Hi: 1.07 * m})
		}
	}
	return SimulationData{Responses: rs, Loads: ls}
}

func TestFigureSmoke(t *testing.T) {
	for _, c := range []struct {
		name string
		make func() (*Figure, error)
	}{
		{"phases", func() (*Figure, error) { return PhasesFigure(phasesExample()) }},
		{"staleness", func() (*Figure, error) { return StalenessFigure(stalenessExample()) }},
		{"convergence", func() (*Figure, error) { return ConvergenceFigure(lossExample()) }},
		{"convergence-loss-only", func() (*Figure, error) {
			d := lossExample()
			d.TimeMeasured, d.TimePredicted = nil, nil
			return ConvergenceFigure(d)
		}},
		{"convergence-fit-only", func() (*Figure, error) {
			d := lossExample()
			for i := range d.Curves {
				d.Curves[i].Updates, d.Curves[i].Loss = nil, nil
			}
			return ConvergenceFigure(d)
		}},
		{"scaling", func() (*Figure, error) { return ScalingFigure(scalingExample()) }},
		{"plan", func() (*Figure, error) { return PlanFigure(planExample()) }},
		{"simulation", func() (*Figure, error) { return SimulationFigure(simulationExample()) }},
		{"simulation-cdf-only", func() (*Figure, error) {
			d := simulationExample()
			d.Loads = nil
			return SimulationFigure(d)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fig, err := c.make()
			if err != nil {
				t.Fatal(err)
			}
			smoke(t, fig, c.name)
		})
	}
}

// svgText renders f as SVG and returns the document (its text is in
// <text> elements).
func svgText(t *testing.T, f *Figure) string {
	t.Helper()
	c := vgsvg.New(f.W, f.H)
	f.draw(draw.New(c))
	var b strings.Builder
	if _, err := c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Without predicted bars (a model that is no queueing network) the axis
// and the legend do not promise them; with them, they do.
func TestPhasesLegendOnlyWithPredicted(t *testing.T) {
	d := PhasesData{Measured: []PhaseTimes{{Workers: 1, Pull: 0.1, Compute: 0.2, Push: 0.1}, {Workers: 2, Pull: 0.12, Compute: 0.2, Push: 0.12}}}
	f, err := PhasesFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); strings.Contains(s, "predicted") || !strings.Contains(s, "workers N") {
		t.Errorf("measured only: the figure promises predicted bars")
	}
	d.Predicted = []PhaseTimes{{Workers: 1, Pull: 0.1, Compute: 0.2, Push: 0.1}}
	if f, err = PhasesFigure(d); err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "predicted (light)") || !strings.Contains(s, "right: predicted") {
		t.Errorf("with predicted bars: no legend entry or axis note")
	}
}

// A plan of many jobs names the first maxLegendJobs of them and counts the
// rest in one line, so that the legend (and its servers line) fits beside
// the panel: with 150 jobs it ran off the bottom. One job more is named
// rather than counted.
func TestPlanLegendCountsTheRest(t *testing.T) {
	for _, n := range []int{maxLegendJobs + 1, maxLegendJobs + 2, 150} {
		var segs []PlanSegment
		done := map[string]float64{}
		for i := range n {
			j := fmt.Sprintf("job%03d", i)
			segs = append(segs, PlanSegment{Start: float64(i), End: float64(i + 1), Alloc: map[string]float64{j: 4}})
			done[j] = float64(i + 1)
		}
		f, err := PlanFigure(PlanData{Policy: "fifo", Servers: 4, Segments: segs, Completions: done})
		if err != nil {
			t.Fatal(err)
		}
		s := svgText(t, f)
		named := strings.Count(s, "(done ")
		more := fmt.Sprintf("other %d jobs", n-maxLegendJobs)
		switch {
		case n == maxLegendJobs+1 && (named != n || strings.Contains(s, "other ")):
			t.Errorf("%d jobs: %d named, want all and no count", n, named)
		case n > maxLegendJobs+1 && (named != maxLegendJobs || !strings.Contains(s, more)):
			t.Errorf("%d jobs: %d named, want %d and %q", n, named, maxLegendJobs, more)
		}
		if !strings.Contains(s, "4 servers") {
			t.Errorf("%d jobs: no servers line in the legend", n)
		}
	}
}

// One server is "1 server" in the plan figure's legend (it said "1 servers").
func TestPlanLegendOneServer(t *testing.T) {
	f, err := PlanFigure(PlanData{Policy: "fifo", Servers: 1, Segments: []PlanSegment{{Start: 0, End: 1, Alloc: map[string]float64{"a": 1}}}, Completions: map[string]float64{"a": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "1 server") || strings.Contains(s, "1 servers") {
		t.Errorf("legend: no \"1 server\", or \"1 servers\"")
	}
}

// Jobs on one model have one curve: drawn once and named together (only
// the last drawn showed, under a legend of every job's colour).
func TestScalingSameCurves(t *testing.T) {
	curve := func(job string, p, knee float64) ScalingCurve {
		c := ScalingCurve{Job: job, Knee: knee}
		for n := 1.0; n <= 8; n++ {
			c.Workers = append(c.Workers, n)
			c.Speedup = append(c.Speedup, math.Pow(n, p))
		}
		return c
	}
	g := sameCurves([]ScalingCurve{curve("a", 0.5, 4), curve("d", 0.7, 4), curve("b", 0.5, 4), curve("c", 0.5, 4), curve("e", 0.5, 5)})
	var labels []string
	for _, x := range g {
		labels = append(labels, x.label)
	}
	if want := []string{"a, b, c (one curve)", "d", "e"}; !slices.Equal(labels, want) {
		t.Errorf("groups %q, want %q", labels, want)
	}
	var five []ScalingCurve
	for _, n := range []string{"j1", "j2", "j3", "j4", "j5"} {
		five = append(five, curve(n, 0.6, math.NaN()))
	}
	if g := sameCurves(five); len(g) != 1 || g[0].label != "j1, j2 and 3 more (one curve)" {
		t.Errorf("five jobs on one curve: %+v", g)
	}
	if _, err := ScalingFigure(ScalingData{Jobs: five}); err != nil {
		t.Error(err)
	}
}

// Idle gaps much longer than the work are drawn short: arrivals at 0, 1e6
// and 1e9 s gave an empty panel (each job a hairline). Busy stretches keep
// their lengths; the axis is labelled in true time.
func TestPlanTimeMap(t *testing.T) {
	seg := func(a, b float64) PlanSegment {
		return PlanSegment{Start: a, End: b, Alloc: map[string]float64{"j": 1}}
	}
	tm := newTimeMap([]PlanSegment{seg(0, 60), seg(60, 100), seg(1e6, 1e6+200), seg(1e9, 1e9+50)})
	// busy 350 s: each gap drawn 17.5 wide
	if len(tm.gaps) != 2 || tm.width != 17.5 {
		t.Fatalf("gaps %+v width %g, want 2 and 17.5", tm.gaps, tm.width)
	}
	for _, c := range [][2]float64{{0, 0}, {100, 100}, {5e5, 100 + 17.5*(5e5-100)/(1e6-100)}, {1e6, 117.5}, {1e6 + 200, 317.5}, {1e9, 335}, {1e9 + 50, 385}} {
		if got := tm.at(c[0]); math.Abs(got-c[1]) > 1e-9 {
			t.Errorf("at(%g) = %g, want %g", c[0], got, c[1])
		}
	}
	var labels []string
	for _, tk := range tm.Ticks(0, 385) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	for _, want := range []string{"0", "1e+06", "+100", "1e+09"} {
		if !slices.Contains(labels, want) {
			t.Errorf("tick labels %q lack %q", labels, want)
		}
	}
	// many short stretches (a 100 s job every 1e5 s): the stretch labels
	// are thinned, at least 11% of the axis apart
	var many []PlanSegment
	for i := range 200 {
		many = append(many, seg(float64(i)*1e5, float64(i)*1e5+100))
	}
	mt := newTimeMap(many)
	// 199 gaps take a quarter of the busy 20,000 s in all, not 199 twentieths
	if len(mt.gaps) != 199 || math.Abs(mt.width*199-5000) > 1e-6 {
		t.Errorf("%d gaps %g wide, want 199 taking 5000 s in all", len(mt.gaps), mt.width)
	}
	lo, hi := mt.at(0), mt.at(199*1e5+100)
	prev := math.Inf(-1)
	n := 0
	for _, tk := range mt.Ticks(lo, hi) {
		if tk.Label == "" {
			continue
		}
		if (tk.Value-prev)/(hi-lo) < 0.08 { // (nice ticks inside a stretch keep 8%)
			t.Errorf("labels %g and %g are %.3g of the axis apart", prev, tk.Value, (tk.Value-prev)/(hi-lo))
		}
		prev = tk.Value
		n++
	}
	if n < 5 || n > 13 {
		t.Errorf("%d labels on 200 stretches, want 5 to 13", n)
	}
	// a gap shorter than a quarter of the busy time stays as it is
	if tm := newTimeMap([]PlanSegment{seg(0, 100), seg(150, 300)}); tm.compressed() || tm.at(200) != 200 {
		t.Errorf("a short gap was shortened: %+v", tm)
	}
	d := PlanData{Servers: 2, Segments: []PlanSegment{seg(0, 100), seg(1e6, 1e6+200), seg(1e9, 1e9+50)}, Completions: map[string]float64{"j": 1e9 + 50}}
	fig, err := PlanFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := fig.WritePNG(&buf); err != nil || buf.Len() == 0 {
		t.Errorf("png: %d bytes, %v", buf.Len(), err)
	}
}

// The figures' legends and labels write numbers as the report's tables and
// captions do (num: 4 significant digits, plainly below 10^6): a time of
// 123456.7 s reads 123500 s, not 1.23e+05 s (the convergence legend's
// %.3g) or 1.235e+05 s (the plan legend's %.4g); a knee at (0.1234 +
// 0.025)/0.01 = 14.84 workers reads 14.84, not 14.8.
func TestFigureLegendNumbers(t *testing.T) {
	d := lossExample()
	d.TimeMeasured = nil
	d.TimePredicted = []Band{{X: 1, Y: 200000, Lo: 190000, Hi: 210000}, {X: 2, Y: 123456.7, Lo: 120000, Hi: 130000}, {X: 3, Y: 150000, Lo: 140000, Hi: 160000}}
	f, err := ConvergenceFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "fastest: N=2, 123500 s") || !strings.Contains(s, "target 0.2<") {
		t.Errorf("convergence legend lacks \"fastest: N=2, 123500 s\" or \"target 0.2\"")
	}
	d.TimePredicted = d.TimePredicted[:2]
	if f, err = ConvergenceFigure(d); err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "still falling: N=2, 123500 s") {
		t.Errorf("convergence legend lacks \"still falling: N=2, 123500 s\"")
	}

	f, err = PlanFigure(PlanData{Policy: "fifo", Servers: 1, Segments: []PlanSegment{{Start: 0, End: 123456.7, Alloc: map[string]float64{"a": 1}}}, Completions: map[string]float64{"a": 123456.7}})
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "a (done 123500 s)") {
		t.Errorf("plan legend lacks \"a (done 123500 s)\"")
	}

	fd := fitExample()
	fd.Z = 0.1234
	if f, err = FitFigure(fd); err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, "knee N*≈14.84") {
		t.Errorf("fit figure lacks the label \"knee N*≈14.84\"")
	}
}

// The staleness figure draws the predicted mean's interval as a bar where
// it is a real interval about the mean, and leaves it out where it is not
// (NaN ends, no width, the mean outside): those figures equal the one with
// no interval at all.
func TestStalenessInterval(t *testing.T) {
	png := func(d StalenessData) []byte {
		t.Helper()
		return figurePNG(t, func() (*Figure, error) { return StalenessFigure(d) })
	}
	d := stalenessExample()
	d.Predicted = func(n int) float64 { return 0.9 * float64(n-1) }
	bare := png(d)
	for name, iv := range map[string]func(int) (float64, float64){
		"NaN":      func(n int) (float64, float64) { return math.NaN(), math.NaN() },
		"no width": func(n int) (float64, float64) { v := 0.9 * float64(n-1); return v, v },
		"outside":  func(n int) (float64, float64) { v := 0.9 * float64(n-1); return v + 1, v + 2 },
	} {
		d.Interval = iv
		if !bytes.Equal(png(d), bare) {
			t.Errorf("%s: an interval was drawn", name)
		}
	}
	d.Interval = func(n int) (float64, float64) { v := 0.9 * float64(n-1); return 0.7 * v, 1.1 * v }
	if bytes.Equal(png(d), bare) {
		t.Error("a real interval was not drawn")
	}
}

// The load panel shifts each policy's points a little along the load axis
// (their intervals hid each other at one x) and fades the means that are
// no steady state, which the legend names.
func TestSimulationLoadSeries(t *testing.T) {
	d := SimulationData{
		Responses: []ResponseTimes{{Policy: "equi", Times: []float64{1, 2}}},
		Loads: []LoadPoint{
			{Policy: "equi", Load: 0.7, Mean: 30, Lo: 25, Hi: 35},
			{Policy: "equi", Load: 0.5, Mean: 20, Lo: nan, Hi: nan},
			{Policy: "srpt", Load: 0.5, Mean: 18, Lo: 17, Hi: 19},
			{Policy: "srpt", Load: 0.7, Mean: 400, Lo: 100, Hi: 700, NotSteady: "*"},
			{Policy: "fifo", Load: 0.5, Mean: 50, Lo: 40, Hi: 60, NotSteady: "†"},
			{Policy: "fifo", Load: 0.7, Mean: 900, Lo: 500, Hi: 1300, NotSteady: "*"},
		},
	}
	// loads 0.5 and 0.7: the gap 0.2, the spread 0.4 x 0.2 = 0.08 over
	// three policies, so shifts -0.04, 0, +0.04 in order of appearance
	want := []struct {
		policy    string
		xs        []float64
		notSteady []bool
	}{
		{"equi", []float64{0.46, 0.66}, []bool{false, false}},
		{"srpt", []float64{0.5, 0.7}, []bool{false, true}},
		{"fifo", []float64{0.54, 0.74}, []bool{true, true}},
	}
	got := d.loadSeries()
	if len(got) != len(want) {
		t.Fatalf("%d series, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.policy != w.policy || len(g.points) != 2 || !slices.Equal(g.notSteady, w.notSteady) {
			t.Errorf("series %d: %s %v not steady %v, want %s %v", i, g.policy, g.points, g.notSteady, w.policy, w.notSteady)
			continue
		}
		for j, x := range w.xs {
			if math.Abs(g.points[j].X-x) > 1e-12 {
				t.Errorf("%s point %d at load %g, want %g", w.policy, j, g.points[j].X, x)
			}
		}
	}
	// the load axis holds the shifted points with a margin: [0.46 - 0.028,
	// 0.74 + 0.028] (a tenth of 0.74 - 0.46 each side)
	if lo, hi := d.loadRange(); math.Abs(lo-0.432) > 1e-12 || math.Abs(hi-0.768) > 1e-12 {
		t.Errorf("load axis [%g, %g], want [0.432, 0.768]", lo, hi)
	}
	// loads 0.1 and 0.9: the spread is 0.4 x the least load, 0.04, not
	// 0.4 x the gap, 0.32, which shifted a point to load -0.06
	far := SimulationData{Responses: d.Responses, Loads: []LoadPoint{
		{Policy: "equi", Load: 0.1, Mean: 1, Lo: nan, Hi: nan}, {Policy: "srpt", Load: 0.1, Mean: 1, Lo: nan, Hi: nan},
		{Policy: "equi", Load: 0.9, Mean: 2, Lo: nan, Hi: nan}, {Policy: "srpt", Load: 0.9, Mean: 2, Lo: nan, Hi: nan},
	}}
	if s := far.loadSeries(); math.Abs(s[0].points[0].X-0.08) > 1e-12 || math.Abs(s[1].points[0].X-0.12) > 1e-12 {
		t.Errorf("loads 0.1 and 0.9: the points at 0.1 shifted to %g and %g, want 0.08 and 0.12", s[0].points[0].X, s[1].points[0].X)
	}
	if lo, _ := far.loadRange(); !(lo >= 0 && lo < 0.08) {
		t.Errorf("loads 0.1 and 0.9: the axis starts at %g, want in [0, 0.08)", lo)
	}
	f, err := SimulationFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, notSteadyLegend) {
		t.Errorf("faded points, no legend entry %q", notSteadyLegend)
	}
	for i := range d.Loads {
		d.Loads[i].NotSteady = ""
	}
	if f, err = SimulationFigure(d); err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); strings.Contains(s, notSteadyLegend) {
		t.Errorf("no faded point, yet the legend names them")
	}
}

// Loads are labelled with the digits that tell them apart, and a load
// below 1 never reads "1"; one load gets the axis [0, 1] (gonum's default
// for a range of no width was [load - 1, load + 1]); ticks stand at the
// loads when they are far enough apart to read.
func TestLoadLabels(t *testing.T) {
	for _, c := range []struct {
		loads []float64
		want  []string
	}{
		{[]float64{0.3, 0.5, 0.7, 0.85}, []string{"0.3", "0.5", "0.7", "0.85"}},
		{[]float64{0.5, 0.50001}, []string{"0.5", "0.50001"}},         // 4 digits: "0.5" twice
		{[]float64{0.9999999}, []string{"0.9999999"}},                 // 4 to 6 digits: "1"
		{[]float64{0.12341, 0.12344}, []string{"0.12341", "0.12344"}}, // 4 digits: "0.1234" twice
	} {
		if got := LoadLabels(c.loads); !slices.Equal(got, c.want) {
			t.Errorf("LoadLabels(%v) = %q, want %q", c.loads, got, c.want)
		}
	}
	one := SimulationData{Loads: []LoadPoint{{Policy: "equi", Load: 0.5, Mean: 10, Lo: nan, Hi: nan}}}
	if lo, hi := one.loadRange(); lo != 0 || hi != 1 {
		t.Errorf("one load: axis [%g, %g], want [0, 1]", lo, hi)
	}
	d := simulationExample() // loads 0.3, 0.5, 0.7, 0.8, 0.9
	lo, hi := d.loadRange()
	var got []string
	for _, tk := range d.loadTicks(lo, hi) {
		got = append(got, fmt.Sprintf("%g:%s", tk.Value, tk.Label))
	}
	if want := []string{"0.3:0.3", "0.5:0.5", "0.7:0.7", "0.8:0.8", "0.9:0.9"}; !slices.Equal(got, want) {
		t.Errorf("ticks %q, want %q", got, want)
	}
	close := SimulationData{Loads: []LoadPoint{{Policy: "a", Load: 0.5, Mean: 1, Lo: nan, Hi: nan}, {Policy: "a", Load: 0.52, Mean: 1, Lo: nan, Hi: nan}, {Policy: "a", Load: 0.9, Mean: 1, Lo: nan, Hi: nan}}}
	if lo, hi := close.loadRange(); close.loadTicks(lo, hi) != nil {
		t.Errorf("loads 0.02 apart on an axis 0.4 wide: ticks at each, whose labels overlap")
	}
}

// Past the cluster the figure marks the best the cluster holds beside the
// curve's (the caption named N = 1 on one server first, the figure only
// N = 2), on an axis of the counts drawn with ticks at whole counts (it ran
// from 0, half of it empty, with ticks at 0.5 and 1.5); fitted lines that
// coincide are told apart from lines that differ.
func TestConvergenceCluster(t *testing.T) {
	d := lossExample()
	d.TimeMeasured = nil
	d.TimePredicted = []Band{{X: 1, Y: 24.93, Lo: 19.25, Hi: 32.28}, {X: 2, Y: 14.53, Lo: 8.934, Hi: 23.63}}
	if _, _, ok := d.ClusterBest(); ok {
		t.Errorf("no Servers, yet a cluster's best")
	}
	d.Servers = 1
	if w, s, ok := d.ClusterBest(); !ok || w != 1 || s != 24.93 {
		t.Errorf("ClusterBest = %g, %g, %v; want 1, 24.93", w, s, ok)
	}
	// counts 1 and 2: 0 would leave half the panel empty; 5% of the span
	// each side, [0.95, 2.05], ticks at 1 and 2
	if lo, hi := d.workersRange(); !within(lo, 0.95, 1e-12) || !within(hi, 2.05, 1e-12) {
		t.Errorf("workers axis [%g, %g], want [0.95, 2.05]", lo, hi)
	}
	var ticks []string
	for _, tk := range wholeTicks(0.95, 2.05) {
		ticks = append(ticks, tk.Label)
	}
	if !slices.Equal(ticks, []string{"1", "2"}) {
		t.Errorf("ticks %q, want 1 and 2", ticks)
	}
	f, err := ConvergenceFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	s := svgText(t, f)
	for _, want := range []string{"best on 1 server: N=1, 24.93 s", "still falling: N=2, 14.53 s"} {
		if !strings.Contains(s, want) {
			t.Errorf("the legend lacks %q", want)
		}
	}
	// 1 to 16 workers: from 0, as before
	if lo, _ := lossExample().workersRange(); lo != 0 {
		t.Errorf("1 to 16 workers: axis from %g, want 0", lo)
	}
	// lossExample's b0 falls with N: its lines differ; with one b0 for
	// every N (a staleness cost of 0) they coincide
	if lossExample().FitsCoincide() {
		t.Errorf("lines of different b0 coincide")
	}
	same := lossExample()
	for i := range same.Curves {
		same.Curves[i].FitLoss = slices.Clone(same.Curves[0].FitLoss)
	}
	if !same.FitsCoincide() {
		t.Errorf("identical fitted lines do not coincide")
	}
}
