package model

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

var _ Throughput = AsyncPS{}

// job is the worked example of these tests: Z = 0.1 + 0.001*100 = 0.2 s;
// with P shards a transfer is 0.001 + 1e8/(P*1e9) s and an apply 0.02/P s.
var job = AsyncPS{
	Compute0: 0.1, Compute1: 0.001, Batch: 100,
	ParamBytes: 1e8, Bandwidth: 1e9, Latency: 0.001, Apply: 0.02,
}

func TestAsyncPSNetwork(t *testing.T) {
	// P = 2, plain: push = pull = 0.001 + 0.05 = 0.051, apply = 0.01; SCVs
	// read as 1, so sigma = sqrt(0.051^2 + 0.01^2 + 0.051^2) = sqrt(0.005302)
	// and sync = sigma * (H_2 - 1) = 0.5 sigma.
	n := job.Network(Config{Workers: 4, PS: 2})
	sigma := math.Sqrt(0.005302)
	want := []Station{
		{Name: "push", D: 0.051, SCV: 1},
		{Name: "apply", D: 0.01, SCV: 1},
		{Name: "pull", D: 0.051, SCV: 1},
		{Name: "sync", D: 0.5 * sigma, Delay: true, SyncOf: []int{0, 1, 2}, SyncFactor: 0.5},
	}
	if relErr(n.Z, 0.2) > 1e-15 || len(n.Stations) != len(want) {
		t.Fatalf("Z = %g, stations %+v", n.Z, n.Stations)
	}
	for i, w := range want {
		g := n.Stations[i]
		if g.Name != w.Name || relErr(g.D, w.D) > 1e-12 || g.SCV != w.SCV || g.Delay != w.Delay ||
			!slices.Equal(g.SyncOf, w.SyncOf) || relErr(g.SyncFactor, w.SyncFactor) > 1e-15 {
			t.Errorf("station %d = %+v, want %+v", i, g, w)
		}
	}

	// Sequential, P = 2: push[1] apply[1] push[2] apply[2] pull[1] pull[2].
	seq := job
	seq.Sharding = Sequential
	n = seq.Network(Config{Workers: 4, PS: 2})
	var names []string
	for _, s := range n.Stations {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"push[1]", "apply[1]", "push[2]", "apply[2]", "pull[1]", "pull[2]"}) {
		t.Errorf("sequential stations %v", names)
	}

	// Batch 200 overrides: Z = 0.1 + 0.2 = 0.3. One shard: no sync station.
	n = job.Network(Config{Workers: 4, PS: 1, Batch: 200})
	if relErr(n.Z, 0.3) > 1e-15 || len(n.Stations) != 3 || relErr(n.Stations[0].D, 0.101) > 1e-15 {
		t.Errorf("P=1, b=200: Z = %g, stations %+v", n.Z, n.Stations)
	}

	// Shared CPU: 1 core per machine, 2 machines, 4 workers: compute is a
	// 2-server station of demand 0.2, and Z = 0.
	sh := job
	sh.SharedCores = 1
	n = sh.Network(Config{Workers: 4, PS: 1, Nodes: 2})
	if n.Z != 0 || n.Stations[0].Name != "compute" || n.Stations[0].Servers != 2 || relErr(n.Stations[0].D, 0.2) > 1e-15 {
		t.Errorf("shared cores: Z = %g, %+v", n.Z, n.Stations[0])
	}
	// With enough cores for every worker, compute stays a delay.
	if n = sh.Network(Config{Workers: 2, PS: 1, Nodes: 2}); n.Z != 0.2 || n.Stations[0].Name != "push" {
		t.Errorf("shared cores, one per worker: Z = %g, %+v", n.Z, n.Stations[0])
	}
}

func TestAsyncPSHandWorked(t *testing.T) {
	sigma := math.Sqrt(0.005302)
	seq := job
	seq.Sharding = Sequential
	tests := []struct {
		name string
		a    AsyncPS
		c    Config
		want float64
	}{
		// One worker, one shard: 1/(0.2 + 0.101 + 0.02 + 0.101) = 1/0.422.
		{"P=1 N=1", job, Config{Workers: 1, PS: 1}, 1 / 0.422},
		// PS = 0 is read as one shard.
		{"P=0 N=1", job, Config{Workers: 1}, 1 / 0.422},
		// P = 2 parallel: 1/(0.2 + 0.051 + 0.01 + 0.051 + 0.5 sigma).
		{"P=2 N=1", job, Config{Workers: 1, PS: 2}, 1 / (0.312 + 0.5*sigma)},
		// P = 2 sequential: 1/(0.2 + 4*0.051 + 2*0.01) = 1/0.424.
		{"sequential P=2 N=1", seq, Config{Workers: 1, PS: 2}, 1 / 0.424},
		// Far past the knee the bottleneck (a link, 0.101 s) sets X = 1/0.101;
		// push and pull are both bottlenecks and share the queue, so the
		// limit is reached slowly (about (N-1)/N; within 0.5% at N = 500).
		{"P=1 N=500", job, Config{Workers: 500, PS: 1}, 1 / 0.101},
	}
	for _, tc := range tests {
		tol := 1e-9
		if tc.c.Workers > 1 {
			tol = 0.005
		}
		if got := tc.a.StepsPerSecond(tc.c); relErr(got, tc.want) > tol {
			t.Errorf("%s: %.12g steps/s, want %.12g", tc.name, got, tc.want)
		}
	}
}

func TestAsyncPSBoundsKnee(t *testing.T) {
	// P = 2: total demand 0.312 + 0.5 sigma = 0.3484075..., max D = 0.051:
	// light = 10/0.3484075 = 28.70, saturation = 1/0.051 = 19.61, knee = 6.832.
	total := 0.312 + 0.5*math.Sqrt(0.005302)
	c := Config{Workers: 10, PS: 2}
	light, sat := job.Bounds(c)
	if relErr(light, 10/total) > 1e-12 || relErr(sat, 1/0.051) > 1e-12 {
		t.Errorf("bounds %g, %g; want %g, %g", light, sat, 10/total, 1/0.051)
	}
	if k := job.Knee(c); relErr(k, total/0.051) > 1e-12 {
		t.Errorf("knee %g, want %g", k, total/0.051)
	}
	for _, corr := range []bool{false, true} {
		a := job
		a.Correction = corr
		prev := 0.0
		for N := 1; N <= 100; N++ {
			c := Config{Workers: N, PS: 4}
			x := a.StepsPerSecond(c)
			l, s := a.Bounds(c)
			if x > l*(1+1e-12) || x > s*(1+1e-12) || x < prev*(1-1e-12) {
				t.Fatalf("correction %v N=%d: X = %g, bounds %g %g, X(N-1) = %g", corr, N, x, l, s, prev)
			}
			prev = x
		}
	}
}

func TestAsyncPSPredict(t *testing.T) {
	c := Config{Workers: 8, PS: 2}
	p := job.Predict(c)
	x := job.StepsPerSecond(c)
	if relErr(p.StepsPerSecond, x) > 1e-15 || relErr(p.SamplesPerSec, 100*x) > 1e-15 {
		t.Errorf("prediction %+v, want X %g, samples %g", p, x, 100*x)
	}
	if relErr(p.Cycle, 8/x) > 1e-12 {
		t.Errorf("cycle %g, want N/X = %g", p.Cycle, 8/x)
	}
	// push and pull have the same demand; the first one is named.
	if p.Bottleneck != "push" || len(p.Utilisation) != 4 || relErr(p.Utilisation[0], x*0.051) > 1e-12 {
		t.Errorf("bottleneck %q, utilisation %v", p.Bottleneck, p.Utilisation)
	}
	if p.Staleness <= 0 || p.Staleness >= 7 {
		t.Errorf("staleness %g, want in (0, N-1)", p.Staleness)
	}
	if one := job.Predict(Config{Workers: 1, PS: 2}); one.Staleness != 0 {
		t.Errorf("one worker: staleness %g, want 0", one.Staleness)
	}
}

func TestAsyncPSValidate(t *testing.T) {
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []AsyncPS{
		job.WithParams([]float64{-1, 0, 0, 0}),
		{ParamBytes: 1e6},
		{Compute0: math.NaN()},
		{SharedCores: -1},
		{Sharding: 7},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	p := []float64{0.3, 0.002, 0.01, 0.05}
	if got := job.WithParams(p).Params(); !slices.Equal(got, p) || len(job.ParamNames()) != len(p) {
		t.Errorf("params round trip %v, want %v", got, p)
	}
}

// TestAsyncPSMatchesSimulation runs the job on the event-driven simulator
// with its real structure (one station per shard and phase, a true
// fork-join for Parallel) and compares.
func TestAsyncPSMatchesSimulation(t *testing.T) {
	exp := job
	exp.SCVCompute, exp.SCVPush, exp.SCVApply, exp.SCVPull = 1, 1, 1, 1
	seq := exp
	seq.Sharding = Sequential
	shared := exp
	shared.SharedCores = 1
	det := job // deterministic transfers and applies, exponential compute
	det.SCVCompute = 1
	det.Correction = true
	detSeq := det
	detSeq.Sharding = Sequential
	low := det // low but not zero variability everywhere
	low.SCVCompute, low.SCVPush, low.SCVApply, low.SCVPull = 0.1, 0.05, 0.2, 0.05
	lowSeq := low
	lowSeq.Sharding = Sequential

	Ns := []int{1, 4, 8, 16, 64}
	cycles := 30000
	if testing.Short() {
		Ns = []int{4, 16}
		cycles = 20000
	}
	for _, tc := range []struct {
		name  string
		a     AsyncPS
		P     int
		nodes int
		tol   float64
	}{
		// Product form: exact MVA, only simulation noise.
		{"sequential exponential", seq, 2, 0, 0.01},
		{"shared cpu exponential", shared, 1, 2, 0.01},
		// The fork-join is approximated (sync station): a few per cent.
		{"parallel exponential", exp, 4, 0, 0.06},
		// Deterministic transfers and applies: the residual correction must
		// beat plain MVA on average; both errors are logged.
		{"parallel deterministic", det, 4, 0, 0},
		{"sequential deterministic", detSeq, 2, 0, 0},
		{"parallel low-variance", low, 4, 0, 0},
		{"sequential low-variance", lowSeq, 2, 0, 0},
	} {
		var sumPlain, sumCorr, sumFlow float64
		for _, N := range Ns {
			c := Config{Workers: N, PS: tc.P, Nodes: tc.nodes}
			sim := simulate(desFromAsyncPS(tc.a, c), N, 2000, cycles, uint64(7*N+tc.P))
			x := tc.a.StepsPerSecond(c)
			err := x/sim.X - 1
			if tc.tol > 0 {
				t.Logf("%-24s P=%d N=%2d knee %5.1f simulated %.4f model %.4f error %+.2f%%", tc.name, tc.P, N, tc.a.Knee(c), sim.X, x, 100*err)
				if math.Abs(err) > tc.tol {
					t.Errorf("%s P=%d N=%d: model %g, simulated %g (%.2f%%), want within %g%%", tc.name, tc.P, N, x, sim.X, 100*err, 100*tc.tol)
				}
				continue
			}
			plain, flow := tc.a, tc.a
			plain.Correction = false
			flow.Flow = true
			perr := plain.StepsPerSecond(c)/sim.X - 1
			ferr := flow.StepsPerSecond(c)/sim.X - 1
			sumPlain += math.Abs(perr)
			sumCorr += math.Abs(err)
			sumFlow += math.Abs(ferr)
			t.Logf("%-24s P=%d N=%2d knee %5.1f simulated %.4f plain %+.2f%% corrected %+.2f%% flow %+.2f%%", tc.name, tc.P, N, tc.a.Knee(c), sim.X, 100*perr, 100*err, 100*ferr)
		}
		if n := float64(len(Ns)); tc.tol == 0 && (sumCorr >= sumPlain || sumFlow >= sumPlain) {
			t.Errorf("%s: mean errors corrected %.2f%%, flow %.2f%%, not both below plain %.2f%%", tc.name, 100*sumCorr/n, 100*sumFlow/n, 100*sumPlain/n)
		}
	}
}

func TestAsyncPSJSON(t *testing.T) {
	a := job
	a.Sharding = Sequential
	a.Correction = true
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Sharding":"sequential"`) {
		t.Errorf("sharding not written by name: %s", b)
	}
	var back AsyncPS
	if err := json.Unmarshal(b, &back); err != nil || back != a {
		t.Errorf("round trip: %+v, %v; want %+v", back, err, a)
	}
	if err := json.Unmarshal([]byte(`{"Sharding":"diagonal"}`), &back); err == nil {
		t.Error("unknown sharding accepted")
	}
}

// TestAsyncPSSweep: the one-pass sweep equals StepsPerSecond point by point.
func TestAsyncPSSweep(t *testing.T) {
	seq := job
	seq.Sharding = Sequential
	corr := job
	corr.Correction = true
	shared := job
	shared.SharedCores = 2
	for _, tc := range []struct {
		name string
		a    AsyncPS
		c    Config
	}{
		{"parallel", job, Config{PS: 4}},
		{"sequential", seq, Config{PS: 3}},
		{"corrected", corr, Config{PS: 2, Batch: 50}},
		{"shared cores, 3 machines", shared, Config{PS: 2, Nodes: 3}},
		{"shared cores, machine per worker", shared, Config{PS: 2}},
	} {
		xs := make([]float64, 40)
		tc.a.Sweep(tc.c, xs)
		for i, x := range xs {
			c := tc.c
			c.Workers = i + 1
			if want := tc.a.StepsPerSecond(c); relErr(x, want) > 1e-9 {
				t.Errorf("%s N=%d: sweep %g, StepsPerSecond %g", tc.name, i+1, x, want)
			}
		}
	}
}

// TestAsyncPSProperties: on random jobs and every option, the rate is
// positive, finite and within both bounds, and the staleness is in
// [0, N-1].
func TestAsyncPSProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for i := range 300 {
		a := AsyncPS{
			Compute0: rng.Float64(), Compute1: rng.Float64() * 1e-3, Batch: float64(1 + rng.IntN(256)),
			ParamBytes: rng.Float64() * 1e9, Bandwidth: 1e8 + rng.Float64()*1e10, Latency: rng.Float64() * 1e-2,
			Apply:      rng.Float64() * 0.1,
			SCVCompute: 2 * rng.Float64(), SCVPush: rng.Float64(), SCVApply: rng.Float64(), SCVPull: rng.Float64(),
			Sharding: Sharding(rng.IntN(2)), SharedCores: rng.IntN(3),
			Correction: rng.IntN(2) == 0, Flow: rng.IntN(3) == 0,
		}
		if err := a.Validate(); err != nil {
			t.Fatal(err)
		}
		c := Config{Workers: 1 + rng.IntN(200), PS: rng.IntN(9), Nodes: rng.IntN(4)}
		x := a.StepsPerSecond(c)
		light, sat := a.Bounds(c)
		s := a.Staleness(c)
		if !(x > 0) || math.IsInf(x, 0) || x > light*(1+1e-9) || x > sat*(1+1e-9) {
			t.Fatalf("job %d %+v at %+v: X = %g, bounds %g %g", i, a, c, x, light, sat)
		}
		if !(s >= 0) || s > float64(c.Workers-1)+1e-9 {
			t.Fatalf("job %d %+v at %+v: staleness %g", i, a, c, s)
		}
	}
}

// TestAsyncPSSweepPastLargeN: a sweep longer than largeN gives, above it,
// the fixed point that StepsPerSecond solves there (and exact MVA below).
func TestAsyncPSSweepPastLargeN(t *testing.T) {
	c := Config{PS: 2}
	xs := make([]float64, largeN+3)
	job.Sweep(c, xs)
	for _, n := range []int{1, 1000, largeN, largeN + 1, largeN + 3} {
		c.Workers = n
		if want := job.StepsPerSecond(c); relErr(xs[n-1], want) > 1e-9 {
			t.Errorf("N=%d: sweep %g, StepsPerSecond %g", n, xs[n-1], want)
		}
	}
}

// Every station of AsyncPS's network says its kind, so that its readers
// (saturation bounds, check's busiest station, the report's phases) need
// not recognise it by its name.
func TestAsyncPSStationKinds(t *testing.T) {
	shared := job
	shared.SharedCores = 2
	for _, tc := range []struct {
		a    AsyncPS
		c    Config
		want string
	}{
		{job, Config{Workers: 2, PS: 1}, "push:link apply:apply pull:link"},
		{shared, Config{Workers: 3, PS: 1, Nodes: 1}, "compute:compute push:link apply:apply pull:link"}, // 3 workers on 2 cores
	} {
		var got []string
		for _, s := range tc.a.Network(tc.c).Stations {
			got = append(got, s.Name+":"+map[StationKind]string{ComputeStation: "compute", LinkStation: "link", ApplyStation: "apply", SyncStation: "sync"}[s.Kind])
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%+v: %s, want %s", tc.c, g, tc.want)
		}
	}
	par := job
	par.Correction = true
	for _, s := range par.Network(Config{Workers: 2, PS: 3}).Stations {
		if s.Kind == OtherStation {
			t.Errorf("parallel shards: station %s has no kind", s.Name)
		}
	}
}

// AsyncPS says its samples per update (the per-worker batch), so a goal in
// epochs and samples/s work through Goal as for OptimusAsync: an epoch goal
// was refused ("set the batch") and samples/s read 0.
func TestAsyncPSSamplesPerStep(t *testing.T) {
	a := AsyncPS{Compute0: 0.05, ParamBytes: 1e6, Bandwidth: 1e8, Apply: 0.001, Batch: 64}
	c := Config{Workers: 4, PS: 1}
	if b := SamplesPerStep(a, c, 0); b != 64 {
		t.Errorf("samples per step %g, want the batch 64", b)
	}
	if b := SamplesPerStep(a, Config{Workers: 4, PS: 1, Batch: 32}, 0); b != 32 {
		t.Errorf("samples per step at Config.Batch 32: %g", b)
	}
	u, err := Goal{Epochs: 2, Dataset: 64000}.Updates(a, c)
	if err != nil || u != 2000 {
		t.Errorf("2 epochs of 64,000 samples at 64 an update: %g updates, %v; want 2000", u, err)
	}
}

// Across the switch from the exact recursion to the fixed point (above
// ExactLimit workers) the corrected staleness of a link-bound job moves by
// one update per worker, as below it: the fixed point gave the whole
// excess queue to the first of the two equal links (push), splitting the
// queue 56/44 where the exact recursion splits it evenly (by symmetry), and
// the staleness jumped 12% (50,000.7 to 56,125.9 at 100,001 -> 100,002).
func TestCorrectedStalenessAcrossSwitch(t *testing.T) {
	a := AsyncPS{Compute0: 0.1, Batch: 32, ParamBytes: 210040, Bandwidth: 3e6, Apply: 0.0001234,
		SCVPush: 0.001, SCVPull: 0.001, SCVApply: 0.09, SCVCompute: 0.0008, Correction: true}
	for _, P := range []int{1, 4} {
		below := a.Staleness(Config{Workers: ExactLimit, PS: P})
		above := a.Staleness(Config{Workers: ExactLimit + 2, PS: P})
		// at saturation the extra workers queue, half at each link:
		// 0.5 updates of staleness a worker below the switch (50,000
		// at 100,000), so about 1 for two more
		if d := above - below; !(d > 0 && d < 2) {
			t.Errorf("P %d: staleness %.6g at %d workers, %.6g at %d: want a step of 0 to 2 updates", P, below, ExactLimit, above, ExactLimit+2)
		}
	}
}
