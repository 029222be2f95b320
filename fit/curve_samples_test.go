package fit

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// curveModel is a model of the staleness law sf with the loss curve's
// bootstrap samples of runs (boot resamples, seed): what fit writes for
// the efficiency of an asynchronous trace, at level 0.9.
func curveModel(runs []StalenessRun, sf StalenessFit, boot int, seed uint64) *Model {
	e := &Efficiency{
		B0: sf.Curve.B0, B1: sf.Curve.B1, B2: sf.Curve.B2,
		Lambda: sf.Lambda, LambdaLo: sf.LambdaLo, LambdaHi: sf.LambdaHi,
		StalenessPerWorker: 0.9,
	}
	e.CurveSamples, e.CurveScale = curveUncertainty(runs, sf, Settings{Bootstrap: boot, Seed: seed, Level: 0.9})
	return &Model{Mode: "async", Level: 0.9, Efficiency: e}
}

// The updates to target get the loss curve's uncertainty: on curves
// simulated by the law (a profile of 1 and 2 workers, Gaussian noise),
// the 90% interval of the updates to a loss the runs reached holds the
// true updates in most seeds, at one worker (inside the data) and at 4
// (staleness extrapolated); without the curve's samples, at one worker
// the interval has no width and holds the truth in none.
func TestCurveSamplesCoverUpdates(t *testing.T) {
	const lambda, target = 0.08, 0.6
	truth := model.LossCurve{B0: 0.004, B1: 0.45, B2: 0.1}
	want := func(w int) float64 {
		u, err := model.StalenessLaw{Lambda: lambda}.Apply(truth, 0.9*float64(w-1)).UpdatesTo(target)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	seeds := 60
	var hit1, hit4, hitNone, width int
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		runs := simulatedStaleness(lambda, 0.01, []int{1, 2}, seed)
		sf, err := FitStalenessLaw(runs, 200, seed, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		m := curveModel(runs, sf, 200, seed)
		if n := len(m.Efficiency.CurveSamples); n < 150 {
			t.Fatalf("seed %d: %d curve samples of 200", seed, n)
		}
		for _, w := range []int{1, 4} {
			c := model.Config{Workers: w, PS: 1}
			ends := m.efficiencyEnds(m.StalenessInterval(c), sf.Lambda, 0)
			u, lo, hi := m.updatesInterval(c, target, sf.Lambda, 0, ends)
			if !(lo <= u && u <= hi) {
				t.Fatalf("seed %d, %d workers: %g outside [%g, %g]", seed, w, u, lo, hi)
			}
			in := lo <= want(w) && want(w) <= hi
			switch {
			case w == 1 && in:
				hit1++
			case w == 4 && in:
				hit4++
			}
			if w == 1 && hi > lo {
				width++
			}
		}
		bare := *m.Efficiency
		bare.CurveSamples = nil
		mb := &Model{Mode: "async", Level: 0.9, Efficiency: &bare}
		c1 := model.Config{Workers: 1, PS: 1}
		_, lo, hi := mb.updatesInterval(c1, target, sf.Lambda, 0, mb.efficiencyEnds(mb.StalenessInterval(c1), sf.Lambda, 0))
		if lo <= want(1) && want(1) <= hi {
			hitNone++
		}
	}
	t.Logf("90%% intervals of the updates to %g held the truth at 1 worker in %d of %d seeds, at 4 workers in %d; without the curve's samples at 1 worker in %d", target, hit1, seeds, hit4, hitNone)
	if width != seeds {
		t.Errorf("the interval at 1 worker had a width in %d of %d seeds, want all", width, seeds)
	}
	if hit1 < seeds*3/4 || hit4 < seeds*3/4 {
		t.Errorf("coverage at 1 worker %d, at 4 workers %d of %d seeds: want at least 75%%", hit1, hit4, seeds)
	}
	if hitNone > seeds/10 {
		t.Errorf("without curve samples the interval held the truth at 1 worker in %d of %d seeds: the test cannot tell the samples' effect", hitNone, seeds)
	}
}

// model.json's curve samples and their scale are checked at their place:
// four finite values, b0 > 0, none negative, lambda 0 where the model
// holds it there, lambda 0 beside a batch law.
func TestParseModelCurveSamples(t *testing.T) {
	m := fittedModel(t)
	m.Efficiency = &Efficiency{B0: 0.01, B1: 1, B2: 0.1, StalenessPerWorker: 1, TargetLoss: 0.5, LowestLoss: 0.3,
		CurveSamples: [][]float64{{0.0101357, 1.01357, 0.101357, 0.0102357}, {0.0097357, 0.98357, 0.097357, 0.0098357}}, CurveScale: 1.05, RunScatter: 0.1537}
	good, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g := string(good)
	back, err := ParseModel("m.json", good)
	if err != nil {
		t.Fatal(err)
	}
	if e := back.Efficiency; len(e.CurveSamples) != 2 || e.CurveSamples[1][3] != 0.0098357 || e.CurveScale != 1.05 || e.RunScatter != 0.1537 {
		t.Fatalf("read back %v, scale %g", e.CurveSamples, e.CurveScale)
	}
	for _, c := range []struct{ old, new, want string }{
		{"0.0097357", "-1", "curve sample 2: b0 = -1: want >= 0 and finite"},
		{"0.0097357", "NaN", "invalid character"},
		{"0.98357", "-0.5", "curve sample 2: b1 = -0.5: want >= 0 and finite"},
		{"0.101357", "-2", "curve sample 1: b2 = -2: want >= 0"},
		{"0.0102357", "-3", "curve sample 1: lambda = -3: want >= 0"},
		{"0.0098357", "0.0098357, 7", "curve sample 2 has 5 values, want 4"},
		{"1.05", "0.5", "curve_interval_scale = 0.5: want 1 to 1e+06"},
		{"0.1537", "-0.1537", "run_scatter = -0.1537: want 0 to 5"},
		{"0.1537", "7", "run_scatter = 7: want 0 to 5"},
		{`"lambda": 0,`, `"lambda": 0, "lambda_fixed": true,`, "curve sample 1: lambda = 0.0102357: want 0 (lambda_fixed"},
		{`"target_loss": 0.5`, `"target_loss": 0.5, "gns": {"noise_batch": 320, "noise_batch_lo": 160, "noise_batch_hi": 640, "ref_batch": 32, "steps_ref": 1000, "target_loss": 0.5, "min_batch": 32, "max_batch": 256}`, "curve sample 1: lambda = 0.0102357: want 0 (beside a batch law"},
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
		// placed at the value (or the samples' list, for a batch law)
		at := i
		switch {
		case strings.HasPrefix(c.want, "curve sample 1: lambda = 0.0102357"):
			at = strings.Index(doc, "0.0102357")
		case strings.Contains(c.want, "batch law"):
			at = strings.Index(doc, "0.0102357")
		case strings.Contains(c.want, "5 values"):
			at = strings.LastIndex(doc[:strings.Index(doc, "0.0097357")], "[")
		}
		line, col := lineCol([]byte(doc), int64(at))
		if want := fmt.Sprintf("m.json:%d:%d: ", line, col); !strings.Contains(err.Error(), want) {
			t.Errorf("%s -> %s: %v, want it at %s", c.old, c.new, err, want)
		}
	}
}

// A curve sample whose rate b0 is 0 (a resample through which the loss
// does not fall) is a curve that never reaches a target below its start:
// model.json takes it (fit wrote such samples, then refused its own model
// and wrote none), and the updates to target count it as +Inf, so that
// enough of them leave the interval without an upper end.
func TestCurveSamplesZeroRate(t *testing.T) {
	mk := func(zeros int) *Model {
		m := fittedModel(t)
		var samples [][]float64
		for i := range 40 {
			b0 := 0.01 * (1 + 0.005*float64(i-20))
			if i < zeros {
				b0 = 0
			}
			samples = append(samples, []float64{b0, 1, 0.1, 0})
		}
		m.Efficiency = &Efficiency{B0: 0.01, B1: 1, B2: 0.1, StalenessPerWorker: 1, TargetLoss: 0.5, LowestLoss: 0.3, CurveSamples: samples}
		doc, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseModel("m.json", doc)
		if err != nil {
			t.Fatalf("%d zero rates: %v", zeros, err)
		}
		return back
	}
	c := model.Config{Workers: 1, PS: 1}
	// at loss 0.5: 1/(0.5-0.1) - 1 = 1.5 over b0 = 0.01, 150 updates
	lo, hi, ok := mk(1).curveInterval(c, 0.5)
	if !ok || !(lo > 100 && hi < 1000) || math.IsInf(hi, 0) {
		t.Errorf("one zero rate in 40: [%g, %g] (%v), want finite ends near 150 (the zero past the 95th percentile's reach)", lo, hi, ok)
	}
	if _, hi, _ := mk(10).curveInterval(c, 0.5); !math.IsInf(hi, 1) {
		t.Errorf("10 zero rates in 40: upper end %g, want +Inf (the target never reached in a quarter of the resamples)", hi)
	}
	if lo, _, _ := mk(10).curveInterval(c, 5); lo != 0 {
		t.Errorf("a target above the start (1.1): lower end %g, want 0 (reached before any update, zero rate or not)", lo)
	}
}

// An efficiency with b0, b1 and b2 all 0 is the staleness law alone (no
// loss curve could be fitted): model.json takes it, which fit's own check
// refused, so that a trace with 2 losses a run, or a loss that does not
// fall, wrote no model at all. b0 = 0 with a curve beside it is refused.
func TestParseModelNoCurve(t *testing.T) {
	m := fittedModel(t)
	m.Efficiency = &Efficiency{StalenessPerWorker: 1, StalenessAssumed: true}
	doc, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("m.json", doc)
	if err != nil {
		t.Fatalf("staleness law alone: %v", err)
	}
	if e := back.Efficiency; e == nil || e.B0 != 0 || e.StalenessPerWorker != 1 {
		t.Fatalf("read back %+v", back.Efficiency)
	}
	if u := back.UpdatesToTarget(2, 0.5); !math.IsNaN(u) && !math.IsInf(u, 1) {
		t.Errorf("updates to target without a curve: %g, want none", u)
	}
	m.Efficiency = &Efficiency{B1: 1, B2: 0.1, StalenessPerWorker: 1}
	doc, err = m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseModel("m.json", doc); err == nil || !strings.Contains(err.Error(), "b0 = 0: want the loss curve's rate, > 0 (or b0, b1 and b2 all 0") {
		t.Errorf("b0 = 0 beside b1 and b2: %v", err)
	}
}

// Percentile takes +Inf among its values: at an exact rank it is the
// value there, toward +Inf it is +Inf (0·Inf gave NaN).
func TestPercentileInf(t *testing.T) {
	inf := math.Inf(1)
	xs := []float64{3, 1, inf, 2, inf}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.25, 2}, {0.5, 3}, {0.6, inf}, {0.75, inf}, {1, inf}} {
		if got := Percentile(xs, c.q); got != c.want {
			t.Errorf("q %g: %g, want %g", c.q, got, c.want)
		}
	}
	if got := Percentile([]float64{1, 2}, 0.5); got != 1.5 {
		t.Errorf("finite interpolation %g, want 1.5", got)
	}
}

// stratifiedParallel draws each stratum's items from that stratum only,
// as many as it has; one stratum is bootstrapParallel's resample.
func TestStratifiedDraws(t *testing.T) {
	sizes := []int{3, 1, 5}
	seen := map[int]bool{}
	got := stratifiedParallel(sizes, 50, 7, func() func([]int) ([]float64, bool) {
		return func(idx []int) ([]float64, bool) {
			v := make([]float64, len(idx))
			for i, j := range idx {
				v[i] = float64(j)
			}
			return v, true
		}
	})
	if len(got) != 50 {
		t.Fatalf("%d resamples, want 50", len(got))
	}
	for _, v := range got {
		for i, x := range v {
			j := int(x)
			seen[j] = true
			var ok bool
			switch {
			case i < 3:
				ok = j < 3
			case i == 3:
				ok = j == 3
			default:
				ok = j >= 4 && j < 9
			}
			if !ok {
				t.Fatalf("position %d drew item %d from another stratum: %v", i, j, v)
			}
		}
	}
	if len(seen) != 9 {
		t.Errorf("drew %d distinct items of 9 in 50 resamples", len(seen))
	}
	one := func() func([]int) ([]float64, bool) {
		return func(idx []int) ([]float64, bool) {
			v := make([]float64, len(idx))
			for i, j := range idx {
				v[i] = float64(j)
			}
			return v, true
		}
	}
	a, b := stratifiedParallel([]int{6}, 20, 3, one), Bootstrap(6, 20, 3, func(idx []int) ([]float64, bool) { return one()(idx) })
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("resample %d: stratified %v, Bootstrap %v", i, a[i], b[i])
		}
	}
}

// model.json's diagnostics.flat_parameters name the model's parameters: a
// name that is not one is refused at its place.
func TestParseModelFlatParameters(t *testing.T) {
	m := fittedModel(t)
	m.Diagnostics.FlatParameters = []string{m.Parameters[0].Name, m.Parameters[1].Name}
	good, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("m.json", good)
	if err != nil || !slices.Equal(back.Diagnostics.FlatParameters, m.Diagnostics.FlatParameters) {
		t.Fatalf("read back %v: %v", back.Diagnostics.FlatParameters, err)
	}
	g := string(good)
	old := fmt.Sprintf("%q\n    ]", m.Parameters[1].Name)
	i := strings.Index(g, old)
	if i < 0 {
		t.Fatalf("%s not in\n%s", old, g)
	}
	doc := g[:i] + `"nosuch"` + g[i+len(fmt.Sprintf("%q", m.Parameters[1].Name)):]
	line, col := lineCol([]byte(doc), int64(i))
	_, err = ParseModel("m.json", []byte(doc))
	if want := fmt.Sprintf("m.json:%d:%d: diagnostics: flat_parameters 2 \"nosuch\": want the name of one of the model's parameters", line, col); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want %q", err, want)
	}
}

// oneRun adds the run scatter to each end's distance from the value in log
// space as independent errors (root of the sum of squares); ends at 0 or
// +Inf stay, and no scatter changes nothing.
func TestOneRun(t *testing.T) {
	z := zQuantile(0.9)
	lo, hi := oneRun(100, 100*math.Exp(-0.3), 100*math.Exp(0.4), 0.3/z, 0.9)
	if want := 100 * math.Exp(-math.Sqrt(0.18)); math.Abs(lo/want-1) > 1e-12 {
		t.Errorf("lo %g, want %g", lo, want)
	}
	if want := 100 * math.Exp(0.5); math.Abs(hi/want-1) > 1e-12 {
		t.Errorf("hi %g, want %g (0.4 and 0.3 make 0.5)", hi, want)
	}
	if lo, hi := oneRun(math.Inf(1), 50, math.Inf(1), 0.2, 0.9); math.Abs(lo*math.Exp(z*0.2)-50) > 1e-9 || !math.IsInf(hi, 1) {
		t.Errorf("value +Inf: [%g, %g], want the lower end 50 e^(-z 0.2)", lo, hi)
	}
	if lo, hi := oneRun(100, 0, math.Inf(1), 0.2, 0.9); lo != 0 || !math.IsInf(hi, 1) {
		t.Errorf("ends at 0 and +Inf moved: %g, %g", lo, hi)
	}
	if lo, hi := oneRun(100, 90, 120, 0, 0.9); lo != 90 || hi != 120 {
		t.Errorf("no scatter moved the ends: %g, %g", lo, hi)
	}
	if lo, hi := oneRun(100, 100, 100, 0.1, 0.9); math.Abs(lo*math.Exp(z*0.1)-100) > 1e-9 || math.Abs(hi/math.Exp(z*0.1)-100) > 1e-9 {
		t.Errorf("a point interval: %g, %g, want 100 e^(-+z 0.1)", lo, hi)
	}
}

// An exact loss-curve fit (3 points, 3 parameters) keeps no bootstrap
// samples: resampling its points gave an interval (75 [73.2, 80.3]) that
// said nothing, and hid the warning of one of no width.
func TestCurveUncertaintyExactFit(t *testing.T) {
	runs := simulatedStaleness(0, 0.01, []int{3}, 1)
	r := runs[0]
	runs[0] = StalenessRun{Run: r.Run, Workers: r.Workers, Staleness: r.Staleness, K: r.K[:3], Loss: r.Loss[:3]}
	sf, err := FitStalenessLaw(runs, 0, 1, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	if s, scale := curveUncertainty(runs, sf, Settings{Bootstrap: 50, Seed: 1, Level: 0.9}); s != nil || scale != 0 {
		t.Errorf("exact fit: %d samples, scale %g", len(s), scale)
	}
	runs[0].K, runs[0].Loss = r.K[:5], r.Loss[:5]
	if s, _ := curveUncertainty(runs, sf, Settings{Bootstrap: 50, Seed: 1, Level: 0.9}); len(s) < 40 {
		t.Errorf("5 points: %d samples of 50", len(s))
	}
}

// A measured staleness of 0 per worker is 0 at every count (it was read
// back as the default 1 x (N - 1)); only a model.json without the field
// gets the default, as assumed.
func TestStalenessZeroReadBack(t *testing.T) {
	m := synthModel(t, "optimus-async", []float64{1e-3, 0.05, 0.01, 0.002, 0.005}, []int{1, 2, 4, 8}, []int{1, 2}, true, 0.01, 6, 30, "async", Reference{PS: 1, Batch: 32})
	m.Efficiency = &Efficiency{B0: 0.01, B1: 1, B2: 0.1, TargetLoss: 0.5, LambdaFixed: true}
	doc, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("m.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Staleness(3); got != 0 || back.Efficiency.StalenessAssumed {
		t.Errorf("staleness_per_worker 0: staleness at 3 workers %g (assumed %v), want 0 as measured", got, back.Efficiency.StalenessAssumed)
	}
	g := string(doc)
	i := strings.Index(g, `"staleness_per_worker": 0,`)
	if i < 0 {
		t.Fatalf("no staleness_per_worker in %s", g)
	}
	back, err = ParseModel("m.json", []byte(g[:i]+g[i+len(`"staleness_per_worker": 0,`):]))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Staleness(3); got != 2 || !back.Efficiency.StalenessAssumed {
		t.Errorf("no staleness_per_worker: staleness at 3 workers %g (assumed %v), want the default 2, assumed", got, back.Efficiency.StalenessAssumed)
	}
}
