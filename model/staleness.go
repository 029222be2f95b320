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
// latter is not the staleness distribution. The package does not model the
// distribution; the tests report it from the event-driven simulation
// (docs/models.md, "Staleness").

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
func (a AsyncPS) Staleness(c Config) float64 {
	if c.Workers <= 1 {
		return 0
	}
	n := a.Network(c)
	prev := a.solver(c.Workers-1).Solve(n, c.Workers-1)
	pairs := a.readApply(n)
	var s float64
	for _, p := range pairs {
		s += WindowStaleness(n, prev, p[0], p[1])
	}
	return s / float64(len(pairs))
}
