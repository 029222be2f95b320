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

// fittedLike is a curve behind a pointer, as a fitted model is (and the
// simulator's memoCurve): s(k) = k/(1 + a(k-1) + b k(k-1)), a rise that
// flattens and then falls, as an asynchronous model's does.
type fittedLike struct{ a, b float64 }

func (c *fittedLike) Speedup(k float64) float64 {
	return k / (1 + c.a*(k-1) + c.b*k*(k-1))
}

// BenchmarkHellCurves is Hell on 2,000 jobs sharing fitted curves (not
// power laws), as a jobs file whose rows name one or a few model files:
// Allocate on 100 and 1,000 servers with one curve and with three (caps
// of 64 on a third of the jobs), and Simulate of 500 jobs all arriving at
// once on one curve on 100 servers. Every job on such a curve was valued
// (its climb) in every round; they now go by groups as the power laws do.
func BenchmarkHellCurves(b *testing.B) {
	curves := []Speedup{&fittedLike{a: 0.01, b: 5e-4}, &fittedLike{a: 0.002, b: 1e-4}, &fittedLike{a: 0.05, b: 0}}
	for _, nc := range []int{1, 3} {
		rng := rand.New(rand.NewPCG(37, 8))
		jobs := make([]Job, 2000)
		rem := make([]float64, len(jobs))
		for i := range jobs {
			jobs[i] = Job{Curve: curves[rng.IntN(nc)]}
			if nc > 1 && rng.IntN(3) == 0 {
				jobs[i].MaxWorkers = 64
			}
			rem[i] = 1000 + float64(i)
		}
		for _, n := range []float64{100, 1000} {
			vs := views(n, jobs, rem)
			alloc := make([]float64, len(jobs))
			b.Run(fmt.Sprintf("allocate/curves=%d/servers=%g", nc, n), func(b *testing.B) {
				c0 := cpuTime()
				for b.Loop() {
					Hell{}.Allocate(n, vs, alloc)
				}
				reportCPU(b, c0)
			})
		}
	}
	jobs := make([]Job, 500)
	for i := range jobs {
		jobs[i] = Job{ID: fmt.Sprintf("j%d", i), Size: 1000 + float64(i), Curve: curves[0]}
	}
	b.Run("simulate/jobs=500/servers=100", func(b *testing.B) {
		b.ReportAllocs()
		c0 := cpuTime()
		for b.Loop() {
			if _, err := Simulate(jobs, Hell{}, Settings{Servers: 100, Integer: true}); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, c0)
	})
}
