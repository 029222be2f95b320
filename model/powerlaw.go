package model

import (
	"fmt"
	"math"
)

// PowerLaw is the speedup curve s(k) = k^P that heSRPT assumes (Berg, Vesilo
// and Harchol-Balter, 2020): P = 1 is linear, P = 0 no speedup, and 0 < P < 1
// concave. Rate is the rate on one worker, so StepsPerSecond is Rate N^P.
type PowerLaw struct {
	P    float64 // dimensionless exponent, >= 0
	Rate float64 // steps/s on one worker
}

// Speedup returns k^P for k > 0 and 0 for k <= 0 (no servers, no progress).
// k is continuous: the planner gives jobs fractions of servers.
func (m PowerLaw) Speedup(k float64) float64 {
	if k <= 0 {
		return 0
	}
	return math.Pow(k, m.P)
}

// StepsPerSecond returns Rate * Workers^P.
func (m PowerLaw) StepsPerSecond(c Config) float64 {
	return m.Rate * m.Speedup(workers("PowerLaw", c))
}

// Family returns "powerlaw".
func (PowerLaw) Family() string { return "powerlaw" }

// ParamNames returns the fitted parameters' names with units.
func (PowerLaw) ParamNames() []string { return []string{"p (1)", "rate (steps/s)"} }

// Params returns P, Rate.
func (m PowerLaw) Params() []float64 { return []float64{m.P, m.Rate} }

// WithParams returns m with the parameters of Params set from p.
func (m PowerLaw) WithParams(p []float64) PowerLaw {
	checkLen("PowerLaw", p, 2)
	m.P, m.Rate = p[0], p[1]
	return m
}

// Validate reports a negative exponent or rate.
func (m PowerLaw) Validate() error {
	return checkNonNegative("PowerLaw", m.ParamNames(), m.Params())
}

// Amdahl is Amdahl's law: a fraction F of the one-worker time is serial, so
// s(k) = 1 / (F + (1-F)/k) (Amdahl, AFIPS 1967). F = 0 is linear speedup,
// F = 1 none; s(k) never exceeds 1/F. Rate is the rate on one worker, so
// StepsPerSecond is Rate s(N).
type Amdahl struct {
	F    float64 // dimensionless serial fraction, in [0, 1]
	Rate float64 // steps/s on one worker
}

// Speedup returns 1/(F + (1-F)/k) for k > 0 and 0 for k <= 0.
func (m Amdahl) Speedup(k float64) float64 {
	if k <= 0 {
		return 0
	}
	return 1 / (m.F + (1-m.F)/k)
}

// StepsPerSecond returns Rate * s(Workers).
func (m Amdahl) StepsPerSecond(c Config) float64 {
	return m.Rate * m.Speedup(workers("Amdahl", c))
}

// Family returns "amdahl".
func (Amdahl) Family() string { return "amdahl" }

// ParamNames returns the fitted parameters' names with units.
func (Amdahl) ParamNames() []string { return []string{"f (1)", "rate (steps/s)"} }

// Params returns F, Rate.
func (m Amdahl) Params() []float64 { return []float64{m.F, m.Rate} }

// WithParams returns m with the parameters of Params set from p.
func (m Amdahl) WithParams(p []float64) Amdahl {
	checkLen("Amdahl", p, 2)
	m.F, m.Rate = p[0], p[1]
	return m
}

// Validate reports F outside [0, 1] or a negative rate.
func (m Amdahl) Validate() error {
	if err := checkNonNegative("Amdahl", m.ParamNames(), m.Params()); err != nil {
		return err
	}
	if m.F > 1 {
		return fmt.Errorf("model: Amdahl: parameter f (1) = %g, want <= 1", m.F)
	}
	return nil
}
