package planner

import (
	"cmp"
	"math"
	"reflect"
	"slices"
)

// Hell's rounds by groups. Each round Hell picks, among the jobs it has not
// picked, the one of highest value s(k)^2/(k r) w at its k (the first in
// jobs on equal values). A power law's k is 1 for p <= 1/2, whatever its
// exponent and cap (s(1) = 1: the value is 1/r w), and min(floor(cap),
// floor(free workers)) for p > 1/2: jobs of one exponent, one whole cap
// and one weight share k and s(k) in every round, and their values,
// s(k)^2/(k r) w with the same s(k), k and w, never rise with r (each
// operation rounds monotonically). Such a group, sorted by r (ties: by
// place), has its best at its first job not picked; where jobs further on
// have the same value (equal r, or r within an ulp or so), the first of
// them in jobs. Jobs of one other curve (a fitted model) go in groups
// the same way where their climb to k is sure (curve groups, below). A
// round thus evaluates the groups' first jobs and the jobs in no group
// (curves that are not pointers, caps below one worker, weights or sizes
// that are not finite positive numbers), not every job: the same picks,
// the same k, the same values, in the same order.

// hellKey is a group of hellGroups: the exponent (p > 1/2), whole cap and
// weight of its jobs, or (one) k = 1 at every round and the weight; or,
// for a curve other than a power law (hellCurveGroupOf), the curve (a
// pointer: one curve, not curves equal as values), whole cap and weight.
type hellKey struct {
	p, w uint64  // bits of the exponent (0 where one) and of the weight
	capK float64 // floor(cap) (0 where one)
	one  bool
	c    Speedup // the curve of a curve group; nil for power laws
}

// hellGroup is one group's place in hellScratch.places, lo to hi, and the
// s(k) it last evaluated. A curve group (c not nil) keeps its last climb:
// at limit lim, k and s, and whether it holds for every job (sure).
type hellGroup struct {
	lo, hi, head int // head: the first place not known picked
	pl           PowerLaw
	w, capK      float64
	one          bool
	k, s         float64 // s = pl.Speedup(k) (k = 0: none yet)
	c            Speedup
	lim          float64 // the limit of the last climb (0: none yet)
	sure         bool
}

// hellScanGroups is how many groups hellScratch.group finds by a scan of
// their keys before it looks the others up in a map.
const hellScanGroups = 8

// hellPlainRounds is how many rounds hellScratch.rounds takes by a plain
// scan of every job before it sorts the jobs into groups. The sort costs
// several plain rounds (2,000 jobs: about 200 µs against 25 µs a round),
// and one round is often all there is (a job of p > 1/2 whose cap is the
// servers takes every worker: BenchmarkHellMixed); a second round pays for
// the sort, since the groups' rounds then cost a few evaluations each.
const hellPlainRounds = 1

// hellGroupOf reports the group key of v, or ok false where v goes in no
// group (hellBestMemo evaluates it every round).
func hellGroupOf(v View) (key hellKey, pl PowerLaw, ok bool) {
	pl, ok = v.Job.Curve.(PowerLaw)
	w := v.Job.weight()
	if !ok || !(w > 0 && w <= math.MaxFloat64) || !(v.Cap >= 1 && v.Cap <= math.MaxFloat64) || !(v.Remaining > 0) {
		return hellKey{}, pl, false
	}
	if !(pl.P > 0.5) {
		return hellKey{w: math.Float64bits(w), one: true}, pl, true
	}
	return hellKey{p: math.Float64bits(pl.P), w: math.Float64bits(w), capK: math.Floor(v.Cap)}, pl, true
}

// Curve groups. A curve other than a power law has no k known in
// advance: hellBestMemo climbs from k = 1 while the value s(k)^2/(k r)
// rises, and stops at the first k whose value is not above the last. In
// exact arithmetic, whether s(k)^2/(k r) rises from k-1 to k does not
// depend on r (it is s(k)^2/k against s(k-1)^2/(k-1)); computed, each
// value is a = s(k)*s(k) (the same float for every job) divided by k r,
// within two roundings of a/(k r). Where a/k and a'/(k-1) differ by far
// more than that (hellCurveSure), every job of a normal r takes the same
// step, so jobs of one curve, whole cap and weight share k and s(k) at a
// limit, as a power law's do, and their values never rise with r: the
// group's best is its first job by remaining size, as for the power laws.
// Where a step is a near tie (or a value is not a normal float far from
// the limits), the climb is not sure, and that round the group's jobs
// are each valued by hellBestMemo, as the jobs in no group are.

// hellCurveSure is the relative gap by which s(k)^2/k must differ from
// s(k-1)^2/(k-1) for the climb to take or refuse step k for every r: far
// above the few roundings of each value and of the ratio that compares
// them (under 1e-15).
const hellCurveSure = 0x1p-40

// hellCurveGroupOf reports the group key of v, a job whose curve is not a
// power law: ok false where it goes in no group (a curve that is not a
// pointer, a cap below one worker, a weight that is not a finite positive
// number, a remaining size outside [2^-500, 2^500], where k r and the
// values are normal floats for any s(k)^2 hellClimb takes as sure).
func hellCurveGroupOf(v View) (key hellKey, ok bool) {
	c := v.Job.Curve
	if c == nil {
		return hellKey{}, false
	}
	if _, pl := c.(PowerLaw); pl || reflect.TypeOf(c).Kind() != reflect.Pointer {
		return hellKey{}, false
	}
	w := v.Job.weight()
	if !(w > 0 && w <= math.MaxFloat64) || !(v.Cap >= 1 && v.Cap <= math.MaxFloat64) || !(v.Remaining >= 0x1p-500 && v.Remaining <= 0x1p500) {
		return hellKey{}, false
	}
	return hellKey{w: math.Float64bits(w), capK: math.Floor(v.Cap), c: c}, true
}

// hellClimb is hellBestMemo's climb on curve c up to limit (whole, at
// least 1), for every job of a remaining size in [2^-500, 2^500]: its k,
// s(k), and sure false where some job might climb otherwise (a near tie
// at a step, or a squared speedup outside [2^-400, 2^400]: NaN, zero,
// infinite or far from 1).
func hellClimb(c Speedup, limit float64) (k, s float64, sure bool) {
	const least, most = 0x1p-400, 0x1p400
	k, s = 1, c.Speedup(1)
	a := s * s
	if !(a >= least && a <= most) {
		return k, s, false
	}
	for x := 2.0; x <= limit; x++ {
		sx := c.Speedup(x)
		ax := sx * sx
		if !(ax >= least && ax <= most) {
			return k, s, false
		}
		rho := ax * (x - 1) / (a * x) // s(x)^2/x over s(x-1)^2/(x-1)
		if rho < 1-hellCurveSure {
			break // the value falls at x for every r: the climb stops
		}
		if !(rho > 1+hellCurveSure) {
			return k, s, false
		}
		k, s, a = x, sx, ax
	}
	return k, s, true
}

// hellPick is a round's best job so far: its place i in jobs, its k and
// its value (i -1 and value -Inf: none yet).
type hellPick struct {
	i    int
	k, v float64
}

// or reports the better of p and job i of k and value v: the higher
// value, or on equal values the first in jobs.
func (p hellPick) or(i int, k, v float64) hellPick {
	if v > p.v || v == p.v && i < p.i {
		return hellPick{i, k, v}
	}
	return p
}

// rounds runs Hell's rounds on jobs from n free workers: it marks the
// jobs picked in done, gives each its k in alloc, appends them to order
// in the order picked and reports order and the workers left; f, where
// not nil, checks each pick. Its first hellPlainRounds rounds value every
// job (hellBestMemo, as the jobs in no group are valued), the others go
// by groups (groupRound): the same picks, k and values either way.
func (h *hellScratch) rounds(n float64, jobs []View, done []bool, alloc []float64, order []int, f *hellFront) ([]int, float64) {
	left := n
	for r := 0; left >= 1 && len(order) < len(jobs); r++ {
		L := math.Floor(left)
		var best hellPick
		if r < hellPlainRounds {
			best = hellPick{i: -1, v: math.Inf(-1)}
			for i := range jobs { // in the order of jobs
				if !done[i] {
					k, val := hellBestMemo(&jobs[i], L, &h.pows)
					best = best.or(i, k, val)
				}
			}
		} else {
			if r == hellPlainRounds {
				h.group(jobs)
			}
			best = h.groupRound(jobs, done, L)
		}
		if best.i < 0 {
			break
		}
		done[best.i] = true
		order = append(order, best.i)
		alloc[best.i] = best.k
		left -= best.k
		if f != nil {
			f.pick(L, best.v, best.i)
		}
	}
	return order, left
}

// groupRound reports a round's best job at L free workers by the groups
// of h.group: the jobs in no group each valued, each group by its first
// jobs not picked (each of them valued where a curve group's climb is not
// sure).
func (h *hellScratch) groupRound(jobs []View, done []bool, L float64) hellPick {
	places, runEnd, groups := h.places, h.runEnd, h.groups
	best := hellPick{i: -1, v: math.Inf(-1)}
	for _, i := range h.others {
		if !done[i] {
			k, val := hellBestMemo(&jobs[i], L, &h.pows)
			best = best.or(i, k, val)
		}
	}
	for g := range groups {
		gr := &groups[g]
		q := gr.head
		for q < gr.hi && done[places[q]] {
			q++
		}
		gr.head = q
		if q == gr.hi {
			continue
		}
		var k float64
		if gr.c != nil { // a curve group: its climb at this limit
			if lim := math.Min(gr.capK, L); gr.lim != lim {
				gr.lim = lim
				gr.k, gr.s, gr.sure = hellClimb(gr.c, lim)
			}
			if !gr.sure { // each job as hellBestMemo values it
				for ; q < gr.hi; q++ {
					if i := places[q]; !done[i] {
						k, val := hellBestMemo(&jobs[i], L, &h.pows)
						best = best.or(i, k, val)
					}
				}
				continue
			}
			k = gr.k
		} else {
			k = 1.0 // s(1) = 1 for every exponent
			if !gr.one {
				k = math.Min(gr.capK, L) // floor(min(cap, L))
			}
			if gr.k != k {
				gr.k, gr.s = k, gr.pl.Speedup(k)
			}
		}
		s, w := gr.s, gr.w
		i := places[q]
		val := hellValue(s, k, jobs[i].Remaining) * w
		// the first in jobs among the group's jobs of that value: the
		// first not picked of each run of equal r, while equal
		for q = runEnd[q]; q < gr.hi; q = runEnd[q] {
			for q < gr.hi && done[places[q]] {
				q++
			}
			if q == gr.hi {
				break
			}
			x := places[q]
			if hellValue(s, k, jobs[x].Remaining)*w != val {
				break // below it, as every one after it
			}
			i = min(i, x)
		}
		best = best.or(i, k, val)
	}
	return best
}

// group sorts jobs into h.groups (their places in h.places, by r then
// place, and the end of each place's run of equal r in h.runEnd) and
// h.others.
func (h *hellScratch) group(jobs []View) {
	if h.keys == nil {
		h.keys = map[hellKey]int{}
	}
	clear(h.keys)
	h.gkeys = h.gkeys[:0]
	h.groups, h.others, h.places = h.groups[:0], h.others[:0], h.places[:0]
	if cap(h.gid) < len(jobs) {
		h.gid = make([]int, len(jobs))
	}
	gid := h.gid[:len(jobs)]
	for i, v := range jobs {
		key, pl, ok := hellGroupOf(v)
		if !ok {
			if key, ok = hellCurveGroupOf(v); !ok {
				h.others = append(h.others, i)
				continue
			}
		}
		g := slices.Index(h.gkeys, key) // a few groups: a scan, then a map
		if g < 0 && len(h.gkeys) >= hellScanGroups {
			var seen bool
			if g, seen = h.keys[key]; !seen {
				g = -1
			}
		}
		if g < 0 {
			g = len(h.groups)
			if len(h.gkeys) < hellScanGroups {
				h.gkeys = append(h.gkeys, key)
			} else {
				h.keys[key] = g
			}
			h.groups = append(h.groups, hellGroup{pl: pl, w: math.Float64frombits(key.w), capK: key.capK, one: key.one, c: key.c})
		}
		gid[i] = g
		h.places = append(h.places, i)
	}
	places := h.places
	slices.SortFunc(places, func(a, b int) int {
		if c := cmp.Compare(gid[a], gid[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(jobs[a].Remaining, jobs[b].Remaining); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if cap(h.runEnd) < len(places) {
		h.runEnd = make([]int, len(places))
	}
	runEnd := h.runEnd[:len(places)]
	for q := len(places) - 1; q >= 0; q-- {
		i := places[q]
		if q+1 < len(places) && gid[places[q+1]] == gid[i] && jobs[places[q+1]].Remaining == jobs[i].Remaining {
			runEnd[q] = runEnd[q+1]
		} else {
			runEnd[q] = q + 1
		}
		g := &h.groups[gid[i]]
		if q+1 == len(places) || gid[places[q+1]] != gid[i] {
			g.hi = q + 1
		}
		g.lo, g.head = q, q
	}
	h.runEnd = runEnd
}
