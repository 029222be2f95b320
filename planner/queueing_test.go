package planner

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// general hides a policy's queueingPolicy mark (keeping its rankless and
// rigid marks), so that the simulator shows it every job at every event:
// the general path, against which the fast path is checked.
type general struct{ Policy }

func (general) ignoresRank() {}

type generalRigid struct{ general }

func (generalRigid) rigid() bool { return true }

func hideQueueing(p Policy) Policy {
	if _, ok := p.(rigidPolicy); ok {
		return generalRigid{general{p}}
	}
	return general{p}
}

// queueingWorkloads are workloads on which queues form and holders get
// preempted: the overloaded queue with rigid widths and weights; a Poisson
// stream at load 0.9 with caps; jobs whose input order is not their arrival
// order (fifo preempts a started job for an earlier index arriving later);
// equal sizes and arrivals (ties in every order); curves that peak (caps
// below the servers) and an Amdahl curve, on fractional servers.
func queueingWorkloads() map[string]struct {
	jobs    []Job
	servers float64
} {
	out := map[string]struct {
		jobs    []Job
		servers float64
	}{}
	over := overloadWorkload(400)
	for i := range over {
		over[i].RigidWorkers = 1 + i%8
		over[i].Weight = float64(1 + i%3)
	}
	out["overload"] = struct {
		jobs    []Job
		servers float64
	}{over, 64}
	pois, err := Poisson{Rate: 0.9 * 16 / 3600, Count: 600, Sizes: Exponential{Mean: 3600}, Curve: PowerLaw{P: 0.7}, MaxWorkers: 6}.Jobs(3)
	if err != nil {
		panic(err)
	}
	out["poisson"] = struct {
		jobs    []Job
		servers float64
	}{pois, 16}
	rng := rand.New(rand.NewPCG(9, 9))
	var shuffled, ties, curves []Job
	for i := range 300 {
		mw := 1 + rng.IntN(4)
		shuffled = append(shuffled, Job{ID: fmt.Sprint("s", i), Arrival: 4000 * rng.Float64(), Size: 50 + 3000*rng.Float64(),
			Curve: PowerLaw{P: 0.6}, MaxWorkers: mw, RigidWorkers: 1 + rng.IntN(mw)})
		ties = append(ties, Job{ID: fmt.Sprint("t", i), Arrival: float64(100 * (i / 10)), Size: float64(500 * (1 + i%3)),
			Curve: PowerLaw{P: 0.9}, MaxWorkers: 2 + i%3})
		var c Speedup = hump{k0: float64(2 + i%5)}
		if i%3 == 0 {
			c = amdahl{F: 0.9}
		}
		curves = append(curves, Job{ID: fmt.Sprint("c", i), Arrival: 20 * float64(i), Size: 200 + 4000*rng.Float64(), Curve: c})
	}
	// random arrivals, rigid widths and caps on 7 servers, in order of
	// arrival (Simulate refuses them out of order)
	slices.SortStableFunc(shuffled, func(a, b Job) int { return cmp.Compare(a.Arrival, b.Arrival) })
	out["shuffled"] = struct {
		jobs    []Job
		servers float64
	}{shuffled, 7}
	out["ties"] = struct {
		jobs    []Job
		servers float64
	}{ties, 8}
	out["curves"] = struct {
		jobs    []Job
		servers float64
	}{curves, 9.5}
	return out
}

// TestQueueingSameResults: fifo, sjf, fcfs-rigid, greedy, srpt and knee, shown only the jobs
// holding workers and the head of the queue (the queueingPolicy path), give
// the same Result, every float to the last bit (%#v), as when the simulator
// shows them every job, with ideal and whole shares, early stops, energy
// accounting and recorded segments.
func TestQueueingSameResults(t *testing.T) {
	for name, w := range queueingWorkloads() {
		for _, pol := range []Policy{FIFO{}, SJF{}, FCFSRigid{}, Greedy{}, SRPT{}, Knee{Alpha: DefaultKneeAlpha}} {
			if _, ok := pol.(queueingPolicy); !ok {
				t.Fatalf("%s is not a queueingPolicy", pol.Name())
			}
			for _, s := range pathSettings(w.servers, 3, 5) {
				got, gerr := Simulate(w.jobs, pol, s)
				want, werr := Simulate(w.jobs, hideQueueing(pol), s)
				if gerr != nil || werr != nil {
					t.Errorf("%s, %s, %+v: error %v, general path %v", name, pol.Name(), s, gerr, werr)
				}
				if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w {
					t.Errorf("%s, %s, %+v: results differ from the general path (mean response %v vs %v, %d vs %d reallocations)",
						name, pol.Name(), s, got.MeanResponse, want.MeanResponse, got.Reallocations, want.Reallocations)
				}
			}
		}
	}
}

// TestFillFrontSettled: fillFront's settled is what it promises: with the
// jobs after jobs[last] (in the order) given more jobs of any caps, the
// allocation of the others does not change and the new jobs get nothing.
func TestFillFrontSettled(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for trial := range 2000 {
		m := 1 + rng.IntN(8)
		jobs := make([]View, m+3)
		for i := range jobs {
			jobs[i] = View{Index: i, Remaining: 1, Cap: float64(rng.IntN(4)) + 0.5*float64(rng.IntN(2))}
		}
		n := float64(1 + rng.IntN(12))
		last := rng.IntN(m)
		alloc := make([]float64, m)
		if !fillFront(n, jobs[:m], alloc, nil, last) {
			continue
		}
		// jobs m.. come after last in arrival order: insert them after it
		full := append(append(append([]View(nil), jobs[:last+1]...), jobs[m:]...), jobs[last+1:m]...)
		fa := make([]float64, len(full))
		fillFront(n, full, fa, nil, -1)
		want := append(append(append([]float64(nil), alloc[:last+1]...), 0, 0, 0), alloc[last+1:]...)
		if fmt.Sprint(fa) != fmt.Sprint(want) {
			t.Fatalf("trial %d: %g servers, last %d: settled, but %v with the jobs after it, want %v", trial, n, last, fa, want)
		}
	}
}

// pathSettings are the settings the queueing path's tests compare the
// general path's results on: on n servers, ideal and whole shares (whole
// only when n is whole), early stops (seeds s1 for ideal, s2 for whole
// shares), energy accounting and recorded segments.
func pathSettings(n float64, s1, s2 uint64) []Settings {
	var out []Settings
	for _, s := range []Settings{
		{Servers: n},
		{Servers: n, Integer: true},
		{Servers: n, EarlyStop: 0.4, Seed: s1},
		{Servers: n, Integer: true, EarlyStop: 0.4, Seed: s2},
		{Servers: n, EnergyAlpha: 2},
		{Servers: n, Integer: true, Record: true},
		{Servers: n, Record: true},
	} {
		if !s.Integer || n == math.Floor(n) {
			out = append(out, s)
		}
	}
	return out
}
