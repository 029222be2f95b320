package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// polluxPoints simulates Pollux step rates (no noise) at the given
// (workers, nodes, per-worker batch) configurations.
func polluxPoints(truth model.Pollux, cfgs [][3]float64) []Point {
	var pts []Point
	for _, c := range cfgs {
		cfg := model.Config{Workers: int(c[0]), Nodes: int(c[1]), Batch: c[2]}
		pts = append(pts, Point{Config: cfg, StepsPerS: truth.StepsPerSecond(cfg)})
	}
	return pts
}

// The prior moves only parameters the points leave free: at random
// parameter vectors and random point sets, every prediction at the points
// is the same before and after it.
func TestPolluxPriorKeepsPredictionsAtThePoints(t *testing.T) {
	r := newRand(11)
	f := families["pollux"]
	for range 500 {
		var pts []Point
		oneBatch := r.IntN(2) == 0
		for range 1 + r.IntN(6) {
			w := 1 + r.IntN(16)
			n := 1
			if r.IntN(3) == 0 {
				n = 1 + r.IntN(w)
			}
			b := 32.0
			if !oneBatch {
				b = float64(8 * (1 + r.IntN(8)))
			}
			pts = append(pts, Point{Config: model.Config{Workers: w, Nodes: n, Batch: b}, StepsPerS: 1})
		}
		th := []float64{r.Float64(), 1e-3 * r.Float64(), r.Float64(), 0.1 * r.Float64(), r.Float64(), 0.1 * r.Float64(), 1 + 3*r.Float64()}
		after := append([]float64(nil), th...)
		polluxPrior(pts, after)
		for _, p := range pts {
			if a, b := f.Predict(th, p.Config), f.Predict(after, p.Config); relErr(b, a) > 1e-12 {
				t.Fatalf("prior changed the prediction at %+v: %g -> %g (theta %v -> %v)", p.Config, a, b, th, after)
			}
		}
	}
}

// AdaptDL's rules, one case each: what the data leave free is set, what
// they measure is kept.
func TestPolluxPriorRules(t *testing.T) {
	th := func() []float64 { return []float64{0.2, 0.01, 0.3, 0.04, 0.5, 0.06, 2} }
	cases := []struct {
		name string
		cfgs [][3]float64 // workers, nodes, batch
		want []float64
	}{
		{"one node, 1-4 workers, two batches: network = 1.1 x local",
			[][3]float64{{1, 1, 16}, {2, 1, 32}, {4, 1, 16}},
			[]float64{0.2, 0.01, 0.3, 0.04, 0.33, 0.044, 2}},
		{"one node, 1-2 workers: no retrogression terms",
			[][3]float64{{1, 1, 16}, {2, 1, 32}},
			[]float64{0.2, 0.01, 0.3, 0, 0.33, 0, 2}},
		{"one worker per node: no local terms, network measured",
			[][3]float64{{1, 1, 16}, {2, 2, 32}, {4, 4, 16}},
			[]float64{0.2, 0.01, 0, 0, 0.5, 0.06, 2}},
		{"one batch: compute split in half",
			[][3]float64{{1, 1, 20}, {2, 1, 20}, {4, 2, 20}},
			[]float64{0.2, 0.01, 0.3, 0.04, 0.5, 0.06, 2}},
		{"everything measured",
			[][3]float64{{1, 1, 16}, {4, 1, 32}, {8, 2, 16}},
			[]float64{0.2, 0.01, 0.3, 0.04, 0.5, 0.06, 2}},
	}
	// one batch of 20: alpha_c + beta_c b = 0.2 + 0.2 = 0.4, halves 0.2
	// and 0.01 per sample: the same as th, by construction; a batch of 40
	// gives a different split
	for _, c := range cases {
		var pts []Point
		for _, x := range c.cfgs {
			pts = append(pts, Point{Config: model.Config{Workers: int(x[0]), Nodes: int(x[1]), Batch: x[2]}, StepsPerS: 1})
		}
		got := th()
		polluxPrior(pts, got)
		for j := range got {
			if math.Abs(got[j]-c.want[j]) > 1e-12 {
				t.Errorf("%s: %s = %g, want %g (all %v)", c.name, families["pollux"].Params[j].Name, got[j], c.want[j], got)
			}
		}
	}
	pts := []Point{{Config: model.Config{Workers: 1, Nodes: 1, Batch: 40}}, {Config: model.Config{Workers: 4, Nodes: 2, Batch: 40}}}
	got := th()
	polluxPrior(pts, got)
	if s := 0.2 + 0.01*40; math.Abs(got[0]-s/2) > 1e-12 || math.Abs(got[1]*40-s/2) > 1e-12 {
		t.Errorf("one batch of 40: alpha_c %g, beta_c b %g, want both %g", got[0], got[1]*40, s/2)
	}
}

// Fitted on one machine, the Pollux form predicts another machine count as
// AdaptDL would: network terms 1.1 times the local ones, whatever the
// fit's starting point. Checked against package model's Pollux with
// those terms (the truth's own network terms are not in the data).
func TestPolluxFitAcrossMachinesFollowsThePrior(t *testing.T) {
	truth := model.Pollux{AlphaGrad: 0.05, BetaGrad: 0.002, AlphaLocal: 0.02, BetaLocal: 0.004, AlphaNode: 0.2, BetaNode: 0.03, Gamma: 1.5}
	pts := polluxPoints(truth, [][3]float64{
		{1, 1, 16}, {1, 1, 32}, {1, 1, 64}, {2, 1, 16}, {2, 1, 32}, {2, 1, 64},
		{3, 1, 16}, {3, 1, 32}, {4, 1, 16}, {4, 1, 32}, {4, 1, 64},
	})
	tf, _, err := FitThroughput(pts, "pollux", &Settings{Bootstrap: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	th := tf.Theta
	if math.Abs(th[4]-1.1*th[2]) > 1e-12 || math.Abs(th[5]-1.1*th[3]) > 1e-12 {
		t.Fatalf("alpha_n, beta_n = %g, %g; want 1.1 x alpha_r, beta_r = %g, %g", th[4], th[5], 1.1*th[2], 1.1*th[3])
	}
	expect := truth
	expect.AlphaNode, expect.BetaNode = 1.1*truth.AlphaLocal, 1.1*truth.BetaLocal
	for _, w := range []int{8, 16, 64} {
		c := model.Config{Workers: w, Nodes: w / 4, Batch: 32}
		got, want := tf.Family.Predict(th, c), expect.StepsPerSecond(c)
		if relErr(got, want) > 0.01 {
			t.Errorf("%d workers on %d nodes: %g steps/s, the prior's %g", w, c.Nodes, got, want)
		}
	}
	// the fit marks what the prior set: the network terms alone here
	// (several batches, 2+ and 3+ workers on one machine)
	for j, set := range tf.PriorSet {
		if set != (j == 4 || j == 5) {
			t.Errorf("PriorSet %v: want alpha_n and beta_n alone", tf.PriorSet)
			break
		}
	}
	if len(tf.PriorSet) != 7 {
		t.Errorf("PriorSet %v", tf.PriorSet)
	}
	// and so does a mean holding pollux, at the member's offset
	mf, _, err := FitThroughput(pts, "mean(ernest,pollux)", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	for j, set := range mf.PriorSet {
		if set != (j == 8 || j == 9) {
			t.Errorf("mean(ernest,pollux) PriorSet %v: want pollux.alpha_n and pollux.beta_n (8, 9)", mf.PriorSet)
			break
		}
	}
	m := NewModel(mf, pts, nil, "allreduce", Reference{Batch: 32}, nil, 0.9)
	if !m.Parameters[8].Prior || m.Parameters[8].Name != "pollux.alpha_n" || m.Parameters[0].Prior {
		t.Errorf("model parameters: %+v, %+v", m.Parameters[8], m.Parameters[0])
	}
	// every bootstrap refit follows the prior too
	if len(tf.Samples) == 0 {
		t.Fatal("no bootstrap samples")
	}
	for _, s := range tf.Samples {
		if math.Abs(s[4]-1.1*s[2]) > 1e-12 {
			t.Fatalf("bootstrap sample %v: alpha_n not 1.1 x alpha_r", s)
		}
	}
	var warned bool
	for _, w := range tf.Warnings {
		warned = warned || (strings.Contains(w, "alpha_n") && strings.Contains(w, "AdaptDL"))
	}
	if !warned {
		t.Errorf("no warning names the free network terms and the prior: %q", tf.Warnings)
	}
}

// The search for equally good fits does not apply the prior: on data that
// leave the network terms free it finds fits whose network terms are not
// the prior's (what the intervals then hold across machines).
func TestPolluxRivalsExploreWhatThePriorSets(t *testing.T) {
	truth := model.Pollux{AlphaGrad: 0.05, BetaGrad: 0.002, AlphaLocal: 0.02, BetaLocal: 0.004, AlphaNode: 0.2, BetaNode: 0.03, Gamma: 1.5}
	pts := polluxPoints(truth, [][3]float64{{1, 1, 32}, {2, 1, 32}, {4, 1, 16}, {4, 1, 32}})
	tf, _, err := FitThroughput(pts, "pollux", &Settings{Bootstrap: 20, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	free := 0
	for _, r := range tf.Rivals {
		if r.Why == "start" && math.Abs(r.Theta[4]-1.1*r.Theta[2]) > 1e-3*math.Max(r.Theta[2], 1e-3) {
			free++
		}
	}
	if free == 0 {
		t.Fatalf("no rival from another start leaves alpha_n off 1.1 x alpha_r: the prior reached them (%d rivals)", len(tf.Rivals))
	}
}

// Parameters without effect are named once, as not identified; the
// "flat along a combination" warning is kept for parameters that each move
// the predictions but only together (amdahl's two times at one batch).
func TestIdentificationWarnsFlatCombinationsOnlyAmongActiveParameters(t *testing.T) {
	truth := model.Pollux{AlphaGrad: 0.05, BetaGrad: 0.002, AlphaLocal: 0.02, BetaLocal: 0.004, Gamma: 1.5}
	pts := polluxPoints(truth, [][3]float64{{1, 1, 16}, {1, 1, 32}, {2, 1, 16}, {2, 1, 32}, {3, 1, 16}, {4, 1, 32}, {4, 1, 64}})
	has := func(ws []string, subs ...string) bool {
		for _, w := range ws {
			all := true
			for _, s := range subs {
				all = all && strings.Contains(w, s)
			}
			if all {
				return true
			}
		}
		return false
	}
	tf, _, err := FitThroughput(pts, "pollux", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !has(tf.Warnings, "not identified", "alpha_n", "beta_n") {
		t.Errorf("pollux on one machine: no warning names alpha_n, beta_n: %q", tf.Warnings)
	}
	if has(tf.Warnings, "flat along a combination") {
		t.Errorf("pollux on one machine: the free network terms also reported as a flat combination: %q", tf.Warnings)
	}
	var one []Point
	for _, w := range []int{1, 2, 4} {
		c := model.Config{Workers: w, Batch: 32}
		one = append(one, Point{Config: c, StepsPerS: 1 / (0.1 + 0.01*32)})
	}
	af, _, err := FitThroughput(one, "amdahl", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !has(af.Warnings, "amdahl", "flat along a combination of parameters, serial and per_sample (condition", "their intervals do not show it") {
		t.Errorf("amdahl at one batch: no flat-combination warning naming serial and per_sample: %q", af.Warnings)
	}
}

// PolluxNetworkMethod at ratio r predicts across machines as the Pollux
// form with network terms r times the local ones (noise-free data of such
// a truth, fitted on one machine, are predicted on several), at 1.1 as
// the plain fit does, and keeps the fitted terms when the training data
// cross machines.
func TestPolluxNetworkMethod(t *testing.T) {
	local := [][3]float64{{1, 1, 16}, {1, 1, 32}, {2, 1, 16}, {2, 1, 32}, {3, 1, 32}, {4, 1, 16}, {4, 1, 32}}
	for _, r := range []float64{1.1, 4} {
		truth := model.Pollux{AlphaGrad: 0.05, BetaGrad: 0.002, AlphaLocal: 0.02, BetaLocal: 0.004, Gamma: 1.5}
		truth.AlphaNode, truth.BetaNode = r*truth.AlphaLocal, r*truth.BetaLocal
		pred, _, err := PolluxNetworkMethod("p", r).Fit(polluxPoints(truth, local))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []model.Config{{Workers: 8, Nodes: 2, Batch: 32}, {Workers: 32, Nodes: 8, Batch: 16}} {
			if got, want := pred(c), truth.StepsPerSecond(c); relErr(got, want) > 0.01 {
				t.Errorf("r = %g at %+v: %g, truth %g", r, c, got, want)
			}
		}
	}
	plain, _, err := FamilyMethod("p", "pollux", "pollux-async").Fit(polluxPoints(model.Pollux{AlphaGrad: 0.05, BetaGrad: 0.002, AlphaLocal: 0.02, BetaLocal: 0.004, Gamma: 1.5}, local))
	if err != nil {
		t.Fatal(err)
	}
	at11, _, _ := PolluxNetworkMethod("p", 1.1).Fit(polluxPoints(model.Pollux{AlphaGrad: 0.05, BetaGrad: 0.002, AlphaLocal: 0.02, BetaLocal: 0.004, Gamma: 1.5}, local))
	far := model.Config{Workers: 16, Nodes: 4, Batch: 32}
	if relErr(at11(far), plain(far)) > 1e-12 {
		t.Errorf("r = 1.1: %g, the plain fit (AdaptDL's prior) %g", at11(far), plain(far))
	}
	// with a multi-node training point the network terms are measured
	truth := model.Pollux{AlphaGrad: 0.05, BetaGrad: 0.002, AlphaLocal: 0.02, BetaLocal: 0.004, AlphaNode: 0.2, BetaNode: 0.03, Gamma: 1.5}
	cross := append(local, [3]float64{4, 2, 16}, [3]float64{4, 2, 32}, [3]float64{8, 2, 32})
	pred, _, err := PolluxNetworkMethod("p", 16).Fit(polluxPoints(truth, cross))
	if err != nil {
		t.Fatal(err)
	}
	if c := (model.Config{Workers: 16, Nodes: 4, Batch: 32}); relErr(pred(c), truth.StepsPerSecond(c)) > 0.01 {
		t.Errorf("measured network terms overridden: %g, truth %g", pred(c), truth.StepsPerSecond(c))
	}
}
