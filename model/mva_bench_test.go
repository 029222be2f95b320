package model

import (
	"fmt"
	"testing"
)

// sixStations is a parameter-server job with two shards, sequential: push,
// apply and pull per shard.
var sixStations = Network{Z: 0.2, Stations: []Station{
	{D: 0.051}, {D: 0.01}, {D: 0.051}, {D: 0.01}, {D: 0.051}, {D: 0.051},
}}

// BenchmarkExactMVA: exact MVA, 6 single-server stations; the target is
// under 1 ms at N = 10,000. allocs/op is the same at every N: nothing is
// allocated per step of the recursion.
func BenchmarkExactMVA(b *testing.B) {
	for _, N := range []int{100, 10000} {
		b.Run(fmt.Sprintf("N=%d", N), func(b *testing.B) {
			b.ReportAllocs()
			var x float64
			for b.Loop() {
				x = ExactMVA(sixStations, N).X
			}
			_ = x
		})
	}
}

// BenchmarkCorrectedMVA: the same with the residual-service correction.
func BenchmarkCorrectedMVA(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		CorrectedMVA(sixStations, 10000)
	}
}

// BenchmarkFlowMVA: the same with the flow-variability correction.
func BenchmarkFlowMVA(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		MVA{Flow: true}.Solve(sixStations, 10000)
	}
}

// BenchmarkMultiServerMVA: a 16-core shared compute station and a link
// (exact load-dependent MVA with its complement recursion), N = 10,000.
func BenchmarkMultiServerMVA(b *testing.B) {
	n := Network{Stations: []Station{{D: 0.2, Servers: 16}, {D: 0.01}, {D: 0.005}}}
	b.ReportAllocs()
	for b.Loop() {
		ExactMVA(n, 10000)
	}
}

// BenchmarkSchweitzer: the fixed point at N = 10^6.
func BenchmarkSchweitzer(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Schweitzer(sixStations, 1_000_000)
	}
}

// BenchmarkSweep: X(N) for N = 1..1024 at every P = 1..16 of an AsyncPS
// job (what predict --workers 1-1024 --ps 1-16 computes); the target is
// under 50 ms. Parallel has 3 or 4 stations per network, Sequential 3P.
func BenchmarkSweep(b *testing.B) {
	for _, sh := range []Sharding{Parallel, Sequential} {
		a := job
		a.Sharding = sh
		a.Correction = true
		b.Run(sh.String(), func(b *testing.B) {
			b.ReportAllocs()
			xs := make([]float64, 1024)
			nets := make([]Network, 16)
			for p := range nets {
				nets[p] = a.Network(Config{Workers: 1024, PS: p + 1})
			}
			for b.Loop() {
				for _, n := range nets {
					MVA{Correction: true}.Sweep(n, xs)
				}
			}
		})
	}
}

// BenchmarkManyServers: a compute station whose servers grow with the
// workers (shared cores, one machine per few workers: c = N/2) and a
// shard link, at N = 4,000. The marginals of the multi-server station are
// 0 above the few customers ever at it, and the recursion skips them:
// O(N) instead of O(N c) (docs/performance.md).
func BenchmarkManyServers(b *testing.B) {
	const N = 4000
	nw := Network{Z: 0.01, Stations: []Station{{Name: "compute", D: 0.1, Servers: N / 2}, {Name: "link", D: 0.05}}}
	b.ReportAllocs()
	for b.Loop() {
		ExactMVA(nw, N)
	}
}
