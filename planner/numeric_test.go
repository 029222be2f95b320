package planner

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// mixedJobs draws jobs with different curves: power laws of different
// exponents and an Amdahl-like curve 1/((1-f) + f/k).
type amdahl struct{ F float64 }

func (a amdahl) Speedup(k float64) float64 {
	if k <= 0 {
		return 0
	}
	if k < 1 {
		return k // linear below one worker
	}
	return 1 / ((1 - a.F) + a.F/k)
}

func mixedJobs(rng *rand.Rand, m int) []Job {
	jobs := make([]Job, m)
	for i := range jobs {
		jobs[i] = Job{ID: string(rune('a' + i)), Size: 0.5 + 10*rng.Float64()}
		if i%2 == 0 {
			jobs[i].Curve = PowerLaw{P: 0.2 + 0.8*rng.Float64()}
		} else {
			jobs[i].Curve = amdahl{F: 0.5 + 0.49*rng.Float64()}
		}
	}
	return jobs
}

// Optimize is never worse than any heuristic (by construction) and its
// reported result replays to the same objective.
func TestOptimizeBeatsHeuristics(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	strict := 0
	for trial := range 6 {
		jobs := mixedJobs(rng, 3+rng.IntN(6))
		n := float64(2 + rng.IntN(14))
		for _, obj := range []Objective{FlowTime, Slowdown} {
			o, err := Optimize(jobs, n, obj, &OptimizeSettings{MaxEvaluations: 400})
			if err != nil {
				t.Fatal(err)
			}
			best := o.Objective
			for name, v := range o.Heuristics {
				if best > v*(1+1e-12) {
					t.Errorf("trial %d %v: numeric %g worse than %s %g", trial, obj, best, name, v)
				}
			}
			r, err := Simulate(jobs, o.Policy, Settings{Servers: n})
			if err != nil {
				t.Fatal(err)
			}
			got := r.WeightedFlow
			if obj == Slowdown {
				got = r.MeanSlowdown * float64(len(jobs))
			}
			if relErr(got, best) > 1e-9 {
				t.Errorf("trial %d: replay of the optimized policy gives %g, reported %g", trial, got, best)
			}
			if best < o.Heuristics[o.Start]*(1-1e-6) {
				strict++
			}
		}
	}
	if strict == 0 {
		t.Errorf("the local search never improved on the best heuristic in 12 instances")
	}
	t.Logf("strict improvements over the best heuristic: %d of 12", strict)
}

// With one power law for all jobs, the search cannot beat the closed form
// and ends close to it.
func TestOptimizeNearClosedForm(t *testing.T) {
	x := []float64{4, 3, 2, 1, 6, 0.5}
	jobs := powerJobs(x, 0.6)
	off, _ := HeSRPT(x, nil, 0.6, 3, FlowTime)
	o, err := Optimize(jobs, 3, FlowTime, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Objective < off.Objective*(1-1e-9) {
		t.Fatalf("numeric %g below the optimum %g", o.Objective, off.Objective)
	}
	if relErr(o.Objective, off.Objective) > 1e-6 {
		t.Errorf("numeric %g, closed form %g: heSRPT itself is among the starts", o.Objective, off.Objective)
	}
}

// A rigid job wider than the cluster leaves fcfs-rigid out of numeric's
// starting points, with a warning (the whole optimisation failed on it);
// the other policies still seed the search.
func TestOptimizeWithoutPlaceableRigid(t *testing.T) {
	jobs := []Job{{ID: "wide", Size: 100, Curve: PowerLaw{P: 0.5}, RigidWorkers: 8}, {ID: "b", Size: 50, Curve: PowerLaw{P: 0.5}}}
	o, err := Optimize(jobs, 4, FlowTime, &OptimizeSettings{MaxEvaluations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.Heuristics["fcfs-rigid"]; ok || len(o.Heuristics) != len(PolicyNames)-1 {
		t.Errorf("heuristics tried: %v", o.Heuristics)
	}
	found := false
	for _, w := range o.Warnings {
		found = found || strings.Contains(w.Error(), `fcfs-rigid left out: job "wide" needs 8 rigid workers, more than the 4 servers`)
	}
	if !found || !(o.Objective <= o.Heuristics["hesrpt"]*(1+1e-12)) {
		t.Errorf("warnings %v, objective %g against hesrpt %g", o.Warnings, o.Objective, o.Heuristics["hesrpt"])
	}
}

// Optimize takes the heuristics' Results it is given (Known) instead of
// replaying them: given every one as Simulate makes it, its outcome is the
// same to the last bit; a Known result that differs is what it reads (a
// fifo doctored to be best becomes the start).
func TestOptimizeKnown(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, m := range []int{6, 80} { // with and without the local search
		jobs := mixedJobs(rng, m)
		for i := range jobs {
			jobs[i].ID = fmt.Sprint("j", i)
		}
		const n = 9
		set := &OptimizeSettings{MaxEvaluations: 200}
		fresh, err := Optimize(jobs, n, FlowTime, set)
		if err != nil {
			t.Fatal(err)
		}
		known := map[string]Result{}
		for _, name := range PolicyNames {
			pol, _ := NewPolicy(name, 0)
			if known[name], err = Simulate(jobs, pol, Settings{Servers: n, Record: true}); err != nil {
				t.Fatal(err)
			}
		}
		reused, err := Optimize(jobs, n, FlowTime, &OptimizeSettings{MaxEvaluations: 200, Known: known})
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fmt.Sprintf("%#v %v %v %d", fresh.Policy, fresh.Objective, fresh.Heuristics, fresh.Evaluations), fmt.Sprintf("%#v %v %v %d", reused.Policy, reused.Objective, reused.Heuristics, reused.Evaluations); a != b {
			t.Errorf("%d jobs: with Known\n%s\nwant as without\n%s", m, b, a)
		}
		doctored := known["fifo"]
		doctored.WeightedFlow = 1e-9
		known["fifo"] = doctored
		o, err := Optimize(jobs, n, FlowTime, &OptimizeSettings{MaxEvaluations: 200, Known: known})
		if err != nil || o.Start != "fifo" || o.Heuristics["fifo"] != 1e-9 {
			t.Errorf("%d jobs: a doctored fifo result: start %s, %v; want fifo read from Known", m, o.Start, err)
		}
	}
}

// priorityRef is Priority.Allocate as it was (two curve evaluations a
// slice, container/heap), the reference TestPrioritySameAsRef holds the
// new one to.
func priorityRef(p Priority, n float64, jobs []View, alloc []float64) {
	units := p.Units
	if units <= 0 {
		units = 256
	}
	u := n / float64(units)
	h := make(gainHeap, 0, len(jobs))
	for i, v := range jobs {
		alloc[i] = 0
		c := v.Job.Curve
		h = append(h, gainItem{i: i, gain: p.V[v.Index] * (c.Speedup(math.Min(u, v.Cap)) - c.Speedup(0)), rem: v.Remaining})
	}
	heap.Init(&h)
	left := n
	for left > 1e-12*n && len(h) > 0 {
		top := h[0]
		v := jobs[top.i]
		add := math.Min(u, math.Min(left, v.Cap-alloc[top.i]))
		alloc[top.i] += add
		left -= add
		if alloc[top.i] >= v.Cap*(1-1e-12) {
			heap.Pop(&h)
			continue
		}
		k := alloc[top.i]
		c := v.Job.Curve
		h[0].gain = p.V[v.Index] * (c.Speedup(math.Min(k+u, v.Cap)) - c.Speedup(k))
		heap.Fix(&h, 0)
	}
}

// Priority evaluates each curve once a slice (the s(k+u) of the last gain
// is the next s(k)) and sifts its heap by hand, with the same allocation to
// the last bit as the code before (priorityRef) on random jobs: power laws,
// Amdahl and humped curves, memoized fitted-like curves at fractional
// counts, fractional caps and servers, equal priorities and remaining work.
func TestPrioritySameAsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	memos := map[Speedup]Speedup{}
	for trial := range 3000 {
		m := 1 + rng.IntN(12)
		n := float64(1 + rng.IntN(40))
		if trial%3 == 0 {
			n += rng.Float64()
		}
		jobs := make([]Job, m)
		views := make([]View, m)
		p := Priority{V: make([]float64, m), Units: []int{0, 7, 64}[trial%3]}
		for i := range jobs {
			var c Speedup
			switch rng.IntN(4) {
			case 0:
				c = PowerLaw{P: 0.2 + 0.8*rng.Float64()}
			case 1:
				c = amdahl{F: 0.5 + 0.49*rng.Float64()}
			case 2:
				c = hump{k0: 1 + 6*rng.Float64()}
			default:
				c = memoize(hump{k0: 3}, n, memos)
			}
			jobs[i] = Job{ID: fmt.Sprint(i), Size: 10, Curve: c}
			cp := n
			if rng.IntN(2) == 0 {
				cp = math.Min(n, 0.5+8*rng.Float64())
			}
			views[i] = View{Job: &jobs[i], Index: i, Remaining: float64(1 + rng.IntN(3)), Cap: cp}
			p.V[i] = float64(1 + rng.IntN(4))
		}
		got, want := make([]float64, m), make([]float64, m)
		p.Allocate(n, views, got)
		priorityRef(p, n, views, want)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: job %d gets %v, the code before %v (servers %v)", trial, i, got[i], want[i], n)
			}
		}
	}
}

// A memoized curve keeps fractional counts too, giving the values the
// curve gives, and keeps at most memoFrac of them; a NaN count is passed
// through, not kept.
func TestMemoCurveFractions(t *testing.T) {
	c := hump{k0: 3}
	m := memoize(c, 8, map[Speedup]Speedup{}).(*memoCurve)
	for range 2 {
		for _, k := range []float64{0.0625, 1.5, 2.25, 7.75, 3} {
			if got, want := m.Speedup(k), c.Speedup(k); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("s(%v) = %v, want %v", k, got, want)
			}
		}
	}
	if len(m.frac) != 4 {
		t.Errorf("%d fractional counts kept, want 4", len(m.frac))
	}
	for i := range memoFrac + 10 {
		m.Speedup(float64(i) + 0.5)
	}
	if v := m.Speedup(math.NaN()); v == v {
		t.Errorf("s(NaN) = %v", v)
	}
	if len(m.frac) != memoFrac {
		t.Errorf("%d fractional counts kept, want at most %d", len(m.frac), memoFrac)
	}
}
