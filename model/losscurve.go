package model

import (
	"fmt"
	"math"
)

// LossCurve is the loss after k global updates in Optimus's form (Peng et
// al., EuroSys 2018, convergence estimation):
//
//	l(k) = 1/(B0 k + B1) + B2
//
// B0 is the convergence rate (larger is faster), 1/B1 + B2 the loss at k = 0
// and B2 the loss it tends to. The loss is any decreasing metric (training
// or validation loss, 1 - accuracy); its unit is the metric's. It follows
// the family convention of families.go (Params, WithParams, ParamNames).
type LossCurve struct {
	B0 float64 // 1/(loss unit * update), convergence rate, >= 0
	B1 float64 // 1/(loss unit), >= 0
	B2 float64 // loss unit, asymptote
}

// Loss returns l(k) for k global updates.
func (l LossCurve) Loss(k float64) float64 { return 1/(l.B0*k+l.B1) + l.B2 }

// MeanLoss is the mean of l(k) over k in [a, b], a <= b: what the mean of
// the losses of steps spread evenly over those updates measures. For the
// convex curve it is above l((a+b)/2) (Jensen), and the more so the wider
// the span; a curve fitted to such means at their middle update reads
// wide spans (runs whose bins cover many updates: more workers) as slow
// progress. The closed form is B2 + ln((B0 b + B1)/(B0 a + B1)) / (B0 (b - a)),
// evaluated with log1p; l(a) when b - a is 0 or B0 is 0.
func (l LossCurve) MeanLoss(a, b float64) float64 { return l.MeanExcess(a, b) + l.B2 }

// MeanExcess is MeanLoss less B2, the mean of 1/(B0 k + B1) over [a, b]:
// MeanExcess(a, b) + B2 is MeanLoss(a, b) bit for bit (the staleness fit's
// finite differences move B2 alone on it).
func (l LossCurve) MeanExcess(a, b float64) float64 {
	d := l.B0 * (b - a)
	lo := l.B0*a + l.B1
	if !(d > 0) || !(lo > 0) {
		return 1 / (l.B0*a + l.B1)
	}
	x := d / lo
	if x < 1e-8 {
		// ln(1+x)/x = 1 - x/2 + x^2/3: the quotient loses digits
		return (1 - x/2 + x*x/3) / lo
	}
	return math.Log1p(x) / d
}

// UpdatesTo returns the global updates needed to bring the loss down to
// loss: k = (1/(loss - B2) - B1)/B0, and 0 when l(0) is already at or below
// loss. A loss at or below the asymptote B2, or a zero rate B0 with the
// target not yet reached, is never reached: it returns +Inf and an error.
func (l LossCurve) UpdatesTo(loss float64) (float64, error) {
	if math.IsNaN(loss) {
		return math.NaN(), fmt.Errorf("model: LossCurve: target loss is NaN")
	}
	if loss <= l.B2 {
		return math.Inf(1), fmt.Errorf("model: LossCurve: target loss %g is at or below the asymptote b2 = %g and is never reached", loss, l.B2)
	}
	k := (1/(loss-l.B2) - l.B1)
	if k <= 0 {
		return 0, nil
	}
	if l.B0 == 0 {
		return math.Inf(1), fmt.Errorf("model: LossCurve: convergence rate b0 = 0: target loss %g is never reached", loss)
	}
	return k / l.B0, nil
}

// Family returns "losscurve".
func (LossCurve) Family() string { return "losscurve" }

// ParamNames returns the parameters' names with units.
func (LossCurve) ParamNames() []string {
	return []string{"b0 (1/(loss*update))", "b1 (1/loss)", "b2 (loss)"}
}

// Params returns B0, B1, B2.
func (l LossCurve) Params() []float64 { return []float64{l.B0, l.B1, l.B2} }

// WithParams returns the curve with B0, B1, B2 set from p.
func (l LossCurve) WithParams(p []float64) LossCurve {
	checkLen("LossCurve", p, 3)
	return LossCurve{B0: p[0], B1: p[1], B2: p[2]}
}

// Validate reports a negative or non-finite B0 or B1, or a non-finite B2.
func (l LossCurve) Validate() error {
	names := l.ParamNames()
	if err := checkNonNegative("LossCurve", names[:2], []float64{l.B0, l.B1}); err != nil {
		return err
	}
	if math.IsNaN(l.B2) || math.IsInf(l.B2, 0) {
		return fmt.Errorf("model: LossCurve: parameter %s = %g, want a finite value", names[2], l.B2)
	}
	return nil
}
