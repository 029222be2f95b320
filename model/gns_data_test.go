package model

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

// TestGNSPolluxValidation checks the gradient-noise-scale steps law on the
// Pollux validation curves (each job trained to completion at 5-8 fixed
// total batch sizes, AdaScale learning rates). The noise scale comes only
// from the gradient statistics of the smallest-batch run (median of
// grad_var/grad_sqr over its epochs up to the target, times that batch:
// AdaptDL records the variance at the initial batch); the measured ratios
// come from the other runs: steps to reach 95% of the worst final metric at
// batch B over steps at the smallest batch. The GNS prediction is compared
// with perfect scaling (steps ~ 1/B) by the mean |log(predicted/measured)|.
func TestGNSPolluxValidation(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the validation curves")
	}
	dir := filepath.Join(testenv.DataDir(t), "pollux-osdi21", "traces")
	increasing := map[string]bool{"bert": true, "cifar10": true, "imagenet": true, "ncf": true, "deepspeech2": false, "yolov3": false}
	// Where the noise scale must beat perfect scaling (the others are logged):
	// on bert (2 epochs) and yolov3 it does not (docs/models.md).
	mustBeat := map[string]bool{"cifar10": true, "imagenet": true, "deepspeech2": true}
	re := regexp.MustCompile(`validation-(\d+)\.csv$`)
	type epoch struct{ iter, metric, sqr, vr float64 }
	for _, job := range []string{"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"} {
		inc := increasing[job]
		ents, err := os.ReadDir(filepath.Join(dir, job))
		if err != nil {
			t.Skip(err)
		}
		runs := map[float64][]epoch{}
		for _, e := range ents {
			m := re.FindStringSubmatch(e.Name())
			if m == nil {
				continue
			}
			b, _ := strconv.ParseFloat(m[1], 64)
			for _, r := range famReadCSV(t, filepath.Join(dir, job, e.Name())) {
				runs[b] = append(runs[b], epoch{famFloat(t, r["iteration"]), famFloat(t, r["metric"]), famFloat(t, r["grad_sqr"]), famFloat(t, r["grad_var"])})
			}
		}
		var batches []float64
		worst := math.Inf(1)
		if !inc {
			worst = math.Inf(-1)
		}
		for b, run := range runs {
			batches = append(batches, b)
			best := run[0].metric
			for _, e := range run {
				if inc {
					best = max(best, e.metric)
				} else {
					best = min(best, e.metric)
				}
			}
			if inc {
				worst = min(worst, best)
			} else {
				worst = max(worst, best)
			}
		}
		slices.Sort(batches)
		target := worst * 0.95
		if !inc {
			target = worst / 0.95
		}
		stepsTo := func(run []epoch) float64 {
			for _, e := range run {
				if (inc && e.metric >= target) || (!inc && e.metric <= target) {
					return e.iter
				}
			}
			return math.NaN()
		}
		b0 := batches[0]
		s0 := stepsTo(runs[b0])
		var phis, phisAll []float64
		for _, e := range runs[b0] {
			if e.sqr <= 0 || e.vr <= 0 {
				continue
			}
			phi, err := NoiseScale(e.sqr, e.vr, b0)
			if err != nil {
				t.Fatal(err)
			}
			phisAll = append(phisAll, phi)
			if e.iter <= s0 {
				phis = append(phis, phi)
			}
		}
		median := func(x []float64) float64 {
			x = slices.Clone(x)
			slices.Sort(x)
			return x[len(x)/2]
		}
		g := GNS{Noise: median(phis), RefBatch: b0}
		gAll := GNS{Noise: median(phisAll), RefBatch: b0}
		gSample := GNS{Noise: median(phis) / b0, RefBatch: b0} // the per-sample reading
		var errG, errAll, errSample, errLin float64
		n := 0
		for _, b := range batches[1:] {
			s := stepsTo(runs[b])
			if math.IsNaN(s) {
				continue
			}
			meas := s / s0
			errG += math.Abs(math.Log(g.StepsRatio(b) / meas))
			errAll += math.Abs(math.Log(gAll.StepsRatio(b) / meas))
			errSample += math.Abs(math.Log(gSample.StepsRatio(b) / meas))
			errLin += math.Abs(math.Log(b0 / b / meas))
			n++
		}
		nf := float64(n)
		errG, errAll, errSample, errLin = errG/nf, errAll/nf, errSample/nf, errLin/nf
		t.Logf("%-11s B0 %-4g noise %9.4g samples, %d batches: mean |log error| GNS %.3f (all-epoch median %.3f, per-sample reading %.3f), perfect scaling %.3f",
			job, b0, g.Noise, n, errG, errAll, errSample, errLin)
		if mustBeat[job] {
			if errG >= errLin {
				t.Errorf("%s: GNS error %.3f not below perfect scaling %.3f", job, errG, errLin)
			}
			if errG >= errSample {
				t.Errorf("%s: initial-batch reading %.3f not below per-sample reading %.3f", job, errG, errSample)
			}
			if errG > 0.25 {
				t.Errorf("%s: GNS mean |log error| %.3f, want under 0.25", job, errG)
			}
		}
	}
}
