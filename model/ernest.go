package model

import "math"

// Ernest is the four-term scaling model of Venkataraman, Yang, Franklin,
// Recht and Stoica, "Ernest: efficient performance prediction for large-scale
// advanced analytics", NSDI 2016, for a fixed amount of data per step (the
// scale term fixed at one step's data): on m machines a step takes
//
//	T(m) = Theta0 + Theta1/m + Theta2 log(m) + Theta3 m
//
// seconds: a serial part, the parallel part of the work, a tree aggregation
// (natural logarithm) and an all-to-one or per-machine overhead. m is
// Config.Workers; StepsPerSecond is 1/T(m).
type Ernest struct {
	Theta0 float64 // s, serial time
	Theta1 float64 // s, parallel work on one machine
	Theta2 float64 // s per e-fold of machines, tree aggregation
	Theta3 float64 // s per machine, linear overhead
}

// Family returns "ernest".
func (Ernest) Family() string { return "ernest" }

// ParamNames returns the fitted parameters' names with units.
func (Ernest) ParamNames() []string {
	return []string{"theta0 (s)", "theta1 (s)", "theta2 (s)", "theta3 (s/worker)"}
}

// Params returns Theta0..Theta3.
func (m Ernest) Params() []float64 { return []float64{m.Theta0, m.Theta1, m.Theta2, m.Theta3} }

// WithParams returns m with the parameters of Params set from p.
func (m Ernest) WithParams(p []float64) Ernest {
	checkLen("Ernest", p, 4)
	m.Theta0, m.Theta1, m.Theta2, m.Theta3 = p[0], p[1], p[2], p[3]
	return m
}

// Validate reports a negative parameter (Ernest fits them with non-negative
// least squares).
func (m Ernest) Validate() error {
	return checkNonNegative("Ernest", m.ParamNames(), m.Params())
}

// StepTime returns T(m) in seconds.
func (m Ernest) StepTime(c Config) float64 {
	k := workers("Ernest", c)
	return m.Theta0 + m.Theta1/k + m.Theta2*math.Log(k) + m.Theta3*k
}

// StepsPerSecond returns 1/T(m), steps per second.
func (m Ernest) StepsPerSecond(c Config) float64 { return 1 / m.StepTime(c) }
