package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// equiRef is Equi as it was before it skipped the sort of caps already in
// order: the reference TestEquiSameAsRef holds Equi to.
type equiRef struct{}

func (equiRef) Name() string { return "equi" }
func (equiRef) ignoresRank() {}

func (equiRef) Allocate(n float64, jobs []View, alloc []float64) {
	m := len(jobs)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return -cmpDesc(jobs[a].Cap, jobs[b].Cap) })
	left := n
	for r, i := range idx {
		share := left / float64(m-r)
		alloc[i] = math.Min(share, jobs[i].Cap)
		left -= alloc[i]
	}
}

// TestEquiSameAsRef: Equi gives bit for bit what equiRef gives on random
// caps (one for all, rising, falling, mixed, fractional, infinite, now and
// then NaN or -0) and servers (whole, fractional, 0), and Simulate under
// Equi gives the same Result (%#v) as under equiRef on queueingWorkloads
// and on a Poisson stream on 500 servers.
func TestEquiSameAsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	for trial := range 4000 {
		m := rng.IntN(40)
		n := float64(rng.IntN(600))
		if trial%3 == 0 {
			n += rng.Float64()
		}
		vs := make([]View, m)
		for i := range vs {
			switch trial % 5 {
			case 0:
				vs[i].Cap = 500
			case 1:
				vs[i].Cap = float64(1 + i + rng.IntN(2)) // rising, ties
			case 2:
				vs[i].Cap = float64(100 - i)
			default:
				vs[i].Cap = float64(1+rng.IntN(50)) + 0.5*float64(rng.IntN(2))
			}
			switch rng.IntN(60) {
			case 0:
				vs[i].Cap = math.NaN()
			case 1:
				vs[i].Cap = math.Inf(1)
			case 2:
				vs[i].Cap = math.Copysign(0, -1)
			}
		}
		got, want := make([]float64, m), make([]float64, m)
		Equi{}.Allocate(n, vs, got)
		equiRef{}.Allocate(n, vs, want)
		sameAllocBits(t, fmt.Sprintf("trial %d (n %g, %d jobs)", trial, n, m), got, want)
	}
	for name, w := range everyJobWorkloads(t) {
		sameSimulations(t, name, w.jobs, w.servers, Equi{}, equiRef{})
	}
}

// everyJobWorkloads are queueingWorkloads and a Poisson stream at load 0.9
// on 500 servers, s(k) = k^0.8 and no cap but the servers (as a Philly trace
// converted with --p 0.8).
func everyJobWorkloads(t *testing.T) map[string]struct {
	jobs    []Job
	servers float64
} {
	work := queueingWorkloads()
	pois, err := Poisson{Rate: 0.9 * 500 / 3600, Count: 600, Sizes: Exponential{Mean: 3600}, Curve: PowerLaw{P: 0.8}}.Jobs(4)
	if err != nil {
		t.Fatal(err)
	}
	work["poisson500"] = struct {
		jobs    []Job
		servers float64
	}{pois, 500}
	return work
}

// everyJobSettings are ideal and whole shares, early stops, energy
// accounting and recorded segments on n servers (whole shares only when n
// is whole).
func everyJobSettings(n float64) []Settings {
	var out []Settings
	for _, s := range []Settings{
		{Servers: n},
		{Servers: n, Integer: true},
		{Servers: n, EarlyStop: 0.4, Seed: 3},
		{Servers: n, Integer: true, EarlyStop: 0.4, Seed: 5},
		{Servers: n, EnergyAlpha: 2},
		{Servers: n, Integer: true, Record: true},
	} {
		if !s.Integer || n == math.Floor(n) {
			out = append(out, s)
		}
	}
	return out
}

// hiddenPower is a power law that the simulator does not know for one: it
// evaluates every rate through the curve (memoized, the same values), as
// it did before it kept the last power law's rate.
type hiddenPower struct{ p PowerLaw }

func (h hiddenPower) Speedup(k float64) float64 { return h.p.Speedup(k) }

// TestPowerLawRatesSameResults: the simulator's rates of power laws, each
// the last one's when the exponent and the workers are the same (lastPow)
// or from the table of whole counts (wholeRate), give the same Result (%#v,
// every float to its last bit) as the curve evaluated at every job, under
// the policies that do not look at a curve's type (equi, srpt, fifo and sjf
// shown every job), on everyJobWorkloads and a stream of five exponents
// with every everyJobSettings and energy accounting on whole workers (under
// EnergyAlpha, which makes every curve k^(1/alpha) whatever it was, against
// that law hidden); and lastPow gives PowerLaw's value, bit for bit, on
// sequences of repeated and changing exponents and counts (0, -0, NaN and
// infinities among them).
func TestPowerLawRatesSameResults(t *testing.T) {
	work := everyJobWorkloads(t)
	// several exponents side by side: the table of whole counts keeps the
	// first, the others go through lastPow
	mixed := work["poisson500"]
	mixed.jobs = slices.Clone(mixed.jobs)
	for i := range mixed.jobs {
		mixed.jobs[i].Curve = PowerLaw{P: []float64{0.8, 0.5, 0.95, 1, 0.3}[i%5]}
	}
	work["mixed500"] = mixed
	for name, w := range work {
		hidden := slices.Clone(w.jobs)
		for i := range hidden {
			if pl, ok := hidden[i].Curve.(PowerLaw); ok {
				hidden[i].Curve = hiddenPower{pl}
			}
		}
		for _, pol := range []Policy{Equi{}, SRPT{}, hideQueueing(FIFO{}), hideQueueing(SJF{})} {
			settings := everyJobSettings(w.servers)
			if w.servers == math.Floor(w.servers) {
				settings = append(settings, Settings{Servers: w.servers, Integer: true, EnergyAlpha: 3})
			}
			for _, s := range settings {
				ref, refSet := hidden, s
				if s.EnergyAlpha > 0 {
					// EnergyAlpha makes every curve, hidden or not, the
					// power law k^(1/alpha): the curves evaluated at every
					// job are that law hidden, without EnergyAlpha, and the
					// energy, which that run does not count, is left out
					ref = slices.Clone(w.jobs)
					for i := range ref {
						ref[i].Curve = hiddenPower{PowerLaw{P: 1 / s.EnergyAlpha}}
					}
					refSet.EnergyAlpha = 0
				}
				got, gerr := Simulate(w.jobs, pol, s)
				want, werr := Simulate(ref, pol, refSet)
				if s.EnergyAlpha > 0 {
					if !(got.Energy > 0) || got.FlowPlusEnergy != got.MeanResponse*float64(len(w.jobs))+got.Energy {
						t.Errorf("%s, %s, %+v: energy %v, flow plus energy %v", name, pol.Name(), s, got.Energy, got.FlowPlusEnergy)
					}
					got.Energy, got.FlowPlusEnergy = 0, 0
				}
				if gerr != nil || werr != nil {
					t.Errorf("%s, %s, %+v: error %v, curves hidden %v", name, pol.Name(), s, gerr, werr)
				}
				if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w {
					t.Errorf("%s, %s, %+v: results differ with the curves hidden (mean response %v vs %v)", name, pol.Name(), s, got.MeanResponse, want.MeanResponse)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(19, 7))
	ps := []float64{0.8, 0.8, 0.5, 1, 0, math.Copysign(0, -1), math.NaN(), 0.3}
	ks := []float64{1, 2, 2.5, 500, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1), 166.66666666666666}
	var memo lastPow
	for range 20000 {
		pl := PowerLaw{P: ps[rng.IntN(len(ps))]}
		k := ks[rng.IntN(len(ks))]
		got, want := memo.speedup(pl, k), pl.Speedup(k)
		if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
			t.Fatalf("k^%v at k = %v: %v, PowerLaw gives %v", pl.P, k, got, want)
		}
	}
}

// TestEquiSortAllocatesNothing: Equi's order by cap, when the caps do not
// rise in arrival order, is orderPool's slice, not a new one at every call
// (it was make([]int, m) at every event).
func TestEquiSortAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	vs := make([]View, 50)
	for i := range vs {
		vs[i].Cap = float64(100 - i) // falling: sorted
	}
	alloc := make([]float64, len(vs))
	if a := testing.AllocsPerRun(100, func() { Equi{}.Allocate(500, vs, alloc) }); a != 0 {
		t.Errorf("Equi on falling caps: %v allocations a call, want 0", a)
	}
}
