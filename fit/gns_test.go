package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// gnsRuns simulates runs whose steps to the target loss 0.5 follow
// model.GNS{Noise, RefBatch: batches[0]} from sRef steps at batches[0],
// times exp(sigma N(0,1)) per run: loss 1 at step 0, 0.5 at the step
// count, 0.4 at twice it, except the first run, which stays at 0.5 (so the
// worst best value, the target, is 0.5).
func gnsRuns(batches []float64, noise, sRef, sigma float64, rng *rand.Rand) []GNSRun {
	g := model.GNS{Noise: noise, RefBatch: batches[0]}
	var rs []GNSRun
	for i, b := range batches {
		s := sRef * g.StepsRatio(b)
		if sigma > 0 {
			s *= math.Exp(sigma * rng.NormFloat64())
		}
		last := 0.4
		if i == 0 {
			last = 0.5
		}
		rs = append(rs, GNSRun{Batch: b, Steps: []float64{0, s, 2 * s}, Loss: []float64{1, 0.5, last}})
	}
	return rs
}

// Without noise the fit recovers the law exactly. Worked case: noise 1000,
// reference 128 at 5000 steps; at 4096 the steps are
// 5000 (1 + 1000/4096)/(1 + 1000/128) = 5000 x 1.24414 / 8.8125 = 705.9.
func TestFitGNSExact(t *testing.T) {
	cases := []struct {
		name    string
		batches []float64
		noise   float64
	}{
		{"noise 1000, six batches", []float64{128, 256, 512, 1024, 2048, 4096}, 1000},
		{"noise 100, three batches", []float64{32, 128, 512}, 100},
		{"noise 20000, four batches", []float64{256, 1024, 4096, 16384}, 20000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := FitGNS(gnsRuns(c.batches, c.noise, 5000, 0, nil), 100, 1, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			if relErr(f.Noise, c.noise) > 1e-5 || relErr(f.StepsRef, 5000) > 1e-6 || f.Target != 0.5 || f.RefBatch != c.batches[0] {
				t.Errorf("%+v, want noise %g, 5000 steps at %g, target 0.5", f, c.noise, c.batches[0])
			}
			// Every resample of exact data gives the same noise scale.
			if relErr(f.NoiseLo, c.noise) > 1e-4 || relErr(f.NoiseHi, c.noise) > 1e-4 {
				t.Errorf("interval [%g, %g], want a point at %g", f.NoiseLo, f.NoiseHi, c.noise)
			}
			if f.RMSLE > 1e-6 {
				t.Errorf("RMSLE %g on exact data", f.RMSLE)
			}
		})
	}
	f, _ := FitGNS(gnsRuns([]float64{128, 256, 512, 1024, 2048, 4096}, 1000, 5000, 0, nil), 0, 1, 0.9)
	if got := f.Steps(4096); relErr(got, 5000*(1+1000.0/4096)/(1+1000.0/128)) > 1e-5 || math.Abs(got-705.9) > 0.1 {
		t.Errorf("Steps(4096) = %g, want 705.9", got)
	}
}

// TestFitGNSRunScatter: RMSLE is the root mean squared log residual of
// the steps. Two runs at each of three batches, at the law's steps times
// e^+u and e^-u: a pair's squared log residuals at a fitted f are
// (f-m-u)² + (f-m+u)² = 2(f-m)² + 2u², m the law's log steps, least at
// f = m, so the fit is the law and every residual is ±u: RMSLE = u.
func TestFitGNSRunScatter(t *testing.T) {
	const u = 0.1
	g := model.GNS{Noise: 1000, RefBatch: 128}
	var runs []GNSRun
	for i, b := range []float64{128, 512, 2048} {
		for _, sign := range []float64{1, -1} {
			st := 5000 * g.StepsRatio(b) * math.Exp(sign*u)
			last := 0.4
			if i == 0 && sign == 1 {
				last = 0.5 // the worst best loss: the target 0.5
			}
			runs = append(runs, GNSRun{Batch: b, Steps: []float64{0, st, 2 * st}, Loss: []float64{1, 0.5, last}})
		}
	}
	f, err := FitGNS(runs, 0, 1, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if relErr(f.Noise, 1000) > 1e-4 || relErr(f.StepsRef, 5000) > 1e-5 || f.Target != 0.5 {
		t.Errorf("noise %g, %g steps at 128, target %g; want the law: 1000, 5000, 0.5", f.Noise, f.StepsRef, f.Target)
	}
	if relErr(f.RMSLE, u) > 1e-4 {
		t.Errorf("RMSLE %.6g, want u = %g", f.RMSLE, u)
	}
}

func TestFitGNSNeedsThreeBatches(t *testing.T) {
	rs := gnsRuns([]float64{128, 256, 256, 128}, 1000, 5000, 0, nil)
	_, err := FitGNS(rs, 0, 1, 0.9)
	if err == nil || !strings.Contains(err.Error(), "2 distinct global batches, want 3 or more") {
		t.Errorf("two distinct batches: %v", err)
	}
	// A run that never reaches the target is an error naming its batch.
	rs = gnsRuns([]float64{128, 256, 512}, 1000, 5000, 0, nil)
	rs[2].Loss = []float64{1, 0.9, 0.45}
	rs[0].Loss = []float64{1, 0.5, 0.3}
	rs[1].Loss = []float64{1, 0.44, 0.3}
	if _, err := FitGNS(rs, 0, 1, 0.9); err != nil {
		t.Errorf("target 0.45 is reached by every run: %v", err)
	}
	rs[2].Steps = []float64{0, 0, 0}
	if _, err := FitGNS(rs, 0, 1, 0.9); err == nil || !strings.Contains(err.Error(), "batch 512") {
		t.Errorf("target reached at step 0: %v", err)
	}
}

// With 5% log-normal noise on the steps of 12 runs (6 batches, 2 runs
// each), the 90% bootstrap interval of the noise scale holds the true 1000
// in most of 100 seeds. The percentile bootstrap over 12 runs is known to
// cover less than its level; the test asserts at least 75% and reports
// the rate.
func TestFitGNSCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("100 bootstrap fits")
	}
	batches := []float64{128, 128, 256, 256, 512, 512, 1024, 1024, 2048, 2048, 4096, 4096}
	const seeds = 100
	hit, sumErr := 0, 0.0
	for seed := uint64(1); seed <= seeds; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		f, err := FitGNS(gnsRuns(batches, 1000, 5000, 0.05, rng), 200, seed, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		if f.NoiseLo <= 1000 && 1000 <= f.NoiseHi {
			hit++
		}
		sumErr += math.Abs(f.Noise-1000) / 1000
	}
	t.Logf("90%% interval holds the noise scale in %d of %d seeds; mean error of the estimate %.1f%%", hit, seeds, 100*sumErr/seeds)
	if hit < 75 {
		t.Errorf("coverage %d/%d, want >= 75", hit, seeds)
	}
	if sumErr/seeds > 0.25 {
		t.Errorf("mean relative error %.3g of the noise scale, want < 0.25", sumErr/seeds)
	}
}

// gnsModelJSON is a synchronous amdahl model (T = 0.1 + 0.001 b s per
// step, b the per-worker batch 32) with a batch law: 1000 steps to loss
// 0.5 at global batch 32, noise scale 320 [160, 640], fitted on 32 to 256.
const gnsModelJSON = `{"schema": "sgdplan/model/v1", "family": "amdahl", "mode": "allreduce",
 "parameters": [{"name": "serial", "value": 0.1}, {"name": "per_sample", "value": 0.001}],
 "reference": {"batch": 32},
 "efficiency": {"b0": 0.001, "b1": 1, "b2": 0.2, "lambda": 0, "lambda_lo": 0, "lambda_hi": 0, "staleness_per_worker": 1, "target_loss": 0.5,
  "gns": {"noise_batch": 320, "noise_batch_lo": 160, "noise_batch_hi": 640, "ref_batch": 32, "steps_ref": 1000, "target_loss": 0.5, "min_batch": 32, "max_batch": 256}}}`

func TestModelGNS(t *testing.T) {
	m, err := ParseModel("gns.json", []byte(gnsModelJSON))
	if err != nil {
		t.Fatal(err)
	}
	// 4 workers: global batch 128; steps 1000 (1 + 320/128)/(1 + 320/32)
	// = 1000 x 3.5/11 = 318.18.
	if u := m.UpdatesToTarget(4, 0.5); relErr(u, 3500.0/11) > 1e-12 {
		t.Errorf("UpdatesToTarget(4) = %g, want 318.18", u)
	}
	// Another target scales by the curve: l(k) = 1/(0.001 k + 1) + 0.2
	// reaches 0.5 at k = 2333.3 and 0.4 at k = 4000; at 0.4 the steps are
	// 318.18 x 4000/2333.3 = 545.45.
	if u := m.UpdatesToTarget(4, 0.4); relErr(u, 3500.0/11*4000/(1/0.3-1)*0.001) > 1e-9 {
		t.Errorf("UpdatesToTarget(4, 0.4) = %g, want 545.45", u)
	}
	// Speedup(4) = 4 workers' samples/s x efficiency over 1 worker's:
	// T(32) = 0.132 s; samples/s 128/0.132 vs 32/0.132: 4; efficiency
	// (320 + 32)/(320 + 128) = 0.7857 over (352/352) at batch 32: 3.1429.
	if s := m.Speedup(4); relErr(s, 4*352.0/448) > 1e-12 {
		t.Errorf("Speedup(4) = %g, want 3.1429", s)
	}
	p := m.Predict(model.Config{Workers: 4}, math.NaN(), 0)
	// Noise 160: 1000 (1 + 1.25)/(1 + 5) = 375; noise 640: 1000 (1 + 5)/(1 +
	// 20) = 285.71: the interval of the updates.
	if relErr(p.UpdatesToTarget.Value, 3500.0/11) > 1e-12 || relErr(p.UpdatesToTarget.Lo, 6000.0/21) > 1e-12 || relErr(p.UpdatesToTarget.Hi, 375) > 1e-12 {
		t.Errorf("updates %+v, want 318.18 [285.71, 375]", p.UpdatesToTarget)
	}
	if relErr(p.Speedup.Value, 4*352.0/448) > 1e-12 || !(p.Speedup.Lo < p.Speedup.Value && p.Speedup.Value < p.Speedup.Hi) {
		t.Errorf("speedup %+v, want 3.1429 inside a proper interval", p.Speedup)
	}
	if w := m.BatchWarning([]model.Config{{Workers: 1}, {Workers: 8}}); w != "" {
		t.Errorf("batches 32 and 256 are fitted: %q", w)
	}
	if w := m.BatchWarning([]model.Config{{Workers: 16}}); !strings.Contains(w, "512 samples") {
		t.Errorf("batch 512: %q", w)
	}
	// An asynchronous model ignores nothing silently: gns is an error there.
	for _, c := range []struct{ name, from, to, want string }{
		{"async", `"family": "amdahl", "mode": "allreduce"`, `"family": "amdahl-async", "mode": "async"`, "belongs to synchronous models"},
		{"sync family, async mode", `"mode": "allreduce"`, `"mode": "async"`, `mode "async", but family amdahl predicts synchronous steps`},
		{"negative noise", `"noise_batch": 320`, `"noise_batch": -320`, "noise_batch = -320"},
		{"outside interval", `"noise_batch_hi": 640`, `"noise_batch_hi": 300`, "outside its interval"},
		{"no ref", `"ref_batch": 32`, `"ref_batch": 0`, "ref_batch = 0, want > 0"},
		{"no steps", `"steps_ref": 1000`, `"steps_ref": 0`, "steps_ref = 0"},
		{"range", `"min_batch": 32`, `"min_batch": 512`, "min_batch 512 > max_batch 256"},
	} {
		b := strings.Replace(gnsModelJSON, c.from, c.to, 1)
		if _, err := ParseModel("gns.json", []byte(b)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// syncTrace is a trace of runs at (workers, per-worker batch 32) in mode,
// each with 10 steps of 0.1 s per worker and evals whose steps to loss 0.5
// follow the law of noise 1000 from 5000 steps at the smallest global batch.
func syncTrace(mode string, workers []int) *traces.Trace {
	tr := &traces.Trace{}
	g := model.GNS{Noise: 1000, RefBatch: float64(32 * workers[0])}
	for _, w := range workers {
		run := fmt.Sprintf("w%d", w)
		tr.Runs = append(tr.Runs, traces.RunInfo{Run: run, Mode: mode, Bandwidth: math.NaN(), Epochs: math.NaN()})
		for i := 0; i < 10; i++ {
			for k := 0; k < w; k++ {
				tr.Steps = append(tr.Steps, traces.Step{Run: run, Workers: w, Batch: 32, Worker: k, Step: int64(i),
					Start: 0.1 * float64(i), End: 0.1 * float64(i+1), Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()})
			}
		}
		s := 5000 * g.StepsRatio(float64(32*w))
		// l(k) = 1/(k/s + 1) + 0: 0.5 at k = s.
		for _, f := range []float64{0.25, 0.5, 1, 2} {
			k := math.Round(f * s)
			tr.Evals = append(tr.Evals, traces.Eval{Run: run, Time: math.NaN(), Updates: int64(k), Loss: 1 / (k/s + 1), Accuracy: math.NaN()})
		}
	}
	return tr
}

// fitEfficiency stores the batch law for synchronous runs at 3 or more
// global batches, and only then.
func TestFitStepsBatchLaw(t *testing.T) {
	cases := []struct {
		name    string
		mode    string
		workers []int
		law     bool
	}{
		{"allreduce, 4 batches", "allreduce", []int{1, 2, 4, 8}, true},
		{"sync, 3 batches", "sync", []int{2, 4, 8}, true},
		{"allreduce, 2 batches", "allreduce", []int{2, 4}, false},
		{"async, 4 worker counts", "async", []int{1, 2, 4, 8}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sf, err := FitSteps(syncTrace(c.mode, c.workers), []string{"mem"}, StepOptions{Bootstrap: 20})
			if err != nil {
				t.Fatal(err)
			}
			e := sf.Model.Efficiency
			if e == nil {
				t.Fatal("no efficiency")
			}
			if (e.GNS != nil) != c.law {
				t.Fatalf("batch law %+v, want present %v", e.GNS, c.law)
			}
			if !c.law {
				return
			}
			// The target is the worst last loss, 1/(2+1) = 1/3, reached at
			// twice the steps to 0.5: 10000 at the reference batch. Steps
			// are whole updates (1521 for 1521.4 at batch 256), which moves
			// the noise scale by about 0.1%.
			g := e.GNS
			if relErr(g.NoiseBatch, 1000) > 5e-3 || relErr(g.StepsRef, 10000) > 1e-3 || relErr(g.TargetLoss, 1.0/3) > 1e-3 || g.RefBatch != float64(32*c.workers[0]) {
				t.Errorf("law %+v, want noise 1000, 10000 steps to 1/3 at %d", g, 32*c.workers[0])
			}
			// The loss curve in steps at the reference batch is 1/(k/5000 + 1):
			// b0 = 2e-4, b1 = 1, b2 = 0 (the steps are rounded to whole
			// updates: 1e-3).
			if relErr(e.B0, 2e-4) > 1e-3 || relErr(e.B1, 1) > 1e-3 || e.B2 > 1e-3 {
				t.Errorf("curve b0 %g b1 %g b2 %g, want 2e-4, 1, 0", e.B0, e.B1, e.B2)
			}
			// To loss 0.5 at 4 x the reference workers: 5000 x StepsRatio.
			w := 4 * c.workers[0]
			want := 5000 * (model.GNS{Noise: 1000, RefBatch: g.RefBatch}).StepsRatio(float64(32*w))
			if u := sf.Model.UpdatesToTarget(float64(w), 0.5); relErr(u, want) > 2e-3 {
				t.Errorf("updates to 0.5 at %d workers %g, want %g", w, u, want)
			}
		})
	}
}

// A synchronous step is one iteration of every worker (steps.csv has one
// row per worker iteration): a run's steps per second is then about one
// over its iteration time, whatever the workers (it was the workers times
// that), and its samples per step the global batch.
func TestSyncStepsPerSecond(t *testing.T) {
	tr, _, err := traces.Load(filepath.Join(repoRoot(t), "testdata", "sync-gns"))
	if err != nil {
		t.Skip(err)
	}
	st, err := Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	dur := map[string][]float64{}
	for _, s := range tr.Steps {
		dur[s.Run] = append(dur[s.Run], s.End-s.Start)
	}
	for _, r := range st {
		if r.Mode == "async" {
			t.Fatalf("run %s is async", r.Run)
		}
		mean := 0.0
		for _, d := range dur[r.Run] {
			mean += d / float64(len(dur[r.Run]))
		}
		if x := r.StepsPerS * mean; math.Abs(x-1) > 0.1 {
			t.Errorf("run %s (%d workers): %.4g steps/s with iterations of %.4g s (product %.3g, want ~1)", r.Run, r.Workers, r.StepsPerS, mean, x)
		}
		if got, want := samplesPerStep(r), float64(r.Batch*r.Workers); got != want {
			t.Errorf("run %s: samples per step %g, want %g", r.Run, got, want)
		}
	}
}

// The batch law's bootstrap follows the fit's seed, level and resample
// count (it ran 200 resamples at seed 1 and 90% whatever fit was asked):
// another seed resamples other runs, another level gives another
// interval, the defaults are those, --bootstrap N draws N and --bootstrap
// 0 none (the law then has no interval).
func TestBatchLawSeedAndLevel(t *testing.T) {
	tr, _, err := traces.Load(filepath.Join(repoRoot(t), "testdata", "sync-gns"))
	if err != nil {
		t.Skip(err)
	}
	law := func(o StepOptions) *GNSLaw {
		t.Helper()
		sf, err := FitSteps(tr, []string{"powerlaw"}, o)
		if err != nil {
			t.Fatal(err)
		}
		if sf.Model.Efficiency == nil || sf.Model.Efficiency.GNS == nil {
			t.Fatal("no batch law")
		}
		return sf.Model.Efficiency.GNS
	}
	def, one, seven, wide := law(StepOptions{}), law(StepOptions{Seed: 1, Level: 0.9}), law(StepOptions{Seed: 7}), law(StepOptions{Level: 0.99})
	if def.NoiseBatchLo != one.NoiseBatchLo || def.NoiseBatchHi != one.NoiseBatchHi {
		t.Errorf("defaults [%g, %g], seed 1 at 90%% [%g, %g]", def.NoiseBatchLo, def.NoiseBatchHi, one.NoiseBatchLo, one.NoiseBatchHi)
	}
	if slices.EqualFunc(seven.Samples, def.Samples, slices.Equal) {
		t.Error("seed 7 drew the same bootstrap samples as seed 1")
	}
	if !(wide.NoiseBatchHi-wide.NoiseBatchLo > def.NoiseBatchHi-def.NoiseBatchLo) {
		t.Errorf("99%%: [%g, %g], 90%%: [%g, %g]: want wider", wide.NoiseBatchLo, wide.NoiseBatchHi, def.NoiseBatchLo, def.NoiseBatchHi)
	}
	if len(def.Samples) < 150 || len(def.Samples) > 200 {
		t.Errorf("%d samples by default, want 150 to 200", len(def.Samples))
	}
	if few := law(StepOptions{Bootstrap: 40}); len(few.Samples) < 30 || len(few.Samples) > 40 || few.NoiseBatch != def.NoiseBatch {
		t.Errorf("--bootstrap 40: %d samples, noise %g (default %g): want 30 to 40 and the same point", len(few.Samples), few.NoiseBatch, def.NoiseBatch)
	}
	if none := law(StepOptions{Bootstrap: -1}); none.Samples != nil || none.NoiseBatchLo != none.NoiseBatch || none.NoiseBatchHi != none.NoiseBatch || none.NoiseBatch != def.NoiseBatch {
		t.Errorf("--bootstrap 0: %d samples, noise %g [%g, %g]: want none, no interval and the default's point %g", len(none.Samples), none.NoiseBatch, none.NoiseBatchLo, none.NoiseBatchHi, def.NoiseBatch)
	}
	// the run scatter's widening resamples nothing: kept under
	// --bootstrap 0 (it was dropped, narrowing one run's interval)
	if none := law(StepOptions{Bootstrap: -1}); !(def.IntervalScale > 1) || none.IntervalScale != def.IntervalScale || none.RunScatter != def.RunScatter {
		t.Errorf("--bootstrap 0: interval_scale %g, run_scatter %g; default %g, %g: want the same", none.IntervalScale, none.RunScatter, def.IntervalScale, def.RunScatter)
	}
}

// One run a batch, the usual design (testdata/sync-gns has 6): the case
// bootstrap over so few runs covers less than its level, and the noise
// scale's 90% interval held the truth in about 80% of seeds before it was
// widened by the law's scale (a review: 121 of 150 seeds with 6 runs, 65
// of 100 with 4).
func TestFitGNSCoverageOneRunABatch(t *testing.T) {
	if testing.Short() {
		t.Skip("200 bootstrap fits")
	}
	batches := []float64{128, 256, 512, 1024, 2048, 4096}
	const seeds = 200
	hit := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		f, err := FitGNS(gnsRuns(batches, 1000, 5000, 0.05, rng), 200, seed, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		if f.NoiseLo <= 1000 && 1000 <= f.NoiseHi {
			hit++
		}
	}
	t.Logf("90%% interval holds the noise scale in %d of %d seeds (6 runs, one a batch)", hit, seeds)
	// binomial(200, 0.9): 180 ± 4.2; 176 is 1 sd below (the seeds are
	// fixed: unwidened, these held 170, widened 190)
	if hit < 176 {
		t.Errorf("coverage %d/%d, want >= 176 (88%%)", hit, seeds)
	}
}
