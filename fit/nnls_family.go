package fit

import "math"

// nnlsSuffix names a family's NNLS variant: "ernest/nnls" is Ernest's
// form fitted the way Ernest fits it.
const nnlsSuffix = "/nnls"

// nnlsFamily is f fitted by non-negative least squares on the measured
// step time in seconds (fitNNLS: the estimator of Ernest and Optimus)
// instead of bounded LM in log space. It predicts as f does; every fit of
// it (the fit itself, the cross-validation folds, the bootstrap, the
// extrapolation check) is NNLS, and it fails on points where f's step
// time is not linear in its parameters. A parameter NNLS puts above its
// box is clamped to the bound (and marked at it).
func nnlsFamily(f Family) Family {
	g := f
	g.Name = f.Name + nnlsSuffix
	g.Doc = f.Doc + " Fitted by non-negative least squares on the step time in seconds (the way Ernest and Optimus fit their forms), not in log space."
	g.Estimate = func(pts []Point) (LMResult, error) {
		x, err := fitNNLS(f, pts, KindOf(pts).Async)
		if err != nil {
			return LMResult{}, err
		}
		res := LMResult{X: x, AtBound: make([]bool, len(x)), Status: GTolReached}
		for j, p := range f.Params {
			x[j] = math.Min(math.Max(x[j], p.Lo), p.Hi)
			res.AtBound[j] = x[j] <= p.Lo || x[j] >= p.Hi
		}
		for _, p := range pts {
			r := logResidual(f.Predict(x, p.Config), math.Log(p.StepsPerS))
			res.Cost += r * r / 2
		}
		return res, nil
	}
	return g
}

// nnlsCandidates are the NNLS variants of the candidates whose step time
// is linear in their parameters at pts (Settings.NNLS).
func nnlsCandidates(cands []Family, pts []Point) []Family {
	var out []Family
	async := KindOf(pts).Async
	for _, f := range cands {
		if len(f.Members) > 0 || f.Estimate != nil {
			continue
		}
		if _, _, err := stepTimeDesign(f, pts, async); err == nil {
			out = append(out, nnlsFamily(f))
		}
	}
	return out
}
