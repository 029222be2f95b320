package model

import "math"

// NetworkBounds returns the asymptotic upper bounds on the throughput of n
// at N customers (Denning and Buzen's operational bounds, exact for any
// service-time distribution): light load N/(Z + sum D) and saturation
// 1/max_k D_k/m_k over the queueing stations (+Inf when there is none).
// For N = 0 the light-load bound is 0.
func NetworkBounds(n Network, N int) (light, saturation float64) {
	if t := n.TotalDemand(); t > 0 {
		light = float64(N) / t
	} else if N > 0 {
		light = math.Inf(1)
	}
	saturation = math.Inf(1)
	if d, k := n.MaxDemand(); k >= 0 && d > 0 {
		saturation = 1 / d
	}
	return light, saturation
}

// NetworkKnee returns N* = (Z + sum D)/max D, customers: where the two
// bounds of NetworkBounds cross. It is +Inf when there is no queueing
// demand.
func NetworkKnee(n Network) float64 {
	d, k := n.MaxDemand()
	if k < 0 || d == 0 {
		return math.Inf(1)
	}
	return n.TotalDemand() / d
}
