package planner

import (
	"math"
	"math/rand/v2"
	"testing"
)

// relErr is |got - want| / |want| (absolute when want is 0).
func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

func powerJobs(sizes []float64, p float64) []Job {
	jobs := make([]Job, len(sizes))
	for i, x := range sizes {
		jobs[i] = Job{ID: string(rune('a' + i%26)), Size: x, Curve: PowerLaw{P: p}}
	}
	return jobs
}

// The worked example of design.md: N = 1, sizes 4, 3, 2, 1.
//
// p = 0.5, q = 2, flow time: c_i = ((i-1)/i)^2 = 0, 1/4, 4/9, 9/16 for the jobs
// of size 4, 3, 2, 1, so x_i (1-c_i)^-1/2 = 4, 3/sqrt(3/4) = 3.4641,
// 2/sqrt(5/9) = 2.6833, 1/sqrt(7/16) = 1.5119, and c_{i+1}^1/2 = 1/2, 2/3, 3/4:
//
//	tau_4 = 1.5119                       (all four present)
//	tau_3 = 2.6833 - 1.5119*3/4 = 1.5494 -> T = 3.0612
//	tau_2 = 3.4641 - 2.6833*2/3 = 1.6752 -> T = 4.7365
//	tau_1 = 4      - 3.4641/2   = 2.2679 -> T = 7.0044
//
// mean (1.5119+3.0612+4.7365+7.0044)/4 = 4.0785.
// EQUI at p = 0.5, N = 1: four jobs at rate (1/4)^0.5 = 1/2 until the size-1
// job ends at t = 2; then three at (1/3)^0.5 = 0.57735 for the remaining 1 of
// the size-2 job, 1/0.57735 = 1.7321 -> t = 3.7321; two at 0.70711 for 1 ->
// t = 5.1463; one at 1 for 1 -> t = 6.1463. Mean (2+3.7321+5.1463+6.1463)/4 =
// 4.2562 (design.md rounds 4.2561); slowdown (2/1 + 3.7321/2 + 5.1463/3 +
// 6.1463/4)/4 = 1.7795. SRPT: completions 1, 3, 6, 10: mean 5.0, slowdown
// (1 + 1.5 + 2 + 2.5)/4 = 1.75.
func TestWorkedExample(t *testing.T) {
	sizes := []float64{4, 3, 2, 1}
	cases := []struct {
		name     string
		p        float64
		policy   Policy
		flow, sd float64
		compl    []float64 // NaN: not checked
		tol      float64
	}{
		{"hesrpt p=0.5", 0.5, HeSRPTPolicy{FlowTime}, 4.0785, math.NaN(), []float64{7.0044, 4.7365, 3.0612, 1.5119}, 1e-4},
		{"hesrpt-slowdown p=0.5", 0.5, HeSRPTPolicy{Slowdown}, math.NaN(), 1.5466, nil, 1e-4},
		{"equi p=0.5", 0.5, Equi{}, 4.2562, 1.7795, []float64{6.1463, 5.1463, 3.7321, 2}, 1e-4},
		{"srpt p=0.5", 0.5, SRPT{}, 5.0, 1.75, []float64{10, 6, 3, 1}, 1e-12},
		{"srpt p=0.9", 0.9, SRPT{}, 5.0, 1.75, []float64{10, 6, 3, 1}, 1e-12},
	}
	for _, c := range cases {
		r, err := Simulate(powerJobs(sizes, c.p), c.policy, Settings{Servers: 1})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !math.IsNaN(c.flow) && math.Abs(r.MeanResponse-c.flow) > c.tol*c.flow {
			t.Errorf("%s: mean flow time %.6f, want %.4f", c.name, r.MeanResponse, c.flow)
		}
		if !math.IsNaN(c.sd) && math.Abs(r.MeanSlowdown-c.sd) > c.tol*c.sd {
			t.Errorf("%s: mean slowdown %.6f, want %.4f", c.name, r.MeanSlowdown, c.sd)
		}
		for i, want := range c.compl {
			if got := r.Jobs[i].Completion; math.Abs(got-want) > c.tol*want {
				t.Errorf("%s: job %d completes at %.6f, want %.4f", c.name, i, got, want)
			}
		}
	}
	// The closed form gives the same figures.
	off, err := HeSRPT(sizes, nil, 0.5, 1, FlowTime)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{7.0044, 4.7365, 3.0612, 1.5119} {
		if math.Abs(off.Completion[i]-want) > 1e-4*want {
			t.Errorf("closed form: job %d completes at %.6f, want %.4f", i, off.Completion[i], want)
		}
	}
	if math.Abs(off.MeanFlowTime-4.0785) > 1e-4*4.0785 {
		t.Errorf("closed form mean flow time %.6f, want 4.0785", off.MeanFlowTime)
	}
	sd, err := HeSRPT(sizes, nil, 0.5, 1, Slowdown)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sd.MeanSlowdown-1.5466) > 1e-4*1.5466 {
		t.Errorf("closed form mean slowdown %.6f, want 1.5466", sd.MeanSlowdown)
	}
	// p = 0.9: the worked example in design.md gives only p = 0.5 values;
	// log what the closed form says so the docs can quote it.
	for _, obj := range []Objective{FlowTime, Slowdown} {
		o, _ := HeSRPT(sizes, nil, 0.9, 1, obj)
		t.Logf("p=0.9 %v-optimal: mean flow %.4f, mean slowdown %.4f, completions %.4f", obj, o.MeanFlowTime, o.MeanSlowdown, o.Completion)
	}
}

// The closed form equals the event-driven replay of heSRPT's allocation, and
// the optimal objective of design.md, n^-p sum_k x_k (W_k^q - W_{k-1}^q)^(1-p).
func TestClosedFormMatchesReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		m := 1 + rng.IntN(40)
		p := 0.05 + 0.94*rng.Float64()
		if trial%10 == 0 {
			p = 1
		}
		n := float64(1 + rng.IntN(64))
		x := make([]float64, m)
		for i := range x {
			x[i] = math.Exp(3 * rng.NormFloat64())
		}
		if trial%7 == 0 && m > 2 {
			x[1] = x[0] // ties
		}
		for _, obj := range []Objective{FlowTime, Slowdown} {
			off, err := HeSRPT(x, nil, p, n, obj)
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			sim, err := Simulate(powerJobs(x, p), HeSRPTPolicy{obj}, Settings{Servers: n})
			if err != nil {
				t.Fatal(err)
			}
			for i := range x {
				if e := relErr(sim.Jobs[i].Completion, off.Completion[i]); e > 1e-9 {
					t.Fatalf("trial %d %v p=%g n=%g: job %d closed form %.15g, replay %.15g (rel %.2g)",
						trial, obj, p, n, i, off.Completion[i], sim.Jobs[i].Completion, e)
				}
			}
			if p < 0.95 {
				q := 1 / (1 - p)
				idx := sortLargestFirst(x)
				W, want := 0.0, 0.0
				for _, j := range idx {
					w := 1.0
					if obj == Slowdown {
						w = 1 / x[j]
					}
					prev := W
					W += w
					want += x[j] * math.Pow(math.Pow(W, q)-math.Pow(prev, q), 1-p)
				}
				want *= math.Pow(n, -p)
				if e := relErr(off.Objective, want); e > 1e-9 {
					t.Fatalf("trial %d: objective %.15g, formula %.15g", trial, off.Objective, want)
				}
			}
		}
	}
}
