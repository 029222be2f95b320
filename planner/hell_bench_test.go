package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSimulateHellOverload is the simulator under hell on an
// overloaded queue of five exponents (overloadWorkload, p from 0.5 to 0.9)
// on 64 servers, with ideal shares and with whole workers: on the general
// path every event scanned every job in the system, once per job picked.
func BenchmarkSimulateHellOverload(b *testing.B) {
	for _, count := range []int{1000, 4000} {
		jobs := overloadWorkload(count)
		rng := rand.New(rand.NewPCG(33, 4))
		for i := range jobs {
			jobs[i].Curve = PowerLaw{P: []float64{0.5, 0.6, 0.7, 0.8, 0.9}[rng.IntN(5)]}
		}
		for _, integer := range []bool{false, true} {
			b.Run(fmt.Sprintf("arrivals=%d/integer=%v", count, integer), func(b *testing.B) {
				b.ReportAllocs()
				c0 := cpuTime()
				for b.Loop() {
					if _, err := Simulate(jobs, Hell{}, Settings{Servers: 64, Integer: integer}); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, c0)
			})
		}
	}
}
