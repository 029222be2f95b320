package fit

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// A registered family's name with "/nnls" names its NNLS variant, alone
// or as a member of a mean; nothing else does.
func TestNNLSFamilyLookup(t *testing.T) {
	for _, n := range []string{"ernest/nnls", "optimus-sync/nnls", "mean(ernest/nnls,optimus-sync)"} {
		f, ok := LookupFamily(n)
		if !ok || f.Name != n {
			t.Errorf("LookupFamily(%q) = %q, %v", n, f.Name, ok)
		}
	}
	for _, n := range []string{"nope/nnls", "ernest/nnls/nnls", "/nnls", "ernest/NNLS", "mean(ernest/nnls,nope/nnls)"} {
		if _, ok := LookupFamily(n); ok {
			t.Errorf("LookupFamily(%q) found a family", n)
		}
	}
	// the variant predicts as its form does
	e, en := families["ernest"], nnlsFamily(families["ernest"])
	th := []float64{0.05, 0.002, 0.01, 0.003}
	for _, w := range []int{1, 3, 17} {
		c := model.Config{Workers: w, Batch: 32}
		if a, b := e.Predict(th, c), en.Predict(th, c); a != b {
			t.Errorf("w=%d: ernest %g, ernest/nnls %g", w, a, b)
		}
	}
}

// FitThroughput with an NNLS variant is NNLS (fitNNLS, itself checked
// against a brute-force search and the KKT conditions): the same vector,
// not the log-space fit's, and on noise-free data the true one.
func TestNNLSFamilyFit(t *testing.T) {
	theta := []float64{0.05, 0.002, 0.01, 0.003}
	var noisy []Point
	for i, b := range []float64{16, 64} {
		noisy = append(noisy, synth("ernest", theta, []int{1, 2, 4, 8}, []int{0}, b, false, 0.05, uint64(3+i))...)
	}
	tf, _, err := FitThroughput(noisy, "ernest/nnls", &Settings{Bootstrap: -1, NoCV: true})
	if err != nil {
		t.Fatal(err)
	}
	want, err := fitNNLS(families["ernest"], noisy, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tf.Theta, want) {
		t.Errorf("ernest/nnls theta %v, NNLS %v", tf.Theta, want)
	}
	lm, _, err := FitThroughput(noisy, "ernest", &Settings{Bootstrap: -1, NoCV: true})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(lm.Theta, tf.Theta) {
		t.Errorf("the log-space fit and NNLS agree exactly on noisy data (%v): is the variant fitted by LM?", lm.Theta)
	}
	// the RMSLE is that of the NNLS vector, not below the log-space fit's
	if tf.RMSLE < lm.RMSLE-1e-12 {
		t.Errorf("NNLS RMSLE %g below the log-space minimum %g", tf.RMSLE, lm.RMSLE)
	}
	var exact []Point
	for _, b := range []float64{16, 64} {
		exact = append(exact, synth("ernest", theta, []int{1, 2, 4, 8}, []int{0}, b, false, 0, 1)...)
	}
	tf, _, err = FitThroughput(exact, "ernest/nnls", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	for j := range theta {
		if math.Abs(tf.Theta[j]-theta[j]) > 1e-9 {
			t.Fatalf("noise-free: theta %v, truth %v", tf.Theta, theta)
		}
	}
	if !(tf.CVError < 1e-6) {
		t.Errorf("noise-free leave-one-out error %g%%, want 0", tf.CVError)
	}
	// forms that are not linear in their parameters are refused
	for _, n := range []string{"pollux/nnls", "powerlaw/nnls"} {
		pts := synth("powerlaw", []float64{50, 0.9}, []int{1, 2, 4, 8}, []int{0}, 32, false, 0, 1)
		if _, _, err := FitThroughput(pts, n, &Settings{Bootstrap: -1}); err == nil || !strings.Contains(err.Error(), "not linear") {
			t.Errorf("%s: %v, want a 'not linear' error", n, err)
		}
	}
}

// Settings.NNLS adds the variants of the linear candidates, and only
// those, to auto; without it none competes.
func TestAutoNNLSCandidates(t *testing.T) {
	theta := []float64{0.05, 0.002, 0.01, 0.003}
	var pts []Point
	for i, b := range []float64{16, 64} {
		pts = append(pts, synth("ernest", theta, []int{1, 2, 4, 8}, []int{0}, b, false, 0.03, uint64(7+i))...)
	}
	names := func(alts []Alternative) []string {
		var out []string
		for _, a := range alts {
			out = append(out, a.Family)
		}
		return out
	}
	_, alts, err := FitThroughput(pts, "auto", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names(alts) {
		if strings.Contains(n, nnlsSuffix) {
			t.Errorf("without Settings.NNLS auto tried %s", n)
		}
	}
	tf, alts, err := FitThroughput(pts, "auto", &Settings{Bootstrap: 50, NNLS: true})
	if err != nil {
		t.Fatal(err)
	}
	got := names(alts)
	for _, n := range []string{"ernest/nnls", "optimus-sync/nnls", "overhead/nnls"} {
		if !slices.Contains(got, n) {
			t.Errorf("with Settings.NNLS auto did not try %s (tried %v)", n, got)
		}
	}
	for _, n := range []string{"pollux/nnls", "powerlaw/nnls"} {
		if slices.Contains(got, n) {
			t.Errorf("auto tried %s, whose step time is not linear", n)
		}
	}
	// whatever it keeps round-trips through model.json with its intervals
	m := NewModel(tf, pts, alts, "sync", Reference{Batch: 16}, []string{"synthetic"}, 0.9)
	path := filepath.Join(t.TempDir(), "model.json")
	if err := WriteModel(path, m); err != nil {
		t.Fatal(err)
	}
	back, err := LoadModel(path)
	if err != nil {
		t.Fatalf("%s: %v", tf.Family.Name, err)
	}
	for _, w := range []int{1, 8, 32} {
		c := model.Config{Workers: w, Batch: 16}
		if a, b := m.StepsPerSecond(c), back.StepsPerSecond(c); relErr(b, a) > 1e-12 {
			t.Errorf("%s X(%d): written %g, read back %g", tf.Family.Name, w, a, b)
		}
		p := back.Predict(c, math.NaN(), 0)
		if !(p.StepsPerS.Lo <= p.StepsPerS.Value && p.StepsPerS.Value <= p.StepsPerS.Hi) {
			t.Errorf("%s X(%d) interval %+v", tf.Family.Name, w, p.StepsPerS)
		}
	}
}

// An NNLS variant's bootstrap refits by NNLS: every resample's vector is
// NNLS's on some multiset of the configurations, so it has no negative
// parameter, and the interval holds the estimate.
func TestNNLSFamilyBootstrap(t *testing.T) {
	theta := []float64{0.05, 0.002, 0.01, 0.003}
	var pts []Point
	for i, b := range []float64{16, 64} {
		pts = append(pts, synth("ernest", theta, []int{1, 2, 4, 8}, []int{0}, b, false, 0.05, uint64(11+i))...)
	}
	tf, _, err := FitThroughput(pts, "ernest/nnls", &Settings{Bootstrap: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(tf.Samples) == 0 {
		t.Fatal("no bootstrap samples")
	}
	for j := range theta {
		if !(tf.Lo[j] <= tf.Theta[j] && tf.Theta[j] <= tf.Hi[j]) {
			t.Errorf("%s: estimate %g outside [%g, %g]", tf.Family.Params[j].Name, tf.Theta[j], tf.Lo[j], tf.Hi[j])
		}
	}
	for _, s := range tf.Samples {
		for _, v := range s {
			if v < 0 {
				t.Fatalf("resample %v has a negative parameter", s)
			}
		}
	}
}
