package model

import (
	"math"
	"strings"
	"testing"
)

func TestLossCurve(t *testing.T) {
	l := LossCurve{B0: 0.01, B1: 0.5, B2: 0.1}
	// l(0) = 1/0.5 + 0.1 = 2.1; l(100) = 1/(1 + 0.5) + 0.1 = 0.76667.
	if got := l.Loss(0); !nearRel(got, 2.1, 1e-12) {
		t.Errorf("Loss(0) = %g, want 2.1", got)
	}
	if got := l.Loss(100); !nearRel(got, 1/1.5+0.1, 1e-12) {
		t.Errorf("Loss(100) = %g, want 0.76667", got)
	}
	cases := []struct {
		name    string
		curve   LossCurve
		loss    float64
		want    float64
		wantErr string
	}{
		// 1/(0.6 - 0.1) = 2; (2 - 0.5)/0.01 = 150.
		{"inverse", l, 0.6, 150, ""},
		// l(0) = 2.1 is already below 3: no update needed.
		{"already reached", l, 3, 0, ""},
		{"at the asymptote", l, 0.1, math.Inf(1), "asymptote"},
		{"below the asymptote", l, 0.05, math.Inf(1), "asymptote"},
		{"no progress", LossCurve{B1: 0.5, B2: 0.1}, 0.6, math.Inf(1), "b0 = 0"},
		{"NaN target", l, math.NaN(), math.NaN(), "NaN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.curve.UpdatesTo(c.loss)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.HasPrefix(err.Error(), "model: ") {
					t.Errorf("UpdatesTo(%g) error = %v, want one mentioning %q", c.loss, err, c.wantErr)
				}
			} else if err != nil {
				t.Fatalf("UpdatesTo(%g): %v", c.loss, err)
			}
			if !(math.IsNaN(c.want) && math.IsNaN(got)) && got != c.want && !nearRel(got, c.want, 1e-12) {
				t.Errorf("UpdatesTo(%g) = %g, want %g", c.loss, got, c.want)
			}
		})
	}
}

func TestLossCurveRoundTrip(t *testing.T) {
	for _, l := range []LossCurve{{B0: 0.01, B1: 0.5, B2: 0.1}, {B0: 3e-5, B1: 0.2, B2: -1}, {B0: 1, B1: 1e-3, B2: 0}} {
		for _, k := range []float64{1, 10, 1234, 1e6} {
			got, err := l.UpdatesTo(l.Loss(k))
			if err != nil {
				t.Fatalf("%+v: UpdatesTo(Loss(%g)): %v", l, k, err)
			}
			if !nearRel(got, k, 1e-7) {
				t.Errorf("%+v: UpdatesTo(Loss(%g)) = %.10g", l, k, got)
			}
		}
	}
	roundTrip(t, LossCurve{B0: 0.01, B1: 0.5, B2: 0.1}.asFamily())
	if err := (LossCurve{B0: 1, B2: math.Inf(1)}).Validate(); err == nil || !strings.Contains(err.Error(), "b2") {
		t.Errorf("Validate with B2 = +Inf: %v, want an error naming b2", err)
	}
}

// lossFamily adapts LossCurve to the Family constraint (it has no
// throughput) so that roundTrip can check its parameter vector.
type lossFamily struct{ LossCurve }

func (l LossCurve) asFamily() lossFamily               { return lossFamily{l} }
func (f lossFamily) StepsPerSecond(Config) float64     { return 1 / f.B0 }
func (f lossFamily) WithParams(p []float64) lossFamily { return lossFamily{f.LossCurve.WithParams(p)} }

func TestStalenessLaw(t *testing.T) {
	l := LossCurve{B0: 0.01, B1: 0.5, B2: 0.1}
	s := StalenessLaw{Lambda: 0.5}
	// tau = 3: factor 1/(1 + 1.5) = 0.4; B0 = 0.004;
	// updates to 0.6: (2 - 0.5)/0.004 = 375 = 150 * 2.5.
	if got := s.Factor(3); !nearRel(got, 0.4, 1e-12) {
		t.Errorf("Factor(3) = %g, want 0.4", got)
	}
	stale := s.Apply(l, 3)
	if stale.B1 != l.B1 || stale.B2 != l.B2 || !nearRel(stale.B0, 0.004, 1e-12) {
		t.Errorf("Apply(l, 3) = %+v, want B0 = 0.004 and B1, B2 unchanged", stale)
	}
	if got, _ := stale.UpdatesTo(0.6); !nearRel(got, 375, 1e-12) {
		t.Errorf("updates to 0.6 at tau = 3: %g, want 375", got)
	}
	// No staleness or Lambda = 0: the curve is unchanged.
	if got := s.Apply(l, 0); got != l {
		t.Errorf("Apply(l, 0) = %+v, want %+v", got, l)
	}
	if got := (StalenessLaw{}).Apply(l, 100); got != l {
		t.Errorf("zero law Apply(l, 100) = %+v, want %+v", got, l)
	}
	if err := (StalenessLaw{Lambda: -0.1}).Validate(); err == nil || !strings.Contains(err.Error(), "lambda") {
		t.Errorf("Validate(-0.1) = %v, want an error naming lambda", err)
	}
	if got := (StalenessLaw{}).WithParams([]float64{0.25}).Params(); got[0] != 0.25 {
		t.Errorf("WithParams round trip: %v", got)
	}
}

func TestGNS(t *testing.T) {
	g := GNS{Noise: 1000, RefBatch: 100}
	cases := []struct {
		b, eff, steps float64
	}{
		{100, 1, 1},
		// (1000 + 100)/(1000 + 400) = 0.78571; (1 + 2.5)/(1 + 10) = 0.31818,
		// = 100/(400 * 0.78571).
		{400, 1100.0 / 1400, 3.5 / 11},
		// (1100)/(1050) = 1.04762; (1 + 20)/(11) = 1.90909.
		{50, 1100.0 / 1050, 21.0 / 11},
	}
	for _, c := range cases {
		if got := g.Efficiency(c.b); !nearRel(got, c.eff, 1e-12) {
			t.Errorf("Efficiency(%g) = %g, want %g", c.b, got, c.eff)
		}
		if got := g.StepsRatio(c.b); !nearRel(got, c.steps, 1e-12) {
			t.Errorf("StepsRatio(%g) = %g, want %g", c.b, got, c.steps)
		}
		// McCandlish: S = S_min (1 + Noise/b); E = S b = E_min (1 + b/Noise).
		if got, want := g.StepsRatio(c.b), g.RefBatch/(c.b*g.Efficiency(c.b)); !nearRel(got, want, 1e-12) {
			t.Errorf("StepsRatio(%g) = %g, RefBatch/(b E) = %g", c.b, got, want)
		}
	}
	// Limits: a huge noise scale makes every sample count (steps ~ 1/b),
	// a tiny one makes a larger batch save no steps.
	if got := (GNS{Noise: 1e12, RefBatch: 100}).StepsRatio(400); !nearRel(got, 0.25, 1e-8) {
		t.Errorf("large noise StepsRatio(400) = %g, want 0.25", got)
	}
	if got := (GNS{Noise: 0, RefBatch: 100}).StepsRatio(400); got != 1 {
		t.Errorf("zero noise StepsRatio(400) = %g, want 1", got)
	}
	if got := (GNS{}).Efficiency(400); got != 1 {
		t.Errorf("zero GNS Efficiency = %g, want 1", got)
	}
	// 6/2 = 3 per sample; at a batch of 128 samples, 128 * 3 = 384.
	if b, err := NoiseScale(2, 6, 1); err != nil || b != 3 {
		t.Errorf("NoiseScale(2, 6, 1) = %g, %v, want 3", b, err)
	}
	if b, err := NoiseScale(2, 6, 128); err != nil || b != 384 {
		t.Errorf("NoiseScale(2, 6, 128) = %g, %v, want 384", b, err)
	}
	for _, bad := range [][3]float64{{0, 1, 1}, {-1, 1, 1}, {1, -1, 1}, {math.NaN(), 1, 1}, {1, math.Inf(1), 1}, {1, 1, 0}} {
		if _, err := NoiseScale(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("NoiseScale(%g, %g, %g): no error", bad[0], bad[1], bad[2])
		}
	}
	if err := (GNS{Noise: -1}).Validate(); err == nil {
		t.Error("GNS{Noise: -1}.Validate() = nil")
	}
}

func TestSamplesPerStep(t *testing.T) {
	c := Config{Workers: 4}
	cases := []struct {
		name     string
		m        Throughput
		c        Config
		fallback float64
		want     float64
	}{
		{"syncps global batch", SyncPS{Compute0: 1, Batch: 32}, c, 7, 128},
		{"syncps config batch", SyncPS{Compute0: 1, Batch: 32}, Config{Workers: 4, Batch: 10}, 7, 40},
		{"ring", RingAllReduce{Compute0: 1, Batch: 32}, c, 7, 128},
		{"pollux", Pollux{AlphaGrad: 1, Gamma: 1, Batch: 32}, c, 7, 128},
		{"optimus-sync global", OptimusSync{Theta1: 1, GlobalBatch: 256}, c, 7, 256},
		{"optimus-sync local", OptimusSync{Theta1: 1, GlobalBatch: 256}, Config{Workers: 4, Batch: 16}, 7, 64},
		{"optimus-async own", OptimusAsync{Theta0: 1, Batch: 32}, c, 7, 32},
		{"optimus-async unknown: fallback", OptimusAsync{Theta0: 1}, c, 7, 7},
		{"no StepSizer: fallback", PowerLaw{P: 1, Rate: 1}, c, 7, 7},
		{"no StepSizer: config batch", PowerLaw{P: 1, Rate: 1}, Config{Workers: 4, Batch: 5}, 7, 5},
		{"sync model without batch: fallback", RingAllReduce{Compute0: 1}, c, 7, 7},
	}
	for _, tc := range cases {
		if got := SamplesPerStep(tc.m, tc.c, tc.fallback); got != tc.want {
			t.Errorf("%s: SamplesPerStep = %g, want %g", tc.name, got, tc.want)
		}
	}
	if got := StalenessOf(OptimusAsync{Theta0: 1}, Config{Workers: 5}); got != 4 {
		t.Errorf("OptimusAsync staleness at 5 workers = %g, want 4", got)
	}
	if got := StalenessOf(SyncPS{Compute0: 1}, Config{Workers: 5}); got != 0 {
		t.Errorf("SyncPS staleness = %g, want 0", got)
	}
}

// MeanLoss is the mean of the curve over a span of updates: checked against
// Simpson's rule, and at the limits (an empty span, a zero rate, a span so
// short that the closed form's quotient would lose its digits).
func TestLossCurveMeanLoss(t *testing.T) {
	c := LossCurve{B0: 0.01, B1: 0.4, B2: 0.2}
	simpson := func(a, b float64) float64 {
		const n = 20000
		h := (b - a) / n
		s := c.Loss(a) + c.Loss(b)
		for i := 1; i < n; i++ {
			w := 2.0
			if i%2 == 1 {
				w = 4
			}
			s += w * c.Loss(a+float64(i)*h)
		}
		return s * h / 3 / (b - a)
	}
	for _, ab := range [][2]float64{{0, 130}, {0, 1}, {500, 2000}, {1e4, 1e4 + 50}} {
		got, want := c.MeanLoss(ab[0], ab[1]), simpson(ab[0], ab[1])
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("mean over [%g, %g] = %.12g, Simpson %.12g", ab[0], ab[1], got, want)
		}
		if mid := c.Loss((ab[0] + ab[1]) / 2); !(got > mid) {
			t.Errorf("mean over [%g, %g] = %g, not above the middle's %g (convex)", ab[0], ab[1], got, mid)
		}
	}
	if got := c.MeanLoss(7, 7); got != c.Loss(7) {
		t.Errorf("empty span: %g, want l(7) = %g", got, c.Loss(7))
	}
	if got, want := c.MeanLoss(100, 100+1e-9), c.Loss(100+0.5e-9); math.Abs(got-want) > 1e-15 {
		t.Errorf("tiny span: %.16g, want %.16g", got, want)
	}
	flat := LossCurve{B1: 2, B2: 0.1}
	if got := flat.MeanLoss(0, 100); got != 0.6 {
		t.Errorf("zero rate: %g, want 0.6", got)
	}
}
