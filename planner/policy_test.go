package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func views(n float64, jobs []Job, rem []float64) []View {
	vs := make([]View, len(jobs))
	for i := range jobs {
		vs[i] = View{Job: &jobs[i], Index: i, Remaining: rem[i], Cap: capOf(&jobs[i], n), Rank: -1}
	}
	return vs
}

func TestPolicyAllocations(t *testing.T) {
	cases := []struct {
		name string
		pol  Policy
		n    float64
		jobs []Job
		rem  []float64
		want []float64
	}{
		// knee, alpha = 0.2. p = 0.5: 1 - sqrt(1/2) = 0.293 >= 0.2, but
		// 1 - sqrt(2/3) = 0.184 < 0.2, so the knee is 2. p = 1 never
		// flattens: its knee is its cap, 3. By remaining size B (1), C (2),
		// A (3): B 2, C 3, A 2 = 7 of 10; the 3 left go to B first (cap 10).
		{"knee", Knee{Alpha: 0.2}, 10,
			[]Job{{ID: "A", Curve: PowerLaw{0.5}}, {ID: "B", Curve: PowerLaw{0.5}}, {ID: "C", Curve: PowerLaw{1}, MaxWorkers: 3}},
			[]float64{3, 1, 2}, []float64{2, 5, 3}},
		// knee, alpha = 0.05 at p = 0.5: (k/(k+1))^0.5 > 0.95 <=> k/(k+1) >
		// 0.9025 <=> k > 9.26, so the knee is 10; 1 - sqrt(9/10) = 0.0513 >=
		// 0.05 and 1 - sqrt(10/11) = 0.0465 < 0.05 confirm. 16 servers: the
		// smaller job gets 10, the other the 6 left.
		{"knee-10", Knee{Alpha: 0.05}, 16,
			[]Job{{ID: "A", Curve: PowerLaw{0.5}}, {ID: "B", Curve: PowerLaw{0.5}}},
			[]float64{3, 1}, []float64{6, 10}},
		// hell: value s(k)^2/(k r). A (r 2, p 0.5): k^0/2 = 0.5 at any k, so
		// k = 1. B (r 1, p 0.8, cap 2): k^0.6, best k = 2: 1.516. C (r 3,
		// p 1): k/3, best k = 4 of 4 free: 1.333. B wins: 2 workers. Then with
		// 2 free: A 0.5 at k = 1, C 2/3 = 0.667 at k = 2: C gets 2. Nothing
		// left for A.
		{"hell", Hell{}, 4,
			[]Job{{ID: "A", Curve: PowerLaw{0.5}}, {ID: "B", Curve: PowerLaw{0.8}, MaxWorkers: 2}, {ID: "C", Curve: PowerLaw{1}}},
			[]float64{2, 1, 3}, []float64{0, 2, 2}},
		// greedy, 3 servers, p = 0.5. First worker: both jobs have none
		// (infinite gain), the smaller B (r 1) first; then A (infinite). Third:
		// A's gain 4 (1 - 1/sqrt 2) = 1.172 beats B's 1 (1 - 1/sqrt 2) =
		// 0.293: A. Result A 2, B 1.
		{"greedy", Greedy{}, 3,
			[]Job{{ID: "A", Curve: PowerLaw{0.5}}, {ID: "B", Curve: PowerLaw{0.5}}},
			[]float64{4, 1}, []float64{2, 1}},
		// greedy with weights: B's weight 5 makes its second worker worth
		// 5 x 0.293 = 1.464 > A's 1.172.
		{"greedy-weighted", Greedy{}, 3,
			[]Job{{ID: "A", Curve: PowerLaw{0.5}}, {ID: "B", Curve: PowerLaw{0.5}, Weight: 5}},
			[]float64{4, 1}, []float64{1, 2}},
		// fcfs-rigid: A holds 2 of 4; B needs 3 > 2 free and blocks C (which
		// would fit) behind it.
		{"fcfs-rigid", FCFSRigid{}, 4,
			[]Job{{ID: "A", Curve: PowerLaw{1}, RigidWorkers: 2}, {ID: "B", Curve: PowerLaw{1}, RigidWorkers: 3}, {ID: "C", Curve: PowerLaw{1}, RigidWorkers: 1}},
			[]float64{4, 3, 1}, []float64{2, 0, 0}},
		// equi with a cap: 9 servers over 3 jobs, A capped at 1; the 8 left
		// split 4 and 4.
		{"equi-cap", Equi{}, 9,
			[]Job{{ID: "A", Curve: PowerLaw{1}, MaxWorkers: 1}, {ID: "B", Curve: PowerLaw{1}}, {ID: "C", Curve: PowerLaw{1}}},
			[]float64{1, 2, 3}, []float64{1, 4, 4}},
		// srpt with a cap: the smallest (B, cap 2) gets 2, the rest to C.
		{"srpt-cap", SRPT{}, 5,
			[]Job{{ID: "A", Curve: PowerLaw{1}}, {ID: "B", Curve: PowerLaw{1}, MaxWorkers: 2}, {ID: "C", Curve: PowerLaw{1}}},
			[]float64{9, 1, 3}, []float64{0, 2, 3}},
	}
	for _, c := range cases {
		alloc := make([]float64, len(c.jobs))
		c.pol.Allocate(c.n, views(c.n, c.jobs, c.rem), alloc)
		for i := range alloc {
			if math.Abs(alloc[i]-c.want[i]) > 1e-12*c.n {
				t.Errorf("%s: %v, want %v", c.name, alloc, c.want)
				break
			}
		}
	}
}

// fcfs-rigid through the simulator: 4 servers, p = 1. A (2 workers, size 4)
// runs at rate 2 and ends at t = 2; B (3 workers) blocks C (1) until then;
// both start at 2: C (size 1, rate 1) ends at 3, B (size 3, rate 3) at 3.
// Two of three jobs queued.
func TestFCFSRigidHeadOfLine(t *testing.T) {
	jobs := []Job{
		{ID: "A", Size: 4, Curve: PowerLaw{1}, RigidWorkers: 2},
		{ID: "B", Size: 3, Curve: PowerLaw{1}, RigidWorkers: 3},
		{ID: "C", Size: 1, Curve: PowerLaw{1}, RigidWorkers: 1},
	}
	for _, integer := range []bool{false, true} {
		r, err := Simulate(jobs, FCFSRigid{}, Settings{Servers: 4, Integer: integer})
		if err != nil {
			t.Fatal(err)
		}
		want := []struct{ start, end float64 }{{0, 2}, {2, 3}, {2, 3}}
		for i, w := range want {
			if j := r.Jobs[i]; relErr(j.Start, w.start) > 1e-12 || relErr(j.Completion, w.end) > 1e-12 {
				t.Errorf("integer=%v: job %s start %g end %g, want %g %g", integer, j.ID, j.Start, j.Completion, w.start, w.end)
			}
		}
		if math.Abs(r.QueuedFraction-2.0/3) > 1e-12 {
			t.Errorf("queued fraction %g, want 2/3", r.QueuedFraction)
		}
		// utilization: workers in use 2 (0..2) then 4 (2..3) = 8 of 4 x 3 = 12.
		if relErr(r.Utilization, 8.0/12) > 1e-12 {
			t.Errorf("utilization %g, want 2/3", r.Utilization)
		}
	}
}

// Preemption: one server, p = 1, A (size 5) at t = 0 and B (size 1) at t = 1.
// FIFO and SJF (non-preemptive) finish A at 5, B at 6; SRPT preempts A at
// t = 1: B ends at 2, A at 6.
func TestPreemption(t *testing.T) {
	jobs := []Job{{ID: "A", Size: 5, Curve: PowerLaw{1}}, {ID: "B", Arrival: 1, Size: 1, Curve: PowerLaw{1}}}
	for _, c := range []struct {
		pol  Policy
		a, b float64
	}{{FIFO{}, 5, 6}, {SJF{}, 5, 6}, {SRPT{}, 6, 2}} {
		r, err := Simulate(jobs, c.pol, Settings{Servers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if r.Jobs[0].Completion != c.a || r.Jobs[1].Completion != c.b {
			t.Errorf("%s: completions %g %g, want %g %g", c.pol.Name(), r.Jobs[0].Completion, r.Jobs[1].Completion, c.a, c.b)
		}
	}
}

func TestRoundWorkers(t *testing.T) {
	cases := []struct {
		name     string
		alloc    []float64
		caps     []int
		n        int
		conserve bool
		want     []int
	}{
		// floors 2, 1, 0 = 3; the 1 left goes to the largest remainder, 0.6.
		{"largest-remainder", []float64{2.6, 1.3, 0.1}, []int{4, 4, 4}, 4, true, []int{3, 1, 0}},
		// the first job is at its cap 2: the worker goes to the next remainder.
		{"cap", []float64{2.6, 1.3, 0.1}, []int{2, 4, 4}, 4, true, []int{2, 2, 0}},
		// floors 1, 0; remainder 0.5 -> second; 2 idle workers go to the only
		// job below its cap when conserving, stay idle otherwise.
		{"conserve", []float64{1, 0.5}, []int{1, 4}, 4, true, []int{1, 3}},
		{"no-conserve", []float64{1, 0.5}, []int{1, 4}, 4, false, []int{1, 1}},
		// equal remainders 0.5, 0.5 with one worker left: the larger share.
		{"tie", []float64{1.5, 2.5}, []int{9, 9}, 4, true, []int{1, 3}},
	}
	for _, c := range cases {
		out := make([]int, len(c.alloc))
		RoundWorkers(c.alloc, c.caps, c.n, c.conserve, out)
		for i := range out {
			if out[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, out, c.want)
				break
			}
		}
	}
}

// selectRemainders puts the k first remainders (larger remainder, then
// larger share, then earlier job) first, as sorting them would.
func TestSelectRemainders(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 10))
	for trial := range 500 {
		n := 1 + rng.IntN(60)
		x := make([]remainder, n)
		for i := range x {
			// few values: ties on the remainder and on the share
			x[i] = remainder{i: i, f: float64(rng.IntN(4)), share: float64(rng.IntN(3))}
		}
		rng.Shuffle(n, func(a, b int) { x[a], x[b] = x[b], x[a] })
		k := rng.IntN(n + 1)
		order := func(a, b remainder) int {
			if a.before(b) {
				return -1
			}
			if b.before(a) {
				return 1
			}
			return 0
		}
		sorted := slices.SortedFunc(slices.Values(x), order)
		selectRemainders(x, k)
		head := slices.SortedFunc(slices.Values(x[:k]), order)
		if !slices.Equal(head, sorted[:k]) {
			t.Fatalf("trial %d: first %d are %v, want %v", trial, k, head, sorted[:k])
		}
	}
}

// countingCurve is Amdahl's law that counts its evaluations.
type countingCurve struct {
	F     float64
	calls int
}

func (c *countingCurve) Speedup(k float64) float64 {
	c.calls++
	if k <= 0 {
		return 0
	}
	if k < 1 {
		return k
	}
	return 1 / ((1 - c.F) + c.F/k)
}

// A fitted (non power-law) curve is evaluated once per whole worker count
// however many events and jobs use it, and the results are those of the
// bare curve.
func TestMemoizedCurves(t *testing.T) {
	c := &countingCurve{F: 0.9}
	var jobs []Job
	for i := range 40 {
		jobs = append(jobs, Job{ID: fmt.Sprint(i), Arrival: float64(i), Size: 5 + float64(i%7), Curve: c})
	}
	for _, name := range []string{"greedy", "hell", "knee"} {
		c.calls = 0
		pol, _ := NewPolicy(name, 0)
		r, err := Simulate(jobs, pol, Settings{Servers: 64, Integer: true})
		if err != nil {
			t.Fatal(err)
		}
		if c.calls > 66 {
			t.Errorf("%s: %d evaluations of the curve, want at most 66 (0..65 workers)", name, c.calls)
		}
		if !(r.MeanResponse > 0) {
			t.Errorf("%s: mean response %g", name, r.MeanResponse)
		}
	}
	// hellBestMemo's climb finds the same peak as a full scan: s(k)^2/k
	// for Amdahl f = 0.9 is k / (0.1 k + 0.9)^2, whose maximum is at k = 9.
	v := View{Job: &Job{Curve: c}, Remaining: 1, Cap: 64}
	var memo powMemo
	if k, _ := hellBestMemo(&v, 64, &memo); k != 9 {
		t.Errorf("hell's best k for Amdahl 0.9 = %g, want 9", k)
	}
}

// Shares equal but for their last bits (EQUI's thirds from water-filling)
// are a tie, and the tie goes to the earlier job, as documented; the
// rounding noise picked the job (plan --policy equi on worked.csv ended c
// before b, mean 7.25 where the rule gives 7.5).
func TestRoundWorkersTieIgnoresLastBits(t *testing.T) {
	third := 1.0 / 3
	alloc := []float64{math.Nextafter(third, 0), third, math.Nextafter(third, 1)}
	out := make([]int, 3)
	RoundWorkers(alloc, []int{5, 5, 5}, 1, true, out)
	if out[0] != 1 || out[1] != 0 || out[2] != 0 {
		t.Errorf("thirds one ulp apart: %v, want [1 0 0] (the earlier job)", out)
	}
	// a real difference (a thousandth of a worker) still counts
	alloc = []float64{0.333, 0.333, 0.334}
	RoundWorkers(alloc, []int{5, 5, 5}, 1, true, out)
	if out[2] != 1 {
		t.Errorf("0.333, 0.333, 0.334: %v, want the last", out)
	}
}

// fittedFrom2 is a curve fitted on 2 workers and more: s(2) barely above
// the extrapolated s(1), then (k/2)^0.5 times s(2).
type fittedFrom2 struct{}

func (fittedFrom2) Speedup(k float64) float64 {
	if k <= 2 {
		return 1 + 0.007*(k-1)
	}
	return 1.007 * math.Sqrt(k/2)
}
func (fittedFrom2) FewestWorkers() int { return 2 }

// curveFunc is a curve that says nothing of where it was fitted.
type curveFunc func(float64) float64

func (f curveFunc) Speedup(k float64) float64 { return f(k) }

// The knee policy looks for a knee from the fewest workers a fitted curve
// was fitted on (FittedFrom), through the simulation's memo too: from 1,
// s(2)/s(1) = 1.007 put every such job at 1 worker, while check and the
// report start at 2 (1 - sqrt(k/(k+1)) < 5% from k = 10).
func TestKneeFromFewestFitted(t *testing.T) {
	if k := kneeOf(fittedFrom2{}, 0.05, 64); k != 10 {
		t.Errorf("knee of a curve fitted from 2 workers: %g, want 10", k)
	}
	memo := memoize(fittedFrom2{}, 64, map[Speedup]Speedup{})
	if k := kneeOf(memo, 0.05, 64); k != 10 {
		t.Errorf("through the memo: %g, want 10", k)
	}
	if k := kneeOf(curveFunc(fittedFrom2{}.Speedup), 0.05, 64); k != 1 {
		t.Errorf("the same curve not saying where it was fitted: knee %g, want 1", k)
	}
	if k := kneeOf(fittedFrom2{}, 0.05, 1); k != 1 {
		t.Errorf("limit 1: knee %g, want 1", k)
	}
}

// The knee of linear speedup follows the rule too: one more worker cuts
// the run time by 1/(k+1), under 5% from k = 20 (kneeOf returned the
// limit, "linear speedup never flattens", and the report's own loop 20).
func TestKneeLinear(t *testing.T) {
	if k := (Knee{Alpha: 0.05}).Workers(PowerLaw{P: 1}, 64); k != 20 {
		t.Errorf("knee of k on 64: %d, want 20", k)
	}
	if k := (Knee{Alpha: 0.05}).Workers(PowerLaw{P: 1}, 8); k != 8 {
		t.Errorf("knee of k on 8: %d, want the limit 8", k)
	}
	// by the loop, for a curve that is not a PowerLaw
	if k := (Knee{Alpha: 0.05}).Workers(curveFunc(func(k float64) float64 { return k }), 64); k != 20 {
		t.Errorf("knee of k by the loop: %d, want 20", k)
	}
}

// SJF is non-preemptive shortest job first: a started job keeps its workers,
// and when it ends the smallest waiting job goes next. One server, p = 1:
// A (size 3) at t = 0 starts at once; B (size 5) at 0.5 and C (size 1) at 1
// wait behind it. A ends at 3; C, the smaller waiting job, runs 3..4; B
// runs 4..9. Responses 3, 8.5, 3. Through the queueing fast path and the
// general one (hideQueueing), ideal and whole shares.
func TestSJFSmallestWaitingFirst(t *testing.T) {
	jobs := []Job{
		{ID: "A", Size: 3, Curve: PowerLaw{1}},
		{ID: "B", Arrival: 0.5, Size: 5, Curve: PowerLaw{1}},
		{ID: "C", Arrival: 1, Size: 1, Curve: PowerLaw{1}},
	}
	want := []struct{ start, end float64 }{{0, 3}, {4, 9}, {3, 4}}
	for _, pol := range []Policy{SJF{}, hideQueueing(SJF{})} {
		for _, integer := range []bool{false, true} {
			r, err := Simulate(jobs, pol, Settings{Servers: 1, Integer: integer})
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				if j := r.Jobs[i]; relErr(j.Start, w.start) > 1e-12 || relErr(j.Completion, w.end) > 1e-12 {
					t.Errorf("%T integer=%v: job %s start %g end %g, want %g %g", pol, integer, j.ID, j.Start, j.Completion, w.start, w.end)
				}
			}
		}
	}
}

// Hell weighs each job's value s(k)^2/(k r) by its weight. One server, two
// jobs with 4 s left on p = 0.5 curves: the one free worker gives either
// the value s(1)^2/(1 x 4) = 1/4; B's weight 5 makes its 5/4 against A's
// 1/4, so B gets the server (unweighted, the tie would go to A, the first).
// Through the simulator, both of size 4 at t = 0: B runs 0..4, A 4..8
// (alone, each at s(1) = 1).
func TestHellWeighsValue(t *testing.T) {
	jobs := []Job{
		{ID: "A", Size: 4, Curve: PowerLaw{0.5}},
		{ID: "B", Size: 4, Curve: PowerLaw{0.5}, Weight: 5},
	}
	alloc := make([]float64, 2)
	Hell{}.Allocate(1, views(1, jobs, []float64{4, 4}), alloc)
	if alloc[0] != 0 || alloc[1] != 1 {
		t.Errorf("allocation %v, want [0 1]", alloc)
	}
	for _, integer := range []bool{false, true} {
		r, err := Simulate(jobs, Hell{}, Settings{Servers: 1, Integer: integer})
		if err != nil {
			t.Fatal(err)
		}
		if a, b := r.Jobs[0].Completion, r.Jobs[1].Completion; relErr(a, 8) > 1e-12 || relErr(b, 4) > 1e-12 {
			t.Errorf("integer=%v: completions A %g, B %g, want 8, 4", integer, a, b)
		}
		// weighted flow: 1 x 8 + 5 x 4 = 28
		if relErr(r.WeightedFlow, 28) > 1e-12 {
			t.Errorf("integer=%v: weighted flow %g, want 28", integer, r.WeightedFlow)
		}
	}
}
