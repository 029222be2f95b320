package planner

import (
	"fmt"
	"math"
	"slices"
)

// RoundWorkers turns fractional allocations (workers, summing to at most
// servers) into whole workers in out: each job gets the floor of its share
// (never above caps[i]), then the workers left go one each to the jobs with
// the largest fractional remainders (ties: the larger share, then the earlier
// job), never above a cap. When conserve is true, workers still left go to
// jobs below their caps, largest share first, so that no worker idles while a
// job could use it. alloc is not modified. servers < 0 counts as 0. caps
// nil is no cap but the servers.
//
// Precondition: caps is nil or as long as alloc, and out at least as long
// as alloc; otherwise RoundWorkers panics, naming itself and the two
// lengths (a programmer error).
func RoundWorkers(alloc []float64, caps []int, servers int, conserve bool, out []int) {
	// (a nil caps was said to be len(alloc) caps when out was short)
	if caps != nil && len(caps) != len(alloc) {
		panic(fmt.Sprintf("planner: RoundWorkers: len(caps) = %d, len(alloc) = %d: want one cap per allocation, or nil caps", len(caps), len(alloc)))
	}
	if len(out) < len(alloc) {
		panic(fmt.Sprintf("planner: RoundWorkers: len(out) = %d, len(alloc) = %d: want out at least as long as alloc", len(out), len(alloc)))
	}
	if caps == nil {
		caps = make([]int, len(alloc))
		for i := range caps {
			caps[i] = max(servers, 0)
		}
	}
	roundWorkers(alloc, caps, servers, conserve, out, nil)
}

// remainder is job i's fractional remainder in RoundWorkers, as the keys it
// is ranked by: f = quantum(remainder), share = quantum(alloc[i]).
type remainder struct {
	i        int
	f, share float64
}

// roundWorkers is RoundWorkers with a buffer for the remainders (nil: a new
// one), which it returns for the next call, and spare: the whole workers
// still left once every share had its floor and the largest remainders
// theirs. Only those, when conserve is true, go to jobs whose share was 0
// (the simulator's queueing path must then show the policy every job).
func roundWorkers(alloc []float64, caps []int, servers int, conserve bool, out []int, fr []remainder) (_ []remainder, spare int) {
	m := len(alloc)
	left := max(servers, 0)
	// Remainders and shares are compared at a billionth of a worker: a
	// policy's equal shares differ in their last bits (EQUI's three thirds
	// from water-filling), and the ties must go by the rule, not by
	// rounding noise (quantized values keep the order total).
	fr = fr[:0]
	for i, a := range alloc {
		// the floor, compared as a float before it is an int: a share
		// that is NaN (heSRPT's, of weights whose sum underflowed to 0)
		// or negative gets no workers, +Inf its cap (int(NaN) is any int,
		// and made this panic); the caller's checkAlloc names the share
		fk, k := math.Floor(a+1e-9), 0
		switch {
		case fk >= float64(caps[i]):
			k = caps[i]
		case fk > 0:
			k = int(fk)
		}
		if k > caps[i] {
			k = caps[i]
		}
		if k > left {
			k = left
		}
		out[i] = k
		left -= k
		if f := a - float64(k); f > 1e-9 && k < caps[i] {
			r := remainder{i: i, f: quantum(f)}
			r.share = r.f // a share under one worker is its remainder
			if k > 0 {
				r.share = quantum(a)
			}
			fr = append(fr, r)
		}
	}
	// The workers left go to the first `left` remainders in that (total)
	// order: select them in O(m) rather than sort all.
	picked := fr
	if left < len(fr) {
		selectRemainders(fr, left)
		picked = fr[:left]
	}
	for _, x := range picked {
		out[x.i]++
		left--
	}
	spare = left
	if !conserve || left == 0 {
		return fr, spare
	}
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if qa, qb := quantum(alloc[a]), quantum(alloc[b]); qa != qb {
			return cmpDesc(qa, qb)
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
			return fr, spare
		}
	}
	return fr, spare
}

// quantum is x in billionths of a worker, rounded: the resolution at which
// RoundWorkers tells shares apart (exact below 2^53 / 1e9, 9 million
// workers; MaxServers is 1,000,000).
func quantum(x float64) float64 { return math.Round(x * 1e9) }

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

// before orders remainders: the larger remainder first, then the larger
// share, then the earlier job (a total order).
func (a remainder) before(b remainder) bool {
	switch {
	case a.f != b.f:
		return a.f > b.f
	case a.share != b.share:
		return a.share > b.share
	}
	return a.i < b.i
}

// selectRemainders reorders x so that its first k elements are the k first
// in the order of before, in any order (quickselect, middle pivot). The
// comparison is a method, not a func argument: a generic selection through
// a cmp func cost a tenth of an overloaded whole-worker simulation
// (BenchmarkSimulateOverload).
func selectRemainders(x []remainder, k int) {
	lo, hi := 0, len(x)-1
	for lo < hi {
		p := x[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for x[i].before(p) {
				i++
			}
			for p.before(x[j]) {
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
