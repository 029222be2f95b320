package planner

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
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
		sameAllocBits(t, fmt.Sprintf("trial %d (servers %v)", trial, n), got, want)
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

// parallelJobs draws an instance for TestOptimizeParallelSame: 1 to 12
// jobs on power laws, Amdahl's law (by value, and one pointer shared by
// several jobs), a hump, a plateau, a kink and a function (a curve type
// the simulator cannot key its memo on); arrivals together or spread;
// weights and caps on some.
func parallelJobs(rng *rand.Rand) []Job {
	m := 1 + rng.IntN(12)
	shared := &amdahl{F: 0.5 + 0.49*rng.Float64()}
	jobs := make([]Job, m)
	t := 0.0
	spread := rng.IntN(3) // 0: all at 0
	for i := range jobs {
		if spread > 0 {
			t += 5 * float64(spread) * rng.ExpFloat64()
		}
		jobs[i] = Job{ID: fmt.Sprint("j", i), Arrival: t, Size: 0.5 + 20*rng.Float64()}
		switch rng.IntN(7) {
		case 0, 1:
			jobs[i].Curve = PowerLaw{P: 0.1 + 0.9*rng.Float64()}
		case 2:
			jobs[i].Curve = amdahl{F: 0.5 + 0.49*rng.Float64()}
		case 3:
			jobs[i].Curve = shared
		case 4:
			jobs[i].Curve = hump{k0: 2 + 10*rng.Float64()}
		case 5:
			jobs[i].Curve = []Speedup{plateau{}, kinked{}}[rng.IntN(2)]
		default:
			p := 0.3 + 0.6*rng.Float64()
			jobs[i].Curve = curveFunc(func(k float64) float64 {
				if k <= 0 {
					return 0
				}
				return math.Log1p(k) / math.Log(2) * math.Pow(k, p/4)
			})
		}
		if rng.IntN(3) == 0 {
			jobs[i].Weight = 0.2 + 3*rng.Float64()
		}
		if rng.IntN(4) == 0 {
			jobs[i].MaxWorkers = 1 + rng.IntN(8)
		}
	}
	return jobs
}

// Optimize's replays at once (Parallel) change nothing: on random
// instances (mixed curves, arrivals, weights, both objectives, bounds on
// the evaluations that a sweep runs past) its outcome with 1 replay at a
// time and with 2, 3, 4 or 7 at once is that of the search as it was
// (optimizeRef), bit for bit: the objective, the evaluations, the
// priorities, the Result.
func TestOptimizeParallelSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	trials := 100
	if testing.Short() {
		trials = 30
	}
	show := func(o Optimized) string {
		return fmt.Sprintf("%#v\n%#v\n%#v\n%#v %#v %#v %#v %v", o.Policy, o.Result, o.Objective, o.Start, o.Heuristics, o.Evaluations, o.Warnings, o.Objective)
	}
	searched := 0
	for trial := range trials {
		jobs := parallelJobs(rng)
		n := float64(1+rng.IntN(20)) + []float64{0, 0.5}[rng.IntN(2)]
		obj := []Objective{FlowTime, Slowdown}[rng.IntN(2)]
		maxEv := 1 + rng.IntN(6*len(jobs)+2)
		if trial%50 == 0 {
			jobs = jobs[:min(len(jobs), 3)]
			maxEv = 0 // the default, 3000: to the smallest step
		}
		want, errRef := optimizeRef(jobs, n, obj, &OptimizeSettings{MaxEvaluations: maxEv})
		if want.Evaluations > 1 {
			searched++
		}
		for _, par := range []int{1, []int{2, 3, 4, 7}[trial%4]} {
			got, err := Optimize(jobs, n, obj, &OptimizeSettings{MaxEvaluations: maxEv, Parallel: par})
			if fmt.Sprint(err) != fmt.Sprint(errRef) {
				t.Fatalf("trial %d, %d at once: error %v, want %v", trial, par, err, errRef)
			}
			if a, b := show(got), show(want); a != b {
				t.Fatalf("trial %d (%d jobs, %g servers, %v, at most %d evaluations), %d at once:\n%s\nwant\n%s", trial, len(jobs), n, obj, maxEv, par, a, b)
			}
		}
	}
	if searched < trials/2 {
		t.Errorf("the search ran on %d of %d instances only", searched, trials)
	}
}

// optimizeRef is Optimize as it was before its replays ran at once
// (8786129): one replay at a time.
func optimizeRef(jobs []Job, servers float64, obj Objective, set *OptimizeSettings) (Optimized, error) {
	s := OptimizeSettings{}
	if set != nil {
		s = *set
	}
	if s.MaxJobs == 0 {
		s.MaxJobs = 64
	}
	if s.MaxEvaluations == 0 {
		s.MaxEvaluations = 3000
	}
	value := func(r Result) float64 {
		if obj == Slowdown {
			sum := 0.0
			for i, j := range r.Jobs {
				sum += jobs[i].weight() * j.Slowdown
			}
			return sum
		}
		return r.WeightedFlow
	}
	out := Optimized{Objective: math.Inf(1), Heuristics: map[string]float64{}}
	for _, name := range PolicyNames {
		if name == "fcfs-rigid" {
			// a rigid job wider than the cluster: fcfs-rigid cannot place
			// it, and is no starting point (the whole optimisation failed)
			if why := RigidTooWide(jobs, servers); why != "" {
				out.Warnings = append(out.Warnings, fmt.Errorf("planner: optimize: fcfs-rigid left out: %s", why))
				continue
			}
		}
		pol, err := NewPolicy(name, s.KneeAlpha)
		if err != nil {
			return out, err
		}
		r, ok := s.Known[name]
		if !ok {
			if r, err = Simulate(jobs, pol, Settings{Servers: servers}); err != nil {
				return out, fmt.Errorf("planner: optimize: %s: %w", name, err)
			}
		}
		v := value(r)
		out.Heuristics[name] = v
		if v < out.Objective {
			out.Objective, out.Policy, out.Result, out.Start = v, pol, r, name
		}
	}
	if out.Policy == nil {
		return out, fmt.Errorf("planner: optimize: no policy gives a finite objective (sizes or arrivals so large that the times overflow)")
	}
	if len(jobs) > s.MaxJobs {
		out.Warnings = append(out.Warnings, fmt.Errorf("planner: optimize: %d jobs > %d: best heuristic (%s) returned without local search", len(jobs), s.MaxJobs, out.Start))
		return out, nil
	}
	// heSRPT's priorities at the median exponent.
	ps := make([]float64, len(jobs))
	for i := range jobs {
		ps[i] = exponentOf(jobs[i].Curve, servers)
	}
	sort.Float64s(ps)
	p := math.Min(ps[len(ps)/2], 0.999)
	x := make([]float64, len(jobs))
	wt := make([]float64, len(jobs))
	for i := range jobs {
		x[i] = jobs[i].Size
		wt[i] = jobs[i].weight()
		if obj == Slowdown {
			wt[i] /= x[i]
		}
	}
	idx := sortLargestFirst(x)
	V := make([]float64, len(jobs))
	q := 1 / (1 - p)
	W := 0.0
	for _, j := range idx {
		prev := W
		W += wt[j]
		// (W^q - prev^q)^(1-p) computed as W (1 - (prev/W)^q)^(1-p)
		V[j] = W * math.Pow(1-math.Pow(prev/W, q), 1-p)
	}
	eval := func(V []float64) (float64, Result, error) {
		out.Evaluations++
		r, err := Simulate(jobs, Priority{V: V}, Settings{Servers: servers})
		if err != nil {
			return 0, r, err
		}
		return value(r), r, nil
	}
	cur, curR, err := eval(V)
	if err != nil {
		return out, err
	}
	step := 4.0
	for step > 1.001 && out.Evaluations < s.MaxEvaluations {
		improved := false
		for i := range V {
			for _, f := range []float64{step, 1 / step} {
				old := V[i]
				V[i] = old * f
				v, r, err := eval(V)
				if err != nil {
					return out, err
				}
				if v < cur*(1-1e-12) {
					cur, curR, improved = v, r, true
					break
				}
				V[i] = old
			}
		}
		if !improved {
			step = math.Sqrt(step)
		}
	}
	if cur < out.Objective {
		out.Objective, out.Result = cur, curR
		out.Policy = Priority{V: append([]float64(nil), V...)}
		out.Result.Policy = "numeric"
	}
	return out, nil
}
