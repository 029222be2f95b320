package planner

import (
	"math"
	"sort"
)

// RoundWorkers turns fractional allocations (workers, summing to at most
// servers) into whole workers in out: each job gets the floor of its share
// (never above caps[i]), then the workers left go one each to the jobs with
// the largest fractional remainders (ties: the larger share, then the earlier
// job), never above a cap. When conserve is true, workers still left go to
// jobs below their caps, largest share first, so that no worker idles while a
// job could use it. alloc is not modified.
func RoundWorkers(alloc []float64, caps []int, servers int, conserve bool, out []int) {
	m := len(alloc)
	left := servers
	type frac struct {
		i int
		f float64
	}
	fr := make([]frac, 0, m)
	for i, a := range alloc {
		k := int(math.Floor(a + 1e-9))
		if k > caps[i] {
			k = caps[i]
		}
		if k > left {
			k = left
		}
		out[i] = k
		left -= k
		if f := a - float64(k); f > 1e-9 && k < caps[i] {
			fr = append(fr, frac{i, f})
		}
	}
	sort.SliceStable(fr, func(a, b int) bool {
		if fr[a].f != fr[b].f {
			return fr[a].f > fr[b].f
		}
		return alloc[fr[a].i] > alloc[fr[b].i]
	})
	for _, x := range fr {
		if left == 0 {
			break
		}
		out[x.i]++
		left--
	}
	if !conserve || left == 0 {
		return
	}
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return alloc[idx[a]] > alloc[idx[b]] })
	for left > 0 {
		gave := false
		for _, i := range idx {
			if left == 0 {
				break
			}
			if out[i] < caps[i] {
				out[i]++
				left--
				gave = true
			}
		}
		if !gave {
			return
		}
	}
}
