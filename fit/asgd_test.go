package fit

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// asgdStats reads the real asynchronous-SGD traces of testdata/asgd (or a
// folder under it), skipping when they are absent.
func asgdStats(t *testing.T, sub ...string) []RunStats {
	t.Helper()
	dir := filepath.Join(append([]string{repoRoot(t), "testdata", "asgd"}, sub...)...)
	tr, _, err := traces.Load(dir)
	if err != nil {
		t.Skipf("no real async traces in %s: %v", dir, err)
	}
	st, err := Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// profileTable formats rows as the markdown table of docs/models.md and
// returns each variant's MAPE (%) over the rows.
func profileTable(rows []ProfileRow, variants []string) (string, []float64) {
	var b strings.Builder
	fmt.Fprintf(&b, "| run | workers | ps | link B/s | measured | %s |\n|---|---|---|---|---|%s\n",
		strings.Join(variants, " | "), strings.Repeat("---|", len(variants)))
	mape := make([]float64, len(variants))
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %d | %.3g | %.3g |", r.Run, r.Workers, r.PS, r.Bandwidth, r.Measured)
		for j, x := range r.Predicted {
			e := (x - r.Measured) / r.Measured
			mape[j] += math.Abs(e) / float64(len(rows))
			fmt.Fprintf(&b, " %.3g (%+.0f%%) |", x, 100*e)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "| **MAPE** | | | | |")
	for j := range mape {
		mape[j] *= 100
		fmt.Fprintf(&b, " **%.1f%%** |", mape[j])
	}
	b.WriteString("\n")
	return b.String(), mape
}

// Issue 3 item 2 on real traces: the two-node profile (1 worker) predicts
// every other run of testdata/asgd with exact MVA, the residual-service
// correction and the flow correction. The link-bound sweep is in the
// model's regime; the errors are printed for docs/models.md
// (go test ./fit -run TestProfileVariantsOnASGD -v).
func TestProfileVariantsOnASGD(t *testing.T) {
	st := asgdStats(t)
	vs := QueueingVariants
	for _, perSeries := range []bool{true, false} {
		rows, err := ProfileComparison(st, vs, perSeries)
		if err != nil {
			t.Fatal(err)
		}
		// 24 runs: 4 series of 6 worker counts, one 1-worker profile each
		// (20 predicted); or one profile predicting the other 23.
		want := 20
		if !perSeries {
			want = 23
		}
		if len(rows) != want {
			t.Fatalf("perSeries=%v: %d runs predicted, want %d", perSeries, len(rows), want)
		}
		tab, mape := profileTable(rows, vs)
		t.Logf("perSeries=%v\n%s", perSeries, tab)
		for j, v := range vs {
			// A stated bound: the profile alone is within 30% on average
			// for every variant (the links saturate at 72-86% of their
			// rate, which no variant knows, so the error is not small).
			if math.IsNaN(mape[j]) || mape[j] > 30 {
				t.Errorf("perSeries=%v: %s MAPE %.3g%%, want finite and under 30%%", perSeries, v, mape[j])
			}
		}
		// The finding reported in docs/models.md: on these real links the
		// exact (exponential) MVA is closer than the corrections, whose
		// deterministic-transfer premise the saturated TCP links break.
		if !(mape[0] < mape[1] && mape[0] < mape[2]) {
			t.Errorf("perSeries=%v: exact MVA %.3g%% not the closest (correction %.3g%%, flow %.3g%%): update docs/models.md", perSeries, mape[0], mape[1], mape[2])
		}
	}
}

// The link rate is part of a step trace's configuration: fitted on the
// 1-worker runs at 3 MB/s only (the two-node profile, one shard), the model
// stores that rate; predict --bandwidth 6e6 (WithBandwidth) halves the link
// demand (S/B: 210,040 B / 6e6 B/s = 0.035 s against 0.070 s) and predicts
// the measured 1-worker run at 6 MB/s within 5%; runs at the two rates are
// different configurations (8 points fitted from runs with 1 and 2 workers,
// not 4), and model.json keeps the rate through a round trip.
func TestFitASGDBandwidth(t *testing.T) {
	st := asgdStats(t)
	var three []RunStats
	var six1 RunStats
	for _, r := range st {
		if r.Bandwidth == 3e6 {
			three = append(three, r)
		}
		if r.Run == "r6000k-p1-n1" {
			six1 = r
		}
	}
	sf, err := fitFromStats(three, nil, 0, nil, StepOptions{TrainWorkers: []int{1}, Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	if m.Family != "mva" || m.Queueing == nil || m.Queueing.Bandwidth != 3e6 || m.Queueing.Variant != "exact" {
		t.Fatalf("family %s queueing %+v, want mva at 3e6 B/s, exact", m.Family, m.Queueing)
	}
	d3 := m.LinkDemand(model.Config{Workers: 1, PS: 1})
	m6, err := m.WithBandwidth(6e6)
	if err != nil {
		t.Fatal(err)
	}
	d6 := m6.LinkDemand(model.Config{Workers: 1, PS: 1})
	if relErr(d6, d3/2) > 1e-12 || relErr(d3, 210040.0/3e6) > 0.05 {
		t.Errorf("link demand %.4g s at 3 MB/s (S/B %.4g), %.4g at 6 MB/s, want half", d3, 210040.0/3e6, d6)
	}
	if x := m6.StepsPerSecond(model.Config{Workers: 1, PS: 1}); relErr(x, six1.StepsPerS) > 0.05 {
		t.Errorf("X(1) at 6 MB/s predicted %.4g, measured %.4g", x, six1.StepsPerS)
	}
	// The same query with the rate in the configuration.
	if a, b := m.StepsPerSecond(model.Config{Workers: 4, PS: 1, Bandwidth: 6e6}), m6.StepsPerSecond(model.Config{Workers: 4, PS: 1}); relErr(a, b) > 1e-12 {
		t.Errorf("X(4) at 6 MB/s: %.6g from the config, %.6g from WithBandwidth", a, b)
	}
	back, b := roundTrip(t, m)
	c := model.Config{Workers: 6, PS: 2, Bandwidth: 6e6}
	if relErr(back.StepsPerSecond(c), m.StepsPerSecond(c)) > 1e-12 {
		t.Errorf("round trip: X = %.6g, want %.6g", back.StepsPerSecond(c), m.StepsPerSecond(c))
	}
	bad := strings.Replace(string(b), `"variant": "exact"`, `"variant": "magic"`, 1)
	if _, err := ParseModel("m.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "m.json") || !strings.Contains(err.Error(), "magic") {
		t.Errorf("bad variant: %v", err)
	}

	all, err := fitFromStats(st, nil, 0, nil, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := configKeys(all.Points)
	if len(all.Points) != 8 || len(keys) != 8 {
		t.Errorf("%d points, %d configurations, want 8 and 8 (two rates x two shard counts x 1, 2 workers)", len(all.Points), len(keys))
	}
	n := 0
	for _, a := range all.Model.Diagnostics.Alternatives {
		if a.Family == "mva" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("mva listed %d times in the families tried", n)
	}
	// Table families on mixed rates: an error that says why, no silent pooling.
	if _, _, err := FitThroughput(all.Points, "auto", nil); err == nil || !strings.Contains(err.Error(), "link rates") {
		t.Errorf("table fit on two link rates: %v", err)
	}
}

// The CPU-bound series (testdata/asgd/cpu: 0.21 s of gradient per worker
// on a 2-core machine) is outside the delay-station model: fitted on the
// 1-worker run, compute as a delay over-predicts 8 workers by about 40%;
// with compute a load-dependent station of the machine's 2 cores
// (SharedCores 2, runs.csv nodes = 1) the same profile predicts every run
// within 10% (measured: +1..+7%, printed).
func TestSharedCoresOnASGDCPU(t *testing.T) {
	st := asgdStats(t, "cpu")
	mape := func(cores int) float64 {
		sf, err := fitFromStats(st, nil, 0, nil, StepOptions{TrainWorkers: []int{1}, Bootstrap: -1, SharedCores: cores})
		if err != nil {
			t.Fatal(err)
		}
		sum, n := 0.0, 0
		for _, r := range st {
			if r.Workers == 1 {
				continue
			}
			x := sf.Model.StepsPerSecond(model.Config{Workers: r.Workers, PS: r.PS, Bandwidth: r.Bandwidth})
			t.Logf("cores %d: %s measured %.3g predicted %.3g (%+.0f%%)", cores, r.Run, r.StepsPerS, x, 100*(x/r.StepsPerS-1))
			sum += math.Abs(x/r.StepsPerS - 1)
			n++
		}
		if n != 5 {
			t.Fatalf("%d runs predicted, want 5", n)
		}
		return 100 * sum / float64(n)
	}
	delay, shared := mape(0), mape(2)
	t.Logf("MAPE: compute as a delay %.1f%%, as 2 shared cores %.1f%%", delay, shared)
	if !(shared < 10) || !(delay > 15) {
		t.Errorf("MAPE %.3g%% with 2 shared cores (want < 10), %.3g%% as a delay (want > 15)", shared, delay)
	}
}

// The network an mva model exposes is the one it solves: with one worker
// there is no queueing, so 1/X(1) = Z + sum of the demands exactly, at one
// shard and at two (where the demands per shard halve and a fork-join
// delay is added, so that summing link and apply over the shards would be
// wrong); and its transfer demand is the model's LinkDemand.
func TestModelNetworkIsTheSolvedOne(t *testing.T) {
	st := asgdStats(t)
	var three []RunStats
	for _, r := range st {
		if r.Bandwidth == 3e6 {
			three = append(three, r)
		}
	}
	sf, err := fitFromStats(three, nil, 0, nil, StepOptions{TrainWorkers: []int{1}, Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	for _, ps := range []int{1, 2} {
		c := model.Config{Workers: 1, PS: ps}
		n, ok := m.Network(c)
		if !ok {
			t.Fatalf("mva model: no network")
		}
		if got, want := 1/m.StepsPerSecond(c), n.TotalDemand(); math.Abs(got-want) > 1e-12*want {
			t.Errorf("ps=%d: 1/X(1) = %.9g s, network's Z + sum D = %.9g s", ps, got, want)
		}
		var push float64
		for _, s := range n.Stations {
			if s.Name == "push" {
				push = s.D
			}
		}
		if ld := m.LinkDemand(c); math.Abs(push-ld) > 1e-12*ld {
			t.Errorf("ps=%d: push demand %.9g s, LinkDemand %.9g s", ps, push, ld)
		}
	}
	other := *m
	other.Family = "ernest"
	if _, ok := other.Network(model.Config{Workers: 1}); ok {
		t.Errorf("a non-mva model reports a network")
	}
}

// The saturation cap of the prediction intervals (Model.Saturation) is a
// physical limit, so no real run may beat it: every run of testdata/asgd,
// at either rate, shard count and worker count, measured below the cap of
// the model fitted on its 1-worker runs (the profile), with and without
// the 2-worker runs; and the cap binds (the widened interval of 8 workers
// at 3 MB/s, 1 shard would reach above it), the speedup's upper end
// falling with it.
func TestSaturationCapHoldsOnRealRuns(t *testing.T) {
	st := asgdStats(t)
	for _, train := range [][]int{{1}, {1, 2}} {
		sf, err := fitFromStats(st, nil, 0, nil, StepOptions{TrainWorkers: train, Bootstrap: 200})
		if err != nil {
			t.Fatal(err)
		}
		m := sf.Model
		bound := false
		for _, r := range st {
			c := model.Config{Workers: r.Workers, PS: r.PS, Bandwidth: r.Bandwidth}
			sat := m.Saturation(c)
			if !(r.StepsPerS < sat) {
				t.Errorf("train %v: %s measured %.4g updates/s, above the cap %.4g", train, r.Run, r.StepsPerS, sat)
			}
			p := m.Predict(c, math.NaN(), 0)
			if p.StepsPerS.Hi > sat*(1+1e-12) || p.StepsPerS.Hi < p.StepsPerS.Value {
				t.Errorf("train %v: %s interval %+v, cap %.4g", train, r.Run, p.StepsPerS, sat)
			}
			if p.StepsPerS.Hi >= sat*(1-1e-12) {
				bound = true
				// the speedup is X(n) over X(1): cut where X(n) is, its
				// upper end no further above its value than the cap
				// leaves X(n)'s (Hi/Value at most sat/X(n))
				if lim := p.Speedup.Value * p.StepsPerS.Hi / p.StepsPerS.Value; p.Speedup.Hi > lim*(1+1e-9) {
					t.Errorf("train %v: %s speedup %+v above %.4g, where the cap %.4g cut X(n) to %+v", train, r.Run, p.Speedup, lim, sat, p.StepsPerS)
				}
			}
		}
		if !bound {
			t.Errorf("train %v: the cap never binds on the real runs", train)
		}
	}
	// CPU-bound runs, compute on 2 shared cores: the cores are a station
	cpu := asgdStats(t, "cpu")
	sf, err := fitFromStats(cpu, nil, 0, nil, StepOptions{TrainWorkers: []int{1}, Bootstrap: 200, SharedCores: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range cpu {
		if sat := sf.Model.Saturation(model.Config{Workers: r.Workers, PS: r.PS}); !(r.StepsPerS < sat) {
			t.Errorf("%s measured %.4g updates/s, above the cap %.4g", r.Run, r.StepsPerS, sat)
		}
	}
	// the cores, not the links' payload bound, limit the CPU-bound runs:
	// at most 2 cores / z over the fit and its samples (the payload bound
	// overrode them: 14.3 updates/s)
	coresCap := 0.0
	for _, th := range append([][]float64{sf.Model.theta()}, sf.Model.Samples...) {
		coresCap = math.Max(coresCap, 2/th[0])
	}
	for _, w := range []int{3, 4, 8} {
		c := model.Config{Workers: w, PS: 1}
		if sat := sf.Model.Saturation(c); sat > coresCap*(1+1e-12) {
			t.Errorf("%d workers on 2 shared cores: cap %.4g, the cores carry %.4g", w, sat, coresCap)
		}
		if p := sf.Model.Predict(c, math.NaN(), 0); p.StepsPerS.Hi > coresCap*(1+1e-12) {
			t.Errorf("%d workers on 2 shared cores: interval %+v above %.4g", w, p.StepsPerS, coresCap)
		}
	}
	if s := (&Model{Family: "amdahl"}).Saturation(model.Config{Workers: 4}); !math.IsInf(s, 1) {
		t.Errorf("a table family has a saturation cap %g", s)
	}
}

// N workers whose cycle holds their compute Z make at most N/Z updates/s:
// the widened interval of one worker over 64 shards (links nearly free)
// reached 30.3 updates/s for a compute of 0.1 s, the time to target's
// lower end with it.
func TestIntervalBelowComputeBound(t *testing.T) {
	st := asgdStats(t)
	sf, err := fitFromStats(st, nil, 0, nil, StepOptions{Bootstrap: 200})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	zmin := math.Inf(1)
	for _, th := range append([][]float64{m.theta()}, m.Samples...) {
		zmin = math.Min(zmin, th[0])
	}
	for _, c := range []model.Config{{Workers: 1, PS: 64}, {Workers: 8, PS: 1, Bandwidth: 1.25e9}, {Workers: 2, PS: 16}} {
		p := m.Predict(c, math.NaN(), 0)
		if bound := float64(c.Workers) / zmin; p.StepsPerS.Hi > bound*(1+1e-12) || p.StepsPerS.Hi < p.StepsPerS.Value {
			t.Errorf("%+v: interval %+v, compute bound %.4g", c, p.StepsPerS, bound)
		}
	}
}

// A point estimate outside its bootstrap samples (a hand-edited model.json:
// link set to 0) is printed inside its own interval: predict showed
// 9.808 [4.153, 4.187].
func TestIntervalHoldsItsPoint(t *testing.T) {
	st := asgdStats(t)
	sf, err := fitFromStats(st, nil, 0, nil, StepOptions{Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	for i, p := range m.Parameters {
		if p.Name == "link" {
			m.Parameters[i].Value = 0
		}
	}
	for _, w := range []int{1, 4} {
		p := m.Predict(model.Config{Workers: w, PS: 1}, math.NaN(), 0)
		for name, iv := range map[string]Interval{"steps/s": p.StepsPerS, "speedup": p.Speedup, "efficiency": p.Efficiency} {
			if !(iv.Lo <= iv.Value && iv.Value <= iv.Hi) {
				t.Errorf("%d workers: %s %+v", w, name, iv)
			}
		}
	}
}

// The staleness sgdplan predicts past the fitted runs is linear,
// a (N - 1), with a fitted from the measured staleness. The queueing network
// has its own (model.AsyncPS.Staleness: sub-linear once a link queues, since
// workers waiting to pull are out of the read-to-apply window). On the real
// traces fitted on 1 and 2 workers, the linear law is the closer of the two
// at 3 to 8 workers: the table is printed for docs/fitting.md
// (go test ./fit -run TestStalenessPredictionOnASGD -v).
func TestStalenessPredictionOnASGD(t *testing.T) {
	st := asgdStats(t)
	sf := asgdFit12(t)
	m := sf.Model
	if m.Family != "mva" || m.Efficiency == nil {
		t.Fatalf("family %s, efficiency %v: want mva with a loss curve", m.Family, m.Efficiency)
	}
	q := m.queueing()
	var b strings.Builder
	b.WriteString("| run | measured | linear a (N - 1) | network (exact) | network (flow) | predict's 90% interval |\n|---|---|---|---|---|---|\n")
	var mape [3]float64
	n, inside := 0, 0
	lo2, hi2 := math.Inf(1), math.Inf(-1) // the linear law's errors on two shards, %
	for _, r := range st {
		if r.Workers <= 2 {
			continue
		}
		if r.PS == 2 {
			e := 100 * (m.Staleness(float64(r.Workers)) - r.Staleness.Mean) / r.Staleness.Mean
			lo2, hi2 = math.Min(lo2, e), math.Max(hi2, e)
		}
		c := m.Config(model.Config{Workers: r.Workers, PS: r.PS, Bandwidth: r.Bandwidth})
		a := q.AsyncPS(m.theta())
		exact := a.Staleness(q.config(c))
		a.Flow = true
		flow := a.Staleness(q.config(c))
		pred := [3]float64{m.Staleness(float64(r.Workers)), exact, flow}
		fmt.Fprintf(&b, "| %s | %.2f |", r.Run, r.Staleness.Mean)
		for j, p := range pred {
			e := (p - r.Staleness.Mean) / r.Staleness.Mean
			mape[j] += math.Abs(e)
			fmt.Fprintf(&b, " %.2f (%+.0f%%) |", p, 100*e)
		}
		iv := m.StalenessInterval(model.Config{Workers: r.Workers, PS: r.PS, Bandwidth: r.Bandwidth})
		mark := ""
		if iv.Lo <= r.Staleness.Mean && r.Staleness.Mean <= iv.Hi {
			inside++
		} else {
			mark = " **out**"
		}
		fmt.Fprintf(&b, " [%.2f, %.2f]%s |\n", iv.Lo, iv.Hi, mark)
		n++
	}
	for j := range mape {
		mape[j] *= 100 / float64(n)
	}
	fmt.Fprintf(&b, "| **MAPE** | | **%.1f%%** | **%.1f%%** | **%.1f%%** | **%d of %d inside** |\n", mape[0], mape[1], mape[2], inside, n)
	e := m.Efficiency
	t.Logf("staleness per worker a = %.4g [%.4g, %.4g], runs' scatter %.3g (log)\n%s", e.StalenessPerWorker, e.StalenessLo, e.StalenessHi, e.StalenessScatter, b.String())
	if n != 16 {
		t.Fatalf("%d runs above 2 workers, want 16", n)
	}
	// Stated bounds: linear within 10% on average, and closer than either
	// network form (exact 17.8%, flow 11.7% on this data; the linear law is
	// 3-25% high with two shards, where the network is closer on 7 of 8).
	if mape[0] > 10 || mape[0] >= mape[1] || mape[0] >= mape[2] {
		t.Errorf("staleness MAPE: linear %.1f%%, network exact %.1f%%, flow %.1f%%: want linear under 10%% and the closest", mape[0], mape[1], mape[2])
	}
	// predict's staleness warning and docs/fitting.md quote these
	if got := fmt.Sprintf("%.1f%% off on average, and %.0f-%.0f%% high on two shards", mape[0], lo2, hi2); got != "8.3% off on average, and 3-25% high on two shards" {
		t.Errorf("the linear law is %s: predict's warning (cmd/sgdplan/predict.go) and docs/fitting.md quote 8.3%% and 3-25%%", got)
	}
}

// The demo's fit: testdata/asgd pooled over its two link rates, fitted on
// the runs with at most 2 workers, predicts the 16 runs at 3 to 8 workers
// (README: "the demo's one fit pooled over the link rates is 11.2% off,
// worst 21.2%"; go test ./fit -run TestPooledFitOnASGD -v prints them).
func TestPooledFitOnASGD(t *testing.T) {
	st := asgdStats(t)
	sf := asgdFit12(t)
	var sum, worst float64
	n := 0
	for _, r := range st {
		if r.Workers <= 2 {
			continue
		}
		x := sf.Model.StepsPerSecond(model.Config{Workers: r.Workers, PS: r.PS, Bandwidth: r.Bandwidth})
		e := 100 * math.Abs(x-r.StepsPerS) / r.StepsPerS
		sum += e
		worst = math.Max(worst, e)
		n++
	}
	t.Logf("%d runs at 3-8 workers: mean error %.1f%%, worst %.1f%%", n, sum/float64(n), worst)
	if n != 16 || sum/float64(n) > 12 || worst > 22 {
		t.Errorf("%d runs: mean %.1f%%, worst %.1f%%: want 16 within 12%% on average, 22%% at worst", n, sum/float64(n), worst)
	}
}

// asgdFit12 is the demo's fit: testdata/asgd on its runs with at most 2
// workers, no bootstrap.
func asgdFit12(t *testing.T) *StepFit {
	t.Helper()
	tr, _, err := traces.Load(filepath.Join(repoRoot(t), "testdata", "asgd"))
	if err != nil {
		t.Skipf("no real async traces: %v", err)
	}
	sf, err := FitSteps(tr, nil, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 200})
	if err != nil {
		t.Fatal(err)
	}
	return sf
}

// The pull/push covariance of every run of the real traces is the same
// read in memory (Stats) and streamed (FitStepsPaths, what sgdplan fit
// does), and positive in most runs (19 of 24): a worker's pulls and
// pushes share its link, which the intervals took as independent.
func TestPullPushCovarianceBothPaths(t *testing.T) {
	mem := asgdStats(t)
	sf, _, err := FitStepsPaths([]string{filepath.Join(repoRoot(t), "testdata", "asgd")}, StepOptions{Family: "mva", Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	byRun := map[string]RunStats{}
	for _, r := range sf.Stats {
		byRun[r.Run] = r
	}
	positive := 0
	for _, r := range mem {
		s, ok := byRun[r.Run]
		if !ok {
			t.Errorf("run %s: not in the streamed fit", r.Run)
			continue
		}
		a, b := r.PullPush, s.PullPush
		if a.N != b.N || a.N < 2 || math.Abs(a.Cov-b.Cov) > 1e-9*math.Max(math.Abs(a.Cov), 1e-12) {
			t.Errorf("run %s: pull/push covariance %+v in memory, %+v streamed", r.Run, a, b)
		}
		if a.Cov > 0 {
			positive++
		}
	}
	if 2*positive <= len(mem) {
		t.Errorf("%d of %d runs with a positive pull/push covariance, want most", positive, len(mem))
	}
}
