package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// batchJobs is m jobs all present at t = 0 (heSRPT's own setting), as the
// scaling review's gen_jobs.py makes them: exponential sizes of mean 3600 s
// (at least 1 s), at most 64 workers each, s(k) = k^0.8 or, mixed, an
// exponent drawn from 0.5, 0.6, 0.7, 0.8, 0.9.
func batchJobs(m int, mixed bool) []Job {
	rng := rand.New(rand.NewPCG(7, 7))
	jobs := make([]Job, m)
	for i := range jobs {
		p := 0.8
		if mixed {
			p = []float64{0.5, 0.6, 0.7, 0.8, 0.9}[rng.IntN(5)]
		}
		jobs[i] = Job{ID: fmt.Sprintf("j%d", i), Size: max(1, rng.ExpFloat64()*3600), Curve: PowerLaw{P: p}, MaxWorkers: 64}
	}
	return jobs
}

// BenchmarkSimulateBatch is heSRPT on a batch of jobs present at t = 0 on
// 64 servers, ideal shares and whole workers, one exponent and mixed: every
// departure reallocates every job left, so it grows as jobs squared.
func BenchmarkSimulateBatch(b *testing.B) {
	for _, m := range []int{2000, 4000} {
		for _, mixed := range []bool{false, true} {
			jobs := batchJobs(m, mixed)
			for _, whole := range []bool{false, true} {
				name := fmt.Sprintf("jobs=%d/mixed=%v/whole=%v", m, mixed, whole)
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					c0 := cpuTime()
					for b.Loop() {
						if _, err := Simulate(jobs, HeSRPTPolicy{}, Settings{Servers: 64, Integer: whole}); err != nil {
							b.Fatal(err)
						}
					}
					reportCPU(b, c0)
				})
			}
		}
	}
}
