package model

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

// famNNLS solves min ||W (X theta - y)||^2 subject to theta >= 0 exactly for a
// few parameters, by least squares on every subset of free parameters (the
// others held at 0) and keeping the best feasible one. w weighs the rows.
func famNNLS(t *testing.T, x [][]float64, y, w []float64) []float64 {
	t.Helper()
	k := len(x[0])
	best, bestRes := make([]float64, k), math.Inf(1)
	for mask := 1; mask < 1<<k; mask++ {
		var cols []int
		for j := range k {
			if mask&(1<<j) != 0 {
				cols = append(cols, j)
			}
		}
		a := mat.NewDense(len(x), len(cols), nil)
		b := mat.NewVecDense(len(x), nil)
		for i := range x {
			for jj, j := range cols {
				a.Set(i, jj, w[i]*x[i][j])
			}
			b.SetVec(i, w[i]*y[i])
		}
		var sol mat.VecDense
		if err := sol.SolveVec(a, b); err != nil {
			continue
		}
		theta := make([]float64, k)
		feasible := true
		for jj, j := range cols {
			theta[j] = sol.AtVec(jj)
			if theta[j] < 0 {
				feasible = false
			}
		}
		if !feasible {
			continue
		}
		var res float64
		for i := range x {
			var p float64
			for j := range k {
				p += x[i][j] * theta[j]
			}
			res += w[i] * w[i] * (p - y[i]) * (p - y[i])
		}
		if res < bestRes {
			best, bestRes = theta, res
		}
	}
	return best
}

// TestOptimusSyncDL2 checks Optimus's synchronous speed function on the
// measured MXNet parameter-server grid of the same group (DL2, Peng et al.:
// 4 models, 1-23 shards x 1-23 workers, global batch split over the
// workers). Fitted (non-negative least squares on relative step-time error,
// as Optimus fits it) on the configurations with at most 6 workers and 6
// shards, it predicts the larger ones; the median error of the predicted
// speed is logged and bounded.
func TestOptimusSyncDL2(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the DL2 grid")
	}
	rows := famReadCSV(t, filepath.Join(testenv.DataDir(t), "dl2-mxnet-ps-speed", "ps_worker_speed.csv"))
	for _, name := range []string{"resnet-50", "vgg-16", "inception-bn", "seq2seq"} {
		type cfg struct {
			c    Config
			step float64 // s per synchronous step
		}
		var train, test []cfg
		var gb float64
		failed := 0
		for _, r := range rows {
			if r["model"] != name {
				continue
			}
			if famFloat(t, r["speed_sum"]) <= 0 {
				failed++ // a run that recorded no speed
				continue
			}
			gb = famFloat(t, r["tot_batch_size"])
			c := Config{Workers: int(famFloat(t, r["num_workers"])), PS: int(famFloat(t, r["num_ps"]))}
			// speed_sum is job samples/s and a step is the global batch.
			x := cfg{c, gb / famFloat(t, r["speed_sum"])}
			if c.Workers <= 6 && c.PS <= 6 {
				train = append(train, x)
			} else {
				test = append(test, x)
			}
		}
		m := OptimusSync{GlobalBatch: gb}
		var xs [][]float64
		var ys, ws []float64
		for _, r := range train {
			w, p := float64(r.c.Workers), float64(r.c.PS)
			xs = append(xs, []float64{gb / w, 1, w / p, w, p})
			ys = append(ys, r.step)
			ws = append(ws, 1/r.step)
		}
		m = m.WithParams(famNNLS(t, xs, ys, ws))
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		var rel []float64
		for _, r := range test {
			rel = append(rel, math.Abs(m.StepsPerSecond(r.c)*r.step-1))
		}
		slices.Sort(rel)
		med, p90 := rel[len(rel)/2], rel[len(rel)*9/10]
		t.Logf("%-12s theta %.4g: fitted on %d configurations, %d held out (%d without a speed skipped): median |error| %.1f%%, 90th percentile %.1f%%",
			name, m.Params(), len(train), len(test), failed, 100*med, 100*p90)
		if med > 0.25 {
			t.Errorf("%s: median held-out error %.1f%%, want under 25%%", name, 100*med)
		}

		// SyncPS on the same split: for each CV on a grid, its step time is
		// linear in (Compute0, ComputePerSample, Transfer, Apply) with the
		// per-worker batch gb/w; keep the CV with the least training error.
		var sps SyncPS
		bestRes := math.Inf(1)
		for cv := 0.0; cv <= 1.0001; cv += 0.05 {
			xs = xs[:0]
			for _, r := range train {
				n, p := float64(r.c.Workers), float64(r.c.PS)
				f := 1 + cv*ExpectedMaxNormal(r.c.Workers)
				xs = append(xs, []float64{f, f * gb / n, 2 * max(n/p, 1), n / p})
			}
			th := famNNLS(t, xs, ys, ws)
			cand := SyncPS{Compute0: th[0], ComputePerSample: th[1], ComputeCV: cv, Transfer: th[2], Apply: th[3]}
			var res float64
			for _, r := range train {
				d := cand.StepTime(Config{Workers: r.c.Workers, PS: r.c.PS, Batch: gb / float64(r.c.Workers)})/r.step - 1
				res += d * d
			}
			if res < bestRes {
				bestRes, sps = res, cand
			}
		}
		rel = rel[:0]
		for _, r := range test {
			c := r.c
			c.Batch = gb / float64(c.Workers)
			rel = append(rel, math.Abs(sps.StepsPerSecond(c)*r.step-1))
		}
		slices.Sort(rel)
		t.Logf("%-12s SyncPS %.4g: median |error| %.1f%%, 90th percentile %.1f%%", name, sps.Params(), 100*rel[len(rel)/2], 100*rel[len(rel)*9/10])
	}
}
