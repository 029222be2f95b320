package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSumIntervals is the responses' sum (sumIntervals) of an
// overloaded queue: count arrivals 40 s apart on average, 2 x count events
// whose intervals are steps of a clock, each job leaving after half as
// many events as jobs came before it (the backlog grows with the
// arrivals, as in plan --policy fifo on /tmp/scale/p100000.csv).
func BenchmarkSumIntervals(b *testing.B) {
	for _, count := range []int{10000, 30000, 100000} {
		rng := rand.New(rand.NewPCG(33, 6))
		n := 2 * count
		clock := make([]float64, n+1)
		dts := make([]float64, n)
		for k := range dts {
			clock[k+1] = clock[k] + rng.ExpFloat64()*20
			dts[k] = clock[k+1] - clock[k]
		}
		from, to := make([]int, count), make([]int, count)
		start := make([]float64, count)
		gone := make([]int, count)
		for i := range count {
			from[i] = 2 * i
			to[i] = min(n, from[i]+1+i/2)
			start[i] = rng.Float64()
			gone[i] = i
		}
		age := make([]float64, count)
		b.Run(fmt.Sprintf("jobs=%d", count), func(b *testing.B) {
			c0 := cpuTime()
			for b.Loop() {
				copy(age, start)
				sumIntervals(dts, gone, age, from, to)
			}
			reportCPU(b, c0)
		})
	}
}
