package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// tallyCurve is a fitted-like curve (Amdahl's law) whose value depends on
// every bit of k, so that a cache that answered for a nearby k gives other
// bits, and that counts its evaluations by the bits of k, safely for
// replays at once.
type tallyCurve struct {
	F  float64
	mu sync.Mutex
	by map[uint64]int
}

func newTally(f float64) *tallyCurve { return &tallyCurve{F: f, by: map[uint64]int{}} }

func (c *tallyCurve) Speedup(k float64) float64 {
	b := math.Float64bits(k)
	c.mu.Lock()
	c.by[b]++
	c.mu.Unlock()
	if !(k > 0) {
		return 0
	}
	return k / ((1-c.F)*k + c.F) * (1 + float64(b%4099)*0x1p-50)
}

// total is the evaluations since the last call, and forgets them.
func (c *tallyCurve) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.by {
		n += v
	}
	clear(c.by)
	return n
}

// shareJobs are 24 jobs on two tallyCurves (each shared by several jobs),
// power laws, Amdahl's law and a function (a curve type no map can key
// on), arriving over time, some with caps.
func shareJobs(rng *rand.Rand, a, b *tallyCurve) []Job {
	jobs := make([]Job, 24)
	t := 0.0
	for i := range jobs {
		t += 3 * rng.ExpFloat64()
		jobs[i] = Job{ID: fmt.Sprint("j", i), Arrival: t, Size: 1 + 30*rng.Float64()}
		switch i % 5 {
		case 0, 3:
			jobs[i].Curve = a
		case 1:
			jobs[i].Curve = PowerLaw{P: 0.3 + 0.6*rng.Float64()}
		case 2:
			jobs[i].Curve = []Speedup{b, amdahl{F: 0.8}}[rng.IntN(2)]
		default:
			jobs[i].Curve = curveFunc(func(k float64) float64 { return math.Sqrt(math.Max(k, 0)) })
		}
		if rng.IntN(4) == 0 {
			jobs[i].MaxWorkers = 2 + rng.IntN(6)
		}
	}
	return jobs
}

// Replays through sharedCurves (shareCurves) give the Results of replays
// on the bare curves, bit for bit (%#v), one after the other and several
// at once, and a fitted curve shared by replays one after the other is
// evaluated once per k (but 0, once a replay) instead of once per k and
// replay.
func TestSharedCurveReplays(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	a, b := newTally(0.93), newTally(0.7)
	for _, n := range []float64{16, 13.5, 5} {
		jobs := shareJobs(rng, a, b)
		// as numeric's search replays: one V_i changed at a time
		base := make([]float64, len(jobs))
		for i := range base {
			base[i] = 0.1 + rng.Float64()
		}
		units := []int{0, 48}[rng.IntN(2)]
		var pols []Priority
		for r := range 8 {
			v := append([]float64(nil), base...)
			v[rng.IntN(len(v))] *= []float64{4, 0.25}[r%2]
			pols = append(pols, Priority{V: v, Units: units})
		}
		want := make([]string, len(pols))
		for r, p := range pols {
			res, err := Simulate(jobs, p, Settings{Servers: n})
			if err != nil {
				t.Fatal(err)
			}
			want[r] = fmt.Sprintf("%#v", res)
		}
		bare := a.total() + b.total()

		shared := shareCurves(jobs, n)
		for r, p := range pols {
			res, err := Simulate(shared, p, Settings{Servers: n})
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%#v", res); got != want[r] {
				t.Fatalf("%g servers, replay %d shared:\n%s\nwant\n%s", n, r, got, want[r])
			}
		}
		for _, c := range []*tallyCurve{a, b} {
			for k, times := range c.by {
				if times > 1 && k != 0 && k != 1<<63 {
					t.Errorf("%g servers: s(%v) evaluated %d times, want once", n, math.Float64frombits(k), times)
				}
			}
		}
		once := a.total() + b.total()
		t.Logf("%g servers: %d evaluations shared, %d bare", n, once, bare)
		if !(once > 0 && 3*once < bare) {
			t.Errorf("%g servers: %d evaluations shared, %d bare: want under a third", n, once, bare)
		}

		// four at once, on tables that other replays extend meanwhile
		shared = shareCurves(jobs, n)
		got := make([]string, len(pols))
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for r := w; r < len(pols); r += 4 {
					res, err := Simulate(shared, pols[r], Settings{Servers: n})
					if err != nil {
						got[r] = err.Error()
						continue
					}
					got[r] = fmt.Sprintf("%#v", res)
				}
			})
		}
		wg.Wait()
		for r := range pols {
			if got[r] != want[r] {
				t.Fatalf("%g servers, replay %d of 4 at once:\n%s\nwant\n%s", n, r, got[r], want[r])
			}
		}
		a.total()
		b.total()
	}
}

// Optimize's search shares the curve evaluations of its replays: on jobs
// with fitted-like curves its outcome is that of the search replaying on
// the bare curves (optimizeRef), bit for bit, one replay at a time and two
// at once, with far fewer evaluations of the curves.
func TestOptimizeSharesEvaluations(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	a, b := newTally(0.95), newTally(0.8)
	jobs := shareJobs(rng, a, b)[:16]
	show := func(o Optimized) string {
		return fmt.Sprintf("%#v\n%#v\n%#v\n%#v %#v %#v %#v", o.Policy, o.Result, o.Objective, o.Start, o.Heuristics, o.Evaluations, o.Warnings)
	}
	set := &OptimizeSettings{MaxEvaluations: 200}
	want, err := optimizeRef(jobs, 12, FlowTime, set)
	if err != nil {
		t.Fatal(err)
	}
	bare := a.total() + b.total()
	if want.Evaluations < 50 {
		t.Fatalf("the search ran %d replays only", want.Evaluations)
	}
	for _, par := range []int{1, 2} {
		got, err := Optimize(jobs, 12, FlowTime, &OptimizeSettings{MaxEvaluations: 200, Parallel: par})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := show(got), show(want); g != w {
			t.Fatalf("%d at once:\n%s\nwant\n%s", par, g, w)
		}
		n := a.total() + b.total()
		t.Logf("%d at once: %d evaluations of the curves, %d without sharing", par, n, bare)
		if !(5*n < bare) {
			t.Errorf("%d at once: %d evaluations of the curves, %d without sharing: want under a fifth", par, n, bare)
		}
	}
}

// A sharedCurve keeps at most memoFrac fractional counts, whatever its
// replays add; a replay whose shared table is full still keeps up to
// memoFrac of its own; whole counts are shared but 0; every value is the
// curve's.
func TestSharedCurveBound(t *testing.T) {
	c := hump{k0: 3}
	sc := &sharedCurve{c: c, n: 8}
	check := func(m *memoCurve, k float64) {
		t.Helper()
		if got, want := m.Speedup(k), c.Speedup(k); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("s(%v) = %v, want %v", k, got, want)
		}
	}
	m := sc.memo(8)
	for i := range 100 {
		check(m, float64(i)+0.5)
	}
	check(m, 0)
	check(m, 3)
	sc.merge(m)
	m2 := sc.memo(8)
	if len(m2.snap) != 100 || !(m2.tab[3] == c.Speedup(3)) || m2.tab[0] == m2.tab[0] {
		t.Fatalf("a replay starts from %d fractional counts, s(3) = %v, s(0) = %v", len(m2.snap), m2.tab[3], m2.tab[0])
	}
	for i := range memoFrac + 10 {
		check(m2, float64(i)+0.25)
	}
	sc.merge(m2) // 100 + memoFrac: the first memoFrac kept
	if n := len(*sc.snap.Load()); n != memoFrac {
		t.Fatalf("%d shared fractional counts, want %d", n, memoFrac)
	}
	m3 := sc.memo(8)
	for i := range memoFrac + 10 {
		check(m3, float64(i)+0.25)
		check(m3, float64(i)+0.75)
	}
	if len(m3.frac) != memoFrac {
		t.Errorf("a replay on a full shared table keeps %d of its own, want %d", len(m3.frac), memoFrac)
	}
	sc.merge(m3)
	if n := len(*sc.snap.Load()); n != memoFrac {
		t.Errorf("%d shared fractional counts, want at most %d", n, memoFrac)
	}
	// a replay on other servers does not take the tables
	if m3 := sc.memo(5); m3.snap != nil || m3.tab[3] == m3.tab[3] {
		t.Errorf("a replay on 5 servers took the tables of 8")
	}
}
