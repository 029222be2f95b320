package model

import (
	"fmt"
	"math"
)

// Staleness of asynchronous SGD from the closed network.
//
// A worker reads a shard's parameters when its pull from that shard
// completes and applies its gradient there when the shard's apply
// completes; the staleness of that update is the number of other workers'
// updates applied to the shard in between. Take the stations in cycle order
// (think, then Network.Stations in order). Another worker's apply, at the
// instant it completes, counts towards the staleness of every worker that
// is then inside its own read-to-apply window, that is, in a station after
// "read" up to and including "apply" (cyclically). Summing over updates,
// the mean staleness is the mean number of OTHER workers in their window at
// an apply-completion instant. By the arrival theorem of product-form
// networks, a customer leaving a station sees the others distributed as
// the network with N-1 customers. Hence
//
//	E[staleness](N) = (N-1) - sum_{k out of window} Q_k(N-1),
//
// exact for exponential queueing stations (any delay distribution), and
// about N-1 when the pull is a small part of the cycle.
//
// The argument gives the mean only: the staleness of one update counts
// apply events in its window (another worker may apply twice in it), not
// the workers inside their window at one instant, so the distribution of the
// latter is not the staleness distribution. AsyncPS.StalenessDist gives a
// stated approximation of it (a binomial with this mean plus a window
// jitter, see staleness_dist.go); its distance to the event-driven
// simulation and to real traces is in docs/models.md, "Staleness".

// WindowStaleness returns the mean staleness from prev, the solution of n
// at N-1 customers, for the update whose read completes at station read and
// whose apply completes at station apply (indices into n.Stations). It
// panics when an index is out of range.
func WindowStaleness(n Network, prev Result, read, apply int) float64 {
	K := len(n.Stations)
	if read < 0 || read >= K || apply < 0 || apply >= K {
		panic(fmt.Sprintf("model: WindowStaleness: read %d, apply %d, want in [0,%d)", read, apply, K))
	}
	if prev.N == 0 {
		return 0
	}
	out := 0.0
	for k := range outOfWindow(K, read, apply) {
		if k < 0 {
			out += prev.X * n.Z
		} else {
			out += prev.Q[k]
		}
	}
	return math.Max(0, float64(prev.N)-out)
}

// outOfWindow yields the stations from apply+1 to read, cyclically, with
// -1 for the think station (which sits before station 0).
func outOfWindow(K, read, apply int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		k := apply
		for k != read {
			k++
			if k == K {
				if !yield(-1) {
					return
				}
				k = 0
			}
			if !yield(k) {
				return
			}
		}
	}
}

// readApply returns the (read, apply) station pairs of a's network at c,
// one per shard for Sequential, one for Parallel.
func (a AsyncPS) readApply(n Network) [][2]int {
	var pairs [][2]int
	idx := map[string]int{}
	for i, s := range n.Stations {
		idx[s.Name] = i
	}
	if a.Sharding == Sequential {
		for i := 1; ; i++ {
			r, ok1 := idx[fmt.Sprintf("pull[%d]", i)]
			ap, ok2 := idx[fmt.Sprintf("apply[%d]", i)]
			if !ok1 || !ok2 {
				break
			}
			pairs = append(pairs, [2]int{r, ap})
		}
		return pairs
	}
	return [][2]int{{idx["pull"], idx["apply"]}}
}

// Staleness returns the mean staleness of an update at c: the mean number
// of other workers' updates applied to a shard between a worker's read of
// that shard and its own apply there (see WindowStaleness), averaged over
// the shards. It is 0 for one worker and close to Workers-1 when the pull is
// a small part of the cycle.
//
// With Flow, the workers out of window at an apply instant are counted from
// the flow leaving the apply station instead of the arrival theorem: they
// are the earlier applies whose workers have not yet finished the
// out-of-window stations, t = sum of those residence times. For a Poisson
// flow (SCV 1) that is X t, the product-form value; for evenly spaced
// applies (SCV 0) it is ceil(X t) - 1; in between the two are mixed by the
// flow's SCV c^2: c^2 X t + (1 - c^2)(ceil(X t) - 1). When the apply and
// the stations just before it are deterministic, applies are at least the
// largest of their demands, delta, apart, and at most ceil(t/delta) - 1
// earlier applies can still be out of window.
func (a AsyncPS) Staleness(c Config) float64 {
	if c.Workers <= 1 {
		return 0
	}
	n := a.Network(c)
	pairs := a.readApply(n)
	N1 := c.Workers - 1
	m := a.solver(N1)
	var s float64
	if !a.Flow || m.Approximate {
		prev := m.Solve(n, N1)
		for _, p := range pairs {
			s += WindowStaleness(n, prev, p[0], p[1])
		}
		return s / float64(len(pairs))
	}
	K := len(n.Stations)
	m.Correction = true
	r, q := make([]float64, K), make([]float64, K)
	st := m.newState(n, r, q)
	for i := 1; i <= N1; i++ {
		st.advance(i)
	}
	for _, p := range pairs {
		var t float64
		for k := range outOfWindow(K, p[0], p[1]) {
			if k < 0 {
				t += n.Z
			} else {
				t += r[k]
			}
		}
		xt := st.x * t
		c2 := st.cd[p[1]]
		out := c2*xt + (1-c2)*math.Max(0, math.Ceil(xt)-1)
		// Applies that leave a run of deterministic single-server stations
		// are at least the largest demand of the run apart, so at most
		// ceil(t/delta) - 1 of them fall in the last t seconds.
		var delta float64
		for k := p[1]; k >= 0; k-- {
			sk := n.Stations[k]
			if sk.Delay || sk.servers() > 1 || sk.SCV > 0 {
				break
			}
			delta = math.Max(delta, sk.D)
		}
		if delta > 0 {
			out = math.Min(out, math.Max(0, math.Ceil(t/delta)-1))
		}
		s += math.Min(float64(N1), math.Max(0, float64(N1)-out))
	}
	return s / float64(len(pairs))
}

// StalenessStepper is Staleness by the arrival theorem (Flow ignored) at
// one configuration, for worker counts asked in ascending order: it keeps
// the exact recursion where the last count left it (Stepper), so that a
// range of counts costs O(N) in all where Staleness costs O(N) each. The
// numbers are Staleness's, with Flow off, to the bit (tested). Not safe for
// concurrent use.
type StalenessStepper struct {
	a     AsyncPS
	c     Config
	n     Network
	pairs [][2]int
	st    *Stepper
}

// StalenessStepper starts a StalenessStepper at c (c.Workers is ignored);
// ok is false with SharedCores, whose network changes with the workers.
func (a AsyncPS) StalenessStepper(c Config) (s *StalenessStepper, ok bool) {
	if a.SharedCores > 0 {
		return nil, false
	}
	a.Flow = false
	n := a.Network(c)
	return &StalenessStepper{a: a, c: c, n: n, pairs: a.readApply(n)}, true
}

// At is the mean staleness at workers: the recursion moved on to
// workers-1 customers, or made again from 0 when it stands past them.
// Above largeN+1 workers it is Staleness's fixed point, solved afresh.
func (s *StalenessStepper) At(workers int) float64 {
	if workers <= 1 {
		return 0
	}
	N1 := workers - 1
	if N1 > largeN {
		c := s.c
		c.Workers = workers
		return s.a.Staleness(c)
	}
	if s.st == nil || s.st.N() > N1 {
		s.st = s.a.solver(1).Stepper(s.n)
	}
	s.st.Advance(N1)
	prev := Result{N: N1, X: s.st.X(), Q: s.st.s.q}
	var sum float64
	for _, p := range s.pairs {
		sum += WindowStaleness(s.n, prev, p[0], p[1])
	}
	return sum / float64(len(s.pairs))
}
