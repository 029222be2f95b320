package planner

import (
	"math"
	"slices"
)

// RoundWorkers turns fractional allocations (workers, summing to at most
// servers) into whole workers in out: each job gets the floor of its share
// (never above caps[i]), then the workers left go one each to the jobs with
// the largest fractional remainders (ties: the larger share, then the earlier
// job), never above a cap. When conserve is true, workers still left go to
// jobs below their caps, largest share first, so that no worker idles while a
// job could use it. alloc is not modified. servers < 0 counts as 0.
func RoundWorkers(alloc []float64, caps []int, servers int, conserve bool, out []int) {
	m := len(alloc)
	left := max(servers, 0)
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
	cmp := func(a, b frac) int {
		switch {
		case a.f != b.f:
			return cmpDesc(a.f, b.f)
		case alloc[a.i] != alloc[b.i]:
			return cmpDesc(alloc[a.i], alloc[b.i])
		}
		return a.i - b.i
	}
	// The workers left go to the first `left` remainders in that (total)
	// order: select them in O(m) rather than sort all.
	if left < len(fr) {
		selectFirst(fr, left, cmp)
		fr = fr[:left]
	}
	for _, x := range fr {
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
	slices.SortFunc(idx, func(a, b int) int {
		if alloc[a] != alloc[b] {
			return cmpDesc(alloc[a], alloc[b])
		}
		return a - b
	})
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

// cmpDesc orders a before b when a is larger.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// selectFirst reorders x so that its first k elements are the k smallest
// under cmp (a total order), in any order (quickselect, middle pivot).
func selectFirst[T any](x []T, k int, cmp func(a, b T) int) {
	lo, hi := 0, len(x)-1
	for lo < hi {
		p := x[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for cmp(x[i], p) < 0 {
				i++
			}
			for cmp(x[j], p) > 0 {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}
