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
// about N-1 when the pull is a small part of the cycle. The distribution
// follows from the same argument: P(staleness = s) = P(N-1-s customers out
// of window | N-1), from the product-form marginal (the convolution
// algorithm, done in logarithms).

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

// MaxStalenessDistN is the largest N for which StalenessDist computes a
// distribution (its cost grows as N^2).
const MaxStalenessDistN = 4096

// StalenessDist returns P(staleness = s) for s = 0..N-1 for the update
// described by read and apply (see WindowStaleness), from the product-form
// (exponential) solution of n at N customers; it ignores SCVs. It returns
// nil when N < 1 or N > MaxStalenessDistN.
func StalenessDist(n Network, N, read, apply int) []float64 {
	K := len(n.Stations)
	if read < 0 || read >= K || apply < 0 || apply >= K {
		panic(fmt.Sprintf("model: StalenessDist: read %d, apply %d, want in [0,%d)", read, apply, K))
	}
	if N < 1 || N > MaxStalenessDistN {
		return nil
	}
	M := N - 1               // the others
	out := make([]bool, K+1) // index K stands for the think station
	for k := range outOfWindow(K, read, apply) {
		if k < 0 {
			k = K
		}
		out[k] = true
	}
	gin := logUnit(M)
	gout := logUnit(M)
	tmp := make([]float64, M+1)
	f := make([]float64, M+1)
	for k := 0; k <= K; k++ {
		if k == K {
			logFactor(f, n.Z, 0, true)
		} else {
			s := n.Stations[k]
			logFactor(f, s.D, s.servers(), s.Delay)
		}
		if out[k] {
			logConvolve(gout, f, tmp)
		} else {
			logConvolve(gin, f, tmp)
		}
	}
	// P(s) is proportional to Gin(s) Gout(M-s).
	p := make([]float64, N)
	mx := math.Inf(-1)
	for s := 0; s <= M; s++ {
		p[s] = gin[s] + gout[M-s]
		mx = math.Max(mx, p[s])
	}
	var sum float64
	for s := range p {
		p[s] = math.Exp(p[s] - mx)
		sum += p[s]
	}
	for s := range p {
		p[s] /= sum
	}
	return p
}

// logUnit returns log of the sequence (1, 0, 0, ...) of length M+1.
func logUnit(M int) []float64 {
	g := make([]float64, M+1)
	for j := 1; j <= M; j++ {
		g[j] = math.Inf(-1)
	}
	return g
}

// logFactor fills f[j] with log of the product-form factor of a station
// with j customers: D^j (single server), D^j/j! (delay), D^j/prod min(i,m)
// (m servers).
func logFactor(f []float64, d float64, m int, delay bool) {
	f[0] = 0
	ld := math.Log(d)
	for j := 1; j < len(f); j++ {
		div := float64(j)
		if !delay {
			div = float64(min(j, max(m, 1)))
		}
		f[j] = f[j-1] + ld - math.Log(div)
	}
}

// logConvolve sets g to the convolution of g and f, in logarithms.
func logConvolve(g, f, tmp []float64) {
	for j := range g {
		mx := math.Inf(-1)
		for i := 0; i <= j; i++ {
			mx = math.Max(mx, g[i]+f[j-i])
		}
		if math.IsInf(mx, -1) {
			tmp[j] = mx
			continue
		}
		var s float64
		for i := 0; i <= j; i++ {
			s += math.Exp(g[i] + f[j-i] - mx)
		}
		tmp[j] = mx + math.Log(s)
	}
	copy(g, tmp)
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

// StalenessDist returns P(staleness = s), s = 0..Workers-1, at c from the
// product-form network (exponential service; Correction and SCVs are not
// used), the mixture over shards. Nil when Workers > MaxStalenessDistN.
func (a AsyncPS) StalenessDist(c Config) []float64 {
	if c.Workers < 1 || c.Workers > MaxStalenessDistN {
		return nil
	}
	n := a.Network(c)
	pairs := a.readApply(n)
	var mix []float64
	for _, p := range pairs {
		d := StalenessDist(n, c.Workers, p[0], p[1])
		if mix == nil {
			mix = make([]float64, len(d))
		}
		for i, v := range d {
			mix[i] += v / float64(len(pairs))
		}
	}
	return mix
}
