package fit

import (
	"sync"

	"github.com/sgdplan/sgdplan/model"
)

// sweepMemo keeps, per (family, parameters, configuration but its worker
// count), the throughput at 1..n workers from one Family.Sweep, so that a
// Model's predictions over a range of worker counts (predict --workers
// 1-1000, the planner's speedup curves) cost one pass of the MVA recursion
// per parameter vector instead of one per worker count: O(N) where it was
// O(N^2). The numbers are those of Family.Predict (tested).
//
// A run is grown to at least twice its length when a larger count is asked
// for, so that ascending queries cost O(N) in all; a first query for a key
// computes just the counts it needs (a key that never comes back costs
// what Predict does). The memo holds at most sweepBudget numbers and is
// emptied when a new run would pass that; worker counts above sweepMax are
// solved one by one.
type sweepMemo struct {
	mu    sync.Mutex
	runs  map[sweepKey][]float64
	held  int
	limit int // sweepBudget; smaller in tests
}

const (
	// sweepMax is the largest worker count served from a sweep.
	sweepMax = 1 << 14
	// sweepBudget is the most throughputs the memo holds (32 MiB).
	sweepBudget = 1 << 22
	// sweepParams is the most parameters a key holds; families with more
	// are not memoised (the mva family has 4).
	sweepParams = 8
)

type sweepKey struct {
	family string
	theta  [sweepParams]float64
	c      model.Config
}

func newSweepMemo() *sweepMemo {
	return &sweepMemo{runs: map[sweepKey][]float64{}, limit: sweepBudget}
}

// predict is f.Predict(th, c), from a sweep when f has one and s is not nil.
func (s *sweepMemo) predict(f Family, th []float64, c model.Config) float64 {
	n := c.Workers
	if s == nil || f.Sweep == nil || len(th) > sweepParams || n < 1 || n > sweepMax {
		return f.Predict(th, c)
	}
	k := sweepKey{family: f.Name, c: c}
	copy(k.theta[:], th)
	k.c.Workers, k.c.Nodes = 0, 0
	s.mu.Lock()
	defer s.mu.Unlock()
	xs := s.runs[k]
	if n <= len(xs) {
		return xs[n-1]
	}
	size := n
	if len(xs) > 0 {
		size = min(max(n, 2*len(xs)), sweepMax)
	}
	grown := make([]float64, size)
	f.Sweep(th, c, grown)
	if size > s.limit {
		return grown[n-1]
	}
	if s.held-len(xs)+size > s.limit {
		clear(s.runs)
		s.held = 0
		xs = nil
	}
	s.runs[k] = grown
	s.held += size - len(xs)
	return grown[n-1]
}
