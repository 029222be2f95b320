package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// kneeRef is Knee as it was before it remembered the last power law's knee
// and took its order from a pool: the reference TestKneeSameAsRef holds Knee
// to.
type kneeRef struct{ Knee }

func (k kneeRef) Allocate(n float64, jobs []View, alloc []float64) {
	order := smallestFirst(jobs, nil)
	left := n
	sure := k.Alpha > 0 && k.Alpha < 1
	for _, i := range order {
		if left == 0 && sure && jobs[i].Cap > 0 {
			alloc[i] = 0
			continue
		}
		a := math.Min(math.Min(kneeOf(jobs[i].Job.Curve, k.Alpha, jobs[i].Cap), jobs[i].Cap), left)
		alloc[i] = a
		left -= a
	}
	spill(left, jobs, alloc, order)
}

// srptRef is SRPT as it was before it took its order from a pool.
type srptRef struct{ SRPT }

func (srptRef) Allocate(n float64, jobs []View, alloc []float64) {
	fillInOrder(n, jobs, alloc, smallestFirst(jobs, nil))
}

// TestKneeSameAsRef: Knee and SRPT give bit for bit what kneeRef and
// srptRef give, call after call (the pooled order left from a longer or a
// shorter call), on random instances: power laws of a few shared exponents
// (1 and 0.5 among them) and of many, Amdahl, humped and kinked curves;
// caps whole, fractional, infinite (but for alpha 0), NaN, 0 and -0; remaining sizes with
// ties; ranks right, wrong and -1; servers whole, fractional and below one;
// alpha in (0, 1) and outside. Simulate under Knee and SRPT gives the same
// Result (%#v, every float to its last bit) as under the references on
// everyJobWorkloads with every everyJobSettings.
func TestKneeSameAsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 11))
	shared := []float64{0.3, 0.5, 0.8, 0.8, 0.95, 1}
	alphas := []float64{0.05, 0.05, 0.2, 0.01, 0, 1, 1.5}
	for trial := range 6000 {
		m := rng.IntN(40)
		n := randomServers(rng, trial)
		jobs, rem := randomJobs(rng, m, shared, nil)
		vs := views(n, jobs, rem)
		for i := range vs {
			switch rng.IntN(40) {
			case 0:
				vs[i].Cap = math.NaN()
			case 1:
				vs[i].Cap = math.Inf(1) // (never with alpha 0 below: kneeRef climbs for ever there; TestKneeUnboundedEnds)
			case 2:
				vs[i].Cap = 0
			case 3:
				vs[i].Cap = math.Copysign(0, -1)
			case 4, 5, 6:
				vs[i].Cap = math.Min(vs[i].Cap, float64(rng.IntN(40))+0.5)
			}
		}
		if trial%3 == 0 { // ranks right
			for r, i := range smallestFirst(vs, nil) {
				vs[i].Rank = r
			}
		}
		if trial%7 == 1 && m > 1 { // ranks wrong
			for i := range vs {
				vs[i].Rank = (i + 1) % m
			}
		}
		alpha := alphas[rng.IntN(len(alphas))]
		if alpha <= 0 {
			for i := range vs {
				if math.IsInf(vs[i].Cap, 1) {
					vs[i].Cap = n
				}
			}
		}
		for _, pols := range [][2]Policy{{Knee{Alpha: alpha}, kneeRef{Knee{Alpha: alpha}}}, {SRPT{}, srptRef{}}} {
			got, want := make([]float64, m), make([]float64, m)
			pols[0].Allocate(n, vs, got)
			pols[1].Allocate(n, vs, want)
			sameAllocBits(t, fmt.Sprintf("trial %d, %s (n %g, %d jobs, alpha %g)", trial, pols[0].Name(), n, m, alpha), got, want)
		}
	}
	for name, w := range everyJobWorkloads(t) {
		for _, pols := range [][2]Policy{{Knee{Alpha: DefaultKneeAlpha}, kneeRef{Knee{Alpha: DefaultKneeAlpha}}}, {SRPT{}, srptRef{}}} {
			sameSimulations(t, name+", "+pols[0].Name(), w.jobs, w.servers, pols[0], pols[1])
		}
	}
}

// TestKneeUnboundedEnds: with alpha 0 (outside NewPolicy's range, open to
// the Knee type) a curve that grows for ever on a view without a cap never
// flattens: Knee gives it the free workers. kneeOf climbed one worker at a
// time toward the infinite cap and never returned.
func TestKneeUnboundedEnds(t *testing.T) {
	jobs := []Job{{Curve: amdahl{F: 0.95}}, {Curve: hump{k0: 5}}}
	vs := views(8, jobs, []float64{100, 200})
	vs[0].Cap, vs[1].Cap = math.Inf(1), math.Inf(1)
	alloc := make([]float64, 2)
	returnsWithin(t, 2*time.Minute, "Knee{Alpha: 0} on an uncapped Amdahl curve did not return", func() {
		Knee{Alpha: 0}.Allocate(8, vs, alloc)
	})
	if alloc[0] != 8 || alloc[1] != 0 {
		t.Errorf("allocation %v, want all 8 workers to the smaller job (its knee is unbounded)", alloc)
	}
	// the humped curve's knee is its peak, found as before
	if k := kneeOf(hump{k0: 5}, 0, math.Inf(1)); k != kneeOf(hump{k0: 5}, 0, 1000) || math.IsInf(k, 0) {
		t.Errorf("hump's knee at alpha 0: %v without a limit, %v under 1000", k, kneeOf(hump{k0: 5}, 0, 1000))
	}
}

// TestKneeHugeCapEnds: at alpha <= 0 (open to the Knee type and to
// kneeOf's callers, not to NewPolicy) a huge finite cap is as good as none:
// a curve still gaining at kneeSearchMost workers never flattens, and its
// knee is the cap, at once (kneeOf climbed one worker at a time toward
// 1e15). Under a cap its knee is the knee without one, capped, and caps
// within kneeSearchMost give what they gave.
func TestKneeHugeCapEnds(t *testing.T) {
	type call struct {
		c            Speedup
		alpha, limit float64
	}
	calls := []call{
		{amdahl{F: 0.95}, 0, 1e15},
		{amdahl{F: 0.95}, -0.5, 1e15},
		{amdahl{F: 0.95}, math.Copysign(0, -1), 1e12},
		{plateau{}, 0, 1e15}, // flat from 5: no step loses
		{hump{k0: 5}, 0, 1e15},
		{hump{k0: 5}, -0.01, 1e15},
	}
	got := make([]float64, len(calls))
	returnsWithin(t, 2*time.Minute, "kneeOf at alpha <= 0 under a cap of 1e15 did not return", func() {
		for i, c := range calls {
			got[i] = kneeOf(c.c, c.alpha, c.limit)
		}
		vs := views(8, []Job{{Curve: amdahl{F: 0.95}}}, []float64{100})
		vs[0].Cap = 1e15
		alloc := make([]float64, 1)
		Knee{Alpha: 0}.Allocate(8, vs, alloc)
	})
	for i, c := range calls {
		want := math.Min(kneeOf(c.c, c.alpha, math.Inf(1)), c.limit)
		if got[i] != want {
			t.Errorf("kneeOf(%T, %v, %g) = %v, want %v (the knee without a cap, capped)", c.c, c.alpha, c.limit, got[i], want)
		}
	}
	if got[0] != 1e15 || got[4] == 1e15 {
		t.Errorf("knees %v: want the cap for the curve that grows for ever, the peak for the humped one", got)
	}
	// within kneeSearchMost nothing changes: the climb ends where it did
	for _, c := range []call{{amdahl{F: 0.95}, 0, 1000}, {plateau{}, 0, kneeSearchMost}, {hump{k0: 5}, 0, 1e15}, {hump{k0: 5}, 0, 3}} {
		if k, want := kneeOf(c.c, c.alpha, c.limit), kneeClimb(c.c, c.alpha, c.limit); k != want {
			t.Errorf("kneeOf(%T, %v, %g) = %v, climbing one by one gives %v", c.c, c.alpha, c.limit, k, want)
		}
	}
}

// kneeClimb is kneeOf's climb for curves other than power laws, one worker
// at a time to the limit, without a bound.
func kneeClimb(c Speedup, alpha, limit float64) float64 {
	k := math.Max(1, math.Min(fewestFitted(c), limit))
	for k < limit && 1-c.Speedup(k)/c.Speedup(k+1) >= alpha {
		k++
	}
	return k
}

// returnsWithin fails t with msg unless f returns within d: a hang, not a
// speed target.
func returnsWithin(t *testing.T, d time.Duration, msg string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		f()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatal(msg)
	}
}
