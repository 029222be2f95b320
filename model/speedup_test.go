package model

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// asyncGoal is a loss target on a curve that needs 150 updates without
// staleness: 1/(0.6 - 0.1) = 2, (2 - 0.5)/0.01 = 150.
var asyncGoal = Goal{
	TargetLoss: 0.6,
	Curve:      LossCurve{B0: 0.01, B1: 0.5, B2: 0.1},
	Law:        StalenessLaw{Lambda: 0.5},
}

func TestGoalStalenessHandWorked(t *testing.T) {
	// Workers never contend (only Theta0 = 0.1 s): X(N) = N/0.1 = 10 N
	// updates/s; staleness N-1, so U(N) = 150 (1 + 0.5 (N-1)).
	m := OptimusAsync{Theta0: 0.1, Batch: 32}
	pts, err := Sweep(m, asyncGoal, Scaling{PS: 1}, []int{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ updates, time, speedup float64 }{
		{150, 15, 1},         // 150/10 = 15 s
		{225, 11.25, 4. / 3}, // 150*1.5 = 225; 225/20 = 11.25; 15/11.25
		{300, 10, 1.5},       // 150*2 = 300; 300/30 = 10
		{375, 9.375, 1.6},    // 150*2.5 = 375; 375/40 = 9.375; 15/9.375
	}
	for i, p := range pts {
		w := want[i]
		if !p.Timed || !nearRel(p.Updates, w.updates, 1e-12) || !nearRel(p.Time, w.time, 1e-12) || !nearRel(p.Speedup, w.speedup, 1e-12) {
			t.Errorf("N=%d: updates %g time %g speedup %g, want %g %g %g", p.Workers, p.Updates, p.Time, p.Speedup, w.updates, w.time, w.speedup)
		}
		if n := float64(p.Workers); p.Staleness != n-1 || !nearRel(p.SamplesPerSecond, 10*n*32, 1e-12) || !nearRel(p.Efficiency, w.speedup/n, 1e-12) {
			t.Errorf("N=%d: staleness %g samples/s %g efficiency %g", p.Workers, p.Staleness, p.SamplesPerSecond, p.Efficiency)
		}
	}
}

func TestStalenessLawIsAmdahl(t *testing.T) {
	// Independent closed form: linear throughput with the staleness law gives
	// s(N) = N/(1 + lambda (N-1)) = N/((1-lambda) + lambda N): Amdahl's law
	// with serial fraction F = lambda.
	for _, lambda := range []float64{0.02, 0.3, 1} {
		g := asyncGoal
		g.Law.Lambda = lambda
		curve, err := SpeedupCurveOf(OptimusAsync{Theta0: 0.25}, g, Scaling{}, 64)
		if err != nil {
			t.Fatal(err)
		}
		a := Amdahl{F: lambda}
		for k := 1; k <= 64; k++ {
			if got, want := curve.Speedup(float64(k)), a.Speedup(float64(k)); !nearRel(got, want, 1e-12) {
				t.Fatalf("lambda %g: s(%d) = %.12g, Amdahl %.12g", lambda, k, got, want)
			}
		}
	}
}

func TestKneeAndBest(t *testing.T) {
	// s(N) = 2N/(N+1) (lambda = 0.5 above): s(N+1) - s(N) = 2/((N+1)(N+2)),
	// below 0.08 when (N+1)(N+2) > 25: N = 4 (30), not N = 3 (20).
	// Efficiency 2/(N+1) >= 0.3 while N+1 <= 6.67: N = 5.
	pts, err := Sweep(OptimusAsync{Theta0: 0.1}, asyncGoal, Scaling{}, Range(1, 8))
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := Knee(pts, 0.08); n != 4 || !ok {
		t.Errorf("Knee(0.08) = %d, %v, want 4, true", n, ok)
	}
	// Every step gains at least 2/(9*10) = 0.022 > 0.01: no knee in 1..8.
	if n, ok := Knee(pts, 0.01); n != 8 || ok {
		t.Errorf("Knee(0.01) = %d, %v, want 8, false", n, ok)
	}
	if n, ok := MaxEfficient(pts, 0.3); n != 5 || !ok {
		t.Errorf("MaxEfficient(0.3) = %d, %v, want 5, true", n, ok)
	}
	if n, ok := MaxEfficient(pts, 1.5); ok {
		t.Errorf("MaxEfficient(1.5) = %d, true, want none", n)
	}
	// The speedup rises to 16/9 at N = 8: fastest at 8. Worker-seconds
	// N/s(N) = (N+1)/2 grow with N: cheapest at 1.
	if p := BestTime(pts); p.Workers != 8 {
		t.Errorf("BestTime = %d, want 8", p.Workers)
	}
	if p := BestCost(pts); p.Workers != 1 {
		t.Errorf("BestCost = %d, want 1", p.Workers)
	}

	// A hand-made table with a superlinear step and a decline:
	// N:       1  2    4    8
	// s:       1  2.2  3.0  2.5
	// N/s:     1  0.909 1.333 3.2   -> cheapest at 2
	// gain/N:  1.2, 0.4, -0.125     -> knee at 0.5 is 2, at 0.3 is 4
	tab := []Point{
		{Config: Config{Workers: 1}, Speedup: 1, Efficiency: 1},
		{Config: Config{Workers: 2}, Speedup: 2.2, Efficiency: 1.1},
		{Config: Config{Workers: 4}, Speedup: 3, Efficiency: 0.75},
		{Config: Config{Workers: 8}, Speedup: 2.5, Efficiency: 2.5 / 8},
	}
	if n, _ := Knee(tab, 0.5); n != 2 {
		t.Errorf("table Knee(0.5) = %d, want 2", n)
	}
	if n, _ := Knee(tab, 0.3); n != 4 {
		t.Errorf("table Knee(0.3) = %d, want 4", n)
	}
	if p := BestTime(tab); p.Workers != 4 {
		t.Errorf("table BestTime = %d, want 4", p.Workers)
	}
	if p := BestCost(tab); p.Workers != 2 {
		t.Errorf("table BestCost = %d, want 2", p.Workers)
	}
	if n, _ := MaxEfficient(tab, 0.75); n != 4 {
		t.Errorf("table MaxEfficient(0.75) = %d, want 4", n)
	}
	if n, ok := Knee(nil, 0.5); n != 0 || ok {
		t.Errorf("Knee(nil) = %d, %v", n, ok)
	}
}

func TestGoalEpochsAndGNS(t *testing.T) {
	// Epochs: 2 * 1000 samples / 10 samples per step = 200 steps; PowerLaw
	// 10 N^0.5 steps/s: T(1) = 20 s, T(4) = 200/20 = 10 s, s(4) = 2 = 4^0.5.
	g := Goal{Epochs: 2, Dataset: 1000, Batch: 10}
	pts, err := Sweep(PowerLaw{P: 0.5, Rate: 10}, g, Scaling{}, []int{1, 4})
	if err != nil {
		t.Fatal(err)
	}
	if p := pts[1]; !nearRel(p.Updates, 200, 1e-12) || !nearRel(p.Time, 10, 1e-12) || !nearRel(p.Speedup, 2, 1e-12) {
		t.Errorf("epochs N=4: %+v", p)
	}
	if !nearRel(pts[0].Time, 20, 1e-12) {
		t.Errorf("epochs N=1: time %g, want 20", pts[0].Time)
	}

	// Synchronous, compute only (0.1 s per step at any N), per-worker batch
	// 100, loss curve at global batch 100 needing 150 steps, noise scale
	// 1000: at N = 4 the global batch is 400, steps 150 * 3.5/11 = 47.727,
	// time 4.7727 s against 15 s: s(4) = 3.1429 = 4 * E(400) = 4 * 1100/1400.
	sg := Goal{TargetLoss: 0.6, Curve: asyncGoal.Curve, GNS: GNS{Noise: 1000, RefBatch: 100}}
	pts, err = Sweep(RingAllReduce{Compute0: 0.1, Batch: 100}, sg, Scaling{}, []int{1, 4})
	if err != nil {
		t.Fatal(err)
	}
	if p := pts[1]; !nearRel(p.Updates, 150*3.5/11, 1e-12) || !nearRel(p.Speedup, 4*1100.0/1400, 1e-12) || p.Staleness != 0 {
		t.Errorf("GNS N=4: %+v", p)
	}
	if !nearRel(pts[0].Updates, 150, 1e-12) {
		t.Errorf("GNS N=1: updates %g, want 150", pts[0].Updates)
	}
}

func TestNoTarget(t *testing.T) {
	// No target: speedup in samples/s. Ring with Transfer = InterTransfer =
	// 0.04 s: T(4) = 0.1 + 1.5*0.04 = 0.16 s for 400 samples = 2500 samples/s;
	// T(1) = 0.1 s for 100 = 1000 samples/s; s(4) = 2.5.
	m := RingAllReduce{Compute0: 0.1, Transfer: 0.04, InterTransfer: 0.04, Batch: 100}
	pts, err := Sweep(m, Goal{}, Scaling{}, []int{1, 4})
	if err != nil {
		t.Fatal(err)
	}
	p := pts[1]
	if p.Timed || p.Time != 0 || p.Updates != 0 || !nearRel(p.SamplesPerSecond, 2500, 1e-12) || !nearRel(p.Speedup, 2.5, 1e-12) {
		t.Errorf("no target N=4: %+v", p)
	}
	// Samples per step unknown and constant: speedup is the rate ratio.
	pts, err = Sweep(PowerLaw{P: 0.5, Rate: 3}, Goal{}, Scaling{}, []int{9})
	if err != nil {
		t.Fatal(err)
	}
	if p := pts[0]; p.SamplesPerSecond != 0 || !nearRel(p.Speedup, 3, 1e-12) {
		t.Errorf("no target, no batch, N=9: %+v", p)
	}
	if _, err := (Goal{}).Time(m, Config{Workers: 1}); !errors.Is(err, ErrNoTarget) {
		t.Errorf("Time without target: %v, want ErrNoTarget", err)
	}
}

func TestSweepErrors(t *testing.T) {
	m := OptimusAsync{Theta0: 0.1}
	cases := []struct {
		name string
		g    Goal
		ns   []int
		want string
	}{
		{"empty", asyncGoal, nil, "no worker counts"},
		{"descending", asyncGoal, []int{4, 2}, "ascending"},
		{"duplicate", asyncGoal, []int{2, 2}, "ascending"},
		{"zero workers", asyncGoal, []int{0, 2}, ">= 1"},
		{"unreachable loss", Goal{TargetLoss: 0.05, Curve: asyncGoal.Curve}, []int{1, 2}, "asymptote"},
		// reached at k = 0: speedups were 0/0 (NaN) with no error
		{"loss met at the start", Goal{TargetLoss: 1/asyncGoal.Curve.B1 + asyncGoal.Curve.B2 + 1, Curve: asyncGoal.Curve}, []int{1, 2}, "reached before any update"},
		{"epochs without batch", Goal{Epochs: 1, Dataset: 100}, []int{1}, "samples per step"},
		{"epochs without dataset", Goal{Epochs: 1, Batch: 10}, []int{1}, "dataset size"},
		{"GNS without batch", Goal{TargetLoss: 0.6, Curve: asyncGoal.Curve, GNS: GNS{Noise: 1, RefBatch: 1}}, []int{1}, "batch-size efficiency"},
	}
	for _, c := range cases {
		_, err := Sweep(m, c.g, Scaling{}, c.ns)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "model: ") {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	// A model with no throughput at some N is an error, not an Inf time.
	if _, err := Sweep(Ernest{}, Goal{}, Scaling{}, []int{1}); err == nil {
		t.Error("Sweep of a zero Ernest (infinite rate): no error")
	}
}

func TestScalingAt(t *testing.T) {
	cases := []struct {
		s    Scaling
		n    int
		want Config
	}{
		{Scaling{PS: 2, PerNode: 4, Batch: 32}, 9, Config{Workers: 9, PS: 2, Nodes: 3, Batch: 32}}, // ceil(9/4) = 3
		{Scaling{PerNode: 4}, 4, Config{Workers: 4, Nodes: 1}},
		{Scaling{}, 5, Config{Workers: 5}}, // Nodes 0: one per worker
	}
	for _, c := range cases {
		if got := c.s.At(c.n); got != c.want {
			t.Errorf("%+v.At(%d) = %+v, want %+v", c.s, c.n, got, c.want)
		}
	}
	if got := Range(3, 5); len(got) != 3 || got[0] != 3 || got[2] != 5 {
		t.Errorf("Range(3, 5) = %v", got)
	}
	if got := Range(5, 3); len(got) != 0 {
		t.Errorf("Range(5, 3) = %v, want empty", got)
	}
}

func TestSpeedupCurve(t *testing.T) {
	c := SpeedupCurve{S: []float64{1, 1.8, 2.4, 2.2}}
	cases := []struct{ k, want float64 }{
		{-1, 0}, {0, 0},
		{0.5, 0.5},   // from (0, 0) to (1, 1)
		{1, 1},       // table
		{1.5, 1.4},   // (1 + 1.8)/2
		{2.25, 1.95}, // 1.8 + 0.25*0.6
		{3.5, 2.3},   // 2.4 - 0.5*0.2
		{4, 2.2},     // table end
		{10, 2.2},    // flat beyond the table
	}
	for _, tc := range cases {
		if got := c.Speedup(tc.k); !nearRel(got, tc.want, 1e-12) {
			t.Errorf("Speedup(%g) = %g, want %g", tc.k, got, tc.want)
		}
	}
	mono := c.Monotone()
	if want := []float64{1, 1.8, 2.4, 2.4}; mono.S[3] != want[3] || mono.S[2] != want[2] || c.S[3] != 2.2 {
		t.Errorf("Monotone = %v (original %v), want %v and the original unchanged", mono.S, c.S, want)
	}
	// Increments 0.8, 0.6, -0.2.
	for _, tc := range []struct {
		alpha float64
		want  int
	}{{0.5, 3}, {0.7, 2}, {0.9, 1}, {-1, 4}} {
		if got := c.Knee(tc.alpha); got != tc.want {
			t.Errorf("Knee(%g) = %d, want %d", tc.alpha, got, tc.want)
		}
	}
	if got := (SpeedupCurve{}).Speedup(3); got != 0 {
		t.Errorf("empty curve Speedup(3) = %g", got)
	}
	if err := (SpeedupCurve{}).Validate(); err == nil {
		t.Error("empty curve: Validate() = nil")
	}
	if err := (SpeedupCurve{S: []float64{1, math.NaN()}}).Validate(); err == nil || !strings.Contains(err.Error(), "s(2)") {
		t.Errorf("NaN curve: Validate() = %v, want an error naming s(2)", err)
	}
	if _, err := SpeedupCurveOf(PowerLaw{P: 1, Rate: 1}, Goal{}, Scaling{}, 0); err == nil {
		t.Error("SpeedupCurveOf(maxN = 0): no error")
	}
	// A power law tabulated then read back at the integers and between them.
	pl, err := SpeedupCurveOf(PowerLaw{P: 0.5, Rate: 2}, Goal{}, Scaling{}, 16)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 16; k++ {
		if got, want := pl.Speedup(float64(k)), math.Sqrt(float64(k)); !nearRel(got, want, 1e-12) {
			t.Errorf("power-law curve s(%d) = %g, want %g", k, got, want)
		}
	}
	// Between integers a chord of a concave curve lies below it:
	// s(2.5) = (sqrt 2 + sqrt 3)/2 = 1.5731 < sqrt 2.5 = 1.5811.
	if got := pl.Speedup(2.5); !nearRel(got, (math.Sqrt2+math.Sqrt(3))/2, 1e-12) {
		t.Errorf("power-law curve s(2.5) = %g", got)
	}
}

// TestSweepUsesQueueingStaleness checks the hand-off with the queueing
// network: Sweep takes AsyncPS's own staleness (through Stalenesser) and
// slows the loss curve by it.
func TestSweepUsesQueueingStaleness(t *testing.T) {
	var _ Stalenesser = AsyncPS{}
	a := AsyncPS{Compute0: 0.1, Apply: 0.02, Batch: 32}
	pts, err := Sweep(a, asyncGoal, Scaling{PS: 1, Batch: 32}, []int{1, 4, 16})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		tau := a.Staleness(p.Config)
		// U = 150 (1 + 0.5 tau): the curve needs 150 updates without staleness.
		if p.Staleness != tau || !nearRel(p.Updates, 150*(1+0.5*tau), 1e-12) {
			t.Errorf("N=%d: staleness %g (model %g), updates %g, want %g", p.Workers, p.Staleness, tau, p.Updates, 150*(1+0.5*tau))
		}
		if x := a.StepsPerSecond(p.Config); !nearRel(p.Time, p.Updates/x, 1e-12) || !nearRel(p.SamplesPerSecond, 32*x, 1e-12) {
			t.Errorf("N=%d: time %g, samples/s %g; rate %g", p.Workers, p.Time, p.SamplesPerSecond, x)
		}
	}
	if pts[2].Staleness <= pts[1].Staleness || pts[1].Staleness <= 0 {
		t.Errorf("staleness does not grow with N: %g, %g, %g", pts[0].Staleness, pts[1].Staleness, pts[2].Staleness)
	}
}

// BestTime and BestCost break ties toward the smallest N, whatever the
// order of the points.
//
//	linear, N = 1, 2, 4, s = 1, 2, 4: N/s = 1, 1, 1, a three-way tie in
//	worker-seconds: BestCost is N = 1 (its doc: N = 1 when the speedup is
//	never superlinear); BestTime is 4, the one highest speedup.
//	flat, N = 1, 2, 4, s = 1, 2, 2: the highest speedup, 2, at N = 2 and
//	4: BestTime is 2; N/s = 1, 1, 2, a tie of N = 1 and 2: BestCost is 1.
//
// Each table is given ascending and reversed, so that a tie left to the
// order of the points (MinFunc keeps the first) fails too.
func TestBestTies(t *testing.T) {
	table := func(s ...float64) []Point {
		pts := make([]Point, len(s))
		for i, v := range s {
			n := 1 << i
			pts[i] = Point{Config: Config{Workers: n}, Speedup: v, Efficiency: v / float64(n)}
		}
		return pts
	}
	for _, c := range []struct {
		name       string
		pts        []Point
		time, cost int
	}{
		{"linear", table(1, 2, 4), 4, 1},
		{"flat", table(1, 2, 2), 2, 1},
	} {
		for _, order := range []string{"ascending", "descending"} {
			pts := slices.Clone(c.pts)
			if order == "descending" {
				slices.Reverse(pts)
			}
			if p := BestTime(pts); p.Workers != c.time {
				t.Errorf("%s, %s: BestTime = %d, want %d", c.name, order, p.Workers, c.time)
			}
			if p := BestCost(pts); p.Workers != c.cost {
				t.Errorf("%s, %s: BestCost = %d, want %d", c.name, order, p.Workers, c.cost)
			}
		}
	}
}
