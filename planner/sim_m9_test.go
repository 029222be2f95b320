package planner

import (
	"math"
	"strings"
	"testing"
)

// overAllocating shares n (1 + extra) workers equally among the jobs when
// there are several, each share within its cap (the servers): a policy that
// breaks only the rule "a sum of at most servers". A job alone gets n.
type overAllocating struct{ extra float64 }

func (overAllocating) Name() string { return "over" }
func (o overAllocating) Allocate(n float64, jobs []View, alloc []float64) {
	if len(jobs) == 1 {
		alloc[0] = n
		return
	}
	for i := range jobs {
		alloc[i] = n * (1 + o.extra) / float64(len(jobs))
	}
}

// A policy that hands out more workers than the cluster has is an error
// (the package doc: "a policy that breaks the allocation rules is reported
// as an error, not a wrong answer"), also when it is over by a millionth:
// 2 jobs on 4 servers, 2.000002 workers each, 4.000004 in all. checkAlloc
// forgives a billionth (the rounding of a sum of shares), not more. The
// same policy with extra 0 hands out exactly the 4 and runs.
func TestSimulateRefusesOverAllocationM9(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 10, Curve: PowerLaw{P: 0.5}}, {ID: "b", Size: 20, Curve: PowerLaw{P: 0.5}}}
	_, err := Simulate(jobs, overAllocating{extra: 1e-6}, Settings{Servers: 4})
	if err == nil || !strings.Contains(err.Error(), "allocated 4.000004 workers of 4") {
		t.Errorf("4.000004 workers of 4: err %v, want the over-allocation refused", err)
	}
	if _, err := Simulate(jobs, overAllocating{}, Settings{Servers: 4}); err != nil {
		t.Errorf("exactly 4 workers of 4: %v", err)
	}
}

// pastCap gives job 0 half a worker more than its cap (its MaxWorkers, 2)
// and the rest nothing.
type pastCap struct{}

func (pastCap) Name() string { return "past-cap" }
func (pastCap) Allocate(n float64, jobs []View, alloc []float64) {
	alloc[0] = jobs[0].Cap + 0.5
}

// A policy that gives a job more workers than its cap is an error: job a
// (max_workers 2) on 8 servers gets 2.5, well within the servers.
func TestSimulateRefusesPastCapM9(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 10, Curve: PowerLaw{P: 0.5}, MaxWorkers: 2}}
	_, err := Simulate(jobs, pastCap{}, Settings{Servers: 8})
	if err == nil || !strings.Contains(err.Error(), `gave job "a" 2.5 workers, want 0..2`) {
		t.Errorf("2.5 workers for a cap of 2: err %v, want it refused", err)
	}
}

// rankTieSpy records, at every event, each job's View.Rank by input index
// and allocates as equi (so that equal jobs stay equal). It is a policy
// from outside the package's set: the simulator keeps Rank for it.
type rankTieSpy struct {
	seen *[][]View
}

func (rankTieSpy) Name() string { return "rank-tie-spy" }
func (s rankTieSpy) Allocate(n float64, jobs []View, alloc []float64) {
	*s.seen = append(*s.seen, append([]View(nil), jobs...))
	Equi{}.Allocate(n, jobs, alloc)
}

// View.Rank is the place by increasing remaining size, ties: the earlier
// job first. Three jobs of 10 s at time 0 and one of 30 s: at the first
// event ranks 0, 1, 2 by input order and 3 for the large one; under equi
// the three keep equal remaining sizes (the same share at the same rate),
// so at every event the earlier of two tied jobs has the lower rank, and
// the ranks are 0..m-1 by remaining size.
func TestRankTiesEarlierFirstM9(t *testing.T) {
	jobs := []Job{
		{ID: "a", Size: 10, Curve: PowerLaw{P: 0.5}},
		{ID: "big", Size: 30, Curve: PowerLaw{P: 0.5}},
		{ID: "b", Size: 10, Curve: PowerLaw{P: 0.5}},
		{ID: "c", Size: 10, Curve: PowerLaw{P: 0.5}},
	}
	var seen [][]View
	if _, err := Simulate(jobs, rankTieSpy{&seen}, Settings{Servers: 4}); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("the policy was never called")
	}
	first := map[int]int{}
	for _, v := range seen[0] {
		first[v.Index] = v.Rank
	}
	if first[0] != 0 || first[2] != 1 || first[3] != 2 || first[1] != 3 {
		t.Errorf("ranks at the first event by input index %v, want a 0, b 1, c 2, big 3", first)
	}
	for e, vs := range seen {
		used := make([]bool, len(vs))
		for _, v := range vs {
			if v.Rank < 0 || v.Rank >= len(vs) || used[v.Rank] {
				t.Fatalf("event %d: ranks %v are not 0..%d", e, ranksOf(vs), len(vs)-1)
			}
			used[v.Rank] = true
		}
		for _, a := range vs {
			for _, b := range vs {
				if a.Remaining < b.Remaining || (a.Remaining == b.Remaining && a.Index < b.Index) {
					if a.Rank > b.Rank {
						t.Errorf("event %d: job %d (%g s left) ranks %d, after job %d (%g s left, rank %d)", e, a.Index, a.Remaining, a.Rank, b.Index, b.Remaining, b.Rank)
					}
				}
			}
		}
	}
}

func ranksOf(vs []View) []int {
	r := make([]int, len(vs))
	for i, v := range vs {
		r[i] = v.Rank
	}
	return r
}

// A reallocation is a change of the workers of a job that had started (a
// first start is not one). Equi on 2 servers, p = 1: a (10 s) arrives at 0
// and takes both workers, a first start; b (10 s) arrives at 1, a drops to
// 1 worker (reallocation 1) and b starts on 1 (a first start); a has
// 10 - 2 = 8 s left at rate 1 and ends at 9, b has 10 - 8 = 2 s left and
// takes both workers (reallocation 2), ending at 9 + 2/2 = 10. So 2
// reallocations, completions 9 and 10.
func TestReallocationsSkipFirstStartsM9(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 10, Curve: PowerLaw{P: 1}}, {ID: "b", Arrival: 1, Size: 10, Curve: PowerLaw{P: 1}}}
	r, err := Simulate(jobs, Equi{}, Settings{Servers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reallocations != 2 {
		t.Errorf("reallocations %d, want 2 (a: 2 -> 1 at t = 1, b: 1 -> 2 at t = 9)", r.Reallocations)
	}
	if math.Abs(r.Jobs[0].Completion-9) > 1e-12 || math.Abs(r.Jobs[1].Completion-10) > 1e-12 {
		t.Errorf("completions %g, %g; want 9 and 10", r.Jobs[0].Completion, r.Jobs[1].Completion)
	}
}

// remainingSpy records the View.Remaining the policy is shown at the
// first event, by input index, and allocates as equi.
type remainingSpy struct{ first map[int]float64 }

func (remainingSpy) Name() string { return "remaining-spy" }
func (s remainingSpy) Allocate(n float64, jobs []View, alloc []float64) {
	if len(s.first) == 0 {
		for _, v := range jobs {
			s.first[v.Index] = v.Remaining
		}
	}
	Equi{}.Allocate(n, jobs, alloc)
}

// Policies see the requested size only (the package doc): with EarlyStop 1
// every job stops early, at a fraction of its size (Work < Size), yet at
// the first event, before any work, each view's Remaining is the job's
// requested Size.
func TestPoliciesSeeRequestedSizeM9(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 10, Curve: PowerLaw{P: 0.5}}, {ID: "b", Size: 20, Curve: PowerLaw{P: 0.5}}}
	spy := remainingSpy{first: map[int]float64{}}
	r, err := Simulate(jobs, spy, Settings{Servers: 4, EarlyStop: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range jobs {
		if !(r.Jobs[i].Work < j.Size) {
			t.Fatalf("job %s: work %g of %g with EarlyStop 1: want an early stop", j.ID, r.Jobs[i].Work, j.Size)
		}
		if spy.first[i] != j.Size {
			t.Errorf("job %s: shown %g s remaining at the first event, want its requested %g s", j.ID, spy.first[i], j.Size)
		}
	}
}
