package planner

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/sgdplan/sgdplan/internal/words"
)

// Objective is what an optimal allocation minimises.
type Objective int

const (
	// FlowTime is the (weighted) mean flow time: sum of w_i T_i over jobs.
	FlowTime Objective = iota
	// Slowdown is the mean slowdown: sum of T_i / x_i (times w_i) over jobs.
	Slowdown
)

// check refuses an Objective other than FlowTime and Slowdown (Objective(7)
// was minimised as the flow time without a word).
func (o Objective) check(who string) error {
	if o != FlowTime && o != Slowdown {
		return fmt.Errorf("planner: %s: objective %d, want FlowTime (0) or Slowdown (1)", who, int(o))
	}
	return nil
}

// String returns the name used in output.
func (o Objective) String() string {
	if o == Slowdown {
		return "slowdown"
	}
	return "flow time"
}

// Offline is the closed-form heSRPT schedule of jobs all present at time 0.
// Job i of the input is Completion[i]; Order lists the jobs in the order
// they complete (smallest first); Phase[r] is the length of the r-th phase
// (between the r-th and (r+1)-th departures, so Phase[0] runs with all M jobs
// present).
type Offline struct {
	Order      []int
	Phase      []float64 // s
	Completion []float64 // s
	// Objective is the optimal value: sum_i w_i T_i for FlowTime, with
	// w_i = Weight_i / x_i for Slowdown.
	Objective    float64
	MeanFlowTime float64 // s, unweighted mean of Completion
	MeanSlowdown float64 // mean of Completion_i / x_i
	Warnings     []error
}

// ErrNotOrdered reports weights for which the heSRPT closed form does not
// apply: the schedule it describes would need a negative phase length because
// jobs would not finish smallest first.
var ErrNotOrdered = errors.New("planner: heSRPT closed form needs jobs to finish smallest first; these weights break that")

// HeSRPT returns the optimal schedule of jobs of sizes x (seconds on one
// worker), weights w (nil means all 1), all present at time 0, on n servers
// when every job has the speedup curve s(k) = k^p, 0 < p <= 1 (Berg, Vesilo,
// Harchol-Balter). For Slowdown the weights become w_i / x_i. It runs in
// O(M log M).
//
// With the jobs indexed largest first, x_1 >= ... >= x_M, W_i the sum of the
// first i weights and q = 1/(1-p), the job i holds the share
// theta_i(m) = (W_i^q - W_{i-1}^q) / W_m^q of the servers while m jobs remain,
// and job m finishes at the end of that phase. Writing c_i = (W_{i-1}/W_i)^q,
// the phase with i jobs lasts
//
//	tau_i = n^-p [ x_i (1 - c_i)^-p - x_{i+1} c_{i+1}^p (1 - c_{i+1})^-p ]
//
// (x_{M+1} = 0), which follows from x_i = sum_{m >= i} (n theta_i(m))^p tau_m
// and never overflows however close p is to 1. Job i completes at
// T_i = tau_M + ... + tau_i.
//
// Bad sizes, weights (outside MinWeight to MaxWeight), p or n are errors,
// and so is a w of another length than x.
func HeSRPT(x, w []float64, p, n float64, obj Objective) (Offline, error) {
	m := len(x)
	if m == 0 {
		return Offline{}, errors.New("planner: heSRPT: no jobs")
	}
	if !(p > 0 && p <= 1) {
		return Offline{}, fmt.Errorf("planner: heSRPT: exponent p = %g, want 0 < p <= 1", p)
	}
	if !(n > 0) || math.IsInf(n, 0) {
		return Offline{}, fmt.Errorf("planner: heSRPT: servers = %g, want > 0", n)
	}
	if err := obj.check("heSRPT"); err != nil {
		return Offline{}, err
	}
	if w != nil && len(w) != m {
		// (it panicked, naming neither length)
		return Offline{}, fmt.Errorf("planner: heSRPT: %s (w) for %s (x): want one weight per job, or nil w", words.Count(len(w), "weight"), words.Count(m, "job"))
	}
	wt := make([]float64, m)
	for i, xi := range x {
		if !(xi > 0) || math.IsInf(xi, 0) {
			return Offline{}, fmt.Errorf("planner: heSRPT: job %d: size %g, want > 0", i, xi)
		}
		wt[i] = 1
		if w != nil {
			if !(w[i] >= MinWeight && w[i] <= MaxWeight) {
				return Offline{}, fmt.Errorf("planner: heSRPT: job %d: weight %g, want %g to %g", i, w[i], MinWeight, MaxWeight)
			}
			wt[i] = w[i]
		}
		if obj == Slowdown {
			wt[i] /= xi
		}
	}
	// idx: largest first; equal sizes the lighter first (the heavier
	// finishes first), then the later job first: the order the replay
	// keeps (HeSRPTPolicy, heavierFirstOnTies).
	idx := sortForHeSRPT(x, wt)
	if err := weightsBySize(x, wt, idx); err != nil {
		res := Offline{Warnings: []error{err}}
		return res, err
	}
	// With L_i = log(W_{i-1}/W_i): c_i = e^(q L_i), c_i^p = e^(p q L_i) and
	// (1-c_i)^-p = e^(-p log1p(-c_i)); a[i] = x_i (1-c_i)^-p, b[i] = c_i^p.
	a := make([]float64, m)
	b := make([]float64, m)
	q := math.Inf(1)
	if p < 1 {
		q = 1 / (1 - p)
	}
	W := 0.0
	for i, j := range idx {
		prev := W
		W += wt[j]
		a[i], b[i] = x[j], 0
		if i > 0 && p < 1 {
			L := math.Log(prev / W)
			c := math.Exp(q * L)
			a[i] = x[j] * math.Exp(-p*math.Log1p(-c))
			b[i] = math.Exp(p * q * L)
		}
	}
	tau := make([]float64, m) // tau[i] for position i (0-based), i+1 jobs present
	np := math.Pow(n, -p)
	var res Offline
	for i := 0; i < m; i++ {
		t := a[i]
		if i+1 < m {
			t -= a[i+1] * b[i+1]
		}
		tau[i] = np * t
		if tau[i] < -1e-12*np*a[i] {
			res.Warnings = append(res.Warnings, ErrNotOrdered)
			return res, ErrNotOrdered
		}
		if tau[i] < 0 {
			tau[i] = 0
		}
	}
	res.Completion = make([]float64, m)
	res.Order = make([]int, m)
	res.Phase = make([]float64, m)
	t := 0.0
	for r := 0; r < m; r++ {
		i := m - 1 - r // position completing r-th: the smallest remaining
		t += tau[i]
		res.Phase[r] = tau[i]
		res.Completion[idx[i]] = t
		res.Order[r] = idx[i]
	}
	for i, ti := range res.Completion {
		res.Objective += wt[i] * ti
		res.MeanFlowTime += ti
		res.MeanSlowdown += ti / x[i]
	}
	res.MeanFlowTime /= float64(m)
	res.MeanSlowdown /= float64(m)
	return res, nil
}

// WeightOrderError says why HeSRPT gives no closed form for weights under
// which a larger job weighs more than a smaller one: Larger and Smaller are
// their positions in the input, with their sizes and weights (per unit of
// the objective: w/x for Slowdown). errors.Is(err, ErrNotOrdered) holds.
type WeightOrderError struct {
	Larger, Smaller  int
	SizeL, SizeS     float64
	WeightL, WeightS float64
}

func (e *WeightOrderError) Error() string {
	return fmt.Sprintf("planner: heSRPT closed form finishes the smallest job first, the optimum when no larger job weighs more; job %d (size %.4g) weighs %.4g in the objective, more than the smaller job %d (size %.4g, weight %.4g), so it is not vouched for", e.Larger, e.SizeL, e.WeightL, e.Smaller, e.SizeS, e.WeightS)
}

// Unwrap makes errors.Is(err, ErrNotOrdered) hold.
func (e *WeightOrderError) Unwrap() error { return ErrNotOrdered }

// weightsBySize checks that no job has a larger weight wt (per objective:
// w/x for Slowdown) than a smaller job, idx listing the jobs largest first.
// The closed form finishes the jobs smallest first (equal sizes: heavier
// first), which is then optimal: any two jobs are in the order an exchange
// cannot improve (unit weights for flow time, 1/x for slowdown always are).
// It is a sufficient condition, not a necessary one: sizes 10 and 1 with
// weights 2 and 1 are still best smallest first, but with weights 5 and 1 on
// sizes 10 and 9 (4 servers, p = 0.8) the closed form, whose phases are all
// positive, gives 32.57 where finishing the larger first gives 22.76, and
// no cheap test tells the two cases apart for many jobs.
func weightsBySize(x, wt []float64, idx []int) error {
	// larger is the most weight among the jobs strictly larger than the
	// current size group; at is that job
	larger, at := 0.0, -1
	for g := 0; g < len(idx); {
		h := g
		for h < len(idx) && x[idx[h]] == x[idx[g]] {
			h++
		}
		for _, j := range idx[g:h] {
			if at >= 0 && wt[j] < larger*(1-1e-12) {
				return &WeightOrderError{Larger: at, Smaller: j, SizeL: x[at], SizeS: x[j], WeightL: larger, WeightS: wt[j]}
			}
		}
		for _, j := range idx[g:h] {
			if wt[j] > larger {
				larger, at = wt[j], j
			}
		}
		g = h
	}
	return nil
}

// sortForHeSRPT returns the indices of x largest first; equal sizes the
// lighter (wt) first, then the later index first.
func sortForHeSRPT(x, wt []float64) []int {
	idx := sortLargestFirst(x)
	sortWithinTies(idx, x, func(a, b int) int { return cmpDesc(wt[b], wt[a]) })
	return idx
}

// sortWithinTies sorts, stably by cmp, each run of idx whose x are equal.
func sortWithinTies(idx []int, x []float64, cmp func(a, b int) int) {
	for g := 0; g < len(idx); {
		h := g + 1
		for h < len(idx) && x[idx[h]] == x[idx[g]] {
			h++
		}
		if h-g > 1 {
			slices.SortStableFunc(idx[g:h], cmp)
		}
		g = h
	}
}

// sortLargestFirst returns the indices of x, largest first; equal values keep
// the later index first.
func sortLargestFirst(x []float64) []int {
	type key struct {
		x float64
		i int
	}
	k := make([]key, len(x))
	for i, v := range x {
		k[i] = key{v, i}
	}
	slices.SortFunc(k, func(a, b key) int {
		switch {
		case a.x > b.x:
			return -1
		case a.x < b.x:
			return 1
		}
		return b.i - a.i
	})
	idx := make([]int, len(x))
	for i := range k {
		idx[i] = k[i].i
	}
	return idx
}

// heSRPTShares fills share[i] with the heSRPT fraction of the servers for the
// job of remaining size rem[i] and weight wt[i] (already divided by the size
// for Slowdown); the shares sum to 1. With the jobs ordered largest remaining
// first, share_i = (W_i/W_m)^q - (W_{i-1}/W_m)^q. p = 1 gives everything to
// the smallest job. idx lists the jobs largest remaining first (ties: the
// later job first); nil means sort rem.
func heSRPTShares(rem, wt []float64, p float64, idx []int, share []float64) {
	m := len(rem)
	if idx == nil {
		idx = sortLargestFirst(rem)
	}
	if p >= 1 {
		for i := range share[:m] {
			share[i] = 0
		}
		share[idx[m-1]] = 1
		return
	}
	q := 1 / (1 - p)
	Wm := 0.0
	for _, w := range wt[:m] {
		Wm += w
	}
	// Common exponents (p = 0.5, 0.75, 0.8, 0.9, ...) make q a whole number:
	// then (W/Wm)^q by repeated squaring is exact to a few ulps and much
	// faster than exp(q log(W/Wm)).
	qi := math.Round(q)
	whole := math.Abs(q-qi) < 1e-9*q && qi <= 64
	W, prev := 0.0, 0.0
	for _, j := range idx {
		W += wt[j]
		var cur float64
		if whole {
			cur = ipow(W/Wm, int(qi))
		} else {
			cur = math.Exp(q * math.Log(W/Wm))
		}
		share[j] = cur - prev
		prev = cur
	}
}

// ipow returns x^k for k >= 0 by repeated squaring.
func ipow(x float64, k int) float64 {
	r := 1.0
	for k > 0 {
		if k&1 == 1 {
			r *= x
		}
		x *= x
		k >>= 1
	}
	return r
}
