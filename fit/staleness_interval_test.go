package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// The staleness law's interval on runs simulated from the law with a known
// per-worker staleness a and a known log-normal scatter between runs: a's
// bootstrap interval holds the true a, and a's interval widened by the
// runs' scatter (oneRun, what predict prints) holds a new run's staleness,
// each in about 90% of the seeds. With 2 or 3 runs the bootstrap alone
// held a in 79% (workers 2 and 4) and 82% (2, 3, 5): a's interval is no
// narrower than the t interval in log space since 2026-12-08, and one
// run's interval joins the scatter at t(n-1), not z (StalenessScatterScale:
// with two runs at one count it held a new run in 80% and 82% of seeds).
func TestStalenessIntervalCoverage(t *testing.T) {
	const a, sigma, seeds = 0.9, 0.05, 400
	for _, ws := range [][]int{{2, 2, 2, 2, 2, 2, 2, 2}, {2, 3, 4, 2, 3, 4}, {2, 4}, {2, 2}, {2, 3, 5}} {
		var hitA, hitRun, hitFar int
		for seed := uint64(1); seed <= seeds; seed++ {
			rng := rand.New(rand.NewPCG(seed, 77))
			draw := func(w int) float64 { return a * float64(w-1) * math.Exp(sigma*rng.NormFloat64()) }
			var xs, ss []float64
			var sn, sd float64
			for _, w := range ws {
				x := float64(w - 1)
				s := draw(w)
				xs, ss = append(xs, x), append(ss, s)
				sn += s * x
				sd += x * x
			}
			est := sn / sd
			lo, hi, scatter := stalenessUncertainty(xs, ss, est, 200, seed, 0.9)
			if !(lo > 0 && lo <= est && est <= hi) || !(scatter > 0) {
				t.Fatalf("workers %v, seed %d: a %g, interval [%g, %g], scatter %g", ws, seed, est, lo, hi, scatter)
			}
			if lo <= a && a <= hi {
				hitA++
			}
			rlo, rhi := oneRun(est, lo, hi, scatter*max(1, stalenessScatterScale(len(ws), 0.9)), 0.9)
			if s := draw(2); rlo <= s && s <= rhi {
				hitRun++
			}
			if s := draw(9) / 8; rlo <= s && s <= rhi { // per worker, far beyond the data
				hitFar++
			}
		}
		t.Logf("workers %v: a's 90%% interval held a in %d of %d seeds; one run's held a new run at 2 workers in %d, at 9 in %d", ws, hitA, seeds, hitRun, hitFar)
		for what, hit := range map[string]int{"a": hitA, "a run at 2 workers": hitRun, "a run at 9 workers": hitFar} {
			if f := float64(hit) / seeds; f < 0.84 || f > 0.97 {
				t.Errorf("workers %v: the 90%% interval held %s in %.1f%% of the seeds", ws, what, 100*f)
			}
		}
	}
	// Nothing to resample: one run, or an assumed law
	if lo, hi, s := stalenessUncertainty([]float64{1}, []float64{0.9}, 0.9, 200, 1, 0.9); lo != 0 || hi != 0 || s != 0 {
		t.Errorf("one run: [%g, %g], scatter %g, want none", lo, hi, s)
	}
}

// StalenessInterval on the real traces fitted on 1-2 workers: [0, 0] at
// one worker, the point inside, the network's staleness inside; the
// sweep memo's stepper gives what the network solved alone does, counts
// asked up and down; NaN ends where the law has no interval; the
// staleness's ends widen the updates to target and the speedup.
func TestStalenessIntervalCases(t *testing.T) {
	m := asgdFit12(t).Model
	e := m.Efficiency
	if !(e.StalenessLo > 0 && e.StalenessHi > e.StalenessLo && e.StalenessScatter > 0) {
		t.Fatalf("no staleness interval: %+v", e)
	}
	if iv := m.StalenessInterval(model.Config{Workers: 1, PS: 1}); iv != (Interval{0, 0, 0}) {
		t.Errorf("1 worker: %+v", iv)
	}
	bare := *m
	bare.sweeps = nil
	q := m.queueing()
	for _, w := range []int{2, 3, 8, 40, 5, 300, 299, 2} {
		for _, ps := range []int{1, 2} {
			c := model.Config{Workers: w, PS: ps}
			iv := m.StalenessInterval(c)
			if !(iv.Lo <= iv.Value && iv.Value <= iv.Hi) || iv.Value != m.Staleness(float64(w)) {
				t.Errorf("%d workers, %d ps: %+v around %g", w, ps, iv, m.Staleness(float64(w)))
			}
			a := q.AsyncPS(m.theta())
			a.Flow = false
			if net := a.Staleness(q.config(m.Config(c))); !(iv.Lo <= net && net <= iv.Hi) {
				t.Errorf("%d workers, %d ps: the network's staleness %g outside %+v", w, ps, net, iv)
			}
			if alone := bare.StalenessInterval(c); alone != iv {
				t.Errorf("%d workers, %d ps: %+v from the memo, %+v alone", w, ps, iv, alone)
			}
		}
	}
	c8 := model.Config{Workers: 8, PS: 1}
	for name, edit := range map[string]func(*Efficiency){
		"assumed":   func(e *Efficiency) { e.StalenessAssumed = true },
		"one run":   func(e *Efficiency) { e.StalenessLo, e.StalenessHi, e.StalenessScatter = 0, 0, 0 },
		"no spread": func(e *Efficiency) { e.StalenessHi = 0 },
	} {
		cp, ec := *m, *e
		edit(&ec)
		cp.Efficiency = &ec
		iv := cp.StalenessInterval(c8)
		if !math.IsNaN(iv.Lo) || !math.IsNaN(iv.Hi) || iv.Value != m.Staleness(8) {
			t.Errorf("%s: %+v, want NaN ends around %g", name, iv, m.Staleness(8))
		}
		// without the staleness's ends, the updates and the speedup
		// are no wider than with them
		with, without := m.Predict(c8, math.NaN(), 0), cp.Predict(c8, math.NaN(), 0)
		if without.UpdatesToTarget.Hi > with.UpdatesToTarget.Hi || without.Speedup.Hi > with.Speedup.Hi || without.UpdatesToTarget.Value != with.UpdatesToTarget.Value {
			t.Errorf("%s: updates %+v and speedup %+v without the staleness's ends, %+v and %+v with", name, without.UpdatesToTarget, without.Speedup, with.UpdatesToTarget, with.Speedup)
		}
	}
	// the staleness's low end raises the speedup's high end where lambda > 0
	if e.LambdaHi > 0 {
		cp, ec := *m, *e
		ec.StalenessLo, ec.StalenessHi, ec.StalenessScatter = 0, 0, 0
		cp.Efficiency = &ec
		c := model.Config{Workers: 40, PS: 1}
		if with, without := m.Predict(c, math.NaN(), 0), cp.Predict(c, math.NaN(), 0); !(with.UpdatesToTarget.Hi > without.UpdatesToTarget.Hi) {
			t.Errorf("40 workers: updates' high end %g with the staleness's interval, %g without: want wider", with.UpdatesToTarget.Hi, without.UpdatesToTarget.Hi)
		}
	}
	// check's ends: lambda's with the staleness's, the low end at 0 held
	// as 0 (Staleness reads a per-worker 0 as 1: the low end gave 3 at 4
	// workers where the point gives 2.7)
	lo0, e0 := *m, *e
	e0.StalenessLo = 0
	lo0.Efficiency = &e0
	if ends, _, _ := lo0.EfficiencyEnds(); len(ends) != 2 || !(ends[0].Staleness(4) < 1e-6) || !(ends[1].Staleness(4) > lo0.Staleness(4)) {
		t.Errorf("ends' staleness at 4 workers: want about 0 and above %g", lo0.Staleness(4))
	}
	sync := *m
	sync.Mode = "sync"
	if iv := sync.StalenessInterval(c8); iv != (Interval{0, 0, 0}) {
		t.Errorf("a synchronous model: %+v", iv)
	}
}

// model.json's staleness interval: read back, and each bad value refused
// at its place.
func TestParseModelStalenessInterval(t *testing.T) {
	m := fittedModel(t)
	m.Efficiency = &Efficiency{B0: 0.01, B1: 1, B2: 0.1, StalenessPerWorker: 0.9017, TargetLoss: 0.5, LowestLoss: 0.3,
		StalenessLo: 0.8513, StalenessHi: 0.9611, StalenessScatter: 0.0437}
	good, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("m.json", good)
	if err != nil {
		t.Fatal(err)
	}
	if e := back.Efficiency; e.StalenessLo != 0.8513 || e.StalenessHi != 0.9611 || e.StalenessScatter != 0.0437 {
		t.Fatalf("read back %+v", e)
	}
	g := string(good)
	for _, c := range []struct{ old, new, want, at string }{
		{"0.8513", "0.95", "staleness_per_worker 0.9017 is outside its interval [0.95, 0.9611]", ""},
		{"0.9611", "0.9", "staleness_per_worker 0.9017 is outside its interval [0.8513, 0.9]", ""},
		{"0.9611", "1e307", "staleness_per_worker 0.9017 is outside its interval [0.8513, 1e+307]: want 0 <= lo <= staleness_per_worker <= hi <= 133.8", ""},
		{"0.8513", "-0.1", "outside its interval [-0.1, 0.9611]", ""},
		{"0.0437", "-0.0437", "staleness_scatter = -0.0437: want 0 to 5", ""},
		{"0.9017", "2e6", "staleness_per_worker = 2e+06: want 0 to 1e+06", ""},
		{"0.0437", "6", "staleness_scatter = 6: want 0 to 5", ""},
	} {
		i := strings.Index(g, c.old)
		if i < 0 {
			t.Fatalf("%q not in the model", c.old)
		}
		doc := g[:i] + c.new + g[i+len(c.old):]
		_, err := ParseModel("m.json", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: %v, want %q", c.old, c.new, err, c.want)
			continue
		}
		at := i
		if c.at != "" {
			at = strings.Index(doc, c.at)
		}
		line, col := lineCol([]byte(doc), int64(at))
		if want := fmt.Sprintf("m.json:%d:%d: ", line, col); !strings.Contains(err.Error(), want) {
			t.Errorf("%s -> %s: %v, want it at %s", c.old, c.new, err, want)
		}
	}
	// with no low end, a high end below the point is placed at itself (it
	// was placed at the efficiency object, the missing low end's parent)
	m.Efficiency.StalenessLo, m.Efficiency.StalenessHi = 0, 0.5
	doc, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseModel("m.json", doc)
	key := `"staleness_per_worker_hi": `
	line, col := lineCol(doc, int64(strings.Index(string(doc), key)+len(key)))
	if want := fmt.Sprintf("m.json:%d:%d: efficiency: staleness_per_worker 0.9017 is outside its interval [0, 0.5]", line, col); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("no low end, high end 0.5: %v, want %q", err, want)
	}
}

// An asyncps model (package model's network fitted through its parameter
// vector) stretches its staleness's interval to its network's staleness
// too: at 300 workers, far past the saturation of its links, the
// network's staleness is the low end, with the memo and without.
func TestStalenessIntervalAsyncPS(t *testing.T) {
	m, err := ParseModel("m.json", []byte(`{"schema": "sgdplan/model/v1", "family": "asyncps", "mode": "async", "parameters": [{"name": "compute0", "value": 0.05}, {"name": "compute1", "value": 0.001}, {"name": "latency", "value": 0.02}, {"name": "apply", "value": 0.01}], "reference": {"batch": 16, "ps": 1}, "efficiency": {"b0": 0.01, "b1": 0.4, "b2": 0.1, "lambda": 0.03, "lambda_lo": 0.01, "lambda_hi": 0.05, "staleness_per_worker": 0.9, "staleness_per_worker_lo": 0.85, "staleness_per_worker_hi": 0.96, "staleness_scatter": 0.04, "target_loss": 0.6}}`))
	if err != nil {
		t.Fatal(err)
	}
	bare := *m
	bare.sweeps = nil
	a := model.AsyncPS{Batch: 1, Correction: true}.WithParams(m.theta())
	for _, w := range []int{2, 300, 40} {
		c := model.Config{Workers: w, PS: 1, Batch: 16}
		net := a.Staleness(c)
		iv := m.StalenessInterval(c)
		if !(iv.Lo <= net && net <= iv.Hi) || bare.StalenessInterval(c) != iv {
			t.Errorf("%d workers: %+v (alone %+v), the network's staleness %g", w, iv, bare.StalenessInterval(c), net)
		}
		if w == 300 && iv.Lo != net {
			t.Errorf("300 workers: low end %g, want the network's %g (the law's own end is %g)", iv.Lo, net, 0.85*299)
		}
	}
}

// staleness_scatter_scale (t over z, for 2 or 3 runs) widens the runs'
// scatter where one run's interval joins it; absent, it is 1; outside 1 to
// 100 the file is refused at the field. fit writes it for a law fitted on
// 2 or 3 runs (testdata/synthetic/async-ps: 2 and 4 workers).
func TestStalenessScatterScale(t *testing.T) {
	doc := func(scale string) string {
		return `{"schema": "sgdplan/model/v1", "family": "asyncps", "mode": "async", "parameters": [{"name": "compute0", "value": 0.05}, {"name": "compute1", "value": 0.001}, {"name": "latency", "value": 0.02}, {"name": "apply", "value": 0.01}], "reference": {"batch": 16, "ps": 1}, "efficiency": {"b0": 0.01, "b1": 0.4, "b2": 0.1, "lambda": 0.03, "lambda_lo": 0.01, "lambda_hi": 0.05, "staleness_per_worker": 0.9, "staleness_per_worker_lo": 0.85, "staleness_per_worker_hi": 0.96, "staleness_scatter": 0.04` + scale + `, "target_loss": 0.6}}`
	}
	ends := func(scale string) (float64, float64) {
		m, err := ParseModel("m.json", []byte(doc(scale)))
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, ok := m.StalenessPerWorkerEnds()
		if !ok {
			t.Fatal("no ends")
		}
		return lo, hi
	}
	lo1, hi1 := ends("")
	lo2, hi2 := ends(`, "staleness_scatter_scale": 3`)
	if !(lo2 < lo1 && hi2 > hi1) {
		t.Errorf("scale 3: [%g, %g], without [%g, %g]: want wider", lo2, hi2, lo1, hi1)
	}
	if want := 0.9 * math.Exp(math.Hypot(math.Log(0.96/0.9), zQuantile(0.9)*0.04*3)); math.Abs(hi2-want) > 1e-12 {
		t.Errorf("scale 3: hi %g, want %g", hi2, want)
	}
	if _, err := ParseModel("m.json", []byte(doc(`, "staleness_scatter_scale": 0.5`))); err == nil || !strings.Contains(err.Error(), "staleness_scatter_scale = 0.5: want 1 to 100") {
		t.Errorf("scale 0.5: %v", err)
	}
	sf, _, err := FitStepsPaths([]string{filepath.Join(repoRoot(t), "testdata", "synthetic", "async-ps")}, StepOptions{Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sf.Model.Efficiency.StalenessScatterScale, stalenessScatterScale(2, 0.9); got != want || !(want > 3) {
		t.Errorf("fit on 2 runs wrote scale %g, want t(1)/z = %g", got, want)
	}
}

// With 3 runs of which one measured a staleness of 0, the t floor still
// holds, over the two positive runs (it was left out: [0.5754, 0.9474],
// narrower above than on consistent data; a review).
func TestStalenessFloorWithAZeroRun(t *testing.T) {
	xs, ss := []float64{1, 3, 7}, []float64{0, 2.7, 6.5}
	a, _ := stalenessLaw(xs, ss)
	lo, hi, scatter := stalenessUncertainty(xs, ss, a, 200, 1, 0.9)
	// the positive runs' scatter, t on 1 degree of freedom, x = 3 and 7
	w := 6.313751514675041 * scatter * math.Sqrt(81+2401) / (9 + 49)
	if !(scatter > 0) || hi < a*math.Exp(w)*(1-1e-12) || lo > a*math.Exp(-w)*(1+1e-12) {
		t.Errorf("a %g [%g, %g], scatter %g: want at least [%g, %g]", a, lo, hi, scatter, a*math.Exp(-w), a*math.Exp(w))
	}
}
