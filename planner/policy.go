package planner

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

// View is what a policy knows about one job in the system when it allocates:
// the requested size, never the size at which the job will actually stop.
type View struct {
	Job       *Job
	Index     int     // the job's position in the input
	Remaining float64 // s of one-worker work left of the requested size, > 0
	Cap       float64 // the most workers the job can use: min(MaxWorkers, servers, FastestWorkers of its curve but under rigid policies)
	Started   bool    // the job has held workers before
	Workers   float64 // its allocation until this event
	// Rank is the job's place by increasing remaining size (ties: the
	// earlier job first), from 0; the simulator keeps it up to date so that
	// policies need not sort. Policies check it and sort when it is wrong.
	// It is -1 for this package's policies that never read it (fifo, sjf,
	// equi, hell, greedy, fcfs-rigid, numeric) and for srpt and knee, which
	// sort the few jobs the simulator's queueing path shows them: keeping
	// it costs an insertion pass over every job in the system at every
	// event.
	Rank int
}

// Policy decides how many workers each job in the system holds until the
// next arrival or departure. Allocate gets the jobs in arrival order and
// fills alloc[i] (workers, a real number) for jobs[i], with 0 <= alloc[i] <=
// jobs[i].Cap and a sum of at most servers; alloc is all zeros on entry.
// It must not keep jobs or alloc.
//
// Precondition: alloc is at least as long as jobs. This package's policies
// panic otherwise, naming the method and the two lengths (a programmer
// error; an index out of range named neither).
type Policy interface {
	Name() string
	Allocate(servers float64, jobs []View, alloc []float64)
}

// checkAllocLen panics, naming policy's Allocate and both lengths, when
// alloc is shorter than jobs (Policy's precondition). It is small enough
// to inline: the message is built in allocLenPanic.
func checkAllocLen(policy string, jobs []View, alloc []float64) {
	if len(alloc) < len(jobs) {
		allocLenPanic(policy, len(jobs), len(alloc))
	}
}

//go:noinline
func allocLenPanic(policy string, jobs, alloc int) {
	panic(fmt.Sprintf("planner: %s.Allocate: len(alloc) = %d, len(jobs) = %d: want alloc at least as long as jobs", policy, alloc, jobs))
}

// rigidPolicy marks policies whose allocations must not be topped up when
// they are rounded to whole workers.
type rigidPolicy interface{ rigid() bool }

// ranklessPolicy marks policies for which the simulator need not keep the
// jobs ordered by remaining size (View.Rank): they never read it, or (srpt
// and knee, queueing policies shown a handful of jobs) sort when it is -1.
type ranklessPolicy interface{ ignoresRank() }

func (Equi) ignoresRank()      {}
func (FIFO) ignoresRank()      {}
func (SJF) ignoresRank()       {}
func (Hell) ignoresRank()      {}
func (Greedy) ignoresRank()    {}
func (FCFSRigid) ignoresRank() {}
func (Priority) ignoresRank()  {}
func (SRPT) ignoresRank()      {}
func (Knee) ignoresRank()      {}

// PolicyNames lists the policies NewPolicy knows, in the order "all" runs them.
var PolicyNames = []string{"hesrpt", "hesrpt-slowdown", "equi", "srpt", "fifo", "sjf", "knee", "hell", "greedy", "fcfs-rigid"}

// DefaultKneeAlpha is the knee threshold when none is given: one more worker
// must cut the run time by at least 5%.
const DefaultKneeAlpha = 0.05

// NewPolicy returns the policy of that name (see PolicyNames). kneeAlpha is
// the threshold of knee (0 means DefaultKneeAlpha).
func NewPolicy(name string, kneeAlpha float64) (Policy, error) {
	switch name {
	case "hesrpt":
		return HeSRPTPolicy{Objective: FlowTime}, nil
	case "hesrpt-slowdown":
		return HeSRPTPolicy{Objective: Slowdown}, nil
	case "equi":
		return Equi{}, nil
	case "srpt":
		return SRPT{}, nil
	case "fifo":
		return FIFO{}, nil
	case "sjf":
		return SJF{}, nil
	case "knee":
		if kneeAlpha == 0 {
			kneeAlpha = DefaultKneeAlpha
		}
		if !(kneeAlpha > 0 && kneeAlpha < 1) {
			return nil, fmt.Errorf("planner: knee threshold alpha = %g, want 0 < alpha < 1", kneeAlpha)
		}
		return Knee{Alpha: kneeAlpha}, nil
	case "hell":
		return Hell{}, nil
	case "greedy":
		return Greedy{}, nil
	case "fcfs-rigid":
		return FCFSRigid{}, nil
	}
	return nil, fmt.Errorf("planner: unknown policy %q (want one of %s)", name, strings.Join(PolicyNames, ", "))
}

// HeSRPTPolicy allocates by heSRPT's shares for the remaining sizes (see
// HeSRPT). It is optimal offline when every job has s(k) = k^p for one p; for
// other curves it uses the median of the jobs' exponents (the exponent of a
// power law, log s(n)/log n at n servers for other curves) as a heuristic.
// A share above a job's cap is cut, and what is cut goes to the other jobs,
// smallest remaining first, up to their caps.
type HeSRPTPolicy struct {
	Objective Objective
}

// Name implements Policy: the name the command line uses.
func (h HeSRPTPolicy) Name() string {
	if h.Objective == Slowdown {
		return "hesrpt-slowdown"
	}
	return "hesrpt"
}

// Allocate implements Policy.
func (h HeSRPTPolicy) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("HeSRPTPolicy", jobs, alloc)
	m := len(jobs)
	b := heSRPTBuffers.Get().(*heSRPTBuffer)
	defer heSRPTBuffers.Put(b)
	wt := grow(b.wt, m)
	ps := grow(b.ps, m)
	sameWeight := true
	for i := range jobs {
		v := &jobs[i]
		wt[i] = h.weight(v.Job)
		sameWeight = sameWeight && wt[i] == wt[0]
		ps[i] = exponentOf(v.Job.Curve, n)
	}
	b.wt, b.ps = wt, ps
	h.allocate(n, jobs, alloc, wt, sameWeight, median(ps), b)
}

// weight is job j's weight in the objective: its weight, divided by its
// size for Slowdown.
func (h HeSRPTPolicy) weight(j *Job) float64 {
	w := j.weight()
	if h.Objective == Slowdown {
		w /= j.Size
	}
	return w
}

// allocate is Allocate once the jobs' weights in the objective, wt (by
// place in jobs; sameWeight when they are all equal), and the median
// exponent p are known: the simulator keeps them from event to event
// (heSRPTState), Allocate finds them at every call.
func (h HeSRPTPolicy) allocate(n float64, jobs []View, alloc, wt []float64, sameWeight bool, p float64, b *heSRPTBuffer) {
	m := len(jobs)
	rem := grow(b.rem, m)
	for i := range jobs {
		rem[i] = jobs[i].Remaining
	}
	asc := smallestFirst(jobs, b.asc)
	// equal remaining work: the heavier finishes first (exchanging two
	// equal jobs lowers the objective by the difference of their weights),
	// as the closed form orders them (sortForHeSRPT); equal weights keep
	// the order
	if !sameWeight {
		heavierFirstOnTies(asc, rem, wt)
	}
	desc := growInt(b.desc, m)
	for k, r := range asc {
		desc[m-1-k] = r
	}
	heSRPTShares(rem, wt, p, desc, alloc)
	for i := range alloc[:m] {
		alloc[i] *= n
	}
	capAndSpill(n, jobs, alloc, asc)
	b.rem, b.asc, b.desc = rem, asc, desc
}

// heSRPTBuffer holds HeSRPTPolicy.Allocate's working slices from one call
// to the next: a simulation calls it at every event, with up to thousands
// of jobs.
type heSRPTBuffer struct {
	rem, wt, ps []float64
	asc, desc   []int
}

var heSRPTBuffers = sync.Pool{New: func() any { return new(heSRPTBuffer) }}

// Equi gives every job the same number of workers, n/m, and what a capped
// job cannot use to the others equally (water-filling).
type Equi struct{}

// Name implements Policy: the name the command line uses.
func (Equi) Name() string { return "equi" }

// Allocate implements Policy.
//
// It hands out the shares by increasing cap (ties in arrival order). When
// the caps already rise in arrival order (one cap for every job, as on a
// trace without max_workers) that order is the jobs' own, and it skips the
// sort: a stable sort of a sorted list moves nothing. The order it sorts
// otherwise is orderPool's.
func (Equi) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("Equi", jobs, alloc)
	m := len(jobs)
	sorted := true
	for i := 1; i < m; i++ {
		if !(jobs[i-1].Cap <= jobs[i].Cap) { // a fall, or a NaN: sort
			sorted = false
			break
		}
	}
	var idx []int // the order by cap; nil: arrival order
	if !sorted {
		buf := orderPool.Get().(*[]int)
		defer orderPool.Put(buf)
		idx = slices.Grow((*buf)[:0], m)[:m]
		*buf = idx
		for j := range idx {
			idx[j] = j
		}
		slices.SortStableFunc(idx, func(a, b int) int { return -cmpDesc(jobs[a].Cap, jobs[b].Cap) })
	}
	left := n
	for r := range m {
		i := r
		if idx != nil {
			i = idx[r]
		}
		share, c := left/float64(m-r), jobs[i].Cap
		// math.Min(share, c), inlined where it is plain (it is not
		// inlined, and min differs on NaN's bits)
		switch {
		case share < c:
			alloc[i] = share
		case c < share:
			alloc[i] = c
		default: // equal (0 and -0), or a NaN
			alloc[i] = math.Min(share, c)
		}
		left -= alloc[i]
	}
}

// SRPT gives all the workers to the job with the smallest remaining size (up
// to its cap, then to the next smallest, and so on). Ties go to the earlier
// job.
type SRPT struct{}

// Name implements Policy: the name the command line uses.
func (SRPT) Name() string { return "srpt" }

// Allocate implements Policy.
func (SRPT) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("SRPT", jobs, alloc)
	buf := orderPool.Get().(*[]int)
	*buf = smallestFirst(jobs, *buf)
	fillInOrder(n, jobs, alloc, *buf)
	orderPool.Put(buf)
}

// orderPool keeps the order SRPT and Knee sort the jobs in from one call
// to the next: a simulation calls them at every event (a new slice each
// time was 11 MiB per run of BenchmarkSimulateEveryJob's srpt).
var orderPool = sync.Pool{New: func() any { return new([]int) }}

// FIFO gives all the workers to the earliest job (up to its cap, then to the
// next).
type FIFO struct{}

// Name implements Policy: the name the command line uses.
func (FIFO) Name() string { return "fifo" }

// Allocate implements Policy.
func (FIFO) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("FIFO", jobs, alloc)
	fillFront(n, jobs, alloc, nil, -1)
}

// SJF serves jobs by increasing requested size without preempting: jobs that
// have started come first (in arrival order), then the waiting ones,
// smallest size first, each up to its cap.
type SJF struct{}

// Name implements Policy: the name the command line uses.
func (SJF) Name() string { return "sjf" }

// Allocate implements Policy.
func (SJF) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("SJF", jobs, alloc)
	sjfFill(n, jobs, alloc, -1)
}

// sjfFill is SJF's allocation; it reports what fillFront reports of
// jobs[last].
func sjfFill(n float64, jobs []View, alloc []float64, last int) (settled bool) {
	idx := make([]int, len(jobs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ja, jb := jobs[a], jobs[b]
		switch {
		case ja.Started != jb.Started:
			if ja.Started {
				return -1
			}
			return 1
		case ja.Started:
			return 0 // keep arrival order
		}
		return -cmpDesc(ja.Job.Size, jb.Job.Size)
	})
	return fillFront(n, jobs, alloc, idx, last)
}

// Knee serves jobs by increasing remaining size, each up to its knee: the
// smallest whole k at which one more worker cuts its run time by less than
// the fraction Alpha, i.e. 1 - s(k)/s(k+1) < Alpha (or its cap, if smaller).
// Workers left when every job holds its knee go to the jobs in the same
// order, up to their caps, so that no worker idles while a job could use it.
type Knee struct {
	Alpha float64 // in (0, 1)
}

// Name implements Policy: the name the command line uses.
func (Knee) Name() string { return "knee" }

// Allocate implements Policy.
func (k Knee) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("Knee", jobs, alloc)
	k.allocate(n, jobs, alloc, -1)
}

// allocate is Knee's allocation; it reports settled when Alpha is in (0, 1)
// and no worker was left once jobs[last] had been given its knee (never
// when last < 0): every job after it in the order with a cap above 0 then
// gets none, and none are left to spill.
func (k Knee) allocate(n float64, jobs []View, alloc []float64, last int) (settled bool) {
	buf := orderPool.Get().(*[]int)
	defer orderPool.Put(buf)
	order := smallestFirst(jobs, *buf)
	*buf = order
	left := n
	// with Alpha in (0, 1) a knee is a number >= 1, never NaN: once no
	// workers are left the jobs get 0 whatever their knees, and the knees
	// (several curve evaluations each) of a long queue need not be found
	sure := k.Alpha > 0 && k.Alpha < 1
	// a power law's knee depends on its exponent and cap alone (and
	// Alpha): jobs of one exponent and cap (a trace converted with --p)
	// share the last one's
	var memo kneeMemo
	for _, i := range order {
		if left == 0 && sure && jobs[i].Cap > 0 {
			alloc[i] = 0
		} else {
			a := math.Min(math.Min(memo.knee(jobs[i].Job.Curve, k.Alpha, jobs[i].Cap), jobs[i].Cap), left)
			alloc[i] = a
			left -= a
		}
		if i == last {
			settled = sure && left == 0
		}
	}
	spill(left, jobs, alloc, order)
	return settled
}

// kneeMemo remembers the last power law's knee.
type kneeMemo struct {
	p, limit uint64 // bits of the exponent and of the limit
	k        float64
	ok       bool
}

// knee is kneeOf(c, alpha, limit), for one alpha: for a power law the last
// one's when the exponent and the limit have the same bits (kneeOf of a
// power law reads nothing else).
func (m *kneeMemo) knee(c Speedup, alpha, limit float64) float64 {
	pl, ok := c.(PowerLaw)
	if !ok {
		return kneeOf(c, alpha, limit)
	}
	p, l := math.Float64bits(pl.P), math.Float64bits(limit)
	if m.ok && m.p == p && m.limit == l {
		return m.k
	}
	k := kneeOf(c, alpha, limit)
	*m = kneeMemo{p: p, limit: l, k: k, ok: true}
	return k
}

// Workers is the knee of curve c on at most limit workers (kneeOf): the
// smallest k, from the fewest workers a fitted curve was fitted on, past
// which one more worker cuts the run time by less than k.Alpha; limit when
// every step gains more.
func (k Knee) Workers(c Speedup, limit int) int {
	return int(kneeOf(c, k.Alpha, float64(max(limit, 1))))
}

// kneeOf returns the smallest whole k >= 1 (>= the fewest workers a fitted
// curve was fitted on: fewestFitted), at most limit, with
// 1 - s(k)/s(k+1) < alpha. A curve other than a power law still gaining at
// kneeSearchMost workers, with no limit or at alpha <= 0, never flattens:
// its knee is limit.
func kneeOf(c Speedup, alpha, limit float64) float64 {
	if pl, ok := c.(PowerLaw); ok {
		// 1 - (k/(k+1))^p < alpha  <=>  k > r/(1-r), r = (1-alpha)^(1/p).
		// Linear speedup too: one more worker cuts the run time by
		// 1/(k+1), under alpha from k = 20 at 5% (it returned limit, "never
		// flattens", against the rule the report's knee and docs give).
		r := math.Pow(1-alpha, 1/math.Min(pl.P, 1))
		k := math.Floor(r/(1-r)) + 1
		// guard the rounding at the boundary
		for k > 1 && 1-pl.Speedup(k-1)/pl.Speedup(k) < alpha {
			k--
		}
		for 1-pl.Speedup(k)/pl.Speedup(k+1) >= alpha && k < limit {
			k++
		}
		return math.Max(1, math.Min(k, math.Max(limit, 1)))
	}
	k := math.Max(1, math.Min(fewestFitted(c), limit))
	// with no limit, or alpha <= 0 (every step that does not lose
	// counts as a gain), a curve that grows for ever climbs one worker at
	// a time toward the limit: a huge finite one is as good as none
	unbounded := math.IsInf(limit, 1) || alpha <= 0
	for k < limit && 1-c.Speedup(k)/c.Speedup(k+1) >= alpha {
		if k >= kneeSearchMost && unbounded {
			return limit // still gaining: it never flattens
		}
		k++
	}
	return k
}

// kneeSearchMost is how far kneeOf climbs toward an infinite limit, or at
// alpha <= 0 toward any limit, before it takes the curve for one that never
// flattens.
const kneeSearchMost = 1 << 20

// Hell uses the efficiency e(k) = s(k)/k: it repeatedly picks, among the jobs
// without workers, the one with the highest efficiency per second of
// remaining run time, e(k) / (r / s(k)) = s(k)^2 / (k r) times its weight, at
// the allocation k (whole, within its cap and the free workers) that attains
// it, and gives it those k workers. Workers left at the end go to the jobs by
// that value, up to their caps.
type Hell struct{}

// Name implements Policy: the name the command line uses.
func (Hell) Name() string { return "hell" }

// Allocate implements Policy.
//
// Its rounds after the first go by groups (hellScratch.rounds): the power
// laws of one exponent, whole cap and weight share k and s(k) in every
// round, and so do the jobs of one other curve (a fitted model), whole
// cap and weight wherever the climb to k is sure for every remaining size
// (hellClimb); the first of a group by remaining size has its best value,
// so a round evaluates each group's first jobs and the jobs in no group,
// not every job. The first round evaluates every
// job: the groups' sort costs several rounds, and one is often all there
// is (hellPlainRounds). The jobs in no group ask hellBestMemo, whose power laws' s(k)
// is the last one's of its exponent when its k is (powMemo: the same
// math.Pow of the same arguments); the scratch comes from a pool. In the
// simulator Hell is a queueingPolicy (hell_queue.go): it sees the jobs
// holding workers and the head of its queue.
func (Hell) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("Hell", jobs, alloc)
	hellFill(n, jobs, alloc, nil)
}

// hellFill is Hell's allocation; it reports what allocateGroups needs to
// tell whether jobs not shown would change it (hellRun), each pick checked
// against f where f is not nil.
func hellFill(n float64, jobs []View, alloc []float64, f *hellFront) (run hellRun) {
	m := len(jobs)
	h := hellPool.Get().(*hellScratch)
	defer hellPool.Put(h)
	if cap(h.done) < m {
		h.done = make([]bool, m)
	}
	done := h.done[:m]
	clear(done)
	order := h.order[:0]
	h.pows.last = h.pows.last[:0]
	order, left := h.rounds(n, jobs, done, alloc, order, f) // (hell_fill.go)
	run.short = left >= 1
	picked := len(order)
	for i := range jobs {
		if !done[i] {
			alloc[i] = 0
			order = append(order, i)
		}
	}
	// spill(left, jobs, alloc, order), the picked jobs first
	left = spillLeft(left, jobs, alloc, order[:picked])
	run.spare = left > 0
	spill(left, jobs, alloc, order[picked:])
	h.order = order
	return run
}

// hellRun is what hellFill reports of its allocation: whether it stopped
// with a whole worker still free (short: no job it was shown could take
// one), and whether workers were still left once the picked jobs had
// taken what they could of them (spare: the others, in arrival order, got
// them).
type hellRun struct {
	short, spare bool
}

// hellScratch is what Hell.Allocate keeps between calls (hellPool).
type hellScratch struct {
	done  []bool
	order []int
	pows  powMemo // for the jobs in no group
	// the groups of hellScratch.rounds
	gkeys          []hellKey       // the first hellScanGroups groups' keys
	keys           map[hellKey]int // the other groups
	groups         []hellGroup
	others         []int // places of the jobs in no group
	places, runEnd []int
	gid            []int // by place: its group
}

var hellPool = sync.Pool{New: func() any { return new(hellScratch) }}

// lastPow remembers the last power law's s(k) it gave.
type lastPow struct {
	p, k, s float64
	ok      bool
}

// speedup is pl.Speedup(k), bit for bit: floats equal as floats have the
// same bits but for 0 and -0, and k^0 = k^-0 = 1 (k <= 0 gives 0 for any
// exponent); a NaN is never equal, so it is evaluated again.
func (c *lastPow) speedup(pl PowerLaw, k float64) float64 {
	if c.ok && c.p == pl.P && c.k == k {
		return c.s
	}
	s := pl.Speedup(k)
	*c = lastPow{p: pl.P, k: k, s: s, ok: true}
	return s
}

// powMemo is a lastPow for each of up to powMemoSize exponents: the jobs
// of a trace with several exponents interleave, and one lastPow for all
// of them missed nearly always (math.Pow was 54% of hell's time on 15,000
// jobs of five exponents, 5 times the same jobs at one; a scaling review,
// 2026-12-07). Past powMemoSize exponents s(k) is evaluated each time.
type powMemo struct{ last []lastPow }

// powMemoSize is the most exponents a powMemo remembers.
const powMemoSize = 16

// speedup is pl.Speedup(k), bit for bit (lastPow's rule, per exponent: an
// exponent equal as a float, 0 and -0 alike, gives the same k^p).
func (m *powMemo) speedup(pl PowerLaw, k float64) float64 {
	for i := range m.last {
		if m.last[i].p == pl.P {
			return m.last[i].speedup(pl, k)
		}
	}
	if len(m.last) < powMemoSize {
		m.last = append(m.last, lastPow{})
		return m.last[len(m.last)-1].speedup(pl, k)
	}
	return pl.Speedup(k)
}

// hellValue is Hell's value of a job with r left at k workers, s = s(k),
// before its weight: s^2/(k r). Every place that values a job for Hell
// (its rounds, its groups' bounds, its ceiling) computes it here, so that
// their values compare bit for bit; a weight multiplies the result.
func hellValue(s, k, r float64) float64 { return s * s / (k * r) }

// hellBestMemo is Hell's scoring of job v in a round of L free workers:
// the whole k in [1, min(cap, L)] maximising s(k)^2/(k r), and that value
// times the job's weight (-Inf where the limit is below one worker); a
// power law's s(k) comes through memo. A round values every job so at
// first and, after, the jobs in no group and those of a curve group whose
// climb is not sure (hellScratch.rounds).
func hellBestMemo(v *View, L float64, memo *powMemo) (float64, float64) {
	w := v.Job.weight()
	limit := math.Min(v.Cap, L)
	if limit < 1 {
		return 0, math.Inf(-1) * w
	}
	c := v.Job.Curve
	val := func(k float64) float64 { return hellValue(c.Speedup(k), k, v.Remaining) }
	if pl, ok := c.(PowerLaw); ok {
		// s(k)^2/k = k^(2p-1): increasing for p > 1/2, else k = 1 is best.
		k := 1.0
		if pl.P > 0.5 {
			k = math.Floor(limit)
		}
		s := memo.speedup(pl, k)
		return k, hellValue(s, k, v.Remaining) * w
	}
	// s(k)^2/k rises while the curve's elasticity k s'/s is above 1/2 and
	// falls after: climb until it falls (unimodal for concave curves whose
	// elasticity decreases, such as Amdahl's law and the fitted families).
	bestK, bestV := 1.0, val(1)
	for k := 2.0; k <= limit; k++ {
		x := val(k)
		if x <= bestV {
			break
		}
		bestK, bestV = k, x
	}
	return bestK, bestV * w
}

// Greedy hands out workers one at a time, each to the job whose completion it
// brings forward most: the gain of a (k+1)-th worker to a job with r left is
// w (r/s(k) - r/s(k+1)), infinite for a job with none (ties: the smaller r
// first), as Optimus allocates. A fractional last worker goes the same way.
// A job left alone in the heap takes what it can at once (one worker at a
// time would give it the same), so a lone job on a million servers costs one
// step, not a million; and on 4,096 servers or more with power laws only,
// greedyPrefill hands out the workers above a gain threshold first, with
// the same result.
type Greedy struct{}

// Name implements Policy: the name the command line uses.
func (Greedy) Name() string { return "greedy" }

// Allocate implements Policy.
func (Greedy) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("Greedy", jobs, alloc)
	greedy(n, jobs, alloc)
}

// greedy is Greedy's allocation; it reports whether a gain was NaN (the
// heap's order is then not total).
//
// It is the heap of gainItems that container/heap would keep, sifted by
// hand on the concrete slice (gainHeap.down, the same swaps), and each step
// evaluates the curve once, not twice: a job's s(k+1) from its last gain is
// its s(k) at the next (the same float k+1, so the same value). Power laws
// read s(k) at whole k from tables that outlive the call (greedyScratch):
// the same math.Pow of the same arguments, computed once.
func greedy(n float64, jobs []View, alloc []float64) (nan bool) {
	g := greedyPool.Get().(*greedyScratch)
	defer greedyPool.Put(g)
	h := g.h[:0]
	if cap(g.aux) < len(jobs) {
		g.aux = make([]greedyAux, len(jobs))
	}
	aux := g.aux[:len(jobs)]
	left := n
	for i := range jobs {
		alloc[i] = 0
	}
	// power laws on many servers: first every worker whose gain beats a
	// threshold (greedyPrefill), then the heap from there
	if n >= greedyPrefillMin {
		left -= greedyPrefill(n, jobs, alloc)
	}
	for i := range jobs {
		if v := jobs[i]; v.Cap > alloc[i] {
			a := &aux[i]
			*a = greedyAux{c: v.Job.Curve, w: v.Job.weight(), t: g.table(v.Job.Curve)}
			gn := math.Inf(1)
			if k := alloc[i]; k > 0 {
				sk, sk1 := g.speedup(a, k), g.speedup(a, k+1)
				gn = a.w * (v.Remaining/sk - v.Remaining/sk1)
				a.next, a.known = sk1, true
				nan = nan || gn != gn
			}
			h = append(h, gainItem{i: i, gain: gn, rem: v.Remaining})
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- { // heap.Init
		h.down(i, len(h))
	}
	for left > 0 && len(h) > 0 {
		i := h[0].i
		v := &jobs[i]
		// the builtin min: like math.Min (a NaN wins, -0 below +0) but for
		// which NaN's bits it returns, and inlined
		unit := min(1, min(left, v.Cap-alloc[i]))
		if len(h) == 1 {
			unit = min(left, v.Cap-alloc[i]) // no rival
		}
		alloc[i] += unit
		left -= unit
		if alloc[i] >= v.Cap { // heap.Pop
			last := len(h) - 1
			h[0], h[last] = h[last], h[0]
			h.down(0, last)
			h = h[:last]
			continue
		}
		a := &aux[i]
		k, r := alloc[i], v.Remaining
		var sk float64
		if unit == 1 && a.known {
			sk = a.next // s(old k + 1), and k is old k + 1
		} else {
			sk = g.speedup(a, k)
		}
		sk1 := g.speedup(a, k+1)
		a.next, a.known = sk1, true
		gn := a.w * (r/sk - r/sk1)
		h[0].gain = gn
		nan = nan || gn != gn
		h.down(0, len(h)) // heap.Fix(&h, 0): the root never moves up
	}
	g.h = h[:0]
	return nan
}

// greedyScratch is what greedy keeps between calls (greedyPool): its heap,
// its per-job state, and for up to greedyTables power-law exponents a table
// of s(k) at whole k from 0 to greedyTableMax (NaN until computed).
type greedyScratch struct {
	h    gainHeap
	aux  []greedyAux // by job index
	tabs []powTable
}

// greedyAux is a job's state in greedy: its curve, weight and table (-1:
// none), and s(k+1) for its k workers when known.
type greedyAux struct {
	c     Speedup
	w     float64
	t     int
	next  float64
	known bool
}

var greedyPool = sync.Pool{New: func() any { return new(greedyScratch) }}

const (
	greedyTables   = 16
	greedyTableMax = greedyPrefillMin + 1
)

// table is the index of c's table in g.tabs (k from 0 to greedyTableMax,
// the k+1 of greedyPrefillMin servers), made if there is room; -1 when c is
// not a power law or there is no room.
func (g *greedyScratch) table(c Speedup) int {
	pl, ok := c.(PowerLaw)
	if !ok {
		return -1
	}
	b := math.Float64bits(pl.P)
	for j := range g.tabs {
		if g.tabs[j].bits == b {
			return j
		}
	}
	if len(g.tabs) == greedyTables {
		return -1
	}
	g.tabs = append(g.tabs, newPowTable(pl.P, greedyTableMax))
	return len(g.tabs) - 1
}

// speedup is a.c.Speedup(k), from a's table when it has one and k is whole
// and in it.
func (g *greedyScratch) speedup(a *greedyAux, k float64) float64 {
	if a.t >= 0 {
		if v, ok := g.tabs[a.t].speedup(k); ok {
			return v
		}
	}
	return a.c.Speedup(k)
}

// greedyPrefillMin is the fewest servers from which Greedy prefills: below
// it the threshold search costs more than the heap.
const greedyPrefillMin = 4096

// greedyPrefill gives each job every whole worker whose gain exceeds a
// threshold G, when every job with a cap is a power law (whose gains never
// rise), and returns the workers given. One worker at a time hands out the
// workers in order of decreasing gain (ties by remaining work, then index),
// so whatever G, the workers with gain above G come before all others and
// are all handed out when they number at most n: the heap, resumed from
// there, gives exactly what it gives alone. G is found by bisection on its
// logarithm until at most a few workers per job are left to the heap.
func greedyPrefill(n float64, jobs []View, alloc []float64) float64 {
	type pj struct {
		i     int
		p     float64
		w, r  float64
		cap   float64
		units float64 // ceil(cap): the last may be a fraction of a worker
	}
	var ps []pj
	for i, v := range jobs {
		if v.Cap <= 0 {
			continue
		}
		pl, ok := v.Job.Curve.(PowerLaw)
		if !ok || !(pl.P > 0 && pl.P <= 1) {
			return 0
		}
		units := math.Ceil(v.Cap)
		if units*units*0x1p-48 >= pl.P {
			// gains of neighbouring workers differ by about p/k^2 of the
			// remaining work, rounding by a few 2^-52: past this the
			// rounded gains need not fall with k, and the bisection
			// would cut where one worker at a time does not
			return 0
		}
		ps = append(ps, pj{i, pl.P, v.Job.weight(), v.Remaining, v.Cap, units})
	}
	if len(ps) < 2 {
		return 0 // the heap's lone job takes its share in one step
	}
	gain := func(j pj, k float64) float64 {
		c := PowerLaw{P: j.p}
		return j.w * (j.r/c.Speedup(k) - j.r/c.Speedup(k+1))
	}
	// count is the workers j gets from its units (the k-th unit holds
	// workers k-1..k, the last cut at the cap) whose gain exceeds g: at
	// least the first, whose gain is infinite; gains fall with k. A
	// fractional last unit counts too: one worker at a time hands it out
	// at its gain like any other, before every unit of a lower gain.
	count := func(j pj, g float64) float64 {
		lo, hi := 1.0, j.units // gain(j, lo-1) > g; is gain(j, hi-1) > g?
		if gain(j, hi-1) > g {
			return j.cap
		}
		for hi-lo > 1 {
			mid := math.Floor((lo + hi) / 2)
			if gain(j, mid-1) > g {
				lo = mid
			} else {
				hi = mid
			}
		}
		return math.Min(lo, j.cap)
	}
	total := func(g float64) float64 {
		t := 0.0
		for _, j := range ps {
			t += count(j, g)
		}
		return t
	}
	slack := float64(4 * len(ps))
	// bisection on log g: lo gives too many workers (or is where to
	// start), hi few enough
	hi := 0.0
	for _, j := range ps {
		hi = math.Max(hi, gain(j, 1))
	}
	if !(hi > 0) || math.IsInf(hi, 0) || total(hi) > n {
		return 0
	}
	lo := hi
	for total(lo) <= n-slack && lo > 1e-300 {
		hi, lo = lo, lo/16
	}
	if total(lo) <= n {
		hi = lo
	}
	for range 100 {
		if n-total(hi) <= slack {
			break
		}
		mid := math.Sqrt(lo * hi)
		if !(mid < hi && mid > lo) {
			break
		}
		if total(mid) <= n {
			hi = mid
		} else {
			lo = mid
		}
	}
	given := 0.0
	for _, j := range ps {
		alloc[j.i] = count(j, hi)
		given += alloc[j.i]
	}
	return given
}

type gainItem struct {
	i         int
	gain, rem float64
}

type gainHeap []gainItem

func (h gainHeap) Len() int { return len(h) }
func (h gainHeap) Less(a, b int) bool {
	if h[a].gain != h[b].gain {
		return h[a].gain > h[b].gain
	}
	if h[a].rem != h[b].rem {
		return h[a].rem < h[b].rem
	}
	return h[a].i < h[b].i
}
func (h gainHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *gainHeap) Push(x any)   { *h = append(*h, x.(gainItem)) }
func (h *gainHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// down is container/heap's down on the concrete slice: the same
// comparisons and swaps without an interface call.
func (h gainHeap) down(i0, n int) {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 {
			break
		}
		j := j1
		if j2 := j1 + 1; j2 < n && h.Less(j2, j1) {
			j = j2
		}
		if !h.Less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// FCFSRigid runs multi-server jobs that each hold a fixed number of workers
// (RigidWorkers) for their whole life, started in arrival order with
// head-of-line blocking: a job that does not fit stops every job behind it.
type FCFSRigid struct{}

// Name implements Policy: the name the command line uses.
func (FCFSRigid) Name() string { return "fcfs-rigid" }
func (FCFSRigid) rigid() bool  { return true }

// Allocate implements Policy.
func (FCFSRigid) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("FCFSRigid", jobs, alloc)
	fcfsRigid(n, jobs, alloc)
}

// fcfsRigid is FCFSRigid's allocation; it reports whether a job that had
// not started was blocked (every job that has not started after it, in
// arrival order, then gets nothing).
func fcfsRigid(n float64, jobs []View, alloc []float64) (blocked bool) {
	left := n
	for i, v := range jobs {
		need := float64(v.Job.rigid(n))
		switch {
		case v.Started:
			alloc[i] = need
			left -= need
		case !blocked && need <= left+1e-9:
			alloc[i] = need
			left -= need
		default:
			alloc[i] = 0
			blocked = true
		}
	}
	return blocked
}

// median of x (reordering x); equal values need no sort.
func median(x []float64) float64 {
	m := len(x)
	same := true
	for _, v := range x[1:] {
		if v != x[0] {
			same = false
			break
		}
	}
	if same {
		return x[0]
	}
	slices.Sort(x)
	if m%2 == 0 {
		return (x[m/2-1] + x[m/2]) / 2
	}
	return x[m/2]
}

// heavierFirstOnTies reorders the runs of equal rem in asc (smallest first)
// by decreasing weight wt, stably (equal weights keep their order).
func heavierFirstOnTies(asc []int, rem, wt []float64) {
	sortWithinTies(asc, rem, func(a, b int) int { return cmpDesc(wt[a], wt[b]) })
}

// smallestFirst returns the positions of jobs by increasing remaining size,
// ties by arrival: from the ranks in O(m) when they are right, else by
// sorting. It writes them in buf when it is large enough.
func smallestFirst(jobs []View, buf []int) []int {
	m := len(jobs)
	idx := growInt(buf, m)
	for i := range idx {
		idx[i] = -1
	}
	ok := true
	for r := range jobs {
		k := jobs[r].Rank
		if k < 0 || k >= m || idx[k] >= 0 {
			ok = false
			break
		}
		idx[k] = r
	}
	for k := 1; ok && k < m; k++ {
		a, b := &jobs[idx[k-1]], &jobs[idx[k]]
		ok = a.Remaining < b.Remaining || (a.Remaining == b.Remaining && idx[k-1] < idx[k])
	}
	if ok {
		return idx
	}
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if ra, rb := jobs[a].Remaining, jobs[b].Remaining; ra != rb {
			return -cmpDesc(ra, rb)
		}
		return a - b
	})
	return idx
}

// fillFront gives each job in order (nil: arrival order) as many workers as
// it can use, as fillInOrder does, and reports settled when no worker was
// left once jobs[last] had been served (never when last < 0): every job
// after it in the order then gets none. It takes no slice of the identity
// order (fifo allocated one per event, 8 bytes a job in the system).
func fillFront(n float64, jobs []View, alloc []float64, order []int, last int) (settled bool) {
	clear(alloc[:len(jobs)])
	left := n
	pending := last >= 0 // jobs[last] not served yet
	for k := range jobs {
		i := k
		if order != nil {
			i = order[k]
		}
		if left <= 0 {
			return settled || pending
		}
		if add := math.Min(left, jobs[i].Cap); add > 0 {
			alloc[i] = add
			left -= add
		}
		if i == last {
			settled, pending = left <= 0, false
		}
	}
	return settled
}

// fillInOrder gives each job in order as many workers as it can use.
func fillInOrder(n float64, jobs []View, alloc []float64, order []int) {
	for i := range jobs {
		alloc[i] = 0
	}
	spill(n, jobs, alloc, order)
}

// capAndSpill cuts allocations at the caps and gives what was cut (and any
// workers left) to the jobs in order, up to their caps.
func capAndSpill(n float64, jobs []View, alloc []float64, order []int) {
	used := 0.0
	for i := range jobs {
		if c := jobs[i].Cap; alloc[i] > c {
			alloc[i] = c
		}
		used += alloc[i]
	}
	spill(n-used, jobs, alloc, order)
}

// spill gives left workers to the jobs in order, each up to its cap.
func spill(left float64, jobs []View, alloc []float64, order []int) {
	spillLeft(left, jobs, alloc, order)
}

// spillLeft is spill, reporting the workers still left after it.
func spillLeft(left float64, jobs []View, alloc []float64, order []int) float64 {
	for _, i := range order {
		if left <= 0 {
			return left
		}
		add := math.Min(left, jobs[i].Cap-alloc[i])
		if add > 0 {
			alloc[i] += add
			left -= add
		}
	}
	return left
}
