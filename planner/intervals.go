package planner

import (
	"math"
	"slices"
)

// sumIntervals adds to age[i], for each job i of gone, the intervals
// dts[from[i]:to[i]] one after the other in their order, as if each had
// been added at its event: the result is that of the same additions, bit
// for bit. Added one by one (sumChains) that is the jobs' time in the
// system counted in events, which grows as the square of the jobs in an
// overloaded queue (100,000 jobs: about 2e9 additions per replay).
//
// Where the sums are long, it jumps instead. While a sum x and x + d stay
// in one binade [2^e, 2^(e+1)), whose numbers are the multiples of u =
// 2^(e-52), the addition x + d rounds to x + u*round(d/u) (to nearest),
// whatever x is, unless d/u is halfway between two integers (the tie then
// goes to the even multiple, which depends on x). For each binade the
// intervals become integers q = round(d/u) with their prefix sums, and a
// sum steps over as many intervals as it can stay in its binade at once,
// exactly; an interval that is a tie, or too large for the prefix sums,
// is added as before, and so is the one that leaves the binade. A sum
// crosses a few dozen binades, at most once each, as it only grows.
func sumIntervals(dts []float64, gone []int, age []float64, from, to []int) {
	total := 0
	for _, i := range gone {
		if n := to[i] - from[i]; n >= jumpMin {
			total += n
		}
	}
	if total < jumpFactor*len(dts) || len(dts) >= math.MaxInt32 || !jumpable(dts) {
		sumChains(dts, gone, age, from, to)
		return
	}
	var short, long []int
	for _, i := range gone {
		if to[i]-from[i] < jumpMin {
			short = append(short, i)
		} else {
			long = append(long, i)
		}
	}
	sumChains(dts, short, age, from, to)
	sumJumps(dts, long, age, from, to)
}

// A sum jumps when it adds jumpMin intervals or more, and those of all
// such sums come to jumpFactor times the intervals there are or more: a
// sum crosses a binade in a few steps, each a search of the prefix sums
// that costs about as much as a thousand additions (cache misses), and
// each binade costs a pass over the intervals (BenchmarkSumIntervals: 10k
// jobs lost 28% with 4,096 and 64).
const (
	jumpMin    = 8192
	jumpFactor = 1024
)

// jumpable reports whether every interval is finite and not negative
// (the clock's steps are): the sums then never fall, and stay finite.
func jumpable(dts []float64) bool {
	for _, d := range dts {
		if !(d >= 0 && d <= math.MaxFloat64) {
			return false
		}
	}
	return true
}

// the binades in which sums jump: u = 2^(e-52) and 2^(52-e) are normal
const (
	jumpMinExp = -960
	jumpMaxExp = 960
	jumpWarm   = 32 // intervals first added one by one: the low binades go by fast
)

// binade is e with x in [2^e, 2^(e+1)), or false where x is not a
// positive number in the binades sums jump in.
func binade(x float64) (int, bool) {
	if !(x > 0) {
		return 0, false
	}
	e := int(math.Float64bits(x)>>52&0x7ff) - 1023 // the exponent of a normal x
	return e, e >= jumpMinExp && e <= jumpMaxExp
}

func sumJumps(dts []float64, gone []int, age []float64, from, to []int) {
	at := make([]int, len(age)) // the next interval each sum adds, for the jobs of gone
	// byExp[e-jumpMinExp]: the jobs whose sums are in binade e
	byExp := make([][]int, jumpMaxExp-jumpMinExp+1)
	lowest := len(byExp)
	for _, i := range gone {
		x, k, end := age[i], from[i], to[i]
		for w := 0; w < jumpWarm && k < end; w++ {
			x += dts[k]
			k++
		}
		age[i], at[i] = x, k
		if k == end {
			continue
		}
		e, ok := binade(x)
		if !ok {
			for _, d := range dts[k:end] {
				x += d
			}
			age[i], at[i] = x, end
			continue
		}
		byExp[e-jumpMinExp] = append(byExp[e-jumpMinExp], i)
		lowest = min(lowest, e-jumpMinExp)
	}
	var prefix []uint64
	var next []int32 // next[k-lo]: the first stop at k or after, hi where none
	for b := lowest; b < len(byExp); b++ {
		jobs := byExp[b]
		if len(jobs) == 0 {
			continue
		}
		byExp[b] = nil
		e := b + jumpMinExp
		// the intervals these sums still add: dts[lo:hi]
		lo, hi := len(dts), 0
		for _, i := range jobs {
			lo, hi = min(lo, at[i]), max(hi, to[i])
		}
		// prefix[k-lo] sums q over lo..k-1; the stops (ties, and q of
		// capQ or more) add 0 and are never jumped over. Below capQ, the
		// sum of all q fits in 63 bits.
		capQ := uint64(1) << 53
		if n := uint64(hi - lo + 1); capQ > (1<<63)/n {
			capQ = (1 << 63) / n
		}
		scale := math.Ldexp(1, 52-e)
		u := math.Ldexp(1, e-52)
		prefix = slices.Grow(prefix[:0], hi-lo+1)[:hi-lo+1]
		next = slices.Grow(next[:0], hi-lo+1)[:hi-lo+1]
		var sum uint64
		prefix[0] = 0
		for k := lo; k < hi; k++ {
			r := dts[k] * scale // exact: a power of two
			if r < 1<<53 {
				f := math.RoundToEven(r)
				if q := uint64(f); math.Abs(r-f) != 0.5 && q < capQ {
					sum += q
					prefix[k-lo+1] = sum
					next[k-lo] = -1
					continue
				}
			}
			next[k-lo] = int32(k)
			prefix[k-lo+1] = sum
		}
		stop := int32(hi)
		for k := hi; k >= lo; k-- {
			if k < hi && next[k-lo] >= 0 {
				stop = next[k-lo]
			}
			next[k-lo] = stop
		}
		const top = 1<<53 - 1 // the largest multiple of u in the binade, in u
		for _, i := range jobs {
			x, k, end := age[i], at[i], to[i]
			for {
				// m: x in u, in [2^52, 2^53); the sum may take the
				// intervals k..j-1 while m + their q stay at most top (x
				// + d is then below 2^(e+1) - u/2), up to the next stop
				m := uint64(x * scale)
				limit := min(end, int(next[k-lo]))
				budget := top - m
				base := prefix[k-lo]
				// the last j in [k, limit] with prefix[j] - base <= budget
				good, step := k, 1
				for good+step <= limit && prefix[good+step-lo]-base <= budget {
					good += step
					step *= 2
				}
				for step > 1 {
					step /= 2
					if good+step <= limit && prefix[good+step-lo]-base <= budget {
						good += step
					}
				}
				if good > k {
					x = float64(m+prefix[good-lo]-base) * u // below 2^53 in u: exact
					k = good
				}
				if k == end {
					break
				}
				x += dts[k] // a stop, or the interval that may leave the binade
				k++
				if k == end {
					break
				}
				if e2, ok := binade(x); !ok || e2 != e {
					if !ok {
						for _, d := range dts[k:end] {
							x += d
						}
						k = end
						break
					}
					byExp[e2-jumpMinExp] = append(byExp[e2-jumpMinExp], i)
					break
				}
			}
			age[i], at[i] = x, k
		}
	}
}
