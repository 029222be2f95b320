package planner

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
)

// Priority allocates by fixed per-job priorities: at every event it gives the
// workers, Units slices of servers/Units at a time, to the job whose weighted
// rate V_i s_i(k) grows most (it maximises sum_i V_i s_i(k_i) for concave
// curves, up to one slice). heSRPT is of this form: with s(k) = k^p its shares
// are those of V_i = (W_i^q - W_{i-1}^q)^(1-p), the same in every phase.
type Priority struct {
	V     []float64 // by job index (View.Index), >= 0 and finite
	Units int       // slices of the servers; 0 means 256
	Label string    // name; empty means "numeric"
}

// priorityIndexPanic is Priority.Allocate's panic for a job whose index
// its V does not hold (Simulate refuses that before it starts, checkJobs;
// a direct call met an index out of range that named neither).
//
//go:noinline
func priorityIndexPanic(index, n int) {
	panic(fmt.Sprintf("planner: Priority.Allocate: a job of index %d, but len(V) = %d: want a priority for every job's index", index, n))
}

// jobsChecker is a policy that can tell, before a simulation, that it
// cannot allocate to m jobs.
type jobsChecker interface {
	checkJobs(m int) error
}

// checkJobs refuses priorities that do not give each of m jobs one finite
// V >= 0: a zero Priority indexed its empty V at the first event and
// panicked. A V of 0 is a job served last: Optimize's own start gives one
// to a job whose weight vanishes beside the others' (1 beside 1e17).
func (p Priority) checkJobs(m int) error {
	if len(p.V) < m {
		return fmt.Errorf("planner: policy %s: %d priorities (V) for %d jobs: want one per job", p.Name(), len(p.V), m)
	}
	for i, v := range p.V[:m] {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("planner: policy %s: job %d: priority %g, want a finite V >= 0", p.Name(), i, v)
		}
	}
	return nil
}

// Name implements Policy: the name the command line uses.
func (p Priority) Name() string {
	if p.Label == "" {
		return "numeric"
	}
	return p.Label
}

// Allocate implements Policy. Each slice evaluates the curve once: the
// s(k + u) of a job's last gain is its s(k) when the slice it got was a
// whole u (the same float k, so the same value), and the heap is sifted on
// its concrete slice (gainHeap.down, container/heap's swaps): a fitted
// curve at a fractional k is a model evaluation, and numeric's search
// replays thousands of simulations (64 jobs took a minute). A power law's
// s(k) at the counts u, u+u, ... comes from a table kept between calls
// (priorityScratch): the same math.Pow of the same k, computed once.
func (p Priority) Allocate(n float64, jobs []View, alloc []float64) {
	checkAllocLen("Priority", jobs, alloc)
	for i := range jobs {
		if jobs[i].Index < 0 || jobs[i].Index >= len(p.V) {
			priorityIndexPanic(jobs[i].Index, len(p.V))
		}
	}
	units := p.Units
	if units <= 0 {
		units = 256
	}
	u := n / float64(units)
	sc := priorityPool.Get().(*priorityScratch)
	defer priorityPool.Put(sc)
	sc.begin(u, units)
	m := len(jobs)
	h := slices.Grow(sc.h[:0], m)
	// at[i], sAt[i]: the point of job i's last gain past its allocation,
	// and the curve there; tab[i]: its power law's table, or -1
	at, sAt, tab := grow(sc.at, m), grow(sc.sAt, m), growInt(sc.tab, m)
	for i, v := range jobs {
		alloc[i] = 0
		c := v.Job.Curve
		tab[i] = -1
		if pl, ok := c.(PowerLaw); ok {
			tab[i] = sc.table(pl.P)
		}
		at[i] = math.Min(u, v.Cap)
		sAt[i] = sc.speedup(c, tab[i], at[i])
		h = append(h, gainItem{i: i, gain: p.V[v.Index] * (sAt[i] - c.Speedup(0)), rem: v.Remaining})
	}
	for i := len(h)/2 - 1; i >= 0; i-- { // heap.Init
		h.down(i, len(h))
	}
	left := n
	for left > 1e-12*n && len(h) > 0 {
		i := h[0].i
		v := &jobs[i]
		add := math.Min(u, math.Min(left, v.Cap-alloc[i]))
		alloc[i] += add
		left -= add
		if alloc[i] >= v.Cap*(1-1e-12) { // heap.Pop
			last := len(h) - 1
			h[0], h[last] = h[last], h[0]
			h.down(0, last)
			h = h[:last]
			continue
		}
		k := alloc[i]
		c := v.Job.Curve
		sk := sAt[i]
		if k != at[i] {
			sk = sc.speedup(c, tab[i], k)
		}
		at[i] = math.Min(k+u, v.Cap)
		sAt[i] = sc.speedup(c, tab[i], at[i])
		h[0].gain = p.V[v.Index] * (sAt[i] - sk)
		h.down(0, len(h)) // heap.Fix(&h, 0): the root never moves up
	}
	sc.h, sc.at, sc.sAt, sc.tab = h[:0], at, sAt, tab
}

// priorityScratch is what Priority.Allocate keeps between calls
// (priorityPool; each replay of numeric's search that runs at once takes
// its own): its heap and per-job state, and the power laws' s(k) at the
// counts a job reaches by whole slices u, for up to priorityTables
// exponents (numeric's search replays the same slices, event after event).
type priorityScratch struct {
	h       gainHeap
	at, sAt []float64
	tab     []int
	u       float64 // the slice the tables are for
	units   int
	// k is the counts every table is for: k[0] = 0, k[j] = k[j-1] + u, as
	// a job's allocation grows slice by slice (the same additions, so the
	// same floats); empty until a table is made
	k    []float64
	tabs []priorityTable
}

// priorityTable is one exponent's s at the counts k[j] of its scratch; s[j]
// is NaN until computed.
type priorityTable struct {
	p float64
	s []float64
}

// priorityTables bounds the exponents a priorityScratch keeps tables for.
const priorityTables = 16

var priorityPool = sync.Pool{New: func() any { return new(priorityScratch) }}

// begin drops the tables unless they are for slices of u out of units.
func (sc *priorityScratch) begin(u float64, units int) {
	if math.Float64bits(u) != math.Float64bits(sc.u) || units != sc.units {
		sc.u, sc.units, sc.k, sc.tabs = u, units, sc.k[:0], sc.tabs[:0]
	}
}

// table returns the index of exponent p's table, made if there is room,
// or -1.
func (sc *priorityScratch) table(p float64) int {
	for t := range sc.tabs {
		if math.Float64bits(sc.tabs[t].p) == math.Float64bits(p) {
			return t
		}
	}
	if len(sc.tabs) == priorityTables {
		return -1
	}
	size := sc.units + 2 // a cap's rounding may leave a last slice
	if len(sc.k) != size {
		sc.k = slices.Grow(sc.k[:0], size)[:size]
		sc.k[0] = 0
		for j := 1; j < size; j++ {
			sc.k[j] = sc.k[j-1] + sc.u
		}
	}
	tb := priorityTable{p: p, s: make([]float64, size)}
	for j := range tb.s {
		tb.s[j] = math.NaN()
	}
	sc.tabs = append(sc.tabs, tb)
	return len(sc.tabs) - 1
}

// speedup is c.Speedup(k), from table t (c's exponent's, or -1 for none)
// when k is one of its counts: k == k[j] > 0 has k[j]'s bits, so the value
// is the one PowerLaw gives at k.
func (sc *priorityScratch) speedup(c Speedup, t int, k float64) float64 {
	if t < 0 {
		return c.Speedup(k)
	}
	tb := &sc.tabs[t]
	if x := k / sc.u; x >= 0.5 && x < float64(len(sc.k)) {
		if j := int(x + 0.5); j < len(sc.k) && sc.k[j] == k {
			if s := tb.s[j]; s == s {
				return s
			}
			s := c.Speedup(k)
			tb.s[j] = s
			return s
		}
	}
	return c.Speedup(k)
}

// OptimizeSettings tune Optimize. A nil *OptimizeSettings means defaults.
type OptimizeSettings struct {
	// MaxJobs is the most jobs the local search runs on; above it Optimize
	// returns the best heuristic. 0 means 64.
	MaxJobs int
	// MaxEvaluations bounds the replays of the local search. 0 means 3000.
	MaxEvaluations int
	// MaxWholeEvaluations bounds the replays of OptimizeWhole's search on
	// whole workers. 0 means 500; < 0, no search.
	MaxWholeEvaluations int
	// KneeAlpha is knee's threshold among the heuristics; 0 means the default.
	KneeAlpha float64
	// Known holds, by policy name, Results the caller already has of
	// Simulate(jobs, NewPolicy(name, KneeAlpha), Settings{Servers:
	// servers}) (Record may be set: segments are not read): Optimize takes
	// them instead of replaying those heuristics. plan --policy all runs
	// every heuristic before numeric, which replayed them all again. Under
	// WholeKnown(name), the Result on whole workers (Integer: true), for
	// OptimizeWhole.
	Known map[string]Result
	// Parallel is the most replays of the local search run at once; 0
	// means runtime.GOMAXPROCS(0), 1 one at a time. The outcome is the
	// same whatever it is, bit for bit (TestOptimizeParallelSame).
	Parallel int
}

// Optimized is the outcome of Optimize.
type Optimized struct {
	Policy      Policy  // replays to Result
	Result      Result  // its simulation, continuous shares
	Objective   float64 // its objective value: the sum over jobs of weight x flow time (s), or of weight x slowdown
	Start       string  // the heuristic the search started from
	Heuristics  map[string]float64
	Evaluations int // replays of the local search (0: it did not run)
	Warnings    []error
}

// Optimize finds an allocation for jobs with any speedup curves (there is no
// closed form unless they share one power law) that is at least as good, on
// the objective, as every policy of PolicyNames on the same input, by
// construction: it replays each of them, keeps the best, and then searches
// the priorities V of a Priority policy by coordinate descent (multiply one
// V_i by a step or its inverse; keep what lowers the replayed objective;
// shrink the step when a sweep finds nothing), starting from heSRPT's
// priorities. It returns whichever is best. It guarantees nothing beyond
// that: the optimum over all allocations may be lower still.
func Optimize(jobs []Job, servers float64, obj Objective, set *OptimizeSettings) (Optimized, error) {
	if err := obj.check("optimize"); err != nil {
		return Optimized{}, err
	}
	s := OptimizeSettings{}
	if set != nil {
		s = *set
	}
	if s.MaxJobs == 0 {
		s.MaxJobs = 64
	}
	if s.MaxEvaluations == 0 {
		s.MaxEvaluations = 3000
	}
	value := func(r Result) float64 { return objectiveValue(jobs, obj, r) }
	out := Optimized{Objective: math.Inf(1), Heuristics: map[string]float64{}}
	for _, name := range PolicyNames {
		if name == "fcfs-rigid" {
			// a rigid job wider than the cluster: fcfs-rigid cannot place
			// it, and is no starting point (the whole optimisation failed)
			if why := RigidTooWide(jobs, servers); why != "" {
				out.Warnings = append(out.Warnings, fmt.Errorf("planner: optimize: fcfs-rigid left out: %s", why))
				continue
			}
		}
		pol, err := NewPolicy(name, s.KneeAlpha)
		if err != nil {
			return out, err
		}
		r, ok := s.Known[name]
		if !ok {
			if r, err = Simulate(jobs, pol, Settings{Servers: servers}); err != nil {
				return out, fmt.Errorf("planner: optimize: %s: %w", name, err)
			}
		}
		v := value(r)
		out.Heuristics[name] = v
		if v < out.Objective {
			out.Objective, out.Policy, out.Result, out.Start = v, pol, r, name
		}
	}
	if out.Policy == nil {
		return out, fmt.Errorf("planner: optimize: no policy gives a finite objective (sizes or arrivals so large that the times overflow)")
	}
	if len(jobs) > s.MaxJobs {
		out.Warnings = append(out.Warnings, fmt.Errorf("planner: optimize: %d jobs > %d: best heuristic (%s) returned without local search", len(jobs), s.MaxJobs, out.Start))
		return out, nil
	}
	// heSRPT's priorities at the median exponent.
	ps := make([]float64, len(jobs))
	for i := range jobs {
		ps[i] = exponentOf(jobs[i].Curve, servers)
	}
	sort.Float64s(ps)
	p := math.Min(ps[len(ps)/2], 0.999)
	x := make([]float64, len(jobs))
	wt := make([]float64, len(jobs))
	for i := range jobs {
		x[i] = jobs[i].Size
		wt[i] = jobs[i].weight()
		if obj == Slowdown {
			wt[i] /= x[i]
		}
	}
	idx := sortLargestFirst(x)
	V := make([]float64, len(jobs))
	q := 1 / (1 - p)
	W := 0.0
	for _, j := range idx {
		prev := W
		W += wt[j]
		// (W^q - prev^q)^(1-p) computed as W (1 - (prev/W)^q)^(1-p)
		V[j] = W * math.Pow(1-math.Pow(prev/W, q), 1-p)
	}
	// every replay of the search asks the curves other than power laws for
	// the same counts: the replays share their evaluations (sharedCurve),
	// the values those of the curves, bit for bit. (The heuristics' shares
	// change at every event: their fractional counts would fill the
	// shared tables for nothing.)
	shared := shareCurves(jobs, servers)
	sim := func(V []float64) (float64, Result, error) {
		r, err := Simulate(shared, Priority{V: V}, Settings{Servers: servers})
		if err != nil {
			return 0, r, err
		}
		return value(r), r, nil
	}
	out.Evaluations++
	cur, curR, err := sim(V)
	if err != nil {
		return out, err
	}
	par := s.Parallel
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	cur, curR, out.Evaluations, err = descend(V, cur, curR, sim, par, out.Evaluations, s.MaxEvaluations)
	if err != nil {
		return out, err
	}
	if cur < out.Objective {
		out.Objective, out.Result = cur, curR
		out.Policy = Priority{V: append([]float64(nil), V...)}
		out.Result.Policy = "numeric"
	}
	return out, nil
}

// descend is numeric's coordinate descent on V (changed in place) from
// cur, the value of V's replay curR, with replays by sim, par of them at
// once; evals counts them on (it returns the count), and the search stops
// at the first sweep that begins with maxEvals or more. It returns the
// least value found and its replay.
func descend(V []float64, cur float64, curR Result, sim func([]float64) (float64, Result, error), par, evals, maxEvals int) (float64, Result, int, error) {
	// A sweep tries, for i = 0, 1, ..., V_i times step, then V_i over it,
	// each a replay, and keeps the first that lowers the objective (then
	// goes on to i+1 from the new V). Until one does, every candidate of
	// the sweep is a change of one V_i of the same V: the next par of them
	// are replayed at once (spec), in order of the sweep the first that
	// improves is kept, and those after it are dropped, not counted in
	// Evaluations. The evaluations, the V and the result are those of one
	// replay at a time, bit for bit. A sweep ends (the bound on the
	// evaluations is read between sweeps) before the next is known.
	spec := newSpeculation(par, len(V))
	step := 4.0
	for step > 1.001 && evals < maxEvals {
		improved := false
		fs := [2]float64{step, 1 / step}
		for c := 0; c < 2*len(V); {
			batch := spec.run(V, c, 2*len(V), fs, sim)
			accepted := false
			for _, e := range batch {
				evals++
				if e.err != nil {
					return cur, curR, evals, e.err
				}
				if e.v < cur*(1-1e-12) {
					i := e.c / 2
					V[i] = V[i] * fs[e.c%2]
					cur, curR, improved = e.v, e.r, true
					c = 2 * (i + 1) // the next coordinate
					accepted = true
					break
				}
			}
			if !accepted {
				c += len(batch)
			}
		}
		if !improved {
			step = math.Sqrt(step)
		}
	}
	return cur, curR, evals, nil
}

// objectiveValue is obj's value for r, a replay of jobs, as Optimize
// minimises it: the weighted total flow time, or the weighted total
// slowdown.
func objectiveValue(jobs []Job, obj Objective, r Result) float64 {
	if obj == Slowdown {
		sum := 0.0
		for i, j := range r.Jobs {
			sum += jobs[i].weight() * j.Slowdown
		}
		return sum
	}
	return r.WeightedFlow
}

// speculation replays candidates of numeric's sweep at once: candidate c
// is V with V[c/2] times fs[c%2].
type speculation struct {
	vs  [][]float64 // a V for each replay at once
	out []candidate
}

// candidate is one replay of a sweep.
type candidate struct {
	c   int
	v   float64
	r   Result
	err error
}

func newSpeculation(par, n int) *speculation {
	par = max(1, min(par, 2*n))
	s := &speculation{vs: make([][]float64, par), out: make([]candidate, par)}
	for k := range s.vs {
		s.vs[k] = make([]float64, n)
	}
	return s
}

// run replays candidates c, c+1, ... (below end, as many as s replays at
// once) on V, each on its own copy of V, and returns them in that order.
func (s *speculation) run(V []float64, c, end int, fs [2]float64, sim func([]float64) (float64, Result, error)) []candidate {
	k := min(len(s.vs), end-c)
	one := func(j int) {
		w := s.vs[j]
		copy(w, V)
		i := (c + j) / 2
		w[i] = V[i] * fs[(c+j)%2]
		v, r, err := sim(w)
		s.out[j] = candidate{c: c + j, v: v, r: r, err: err}
	}
	if k == 1 {
		one(0)
		return s.out[:1]
	}
	var wg sync.WaitGroup
	for j := 1; j < k; j++ {
		wg.Go(func() { one(j) })
	}
	one(0)
	wg.Wait()
	return s.out[:k]
}
