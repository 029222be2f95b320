package planner

import (
	"container/heap"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Settings of a simulation. The zero value of each field is its default.
type Settings struct {
	// Servers is the number of workers in the cluster, > 0 and at most
	// MaxServers.
	Servers float64
	// Integer rounds every allocation to whole workers (largest remainder,
	// see RoundWorkers); false keeps the ideal fractional shares.
	Integer bool
	// EarlyStop is the probability that a job is killed before it completes
	// its requested size: it then stops after a fraction U ~ Uniform(0, 1) of
	// it. Policies know only the requested size. 0 means never.
	EarlyStop float64
	// Seed seeds the random early stops (and nothing else).
	Seed uint64
	// EnergyAlpha, when > 0, replaces every job's curve by the speed-scaling
	// curve s(k) = k^(1/EnergyAlpha) of a job given power k (Vaze and Nair)
	// and accounts the energy, the integral of the power in use.
	EnergyAlpha float64
	// Record keeps the allocation of every interval between events in
	// Result.Segments (memory grows with events x jobs present).
	Record bool
}

// Segment is an interval [Start, End) during which the allocation is fixed:
// job Jobs[r] (an input index) holds Workers[r] workers.
type Segment struct {
	Start, End float64
	Jobs       []int
	Workers    []float64
}

// JobResult is one job's outcome in a simulation.
type JobResult struct {
	ID         string
	Arrival    float64 // s
	Start      float64 // s, when it first held workers
	Completion float64 // s
	Response   float64 // s, Completion - Arrival (summed as time passes: exact where the clock at Completion is coarse)
	Slowdown   float64 // Response / Work
	Size       float64 // requested size, s on one worker
	Work       float64 // work actually done before it ended, s on one worker
	Queued     bool    // it waited before its first workers (Start > Arrival)
	Workers    float64 // workers it held when it started
}

// Result is a simulation's outcome under one policy.
type Result struct {
	Policy         string
	Jobs           []JobResult // in input order
	MeanResponse   float64     // s, the mean flow time
	P50Response    float64     // s
	P99Response    float64     // s
	MeanSlowdown   float64
	WeightedFlow   float64   // sum of weight x response, s
	Utilization    float64   // worker-seconds in use / (servers x span)
	MeanInSystem   float64   // time-average number of jobs in the system
	ArrivalRate    float64   // jobs / span, for Little's law
	Span           float64   // s from the first arrival to the last completion (summed as time passes where the clock is coarse, as Response)
	Reallocations  int       // times a job that had started had its allocation changed at an event (a first start is not one)
	QueuedFraction float64   // fraction of jobs that waited before they started
	Energy         float64   // worker-seconds (power x time) when EnergyAlpha > 0
	FlowPlusEnergy float64   // sum of responses + Energy when EnergyAlpha > 0
	Events         int       // arrivals and departures processed
	Segments       []Segment // when Settings.Record
}

// ErrStuck reports a policy that leaves every job without workers while no
// arrival is due, so no job could ever finish.
var ErrStuck = errors.New("planner: the policy gives no job any worker and no arrival is due")

// ErrNoProgress reports a simulation whose clock cannot advance: a job's
// work left, at its rate, takes no time (a subnormal size, 1e-310 s, whose
// last bit of work divided by the rate rounds to 0 s), yet it is not done,
// so every event repeats the last one.
var ErrNoProgress = errors.New("planner: the simulation makes no progress: a job's work left takes no time at its rate, yet it is not done")

// maxStalls is how many events in a row may take no time with no job
// arriving or leaving: such an event changes at most the allocation (the
// policy sees the jobs' new workers), and a deterministic policy then
// repeats itself, so a few in a row are a simulation that cannot end.
const maxStalls = 4

// arrivalHeap holds the indices of the pending arrivals.
type arrivalHeap []int

// arrivals is the heap of the pending arrivals, ordered by time, then
// input order.
type arrivals struct {
	h    arrivalHeap
	jobs []Job
}

func (a *arrivals) Len() int { return len(a.h) }
func (a *arrivals) Less(i, j int) bool {
	ti, tj := a.jobs[a.h[i]].Arrival, a.jobs[a.h[j]].Arrival
	if ti != tj {
		return ti < tj
	}
	return a.h[i] < a.h[j]
}
func (a *arrivals) Swap(i, j int) { a.h[i], a.h[j] = a.h[j], a.h[i] }
func (a *arrivals) Push(x any)    { a.h = append(a.h, x.(int)) }
func (a *arrivals) Pop() any {
	x := a.h[len(a.h)-1]
	a.h = a.h[:len(a.h)-1]
	return x
}

// Simulate runs the jobs through a cluster under the policy, event by event:
// arrivals come from a heap of events, and at every arrival and departure
// the policy reallocates the workers; between events every job runs at the
// rate its curve gives its allocation, so the next departure is exact.
// jobs must be in order of arrival (equal arrivals in any order): it is the
// order policies serve them in (ReadJobs refuses a file out of order). It
// does not modify jobs.
func Simulate(jobs []Job, pol Policy, s Settings) (Result, error) {
	isRigid, err := checkSimulation(jobs, pol, s)
	if err != nil {
		return Result{}, err
	}
	st := newSim(jobs, pol, s, isRigid)
	for st.done < len(jobs) {
		if err := st.event(); err != nil {
			st.responses()
			return st.res, err
		}
	}
	return st.result(), nil
}

// checkSimulation refuses a simulation Simulate cannot run: no policy, jobs
// the policy or the cluster cannot take, and settings out of range. It
// reports whether the policy is rigid (its jobs hold what they ask).
func checkSimulation(jobs []Job, pol Policy, s Settings) (isRigid bool, err error) {
	if pol == nil {
		return false, errors.New("planner: no policy (nil)")
	}
	if c, ok := pol.(jobsChecker); ok {
		if err := c.checkJobs(len(jobs)); err != nil {
			return false, err
		}
	}
	_, isRigid = pol.(rigidPolicy)
	if err := checkJobs(jobs, s.Servers, isRigid); err != nil {
		return false, err
	}
	if !(s.EarlyStop >= 0 && s.EarlyStop <= 1) {
		return false, fmt.Errorf("planner: early-stop probability %g, want 0..1", s.EarlyStop)
	}
	if s.EnergyAlpha != 0 && !(s.EnergyAlpha >= 1) {
		return false, fmt.Errorf("planner: energy alpha %g, want >= 1 (speed = power^(1/alpha))", s.EnergyAlpha)
	}
	if s.Integer && s.Servers != math.Floor(s.Servers) {
		return false, fmt.Errorf("planner: %g servers cannot be split into whole workers", s.Servers)
	}
	return isRigid, nil
}

// sim is one simulation under way: the jobs as Simulate prepared them for
// the policy, the jobs in the system, the clock and the running sums, kept
// from event to event.
type sim struct {
	jobs     []Job
	pol      Policy
	s        Settings
	n        float64 // s.Servers
	isRigid  bool    // the policy's jobs hold the workers they ask
	rankless bool    // the policy never reads View.Rank
	queue    queueingPolicy
	fast     bool         // the fast path, for a queueingPolicy (see below)
	varies   bool         // the queueingPolicy's fronts vary (varyingFront)
	grouped  groupedQueue // the queueingPolicy when it groups its idle jobs
	hes      *heSRPTState // for HeSRPTPolicy, its constants kept from event to event

	work   []float64           // actual work each job does
	curves []Speedup           // each job's curve (the energy curve under EnergyAlpha)
	memos  map[Speedup]Speedup // the memoized curves, by the job's curve
	caps   []float64           // each job's cap (see capJobs)
	intCap []int               // caps in whole workers, as roundWorkers takes them (when s.Integer)
	views  []Job               // the jobs as the policy sees them (Curve: curves)
	ah     *arrivals           // the pending arrivals
	res    Result

	active   []int     // job indices in the system, in arrival order (not on the fast path)
	attained []float64 // work each job has done, s on one worker
	age      []float64 // t - arrival when the job arrived, s (see responses)
	admitted []int     // len(dts) when the job arrived
	left     []int     // len(dts) when it left
	gone     []int     // the jobs that left, in that order
	dts      []float64 // the length of every interval between events, s
	prev     []float64 // allocation before the event, by job
	bySize   []int     // active job indices by remaining size
	rank     []int     // place of a job in bySize
	present  []bool    // job is in the system
	started  []bool    // job has held workers (its Start is set)
	rate     []float64 // rate at prev[i] workers
	rates    []float64 // the event's rates, by place in shown
	pows     lastPow   // the last power law's rate: the same math.Pow for the same exponent and workers
	whole    powTable  // the first power law's rates at whole workers (wholeRate)
	shown    []int     // the jobs the policy sees at this event, in arrival order
	inSystem int       // jobs in the system
	t        float64
	first    float64 // the first arrival
	span     float64 // s since the first arrival: the last arrival the clock was set to, less first, plus the intervals since
	busy     float64 // integral of workers in use
	inSys    float64 // integral of jobs in system
	done     int
	stalls   int // events in a row that took no time and saw no job arrive or leave

	// The fast path, for a queueingPolicy: the jobs in the system are the
	// holders (prev > 0) and the idle jobs (prev == 0) in the policy's idle
	// order. A policy sees the holders and a front of the idle jobs, grown
	// until it reports its allocation settled; a job it does not see holds
	// no workers before and after the event, so nothing of it changes but
	// its age, which is summed from dts when it leaves.
	holders   []int    // jobs in the system holding workers, in arrival order
	idle      idleJobs // the other jobs in the system
	front     []int    // idle jobs shown, in the idle order
	byIndex   []int    // front in arrival order
	frontSize int      // idle jobs the last event showed
	unordered bool     // a NaN idle key: show every idle job

	// A groupedQueue's groups, each a queue of its own beside idle (they
	// share its keys): the group of a key, and by queue (idle first) the
	// jobs it has in the front, its last one there, its last one's place
	// in shown (-1: none left unshown); by job, its place in shown.
	groups  []idleJobs
	groupOf map[idleGroupKey]int
	inFront []int
	lastOf  []int
	lasts   []int
	placeOf []int

	// the event's allocation, its buffers kept from event to event
	ev struct {
		vs      []View      // the jobs shown
		alloc   []float64   // by place in vs
		ints    []int       // alloc in whole workers
		intCaps []int       // whole-worker caps, by place in vs
		fracs   []remainder // roundWorkers' buffer
	}
}

// newSim prepares a simulation of jobs that checkSimulation accepted: it
// draws the early stops, gives each job its curve and its cap, and makes
// the heap of arrivals, the result with every job not yet started, and the
// state of an empty cluster at t = 0.
func newSim(jobs []Job, pol Policy, s Settings, isRigid bool) *sim {
	M := len(jobs)
	st := &sim{jobs: jobs, pol: pol, s: s, n: s.Servers, isRigid: isRigid}
	_, st.rankless = pol.(ranklessPolicy)
	rng := rand.New(rand.NewPCG(s.Seed, 0x5eed))
	st.work = make([]float64, M)
	for i := range jobs {
		st.work[i] = jobs[i].Size
		if s.EarlyStop > 0 && rng.Float64() < s.EarlyStop {
			st.work[i] = jobs[i].Size * (1 - rng.Float64()) // in (0, 1]
		}
	}
	st.memos = map[Speedup]Speedup{}
	st.curves = make([]Speedup, M)
	for i := range jobs {
		st.curves[i] = memoize(jobs[i].Curve, st.n, st.memos)
		if s.EnergyAlpha > 0 {
			st.curves[i] = PowerLaw{P: 1 / s.EnergyAlpha}
		}
	}
	st.capJobs()
	// Views carry *Job; under energy accounting give the policy the energy
	// curve too.
	st.views = make([]Job, M)
	copy(st.views, jobs)
	for i := range st.views {
		st.views[i].Curve = st.curves[i]
	}
	st.ah = &arrivals{jobs: jobs, h: make(arrivalHeap, M)}
	for i := range st.ah.h {
		st.ah.h[i] = i
	}
	heap.Init(st.ah)

	st.res = Result{Policy: pol.Name(), Jobs: make([]JobResult, M)}
	for i := range jobs {
		st.res.Jobs[i] = JobResult{ID: jobs[i].ID, Arrival: jobs[i].Arrival, Start: math.NaN(), Size: jobs[i].Size, Work: st.work[i]}
	}
	st.queue, st.fast = pol.(queueingPolicy)
	st.fast = st.fast && st.queue.queues(st.n)
	_, st.varies = pol.(varyingFront)
	if g, ok := pol.(groupedQueue); ok && st.fast {
		st.grouped = g
	}
	if h, ok := pol.(HeSRPTPolicy); ok { // (not a queueingPolicy)
		st.hes = newHeSRPTState(h, st.views, st.curves, st.n)
	}
	st.attained = make([]float64, M)
	st.age = make([]float64, M)
	st.admitted = make([]int, M)
	st.left = make([]int, M)
	st.prev = make([]float64, M)
	st.rank = make([]int, M)
	st.present = make([]bool, M)
	st.started = make([]bool, M)
	st.rate = make([]float64, M)
	st.first = math.Inf(1)
	st.frontSize = 1
	if st.fast {
		st.idle.a, st.idle.b = make([]float64, M), make([]float64, M)
	}
	if st.rankless {
		for i := range st.rank {
			st.rank[i] = -1 // never read: see View.Rank
		}
	}
	return st
}

// capJobs sets each job's cap: its max_workers and the servers, and (but
// for rigid policies, whose jobs hold what they ask) where its curve is
// fastest; with whole workers, intCap too.
func (st *sim) capJobs() {
	jobs, M := st.jobs, len(st.jobs)
	st.caps = make([]float64, M)
	type peakKey struct {
		c     Speedup
		limit float64
	}
	peaks := map[peakKey]float64{}
	for i := range jobs {
		st.caps[i] = capOf(&jobs[i], st.n)
		if st.isRigid || st.s.EnergyAlpha > 0 || st.curves[i] == nil {
			continue
		}
		k := peakKey{st.curves[i], st.caps[i]}
		if !reflect.TypeOf(k.c).Comparable() {
			st.caps[i] = FastestWorkers(k.c, st.caps[i])
			continue
		}
		p, ok := peaks[k]
		if !ok {
			p = FastestWorkers(k.c, st.caps[i])
			peaks[k] = p
		}
		st.caps[i] = p
	}
	if st.s.Integer {
		st.intCap = make([]int, M)
		for i := range st.intCap {
			st.intCap[i] = int(math.Floor(st.caps[i] + 1e-9))
		}
	}
}

// view is job i as the policy sees it now.
func (st *sim) view(i int) View {
	return View{Job: &st.views[i], Index: i, Remaining: st.jobs[i].Size - st.attained[i],
		Cap: st.caps[i], Started: st.started[i], Workers: st.prev[i], Rank: st.rank[i]}
}

// toIdle puts job i, in the system and holding no workers, among the idle
// jobs of the fast path.
func (st *sim) toIdle(i int) {
	v := st.view(i)
	if st.grouped != nil {
		if key, a, b, ok := st.grouped.idleGroup(v); ok {
			g, seen := st.groupOf[key]
			if !seen && len(st.groups) < maxIdleGroups {
				if st.groupOf == nil {
					st.groupOf = map[idleGroupKey]int{}
				}
				g, seen = len(st.groups), true
				st.groupOf[key] = g
				st.groups = append(st.groups, idleJobs{a: st.idle.a, b: st.idle.b})
			}
			if seen {
				if a != a || b != b {
					st.unordered = true
				}
				st.groups[g].push(i, a, b)
				return
			}
		}
	}
	a, b := st.queue.idleKey(v)
	if a != a || b != b {
		st.unordered = true // the heap's order is not total: show them all
	}
	st.idle.push(i, a, b)
}

// queueAt is the fast path's idle queue q: idle, then the groups.
func (st *sim) queueAt(q int) *idleJobs {
	if q == 0 {
		return &st.idle
	}
	return &st.groups[q-1]
}

// event processes one event: it admits the arrivals due, asks the policy
// for its allocation, runs every job at its rate to the next arrival or
// departure and lets the jobs that are done leave. Its error ends the
// simulation (the responses of the jobs that left are still to be set).
func (st *sim) event() error {
	events := st.res.Events
	st.admit()
	st.reallocate()
	dt, sum, err := st.rateJobs()
	if err != nil {
		return err
	}
	st.advance(dt, sum)
	st.depart(dt)
	if dt > 0 || st.res.Events != events {
		st.stalls = 0
	} else if st.stalls++; st.stalls >= maxStalls {
		return noProgress(st.jobs, st.work, st.attained, st.rate, st.present, st.pol.Name(), st.t)
	}
	return nil
}

// admit admits every arrival due now, after setting the clock to the next
// arrival if the cluster is empty.
func (st *sim) admit() {
	jobs, ah := st.jobs, st.ah
	if st.inSystem == 0 && ah.Len() > 0 {
		if a := jobs[ah.h[0]].Arrival; a > st.t {
			st.t = a
			if st.first <= a {
				st.span = a - st.first // after an idle gap: arrivals are exact
			}
		}
	}
	for ah.Len() > 0 && jobs[ah.h[0]].Arrival <= st.t {
		i := heap.Pop(ah).(int)
		st.present[i] = true
		if st.hes != nil {
			st.hes.add(i, 1)
		}
		st.age[i] = st.t - jobs[i].Arrival
		st.admitted[i] = len(st.dts)
		st.inSystem++
		if st.fast {
			st.toIdle(i)
		} else {
			st.active = insertSorted(st.active, i)
		}
		st.first = math.Min(st.first, jobs[i].Arrival)
		st.res.Events++
	}
}

// reallocate chooses the jobs the policy sees at this event, in shown, and
// asks it for their allocation (in ev): every job in the system, or, on the
// fast path, the holders and the first idle jobs, twice as many each time
// until the allocation is settled.
func (st *sim) reallocate() {
	if !st.fast {
		if !st.rankless {
			st.bySize = rankBySize(st.bySize, st.active, st.jobs, st.attained, st.rank, st.present)
		}
		st.shown = st.active
		st.allocate(-1)
		return
	}
	if st.grouped != nil {
		st.reallocateGroups()
		return
	}
	st.front = st.front[:0]
	for k := st.frontSize; ; k *= 2 {
		for (len(st.front) < k || st.unordered) && len(st.idle.h) > 0 {
			st.front = append(st.front, st.idle.pop())
		}
		st.byIndex = append(st.byIndex[:0], st.front...)
		slices.Sort(st.byIndex)
		var last int
		st.shown, last = mergeIndices(st.shown[:0], st.holders, st.byIndex, st.front)
		if st.allocate(last) || len(st.idle.h) == 0 {
			break
		}
	}
	st.frontSize = max(1, len(st.front))
	if st.varies {
		st.frontSize = max(1, len(st.front)/frontDecay)
	}
}

// reallocateGroups is reallocate's fast path for a groupedQueue: the
// holders and the first idle jobs of every queue, as many of each, twice
// as many each time until the allocation is settled.
func (st *sim) reallocateGroups() {
	nq := 1 + len(st.groups)
	st.inFront = growInt(st.inFront, nq)
	st.lastOf = growInt(st.lastOf, nq)
	st.lasts = growInt(st.lasts, nq)
	clear(st.inFront)
	if len(st.placeOf) < len(st.jobs) {
		st.placeOf = make([]int, len(st.jobs))
	}
	st.front = st.front[:0]
	k := st.frontSize
	for ; ; k *= 2 {
		left := false // jobs left unshown
		for q := range nq {
			idle := st.queueAt(q)
			for (st.inFront[q] < k || st.unordered) && len(idle.h) > 0 {
				i := idle.pop()
				st.front = append(st.front, i)
				st.inFront[q]++
				st.lastOf[q] = i
			}
			left = left || len(idle.h) > 0
		}
		st.byIndex = append(st.byIndex[:0], st.front...)
		slices.Sort(st.byIndex)
		st.shown, _ = mergeIndices(st.shown[:0], st.holders, st.byIndex, nil)
		for r, i := range st.shown {
			st.placeOf[i] = r
		}
		for q := range nq {
			st.lasts[q] = -1
			if len(st.queueAt(q).h) > 0 {
				st.lasts[q] = st.placeOf[st.lastOf[q]]
			}
		}
		if st.allocate(-1) || !left {
			break
		}
	}
	st.frontSize = max(1, k/frontDecay)
}

// allocate asks the policy for its allocation to the jobs of shown (the
// fast path's front ends at shown[last]) and rounds it to whole workers
// in ev.ints when s.Integer; it reports what allocateFront reports.
func (st *sim) allocate(last int) (settled bool) {
	ev := &st.ev
	m := len(st.shown)
	vs := ev.vs[:0]
	for _, i := range st.shown {
		vs = append(vs, st.view(i))
	}
	alloc := grow(ev.alloc, m)
	clear(alloc) // a policy sees zeros, not the last event's shares
	ev.vs, ev.alloc = vs, alloc
	settled = true
	switch {
	case st.grouped != nil:
		settled = st.grouped.allocateGroups(st.n, vs, alloc, st.lasts)
	case st.fast:
		settled = st.queue.allocateFront(st.n, vs, alloc, last)
	case st.hes != nil:
		st.hes.allocate(st.n, st.shown, vs, alloc)
	default:
		st.pol.Allocate(st.n, vs, alloc)
	}
	if st.s.Integer {
		ev.ints = growInt(ev.ints, m)
		ev.intCaps = growInt(ev.intCaps, m)
		for r, i := range st.shown {
			ev.intCaps[r] = st.intCap[i]
		}
		var spare int // workers left for jobs with a share of 0
		ev.fracs, spare = roundWorkers(alloc, ev.intCaps, int(st.n), !st.isRigid, ev.ints, ev.fracs)
		if !st.isRigid && spare > 0 {
			settled = false // they would go to jobs not shown too
		}
	}
	return settled
}

// rateJobs checks the event's allocation and gives it to the jobs shown:
// it marks their starts and counts the reallocations, sets each job's rate
// at its workers and reports the time to the next event, dt, and the
// workers in use, sum.
func (st *sim) rateJobs() (dt, sum float64, err error) {
	n, jobs, shown := st.n, st.jobs, st.shown
	m := len(shown)
	vs, alloc := st.ev.vs, st.ev.alloc
	if err := checkAlloc(st.pol.Name(), n, vs, alloc); err != nil {
		return 0, 0, err
	}
	if st.s.Integer {
		for r := range alloc {
			alloc[r] = float64(st.ev.ints[r])
		}
	}
	st.rates = grow(st.rates, m)
	rates, prev, rate, started := st.rates, st.prev, st.rate, st.started
	work, attained, curves := st.work, st.attained, st.curves
	dt = math.Inf(1)
	for r, i := range shown {
		if !started[i] && alloc[r] > 0 {
			started[i] = true
			st.res.Jobs[i].Start = st.t
			st.res.Jobs[i].Workers = alloc[r]
		}
		if vs[r].Started && alloc[r] != prev[i] && math.Abs(alloc[r]-prev[i]) > 1e-9*n {
			st.res.Reallocations++
		}
		sum += alloc[r]
		switch {
		case alloc[r] <= 0:
			rates[r] = 0
		case alloc[r] == prev[i] && vs[r].Started:
			rates[r] = rate[i] // same workers, same rate: skip the curve
		default:
			// equal shares (equi's) are one k^P for many jobs
			if pl, ok := curves[i].(PowerLaw); ok {
				rates[r] = wholeRate(&st.whole, &st.pows, pl, alloc[r])
			} else {
				rates[r] = curves[i].Speedup(alloc[r])
			}
			if math.IsNaN(rates[r]) || math.IsInf(rates[r], 0) {
				// an infinite rate finishes the job in no time at
				// every event and NaN work never completes: the
				// simulation would never end
				return 0, 0, fmt.Errorf("planner: job %q: speedup at %g workers is %g, want a finite number", jobs[i].ID, alloc[r], rates[r])
			}
		}
		prev[i] = alloc[r]
		rate[i] = rates[r]
		if rates[r] > 0 {
			// math.Min(dt, x) for an x that is never -0, inlined: it
			// runs at every job of every event
			if x := (work[i] - attained[i]) / rates[r]; x < dt || x != x {
				dt = x
			}
		}
	}
	if st.ah.Len() > 0 {
		dt = math.Min(dt, jobs[st.ah.h[0]].Arrival-st.t)
	}
	if math.IsInf(dt, 1) {
		return 0, 0, fmt.Errorf("%w (policy %s, t = %g s, %d jobs waiting)", ErrStuck, st.pol.Name(), st.t, st.inSystem)
	}
	return dt, sum, nil
}

// advance moves the clock dt on, to the next event, with sum workers in
// use, adding to the integrals of the workers in use and of the jobs in
// the system, and records the interval's allocation when s.Record.
func (st *sim) advance(dt, sum float64) {
	t, ah, jobs := st.t, st.ah, st.jobs
	st.busy += sum * dt
	// The clock: when the next arrival is this event (dt is its
	// arrival - t) or the clock reaches it, that arrival exactly, not
	// t + (arrival - t), which can land an ulp either side of it (a job
	// arriving at an idle server started an ulp late and counted as
	// queued). A departure that reaches the arrival had dt <= arrival
	// - t, so it passes the arrival by rounding only. The segment
	// recorded ends there too (it ended at t + dt, an ulp past the
	// next one's start, and plan --plot refused the overlap).
	next, atArrival := t+dt, false
	if ah.Len() > 0 && (dt == jobs[ah.h[0]].Arrival-t || t+dt >= jobs[ah.h[0]].Arrival) {
		next, atArrival = jobs[ah.h[0]].Arrival, true
	}
	if st.s.Record && dt > 0 {
		seg := Segment{Start: t, End: next, Jobs: append([]int(nil), st.shown...)}
		if st.fast {
			// every job in the system; those not shown hold none
			seg.Jobs = append(seg.Jobs, st.idle.h...)
			for q := range st.groups {
				seg.Jobs = append(seg.Jobs, st.groups[q].h...)
			}
			slices.Sort(seg.Jobs)
		}
		seg.Workers = make([]float64, len(seg.Jobs))
		for r, i := range seg.Jobs {
			seg.Workers[r] = st.prev[i]
		}
		st.res.Segments = append(st.res.Segments, seg)
	}
	st.inSys += float64(st.inSystem) * dt
	// The span restarts at each arrival the clock is set to (arrival
	// - first, both exact) and sums the intervals since: a clock at
	// 1e12 s drops a departure 1e-6 s on, so the interval from it to
	// the next arrival, arrival - t, holds that 1e-6 s again, and a sum
	// across arrivals would count it twice.
	st.t = next
	if atArrival {
		st.span = st.t - st.first
	} else {
		st.span += dt
	}
	st.dts = append(st.dts, dt)
}

// depart adds the work each job shown did in the interval of dt just
// past, and lets the jobs that are done leave at the clock's time; on the
// fast path, a job left with no workers goes back to the idle jobs.
func (st *sim) depart(dt float64) {
	jobs, shown, rates, work, attained := st.jobs, st.shown, st.rates, st.work, st.attained
	kept := shown[:0] // on the fast path, shown is a buffer of its own
	if st.fast {
		kept = st.holders[:0]
	}
	for r, i := range shown {
		// a job at rate 0 (most of a queue) attains nothing: x + 0*dt
		// is x for a dt that is not NaN and any x but -0, which attained,
		// from +0 and sums, never is
		if rates[r] != 0 || dt != dt {
			attained[i] += rates[r] * dt
		}
		if rates[r] > 0 && work[i]-attained[i] <= 1e-12*work[i]+rates[r]*dt*1e-12 {
			j := &st.res.Jobs[i]
			j.Completion = st.t
			j.Queued = j.Start > jobs[i].Arrival
			st.left[i] = len(st.dts)
			st.gone = append(st.gone, i)
			st.present[i] = false
			if st.hes != nil {
				st.hes.add(i, -1)
			}
			st.inSystem--
			st.done++
			st.res.Events++
			continue
		}
		if st.fast && st.prev[i] == 0 {
			st.toIdle(i)
			continue
		}
		kept = append(kept, i)
	}
	if st.fast {
		st.holders = kept
	} else {
		st.active = kept
	}
}

// responses sets the response and slowdown of the jobs that left: the
// time in the system summed as it passed, interval by interval, not t -
// arrival: at t = 1e12 s the clock resolves 1e-4 s, and a job of 1e-5 s
// arriving there had a response of 0. The sum is the one an addition at
// every event would give, in the same order, but made once per job.
func (st *sim) responses() {
	sumIntervals(st.dts, st.gone, st.age, st.admitted, st.left)
	for _, i := range st.gone {
		st.res.Jobs[i].Response = st.age[i]
		st.res.Jobs[i].Slowdown = st.age[i] / st.work[i]
	}
}

// result completes the result of a simulation that ran to its end: the
// responses, the span and the means, quantiles and totals over the jobs;
// it gives the shared curves what their memos learned.
func (st *sim) result() Result {
	st.responses()
	res, jobs, M := st.res, st.jobs, len(st.jobs)
	// The span: t - first on the clock, unless the clock is too coarse
	// for it, then the intervals summed as the responses are. At t = 1e12
	// s the clock resolves 1e-4 s, and a run of 3e-6 s there had a span
	// of 0, so a utilization of 0 with its servers busy. Where the clock
	// is fine enough the two agree to a few ulps, and the clock's is kept
	// (the results are those of before); 1e-9 apart, relative, the clock
	// has lost the span's digits.
	res.Span = st.t - st.first
	if math.Abs(res.Span-st.span) > 1e-9*st.span {
		res.Span = st.span
	}
	resp := make([]float64, M)
	queued := 0
	for i, j := range res.Jobs {
		resp[i] = j.Response
		res.MeanResponse += j.Response
		res.MeanSlowdown += j.Slowdown
		res.WeightedFlow += jobs[i].weight() * j.Response
		if j.Queued {
			queued++
		}
	}
	res.MeanResponse /= float64(M)
	res.MeanSlowdown /= float64(M)
	res.QueuedFraction = float64(queued) / float64(M)
	sort.Float64s(resp)
	res.P50Response = quantile(resp, 0.5)
	res.P99Response = quantile(resp, 0.99)
	if res.Span > 0 {
		res.Utilization = st.busy / (st.n * res.Span)
		res.MeanInSystem = st.inSys / res.Span
		res.ArrivalRate = float64(M) / res.Span
	}
	if st.s.EnergyAlpha > 0 {
		res.Energy = st.busy
		res.FlowPlusEnergy = res.MeanResponse*float64(M) + st.busy
	}
	for _, c := range st.memos {
		if m, ok := c.(*memoCurve); ok && m.shared != nil {
			m.shared.merge(m)
		}
	}
	return res
}

// noProgress is the ErrNoProgress of a simulation stalled at t, naming a
// job in the system that runs (rate > 0) with work left that takes it no
// time (the first such; with none, the first job in the system).
func noProgress(jobs []Job, work, attained, rate []float64, present []bool, policy string, t float64) error {
	at := -1
	for i := range jobs {
		if !present[i] {
			continue
		}
		if at < 0 {
			at = i
		}
		if left := work[i] - attained[i]; rate[i] > 0 && !(left/rate[i] > 0) {
			at = i
			break
		}
	}
	if at < 0 {
		return fmt.Errorf("%w (policy %s, t = %g s)", ErrNoProgress, policy, t)
	}
	return fmt.Errorf("%w (policy %s, t = %g s): job %q: size %g s, %g s of work left at rate %g; want sizes far above 1e-300 s (jobs.csv takes %g s or more)",
		ErrNoProgress, policy, t, jobs[at].ID, jobs[at].Size, work[at]-attained[at], rate[at], MinSize)
}

// wholeRate is pl.Speedup(k), bit for bit. With whole workers the jobs'
// counts change at most events under hesrpt and equi, and the last rate
// (lastPow) misses: whole holds the rates of the first exponent met at
// whole counts up to wholePowMax (a zero powTable: none met yet). Other
// exponents and other counts go through last.
func wholeRate(whole *powTable, last *lastPow, pl PowerLaw, k float64) float64 {
	if whole.most == 0 {
		*whole = newPowTable(pl.P, wholePowMax)
	}
	if whole.bits == math.Float64bits(pl.P) {
		if v, ok := whole.speedup(k); ok {
			return v
		}
	}
	return last.speedup(pl, k)
}

const wholePowMax = 1 << 16

// rankBySize updates bySize, the jobs of active by increasing remaining
// requested size (ties: lower index first), and rank[i], each job's place in
// it. Between events the order rarely changes, so it drops departed jobs,
// appends new ones and repairs by insertion sort, falling back to a full sort
// when that would be slow.
func rankBySize(bySize, active []int, jobs []Job, attained []float64, rank []int, present []bool) []int {
	const gone = -1
	kept := bySize[:0]
	for _, i := range bySize {
		if present[i] {
			kept = append(kept, i)
			rank[i] = len(kept) - 1
		}
	}
	bySize = kept
	for _, i := range active {
		if r := rank[i]; r == gone || r >= len(bySize) || bySize[r] != i {
			bySize = append(bySize, i)
		}
	}
	less := func(a, b int) bool {
		ra, rb := jobs[a].Size-attained[a], jobs[b].Size-attained[b]
		return ra < rb || (ra == rb && a < b)
	}
	moves, limit := 0, 8*len(bySize)+64
	for k := 1; k < len(bySize) && moves <= limit; k++ {
		for j := k; j > 0 && less(bySize[j], bySize[j-1]); j-- {
			bySize[j], bySize[j-1] = bySize[j-1], bySize[j]
			moves++
		}
	}
	if moves > limit {
		slices.SortFunc(bySize, func(a, b int) int {
			if less(a, b) {
				return -1
			}
			if less(b, a) {
				return 1
			}
			return 0
		})
	}
	for r, i := range bySize {
		rank[i] = r
	}
	return bySize
}

// memoCurve caches a curve at whole worker counts 0..len(tab)-1: fitted
// curves can be costly to evaluate (a queueing model), and policies ask for
// the same whole counts at every event.
type memoCurve struct {
	c   Speedup
	tab []float64 // NaN until computed
	// frac holds the curve at fractional counts, up to memoFrac of them:
	// numeric's Priority hands out slices of servers/256, the same
	// fractional counts at every event, each a model evaluation (64 jobs
	// on a fitted curve took 40 s)
	frac map[float64]float64
	// shared, when the curve came as a sharedCurve: the counts other
	// replays of the same Optimize call kept, snap (read only) and the
	// first tab, and where this replay's are merged when it ends
	shared *sharedCurve
	snap   map[float64]float64
}

// memoFrac bounds the fractional counts a memoCurve keeps: policies whose
// shares change at every event (hesrpt) would fill it for nothing.
const memoFrac = 1 << 14

func (m *memoCurve) Speedup(k float64) float64 {
	if k >= 0 && k < float64(len(m.tab)) && k == math.Floor(k) {
		i := int(k)
		if v := m.tab[i]; v == v {
			return v
		}
		v := m.c.Speedup(k)
		m.tab[i] = v
		return v
	}
	// a fractional k is never a zero: keys equal as floats have the same bits
	if v, ok := m.snap[k]; ok {
		return v
	}
	if v, ok := m.frac[k]; ok {
		return v
	}
	v := m.c.Speedup(k)
	if k == k && len(m.frac) < memoFrac { // not NaN: a NaN key is never found
		if m.frac == nil {
			m.frac = map[float64]float64{}
		}
		m.frac[k] = v
	}
	return v
}

// memoize wraps curves other than PowerLaw in a memoCurve for up to n
// workers, one per distinct curve (jobs that share a fitted model share its
// cache). A sharedCurve's memoCurve starts from what the sharedCurve holds.
func memoize(c Speedup, n float64, seen map[Speedup]Speedup) Speedup {
	if _, ok := c.(PowerLaw); ok || c == nil {
		return c
	}
	comparable := reflect.TypeOf(c).Comparable()
	if comparable {
		if m, ok := seen[c]; ok {
			return m
		}
	}
	var m *memoCurve
	if sc, ok := c.(*sharedCurve); ok {
		m = sc.memo(n)
	} else {
		tab := make([]float64, int(math.Min(n, 1<<16))+2)
		for i := range tab {
			tab[i] = math.NaN()
		}
		m = &memoCurve{c: c, tab: tab}
	}
	if comparable {
		seen[c] = m
	}
	return m
}

// sharedCurve is a curve whose evaluations the replays of numeric's
// search (Optimize) share, some of them running at once
// (OptimizeSettings.Parallel): each replay's memoCurve starts from the
// counts that the replays which ended before it kept (its whole counts but
// 0, and snap), and adds its own to them when it ends. The curve is then
// evaluated once per count, not once per count and replay (more only for
// replays at once), and a replay seldom adds to its own map (the inserts
// cost more than a cheap curve: BenchmarkOptimize64 took half the time).
// The values are those the curve gave at the same k, bit for bit: a
// fractional key is never a zero, so keys equal as floats have the same
// bits; a whole count of 0 (or -0) is evaluated in each replay, as its
// first comes. Its own Speedup is the curve's, uncached.
type sharedCurve struct {
	c    Speedup
	n    float64 // the servers
	mu   sync.Mutex
	tab  atomic.Pointer[[]float64]           // whole counts, NaN until known; read only
	snap atomic.Pointer[map[float64]float64] // at most memoFrac fractional counts; read only
}

func (s *sharedCurve) Speedup(k float64) float64 { return s.c.Speedup(k) }

// shareCurves returns a copy of jobs whose curves, other than PowerLaw
// (cheap, and tabled by the policies that need one) and nil, are
// sharedCurves for n servers, one per distinct curve as memoize keys them:
// the jobs that share a curve share one memoCurve in a replay, as before.
func shareCurves(jobs []Job, n float64) []Job {
	out := slices.Clone(jobs)
	seen := map[Speedup]*sharedCurve{}
	for i := range out {
		c := out[i].Curve
		if _, ok := c.(PowerLaw); ok || c == nil {
			continue
		}
		comparable := reflect.TypeOf(c).Comparable()
		if comparable {
			if sc, ok := seen[c]; ok {
				out[i].Curve = sc
				continue
			}
		}
		sc := &sharedCurve{c: c, n: n}
		if comparable {
			seen[c] = sc
		}
		out[i].Curve = sc
	}
	return out
}

// memo is a replay's memoCurve of s on n servers.
func (s *sharedCurve) memo(n float64) *memoCurve {
	size := int(math.Min(n, 1<<16)) + 2
	var tab []float64
	if t := s.tab.Load(); t != nil && len(*t) == size && n == s.n {
		tab = slices.Clone(*t)
	} else {
		tab = make([]float64, size)
		for i := range tab {
			tab[i] = math.NaN()
		}
	}
	tab[0] = math.NaN() // a 0 or a -0, as the replay asks first
	m := &memoCurve{c: s.c, tab: tab, shared: s}
	if n == s.n {
		if p := s.snap.Load(); p != nil {
			m.snap = *p
		}
	}
	return m
}

// merge adds to s what replay m kept that s lacks, in new tables (a
// replay may be reading the old ones), at most memoFrac fractional counts.
func (s *sharedCurve) merge(m *memoCurve) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tab.Load(); t == nil || len(*t) == len(m.tab) {
		var tab []float64
		for i := 1; i < len(m.tab); i++ {
			if v := m.tab[i]; v == v && (t == nil || (*t)[i] != (*t)[i]) {
				if tab == nil {
					if t != nil {
						tab = slices.Clone(*t)
					} else {
						tab = make([]float64, len(m.tab))
						for j := range tab {
							tab[j] = math.NaN()
						}
					}
				}
				tab[i] = v
			}
		}
		if tab != nil {
			s.tab.Store(&tab)
		}
	}
	var snap map[float64]float64
	old := map[float64]float64(nil)
	if p := s.snap.Load(); p != nil {
		old = *p
	}
	for k, v := range m.frac {
		if _, ok := old[k]; ok {
			continue
		}
		if snap == nil {
			if len(old) >= memoFrac {
				return
			}
			snap = maps.Clone(old)
			if snap == nil {
				snap = make(map[float64]float64, len(m.frac))
			}
		}
		if len(snap) >= memoFrac {
			break
		}
		snap[k] = v
	}
	if snap != nil {
		s.snap.Store(&snap)
	}
}

// peakScan is the most worker counts FastestWorkers tries.
const peakScan = 1 << 14

// FastestWorkers is the whole worker count in 1..limit at which c is
// fastest (the smallest, on a plateau: a count is faster only by more than
// a billionth, so a flat curve's rounding, 1e-16 up at 5 workers, does not
// move it), or limit itself when c still rises
// at the end of the search, 1..min(limit, 16,384), or when limit < 2. A
// PowerLaw never falls and gives limit. A fitted curve falls past a point
// (a saturated link, the staleness cost), and a worker beyond it slows the
// job down: Simulate caps every job there, except under rigid policies.
func FastestWorkers(c Speedup, limit float64) float64 {
	if _, ok := c.(PowerLaw); ok || c == nil || !(limit >= 2) {
		return limit
	}
	top := math.Min(math.Floor(limit), peakScan)
	best, at := c.Speedup(1), 1.0
	for k := 2.0; k <= top; k++ {
		if v := c.Speedup(k); v > best*(1+1e-9) {
			best, at = v, k
		}
	}
	if at == top {
		return limit // still rising where the search ends
	}
	return at
}

// capOf is the most workers job j can use on n servers.
func capOf(j *Job, n float64) float64 {
	if j.MaxWorkers > 0 && float64(j.MaxWorkers) < n {
		return float64(j.MaxWorkers)
	}
	return n
}

// sumChains adds to age[i], for each job i of gone, the intervals
// dts[from[i]:to[i]] one after the other in their order, as if each had
// been added at its event (the rounding is that of the same additions). It
// runs eight jobs side by side, each its own chain of additions: one chain
// waits for every addition to finish (about 2 ns), eight keep the adder
// busy. The jobs go by decreasing count of intervals, so that the eight of
// a group have about as many.
func sumChains(dts []float64, gone []int, age []float64, from, to []int) {
	order := slices.Clone(gone)
	slices.SortFunc(order, func(a, b int) int { return (to[b] - from[b]) - (to[a] - from[a]) })
	for ; len(order) >= 8; order = order[8:] {
		g := order[:8]
		n := to[g[7]] - from[g[7]] // the fewest of the eight
		d0 := dts[from[g[0]]:][:n]
		d1 := dts[from[g[1]]:][:len(d0)]
		d2 := dts[from[g[2]]:][:len(d0)]
		d3 := dts[from[g[3]]:][:len(d0)]
		d4 := dts[from[g[4]]:][:len(d0)]
		d5 := dts[from[g[5]]:][:len(d0)]
		d6 := dts[from[g[6]]:][:len(d0)]
		d7 := dts[from[g[7]]:][:len(d0)]
		a0, a1, a2, a3 := age[g[0]], age[g[1]], age[g[2]], age[g[3]]
		a4, a5, a6, a7 := age[g[4]], age[g[5]], age[g[6]], age[g[7]]
		for k := range d0 {
			a0 += d0[k]
			a1 += d1[k]
			a2 += d2[k]
			a3 += d3[k]
			a4 += d4[k]
			a5 += d5[k]
			a6 += d6[k]
			a7 += d7[k]
		}
		age[g[0]], age[g[1]], age[g[2]], age[g[3]] = a0, a1, a2, a3
		age[g[4]], age[g[5]], age[g[6]], age[g[7]] = a4, a5, a6, a7
		for _, i := range g {
			for _, d := range dts[from[i]+n : to[i]] {
				age[i] += d
			}
		}
	}
	for _, i := range order {
		for _, d := range dts[from[i]:to[i]] {
			age[i] += d
		}
	}
}

// mergeIndices appends to dst the jobs of a and b (each in increasing order,
// disjoint) in increasing order, and returns it with the place in it of
// front's last job (-1 when front is empty).
func mergeIndices(dst, a, b, front []int) ([]int, int) {
	lastJob, last := -1, -1
	if len(front) > 0 {
		lastJob = front[len(front)-1]
	}
	for len(a) > 0 || len(b) > 0 {
		var i int
		if len(b) == 0 || len(a) > 0 && a[0] < b[0] {
			i, a = a[0], a[1:]
		} else {
			i, b = b[0], b[1:]
		}
		if i == lastJob {
			last = len(dst)
		}
		dst = append(dst, i)
	}
	return dst, last
}

// insertSorted inserts job index i keeping active in increasing order.
func insertSorted(active []int, i int) []int {
	k := sort.SearchInts(active, i)
	active = append(active, 0)
	copy(active[k+1:], active[k:])
	active[k] = i
	return active
}

// grow returns a of length m, its contents undefined, reallocated as
// append grows a slice (a queue that gains a job at every event must not
// reallocate at every event).
func grow(a []float64, m int) []float64 {
	return slices.Grow(a[:0], m)[:m]
}

// growInt is grow for ints.
func growInt(a []int, m int) []int {
	return slices.Grow(a[:0], m)[:m]
}

// MaxServers is the most workers a simulated cluster may have. A million
// workers is generous for one cluster, and the policies' work grows with the
// servers (greedy hands them out one at a time), so far larger counts would
// only run for minutes; whole workers are counted in an int, which a count
// near 2^63 would overflow.
const MaxServers = 1_000_000

// checkJobs validates jobs and servers for a simulation.
func checkJobs(jobs []Job, n float64, rigid bool) error {
	if !(n > 0) || math.IsInf(n, 0) {
		return fmt.Errorf("planner: servers = %g, want > 0", n)
	}
	if n > MaxServers {
		return fmt.Errorf("planner: servers = %g, want at most %d (MaxServers)", n, MaxServers)
	}
	if len(jobs) == 0 {
		return errors.New("planner: no jobs")
	}
	for i := range jobs {
		j := &jobs[i]
		switch {
		case !(j.Size > 0) || math.IsInf(j.Size, 0):
			return fmt.Errorf("planner: job %q: size %g, want > 0", j.ID, j.Size)
		case !(j.Arrival >= 0) || math.IsInf(j.Arrival, 0):
			return fmt.Errorf("planner: job %q: arrival %g, want >= 0", j.ID, j.Arrival)
		case i > 0 && j.Arrival < jobs[i-1].Arrival:
			// policies get the jobs in input order as arrival order (FIFO
			// served job 2 before an earlier job 5, and fcfs-rigid gave a
			// waiting job workers a started one held)
			return fmt.Errorf("planner: job %q arrives at %g, before job %q (%g) listed before it: want jobs in order of arrival", j.ID, j.Arrival, jobs[i-1].ID, jobs[i-1].Arrival)
		case j.Curve == nil:
			return fmt.Errorf("planner: job %q: no speedup curve", j.ID)
		case j.Weight != 0 && !(j.Weight >= MinWeight && j.Weight <= MaxWeight):
			// 0 is no weight (1); outside the range heSRPT's sums of the
			// weights overflowed or underflowed (NaN workers)
			return fmt.Errorf("planner: job %q: weight %g, want %g to %g (or 0, which is 1)", j.ID, j.Weight, MinWeight, MaxWeight)
		case rigid && float64(j.rigid(n)) > n:
			return fmt.Errorf("planner: job %q: needs %d rigid workers, the cluster has %g", j.ID, j.rigid(n), n)
		}
		if pl, ok := j.Curve.(PowerLaw); ok && !(pl.P > 0 && pl.P <= 1) {
			return fmt.Errorf("planner: job %q: exponent p = %g, want 0 < p <= 1", j.ID, pl.P)
		}
	}
	return nil
}

// checkAlloc verifies a policy's allocation (a policy bug is an error, not a
// silent wrong answer).
func checkAlloc(name string, n float64, vs []View, alloc []float64) error {
	sum := 0.0
	for r, a := range alloc[:len(vs)] {
		if !(a >= 0) || a > vs[r].Cap*(1+1e-9)+1e-12 {
			return fmt.Errorf("planner: policy %s gave job %q %g workers, want 0..%g", name, vs[r].Job.ID, a, vs[r].Cap)
		}
		sum += a
	}
	if sum > n*(1+1e-9) {
		return fmt.Errorf("planner: policy %s allocated %g workers of %g", name, sum, n)
	}
	return nil
}

// quantile of sorted x by linear interpolation (type 7).
func quantile(x []float64, q float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	h := q * float64(len(x)-1)
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[i] + (h-lo)*(x[i+1]-x[i])
}
