package planner

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user + system CPU time: on a shared machine the
// wall-clock ns/op grows with other people's load, CPU time much less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds cpu-s/op (CPU seconds per operation) to a benchmark.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkHeSRPT is the offline closed form for M jobs with lognormal sizes
// (target: 1,000,000 jobs in under 1 s).
func BenchmarkHeSRPT(b *testing.B) {
	for _, m := range []int{1000, 10000, 100000, 1000000} {
		rng := rand.New(rand.NewPCG(1, 1))
		x := make([]float64, m)
		for i := range x {
			x[i] = LogNormal{Mu: 8, Sigma: 1.5}.Rand(rng)
		}
		b.Run(fmt.Sprintf("jobs=%d", m), func(b *testing.B) {
			b.ReportAllocs()
			c0 := cpuTime()
			for b.Loop() {
				if _, err := HeSRPT(x, nil, 0.5, 1000, FlowTime); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0)
		})
	}
}

// benchWorkload is a Poisson stream at load 0.7 of n servers (counting each
// job's work as if it scaled linearly), exponential sizes of mean 3600 s,
// s(k) = k^0.8, at most 64 workers per job.
func benchWorkload(count int, n float64) []Job {
	mean := 3600.0
	rate := 0.7 * n / mean
	jobs, err := Poisson{Rate: rate, Count: count, Sizes: Exponential{Mean: mean}, Curve: PowerLaw{P: 0.8}, MaxWorkers: 64}.Jobs(1)
	if err != nil {
		panic(err)
	}
	return jobs
}

// BenchmarkSimulate is the online simulator under heSRPT with whole workers
// (target: 100,000 arrivals on 1,000 servers in under 10 s), and how it grows
// with arrivals and servers.
func BenchmarkSimulate(b *testing.B) {
	for _, c := range []struct {
		count int
		n     float64
	}{{1000, 1000}, {10000, 1000}, {100000, 1000}, {100000, 10}, {100000, 100}} {
		jobs := benchWorkload(c.count, c.n)
		b.Run(fmt.Sprintf("arrivals=%d/servers=%g", c.count, c.n), func(b *testing.B) {
			b.ReportAllocs()
			var r Result
			var err error
			c0 := cpuTime()
			for b.Loop() {
				if r, err = Simulate(jobs, HeSRPTPolicy{}, Settings{Servers: c.n, Integer: true}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0)
			b.ReportMetric(r.MeanInSystem, "jobs-in-system")
			b.ReportMetric(float64(r.Events), "events")
		})
	}
}

// BenchmarkGreedy is one Greedy allocation of 1 or 100 power-law jobs
// (exponents 0.5 to 0.95, remaining work 1 to 100 hours), and for comparison
// the same handed out one worker at a time (greedyOneByOne, the code before
// a lone job took its share at once).
func BenchmarkGreedy(b *testing.B) {
	for _, m := range []int{1, 100} {
		rng := rand.New(rand.NewPCG(3, 3))
		jobs := make([]Job, m)
		rem := make([]float64, m)
		for i := range jobs {
			jobs[i] = Job{Curve: PowerLaw{P: 0.5 + 0.45*rng.Float64()}}
			rem[i] = 3600 * (1 + 99*rng.Float64())
		}
		for _, n := range []float64{1000, 1000000} {
			vs := views(n, jobs, rem)
			alloc := make([]float64, m)
			for _, c := range []struct {
				name string
				f    func(float64, []View, []float64)
			}{{"greedy", Greedy{}.Allocate}, {"one-by-one", greedyOneByOne}} {
				b.Run(fmt.Sprintf("jobs=%d/servers=%g/%s", m, n, c.name), func(b *testing.B) {
					c0 := cpuTime()
					for b.Loop() {
						c.f(n, vs, alloc)
					}
					reportCPU(b, c0)
				})
			}
		}
	}
}

// overloadWorkload is count jobs arriving every 0.5 s on 64 servers,
// exponential sizes of mean 3600 s, s(k) = k^0.8, at most 64 workers per
// job: an offered load of 112, so nearly every job waits in the system until
// the arrivals end, and each event meets up to count jobs.
func overloadWorkload(count int) []Job {
	rng := rand.New(rand.NewPCG(2, 2))
	jobs := make([]Job, count)
	for i := range jobs {
		jobs[i] = Job{ID: fmt.Sprintf("j%d", i), Arrival: 0.5 * float64(i), Size: Exponential{Mean: 3600}.Rand(rng),
			Curve: PowerLaw{P: 0.8}, MaxWorkers: 64}
	}
	return jobs
}

// BenchmarkSimulateOverload is the online simulator under heSRPT on an
// overloaded queue (overloadWorkload on 64 servers), with ideal shares and
// with whole workers, as plan runs both: the cost of an event grows with the
// jobs in the system.
func BenchmarkSimulateOverload(b *testing.B) {
	for _, count := range []int{1000, 2000} {
		jobs := overloadWorkload(count)
		for _, integer := range []bool{false, true} {
			b.Run(fmt.Sprintf("arrivals=%d/integer=%v", count, integer), func(b *testing.B) {
				b.ReportAllocs()
				var r Result
				var err error
				c0 := cpuTime()
				for b.Loop() {
					if r, err = Simulate(jobs, HeSRPTPolicy{}, Settings{Servers: 64, Integer: integer}); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, c0)
				b.ReportMetric(r.MeanInSystem, "jobs-in-system")
				b.ReportMetric(float64(r.Events), "events")
			})
		}
	}
}

// BenchmarkSimulateOverloadFIFO is fifo, fcfs-rigid and sjf on the
// overloaded queue with whole workers (about 1,000 jobs in the system), as
// given (the simulator shows them the jobs holding workers and the head of
// the queue, queueingPolicy), wrapped so that it shows them every job at
// every event ("-general", the cost before the queueing path) and so that
// it also keeps View.Rank ("-ranked", the cost before it skipped that):
// the savings on one binary and machine.
func BenchmarkSimulateOverloadFIFO(b *testing.B) {
	jobs := overloadWorkload(2000)
	for i := range jobs {
		jobs[i].RigidWorkers = 1 + i%8
	}
	for _, pol := range []Policy{FIFO{}, FCFSRigid{}, SJF{}} {
		for _, variant := range []string{"", "-general", "-ranked"} {
			p := pol
			switch variant {
			case "-general":
				p = hideQueueing(pol)
			case "-ranked":
				p = hideRankless(pol)
			}
			b.Run(pol.Name()+variant, func(b *testing.B) {
				b.ReportAllocs()
				var r Result
				var err error
				c0 := cpuTime()
				for b.Loop() {
					if r, err = Simulate(jobs, p, Settings{Servers: 64, Integer: true}); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, c0)
				b.ReportMetric(r.MeanInSystem, "jobs-in-system")
			})
		}
	}
}

// BenchmarkSimulateGreedy is the online simulator under greedy on 500
// servers, as plan --policy greedy runs it on the Philly trace: a Poisson
// stream at load 0.9 (exponential sizes of mean 3600 s, s(k) = k^0.8, no cap
// but the servers), with ideal shares and with whole workers. Each event
// hands out the 500 workers one at a time among the jobs present.
func BenchmarkSimulateGreedy(b *testing.B) {
	const n, mean = 500.0, 3600.0
	jobs, err := Poisson{Rate: 0.9 * n / mean, Count: 2000, Sizes: Exponential{Mean: mean}, Curve: PowerLaw{P: 0.8}}.Jobs(1)
	if err != nil {
		b.Fatal(err)
	}
	for _, integer := range []bool{false, true} {
		b.Run(fmt.Sprintf("integer=%v", integer), func(b *testing.B) {
			b.ReportAllocs()
			var r Result
			c0 := cpuTime()
			for b.Loop() {
				if r, err = Simulate(jobs, Greedy{}, Settings{Servers: n, Integer: integer}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0)
			b.ReportMetric(r.MeanInSystem, "jobs-in-system")
			b.ReportMetric(float64(r.Events), "events")
		})
	}
}

// BenchmarkOptimize64: numeric's search (Optimize, 300 replays) on 64
// jobs of mixed curves (power laws and Amdahl's law) on 16 servers: each
// replay hands out the servers in 256 slices at every event. The search
// runs up to GOMAXPROCS replays at once: cpu-s/op is the CPU it takes.
func BenchmarkOptimize64(b *testing.B) {
	jobs := mixedJobs(rand.New(rand.NewPCG(3, 4)), 64)
	for i := range jobs {
		jobs[i].ID = fmt.Sprint("j", i)
		jobs[i].Arrival = float64(30 * i)
	}
	c0 := cpuTime()
	for b.Loop() {
		if _, err := Optimize(jobs, 16, FlowTime, &OptimizeSettings{MaxEvaluations: 300}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

// BenchmarkSimulateEveryJob is the online simulator under the policies that
// see every job in the system at every event (hell, equi, hesrpt, srpt,
// knee), on BenchmarkSimulateGreedy's stream (500 servers, load 0.9 counted
// as if work scaled linearly, s(k) = k^0.8, no cap but the servers), with
// ideal shares and with whole workers, as plan runs them on the Philly trace.
func BenchmarkSimulateEveryJob(b *testing.B) {
	const n, mean = 500.0, 3600.0
	jobs, err := Poisson{Rate: 0.9 * n / mean, Count: 2000, Sizes: Exponential{Mean: mean}, Curve: PowerLaw{P: 0.8}}.Jobs(1)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"hell", "equi", "hesrpt", "srpt", "knee"} {
		pol, err := NewPolicy(name, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, integer := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/integer=%v", name, integer), func(b *testing.B) {
				b.ReportAllocs()
				var r Result
				c0 := cpuTime()
				for b.Loop() {
					if r, err = Simulate(jobs, pol, Settings{Servers: n, Integer: integer}); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, c0)
				b.ReportMetric(r.MeanInSystem, "jobs-in-system")
				b.ReportMetric(float64(r.Events), "events")
			})
		}
	}
}

// BenchmarkHellMixed is one Hell allocation of 2,000 power-law jobs whose
// five exponents interleave (a converted trace with several --p, or a jobs
// file with a p per row) on 64 servers, caps 64: one remembered s(k) for
// all exponents missed nearly always (powMemo keeps one per exponent).
func BenchmarkHellMixed(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	jobs := make([]Job, 2000)
	rem := make([]float64, len(jobs))
	for i := range jobs {
		jobs[i] = Job{Curve: PowerLaw{P: []float64{0.5, 0.6, 0.7, 0.8, 0.9}[rng.IntN(5)]}, MaxWorkers: 64}
		rem[i] = 3600 * (1 + 99*rng.Float64())
	}
	vs := views(64, jobs, rem)
	alloc := make([]float64, len(jobs))
	c0 := cpuTime()
	for b.Loop() {
		Hell{}.Allocate(64, vs, alloc)
	}
	reportCPU(b, c0)
}

// BenchmarkSimulateOverloadSRPT is srpt and knee under overload, with ideal
// shares and with whole workers: on overloadWorkload (2,000 jobs, about
// 1,000 in the system) and on a stream as the scaling review's gen_jobs.py
// draws it (5,000 Poisson arrivals at load 0.7 counted as linear on 64
// servers, exponential sizes of mean 3600 s, exponents 0.5 to 0.9, caps of
// 64), which srpt and knee overload: the queue grows through the run. They
// ran on the general path (every job shown at every event) and now on the
// queueing path (the holders and the head of the queue by remaining size).
func BenchmarkSimulateOverloadSRPT(b *testing.B) {
	pois, err := Poisson{Rate: 0.7 * 64 / 3600, Count: 5000, Sizes: Exponential{Mean: 3600}, Curve: PowerLaw{P: 0.5}, MaxWorkers: 64}.Jobs(7)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range pois {
		pois[i].Curve = PowerLaw{P: []float64{0.5, 0.6, 0.7, 0.8, 0.9}[rng.IntN(5)]}
	}
	work := []struct {
		name string
		jobs []Job
	}{{"overload", overloadWorkload(2000)}, {"poisson", pois}}
	for _, w := range work {
		for _, pol := range []Policy{SRPT{}, Knee{Alpha: DefaultKneeAlpha}} {
			for _, integer := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/%s/integer=%v", w.name, pol.Name(), integer), func(b *testing.B) {
					b.ReportAllocs()
					var r Result
					c0 := cpuTime()
					for b.Loop() {
						if r, err = Simulate(w.jobs, pol, Settings{Servers: 64, Integer: integer}); err != nil {
							b.Fatal(err)
						}
					}
					reportCPU(b, c0)
					b.ReportMetric(r.MeanInSystem, "jobs-in-system")
				})
			}
		}
	}
}
