package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// bfJob is a job as the brute force sees it: its own copy of the numbers,
// with s(k) = k^p worked out here, not by the package's curves.
type bfJob struct {
	arrival, size, weight, p float64
	cap                      int
}

// bruteForceWhole searches every whole-worker schedule that changes its
// allocation only at arrivals and departures (the class every policy's
// whole-worker replay lies in): at each event every allocation of 0..cap
// workers to each job present, at most n in all (idle workers included),
// then the jobs run at k^p until the next arrival or departure. It returns
// the least sum of weight x flow time and, for the best schedule, the
// allocation at each event keyed by the set of jobs present (a bit mask;
// along one schedule no set comes twice, since a departed job never
// returns). A branch is cut when even every job alone on all the workers
// it can use could not beat the best found. It shares no code with
// Simulate or the policies. At most bfMax jobs.
func bruteForceWhole(jobs []bfJob, n int) (best float64, plan map[uint32][]int) {
	M := len(jobs)
	if M > bfMax {
		panic("bruteForceWhole: too many jobs")
	}
	var rate [bfMax][]float64 // rate[i][k] = k^p_i
	for i, j := range jobs {
		rate[i] = make([]float64, n+1)
		for k := 1; k <= n; k++ {
			rate[i][k] = math.Pow(float64(k), j.p)
		}
	}
	best = math.Inf(1)
	type step struct {
		mask  uint32
		alloc [bfMax]int
	}
	var path [2 * bfMax]step
	var rec func(depth int, t float64, rem [bfMax]float64, next int, acc float64)
	rec = func(depth int, t float64, rem [bfMax]float64, next int, acc float64) {
		for next < M && jobs[next].arrival <= t {
			next++
		}
		bound := acc
		for i := range M {
			if rem[i] > 0 {
				bound += jobs[i].weight * (math.Max(t, jobs[i].arrival) + rem[i]/rate[i][min(jobs[i].cap, n)] - jobs[i].arrival)
			}
		}
		if bound >= best {
			return
		}
		var present []int
		var mask uint32
		for i := range next {
			if rem[i] > 0 {
				present = append(present, i)
				mask |= 1 << i
			}
		}
		if len(present) == 0 {
			if next == M {
				best = acc
				plan = map[uint32][]int{}
				for _, s := range path[:depth] {
					plan[s.mask] = append([]int(nil), s.alloc[:M]...)
				}
				return
			}
			rec(depth, jobs[next].arrival, rem, next, acc) // idle until the next arrival
			return
		}
		var k [bfMax]int
		var each func(j, left int)
		each = func(j, left int) {
			if j < len(present) {
				for v := min(left, jobs[present[j]].cap); v >= 0; v-- {
					k[j] = v
					each(j+1, left-v)
				}
				return
			}
			dt := math.Inf(1)
			if next < M {
				dt = jobs[next].arrival - t
			}
			for r, i := range present {
				if k[r] > 0 {
					dt = math.Min(dt, rem[i]/rate[i][k[r]])
				}
			}
			if math.IsInf(dt, 1) {
				return // nobody runs and nobody comes: no schedule
			}
			r2, a2, end := rem, acc, t+dt
			st := step{mask: mask}
			for r, i := range present {
				st.alloc[i] = k[r]
				if k[r] == 0 {
					continue
				}
				if rem[i]/rate[i][k[r]] <= dt*(1+1e-12) { // this job departs now
					r2[i] = 0
					a2 += jobs[i].weight * (end - jobs[i].arrival)
				} else {
					r2[i] = rem[i] - rate[i][k[r]]*dt
				}
			}
			path[depth] = st
			rec(depth+1, end, r2, next, a2)
		}
		each(0, n)
	}
	var rem [bfMax]float64
	for i, j := range jobs {
		rem[i] = j.size
	}
	rec(0, jobs[0].arrival, rem, 0, 0)
	return best, plan
}

const bfMax = 4

// bfReplay is a Policy that plays the brute force's best schedule back:
// the allocation it chose for the set of jobs present. A set it never saw
// (the simulator may call between simultaneous arrivals, for no time) gets
// the first job's cap.
type bfReplay struct {
	plan map[uint32][]int
	miss *int
}

func (bfReplay) Name() string { return "brute-force replay" }

func (b bfReplay) Allocate(n float64, jobs []View, alloc []float64) {
	var mask uint32
	for _, v := range jobs {
		mask |= 1 << v.Index
	}
	a, ok := b.plan[mask]
	if !ok {
		*b.miss++
		alloc[0] = math.Min(n, jobs[0].Cap)
		return
	}
	for i, v := range jobs {
		alloc[i] = float64(a[v.Index])
	}
}

// TestWholeWorkersBruteForce: on 60 small random instances (2-4 jobs with
// different power laws, 2-5 servers, some caps, weights and later arrivals)
// an exhaustive search over every whole-worker schedule that changes only
// at events gives the least weighted flow time. Then:
//
//   - the simulator replays that schedule (a policy that plays it back) to
//     the brute force's objective, 1e-9: its whole-worker accounting agrees
//     with arithmetic done apart from it;
//   - no policy's whole-worker result, and not numeric's (OptimizeWhole),
//     is below that optimum (each is one of the schedules searched);
//   - on one power law with every job at time 0 and no caps, heSRPT's
//     closed form (ideal shares, a relaxation) is not above it, and at
//     p = 1 it equals it, and so does srpt's whole-worker result (all
//     workers to the smallest job is then optimal).
//
// How far numeric's whole-worker plan is from the optimum is logged (it is
// a local search; nothing promises it the optimum).
func TestWholeWorkersBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 35))
	var atOpt, worst = 0, 0.0
	const instances = 60
	for inst := range instances {
		M, n := 2+rng.IntN(3), 2+rng.IntN(4)
		kind := inst % 4 // 0: one power law at time 0; 1: the same at p = 1; else mixed
		p0 := 0.2 + 0.7*rng.Float64()
		if kind == 1 {
			p0 = 1
		}
		bj := make([]bfJob, M)
		jobs := make([]Job, M)
		for i := range bj {
			b := bfJob{size: 1 + 9*rng.Float64(), weight: 1, p: p0, cap: n}
			if kind >= 2 {
				b.p = 0.2 + 0.8*rng.Float64()
				if i > 0 {
					b.arrival = bj[i-1].arrival
					if rng.IntN(2) == 0 {
						b.arrival += 4 * rng.Float64()
					}
				}
				if rng.IntN(3) == 0 {
					b.cap = 1 + rng.IntN(n)
				}
				if rng.IntN(3) == 0 {
					b.weight = 0.5 + 2*rng.Float64()
				}
			}
			bj[i] = b
			jobs[i] = Job{ID: fmt.Sprint("j", i), Arrival: b.arrival, Size: b.size, Curve: PowerLaw{P: b.p}, Weight: b.weight}
			if b.cap < n {
				jobs[i].MaxWorkers = b.cap
			}
		}
		desc := fmt.Sprintf("instance %d, %d servers, jobs %+v", inst, n, bj)
		opt, plan := bruteForceWhole(bj, n)
		whole := Settings{Servers: float64(n), Integer: true}

		miss := 0
		r, err := Simulate(jobs, bfReplay{plan, &miss}, whole)
		if err != nil {
			t.Fatalf("%s: replay: %v", desc, err)
		}
		if relErr(r.WeightedFlow, opt) > 1e-9 {
			t.Fatalf("%s: the simulator replays the brute force's best schedule to %.12g, the brute force says %.12g", desc, r.WeightedFlow, opt)
		}
		for _, name := range PolicyNames {
			pol, _ := NewPolicy(name, 0)
			r, err := Simulate(jobs, pol, whole)
			if err != nil {
				t.Fatalf("%s: %s: %v", desc, name, err)
			}
			if r.WeightedFlow < opt*(1-1e-9) {
				t.Errorf("%s: %s on whole workers %.12g, below the brute-force optimum %.12g", desc, name, r.WeightedFlow, opt)
			}
			if kind == 1 && name == "srpt" && relErr(r.WeightedFlow, opt) > 1e-9 {
				t.Errorf("%s: p = 1: srpt %.12g, the optimum %.12g", desc, r.WeightedFlow, opt)
			}
		}
		o, err := Optimize(jobs, float64(n), FlowTime, nil)
		if err != nil {
			t.Fatal(err)
		}
		w, err := OptimizeWhole(jobs, float64(n), FlowTime, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if w.Objective < opt*(1-1e-9) {
			t.Errorf("%s: numeric on whole workers %.12g, below the brute-force optimum %.12g", desc, w.Objective, opt)
		}
		gap := w.Objective/opt - 1
		if gap < 1e-9 {
			atOpt++
		}
		worst = math.Max(worst, gap)
		if kind <= 1 {
			x := make([]float64, M)
			for i := range x {
				x[i] = bj[i].size
			}
			cf, err := HeSRPT(x, nil, p0, float64(n), FlowTime)
			if err != nil {
				t.Fatal(err)
			}
			if cf.Objective > opt*(1+1e-9) {
				t.Errorf("%s: heSRPT's closed form %.12g, above the whole-worker optimum %.12g", desc, cf.Objective, opt)
			}
			if kind == 1 && relErr(cf.Objective, opt) > 1e-9 {
				t.Errorf("%s: p = 1: closed form %.12g, whole-worker optimum %.12g", desc, cf.Objective, opt)
			}
		}
	}
	t.Logf("numeric's whole-worker plan reached the brute-force optimum in %d of %d instances, at worst %.2f%% above it", atOpt, instances, 100*worst)
}
