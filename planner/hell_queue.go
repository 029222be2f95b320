package planner

import "math"

// Hell on the simulator's queueing path. Hell's value of a job depends on
// the workers still free (its k), so its idle jobs have no one fixed order
// of service; but they have orders that bound the values of the jobs
// after the last one shown, whatever the workers free:
//
//   - a group (idleGroup, hellGroupOf): power laws of one exponent (or any
//     at or below 1/2), whole cap and weight, by remaining size. They share
//     k and s(k) at every round, so a job after the last one shown is
//     valued at most as that one is, at the same workers free, exactly;
//   - the main queue, for the other jobs (other curves, and the groups
//     past maxIdleGroups): by decreasing ceiling, hellCeiling, the most a
//     job can be valued at (its value with every worker up to its cap
//     free). A job after the last one shown has at most its ceiling.
//
// The simulator shows the holders and the first idle jobs of every queue
// (groupedQueue). Where every job Hell picks from them beats each queue's
// bound at the workers free when it is picked (strictly, and the ceiling
// by a margin for rounding, hellMargin; a tie with a group's last job
// shown passes where that job comes after the pick, hellFront.pick), no
// job not shown would have been
// picked in its place, in any round; where also its picked jobs took
// every worker left, no job not shown gets anything: the allocation is
// settled. Otherwise the simulator shows more jobs, up to every one of
// them (a NaN key: every one at once).
//
// Hell reads neither View.Workers nor View.Started, so a job holding
// workers is valued as an idle one would be; the holders are shown at
// every event and compete as before.
func (Hell) queues(float64) bool { return true }

func (Hell) idleKey(v View) (a, b float64) { return -hellCeiling(v), 0 }

func (Hell) allocateFront(n float64, jobs []View, alloc []float64, last int) bool {
	return Hell{}.allocateGroups(n, jobs, alloc, []int{last})
}

// idleGroup puts a power law's job (hellGroupOf) in its group, by
// remaining size: within a group, a job's value never exceeds that of
// one before it at the same free workers.
func (Hell) idleGroup(v View) (key idleGroupKey, a, b float64, ok bool) {
	k, _, ok := hellGroupOf(v)
	if !ok {
		return key, 0, 0, false
	}
	one := uint64(0)
	if k.one {
		one = 1
	}
	return idleGroupKey{k.p, k.w, math.Float64bits(k.capK), one}, v.Remaining, 0, true
}

// allocateGroups implements groupedQueue; allocateFront is it with the
// main queue alone.
func (Hell) allocateGroups(n float64, jobs []View, alloc []float64, lasts []int) bool {
	f := hellFront{jobs: jobs, lasts: lasts}
	unshown := false
	for _, q := range lasts {
		unshown = unshown || q >= 0
	}
	if !unshown {
		hellFill(n, jobs, alloc, nil)
		return true // every job in the system is shown
	}
	if lasts[0] >= 0 {
		f.ceil = hellCeiling(jobs[lasts[0]])
	}
	run := hellFill(n, jobs, alloc, &f)
	return hellSettled(run, &f)
}

// hellFront is what Hell's rounds check each pick against in the
// simulator: the last job shown of each of its queues (lasts: places in
// jobs, -1 where a queue has no job left unshown). Queue 0 is by ceiling,
// with ceil the ceiling of its last job shown; the others are groups
// (idleGroup), by remaining size.
type hellFront struct {
	jobs   []View
	lasts  []int
	ceil   float64
	beaten bool // a pick was not clearly above the jobs not shown
}

// pick checks a pick of value v with L workers free (whole): no job not
// shown may have a value as high. A job after the last shown of a group
// has at most its value at L (the same k, s(k) and weight, a remaining
// size as large); one after the last shown by ceiling, at most that
// ceiling, with a margin for rounding (hellMargin), and none where the
// ceiling is -Inf (a cap below one worker: never picked). best is the
// pick's place in jobs: a tie with a group's last shown that comes after
// it is no threat (those not shown come after that one, or are larger).
func (f *hellFront) pick(L, v float64, best int) {
	const least, most = 1e-290, 1e290 // normal floats, far from overflow
	if q := f.lasts[0]; q >= 0 && !math.IsInf(f.ceil, -1) {
		if !(f.ceil >= least && f.ceil <= most && v > f.ceil*(1+hellMargin)) {
			f.beaten = true
		}
	}
	for _, q := range f.lasts[1:] {
		if q < 0 {
			continue
		}
		gv := hellGroupValue(f.jobs[q], L)
		if v > gv {
			continue
		}
		// a tie with the last shown: the jobs not shown of its size come
		// after it in arrival order; those of larger sizes are valued at
		// most as one of the next size up
		if v == gv && best < q {
			x := f.jobs[q]
			x.Remaining = math.Nextafter(x.Remaining, math.Inf(1))
			if hellGroupValue(x, L) < v {
				continue
			}
		}
		f.beaten = true
	}
}

// hellGroupValue is the value of x, a job in a group (hellGroupOf), with
// L workers free: hellBestMemo's and hellScratch.rounds', bit for bit.
func hellGroupValue(x View, L float64) float64 {
	pl := x.Job.Curve.(PowerLaw)
	k := 1.0
	if pl.P > 0.5 {
		k = math.Min(math.Floor(x.Cap), L)
	}
	s := pl.Speedup(k)
	return hellValue(s, k, x.Remaining) * x.Job.weight()
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
// (run), its picks checked against f, is its allocation on every job in
// the system, restricted to them, with nothing for the others.
func hellSettled(run hellRun, f *hellFront) bool {
	if f.beaten || run.spare {
		return false // a job not shown could be picked, or get workers left
	}
	if run.short {
		// Hell ran out of jobs to pick with a whole worker free: one not
		// shown would be picked, but for those whose cap is below one (a
		// guard: the last job shown of a queue was picked then, and no
		// pick beats that queue's bound, its own value or ceiling)
		for _, q := range f.lasts[1:] {
			if q >= 0 {
				return false
			}
		}
		return f.lasts[0] < 0 || math.IsInf(f.ceil, -1)
	}
	return true
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
		return hellValue(s, k, v.Remaining) * w
	}
	// hellBestMemo's climb, its value at every limit on the way: it only
	// goes on while the value rises
	val := func(k float64) float64 { return hellValue(c.Speedup(k), k, v.Remaining) }
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
