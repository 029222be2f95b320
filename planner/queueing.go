package planner

// queueingPolicy is a policy that serves the jobs holding no workers (idle:
// never started, or preempted to none) in a fixed order of its own and
// stops when the workers run out, so that the simulator can show it, at an
// event, only the jobs holding workers and the first idle jobs in that
// order: on a queue of thousands, a handful of jobs instead of all of them.
// Such a policy never reads View.Rank (it is a ranklessPolicy too).
//
// Invariant: the allocation of Allocate on every job in the system equals,
// on the jobs shown, that of allocateFront on the shown jobs alone whenever
// allocateFront reports settled, and gives the jobs not shown nothing.
type queueingPolicy interface {
	Policy
	ranklessPolicy
	// queues reports whether the policy serves idle jobs that way on n
	// servers (when not, the simulator shows it every job).
	queues(n float64) bool
	// idleKey places an idle job in the policy's idle order: by a, then b,
	// then index (ties). It reads only what stays fixed while a job holds
	// no workers (its job, index, cap, started flag and remaining size).
	idleKey(v View) (a, b float64)
	// allocateFront is Allocate on jobs: the jobs holding workers and the
	// first idle jobs in the idle order, in arrival order, of which
	// jobs[last] is the last in the idle order (last < 0: none). It reports
	// settled when every idle job after jobs[last] in the idle order would
	// get no worker and leave the allocation of jobs as it is, however many
	// there are.
	allocateFront(n float64, jobs []View, alloc []float64, last int) (settled bool)
}

// groupedQueue is a queueingPolicy whose idle jobs also fall into groups,
// each served in an order of its own while the groups interleave in a way
// no one order gives (hell: its value of a job depends on the workers
// free). The simulator keeps a queue for each group, up to maxIdleGroups
// of them, besides the main queue (idleKey's order, for the other jobs)
// and shows the head of each.
type groupedQueue interface {
	queueingPolicy
	// idleGroup places an idle job in a group (key) and in the group's
	// order (by a, then b, then index), or reports ok false: the main
	// queue. It reads only what idleKey may.
	idleGroup(v View) (key idleGroupKey, a, b float64, ok bool)
	// allocateGroups is Allocate on jobs: the jobs holding workers and
	// the first idle jobs of each queue, in arrival order. lasts[0] is the
	// place in jobs of the main queue's last job shown, lasts[g] that of
	// the g-th group's (g from 1, in the order the groups first came);
	// -1 where a queue has no job left unshown. It reports settled when
	// the jobs left unshown would get no worker and leave the allocation
	// of jobs as it is.
	allocateGroups(n float64, jobs []View, alloc []float64, lasts []int) (settled bool)
}

// idleGroupKey names a groupedQueue's group.
type idleGroupKey [4]uint64

// maxIdleGroups bounds the groups the simulator keeps a queue for; the
// jobs of further groups go to the main queue.
const maxIdleGroups = 16

// varyingFront marks a queueingPolicy whose fronts (the idle jobs shown
// until the allocation is settled) vary widely from event to event: the
// simulator starts each event's front at a fraction of the last one's
// (frontDecay), not at its length, which one event that needed a long
// front would keep for every event after it.
type varyingFront interface{ frontVaries() }

// frontDecay divides the last front's length for a varyingFront.
const frontDecay = 2

// FIFO serves every job in arrival order, idle or not: once no worker is
// left after the last idle job shown, the jobs after it get none.
func (FIFO) queues(float64) bool { return true }

func (FIFO) idleKey(View) (a, b float64) { return 0, 0 }

func (FIFO) allocateFront(n float64, jobs []View, alloc []float64, last int) bool {
	return fillFront(n, jobs, alloc, nil, last)
}

// SJF serves the started jobs first, in arrival order, then the others by
// size: its idle order is the same.
func (SJF) queues(float64) bool { return true }

func (SJF) idleKey(v View) (a, b float64) {
	if v.Started {
		return 0, 0
	}
	return 1, v.Job.Size
}

func (SJF) allocateFront(n float64, jobs []View, alloc []float64, last int) bool {
	return sjfFill(n, jobs, alloc, last)
}

// FCFSRigid's idle jobs are those not started (a started job holds its
// rigid workers to the end; were one idle, it would come first): in
// arrival order, and once one is blocked, every one after it gets nothing.
func (FCFSRigid) queues(float64) bool { return true }

func (FCFSRigid) idleKey(v View) (a, b float64) {
	if v.Started {
		return 0, 0
	}
	return 1, 0
}

func (FCFSRigid) allocateFront(n float64, jobs []View, alloc []float64, last int) bool {
	return fcfsRigid(n, jobs, alloc)
}

// Greedy gives a job with no workers an infinite gain, ties going to the
// smaller remaining size, then the earlier job: its idle order. Below
// greedyPrefillMin servers (the prefill weighs every job) and without a
// NaN gain, the heap's top is always the first of its jobs in a total
// order; while the last idle job shown gets nothing, it ranks above every
// job not shown, which can thus never reach the top: the allocation is
// settled. (One job alone in the heap takes all it can at once: the heap
// of the shown jobs then holds the last idle job too, so it is never
// alone where the whole heap is not.)
func (Greedy) queues(n float64) bool { return n < greedyPrefillMin }

func (Greedy) idleKey(v View) (a, b float64) { return v.Remaining, 0 }

func (Greedy) allocateFront(n float64, jobs []View, alloc []float64, last int) bool {
	nan := greedy(n, jobs, alloc)
	return !nan && last >= 0 && alloc[last] == 0
}

// SRPT serves the jobs by increasing remaining size, ties to the earlier
// job (smallestFirst): an idle job's remaining size stays as it is while it
// holds no workers, so its idle order is by remaining size, then index, the
// same order. The jobs before the last idle job shown in that order are all
// shown (the idle ones before it in the idle order, and the holders); once
// no worker is left after it, every job after it gets none (fillFront).
func (SRPT) queues(float64) bool { return true }

func (SRPT) idleKey(v View) (a, b float64) { return v.Remaining, 0 }

func (SRPT) allocateFront(n float64, jobs []View, alloc []float64, last int) bool {
	buf := orderPool.Get().(*[]int)
	defer orderPool.Put(buf)
	*buf = smallestFirst(jobs, *buf)
	return fillFront(n, jobs, alloc, *buf, last)
}

// Knee serves the jobs in SRPT's order, each up to its knee first (which
// depends on the job's curve, cap and Alpha alone, not on what it holds):
// SRPT's idle order. With Alpha in (0, 1), once no worker is left after the
// last idle job shown, every job after it with a cap above 0 (in the
// simulator, every job) gets none, and no worker is left to spill. With
// Alpha outside, a knee need not be a number, and every job is shown.
func (k Knee) queues(float64) bool { return k.Alpha > 0 && k.Alpha < 1 }

func (Knee) idleKey(v View) (a, b float64) { return v.Remaining, 0 }

func (k Knee) allocateFront(n float64, jobs []View, alloc []float64, last int) bool {
	return k.allocate(n, jobs, alloc, last)
}

// idleJobs is a min-heap of the idle jobs (input indices) of a queueing
// policy, by its idle order: key a, then key b, then index.
type idleJobs struct {
	h    []int
	a, b []float64 // by job index: the keys of the jobs in h
}

func (q *idleJobs) less(x, y int) bool {
	switch {
	case q.a[x] != q.a[y]:
		return q.a[x] < q.a[y]
	case q.b[x] != q.b[y]:
		return q.b[x] < q.b[y]
	}
	return x < y
}

func (q *idleJobs) push(i int, a, b float64) {
	q.a[i], q.b[i] = a, b
	q.h = append(q.h, i)
	for k := len(q.h) - 1; k > 0; {
		p := (k - 1) / 2
		if !q.less(q.h[k], q.h[p]) {
			break
		}
		q.h[k], q.h[p] = q.h[p], q.h[k]
		k = p
	}
}

// pop removes and returns the first idle job in the order.
func (q *idleJobs) pop() int {
	top := q.h[0]
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	for k := 0; ; {
		c := 2*k + 1
		if c >= n {
			break
		}
		if c+1 < n && q.less(q.h[c+1], q.h[c]) {
			c++
		}
		if !q.less(q.h[c], q.h[k]) {
			break
		}
		q.h[k], q.h[c] = q.h[c], q.h[k]
		k = c
	}
	return top
}
