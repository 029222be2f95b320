package fit

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sgdplan/sgdplan/model"
)

// A mean family predicts the geometric mean, with equal weights, of its
// members' predictions: log X = (1/m) sum_i log X_i. Its parameter vector
// is the members' vectors one after the other, and it is fitted member by
// member (each member by its own least squares on the same points), never
// jointly: the mean of m fitted forms, not a new form with their parameters.
//
// Why: the forms whose leave-one-out errors are within one standard error
// of the lowest are the ones the data cannot tell apart (the set the
// one-standard-error rule picks the simplest of), and they part beyond the
// training points (the network, the extra shards and nodes, are in no
// training point). Which of them extrapolates best is what the data cannot
// say, so --family auto hedges by averaging them instead of betting on the
// simplest (Settings.Combine).
// Equal weights, not weights from the CV errors: with 3-5 configurations the
// errors are too noisy to estimate weights, and estimated weights do worse
// than equal ones in small samples (the "forecast combination puzzle":
// Clemen, Int. J. Forecasting 1989; Smith and Wallis, Oxford Bull. Econ.
// Stat. 2009). In log space so that, as in the fit, large and small
// predictions count alike and a member far off in one direction cannot drag
// the mean past zero.

// meanPrefix and meanSep spell a mean family's name: "mean(a,b,c)".
const (
	meanPrefix = "mean("
	meanSep    = ","
)

// meanName is the name of the mean family of the named members.
func meanName(names []string) string {
	return meanPrefix + strings.Join(names, meanSep) + ")"
}

// meanFamily builds the mean family of members (at least two, none itself a
// mean, none "mva": its fit is the two-node profile's, not least squares).
func meanFamily(members []Family) (Family, error) {
	if len(members) < 2 {
		return Family{}, errorf("a mean family needs at least two members, got %d", len(members))
	}
	names := make([]string, len(members))
	off := make([]int, len(members)+1)
	var params []Param
	for i, m := range members {
		if len(m.Members) > 0 || m.Name == "mva" {
			return Family{}, errorf("%s cannot be a member of a mean family", m.Name)
		}
		if slices.Contains(names[:i], m.Name) {
			return Family{}, errorf("family %s appears twice in a mean family", m.Name)
		}
		names[i] = m.Name
		for _, p := range m.Params {
			p.Name = m.Name + "." + p.Name
			params = append(params, p)
		}
		off[i+1] = len(params)
	}
	ms := slices.Clone(members)
	return Family{
		Name: meanName(names),
		Doc: fmt.Sprintf("the geometric mean, equal weights, of %s, fitted each on its own: what --family auto keeps when the training points cannot tell these forms apart (leave-one-out errors within one standard error of the lowest) and they part beyond them",
			strings.Join(names, ", ")),
		Params: params,
		// offsets computed once: Predict runs in every residual of every
		// fit (splitMembers would allocate there)
		Predict: func(th []float64, c model.Config) float64 {
			s := 0.0
			for i, m := range ms {
				s += math.Log(m.Predict(th[off[i]:off[i+1]], c))
			}
			return math.Exp(s / float64(len(ms)))
		},
		Applies: func(k DataKind) bool {
			for _, m := range ms {
				if !m.Applies(k) {
					return false
				}
			}
			return true
		},
		Guess: func(pts []Point) [][]float64 {
			var x []float64
			for _, m := range ms {
				g := m.Guess(pts)
				if len(g) == 0 {
					return nil
				}
				x = append(x, g[0]...)
			}
			return [][]float64{x}
		},
		Members: ms,
	}, nil
}

// MeanFamilyError says why name, spelled as a mean family (it starts
// "mean("), is not one: no closing parenthesis, a space about a member
// (the name is mean(a,b)), a member that is no family, or one meanFamily
// refuses (fewer than two members, one twice, a mean or mva). nil when
// name is a mean family or is not spelled as one: fit --family mean(a,a)
// and mean(a, b) were answered with the list of families alone.
func MeanFamilyError(name string) error {
	inner, ok := strings.CutPrefix(name, meanPrefix)
	if !ok {
		return nil
	}
	inner, ok = strings.CutSuffix(inner, ")")
	if !ok {
		return errorf("a mean family's name ends in \")\": mean(a,b)")
	}
	var members []Family
	var names []string
	for _, n := range strings.Split(inner, meanSep) {
		names = append(names, strings.TrimSpace(n))
	}
	for _, n := range strings.Split(inner, meanSep) {
		if t := strings.TrimSpace(n); t != n {
			return errorf("member %q: a mean family's name has no spaces: %s", n, meanName(names))
		}
		f, ok := lookupOne(n)
		if !ok {
			return errorf("member %q is not a family (known: %s)", n, strings.Join(FamilyNames(), ", "))
		}
		members = append(members, f)
	}
	_, err := meanFamily(members)
	return err
}

// parseMeanFamily rebuilds a mean family from its name (model.json).
func parseMeanFamily(name string) (Family, bool) {
	inner, ok := strings.CutPrefix(name, meanPrefix)
	if !ok {
		return Family{}, false
	}
	inner, ok = strings.CutSuffix(inner, ")")
	if !ok {
		return Family{}, false
	}
	var members []Family
	for _, n := range strings.Split(inner, meanSep) {
		f, ok := lookupOne(n)
		if !ok {
			return Family{}, false
		}
		members = append(members, f)
	}
	f, err := meanFamily(members)
	return f, err == nil
}

// fitMembers fits a mean family member by member (fitOnce of each, from the
// member's slice of start when given) and returns the joined vector, with
// the cost of the mean's log residuals.
func fitMembers(fam Family, pts []Point, start []float64) (LMResult, error) {
	var out LMResult
	var starts [][]float64
	if start != nil {
		starts = splitMembers(fam, start)
	}
	for i, m := range fam.Members {
		var st []float64
		if starts != nil {
			st = starts[i]
		}
		res, err := fitOnce(m, pts, st)
		if err != nil {
			return out, err
		}
		out.X = append(out.X, res.X...)
		out.AtBound = append(out.AtBound, res.AtBound...)
		out.Iter += res.Iter
		out.Evals += res.Evals
		out.Status = res.Status
	}
	for _, p := range pts {
		r := logResidual(fam.Predict(out.X, p.Config), math.Log(p.StepsPerS))
		out.Cost += r * r / 2
	}
	return out, nil
}

// predictsLike reports whether tf and o predict alike on pts
// (predictAlike).
func (tf *ThroughputFit) predictsLike(o *ThroughputFit, pts []Point) bool {
	return predictAlike(tf.Family, tf.Theta, o.Family, o.Theta, pts)
}

// splitMembers splits a vector over a mean family's parameters (its
// values, or per-parameter flags) into its members' slices: views into x,
// in f.Members' order.
func splitMembers[T any](f Family, x []T) [][]T {
	out := make([][]T, len(f.Members))
	off := 0
	for i, m := range f.Members {
		k := len(m.Params)
		out[i] = x[off : off+k : off+k]
		off += k
	}
	return out
}

// meanFit is auto's combined choice: the mean family of the distinct fits
// whose leave-one-out error is within one standard error of the lowest (low
// is the fit with the lowest; the same set as the one-standard-error rule's
// and formRivals'), or nil when fewer than two remain.
// Fits that predict alike are one curve counted once (the one with fewer
// parameters, then the lower CV error, is kept), so that a curve two
// families happen to share (optimus-sync and overhead on data without
// shards) does not get twice the weight. Families whose leave-one-out folds
// leave the prediction free are not scored and not averaged: their
// extrapolation is wherever the solver stopped.
//
// With every set, the mean takes every scored family however far its CV
// error is from the lowest (Settings.Combine "all": tried, not the default).
func meanFit(fits []*ThroughputFit, pts []Point, low *ThroughputFit, every bool) *ThroughputFit {
	limit := math.Inf(1)
	if !every {
		if low == nil || math.IsNaN(low.CVError) || len(low.cvErrs) < 2 {
			return nil
		}
		limit = low.CVError + stdErr(low.cvErrs)
	}
	var scored []*ThroughputFit
	for _, f := range fits {
		if !math.IsNaN(f.CVError) && f.CVError <= limit && f.Family.Name != "mva" && len(f.Family.Members) == 0 {
			scored = append(scored, f)
		}
	}
	slices.SortStableFunc(scored, func(a, b *ThroughputFit) int {
		if d := len(a.Theta) - len(b.Theta); d != 0 {
			return d
		}
		switch {
		case a.CVError < b.CVError:
			return -1
		case a.CVError > b.CVError:
			return 1
		}
		return strings.Compare(a.Family.Name, b.Family.Name)
	})
	var members []*ThroughputFit
	for _, f := range scored {
		if !slices.ContainsFunc(members, func(g *ThroughputFit) bool { return f.predictsLike(g, pts) }) {
			members = append(members, f)
		}
	}
	if len(members) < 2 {
		return nil
	}
	// members in the order of the registry's names, so that one set of
	// families always has one name
	slices.SortFunc(members, func(a, b *ThroughputFit) int { return strings.Compare(a.Family.Name, b.Family.Name) })
	fams := make([]Family, len(members))
	var theta []float64
	var warnings, flat, noEffect []string
	for i, m := range members {
		fams[i] = m.Family
		theta = append(theta, m.Theta...)
		for _, w := range m.Warnings {
			// the members' own warnings name them; the data's (one
			// worker count, one shard count) are said once
			if !slices.Contains(warnings, w) {
				warnings = append(warnings, w)
			}
		}
		for _, n := range m.Flat {
			flat = append(flat, m.Family.Name+"."+n)
		}
		for _, n := range m.NoEffect {
			noEffect = append(noEffect, m.Family.Name+"."+n)
		}
	}
	fam, err := meanFamily(fams)
	if err != nil {
		return nil
	}
	tf := newThroughputFit(fam, theta, pts)
	tf.members = members
	tf.Warnings, tf.Flat, tf.NoEffect = warnings, flat, noEffect
	tf.CVError, tf.cvErrs, tf.cvNote = looCVErrs(fam, pts)
	return tf
}
