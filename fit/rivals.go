package fit

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sgdplan/sgdplan/model"
)

// Rival is another fit that the data cannot tell from the chosen one, and
// whose predictions therefore belong in the prediction intervals beside the
// bootstrap's (which cover only the noise of the measurements, given the
// chosen form). Two kinds:
//
//   - another family whose cross-validated error is within one standard
//     error of the lowest (the set the one-standard-error rule treats as
//     indistinguishable): a rival form;
//   - for a family with at least as many parameters as configurations,
//     another parameter vector of the chosen family, found from a random
//     starting point, whose RMSLE on the data is within RivalTol of the
//     fit's: the data leave those parameters free, and where the two
//     vectors disagree, nothing in the data says which is right.
//
// Far from the data rivals can disagree by much more than the bootstrap
// interval; near the data they agree and the interval does not widen.
type Rival struct {
	Family string    `json:"family"`
	Theta  []float64 `json:"parameters"`
	// Why is "form" (another family) or "start" (the same family from
	// another starting point).
	Why string `json:"why"`

	fam Family
}

// RivalTol is how close, in RMSLE (log units), a same-family fit from
// another starting point must come to the chosen fit to count as
// equally good: 0.002, a fifth of a percent.
const RivalTol = 0.002

// rivalStarts is the number of random starting points tried when the
// chosen family has at least as many parameters as configurations, and
// maxStartRivals caps the equally good fits kept.
const (
	rivalStarts    = 40
	maxStartRivals = 12
)

// formRivals returns the fits of other families within one standard error
// of the lowest cross-validated error (low is the lowest-CV fit, chosen
// the fit returned).
func formRivals(low, chosen *ThroughputFit, fits []*ThroughputFit) []Rival {
	if low == nil || math.IsNaN(low.CVError) || len(low.cvErrs) < 2 {
		return nil
	}
	se := stdErr(low.cvErrs)
	var out []Rival
	for _, f := range fits {
		if f == chosen || f.Family.Name == chosen.Family.Name || math.IsNaN(f.CVError) || f.CVError > low.CVError+se {
			continue
		}
		out = append(out, Rival{Family: f.Family.Name, Theta: append([]float64(nil), f.Theta...), Why: "form", fam: f.Family})
	}
	return out
}

// startRivals multi-starts the chosen family when the data have no more
// configurations than it has parameters, and keeps the distinct fits as
// good as tf (within RivalTol in RMSLE).
func startRivals(tf *ThroughputFit, pts []Point, seed uint64) []Rival {
	if len(tf.members) > 0 {
		// a mean family's equally good fits: one member's equally good
		// fit in its place, the others kept
		var out []Rival
		for i, m := range tf.members {
			for _, r := range startRivals(m, pts, seed) {
				if len(out) == maxStartRivals {
					return out
				}
				th := slices.Clone(tf.Theta)
				copy(splitMembers(tf.Family, th)[i], r.Theta)
				out = append(out, Rival{Family: tf.Family.Name, Theta: th, Why: "start", fam: tf.Family})
			}
		}
		return out
	}
	keys, _ := configKeys(pts)
	k := len(tf.Theta)
	if k < len(keys) || tf.Family.Name == "mva" {
		return nil
	}
	guesses := tf.Family.Guess(pts)
	if len(guesses) == 0 {
		return nil
	}
	rng := newRand(seed + 0x51a7)
	search := tf.Family
	search.Estimate = nil // an NNLS variant's rivals: LM on its form
	var out []Rival
	x0 := make([]float64, k)
	for t := 0; t < rivalStarts && len(out) < maxStartRivals; t++ {
		g := guesses[t%len(guesses)]
		for j := range x0 {
			p := tf.Family.Params[j]
			v := g[j] * math.Exp(2*rng.NormFloat64())
			if g[j] == 0 {
				v = rng.Float64() * math.Min(p.Hi, 1)
			}
			x0[j] = math.Min(math.Max(v, p.Lo), p.Hi)
		}
		res, err := fitFree(search, pts, x0)
		if err != nil {
			continue
		}
		if rmsle := math.Sqrt(2 * res.Cost / float64(len(pts))); rmsle > tf.RMSLE+RivalTol {
			continue
		}
		if sameFit(tf.Family, res.X, tf.Theta, pts) || containsFit(out, tf.Family, res.X, pts) {
			continue
		}
		out = append(out, Rival{Family: tf.Family.Name, Theta: res.X, Why: "start", fam: tf.Family})
	}
	return out
}

// sameFit reports whether two parameter vectors of f predict alike
// (predictAlike): vectors that differ only where nothing is asked are not
// rivals.
func sameFit(f Family, a, b []float64, pts []Point) bool {
	return predictAlike(f, a, f, b, pts)
}

// predictAlike reports whether family fa at a and family fb at b predict
// within 1% of each other at the data's configurations and at four and
// sixteen times their largest worker count (probeConfigs): on these data
// they are one curve.
func predictAlike(fa Family, a []float64, fb Family, b []float64, pts []Point) bool {
	for _, c := range probeConfigs(pts) {
		va, vb := fa.Predict(a, c), fb.Predict(b, c)
		if !(math.Abs(va-vb) <= 0.01*math.Abs(vb)) {
			return false
		}
	}
	return true
}

func containsFit(rs []Rival, f Family, x []float64, pts []Point) bool {
	for _, r := range rs {
		if sameFit(f, r.Theta, x, pts) {
			return true
		}
	}
	return false
}

func probeConfigs(pts []Point) []model.Config {
	var cs []model.Config
	maxW, maxP := 1, 0
	var big model.Config
	for _, p := range pts {
		cs = append(cs, p.Config)
		if p.Config.Workers >= maxW {
			maxW, big = p.Config.Workers, p.Config
		}
		maxP = max(maxP, p.Config.PS)
	}
	for _, m := range []int{4, 16} {
		c := big
		c.Workers = maxW * m
		if c.Batch > 0 && KindOf(pts).Strong {
			c.Batch = big.Batch * float64(maxW) / float64(c.Workers)
		}
		if c.Nodes > 0 {
			c.Nodes = big.Nodes * m
		}
		if maxP > 0 {
			c.PS = maxP * m
		}
		cs = append(cs, c)
	}
	return cs
}

// widen stretches iv to hold the value of each rival at c.
func widen(s *sweepMemo, iv Interval, rivals []Rival, c model.Config) Interval {
	for _, r := range rivals {
		iv = stretch(iv, s.predict(r.fam, r.Theta, c))
	}
	return iv
}

// rivalWarning says, in one line, that the intervals hold rival fits.
func rivalWarning(rs []Rival) string {
	if len(rs) == 0 {
		return ""
	}
	var forms []string
	starts := 0
	for _, r := range rs {
		if r.Why == "start" {
			starts++
			continue
		}
		forms = append(forms, r.Family)
	}
	what := ""
	switch {
	case len(forms) > 0 && starts > 0:
		what = fmt.Sprintf("the forms %s (cross-validated error within one standard error of the best) and %d parameter vectors of the chosen form from other starting points", strings.Join(forms, ", "), starts)
	case len(forms) > 0:
		what = fmt.Sprintf("the forms %s (cross-validated error within one standard error of the best)", strings.Join(forms, ", "))
	default:
		what = fmt.Sprintf("%d parameter vectors of the chosen form from other starting points (it has as many parameters as the data have configurations)", starts)
	}
	return "other fits match the data as well: " + what + "; the prediction intervals include their predictions, which far from the data can differ much more than the bootstrap interval"
}
