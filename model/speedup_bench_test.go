package model

import (
	"strconv"
	"testing"
)

// go test -run '^$' -bench 'ExpectedMaxNormal|SweepFamilies|SpeedupCurveAt' -benchmem ./model

func BenchmarkExpectedMaxNormal(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			var s float64
			for b.Loop() {
				s += ExpectedMaxNormal(n)
			}
			_ = s
		})
	}
}

// BenchmarkSweepFamilies sweeps N = 1..1024 at one shard count with a loss
// target (and staleness where the family has it).
func BenchmarkSweepFamilies(b *testing.B) {
	g := Goal{TargetLoss: 0.6, Curve: LossCurve{B0: 0.01, B1: 0.5, B2: 0.1}, Law: StalenessLaw{Lambda: 0.05}, Batch: 32}
	ns := Range(1, 1024)
	fams := []struct {
		name string
		m    Throughput
	}{
		{"optimus-async", OptimusAsync{Theta0: 0.1, Theta1: 0.002, Theta3: 0.001}},
		{"pollux", Pollux{AlphaGrad: 0.1, BetaGrad: 0.001, AlphaLocal: 0.01, BetaLocal: 0.001, AlphaNode: 0.05, BetaNode: 0.005, Gamma: 1.5, Batch: 32}},
		{"allreduce", RingAllReduce{Compute0: 0.1, Transfer: 0.02, InterTransfer: 0.2, Latency: 1e-4, InterLatency: 1e-3, Batch: 32}},
		{"syncps", SyncPS{Compute0: 0.1, ComputeCV: 0.1, Transfer: 0.02, Apply: 0.001, Batch: 32}},
	}
	for _, f := range fams {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Sweep(f.m, g, Scaling{PS: 4, PerNode: 4}, ns); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSpeedupCurveAt(b *testing.B) {
	c, err := SpeedupCurveOf(PowerLaw{P: 0.7, Rate: 1}, Goal{}, Scaling{}, 1024)
	if err != nil {
		b.Fatal(err)
	}
	var s float64
	k := 0.0
	for b.Loop() {
		s += c.Speedup(k)
		k += 0.37
		if k > 1100 {
			k = 0
		}
	}
	_ = s
}
