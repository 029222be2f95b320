package planner

import (
	"cmp"
	"math"
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
// them in jobs. A round thus evaluates the groups' first jobs and the
// jobs in no group (other curves, caps below one worker, weights or sizes
// that are not finite positive numbers), not every job: the same picks,
// the same k, the same values, in the same order.

// hellKey is a group of hellGroups: the exponent (p > 1/2), whole cap and
// weight of its jobs, or (one) k = 1 at every round and the weight.
type hellKey struct {
	p, w uint64  // bits of the exponent (0 where one) and of the weight
	capK float64 // floor(cap) (0 where one)
	one  bool
}

// hellGroup is one group's place in hellScratch.places, lo to hi, and the
// s(k) it last evaluated.
type hellGroup struct {
	lo, hi, head int // head: the first place not known picked
	pl           PowerLaw
	w, capK      float64
	one          bool
	k, s         float64 // s = pl.Speedup(k) (k = 0: none yet)
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

// rounds runs Hell's rounds on jobs from n free workers: it marks the
// jobs picked in done, gives each its k in alloc, appends them to order
// in the order picked and reports order and the workers left; f, where
// not nil, checks each pick. Its first hellPlainRounds rounds evaluate
// every job (hellBestMemo, as the jobs in no group are), the others go by
// groups: the same picks, k and values either way.
func (h *hellScratch) rounds(n float64, jobs []View, done []bool, alloc []float64, order []int, f *hellFront) ([]int, float64) {
	left := n
	for r := 0; r < hellPlainRounds && left >= 1 && len(order) < len(jobs); r++ {
		L := math.Floor(left)
		best, bestK, bestV := -1, 0.0, math.Inf(-1)
		for i := range jobs {
			if done[i] {
				continue
			}
			v := jobs[i]
			k, val := hellBestMemo(v, math.Min(v.Cap, L), &h.pows)
			val *= v.Job.weight()
			if val > bestV { // in the order of jobs: the first of equal values
				best, bestK, bestV = i, k, val
			}
		}
		if best < 0 {
			return order, left
		}
		done[best] = true
		order = append(order, best)
		alloc[best] = bestK
		left -= bestK
		if f != nil {
			f.pick(L, bestV, best)
		}
	}
	if !(left >= 1 && len(order) < len(jobs)) {
		return order, left
	}
	h.group(jobs)
	places, runEnd, groups, others := h.places, h.runEnd, h.groups, h.others
	for left >= 1 && len(order) < len(jobs) {
		L := math.Floor(left)
		best, bestK, bestV := -1, 0.0, math.Inf(-1)
		for _, i := range others {
			if done[i] {
				continue
			}
			v := jobs[i]
			k, val := hellBestMemo(v, math.Min(v.Cap, L), &h.pows)
			val *= v.Job.weight()
			if val > bestV || val == bestV && i < best {
				best, bestK, bestV = i, k, val
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
			k := 1.0 // s(1) = 1 for every exponent
			if !gr.one {
				k = math.Min(gr.capK, L) // floor(min(cap, L))
			}
			if gr.k != k {
				gr.k, gr.s = k, gr.pl.Speedup(k)
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
			if val > bestV || val == bestV && i < best {
				best, bestK, bestV = i, k, val
			}
		}
		if best < 0 {
			break
		}
		done[best] = true
		order = append(order, best)
		alloc[best] = bestK
		left -= bestK
		if f != nil {
			f.pick(L, bestV, best)
		}
	}
	return order, left
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
			h.others = append(h.others, i)
			continue
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
			h.groups = append(h.groups, hellGroup{pl: pl, w: math.Float64frombits(key.w), capK: key.capK, one: key.one})
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
