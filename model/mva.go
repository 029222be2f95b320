package model

import (
	"fmt"
	"math"
)

// MVA solves a closed network by Mean Value Analysis. The zero value is
// exact MVA (Reiser and Lavenberg 1980) with exponential service at the
// queueing stations.
//
// Single-server stations use R_k(n) = D_k (1 + Q_k(n-1)). Multi-server
// stations (Station.Servers = m > 1) use the exact load-dependent recursion
// with the marginal probabilities p_k(j|n) of j busy servers, j < m
// (Reiser and Lavenberg 1980; Bolch, Greiner, de Meer, Trivedi, "Queueing
// Networks and Markov Chains", Wiley, 2nd ed. 2006):
//
//	R_k(n)   = D_k/m (1 + Q_k(n-1) + sum_{j=0}^{m-2} (m-j-1) p_k(j|n-1))
//	p_k(j|n) = D_k X(n) p_k(j-1|n-1) / j,                 j = 1..m-1
//	p_k(0|n) = 1 - (D_k X(n) + sum_{j=1}^{m-1} (m-j) p_k(j|n)) / m
//
// The textbook p_k(0|n), a difference, loses all accuracy near saturation;
// it is computed instead as a product from the complement network (see
// mvaState).
//
// With Approximate set, the recursion over n is replaced by Schweitzer's
// fixed point Q_k(N-1) = (N-1)/N Q_k(N) (Schweitzer 1979; Bard 1979), which
// costs a few iterations whatever N is; multi-server stations are then
// replaced by Seidmann's approximation: a single server of demand D/m
// followed by a delay of D(m-1)/m (Seidmann, Schweitzer, Shalev-Oren 1987).
//
// With Correction set, single-server stations account for the residual
// service time of the customer found in service: a customer arriving at
// station k finds Q_k(n-1) customers, one of them in service with
// probability U_k(n-1) = X(n-1) D_k, whose remaining service is, by the
// renewal argument, D_k (1 + SCV_k)/2 instead of D_k. Hence
//
//	R_k(n) = D_k (1 + Q_k(n-1)) - D_k (1 - SCV_k)/2 U_k(n-1),
//
// the residual-life heuristic of approximate MVA for FCFS stations with
// non-exponential service (in the spirit of Reiser 1979, who treated
// constant packet transmission times this way; see also Bolch et al.). It
// is exact MVA when SCV_k = 1 and gives smaller residence times for nearly
// deterministic transfers (SCV near 0). The heuristic can overshoot the
// saturation bound; the throughput is then held at 1/max D (see cap).
//
// With Flow set as well (exact recursion only), the variability of the flow
// of workers is carried around the cycle, as in Whitt's Queueing Network
// Analyzer (1983): the think station, with Network.ZSCV, sends on
// c^2 = ZSCV + (1 - ZSCV) c_in^2 (exponential compute makes the flow
// Poisson, deterministic compute passes it on; ZSCV above 1 counts as 1,
// passFlow); a single-server station
// with utilisation U(n-1) sends on c_d^2 = U^2 SCV + (1 - U^2) c_a^2; and its
// waiting time (the queued work plus the residual service) is scaled by
// (c_a^2 + SCV)/(1 + SCV), the Kingman / Allen-Cunneen factor, which is 1
// for a Poisson flow and is held at 1 for a flow more variable than Poisson
// (c_a^2 > 1): above 1 it kept a saturated bottleneck partly idle, X tending
// to 1/(f D) (TestFlowSaturatesWithVariableTransfers). Behind a deterministic bottleneck the flow is smooth
// and the next stations of equal demand barely queue, which plain and
// corrected MVA both miss. It reduces to Correction when every SCV is 1.
// Where either heuristic (Correction or Flow, in the exact recursion) would
// let X(n) fall below X(n-1), X is held.
type MVA struct {
	Correction  bool // residual-service correction with Station.SCV
	Flow        bool // also carry the flow's SCV around the cycle (implies Correction; exact recursion only)
	Approximate bool // Schweitzer's fixed point instead of the exact recursion
	// Tol is the convergence tolerance of the fixed point: the largest change
	// of a queue length, relative to N. 0 means 1e-10.
	Tol float64
	// MaxIter bounds the fixed-point iterations. 0 means 100000.
	MaxIter int
}

// ExactMVA solves n at N customers by exact MVA with exponential service.
// It panics if n is invalid (see Network.Validate) or N < 0.
func ExactMVA(n Network, N int) Result { return MVA{}.Solve(n, N) }

// CorrectedMVA solves n at N customers by exact MVA with the
// residual-service correction driven by each station's SCV.
func CorrectedMVA(n Network, N int) Result { return MVA{Correction: true}.Solve(n, N) }

// Schweitzer solves n at N customers by Schweitzer's approximate MVA, for
// large N; its throughput is within about 1-2% of exact MVA.
func Schweitzer(n Network, N int) Result { return MVA{Approximate: true}.Solve(n, N) }

func mustValid(n Network, N int) {
	if err := n.Validate(); err != nil {
		panic(err.Error())
	}
	if N < 0 {
		panic(fmt.Sprintf("model: MVA at N = %d customers, want >= 0", N))
	}
}

// Solve returns the solution of n at N customers. n is not modified. It
// panics if n is invalid or N < 0 (programmer errors: check data with
// Network.Validate first), and if the exact solver (Approximate false) gets
// more than 12 multi-server stations, whose recursion would cost 2^M.
func (m MVA) Solve(n Network, N int) Result {
	mustValid(n, N)
	m.Correction = m.Correction || m.Flow
	K := len(n.Stations)
	buf := make([]float64, 3*K)
	res := Result{N: N, R: buf[:K:K], Q: buf[K : 2*K : 2*K], U: buf[2*K : 3*K : 3*K]}
	if N == 0 {
		return res
	}
	if m.Approximate {
		res.X = m.schweitzer(n, N, res.R, res.Q)
	} else {
		s := m.newState(n, res.R, res.Q)
		for i := 1; i <= N; i++ {
			s.advance(i)
		}
		res.X = s.x
	}
	res.Cycle = float64(N) / res.X
	for k, s := range n.Stations {
		res.U[k] = res.X * s.D / float64(s.servers())
		if s.Delay {
			res.U[k] = res.X * s.D
		}
		if s.D == 0 {
			res.U[k] = 0 // (not +Inf * 0 on a cycle of no time)
		}
	}
	return res
}

// Sweep fills xs[i] with the throughput at i+1 customers, for i = 0 ..
// len(xs)-1, in one pass of the recursion (with Approximate, one fixed
// point per N, each started from the previous one). It allocates its
// workspace once, whatever len(xs) is, and nothing per step.
func (m MVA) Sweep(n Network, xs []float64) {
	mustValid(n, len(xs))
	m.Correction = m.Correction || m.Flow
	K := len(n.Stations)
	buf := make([]float64, 2*K)
	r, q := buf[:K:K], buf[K:2*K:2*K]
	if m.Approximate {
		for i := range xs {
			xs[i] = m.schweitzer(n, i+1, r, q)
		}
		return
	}
	s := m.newState(n, r, q)
	for i := range xs {
		s.advance(i + 1)
		xs[i] = s.x
	}
}

// Stepper is the exact recursion on one network, resumable: it stands at
// N customers with throughput X, and Advance moves it on to more. Moved
// from 0 to n, one customer at a time, its X is Solve's and Sweep's at n to
// the bit (the same steps in the same order), so that a caller asking for
// ascending counts pays O(n) in all and holds O(stations) numbers, where
// Sweep holds one number per count and Solve starts again from 0 each
// time. Not safe for concurrent use.
type Stepper struct {
	s *mvaState
}

// Stepper starts the exact recursion on n at 0 customers (Approximate is
// ignored: the fixed point has no recursion over N). It panics if n is
// invalid, as Solve does.
func (m MVA) Stepper(n Network) *Stepper {
	mustValid(n, 0)
	m.Correction = m.Correction || m.Flow
	m.Approximate = false
	K := len(n.Stations)
	buf := make([]float64, 2*K)
	return &Stepper{s: m.newState(n, buf[:K:K], buf[K:2*K:2*K])}
}

// N is the customers the recursion stands at.
func (s *Stepper) N() int { return s.s.n }

// X is the throughput at N customers (0 at 0).
func (s *Stepper) X() float64 { return s.s.x }

// Advance moves the recursion on to n customers and returns X there; it
// stays where it is when n <= N.
func (s *Stepper) Advance(n int) float64 {
	for i := s.s.n + 1; i <= n; i++ {
		s.s.advance(i)
	}
	return s.s.x
}

// mvaState is the exact recursion on one network. For each multi-server
// station it keeps the marginal probabilities p(j|n), j < m, and the
// recursion on the complement network (the same network without that
// station), whose throughput X_{-k} gives
//
//	p_k(0|n) = p_k(0|n-1) X(n) / X_{-k}(n)
//
// (from p_k(0|n) = G_{-k}(n)/G(n) and X(n) = G(n-1)/G(n) with the
// normalising constants G of the product form). This is a product, not the
// difference 1 - sum of the textbook recursion, which loses all accuracy
// near saturation when m >= 4. Complements are shared (one per subset of
// removed multi-server stations), so M multi-server stations cost up to 2^M
// recursions.
type mvaState struct {
	m    MVA
	nw   Network
	n    int     // customers reached
	x    float64 // X(n)
	dmax float64
	kb   int
	r, q []float64
	// Per station, flat for the inner loop: demand, 1 for a queue and 0 for
	// a delay (the factor of Q in R), the correction coefficient
	// D(1-SCV)/2 (0 without Correction), and the kind.
	d, a, h []float64
	kind    []uint8
	simple  bool // single-server and plain delay stations only
	multi   []mvaMulti
	// Flow: per-station SCV, the think station's, and the SCV of the flow
	// leaving the last station at the previous step.
	scv         []float64
	zscv, cLast float64
	cd          []float64 // SCV of the flow leaving each station (Flow only)
}

const (
	kindQueue uint8 = iota
	kindDelay
	kindMulti
	kindSync
)

type mvaMulti struct {
	k int       // station
	c int       // servers
	p []float64 // p(j|n), j = 0..c-1
	// hi is the largest j with p(j|n) != 0: above the few customers ever
	// at the station the marginals underflow to 0, and the loops stop
	// there, O(hi) a step instead of O(c) (the same numbers: they only
	// skip terms that are 0). With c growing with N (shared cores on a
	// machine per few workers) the recursion cost O(N^2): 56 s for one
	// predict at 10,000 workers.
	hi   int
	comp *mvaState
}

// maxMulti bounds the multi-server stations of one network for the exact
// solver (2^maxMulti complement recursions).
const maxMulti = 12

// newState prepares the recursion at n = 0 for nw, using r and q (length
// len(nw.Stations)) as its R and Q.
func (m MVA) newState(nw Network, r, q []float64) *mvaState {
	var ms []int
	for k, s := range nw.Stations {
		if !s.Delay && s.servers() > 1 {
			ms = append(ms, k)
		}
	}
	if len(ms) > maxMulti {
		panic(fmt.Sprintf("model: exact MVA with %d multi-server stations, at most %d (use Approximate)", len(ms), maxMulti))
	}
	return m.buildState(nw, ms, 0, r, q, map[uint32]*mvaState{})
}

// buildState builds the state for nw without the multi-server stations
// ms[i] whose bit i is set in removed.
func (m MVA) buildState(orig Network, ms []int, removed uint32, r, q []float64, memo map[uint32]*mvaState) *mvaState {
	if s, ok := memo[removed]; ok {
		return s
	}
	nw := Network{Z: orig.Z, ZSCV: orig.ZSCV}
	skip := map[int]bool{}
	for i, k := range ms {
		if removed&(1<<i) != 0 {
			skip[k] = true
		}
	}
	idx := make([]int, len(orig.Stations))
	for k, st := range orig.Stations {
		idx[k] = -1
		if !skip[k] {
			idx[k] = len(nw.Stations)
			nw.Stations = append(nw.Stations, st)
		}
	}
	if removed != 0 { // renumber the fork-join branches of the complement
		for k, st := range nw.Stations {
			if st.SyncOf == nil {
				continue
			}
			var of []int
			for _, j := range st.SyncOf {
				if idx[j] >= 0 {
					of = append(of, idx[j])
				}
			}
			nw.Stations[k].SyncOf = of
		}
	}
	if r == nil {
		r = make([]float64, len(nw.Stations))
		q = make([]float64, len(nw.Stations))
	}
	K := len(nw.Stations)
	flat := make([]float64, 3*K)
	s := &mvaState{m: m, nw: nw, r: r, q: q, d: flat[:K:K], a: flat[K : 2*K : 2*K], h: flat[2*K:], kind: make([]uint8, K), simple: !m.Flow}
	if m.Flow {
		s.scv = make([]float64, K)
		s.cd = make([]float64, K)
		for k, st := range nw.Stations {
			s.scv[k] = st.SCV
		}
		s.zscv, s.cLast = nw.ZSCV, 1
	}
	s.dmax, s.kb = nw.MaxDemand()
	for k, st := range nw.Stations {
		s.d[k] = st.D
		switch {
		case st.SyncOf != nil:
			s.kind[k], s.simple = kindSync, false
		case st.Delay:
			s.kind[k] = kindDelay
		case st.servers() > 1:
			s.kind[k], s.simple = kindMulti, false
		default:
			s.a[k] = 1
			if m.Correction {
				s.h[k] = st.D * (1 - st.SCV) / 2
			}
		}
	}
	memo[removed] = s
	for i, k := range ms {
		if skip[k] {
			continue
		}
		c := orig.Stations[k].servers()
		p := make([]float64, c)
		p[0] = 1
		s.multi = append(s.multi, mvaMulti{k: idx[k], c: c, p: p, comp: m.buildState(orig, ms, removed|1<<i, nil, nil, memo)})
	}
	return s
}

// advance moves the recursion from n-1 to n customers (a no-op if it is
// there already: complements are shared). It does not allocate.
func (s *mvaState) advance(n int) {
	if s.n >= n {
		return
	}
	r, q, d, a, h := s.r, s.q, s.d, s.a, s.h
	r, q, a, h = r[:len(d)], q[:len(d)], a[:len(d)], h[:len(d)]
	if math.IsInf(s.x, 1) {
		// the cycle takes no time (the last step's sum was 0): it stays
		// so, X = +Inf with nobody queued (its Inf * 0 made every later
		// step NaN: X fell from +Inf at one customer to NaN at two)
		clear(r)
		clear(q)
		s.n = n
		return
	}
	sum := s.nw.Z
	xp := s.x
	switch {
	case s.simple && !s.m.Correction:
		for k, dk := range d {
			rk := dk * (1 + a[k]*q[k])
			r[k] = rk
			sum += rk
		}
	case s.simple:
		for k, dk := range d {
			u := xp * dk
			if u > 1 {
				u = 1
			}
			rk := dk*(1+a[k]*q[k]) - h[k]*u
			r[k] = rk
			sum += rk
		}
	default:
		for i := range s.multi {
			s.multi[i].comp.advance(n)
		}
		mi := 0
		cin := passFlow(s.zscv, s.cLast) // flow leaving the think station
		for k, dk := range d {
			var rk float64
			switch s.kind[k] {
			case kindSync:
				rk = syncResidence(s.nw, s.nw.Stations[k], q, 1)
			case kindMulti:
				mu := s.multi[mi]
				mi++
				w := 1 + q[k]
				for j := 0; j <= min(mu.c-2, mu.hi); j++ {
					w += float64(mu.c-j-1) * mu.p[j]
				}
				rk = dk / float64(mu.c) * w
				if s.m.Flow { // QNA's multi-server departure SCV
					rho := math.Min(1, xp*dk/float64(mu.c))
					cin = 1 + (1-rho*rho)*(cin-1) + rho*rho*(s.scv[k]-1)/math.Sqrt(float64(mu.c))
				}
			case kindDelay:
				rk = dk
				if s.m.Flow {
					cin = passFlow(s.scv[k], cin)
				}
			default:
				if !s.m.Flow {
					rk = dk*(1+a[k]*q[k]) - h[k]*math.Min(1, xp*dk)
					break
				}
				u := math.Min(1, xp*dk)
				cs := s.scv[k]
				f := (cin + cs) / (1 + cs)
				if f > 1 {
					// A flow more variable than Poisson: the open
					// queue's factor held a busy bottleneck below its
					// rate (X -> 1/(f D): 23% low at saturation with an
					// SCV of 2 behind deterministic compute, against
					// the event-driven simulation); the residual
					// correction's residence is kept instead.
					f = 1
				}
				rk = dk + f*(dk*math.Max(0, q[k]-u)+u*dk*(1+cs)/2)
				cin = u*u*cs + (1-u*u)*cin
			}
			r[k] = rk
			sum += rk
			if s.cd != nil {
				s.cd[k] = cin
			}
		}
		s.cLast = cin
	}
	x := float64(n) / sum
	if sum == 0 {
		x = math.Inf(1)
	}
	if s.m.Correction && s.kb >= 0 && x*s.dmax > 1 {
		x = s.m.cap(s.nw, n, r, s.dmax, s.kb)
	}
	if s.m.Correction && x < xp && sum > s.nw.Z {
		// The flow heuristic can dip (up to 3% on random networks) where
		// the flow's variability changes fast with N, and the residual
		// correction where an SCV is above 1 (its term then adds
		// residence: one queue of D 0.5 and SCV 2 gave X(2) = 1.6 below
		// X(1) = 2, the whole time busy); a closed network's throughput
		// does not fall with N, so hold X(n) = X(n-1) and shrink the
		// residence times (by g < 1) to keep Z X + sum Q = n (a residence
		// time can then fall below its demand).
		g := (float64(n)/xp - s.nw.Z) / (sum - s.nw.Z)
		for k := range r {
			r[k] *= g
		}
		x = xp
	}
	for k := range q {
		q[k] = x * r[k]
		if r[k] == 0 {
			q[k] = 0 // nobody waits where no time is spent (not +Inf * 0)
		}
	}
	for i := range s.multi {
		mu := &s.multi[i]
		a := d[mu.k] * x
		// p(j|n) for j > hi+1 stays 0 (from p(j-1|n-1) = 0)
		top := min(mu.hi+1, mu.c-1)
		for j := top; j >= 1; j-- {
			mu.p[j] = a * mu.p[j-1] / float64(j)
		}
		p0 := mu.p[0] * x / mu.comp.x
		if math.IsNaN(p0) || math.IsInf(mu.comp.x, 1) {
			p0 = 0
		}
		mu.p[0] = p0
		for top > 0 && mu.p[top] == 0 {
			top--
		}
		mu.hi = top
	}
	s.x, s.n = x, n
}

// passFlow is the SCV of the flow leaving a delay (infinite-server)
// station of service SCV scv that receives a flow of SCV cin: scv + (1 -
// scv) cin, exponential service making the flow Poisson and deterministic
// service passing it on. Service more variable than exponential (scv > 1)
// counts as exponential: the line's extrapolation past 1 went negative for
// a variable enough flow (X -146 at 31 workers on a random network with
// SCVs up to 4), and an M/G/inf station's output is Poisson whatever its
// service.
func passFlow(scv, cin float64) float64 {
	w := math.Min(scv, 1)
	return w + (1-w)*cin
}

// cap handles a corrected solution whose throughput passed the saturation
// bound 1/dmax (the residual-service heuristic does not guarantee the
// bound): X is set to 1/dmax and the customers not accounted for elsewhere
// queue at the bottleneck kb, so that Z X + sum Q = n still holds. It
// returns X and updates r[kb].
func (m MVA) cap(nw Network, n int, r []float64, dmax float64, kb int) float64 {
	x := 1 / dmax
	rest := float64(n)/x - nw.Z
	for k := range r {
		if k != kb {
			rest -= r[k]
		}
	}
	r[kb] = math.Max(rest, nw.Stations[kb].D)
	return x
}

// capShared is cap for the fixed point: the customers not accounted for
// elsewhere queue at the stations of the largest demand, shared among them
// in proportion to their residence times (cap gives them all to the first:
// iterated to a fixed point, two equal links, push and pull, split the
// queue 56/44 where the exact recursion splits it evenly, and the staleness
// jumped by 12% at the switch from one to the other, 100,001 workers).
func (m MVA) capShared(nw Network, n int, r []float64, dmax float64) float64 {
	x := 1 / dmax
	rest := float64(n)/x - nw.Z
	var tied float64
	ties := 0
	top := func(k int) bool {
		s := nw.Stations[k]
		return !s.Delay && s.D/float64(s.servers()) == dmax
	}
	for k := range r {
		if top(k) {
			tied += r[k]
			ties++
		} else {
			rest -= r[k]
		}
	}
	for k := range r {
		if top(k) {
			share := rest / float64(ties)
			if tied > 0 {
				share = rest * r[k] / tied
			}
			r[k] = math.Max(share, nw.Stations[k].D)
		}
	}
	return x
}

// schweitzer runs the fixed point at N customers from the queue lengths in
// q (zero or a previous solution) and returns X; r and q hold R and Q on
// return.
func (m MVA) schweitzer(nw Network, N int, r, q []float64) float64 {
	tol := m.Tol
	if tol == 0 {
		tol = 1e-10
	}
	maxIter := m.MaxIter
	if maxIter == 0 {
		maxIter = 100000
	}
	nf := float64(N)
	f := (nf - 1) / nf
	// Start from the queue lengths spread evenly when q is empty.
	var tot float64
	for _, v := range q {
		tot += v
	}
	if tot == 0 {
		nq := 0
		for _, s := range nw.Stations {
			if !s.Delay {
				nq++
			}
		}
		for k, s := range nw.Stations {
			if !s.Delay {
				q[k] = nf / float64(nq)
			}
		}
	}
	dmax, kb := nw.MaxDemand()
	var x float64
	for it := 0; it < maxIter; it++ {
		sum := nw.Z
		for k, s := range nw.Stations {
			var rk float64
			switch c := float64(s.servers()); {
			case s.SyncOf != nil:
				rk = syncResidence(nw, s, q, f)
			case s.Delay:
				rk = s.D
			default:
				// Seidmann: queue of demand D/c plus delay D(c-1)/c; the
				// queue holds Q minus the customers in that delay.
				d := s.D / c
				qq := math.Max(0, q[k]-x*s.D*(c-1)/c)
				rk = d*(1+f*qq) + s.D*(c-1)/c
				if m.Correction && c == 1 {
					rk -= d * (1 - s.SCV) / 2 * math.Min(1, f*x*d)
				}
			}
			r[k] = rk
			sum += rk
		}
		if sum == 0 {
			// a cycle of no time: X = +Inf and nobody queued, the fixed
			// point at once (Inf * 0 made the next iteration NaN)
			clear(q)
			return math.Inf(1)
		}
		xn := nf / sum
		if m.Correction && kb >= 0 && xn*dmax > 1 {
			xn = m.capShared(nw, N, r, dmax)
		}
		var diff float64
		for k := range nw.Stations {
			qn := xn * r[k]
			diff = math.Max(diff, math.Abs(qn-q[k]))
			q[k] = qn
		}
		x = xn
		if diff <= tol*nf {
			break
		}
	}
	return x
}

// syncResidence is the residence time of a fork-join wait station st (see
// Station.SyncOf) when the queue lengths seen on arrival are f*q.
func syncResidence(nw Network, st Station, q []float64, f float64) float64 {
	var v float64
	for _, k := range st.SyncOf {
		b := nw.Stations[k]
		v += b.SCV * b.D * b.D * (1 + f*q[k])
	}
	return st.SyncFactor * math.Sqrt(v)
}
