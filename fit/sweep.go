package fit

import (
	"math"
	"slices"
	"sync"

	"github.com/sgdplan/sgdplan/model"
)

// sweepMemo keeps, per (family, parameters, configuration but its worker
// count), the throughput at 1..n workers from one Family.Sweep, so that a
// Model's predictions over a range of worker counts (predict --workers
// 1-1000, the planner's speedup curves) cost one pass of the MVA recursion
// per parameter vector instead of one per worker count: O(N) where it was
// O(N^2). The numbers are those of Family.Predict (tested).
//
// A run is grown to at least twice its length when a larger count is asked
// for, so that ascending queries cost O(N) in all; a first query for a key
// computes just the counts it needs (a key that never comes back costs
// what Predict does). The memo holds at most sweepBudget numbers and is
// emptied when a new run would pass that; worker counts above sweepMax are
// solved one by one.
type sweepMemo struct {
	mu    sync.Mutex
	runs  map[sweepKey]sweepRun
	held  int
	limit int // sweepBudget; smaller in tests
	// primed holds, per key, the throughputs at the worker counts above
	// sweepMax that Model.Prime was told of (ascending counts), from one
	// sweep per key: predict --workers 1000-20000 solved each of the 3,617
	// counts above sweepMax on its own, for every bootstrap sample (5.6
	// minutes); primed, one pass each.
	primed map[sweepKey]primedRun
	// primedHeld is the throughputs primed holds (at most primeBudget).
	primedHeld int
	// cursors hold, per key and queueing settings, the exact recursion
	// where the last count above sweepMax left it (model.Stepper), for
	// the "mva" family of the model itself (predictStep): ascending counts
	// there cost one step each, where each count unprimed cost a recursion
	// from 1 (predict --workers 1-100000 solved the counts of the one
	// bootstrap sample past primeBudget alone: 4 minutes, O(N^2); with
	// --ps 1,2,4, two thirds of its vectors). At most cursorMax, a few
	// hundred bytes each; emptied when a new one would pass that.
	cursors map[cursorKey]*cursor
	// stal holds, per key and queueing settings, the network's staleness
	// recursion where the last count left it (model.StalenessStepper), for
	// Model.StalenessInterval: at most cursorMax, emptied as cursors are.
	stal map[cursorKey]*stalCursor
	// stalPrimed holds, per staleness key (stal's), the staleness at the
	// counts Model.Prime was told of out of ascending order, from one pass
	// each (primeStaleness); counted in primedHeld.
	stalPrimed map[cursorKey]primedRun
	// caps holds, per configuration (Model.Saturation's key), the bounds
	// of the network's stations per parameter vector; at most capsMax.
	caps map[capsKey]capsEntry
}

// stationCap is what Model.Saturation takes from one network: most, the
// least over its queueing stations of servers/D (a link at least the
// payload bound), and compute, the delay Z plus the compute stations'
// demands (N/compute bounds N workers).
type stationCap struct {
	most, compute float64
}

// stationsCap is nw's stationCap with the payload bound payload (-Inf:
// none) for its links.
func stationsCap(nw model.Network, payload float64) stationCap {
	most := math.Inf(1)
	compute := nw.Z
	for _, st := range nw.Stations {
		if st.Kind == model.ComputeStation {
			compute += st.D
		}
		if st.Delay || !(st.D > 0) {
			continue
		}
		x := float64(max(st.Servers, 1)) / st.D
		if st.Kind == model.LinkStation {
			x = math.Max(x, payload)
		}
		most = math.Min(most, x)
	}
	return stationCap{most, compute}
}

// capsKey is a configuration but its worker count and machines, the
// queueing settings, the payload bound, and the first parameter vector
// and the number of them (capsEntry holds them all, compared on lookup).
type capsKey struct {
	c       model.Config
	q       Queueing
	payload float64
	theta   [sweepParams]float64
	n       int
}

type capsEntry struct {
	vecs [][]float64
	caps []stationCap
}

// sameBits reports whether a and b hold the same numbers to the bit.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// capsMax bounds the configurations whose caps a memo holds.
const capsMax = 1 << 10

// stationCaps is the stationCap of each of vecs at c (whose network does
// not depend on its workers or machines), from the memo when it holds the
// same vectors there, else from compute (kept). compute's result is not
// changed after.
func (s *sweepMemo) stationCaps(c model.Config, q Queueing, payload float64, vecs [][]float64, compute func() []stationCap) []stationCap {
	if s == nil || len(vecs[0]) > sweepParams {
		return compute()
	}
	k := capsKey{c: c, q: q, payload: payload, n: len(vecs)}
	k.c.Workers, k.c.Nodes = 0, 0
	copy(k.theta[:], vecs[0])
	s.mu.Lock()
	e, ok := s.caps[k]
	s.mu.Unlock()
	if ok && slices.EqualFunc(e.vecs, vecs, sameBits) {
		return e.caps
	}
	caps := compute()
	held := make([][]float64, len(vecs))
	for i, v := range vecs {
		held[i] = slices.Clone(v)
	}
	s.mu.Lock()
	if s.caps == nil || len(s.caps) >= capsMax {
		s.caps = map[capsKey]capsEntry{}
	}
	s.caps[k] = capsEntry{held, caps}
	s.mu.Unlock()
	return caps
}

// cursorKey is a sweepKey with the queueing settings whose network the
// cursor solves.
type cursorKey struct {
	sweepKey
	q Queueing
}

// cursor is a recursion at some count; mu guards it (the memo's lock is
// not held while it steps).
type cursor struct {
	mu sync.Mutex
	st *model.Stepper
}

// stalCursor is a staleness recursion; mu guards it.
type stalCursor struct {
	mu sync.Mutex
	st *model.StalenessStepper
}

// staleness is the mean staleness of f's queueing network (f.Network) at
// th and c by the arrival theorem (model.AsyncPS.Staleness with Flow off),
// from the key's recursion moved on from where it stands (a count below
// it starts it again), so that ascending counts cost O(N) in all; solved
// alone when the network has no stepper (shared cores). q is the model's
// queueing settings, part of the key.
func (s *sweepMemo) staleness(f Family, q Queueing, th []float64, c model.Config) float64 {
	a, cq := f.Network(th, c)
	a.Flow = false
	if s == nil || len(th) > sweepParams {
		return a.Staleness(cq)
	}
	k := cursorKey{keyOf(Family{Name: "staleness/" + f.Name}, th, c), q}
	s.mu.Lock()
	pr, ok := s.stalPrimed[k]
	s.mu.Unlock()
	if i, found := slices.BinarySearch(pr.ns, c.Workers); ok && found {
		return pr.xs[i]
	}
	cur := cursorIn(&s.mu, &s.stal, k)
	cur.mu.Lock()
	defer cur.mu.Unlock()
	if cur.st == nil {
		st, ok := a.StalenessStepper(cq)
		if !ok {
			return a.Staleness(cq)
		}
		cur.st = st
	}
	return cur.st.At(c.Workers)
}

// primeStaleness keeps the network's staleness (staleness) of f at th
// and c's configuration at the worker counts ns (ascending, no repeats),
// from one pass of the recursion, for counts asked out of ascending
// order, where the key's cursor would restart from 1 at each count below
// the last one (a descending list of 20,000 counts: O(N^2)). Counts of 1
// and below, and above model.ExactLimit+1 (a fixed point each, whatever
// the order), are left out. Nothing when the key has its table, the
// budget is spent or the network has no stepper.
func (s *sweepMemo) primeStaleness(f Family, q Queueing, th []float64, c model.Config, ns []int) {
	if s == nil || len(th) > sweepParams {
		return
	}
	i, _ := slices.BinarySearch(ns, 2)
	j, found := slices.BinarySearch(ns, model.ExactLimit+1)
	if found {
		j++
	}
	ns = ns[i:j]
	if len(ns) == 0 {
		return
	}
	k := cursorKey{keyOf(Family{Name: "staleness/" + f.Name}, th, c), q}
	s.mu.Lock()
	_, done := s.stalPrimed[k]
	full := s.primedHeld+len(ns) > primeBudget
	s.mu.Unlock()
	if done || full {
		return
	}
	a, cq := f.Network(th, c)
	a.Flow = false
	st, ok := a.StalenessStepper(cq)
	if !ok {
		return
	}
	xs := make([]float64, len(ns))
	for i, n := range ns {
		xs[i] = st.At(n)
	}
	s.mu.Lock()
	if s.stalPrimed == nil {
		s.stalPrimed = map[cursorKey]primedRun{}
	}
	if _, done := s.stalPrimed[k]; !done {
		s.stalPrimed[k] = primedRun{ns: ns, xs: xs}
		s.primedHeld += len(ns)
	}
	s.mu.Unlock()
}

// cursorIn is k's entry of *m under mu, made when it has none (*m emptied
// first when it holds cursorMax): the recursion cursors' lookup, for the
// throughput's and the staleness's.
func cursorIn[T any](mu *sync.Mutex, m *map[cursorKey]*T, k cursorKey) *T {
	mu.Lock()
	defer mu.Unlock()
	cur := (*m)[k]
	if cur == nil {
		if *m == nil || len(*m) >= cursorMax {
			*m = map[cursorKey]*T{}
		}
		cur = new(T)
		(*m)[k] = cur
	}
	return cur
}

// cursorMax bounds the cursors a memo holds.
const cursorMax = 1 << 14

// sweepRun is a key's sweep: the throughput xs[n-1] at n workers. step,
// when not nil, marks a key whose counts Prime was told come in ascending
// order, of the model's own mva family (mvaFamily(*step)): its counts past
// xs (1 worker aside, the speedup's base) are stepped to by the key's
// cursor (predictStep), where a sweep kept them all (up to sweepMax
// numbers a parameter vector: 26 MB at 200 bootstrap samples, held until
// the memo's budget was spent).
type sweepRun struct {
	xs   []float64
	step *Queueing
	cur  *cursor // the key's cursor, when step is not nil
}

// markStepped marks th's key at c (f's, f = mvaFamily(*q)) as stepped
// (sweepRun.step) unless the memo holds its sweep already.
func (s *sweepMemo) markStepped(f Family, q *Queueing, th []float64, c model.Config) {
	if s == nil || len(th) > sweepParams {
		return
	}
	k := keyOf(f, th, c)
	s.mu.Lock()
	if _, ok := s.runs[k]; !ok {
		s.runs[k] = sweepRun{step: q, cur: new(cursor)}
	}
	s.mu.Unlock()
}

// primedRun is the throughput xs[i] at ns[i] workers.
type primedRun struct {
	ns []int
	xs []float64
}

// primeBudget bounds the throughputs primed (16 Mi numbers, 256 MiB with
// their counts); counts past it are solved one by one.
const primeBudget = 1 << 24

const (
	// sweepMax is the largest worker count served from a sweep.
	sweepMax = 1 << 14
	// sweepBudget is the most throughputs the memo holds (32 MiB).
	sweepBudget = 1 << 22
	// sweepParams is the most parameters a key holds; families with more
	// are not memoised (the mva family has 4).
	sweepParams = 8
)

// sweepKey is a family, its parameters' bits (hashed as a block, where
// float64 keys cost a float hash each: a third of predict --workers
// 1-10000 went to hashing keys; and -0 is not 0 here) and a configuration
// but its workers and machines.
type sweepKey struct {
	family string
	theta  [sweepParams]uint64
	c      model.Config
}

func newSweepMemo() *sweepMemo {
	return &sweepMemo{runs: map[sweepKey]sweepRun{}, limit: sweepBudget}
}

// predict is f.Predict(th, c), from a sweep when f has one and s is not nil.
func (s *sweepMemo) predict(f Family, th []float64, c model.Config) float64 {
	return s.predictStep(f, nil, th, c)
}

// predictStep is predict where f is mvaFamily(*q) when q is not nil: a
// count above sweepMax that Prime left out (up to model.ExactLimit) is then
// reached by stepping the key's cursor on from where it stands, not by a
// recursion from 1 each time; a count below where the cursor stands
// starts it again from 1 (what solving the count alone costs). The same
// numbers (model.AsyncPS.Stepper is StepsPerSecond to the bit, tested).
// A key Prime marked as stepped (sweepRun.step) is stepped so whatever q,
// and below sweepMax too (1 worker aside): on the marked run's own
// Queueing, which reads of c what keyOf keeps (not its Nodes: a model
// whose speed depends on placement, --shared-cores, has no stepper and is
// never marked).
func (s *sweepMemo) predictStep(f Family, q *Queueing, th []float64, c model.Config) float64 {
	n := c.Workers
	if s == nil || f.Sweep == nil || len(th) > sweepParams || n < 1 {
		return f.Predict(th, c)
	}
	if n > sweepMax {
		k := keyOf(f, th, c)
		s.mu.Lock()
		pr, ok := s.primed[k]
		s.mu.Unlock()
		if i, found := slices.BinarySearch(pr.ns, n); ok && found {
			return pr.xs[i]
		}
		if n <= model.ExactLimit {
			s.mu.Lock()
			r := s.runs[k]
			s.mu.Unlock()
			if r.cur != nil {
				if x, ok := stepOn(r.cur, *r.step, th, c); ok {
					return x
				}
			}
		}
		if q != nil && n <= model.ExactLimit {
			if x, ok := s.step(cursorKey{k, *q}, th, c); ok {
				return x
			}
		}
		return f.Predict(th, c)
	}
	k := keyOf(f, th, c)
	s.mu.Lock()
	r := s.runs[k]
	if n <= len(r.xs) {
		x := r.xs[n-1]
		s.mu.Unlock()
		return x
	}
	if r.cur != nil && n > 1 {
		s.mu.Unlock()
		if x, ok := stepOn(r.cur, *r.step, th, c); ok {
			return x
		}
		return f.Predict(th, c)
	}
	defer s.mu.Unlock()
	xs := r.xs
	size := n
	if len(xs) > 0 {
		size = min(max(n, 2*len(xs)), sweepMax)
	}
	grown := make([]float64, size)
	f.Sweep(th, c, grown)
	if size > s.limit {
		return grown[n-1]
	}
	if s.held-len(xs)+size > s.limit {
		clear(s.runs)
		s.held = 0
		xs = nil
	}
	r.xs = grown
	s.runs[k] = r
	s.held += size - len(xs)
	return grown[n-1]
}

// step is the throughput at c.Workers from k's cursor moved on to there,
// made again from 0 customers when it has none or stands past c.Workers;
// ok is false when the network has no stepper.
func (s *sweepMemo) step(k cursorKey, th []float64, c model.Config) (x float64, ok bool) {
	return stepOn(cursorIn(&s.mu, &s.cursors, k), k.q, th, c)
}

// stepOn is step on the cursor cur of mvaFamily(q) at th and c.
func stepOn(cur *cursor, q Queueing, th []float64, c model.Config) (x float64, ok bool) {
	cur.mu.Lock()
	defer cur.mu.Unlock()
	if cur.st == nil || cur.st.N() > c.Workers {
		// (from 1 again: what solving the count alone costs, and the
		// counts after it, a second pass over a range, go on from here)
		st, ok := q.AsyncPS(th).Stepper(q.config(c))
		if !ok {
			return 0, false
		}
		cur.st = st
	}
	return cur.st.Advance(c.Workers), true
}

func keyOf(f Family, th []float64, c model.Config) sweepKey {
	k := sweepKey{family: f.Name, c: c}
	for i, v := range th {
		k.theta[i] = math.Float64bits(v)
	}
	k.c.Workers, k.c.Nodes = 0, 0
	return k
}

// prime sweeps f at th over c's configuration up to the largest of ns
// (ascending worker counts) and keeps the throughputs at the counts above
// sweepMax, for predict to find; buf is the sweep's workspace (grown when
// short) and is returned. Nothing when f has no sweep or the budget is
// spent.
func (s *sweepMemo) prime(f Family, th []float64, c model.Config, ns []int, buf []float64) []float64 {
	if s == nil || f.Sweep == nil || len(th) > sweepParams {
		return buf
	}
	// counts above model.ExactLimit cost a fixed point each, whatever
	// N: swept to there, one query at 1,000,000 workers took 10 s where
	// it takes microseconds (each count is then left to predict)
	i, _ := slices.BinarySearch(ns, sweepMax+1)
	j, found := slices.BinarySearch(ns, model.ExactLimit)
	if found {
		j++
	}
	above := ns[i:j]
	if len(above) == 0 {
		return buf
	}
	k := keyOf(f, th, c)
	s.mu.Lock()
	if s.primed == nil {
		s.primed = map[sweepKey]primedRun{}
	}
	_, done := s.primed[k]
	full := s.primedHeld+len(above) > primeBudget
	s.mu.Unlock()
	if done || full {
		return buf
	}
	top := above[len(above)-1]
	if cap(buf) < top {
		buf = make([]float64, top)
	}
	buf = buf[:top]
	f.Sweep(th, c, buf)
	xs := make([]float64, len(above))
	for j, n := range above {
		xs[j] = buf[n-1]
	}
	s.mu.Lock()
	if _, done := s.primed[k]; !done { // (another caller may have primed k meanwhile)
		s.primed[k] = primedRun{ns: above, xs: xs}
		s.primedHeld += len(above)
	}
	s.mu.Unlock()
	return buf
}

// Prime readies the model for predictions at cs, asked in cs's order (as
// Predict completes them), so that any order of worker counts costs what
// ascending order does: the counts of a configuration (its workers aside)
// that come out of ascending order have the network's staleness (the
// recursion's cursor restarted from 1 at each count below the last one)
// and, above the counts served from a memoised sweep (sweepMax, 16,384),
// the throughputs of every parameter vector (the fit, its bootstrap
// samples, its rivals) solved in one pass to the largest count and kept.
// Counts that come in ascending order keep no table, nor a sweep below
// sweepMax, where a cursor steps on to them (the "mva" family of an mva
// model; model.Stepper), while the memo holds all those cursors: predict
// --workers 1-100000 kept 128 MiB and 26 MB it never needed. Other
// families keep their table above sweepMax in any order (without Prime a
// count there costs O(N)). Predictions are the same numbers (Family.Sweep is
// Family.Predict and the steppers are the solutions alone, tested); a
// Predict outside cs, or in another order, is solved as without Prime.
func (m *Model) Prime(cs []model.Config) {
	if m.sweeps == nil {
		return
	}
	type group struct {
		c      model.Config // the first configuration of the key
		ns     []int        // its counts, in cs's order
		sorted bool         // ns ascending (repeats allowed)
	}
	groups := map[sweepKey]*group{}
	var order []sweepKey
	for _, c := range cs {
		c = m.Config(c)
		k := keyOf(Family{}, nil, c)
		g := groups[k]
		if g == nil {
			g = &group{c: c, sorted: true}
			groups[k] = g
			order = append(order, k)
		}
		if n := len(g.ns); n > 0 && c.Workers < g.ns[n-1] {
			g.sorted = false
		}
		g.ns = append(g.ns, c.Workers)
	}
	_, _, stale := m.StalenessPerWorkerEnds()
	stale = stale && m.Mode == "async" && m.fam.Network != nil
	// an ascending run of the model's own mva family is stepped on by its
	// cursors (predictStep) and needs no table, where its network has a
	// stepper (not with shared cores) and the cursors of all such runs fit
	// in the memo (cursorMax; emptied, each would start again from 1)
	stepped := 0
	for _, g := range groups {
		if g.sorted {
			stepped++
		}
	}
	q := m.stepsOf(m.fam)
	step := q != nil && q.SharedCores == 0 && stepped*(len(m.Samples)+1) <= cursorMax
	vecs := append([][]float64{m.theta()}, m.Samples...)
	var buf []float64
	for _, k := range order {
		g := groups[k]
		ns := slices.Compact(slices.Sorted(slices.Values(g.ns)))
		if stale && !g.sorted {
			m.sweeps.primeStaleness(m.fam, m.queueing(), m.theta(), g.c, ns)
		}
		if step && g.sorted {
			// (nor a sweep below it)
			for _, th := range vecs {
				m.sweeps.markStepped(m.fam, q, th, g.c)
			}
		}
		if ns[len(ns)-1] <= sweepMax {
			continue
		}
		if !g.sorted || !step {
			for _, th := range vecs {
				buf = m.sweeps.prime(m.fam, th, g.c, ns, buf)
			}
		}
		for _, r := range m.Rivals {
			buf = m.sweeps.prime(r.fam, r.Theta, g.c, ns, buf)
		}
	}
}

// stepsOf is the queueing settings to step f with (predictStep): m's own,
// when f is the "mva" family and m an "mva" model (an mva model's family,
// mvaFamily(m.queueing()); its rivals are of other families), else nil.
func (m *Model) stepsOf(f Family) *Queueing {
	if m.Family != "mva" || f.Name != "mva" || f.Sweep == nil {
		return nil
	}
	q := m.queueing()
	return &q
}

// stepsSamples is the steps/s at c (completed) over the fit and its
// bootstrap samples, each end widened by scale (sampleInterval): the
// predictInterval of m's own family, counts above sweepMax stepped on
// (predictStep).
func (m *Model) stepsSamples(scale float64, c model.Config) Interval {
	q := m.stepsOf(m.fam)
	return sampleInterval(func(t []float64) float64 { return m.sweeps.predictStep(m.fam, q, t, c) }, m.theta(), m.Samples, scale, m.Level)
}
