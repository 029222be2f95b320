package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// Demand mixes of the simulation checks: an unbalanced network with one
// bottleneck, a parameter-server-like one (push, apply, pull; Z = 0.5 s
// of compute), a balanced one with six stations, and a shared CPU (a
// 4-server station) with a link.
var desMixes = []struct {
	name string
	n    Network
}{
	{"unbalanced", Network{Z: 1, Stations: []Station{{Name: "a", D: 0.2}, {Name: "b", D: 0.1}, {Name: "c", D: 0.05}}}},
	{"ps-like", Network{Z: 0.5, Stations: []Station{{Name: "push", D: 0.1}, {Name: "apply", D: 0.02}, {Name: "pull", D: 0.1}}}},
	{"balanced6", Network{Z: 2, Stations: []Station{{Name: "a", D: 0.1}, {Name: "b", D: 0.1}, {Name: "c", D: 0.1}, {Name: "d", D: 0.1}, {Name: "e", D: 0.01}, {Name: "f", D: 0.05}}}},
	{"shared-cpu", Network{Z: 0, Stations: []Station{{Name: "cpu", D: 1, Servers: 4}, {Name: "link", D: 0.15}}}},
}

// detMixes are the mixes of the deterministic table: the first three of
// desMixes and a sequential two-shard parameter server (four equal
// transfers of 51 ms, two applies of 10 ms, 0.2 s of compute).
var detMixes = append(desMixes[:3:3], struct {
	name string
	n    Network
}{"ps-sequential", Network{Z: 0.2, Stations: []Station{{D: 0.051}, {D: 0.01}, {D: 0.051}, {D: 0.01}, {D: 0.051}, {D: 0.051}}}})

// TestMVAMatchesSimulation: with exponential service, exact MVA is within 1%
// of the throughput of an independent event-driven simulation of the same
// network, for N = 1..64 and four demand mixes.
func TestMVAMatchesSimulation(t *testing.T) {
	Ns := []int{1, 2, 4, 8, 16, 32, 64}
	cycles := 100000
	if testing.Short() {
		Ns = []int{1, 8, 64}
		cycles = 50000
	}
	for mi, mix := range desMixes {
		for _, N := range Ns {
			sim := simulate(desFromNetwork(mix.n, 1, 1), N, 2000, cycles, uint64(100*mi+N))
			x := ExactMVA(mix.n, N).X
			err := x/sim.X - 1
			t.Logf("%-10s N=%2d  simulated %.4f (se %.2f%%)  MVA %.4f  error %+.2f%%", mix.name, N, sim.X, 100*sim.RelSE, x, 100*err)
			if math.Abs(err) > 0.01 {
				t.Errorf("%s N=%d: MVA %g, simulation %g: %.2f%% apart, want within 1%%", mix.name, N, x, sim.X, 100*err)
			}
		}
	}
}

// TestCorrectionDeterministic: with deterministic transfers (SCV 0 at the
// queueing stations) and exponential or low-variance compute, the
// residual-service correction, alone and with Flow, is closer to the
// simulation than plain MVA on average over N.
// Run with -v for the table that docs/models.md quotes:
//
//	go test ./model -run TestCorrectionDeterministic -v
func TestCorrectionDeterministic(t *testing.T) {
	Ns := []int{2, 4, 6, 8, 12, 16, 24, 32, 64}
	computeSCVs := []float64{1, 0.25}
	cycles := 40000
	if testing.Short() {
		Ns = []int{4, 8, 16}
		computeSCVs = []float64{1}
		cycles = 20000
	}
	var tab strings.Builder
	tab.WriteString("| mix | compute SCV | N | knee N* | simulated X (1/s) | plain MVA error | corrected error | corrected + flow error |\n|---|---|---|---|---|---|---|---|\n")
	for _, cs := range computeSCVs {
		for mi, mix := range detMixes {
			det := mix.n
			det.ZSCV = cs
			det.Stations = append([]Station(nil), mix.n.Stations...)
			for k := range det.Stations {
				det.Stations[k].SCV = 0
			}
			var sumPlain, sumCorr, sumFlow float64
			for _, N := range Ns {
				sim := simulate(desFromNetwork(det, cs, -1), N, 2000, cycles, uint64(1000*mi+N))
				plain := ExactMVA(det, N).X/sim.X - 1
				corr := CorrectedMVA(det, N).X/sim.X - 1
				flow := MVA{Flow: true}.Solve(det, N).X/sim.X - 1
				sumPlain += math.Abs(plain)
				sumCorr += math.Abs(corr)
				sumFlow += math.Abs(flow)
				fmt.Fprintf(&tab, "| %s | %g | %d | %.1f | %.4f | %+.2f%% | %+.2f%% | %+.2f%% |\n", mix.name, cs, N, NetworkKnee(det), sim.X, 100*plain, 100*corr, 100*flow)
			}
			n := float64(len(Ns))
			fmt.Fprintf(&tab, "| %s | %g | mean abs | | | %.2f%% | %.2f%% | %.2f%% |\n", mix.name, cs, 100*sumPlain/n, 100*sumCorr/n, 100*sumFlow/n)
			if sumCorr >= sumPlain || sumFlow >= sumPlain {
				t.Errorf("%s, compute SCV %g: mean errors corrected %.2f%%, flow %.2f%%, not both below plain %.2f%%", mix.name, cs, 100*sumCorr/n, 100*sumFlow/n, 100*sumPlain/n)
			}
		}
	}
	t.Logf("deterministic transfers, simulated vs MVA:\n%s", tab.String())
}
