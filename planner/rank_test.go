package planner

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// ranked hides a policy's ranklessPolicy mark, so that the simulator keeps
// View.Rank for it as for any policy outside this package.
type ranked struct{ Policy }

// rankedRigid is ranked for a rigid policy (fcfs-rigid).
type rankedRigid struct{ Policy }

func (rankedRigid) rigid() bool { return true }

// hideRankless wraps p so that the simulator sees no ranklessPolicy mark.
func hideRankless(p Policy) Policy {
	if _, ok := p.(rigidPolicy); ok {
		return rankedRigid{p}
	}
	return ranked{p}
}

// rankSpy records the ranks the simulator hands a policy.
type rankSpy struct {
	Policy
	ranks map[int]bool // Rank values seen
}

func (s rankSpy) Allocate(n float64, jobs []View, alloc []float64) {
	for _, v := range jobs {
		s.ranks[v.Rank] = true
	}
	s.Policy.Allocate(n, jobs, alloc)
}

type rankSpyRankless struct{ rankSpy }

func (rankSpyRankless) ignoresRank() {}

// TestRanklessPoliciesSameResults: the policies that say they never read
// View.Rank (so the simulator skips keeping it) give the same results, bit
// for bit, as when the simulator keeps it for them; and the marked
// policies are exactly those that never call smallestFirst or, srpt and
// knee, sort the few jobs the queueing path shows them.
func TestRanklessPoliciesSameResults(t *testing.T) {
	jobs := overloadWorkload(300)
	jobs[5].Weight, jobs[9].RigidWorkers, jobs[20].RigidWorkers = 3, 4, 2
	for _, name := range append(PolicyNames, "numeric") {
		var pol Policy
		if name == "numeric" {
			v := make([]float64, len(jobs))
			for i := range v {
				v[i] = 1 / jobs[i].Size
			}
			pol = Priority{V: v}
		} else {
			var err error
			if pol, err = NewPolicy(name, DefaultKneeAlpha); err != nil {
				t.Fatal(err)
			}
		}
		_, rankless := pol.(ranklessPolicy)
		if want := name != "hesrpt" && name != "hesrpt-slowdown"; rankless != want {
			t.Errorf("%s: rankless %v, want %v (only hesrpt reads View.Rank; srpt and knee, queueing, sort the jobs shown)", name, rankless, want)
		}
		if !rankless {
			continue
		}
		for _, integer := range []bool{false, true} {
			s := Settings{Servers: 64, Integer: integer}
			got, err := Simulate(jobs, pol, s)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Simulate(jobs, hideRankless(pol), s)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, integer %v: results differ when the simulator keeps ranks (mean response %v vs %v)", name, integer, got.MeanResponse, want.MeanResponse)
			}
		}
	}
}

// TestRanklessPolicySeesNoRank: a policy marked rankless is handed Rank -1,
// any other the ranks 0..m-1.
func TestRanklessPolicySeesNoRank(t *testing.T) {
	jobs := overloadWorkload(50)
	spy := rankSpy{Policy: FIFO{}, ranks: map[int]bool{}}
	if _, err := Simulate(jobs, rankSpyRankless{spy}, Settings{Servers: 64}); err != nil {
		t.Fatal(err)
	}
	if len(spy.ranks) != 1 || !spy.ranks[-1] {
		t.Errorf("rankless policy saw ranks %v, want only -1", spy.ranks)
	}
	spy = rankSpy{Policy: FIFO{}, ranks: map[int]bool{}}
	if _, err := Simulate(jobs, spy, Settings{Servers: 64}); err != nil {
		t.Fatal(err)
	}
	if spy.ranks[-1] || !spy.ranks[0] || !spy.ranks[1] {
		t.Errorf("unmarked policy saw ranks %v, want 0, 1, ... and no -1", fmt.Sprint(spy.ranks))
	}
}

// TestFIFOFillsInArrivalOrder: FIFO's allocation (written without an order
// slice) is fillInOrder's in arrival order, on random caps and servers.
func TestFIFOFillsInArrivalOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 500 {
		m := 1 + rng.IntN(12)
		jobs := make([]View, m)
		for i := range jobs {
			jobs[i] = View{Index: i, Remaining: 1, Cap: float64(rng.IntN(5)) + rng.Float64()*float64(rng.IntN(2)), Rank: -1}
		}
		n := float64(rng.IntN(20)) + rng.Float64()
		got, want := make([]float64, m), make([]float64, m)
		order := make([]int, m)
		for i := range order {
			order[i] = i
		}
		FIFO{}.Allocate(n, jobs, got)
		fillInOrder(n, jobs, want, order)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: %g servers, caps %v: FIFO %v, fillInOrder %v", trial, n, jobs, got, want)
		}
	}
}
