package model

import (
	"fmt"
	"math"
)

// Station is one service centre of a closed queueing network. Every customer
// (a worker) visits every station once per cycle, so D is the demand of one
// cycle: visits times the mean service time of one visit.
type Station struct {
	Name string  // for reports: "pull", "push", "apply", "pull[2]", ...
	D    float64 // service demand per cycle, s (time in service, not counting queueing)
	// SCV is the squared coefficient of variation of the service time of one
	// visit: 1 for exponential service, 0 for deterministic. Only the
	// corrected solvers (MVA.Correction) read it; plain MVA assumes 1.
	SCV float64
	// Servers is the number of identical servers: 0 or 1 means a single
	// server; k > 1 a load-dependent station whose service rate is
	// min(n, k)/D with n customers present (a CPU with k cores, say).
	Servers int
	// Delay marks an infinite-server station: no queueing, residence D.
	Delay bool
	// SyncOf, when set, makes this a delay whose residence is the wait for
	// the slowest of the parallel branches of a symmetric fork-join, each
	// branch a visit to the stations SyncOf (indices into Network.Stations):
	//
	//	R(n) = SyncFactor * sqrt(sum_{k in SyncOf} SCV_k D_k^2 (1 + Q_k(n-1)))
	//
	// the standard deviation of a branch's completion time when the
	// customer finds Q_k others ahead at each station, times SyncFactor (the
	// expected maximum of the branches in standard deviations; H_P - 1 for P
	// branches, exact for exponential service at light load). D should be
	// R(1), SyncFactor times sqrt(sum SCV_k D_k^2), so that N = 1 and the
	// bounds stay exact. Delay must be set too.
	SyncOf     []int
	SyncFactor float64
	// Kind says what the station stands for in a job's network, for the
	// readers of a solved network (saturation bounds, reports); the
	// solvers ignore it. Zero: not said.
	Kind StationKind
}

// StationKind is what a station of a job's network models.
type StationKind int

// The kinds of AsyncPS's stations.
const (
	OtherStation   StationKind = iota // not said
	ComputeStation                    // the workers' compute (when a station, with SharedCores)
	LinkStation                       // one direction of a shard's link: a push or a pull
	ApplyStation                      // a shard's CPU applying an update
	SyncStation                       // the fork-join wait for the slowest shard
)

// Network is a single-class closed network: each customer spends a think
// time Z at its own delay station (compute on its own device) and then
// visits each of Stations once, in the order given. Throughput does not
// depend on the order (product form); staleness does (see WindowStaleness).
type Network struct {
	Z float64 // think (compute) time per cycle, s; an infinite-server delay
	// ZSCV is the squared coefficient of variation of the think time, read
	// only by MVA with Flow (0 = deterministic, 1 = exponential).
	ZSCV     float64
	Stations []Station
}

// Validate reports a negative or non-finite demand or SCV, or a negative
// server count, naming the station.
func (n Network) Validate() error {
	if !finiteNonNeg(n.Z) {
		return fmt.Errorf("model: network: Z = %g, want a finite value >= 0", n.Z)
	}
	if !finiteNonNeg(n.ZSCV) {
		return fmt.Errorf("model: network: ZSCV = %g, want a finite value >= 0", n.ZSCV)
	}
	for i, s := range n.Stations {
		switch {
		case !finiteNonNeg(s.D):
			return fmt.Errorf("model: network: station %d (%s): D = %g, want a finite value >= 0", i, s.Name, s.D)
		case !finiteNonNeg(s.SCV):
			return fmt.Errorf("model: network: station %d (%s): SCV = %g, want a finite value >= 0", i, s.Name, s.SCV)
		case s.Servers < 0:
			return fmt.Errorf("model: network: station %d (%s): Servers = %d, want >= 0", i, s.Name, s.Servers)
		case s.SyncOf != nil && !s.Delay:
			return fmt.Errorf("model: network: station %d (%s): SyncOf set on a queueing station, want Delay", i, s.Name)
		case !finiteNonNeg(s.SyncFactor):
			return fmt.Errorf("model: network: station %d (%s): SyncFactor = %g, want a finite value >= 0", i, s.Name, s.SyncFactor)
		}
		for _, k := range s.SyncOf {
			if k < 0 || k >= len(n.Stations) || n.Stations[k].Delay {
				return fmt.Errorf("model: network: station %d (%s): SyncOf index %d is not a queueing station", i, s.Name, k)
			}
		}
	}
	return nil
}

func finiteNonNeg(v float64) bool { return v >= 0 && !math.IsInf(v, 1) }

// servers returns the number of servers of s, 1 for a zero value.
func (s Station) servers() int {
	if s.Servers < 1 {
		return 1
	}
	return s.Servers
}

// TotalDemand returns Z plus the sum of the demands: the cycle time of a
// lone customer, s. 1/TotalDemand is the throughput at N = 1.
func (n Network) TotalDemand() float64 {
	t := n.Z
	for _, s := range n.Stations {
		t += s.D
	}
	return t
}

// MaxDemand returns the largest demand per server among the queueing
// stations (D/Servers; delay stations excluded), s, and the index of that
// station, or (0, -1) when there is no queueing station. 1/MaxDemand is the
// saturation throughput.
func (n Network) MaxDemand() (d float64, k int) {
	k = -1
	for i, s := range n.Stations {
		if s.Delay {
			continue
		}
		if v := s.D / float64(s.servers()); k < 0 || v > d {
			d, k = v, i
		}
	}
	return d, k
}

// Result is the solution of a closed network at N customers. R, Q and U are
// indexed like Network.Stations.
type Result struct {
	N     int     // customers (workers)
	X     float64 // throughput: cycles completed per second over all customers
	Cycle float64 // mean cycle time N/X, s (= Z + sum R)
	R     []float64
	// Q is the mean number of customers at each station (queued and in
	// service). For the think station it is X*Z, not stored.
	Q []float64
	// U is the utilisation of one server of each station: X*D/Servers. For
	// a delay station it is the mean number of customers in service, X*D.
	U []float64
}

// Bottleneck returns the index of the queueing station with the highest
// utilisation, or -1 when there is none.
func (r Result) Bottleneck(n Network) int {
	k := -1
	for i, s := range n.Stations {
		if s.Delay {
			continue
		}
		if k < 0 || r.U[i] > r.U[k] {
			k = i
		}
	}
	return k
}
