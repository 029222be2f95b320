package model

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// nearRel reports whether got is within rel of want, relative to |want|
// (absolute when want is 0).
func nearRel(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestExpectedMaxNormal(t *testing.T) {
	// Textbook values (Tippett 1925; Harter 1961 tables of expected normal
	// order statistics): E[max of 2] = 1/sqrt(pi), E[max of 3] = 3/(2 sqrt(pi)).
	cases := []struct {
		n    int
		want float64
	}{
		{1, 0},
		{2, 1 / math.Sqrt(math.Pi)},       // 0.5641896
		{3, 3 / (2 * math.Sqrt(math.Pi))}, // 0.8462844
		{4, 1.0293754},
		{5, 1.1629645},
		{10, 1.5387527},
		{100, 2.50759}, // 5 digits in the tables
		// Beyond the tables: Simpson's rule with step 0.001 on [-12, 12].
		{1000, 3.2414357691},
		{1000000, 4.8628974862},
	}
	for _, c := range cases {
		if got := ExpectedMaxNormal(c.n); !nearRel(got, c.want, 2e-6) {
			t.Errorf("ExpectedMaxNormal(%d) = %.8g, want %.8g", c.n, got, c.want)
		}
	}
}

// stepsCase is one hand-worked throughput value.
type stepsCase struct {
	name string
	m    Throughput
	c    Config
	want float64 // steps/s
}

func TestFamiliesHandWorked(t *testing.T) {
	sps := SyncPS{Compute0: 0.1, ComputePerSample: 0.001, ComputeCV: 0.1, Transfer: 0.02, Apply: 0.01, Batch: 100}
	ring := RingAllReduce{Compute0: 0.1, Transfer: 0.04, Latency: 0.001, InterTransfer: 0.4, InterLatency: 0.01}
	oa := OptimusAsync{Theta0: 0.1, Theta1: 0.02, Theta2: 0.001, Theta3: 0.005}
	os := OptimusSync{Theta0: 0.001, Theta1: 0.01, Theta2: 0.02, Theta3: 0.001, Theta4: 0.005, GlobalBatch: 256}
	ern := Ernest{Theta0: 1, Theta1: 8, Theta2: 0.5, Theta3: 0.1}
	pol := Pollux{AlphaGrad: 0.1, BetaGrad: 0.001, AlphaLocal: 0.02, BetaLocal: 0.005, AlphaNode: 0.05, BetaNode: 0.01, Gamma: 2, Batch: 100}
	pol1 := pol
	pol1.Gamma = 1
	polBig := pol
	polBig.Gamma = 400
	cases := []stepsCase{
		// z = 0.1 + 0.001*100 = 0.2; e_1 = 0; 2*max(1/4, 1)*0.02 = 0.04;
		// (1/4)*0.01 = 0.0025; T = 0.2425.
		{"syncps N=1 P=4", sps, Config{Workers: 1, PS: 4}, 1 / 0.2425},
		// z = 0.2; 0.2*(1 + 0.1*0.5641896) = 0.21128379; 2*2*0.02 = 0.08;
		// 2*0.01 = 0.02; T = 0.31128379.
		{"syncps N=2 P=1", sps, Config{Workers: 2, PS: 1}, 1 / 0.31128379},
		// PS = 0 reads as one shard: same as above.
		{"syncps N=2 P=0", sps, Config{Workers: 2}, 1 / 0.31128379},
		// z = 0.1 + 0.001*50 = 0.15; e_8 = 1.4236003;
		// 0.15*1.14236003 = 0.17135400; 2*max(8/4, 1)*0.02 = 0.08;
		// (8/4)*0.01 = 0.02; T = 0.27135400.
		{"syncps N=8 P=4 b=50", sps, Config{Workers: 8, PS: 4, Batch: 50}, 1 / 0.27135400},
		// One worker: no synchronisation, T = z = 0.1.
		{"ring N=1", ring, Config{Workers: 1}, 10},
		// 0.1 + 2*(3/4)*0.04 + 2*3*0.001 = 0.1 + 0.06 + 0.006 = 0.166.
		{"ring N=4 one node", ring, Config{Workers: 4, Nodes: 1}, 1 / 0.166},
		// 0.1 + 1.5*0.4 + 6*0.01 = 0.76.
		{"ring N=4 two nodes", ring, Config{Workers: 4, Nodes: 2}, 1 / 0.76},
		// Nodes = 0: one worker per machine, so across machines: 0.76.
		{"ring N=4 nodes=0", ring, Config{Workers: 4}, 1 / 0.76},
		// t = 0.1 + 0.02*4/2 + 0.001*4 + 0.005*2 = 0.154; f = 4/0.154.
		{"optimus-async w=4 p=2", oa, Config{Workers: 4, PS: 2}, 4 / 0.154},
		// t = 0.1 + 0.02 + 0.001 + 0.005 = 0.126; f = 1/0.126.
		{"optimus-async w=1 p=1", oa, Config{Workers: 1, PS: 1}, 1 / 0.126},
		// M/w = 64: 0.064 + 0.01 + 0.02*2 + 0.004 + 0.01 = 0.128; f = 7.8125.
		{"optimus-sync w=4 p=2", os, Config{Workers: 4, PS: 2}, 7.8125},
		// Batch 32 given: 0.032 + 0.064 = 0.096.
		{"optimus-sync w=4 p=2 b=32", os, Config{Workers: 4, PS: 2, Batch: 32}, 1 / 0.096},
		// 1 + 8 + 0 + 0.1 = 9.1.
		{"ernest m=1", ern, Config{Workers: 1}, 1 / 9.1},
		// 1 + 8/4 + 0.5*ln 4 + 0.1*4 = 1 + 2 + 0.69314718 + 0.4 = 4.09314718.
		{"ernest m=4", ern, Config{Workers: 4}, 1 / 4.09314718},
		// K = 1: T = T_grad = 0.1 + 0.001*100 = 0.2.
		{"pollux K=1", pol, Config{Workers: 1}, 5},
		// K = 2 on one node: T_sync = 0.02; sqrt(0.04 + 0.0004) = 0.20099751.
		{"pollux K=2 one node", pol, Config{Workers: 2, Nodes: 1}, 1 / 0.20099751},
		// T_sync = 0.02 + 0.005*2 = 0.03; sqrt(0.2^2 + 0.03^2) = sqrt(0.0409).
		{"pollux K=4 one node", pol, Config{Workers: 4, Nodes: 1}, 1 / math.Sqrt(0.0409)},
		// T_sync = 0.05 + 0.01*2 = 0.07; sqrt(0.04 + 0.0049) = sqrt(0.0449).
		{"pollux K=4 two nodes", pol, Config{Workers: 4, Nodes: 2}, 1 / math.Sqrt(0.0449)},
		// Batch 50: T_grad = 0.15, T_sync = 0.07 (Nodes = 0: one per replica);
		// sqrt(0.0225 + 0.0049) = sqrt(0.0274).
		{"pollux K=4 b=50", pol, Config{Workers: 4, Batch: 50}, 1 / math.Sqrt(0.0274)},
		// Gamma = 1 is the sum: 0.2 + 0.07 = 0.27.
		{"pollux gamma=1 is the sum", pol1, Config{Workers: 4, Nodes: 2}, 1 / 0.27},
		// Gamma = 400: 0.2 (1 + 0.35^400)^(1/400) = 0.2 to 1e-12.
		{"pollux gamma large is the max", polBig, Config{Workers: 4, Nodes: 2}, 5},
		// 10 * 4^0.5 = 20.
		{"powerlaw", PowerLaw{P: 0.5, Rate: 10}, Config{Workers: 4}, 20},
		// 2 / (0.1 + 0.9/4) = 2/0.325 = 6.1538462.
		{"amdahl", Amdahl{F: 0.1, Rate: 2}, Config{Workers: 4}, 2 / 0.325},
		// F = 0 is linear: 2 * 16.
		{"amdahl F=0 linear", Amdahl{F: 0, Rate: 2}, Config{Workers: 16}, 32},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.m.StepsPerSecond(c.c); !nearRel(got, c.want, 1e-7) {
				t.Errorf("StepsPerSecond(%+v) = %.10g, want %.10g", c.c, got, c.want)
			}
		})
	}
}

func TestSpeedupLimits(t *testing.T) {
	// Amdahl never exceeds 1/F: s(1e9) with F = 0.1 is 1/(0.1 + 0.9e-9).
	a := Amdahl{F: 0.1}
	if got := a.Speedup(1e9); got >= 10 || !nearRel(got, 10, 1e-8) {
		t.Errorf("Amdahl{0.1}.Speedup(1e9) = %.12g, want just under 10", got)
	}
	// Continuous k: 2.25^0.5 = 1.5; Amdahl F = 0.5 at k = 0.5:
	// 1/(0.5 + 0.5/0.5) = 1/1.5.
	if got := (PowerLaw{P: 0.5}).Speedup(2.25); !nearRel(got, 1.5, 1e-12) {
		t.Errorf("PowerLaw{0.5}.Speedup(2.25) = %g, want 1.5", got)
	}
	if got := (Amdahl{F: 0.5}).Speedup(0.5); !nearRel(got, 1/1.5, 1e-12) {
		t.Errorf("Amdahl{0.5}.Speedup(0.5) = %g, want 0.6667", got)
	}
	for _, s := range []interface{ Speedup(float64) float64 }{PowerLaw{P: 0.7}, Amdahl{F: 0.2}, PowerLaw{P: 0}} {
		if got := s.Speedup(0); got != 0 {
			t.Errorf("%T.Speedup(0) = %g, want 0", s, got)
		}
		if got := s.Speedup(1); got != 1 {
			t.Errorf("%T.Speedup(1) = %g, want 1", s, got)
		}
	}
}

// roundTrip checks that WithParams(Params()) is the identity, that
// WithParams sets every parameter in order, that it keeps the settings, and
// that a wrong length panics.
func roundTrip[T Family[T]](t *testing.T, m T) {
	t.Helper()
	p := m.Params()
	if len(p) != len(m.ParamNames()) {
		t.Fatalf("%s: %d params, %d names", m.Family(), len(p), len(m.ParamNames()))
	}
	for _, name := range m.ParamNames() {
		if !strings.Contains(name, "(") {
			t.Errorf("%s: parameter name %q has no unit", m.Family(), name)
		}
	}
	q := make([]float64, len(p))
	for i := range q {
		q[i] = float64(i + 2) // 2, 3, ...: distinct, valid for every family
	}
	got := m.WithParams(q).Params()
	for i := range q {
		if got[i] != q[i] {
			t.Errorf("%s: WithParams(%v).Params() = %v", m.Family(), q, got)
			break
		}
	}
	c := Config{Workers: 3, PS: 2, Nodes: 2}
	if a, b := m.StepsPerSecond(c), m.WithParams(p).StepsPerSecond(c); a != b {
		t.Errorf("%s: WithParams(Params()) changes the rate: %g vs %g", m.Family(), a, b)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("%s: WithParams with a short vector did not panic", m.Family())
			}
		}()
		m.WithParams(p[:len(p)-1])
	}()
	if err := m.Validate(); err != nil {
		t.Errorf("%s: Validate: %v", m.Family(), err)
	}
	bad := append([]float64(nil), p...)
	bad[0] = -1
	if err := m.WithParams(bad).Validate(); err == nil || !strings.Contains(err.Error(), m.ParamNames()[0]) {
		t.Errorf("%s: Validate with %s = -1: %v, want an error naming it", m.Family(), m.ParamNames()[0], err)
	}
}

func TestFamilyConvention(t *testing.T) {
	roundTrip(t, SyncPS{Compute0: 0.1, ComputeCV: 0.1, Transfer: 0.01, Batch: 32})
	roundTrip(t, RingAllReduce{Compute0: 0.1, Transfer: 0.01, InterTransfer: 0.1, Batch: 32})
	roundTrip(t, OptimusAsync{Theta0: 0.1, Theta1: 0.01})
	roundTrip(t, OptimusSync{Theta0: 0.001, Theta1: 0.01, GlobalBatch: 128})
	roundTrip(t, Ernest{Theta0: 1, Theta1: 2})
	roundTrip(t, Pollux{AlphaGrad: 0.1, BetaGrad: 0.001, AlphaLocal: 0.01, Gamma: 1.5, Batch: 32})
	roundTrip(t, PowerLaw{P: 0.5, Rate: 1})
	roundTrip(t, Amdahl{F: 0.1, Rate: 1})

	// Settings survive WithParams.
	if got := (SyncPS{Batch: 32}).WithParams(make([]float64, 5)).Batch; got != 32 {
		t.Errorf("SyncPS.WithParams dropped Batch: %g", got)
	}
	if got := (OptimusSync{GlobalBatch: 128}).WithParams(make([]float64, 5)).GlobalBatch; got != 128 {
		t.Errorf("OptimusSync.WithParams dropped GlobalBatch: %g", got)
	}
	// Domain checks beyond non-negativity.
	if err := (Pollux{Gamma: 0.5}).Validate(); err == nil || !strings.Contains(err.Error(), "gamma") {
		t.Errorf("Pollux{Gamma: 0.5}.Validate() = %v, want an error naming gamma", err)
	}
	if err := (Amdahl{F: 1.5}).Validate(); err == nil || !strings.Contains(err.Error(), "f (1)") {
		t.Errorf("Amdahl{F: 1.5}.Validate() = %v, want an error naming f", err)
	}
	if err := (Ernest{Theta0: math.NaN()}).Validate(); err == nil {
		t.Error("Ernest with NaN: Validate() = nil")
	}
}

func TestZeroWorkersPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("StepsPerSecond with Workers = 0 did not panic")
		}
	}()
	RingAllReduce{Compute0: 1}.StepsPerSecond(Config{})
}

// TestFamilyProperties checks, on random parameters with a fixed seed, the
// properties each form must have whatever its parameters: Pollux's T_iter
// lies between max(T_grad, T_sync) and their sum and falls as gamma grows;
// synchronous step times never fall as workers are added (fixed per-worker
// batch); the planner's curves are increasing and concave.
func TestFamilyProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	u := func() float64 { return rng.Float64() }
	for range 200 {
		p := Pollux{AlphaGrad: u(), BetaGrad: u() / 100, AlphaLocal: u(), BetaLocal: u() / 10, AlphaNode: u(), BetaNode: u() / 10, Batch: 1 + 100*u()}
		c := Config{Workers: 1 + rng.IntN(64), Nodes: 1 + rng.IntN(4)}
		g, s := p.GradTime(c), p.SyncTime(c)
		prev := math.Inf(1)
		for _, gamma := range []float64{1, 1.5, 2, 4, 16} {
			p.Gamma = gamma
			tt := p.StepTime(c)
			if tt < max(g, s)*(1-1e-12) || tt > (g+s)*(1+1e-12) || tt > prev*(1+1e-12) {
				t.Fatalf("%+v at %+v: T_iter %g outside [%g, %g] or above %g at smaller gamma", p, c, tt, max(g, s), g+s, prev)
			}
			prev = tt
		}

		sps := SyncPS{Compute0: u(), ComputePerSample: u() / 100, ComputeCV: u() / 2, Transfer: u() / 10, Apply: u() / 100, Batch: 32}
		ring := RingAllReduce{Compute0: u(), Transfer: u() / 10, Latency: u() / 1000, Batch: 32}
		// The network between machines is no faster than inside one.
		ring.InterTransfer, ring.InterLatency = ring.Transfer+u(), ring.Latency+u()/100
		ps := 1 + rng.IntN(8)
		perNode := 1 + rng.IntN(8)
		var lastS, lastR float64
		for n := 1; n <= 64; n++ {
			ts := sps.StepTime(Config{Workers: n, PS: ps})
			tr := ring.StepTime(Scaling{PerNode: perNode}.At(n))
			if ts < lastS*(1-1e-12) {
				t.Fatalf("SyncPS %+v P=%d: step time falls from %g to %g at N=%d", sps, ps, lastS, ts, n)
			}
			if tr < lastR*(1-1e-12) {
				t.Fatalf("ring %+v per node %d: step time falls from %g to %g at N=%d", ring, perNode, lastR, tr, n)
			}
			lastS, lastR = ts, tr
		}
	}
	for _, sp := range []interface{ Speedup(float64) float64 }{PowerLaw{P: 0.3}, PowerLaw{P: 0.9}, Amdahl{F: 0.05}, Amdahl{F: 0.5}} {
		for k := 1.0; k < 100; k++ {
			a, b, c := sp.Speedup(k), sp.Speedup(k+1), sp.Speedup(k+2)
			if b <= a || c-b > (b-a)*(1+1e-12) {
				t.Fatalf("%+v: s(%g..%g) = %g, %g, %g: not increasing and concave", sp, k, k+2, a, b, c)
			}
		}
	}
}
