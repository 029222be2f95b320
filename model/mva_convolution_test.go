package model

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// convolution solves a closed product-form network by Buzen's convolution
// algorithm with load-dependent stations (Buzen 1973; Bolch, Greiner, de
// Meer, Trivedi, "Queueing Networks and Markov Chains", 2nd ed., section
// 8.1), written from the textbook and sharing nothing with mva.go. Station
// k with demand D and m servers holding j customers has the weight
//
//	f_k(j) = D^j / prod_{i=1..j} min(i, m)      (m = 1: D^j; a delay: D^j / j!)
//
// the normalising constant is the convolution G = f_Z * f_1 * ... * f_K, and
// at N customers X = G(N-1)/G(N) and the mean number at station k is
// Q_k = sum_j j f_k(j) G_{-k}(N-j) / G(N), G_{-k} the convolution without k.
// Every term is positive: no cancellation.
func convolution(n Network, N int) (x float64, q []float64) {
	weights := func(d float64, servers int, delay bool) []float64 {
		f := make([]float64, N+1)
		f[0] = 1
		for j := 1; j <= N; j++ {
			div := float64(j)
			if !delay {
				div = float64(min(j, max(servers, 1)))
			}
			f[j] = f[j-1] * d / div
		}
		return f
	}
	conv := func(a, b []float64) []float64 {
		c := make([]float64, N+1)
		for i := range c {
			for j := 0; j <= i; j++ {
				c[i] += a[j] * b[i-j]
			}
		}
		return c
	}
	fs := [][]float64{weights(n.Z, 0, true)}
	for _, s := range n.Stations {
		fs = append(fs, weights(s.D, s.Servers, s.Delay))
	}
	all := func(skip int) []float64 {
		g := make([]float64, N+1)
		g[0] = 1
		for i, f := range fs {
			if i != skip {
				g = conv(g, f)
			}
		}
		return g
	}
	g := all(-1)
	x = g[N-1] / g[N]
	q = make([]float64, len(n.Stations))
	for k := range n.Stations {
		f, rest := fs[k+1], all(k+1)
		for j := 1; j <= N; j++ {
			q[k] += float64(j) * f[j] * rest[N-j] / g[N]
		}
	}
	return x, q
}

// TestExactMVAMatchesConvolution: exact MVA, above all its load-dependent
// recursion for several multi-server stations at once (the lattice of
// complement networks in mvaState), gives the product-form solution of
// Buzen's convolution: the throughput at every N from 1 to 80 and each
// station's queue length, residence time and utilisation, to 1e-9, on 60
// random networks with two to four multi-server stations beside queues
// and delays. Until this test, two or more multi-server stations were
// checked only against the bounds and Little's law.
func TestExactMVAMatchesConvolution(t *testing.T) {
	// worked by hand first: Z = 1, one queue of D 0.5 with 2 servers, N = 2:
	// f_Z = (1, 1, 1/2), f = (1, 0.5, 0.125); G(1) = 1.5, G(2) = 0.5 + 0.5 +
	// 0.125 = 1.125: X(2) = 1.5/1.125 = 4/3, as TestMVAHandWorked has it.
	if x, _ := convolution(Network{Z: 1, Stations: []Station{{D: 0.5, Servers: 2}}}, 2); relErr(x, 4.0/3) > 1e-15 {
		t.Fatalf("convolution X(2) = %.17g, want 4/3", x)
	}
	const nMax = 80
	rng := rand.New(rand.NewPCG(35, 1))
	xs := make([]float64, nMax)
	worst := 0.0
	for net := range 60 {
		n := Network{Z: 2 * rng.Float64()}
		multi := 2 + rng.IntN(3)
		for range multi {
			n.Stations = append(n.Stations, Station{D: 0.05 + 2*rng.Float64(), Servers: 2 + rng.IntN(7)})
		}
		for range rng.IntN(4) {
			s := Station{D: 0.01 + rng.Float64()}
			if rng.IntN(3) == 0 {
				s.Delay = true
			}
			n.Stations = append(n.Stations, s)
		}
		rng.Shuffle(len(n.Stations), func(i, j int) { n.Stations[i], n.Stations[j] = n.Stations[j], n.Stations[i] })
		desc := fmt.Sprintf("network %d (Z %.3g", net, n.Z)
		for _, s := range n.Stations {
			desc += fmt.Sprintf(", D %.3g m %d delay %v", s.D, s.Servers, s.Delay)
		}
		desc += ")"

		MVA{}.Sweep(n, xs)
		for i, x := range xs {
			want, _ := convolution(n, i+1)
			worst = max(worst, relErr(x, want))
			if relErr(x, want) > 1e-9 {
				t.Fatalf("%s: Sweep X(%d) = %.12g, convolution %.12g", desc, i+1, x, want)
			}
		}
		for _, N := range []int{1, 2, 7, 30, nMax} {
			res := ExactMVA(n, N)
			x, q := convolution(n, N)
			if relErr(res.X, x) > 1e-9 {
				t.Fatalf("%s: Solve X(%d) = %.12g, convolution %.12g", desc, N, res.X, x)
			}
			for k, s := range n.Stations {
				u := x * s.D
				if !s.Delay {
					u /= float64(s.servers())
				}
				worst = max(worst, relErr(res.Q[k], q[k]), relErr(res.R[k], q[k]/x), relErr(res.U[k], u))
				if relErr(res.Q[k], q[k]) > 1e-9 || relErr(res.R[k], q[k]/x) > 1e-9 || relErr(res.U[k], u) > 1e-9 {
					t.Fatalf("%s, N = %d, station %d: MVA Q %.12g R %.12g U %.12g; convolution Q %.12g R %.12g U %.12g",
						desc, N, k, res.Q[k], res.R[k], res.U[k], q[k], q[k]/x, u)
				}
			}
		}
	}
	t.Logf("largest relative difference from the convolution: %.2g", worst)
}
