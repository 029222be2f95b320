package fit

import (
	"math"
	"slices"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// Tests from mutation round 4 of the rival fits.

// predictAlike's documented tolerance: within 1% at every probe. A family
// that predicts its one parameter everywhere: 1 and 1.005 are alike
// (0.5%), 1 and 1.05 are not (5%, inside a 10% tolerance but not 1%).
func TestPredictAlikeWithinOnePercent(t *testing.T) {
	flat := Family{Name: "flat", Predict: func(th []float64, c model.Config) float64 { return th[0] }}
	pts := []Point{{Config: model.Config{Workers: 1}, StepsPerS: 1}, {Config: model.Config{Workers: 2}, StepsPerS: 1}}
	for _, c := range []struct {
		b    float64
		want bool
	}{{1.005, true}, {0.995, true}, {1.02, false}, {1.05, false}, {0.95, false}} {
		if got := predictAlike(flat, []float64{1}, flat, []float64{c.b}, pts); got != c.want {
			t.Errorf("1 vs %g: alike %v, want %v", c.b, got, c.want)
		}
	}
	// Two curves equal at the data (1, 2 workers) that part beyond them:
	// a w and a w + 0.1 (w - 1)(w - 2) agree at 1 and 2 and, at the probe
	// of 4 x 2 = 8 workers, differ by 0.1 x 7 x 6 = 4.2 on 8: not alike.
	lin := Family{Name: "lin", Predict: func(th []float64, c model.Config) float64 { return th[0] * float64(c.Workers) }}
	bent := Family{Name: "bent", Predict: func(th []float64, c model.Config) float64 {
		w := float64(c.Workers)
		return th[0]*w + 0.1*(w-1)*(w-2)
	}}
	if predictAlike(lin, []float64{1}, bent, []float64{1}, pts) {
		t.Errorf("curves that part 15%% at 4 times the largest worker count are alike")
	}
}

// probeConfigs adds 4 and 16 times the largest worker count; on strong
// scaling data (a global batch of 256 split among the workers) the probes
// keep the global batch: 256/8 = 32 a worker at 8 workers, 256/32 = 8 at
// 32. Shards and machines grow by the same factor.
func TestProbeConfigsKeepTheGlobalBatch(t *testing.T) {
	pts := []Point{
		{Config: model.Config{Workers: 1, PS: 1, Nodes: 1, Batch: 256}, StepsPerS: 1},
		{Config: model.Config{Workers: 2, PS: 1, Nodes: 1, Batch: 128}, StepsPerS: 1.8},
	}
	cs := probeConfigs(pts)
	if len(cs) != 4 {
		t.Fatalf("%d probes, want the 2 points and 2 beyond them", len(cs))
	}
	for i, want := range []model.Config{
		{Workers: 8, PS: 4, Nodes: 4, Batch: 32},
		{Workers: 32, PS: 16, Nodes: 16, Batch: 8},
	} {
		if got := cs[2+i]; got != want {
			t.Errorf("probe %d: %+v, want %+v", i, got, want)
		}
	}
	// weak scaling (the same batch a worker): the probes keep it
	weak := []Point{
		{Config: model.Config{Workers: 1, Batch: 64}, StepsPerS: 1},
		{Config: model.Config{Workers: 2, Batch: 64}, StepsPerS: 2},
	}
	if cs := probeConfigs(weak); cs[2].Batch != 64 || cs[3].Batch != 64 || cs[3].Workers != 32 {
		t.Errorf("weak scaling probes %+v, %+v: want 64 a worker at 8 and 32 workers", cs[2], cs[3])
	}
}

// startRivals searches other starting points when the family has at least
// as many parameters as the data have configurations (its documented
// condition), equality included. The form a w + c (w - 1)(w - 2) at 1 and
// 2 workers pins a = 1 and leaves c free: every c fits exactly and gives
// another speed beyond 2 workers, so rivals are found, each as good as
// the fit (RMSLE within RivalTol) and each apart from it at 4 x 2 = 8
// workers (by c x 42, at least 1%: sameFit keeps out the rest). At 3
// workers (more configurations than parameters) c is pinned: none.
func TestStartRivalsAtAsManyParametersAsConfigurations(t *testing.T) {
	fam := Family{Name: "free", Params: []Param{{"a", "1/s", 0, 10}, {"c", "1/s", 0, 10}},
		Predict: func(th []float64, c model.Config) float64 {
			w := float64(c.Workers)
			return th[0]*w + th[1]*(w-1)*(w-2)
		},
		Guess: func([]Point) [][]float64 { return [][]float64{{1, 0.1}} },
	}
	at := func(w int) model.Config { return model.Config{Workers: w} }
	pts := []Point{{Config: at(1), StepsPerS: 1, Async: true}, {Config: at(2), StepsPerS: 2, Async: true}}
	tf := newThroughputFit(fam, []float64{1, 0}, pts)
	rs := startRivals(tf, pts, 1)
	if len(rs) == 0 {
		t.Fatalf("2 parameters on 2 configurations, c free: no rival from other starts")
	}
	for _, r := range rs {
		rt := newThroughputFit(fam, r.Theta, pts)
		if r.Why != "start" || rt.RMSLE > tf.RMSLE+RivalTol {
			t.Errorf("rival %+v: why %q, RMSLE %g; want start and within %g", r.Theta, r.Why, rt.RMSLE, RivalTol)
		}
		if x, y := fam.Predict(r.Theta, at(8)), fam.Predict(tf.Theta, at(8)); !(x > 1.01*y) {
			t.Errorf("rival %v predicts %g at 8 workers, the fit %g: want them apart", r.Theta, x, y)
		}
	}
	three := append(pts, Point{Config: at(3), StepsPerS: 3, Async: true})
	if rs := startRivals(newThroughputFit(fam, []float64{1, 0}, three), three, 1); len(rs) != 0 {
		t.Errorf("3 configurations for 2 parameters: %d start rivals, want none", len(rs))
	}
}

// formRivals: the other families whose CV error is within one standard
// error of the lowest. The lowest, 10%, has per-configuration errors 8
// and 12: standard deviation sqrt((4 + 4)/1) = 2.83, standard error
// 2.83/sqrt(2) = 2, so the limit is 12%: 11.9% is a rival, 12.5% is not,
// nor an unscored family (NaN), nor another fit of the chosen family.
func TestFormRivalsWithinOneStandardError(t *testing.T) {
	fit := func(name string, cv float64) *ThroughputFit {
		return &ThroughputFit{Family: Family{Name: name}, Theta: []float64{1}, CVError: cv}
	}
	low := fit("a", 10)
	low.cvErrs = []float64{8, 12}
	fits := []*ThroughputFit{low, fit("b", 11.9), fit("c", 12.5), fit("d", math.NaN()), fit("a", 10.5)}
	var got []string
	for _, r := range formRivals(low, low, fits) {
		if r.Why != "form" {
			t.Errorf("rival %s: why %q, want form", r.Family, r.Why)
		}
		got = append(got, r.Family)
	}
	if !slices.Equal(got, []string{"b"}) {
		t.Errorf("form rivals %q, want [b] (CV 11.9 within 10 + 2)", got)
	}
	// one configuration's error: no standard error, no rivals
	low.cvErrs = []float64{10}
	if rs := formRivals(low, low, fits); len(rs) != 0 {
		t.Errorf("one error: %d rivals, want none", len(rs))
	}
}
