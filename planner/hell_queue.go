package planner

import "math"

// Hell on the simulator's queueing path. Hell's value of a job depends on
// the workers still free (its k), so its idle jobs have no fixed order of
// service; but each has a fixed ceiling, hellCeiling: the most it can be
// valued at whatever the free workers (its value at its cap). Hell's idle
// order is by decreasing ceiling. A job not shown lies after the last idle
// job shown, so its ceiling is at most that job's; where every job Hell
// picks from the jobs shown is valued above that ceiling (with a margin
// for rounding, hellMargin), no job not shown would have been picked in
// its place, in any round; where Hell also stopped for want of a whole
// worker and its picked jobs took every worker left, no job not shown gets
// anything: the allocation is settled. Otherwise the simulator shows more
// jobs, up to every one of them (a NaN ceiling: every one at once).
//
// Hell reads neither View.Workers nor View.Started, so a job holding
// workers is valued as an idle one would be; the holders are shown at
// every event and compete as before.
func (Hell) queues(float64) bool { return true }

func (Hell) idleKey(v View) (a, b float64) { return -hellCeiling(v), 0 }

func (Hell) allocateFront(n float64, jobs []View, alloc []float64, last int) bool {
	run := hellFill(n, jobs, alloc)
	if last < 0 {
		return true // every job in the system is shown
	}
	return hellSettled(run, hellCeiling(jobs[last]))
}

// hellMargin is the relative margin by which a picked job's value must
// exceed the ceiling of the jobs not shown. A power law's value at k
// workers, s(k)^2/(k r) w = k^(2p-1) w/r, is at most its value at its cap
// for p >= 1/2 in exact arithmetic; computed, each is within a few
// roundings of it (math.Pow's error and four operations: under 1e-14
// relative), so that a value can exceed the computed ceiling by no more
// than that (p just above 1/2: k^(2p-1) is flat to the last bits).
const hellMargin = 1e-12

// hellSettled reports whether an allocation of Hell on the jobs shown
// (run) is its allocation on every job in the system, restricted to them,
// with nothing for the others, whose ceilings are at most ceil.
func hellSettled(run hellRun, ceil float64) bool {
	if run.spare {
		return false // workers left would go to jobs not shown too
	}
	if math.IsInf(ceil, -1) {
		// no job not shown can ever be picked (its cap is below one
		// worker), and none gets workers left: Hell stops as it would
		return true
	}
	// jobs not shown could be picked where a picked job was not valued
	// clearly above them, or where Hell ran out of jobs to pick
	const least, most = 1e-290, 1e290 // normal floats, far from overflow
	if run.short || !(ceil >= least && ceil <= most) {
		return false
	}
	return run.least > ceil*(1+hellMargin)
}

// hellCeiling is the most Hell can value job v at (s(k)^2/(k r) times its
// weight, at the k hellBestMemo picks), however many workers are free: its
// value with every worker up to its cap free, for a power law with a
// margin (hellMargin), for other curves exactly (the climb only goes on
// when there are more workers). It is -Inf for a job that can never be
// picked (a cap below one worker), NaN where no ceiling is known: a NaN on
// the climb (after one, a climb's value need not grow with its limit), or
// a weight that is not finite (its product need not keep the order).
func hellCeiling(v View) float64 {
	w := v.Job.weight()
	if !(w > 0 && w <= math.MaxFloat64) {
		return math.NaN()
	}
	limit := v.Cap // min(Cap, floor(free)) is at most Cap
	if limit < 1 {
		return math.Inf(-1)
	}
	c := v.Job.Curve
	if pl, ok := c.(PowerLaw); ok {
		k := 1.0 // the same k at every limit: the same value
		if pl.P > 0.5 {
			k = math.Floor(limit)
		}
		s := pl.Speedup(k)
		return s * s / (k * v.Remaining) * w
	}
	// hellBestMemo's climb, its value at every limit on the way: it only
	// goes on while the value rises
	val := func(k float64) float64 { s := c.Speedup(k); return s * s / (k * v.Remaining) }
	bestV := val(1)
	if bestV != bestV {
		return math.NaN()
	}
	for k := 2.0; k <= limit; k++ {
		x := val(k)
		if x != x {
			return math.NaN()
		}
		if x <= bestV {
			break
		}
		bestV = x
	}
	return bestV * w
}

// frontVaries: the front Hell needs depends on how far its values fall
// from round to round (varyingFront).
func (Hell) frontVaries() {}
