package fit

import (
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// synth simulates points of family fam with parameters theta on a grid of
// workers x shards, with multiplicative log-normal noise of sd sigma.
func synth(fam string, theta []float64, ws, ps []int, batch float64, async bool, sigma float64, seed uint64) []Point {
	f := families[fam]
	rng := rand.New(rand.NewPCG(seed, 11))
	var out []Point
	for _, w := range ws {
		for _, p := range ps {
			c := model.Config{Workers: w, PS: p, Batch: batch}
			for rep := 0; rep < 2; rep++ {
				x := f.Predict(theta, c) * math.Exp(sigma*rng.NormFloat64())
				out = append(out, Point{Config: c, StepsPerS: x, SamplesPerStep: batch * float64(w), Async: async})
			}
		}
	}
	return out
}

func TestMVAClosedForms(t *testing.T) {
	// z0 = 0.1, z1 = 0.001 (b = 100: Z = 0.2), link 0.05, apply 0.02.
	th := []float64{0.1, 0.001, 0.05, 0.02}
	f := families["mva"]
	// One worker, one shard: no queueing, X = 1/(Z + 2 link + apply)
	// = 1/(0.2 + 0.1 + 0.02) = 3.125.
	if x := f.Predict(th, model.Config{Workers: 1, PS: 1, Batch: 100}); relErr(x, 3.125) > 1e-12 {
		t.Errorf("X(1) = %.10g, want 3.125", x)
	}
	// Two workers, one shard, exact MVA by hand: Q(1) = X1 D = 3.125*0.05 =
	// 0.15625 (links), 0.0625 (cpu); R(2) = 0.05*1.15625 = 0.0578125 (x2),
	// 0.02*1.0625 = 0.02125; X(2) = 2/(0.2+0.115625+0.02125) = 5.936920...
	want := 2 / (0.2 + 2*0.0578125 + 0.02125)
	if x := f.Predict(th, model.Config{Workers: 2, PS: 1, Batch: 100}); relErr(x, want) > 1e-12 {
		t.Errorf("X(2) = %.10g, want %.10g", x, want)
	}
	// Link rate: link 0.05 s measured at 1 MB/s. At 2 MB/s each transfer
	// takes 0.025 s: X(1) = 1/(0.2 + 0.05 + 0.02) = 3.7037...; a
	// configuration without a rate keeps the model's own (3.125). Without
	// a rate in the model, a configuration's rate is ignored.
	fb := mvaFamily(Queueing{Bandwidth: 1e6})
	if x := fb.Predict(th, model.Config{Workers: 1, PS: 1, Batch: 100, Bandwidth: 2e6}); relErr(x, 1/0.27) > 1e-12 {
		t.Errorf("X(1) at 2 MB/s = %.10g, want %.10g", x, 1/0.27)
	}
	if x := fb.Predict(th, model.Config{Workers: 1, PS: 1, Batch: 100}); relErr(x, 3.125) > 1e-12 {
		t.Errorf("X(1) at the model's rate = %.10g, want 3.125", x)
	}
	if x := f.Predict(th, model.Config{Workers: 1, PS: 1, Batch: 100, Bandwidth: 2e6}); relErr(x, 3.125) > 1e-12 {
		t.Errorf("X(1), no model rate, query 2 MB/s = %.10g, want 3.125", x)
	}
	// Deterministic transfers (SCV 0) queue less than exponential ones: the
	// corrected X(2) lies above exact MVA and below the bound min(2/0.32,
	// 1/0.05) = 6.25.
	fc := mvaFamily(Queueing{Variant: "correction"})
	if x := fc.Predict(th, model.Config{Workers: 2, PS: 1, Batch: 100}); !(x > want && x < 6.25) {
		t.Errorf("corrected X(2) = %.10g, want in (%.10g, 6.25)", x, want)
	}
	// Saturation bound: X(N) <= 1/max D = 1/0.05 = 20 and -> 20 for large N.
	for _, g := range []Family{f, fc, mvaFamily(Queueing{Variant: "flow"})} {
		x := g.Predict(th, model.Config{Workers: 400, PS: 1, Batch: 100})
		if x > 20 || x < 19.5 {
			t.Errorf("X(400), %s: %g, want just under 20", g.Doc, x)
		}
	}
}

// Fits recover known parameters from data simulated by the models, and the
// bootstrap intervals cover the truth (or the prediction the truth makes).
func TestFitRecoversSimulatedParameters(t *testing.T) {
	cases := []struct {
		fam   string
		theta []float64
		ws    []int
		ps    []int
		async bool
		tol   float64 // relative error on predictions at (32 workers)
	}{
		// Optimus sync: T = 1e-3·32 + 0.05 + 0.01 w/p + 0.002 w + 0.005 p.
		{"optimus-sync", []float64{1e-3, 0.05, 0.01, 0.002, 0.005}, []int{1, 2, 4, 8, 16}, []int{1, 2, 4}, false, 0.02},
		{"ernest", []float64{0.05, 2e-3, 0.01, 0.003}, []int{1, 2, 4, 8, 16}, []int{0}, false, 0.02},
		// shardlink: T = 0.02 + 1e-3·32 + 0.01 w/p.
		{"shardlink", []float64{0.02, 1e-3, 0.01}, []int{1, 2, 4, 8, 16}, []int{1, 2, 4}, false, 0.02},
		{"mva", []float64{0.05, 1e-3, 0.02, 0.005}, []int{1, 2, 4, 8, 16}, []int{1, 2}, true, 0.02},
		// model.AsyncPS through the wrapper: compute 0.05 + 1e-3 b,
		// transfer 0.02 s per shard, apply 0.01 s.
		{"asyncps", []float64{0.05, 1e-3, 0.02, 0.01}, []int{1, 2, 4, 8, 16}, []int{1, 2}, true, 0.02},
		// ring all-reduce: T = 0.05 + 1e-3·32 + 0.02·2(w-1)/w + 5e-4·2(w-1).
		{"allreduce", []float64{0.05, 1e-3, 0.02, 5e-4}, []int{1, 2, 4, 8, 16}, []int{0}, false, 0.02},
	}
	for _, c := range cases {
		pts := synth(c.fam, c.theta, c.ws, c.ps, 32, c.async, 0.01, 3)
		tf, alts, err := FitThroughput(pts, c.fam, &Settings{Bootstrap: 100})
		if err != nil {
			t.Fatalf("%s: %v", c.fam, err)
		}
		if len(alts) != 1 || tf.Family.Name != c.fam {
			t.Fatalf("%s: fitted %s", c.fam, tf.Family.Name)
		}
		cfg := model.Config{Workers: 32, PS: c.ps[len(c.ps)-1], Batch: 32}
		truth := families[c.fam].Predict(c.theta, cfg)
		iv := tf.PredictInterval(cfg, 0.9)
		if relErr(iv.Value, truth) > c.tol {
			t.Errorf("%s: X(32) = %.4g, truth %.4g", c.fam, iv.Value, truth)
		}
		if !(iv.Lo <= iv.Value && iv.Value <= iv.Hi) || iv.Lo == iv.Hi {
			t.Errorf("%s: interval %+v does not bracket the estimate", c.fam, iv)
		}
		if tf.RMSLE > 0.02 {
			t.Errorf("%s: RMSLE %.3g on 1%% noise", c.fam, tf.RMSLE)
		}
	}
}

// Coverage: over 400 seeds, the 90% interval of the prediction at a
// fitted configuration contains the true value in 85% of them or more
// (340: the binomial standard error at 90% is 1.5 points, so 85 is 3.3
// below it, and a coverage of 80% would reach 340 with odds under 1 in
// 100: 6 in 1000), fitted in log space or by NNLS (an NNLS variant's
// bootstrap refits by NNLS): 364 and 366. Until 2026-12-07 it asked 30 of
// 40 seeds (75%), which a 70% coverage passes 3 times in 10.
func TestBootstrapCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("many seeds")
	}
	const seeds, want = 400, 340
	for _, fam := range []string{"optimus-sync", "optimus-sync/nnls"} {
		hits, n := predictionCoverage(t, fam, seeds)
		if hits < want {
			t.Errorf("%s: coverage %d/%d, want >= %d", fam, hits, n, want)
		}
		t.Logf("%s: coverage %d/%d", fam, hits, n)
	}
}

// predictionCoverage fits family (optimus-sync or a variant of it) on n
// seeds of noisy optimus-sync data at 15 configurations and counts the
// seeds whose 90% interval at 8 workers and 2 shards holds the truth.
func predictionCoverage(t *testing.T, family string, n int) (hits, _ int) {
	t.Helper()
	theta := []float64{1e-3, 0.05, 0.01, 0.002, 0.005}
	cfg := model.Config{Workers: 8, PS: 2, Batch: 32}
	truth := families["optimus-sync"].Predict(theta, cfg)
	for seed := uint64(1); seed <= uint64(n); seed++ {
		pts := synth("optimus-sync", theta, []int{1, 2, 4, 8, 16}, []int{1, 2, 4}, 32, false, 0.03, seed)
		tf, _, err := FitThroughput(pts, family, &Settings{Bootstrap: 100, Seed: seed, NoCV: true})
		if err != nil {
			t.Fatal(err)
		}
		iv := tf.PredictInterval(cfg, 0.9)
		if iv.Lo <= truth && truth <= iv.Hi {
			hits++
		}
	}
	return hits, n
}

func TestAutoChoosesByCV(t *testing.T) {
	// Data from the Amdahl form (strong scaling, b = 256/w): T = 0.02 + 1e-3 b.
	var pts []Point
	for _, w := range []int{1, 2, 4, 8, 16} {
		c := model.Config{Workers: w, Batch: 256 / float64(w)}
		pts = append(pts, Point{Config: c, StepsPerS: 1 / (0.02 + 1e-3*c.Batch), SamplesPerStep: 256})
	}
	tf, alts, err := FitThroughput(pts, "auto", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(alts) < 4 {
		t.Fatalf("auto tried %d families", len(alts))
	}
	if tf.CVError > 1e-3 {
		t.Errorf("chosen %s with CV error %.3g%%, want ~0 (amdahl fits exactly)", tf.Family.Name, tf.CVError)
	}
	if alts[0].CVError != tf.CVError {
		t.Errorf("alternatives not sorted best first: %+v", alts)
	}
}

func TestOneWorkerCountWarns(t *testing.T) {
	pts := synth("optimus-sync", []float64{1e-3, 0.05, 0.01, 0.002, 0.005}, []int{4}, []int{1, 2}, 32, false, 0.01, 1)
	tf, _, err := FitThroughput(pts, "optimus-sync", nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range tf.Warnings {
		if len(w) > 0 && contains(w, "only one worker count") {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning about one worker count: %q", tf.Warnings)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// The one-standard-error rule: the best CV error is 10% with per-config
// errors 5 and 15 (mean 10, sd 7.071, se 7.071/sqrt(2) = 5): a family with
// fewer parameters within 10 + 5 = 15% wins; one at 16% does not.
func TestParsimonious(t *testing.T) {
	best := &ThroughputFit{Theta: make([]float64, 5), CVError: 10, cvErrs: []float64{5, 15}}
	near := &ThroughputFit{Theta: make([]float64, 2), CVError: 14.9}
	far := &ThroughputFit{Theta: make([]float64, 1), CVError: 16}
	if got := parsimonious(best, []*ThroughputFit{best, near, far}); got != near {
		t.Errorf("chose CV %g with %d parameters, want the 2-parameter fit at 14.9", got.CVError, len(got.Theta))
	}
	if got := parsimonious(best, []*ThroughputFit{best, far}); got != best {
		t.Errorf("chose CV %g, want the best (16 is beyond one SE)", got.CVError)
	}
}

// Percentile interpolates between order statistics and leaves its input
// alone: of 4, 1, 3, 2 the 0.5-quantile is 2.5 (halfway between 2 and 3),
// the 0.9-quantile 3.7 (h = 2.7: 3 + 0.7 x 1).
func TestPercentile(t *testing.T) {
	xs := []float64{4, 1, 3, 2}
	if p := Percentile(xs, 0.5); relErr(p, 2.5) > 1e-12 {
		t.Errorf("median %g", p)
	}
	if p := Percentile(xs, 0.9); relErr(p, 3.7) > 1e-12 {
		t.Errorf("0.9-quantile %g", p)
	}
	if xs[0] != 4 || xs[1] != 1 {
		t.Errorf("input modified: %v", xs)
	}
}

// When the data measure several worker counts at one per-worker batch,
// auto leaves out amdahl (no term for the workers at a fixed batch: it
// would predict perfect scaling) and says why among the families tried;
// KeepBatchOnly restores the rule before 2026-12-03, and under strong
// scaling (the batch changes with the workers) amdahl stays a candidate.
func TestAutoDropsBatchOnlyAtFixedBatch(t *testing.T) {
	note := func(alts []Alternative, fam string) (Alternative, bool) {
		for _, a := range alts {
			if a.Family == fam {
				return a, true
			}
		}
		return Alternative{}, false
	}
	// weak scaling, per-worker batch 32 and 64 at 1-8 workers, with a
	// per-worker overhead amdahl cannot see
	var weak []Point
	for _, w := range []int{1, 2, 4, 8} {
		for _, b := range []float64{32, 64} {
			T := 0.02 + 1e-3*b + 0.004*float64(w-1)
			weak = append(weak, Point{Config: model.Config{Workers: w, Batch: b}, StepsPerS: 1 / T, SamplesPerStep: b * float64(w)})
		}
	}
	tf, alts, err := FitThroughput(weak, "auto", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	a, ok := note(alts, "amdahl")
	if tf.Family.Name == "amdahl" || !ok || !math.IsNaN(a.CVError) || !strings.Contains(a.Note, "not a candidate") || !strings.Contains(a.Note, "perfect scaling") {
		t.Errorf("weak scaling: chose %s; amdahl listed %v as %+v", tf.Family.Name, ok, a)
	}
	_, alts, err = FitThroughput(weak, "auto", &Settings{Bootstrap: -1, KeepBatchOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := note(alts, "amdahl"); !ok || !(a.CVError >= 0) {
		t.Errorf("KeepBatchOnly: amdahl %+v, want it scored", a)
	}
	// strong scaling: one batch per worker count, amdahl scored
	_, alts, err = FitThroughput(strongPoints([]int{1, 2, 4, 8}, 0.02, 1e-3, 0.004, 256), "auto", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := note(alts, "amdahl"); !ok || !(a.CVError >= 0) {
		t.Errorf("strong scaling: amdahl %+v, want it scored", a)
	}
}

// StrongScaling counts pairs of worker counts sharing a global batch
// against pairs sharing a per-worker batch; KindOf.Strong (any one pair,
// kept for the validated family choice) calls weak scaling at two batches
// strong.
func TestStrongScaling(t *testing.T) {
	pts := func(rows ...[2]float64) []Point {
		var out []Point
		for _, r := range rows {
			out = append(out, Point{Config: model.Config{Workers: int(r[0]), Batch: r[1]}, StepsPerS: 1})
		}
		return out
	}
	weak2 := pts([2]float64{1, 32}, [2]float64{2, 32}, [2]float64{4, 32}, [2]float64{8, 32}, [2]float64{1, 64}, [2]float64{2, 64}, [2]float64{4, 64}, [2]float64{8, 64})
	strong2 := pts([2]float64{1, 32}, [2]float64{2, 16}, [2]float64{4, 8}, [2]float64{8, 4}, [2]float64{1, 64}, [2]float64{2, 32}, [2]float64{4, 16}, [2]float64{8, 8})
	for _, c := range []struct {
		name         string
		p            []Point
		strong, kind bool
	}{
		{"weak at two batches", weak2, false, true},
		{"strong at two global batches", strong2, true, true},
		{"weak at one batch", pts([2]float64{1, 32}, [2]float64{2, 32}), false, false},
		{"one pair, strong", pts([2]float64{1, 64}, [2]float64{2, 32}), true, true},
		{"one worker count", pts([2]float64{4, 32}, [2]float64{4, 64}), false, false},
	} {
		if got := StrongScaling(c.p); got != c.strong {
			t.Errorf("%s: StrongScaling %v, want %v", c.name, got, c.strong)
		}
		if got := KindOf(c.p).Strong; got != c.kind {
			t.Errorf("%s: KindOf.Strong %v, want %v (unchanged)", c.name, got, c.kind)
		}
	}
}

// One worker count at two shard counts leaves auto no candidate (those
// that ignore the shards are out, those with a shard term have more
// parameters than the 2 points): an error that says so (it panicked
// indexing the empty list of families tried).
func TestFitThroughputNoCandidate(t *testing.T) {
	pts := []Point{
		{Config: model.Config{Workers: 1, PS: 1, Batch: 32}, StepsPerS: 300.0 / 32, Async: true},
		{Config: model.Config{Workers: 1, PS: 2, Batch: 32}, StepsPerS: 380.0 / 32, Async: true},
	}
	_, _, err := FitThroughput(pts, "auto", nil)
	if err == nil || !strings.Contains(err.Error(), "no family could be fitted to 2 points") {
		t.Errorf("err %v", err)
	}
}

// bootstrapParallel draws Bootstrap's resamples and keeps them in its
// order, dropped refits included, whatever the number of goroutines.
func TestBootstrapParallelIsBootstrap(t *testing.T) {
	fit := func(idx []int) ([]float64, bool) {
		s := 0.0
		for k, i := range idx {
			s += float64(i * (k + 1))
		}
		return []float64{s, float64(idx[0])}, idx[0]%3 != 0 // some refits fail
	}
	want := Bootstrap(7, 500, 42, fit)
	if len(want) == 500 || len(want) < 200 {
		t.Fatalf("the test fit dropped %d of 500 resamples", 500-len(want))
	}
	for _, procs := range []int{1, 2, 5} {
		old := runtime.GOMAXPROCS(procs)
		got := bootstrapParallel(7, 500, 42, func() func([]int) ([]float64, bool) { return fit })
		runtime.GOMAXPROCS(old)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("GOMAXPROCS %d: %d samples differ from Bootstrap's %d", procs, len(got), len(want))
		}
	}
}

// Coverage of the prediction intervals inside the data, where no rival or
// drift widens them: over 100 seeds of 6 strong-scaling configurations
// (overhead and Ernest forms, 5% noise), the 90% interval of
// PredictInterval at a measured configuration (4 workers) and at one
// between the measured ones (3 workers) holds the truth in 84 or more.
// The bootstrap's own percentiles held it in 79-84 (resampling whole
// configurations sees the residual variance as if nothing had been
// fitted); widened by sqrt(n/(n-p))·t/z (intervalScale) they hold it in
// 93-96 (86-92 by sqrt(n/(n-p)) alone, before 2026-12-06), and the
// parameter intervals (widened by the same factor since 2026-12-07,
// widenParams) hold the true parameters in 80 or more. With 1 or 2 degrees of freedom left (4 configurations of the
// overhead form, 5 of Ernest's at 3% noise) they hold it in 88-92 (72-82
// before; TestPredictionCoverageOneDegreeOfFreedom asserts it): the
// figures are logged for docs/fitting.md.
func TestPredictionCoverageInsideTheData(t *testing.T) {
	if testing.Short() {
		t.Skip("many seeds")
	}
	var strong []model.Config
	for _, w := range []int{1, 2, 4, 8, 16, 32} {
		strong = append(strong, model.Config{Workers: w, Batch: 256 / float64(w)})
	}
	at := []model.Config{{Workers: 4, Batch: 64}, {Workers: 3, Batch: 256.0 / 3}}
	for _, c := range []struct {
		fam    string
		theta  []float64
		cfgs   []model.Config
		sigma  float64
		assert bool
	}{
		{"overhead", []float64{0.02, 1e-3, 0.004}, strong, 0.05, true},
		{"ernest", []float64{0.02, 1e-3, 0.003, 0.002}, strong, 0.05, true},
		{"overhead", []float64{0.02, 1e-3, 0.004}, strong[:4], 0.05, false},
		{"ernest", []float64{0.02, 1e-3, 0.003, 0.002}, strong[:5], 0.03, false},
	} {
		f := families[c.fam]
		const seeds = 100
		var hits, raw [2]int
		params := make([]int, len(c.theta))
		for seed := uint64(1); seed <= seeds; seed++ {
			rng := rand.New(rand.NewPCG(seed, 11))
			var pts []Point
			for _, cfg := range c.cfgs {
				x := f.Predict(c.theta, cfg) * math.Exp(c.sigma*rng.NormFloat64())
				pts = append(pts, Point{Config: cfg, StepsPerS: x, SamplesPerStep: 256})
			}
			tf, _, err := FitThroughput(pts, c.fam, &Settings{Bootstrap: 200, Seed: seed, NoCV: true})
			if err != nil {
				t.Fatal(err)
			}
			if !(tf.IntervalScale > 1) {
				t.Fatalf("%s seed %d: interval scale %g, want sqrt(n/(n-p))·t/z > 1", c.fam, seed, tf.IntervalScale)
			}
			for i, cfg := range at {
				truth := f.Predict(c.theta, cfg)
				if iv := tf.PredictInterval(cfg, 0.9); iv.Lo <= truth && truth <= iv.Hi {
					hits[i]++
				}
				if iv := predictInterval(nil, tf.Family, tf.Theta, tf.Samples, 1, cfg, 0.9); iv.Lo <= truth && truth <= iv.Hi {
					raw[i]++
				}
			}
			for j, v := range c.theta {
				if tf.Lo[j] <= v && v <= tf.Hi[j] {
					params[j]++
				}
			}
		}
		t.Logf("%s, %d configurations, %.0f%% noise: inside the 90%% interval at 4 and 3 workers: %v of %d (the bootstrap's percentiles alone: %v); parameters inside theirs: %v", c.fam, len(c.cfgs), 100*c.sigma, hits, seeds, raw, params)
		for i := range hits {
			if c.assert && (hits[i] < 84 || hits[i] == raw[i]) {
				t.Errorf("%s at %d workers: %d of %d inside (unwidened %d), want 84 or more and more than unwidened", c.fam, at[i].Workers, hits[i], seeds, raw[i])
			}
		}
		for j, k := range params {
			if c.assert && k < 80 {
				t.Errorf("%s: parameter %s inside its interval in %d of %d seeds", c.fam, f.Params[j].Name, k, seeds)
			}
		}
	}
}

// intervalScale is sqrt(n/(n-p))·t/z (Student's t on n-p degrees of
// freedom, at least 1; quantiles from tables), 1 with nothing left;
// effectiveParams
// counts the directions the data pin down: Optimus's fixed time and
// per-sample cost are one direction at a single batch, so 4 of its 5
// parameters at 15 configurations; all 3 of the overhead form's on strong
// scaling.
func TestIntervalScale(t *testing.T) {
	const z = 1.644853626951472 // the normal's 0.95 quantile
	t95 := map[float64]float64{1: 6.31375151467504, 1.5: 3.70518082009675, 3: 2.35336343480182, 11: 1.79588481870404}
	for _, c := range []struct {
		n       int
		p, want float64
	}{
		{6, 3, math.Sqrt2 * t95[3] / z}, {15, 4, math.Sqrt(15.0/11) * t95[11] / z}, {4, 3, 2 * t95[1] / z},
		{3, 3, 1}, {2, 5, 1}, {4, 2.5, math.Sqrt(4/1.5) * t95[1.5] / z},
		{4, 3.5, math.Sqrt(8) * t95[1] / z}, // half a degree of freedom (a mean family): t at 1
	} {
		if got := intervalScale(c.n, c.p, 0.9); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("intervalScale(%d, %g, 0.9) = %g, want %g", c.n, c.p, got, c.want)
		}
	}
	theta := []float64{1e-3, 0.05, 0.01, 0.002, 0.005}
	pts := synth("optimus-sync", theta, []int{1, 2, 4, 8, 16}, []int{1, 2, 4}, 32, false, 0, 1)
	if p := effectiveParams(families["optimus-sync"], pts, theta); p != 4 {
		t.Errorf("optimus-sync at one batch: %g directions, want 4", p)
	}
	var strong []Point
	for _, w := range []int{1, 2, 4, 8, 16, 32} {
		c := model.Config{Workers: w, Batch: 256 / float64(w)}
		strong = append(strong, Point{Config: c, StepsPerS: 1, SamplesPerStep: 256})
	}
	if p := effectiveParams(families["overhead"], strong, []float64{0.02, 1e-3, 0.004}); p != 3 {
		t.Errorf("overhead on strong scaling: %g directions, want 3", p)
	}
	// a parameter at its bound is not fitted
	if p := effectiveParams(families["overhead"], strong, []float64{0.02, 1e-3, 0}); p != 2 {
		t.Errorf("overhead with per_worker at 0: %g directions, want 2", p)
	}
	// a mean counts its members' on average, each fitted on its own (their
	// joint rank gave mean(ernest,overhead) 5 directions here, 3 each;
	// with per_worker at 0 the mean is 2.5)
	mf, err := meanFamily([]Family{families["ernest"], families["overhead"]})
	if err != nil {
		t.Fatal(err)
	}
	ern := []float64{0.02, 1e-3, 0.003, 0.002}
	if p := effectiveParams(mf, strong, append(slices.Clone(ern), 0.02, 1e-3, 0.004)); p != 3.5 {
		t.Errorf("mean(ernest,overhead): %g directions, want 3.5 (ernest 4, overhead 3)", p)
	}
	if p := effectiveParams(mf, strong, append(slices.Clone(ern), 0.02, 1e-3, 0)); p != 3 {
		t.Errorf("mean(ernest,overhead) with overhead's per_worker at 0: %g directions, want 3", p)
	}
}

// sampleInterval widens each end away from the value by the scale in log
// space, by hand: samples 2 and 8 around a value of 4 give [2, 8]; at
// scale 1.5, 4·(1/2)^1.5 and 4·2^1.5. A lower end at 0 stays at 0 and the
// upper end still widens.
func TestSampleIntervalScale(t *testing.T) {
	id := func(th []float64) float64 { return th[0] }
	samples := [][]float64{{2}, {8}}
	iv := sampleInterval(id, []float64{4}, samples, 1.5, 1) // level 1: the extremes
	if math.Abs(iv.Lo-4*math.Pow(0.5, 1.5)) > 1e-12 || math.Abs(iv.Hi-4*math.Pow(2, 1.5)) > 1e-12 || iv.Value != 4 {
		t.Errorf("scale 1.5: %+v, want [%g, %g]", iv, 4*math.Pow(0.5, 1.5), 4*math.Pow(2, 1.5))
	}
	if iv := sampleInterval(id, []float64{4}, samples, 1, 1); iv.Lo != 2 || iv.Hi != 8 {
		t.Errorf("scale 1: %+v, want [2, 8]", iv)
	}
	if iv := sampleInterval(id, []float64{4}, [][]float64{{0}, {8}}, 1.5, 1); iv.Lo != 0 || math.Abs(iv.Hi-4*math.Pow(2, 1.5)) > 1e-12 {
		t.Errorf("a lower end at 0: %+v, want [0, %g]", iv, 4*math.Pow(2, 1.5))
	}
}
