package fit

import (
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// The fitter's forms that package model also states agree with it (and
// shardlink with shards, of which it is a special case):
// optimus-sync with model.OptimusSync on PS data, ernest under strong
// scaling (per-worker batch M/w) with model.Ernest at Theta1 = θ1·M, and
// optimus-async without a per-sample term with model.OptimusAsync.
func TestFamiliesAgreeWithModel(t *testing.T) {
	r := newRand(7)
	for range 200 {
		th := make([]float64, 5)
		for i := range th {
			th[i] = 1e-3 + 0.1*r.Float64()
		}
		w, p := 1+r.IntN(64), 1+r.IntN(16)
		const M = 256.0
		c := model.Config{Workers: w, PS: p, Batch: M / float64(w)}

		got := families["optimus-sync"].Predict(th, c)
		want := model.OptimusSync{Theta0: th[0], Theta1: th[1], Theta2: th[2], Theta3: th[3], Theta4: th[4]}.StepsPerSecond(c)
		if relErr(got, want) > 1e-12 {
			t.Fatalf("optimus-sync %v at %+v: %g, model %g", th, c, got, want)
		}

		ac := c
		ac.PS = 0
		got = families["ernest"].Predict(th[:4], ac)
		want = model.Ernest{Theta0: th[0], Theta1: th[1] * M, Theta2: th[2], Theta3: th[3]}.StepsPerSecond(ac)
		if relErr(got, want) > 1e-12 {
			t.Fatalf("ernest %v at %+v: %g, model %g", th[:4], ac, got, want)
		}

		noSample := []float64{0, th[1], th[2], th[3], th[4]}
		got = families["optimus-async"].Predict(noSample, c)
		want = model.OptimusAsync{Theta0: th[1], Theta1: th[2], Theta2: th[3], Theta3: th[4]}.StepsPerSecond(c)
		if relErr(got, want) > 1e-12 {
			t.Fatalf("optimus-async %v at %+v: %g, model %g", noSample, c, got, want)
		}

		// shardlink is shards without its transfer-per-shard term, and
		// its async form makes w updates per step time
		got = families["shardlink"].Predict(th[:3], c)
		want = families["shards"].Predict([]float64{th[0], th[1], 0, th[2]}, c)
		if relErr(got, want) > 1e-12 {
			t.Fatalf("shardlink %v at %+v: %g, shards %g", th[:3], c, got, want)
		}
		if got, want := families["shardlink-async"].Predict(th[:3], c), float64(w)*families["shardlink"].Predict(th[:3], c); relErr(got, want) > 1e-12 {
			t.Fatalf("shardlink-async %v at %+v: %g, want %g", th[:3], c, got, want)
		}

		pth := []float64{th[0], th[1], th[2], th[3], th[4], th[0], 1 + 3*r.Float64()}
		nc := model.Config{Workers: w, Nodes: 1 + r.IntN(4), Batch: 8}
		got = families["pollux"].Predict(pth, nc)
		want = model.Pollux{AlphaGrad: pth[0], BetaGrad: pth[1], AlphaLocal: pth[2], BetaLocal: pth[3], AlphaNode: pth[4], BetaNode: pth[5], Gamma: pth[6]}.StepsPerSecond(nc)
		if relErr(got, want) > 1e-12 {
			t.Fatalf("pollux %v at %+v: %g, model %g", pth, nc, got, want)
		}
	}
}

// A family named for data it does not model is refused, with the families
// that do (before 2026-12-04 mva was fitted to a synchronous table, with a
// 168% CV error, and predicted an efficiency of 1.98).
func TestNamedFamilyMustApply(t *testing.T) {
	pts := synth("optimus-sync", []float64{1e-3, 0.05, 0.01, 0.002, 0.005}, []int{1, 2, 4, 8}, []int{1, 2}, 32, false, 0.01, 3)
	for _, n := range []string{"mva", "optimus-async", "mean(optimus-async,ernest)"} {
		_, _, err := FitThroughput(pts, n, &Settings{Bootstrap: -1})
		if err == nil || !strings.Contains(err.Error(), "does not apply to these data (synchronous steps, parameter servers)") || !strings.Contains(err.Error(), "optimus-sync") {
			t.Errorf("%s on sync PS data: %v", n, err)
		}
	}
	if _, _, err := FitThroughput(pts, "optimus-sync", &Settings{Bootstrap: -1}); err != nil {
		t.Errorf("optimus-sync on sync PS data: %v", err)
	}
}
