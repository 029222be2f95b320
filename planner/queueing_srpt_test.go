package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomQueueWorkload is a random stream of jobs for the queueing path:
// arrivals in bursts (equal times) and gaps, at a load from light to
// overloaded; sizes of a few values (ties) or continuous; caps none,
// whole or above the servers; power laws of a few exponents, Amdahl and
// humped curves; some weights. Its servers are whole or fractional.
func randomQueueWorkload(rng *rand.Rand, trial int) ([]Job, float64) {
	m := 20 + rng.IntN(180)
	n := float64(1 + rng.IntN(24))
	if trial%3 == 1 {
		n += 0.5
	}
	if trial%7 == 3 {
		n = 0.25 + rng.Float64() // below one worker
	}
	load := []float64{0.3, 0.8, 1.5, 4}[rng.IntN(4)]
	sizes := []float64{100, 400, 400, 1600}
	exps := []float64{0.5, 0.7, 0.9, 1}
	jobs := make([]Job, m)
	t := 0.0
	for i := range jobs {
		if rng.IntN(4) != 0 { // a burst keeps the time
			t += rng.ExpFloat64() * 800 / (load * math.Max(n, 1)) * 4
		}
		j := Job{ID: fmt.Sprint("j", i), Arrival: t}
		if rng.IntN(2) == 0 {
			j.Size = sizes[rng.IntN(len(sizes))]
		} else {
			j.Size = 1 + 1600*rng.ExpFloat64()
		}
		switch rng.IntN(6) {
		case 0:
			j.Curve = amdahl{F: 0.9}
		case 1:
			j.Curve = hump{k0: float64(2 + rng.IntN(5))}
		default:
			j.Curve = PowerLaw{P: exps[rng.IntN(len(exps))]}
		}
		switch rng.IntN(3) {
		case 0:
			j.MaxWorkers = 1 + rng.IntN(8)
		case 1:
			j.MaxWorkers = 1 + rng.IntN(64)
		}
		if rng.IntN(5) == 0 {
			j.Weight = float64(1 + rng.IntN(3))
		}
		jobs[i] = j
	}
	return jobs, n
}

// TestSRPTKneeQueueingSameResults: srpt and knee (at several thresholds),
// shown only the jobs holding workers and the head of the queue by
// remaining size (the queueingPolicy path), give the same Result, every
// float to its last bit (%#v), as the general path gave them before: shown
// every job, with View.Rank kept; on random workloads (bursts of equal
// arrivals, ties in sizes, caps, curves that peak, whole and fractional
// servers, light load and overload, so preemptions) with ideal and whole
// shares, early stops, energy accounting and recorded segments. Knee with
// a threshold outside (0, 1) is shown every job.
func TestSRPTKneeQueueingSameResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 3))
	pols := []Policy{SRPT{}, Knee{Alpha: DefaultKneeAlpha}, Knee{Alpha: 0.2}, Knee{Alpha: 0.01}}
	for _, pol := range pols {
		q, ok := pol.(queueingPolicy)
		if !ok || !q.queues(64) {
			t.Fatalf("%s is not a queueingPolicy", pol.Name())
		}
	}
	for _, alpha := range []float64{0, 1, 1.5, math.NaN()} {
		if (Knee{Alpha: alpha}).queues(64) {
			t.Errorf("knee at alpha %v queues: its knees need not be numbers", alpha)
		}
	}
	trials := 60
	if testing.Short() {
		trials = 15
	}
	for trial := range trials {
		jobs, n := randomQueueWorkload(rng, trial)
		for _, pol := range append(pols, Knee{Alpha: 0}) {
			for _, s := range pathSettings(n, uint64(trial), uint64(trial)) {
				got, gerr := Simulate(jobs, pol, s)
				want, werr := Simulate(jobs, hideRankless(pol), s)
				if fmt.Sprint(gerr) != fmt.Sprint(werr) {
					t.Errorf("trial %d, %s %v, %+v: error %v, general path %v", trial, pol.Name(), pol, s, gerr, werr)
				}
				if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w {
					t.Fatalf("trial %d, %s %v, %+v: results differ from the general path (mean response %v vs %v, %d vs %d reallocations)",
						trial, pol.Name(), pol, s, got.MeanResponse, want.MeanResponse, got.Reallocations, want.Reallocations)
				}
			}
		}
	}
}

// TestSRPTKneeShowFewJobs: under overload (overloadWorkload: hundreds of
// jobs waiting on 64 servers) the simulator shows srpt and knee the jobs
// holding workers and the head of the queue, a handful per event, not
// every job in the system (they ran on the general path: quadratic in the
// jobs, 16.5 s for plan --policy srpt on 30,000 Poisson jobs).
func TestSRPTKneeShowFewJobs(t *testing.T) {
	jobs := overloadWorkload(1000)
	for _, pol := range []Policy{SRPT{}, Knee{Alpha: DefaultKneeAlpha}} {
		for _, integer := range []bool{false, true} {
			shown, inSystem, events := showCounts(t, jobs, pol, Settings{Servers: 64, Integer: integer})
			if shown > 20*events || inSystem < 100*events {
				t.Errorf("%s, integer %v: %.1f jobs shown per event, %.1f in the system: want a handful of hundreds",
					pol.Name(), integer, float64(shown)/float64(events), float64(inSystem)/float64(events))
			}
		}
	}
}

// showCounts simulates jobs under pol and s event by event and returns the
// jobs the simulator showed the policy and those in the system, each
// summed over the events, and the events.
func showCounts(t *testing.T, jobs []Job, pol Policy, s Settings) (shown, inSystem, events int) {
	t.Helper()
	isRigid, err := checkSimulation(jobs, pol, s)
	if err != nil {
		t.Fatal(err)
	}
	st := newSim(jobs, pol, s, isRigid)
	for st.done < len(jobs) {
		if err := st.event(); err != nil {
			t.Fatal(err)
		}
		shown += len(st.shown)
		inSystem += st.inSystem
		events++
	}
	return shown, inSystem, events
}
