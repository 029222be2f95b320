package planner

import (
	"cmp"
	"slices"
)

// heSRPTState is what the simulator keeps for HeSRPTPolicy from event to
// event, as Allocate would find it at every event: each job's weight in
// the objective and its exponent (constants of the job), and the present
// jobs' exponents in a Fenwick tree over their sorted order, whose median
// changes only when a job arrives or leaves. Allocate sorted every present
// job's exponent at every event (a batch of 16,000 jobs at t = 0 made
// 16,000 sorts of up to 16,000).
type heSRPTState struct {
	pol  HeSRPTPolicy
	wt   []float64 // by job: its weight in the objective
	byP  []float64 // the jobs' exponents, sorted
	at   []int     // by job: its exponent's place in byP (distinct per job)
	tree []int     // Fenwick tree of the present jobs, by place in byP
	top  int       // the highest power of 2 <= len(tree)
	wts  []float64 // the event's weights, by place in the jobs shown
	buf  heSRPTBuffer
}

// newHeSRPTState prepares the state of pol for jobs (their curves, as
// the policy sees them, curves) on n servers, with no job present.
func newHeSRPTState(pol HeSRPTPolicy, jobs []Job, curves []Speedup, n float64) *heSRPTState {
	M := len(jobs)
	h := &heSRPTState{pol: pol, wt: make([]float64, M), byP: make([]float64, M), at: make([]int, M), tree: make([]int, M+1)}
	ps := make([]float64, M)
	order := make([]int, M)
	for i := range jobs {
		h.wt[i] = pol.weight(&jobs[i])
		ps[i] = exponentOf(curves[i], n)
		order[i] = i
	}
	// exponentOf gives no NaN for the curves Simulate accepts (a power
	// law's p is in (0, 1]; another curve's is clamped to 1e-3..1), so
	// the order is total and a rank's value is the sorted list's
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	for r, i := range order {
		h.byP[r] = ps[i]
		h.at[i] = r
	}
	for h.top = 1; h.top*2 <= M; h.top *= 2 {
	}
	return h
}

// add counts job i in (d = 1) or out (d = -1) of the present jobs.
func (h *heSRPTState) add(i, d int) {
	for k := h.at[i] + 1; k < len(h.tree); k += k & -k {
		h.tree[k] += d
	}
}

// kth is the k-th smallest exponent of the present jobs, from 0.
func (h *heSRPTState) kth(k int) float64 {
	pos := 0
	for step := h.top; step > 0; step /= 2 {
		if next := pos + step; next < len(h.tree) && h.tree[next] <= k {
			pos = next
			k -= h.tree[next]
		}
	}
	return h.byP[pos]
}

// median is median of the present jobs' exponents, m of them: the value
// median gives, sorting them.
func (h *heSRPTState) median(m int) float64 {
	if m%2 == 0 {
		return (h.kth(m/2-1) + h.kth(m/2)) / 2
	}
	return h.kth(m / 2)
}

// allocate is pol.Allocate(n, vs, alloc) for the jobs shown, bit for bit.
func (h *heSRPTState) allocate(n float64, shown []int, vs []View, alloc []float64) {
	m := len(shown)
	wts := grow(h.wts, m)
	sameWeight := true
	for r, i := range shown {
		wts[r] = h.wt[i]
		sameWeight = sameWeight && wts[r] == wts[0]
	}
	h.wts = wts
	h.pol.allocate(n, vs, alloc, wts, sameWeight, h.median(m), &h.buf)
}
