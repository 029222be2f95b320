package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// priorityPowRef is Priority evaluating every curve as it goes
// (priorityRef, which TestPrioritySameAsRef holds Priority to): the
// reference TestPriorityTablesSameAsRef holds Priority to, as a Policy.
type priorityPowRef struct{ Priority }

func (p priorityPowRef) Allocate(n float64, jobs []View, alloc []float64) {
	priorityRef(p.Priority, n, jobs, alloc)
}

// TestPriorityTablesSameAsRef: Priority, its power laws' s(k) from tables
// kept between calls, gives bit for bit what priorityPowRef gives, call
// after call on the same scratch, on random instances: power laws of a few
// shared exponents (0.5 and 1 among them) and of more than priorityTables,
// Amdahl-like and humped curves, caps whole, fractional and below a slice,
// servers whole and fractional (the same for runs of calls, and changing),
// 7, 64 and 256 slices; and Simulate gives the same Result (%#v) under both
// on everyJobWorkloads with random priorities and mixed curves.
func TestPriorityTablesSameAsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 11))
	shared := []float64{0.3, 0.5, 0.7, 0.7, 0.8, 0.95, 1}
	n := 16.0
	for trial := range 6000 {
		if trial%20 == 0 {
			n = float64(1 + rng.IntN(600))
			if rng.IntN(3) == 0 {
				n += rng.Float64()
			}
		}
		m := 1 + rng.IntN(40)
		jobs := make([]Job, m)
		views := make([]View, m)
		p := Priority{V: make([]float64, m), Units: []int{0, 7, 64, 256}[(trial/20)%4]}
		for i := range jobs {
			var c Speedup
			switch r := rng.IntN(10); {
			case r < 6:
				c = PowerLaw{P: shared[rng.IntN(len(shared))]}
			case r < 8:
				c = PowerLaw{P: 0.2 + 0.8*rng.Float64()} // more than the tables hold
			case r < 9:
				c = amdahl{F: 0.5 + 0.49*rng.Float64()}
			default:
				c = hump{k0: 1 + 6*rng.Float64()}
			}
			jobs[i] = Job{ID: fmt.Sprint(i), Size: 10, Curve: c}
			cp := n
			switch rng.IntN(4) {
			case 0:
				cp = math.Min(n, 0.5+8*rng.Float64())
			case 1:
				cp = math.Min(n, float64(1+rng.IntN(100)))
			case 2:
				cp = math.Min(n, n/512)
			}
			views[i] = View{Job: &jobs[i], Index: i, Remaining: float64(1 + rng.IntN(3)), Cap: cp}
			p.V[i] = float64(1 + rng.IntN(4))
			if rng.IntN(5) == 0 {
				p.V[i] = rng.Float64()
			}
		}
		got, want := make([]float64, m), make([]float64, m)
		p.Allocate(n, views, got)
		priorityPowRef{p}.Allocate(n, views, want)
		sameAllocBits(t, fmt.Sprintf("trial %d (servers %v, %d slices)", trial, n, p.Units), got, want)
	}
	for name, w := range everyJobWorkloads(t) {
		jobs := append([]Job(nil), w.jobs...)
		p := Priority{V: make([]float64, len(jobs))}
		for i := range jobs {
			p.V[i] = 0.5 + rng.Float64()
			if i%4 == 1 {
				jobs[i].Curve = PowerLaw{P: 0.7}
			}
		}
		sameSimulations(t, name, jobs, w.servers, p, priorityPowRef{p})
	}
}
