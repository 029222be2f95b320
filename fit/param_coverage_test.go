package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// paramCase is a table family with true parameters and the n
// configurations it is measured at (one measurement each).
type paramCase struct {
	fam   string
	theta []float64
	cfgs  func(n int) []model.Config
}

// strongCfgs: strongWorkers(n), global batch 256.
func strongCfgs(n int) []model.Config {
	var out []model.Config
	for _, w := range strongWorkers(n) {
		out = append(out, model.Config{Workers: w, Batch: 256 / float64(w)})
	}
	return out
}

// weakCfgs: strongWorkers(n), 32 samples per worker.
func weakCfgs(n int) []model.Config {
	var out []model.Config
	for _, w := range strongWorkers(n) {
		out = append(out, model.Config{Workers: w, Batch: 32})
	}
	return out
}

// twoBatchCfgs: strongWorkers(n) at global batches of 256 and 1024 in
// turn (the all-reduce form's fixed time, per-sample cost and transfer are
// one direction under a single global batch: 2(w-1)/w = 2 - 2/w, and b =
// 256/w).
func twoBatchCfgs(n int) []model.Config {
	var out []model.Config
	for i, w := range strongWorkers(n) {
		g := 256.0
		if i%2 == 1 {
			g = 1024
		}
		out = append(out, model.Config{Workers: w, Batch: g / float64(w)})
	}
	return out
}

// psCfgs: n (workers, shards) pairs of a parameter-server table, global
// batch 256.
func psCfgs(n int) []model.Config {
	pairs := [][2]int{{1, 1}, {4, 2}, {16, 4}, {2, 1}, {8, 4}, {8, 2}, {4, 1}, {16, 2}, {2, 2}, {4, 4}, {8, 1}, {16, 1}}
	var out []model.Config
	for _, p := range pairs[:n] {
		out = append(out, model.Config{Workers: p[0], PS: p[1], Batch: 256 / float64(p[0])})
	}
	return out
}

// paramCases are the table families of strong-scaling (and, for the power
// law, weak-scaling) and parameter-server data.
var paramCases = []paramCase{
	{"amdahl", []float64{0.02, 1e-3}, strongCfgs},
	{"powerlaw", []float64{2000, 0.9}, weakCfgs},
	{"overhead", []float64{0.02, 1e-3, 0.004}, strongCfgs},
	{"shardlink", []float64{0.02, 1e-3, 0.004}, psCfgs},
	{"ernest", []float64{0.02, 1e-3, 0.003, 0.002}, strongCfgs},
	{"allreduce", []float64{0.05, 1e-3, 0.02, 5e-4}, twoBatchCfgs},
	{"shards", []float64{0.02, 1e-3, 0.01, 0.004}, psCfgs},
	{"optimus-sync", []float64{1e-3, 0.05, 0.01, 0.002, 0.005}, psCfgs},
}

func paramCaseOf(fam string) paramCase {
	for _, c := range paramCases {
		if c.fam == fam {
			return c
		}
	}
	panic(fam)
}

// paramIntervalCandidates are the ways to make a parameter's 90% interval
// from the bootstrap samples: the percentiles alone (the fit's before
// 2026-12-07), widened by the fit's factor in log space about the
// estimate (as the predictions are) and the fit's own (nil: tf.Lo, Hi,
// widened in the parameters' units, widenParams).
var paramIntervalCandidates = []struct {
	name string
	iv   func(tf *ThroughputFit, j int, level float64) (lo, hi float64)
}{
	{"percentile", func(tf *ThroughputFit, j int, level float64) (float64, float64) {
		lo, hi := paramIntervals(tf.Samples, len(tf.Theta), level)
		return lo[j], hi[j]
	}},
	{"log sqrt(n/(n-p))·t/z", func(tf *ThroughputFit, j int, level float64) (float64, float64) {
		lo, hi := paramIntervals(tf.Samples, len(tf.Theta), level)
		s := intervalScale(tf.scaleN, tf.scaleP, level)
		v := tf.Theta[j]
		l, h := math.Min(lo[j], v), math.Max(hi[j], v)
		if v > 0 {
			if l > 0 {
				l = v * math.Pow(l/v, s)
			}
			h = v * math.Pow(h/v, s)
		}
		return math.Max(l, tf.Family.Params[j].Lo), math.Min(h, tf.Family.Params[j].Hi)
	}},
	{"fit", nil},
}

// paramCoverage counts, over seeds simulated tables of c at n
// configurations and log-normal noise sigma (200 resamples each), the
// seeds whose 90% interval of each parameter held its true value, for
// each of paramIntervalCandidates; and the residual degrees of freedom
// seen.
func paramCoverage(t *testing.T, c paramCase, n int, sigma float64, seeds int) (hits [][]int, dof map[string]int) {
	const level = 0.9
	f := families[c.fam]
	cfgs := c.cfgs(n)
	hits = make([][]int, len(paramIntervalCandidates))
	for i := range hits {
		hits[i] = make([]int, len(c.theta))
	}
	dof = map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan uint64)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for seed := range next {
				rng := rand.New(rand.NewPCG(seed, 11))
				var pts []Point
				for _, cfg := range cfgs {
					x := f.Predict(c.theta, cfg) * math.Exp(sigma*rng.NormFloat64())
					pts = append(pts, Point{Config: cfg, StepsPerS: x, SamplesPerStep: cfg.Batch * float64(cfg.Workers)})
				}
				tf, _, err := FitThroughput(pts, c.fam, &Settings{Bootstrap: 200, Seed: seed, NoCV: true})
				if err != nil {
					t.Error(err)
					continue
				}
				mu.Lock()
				dof[strconv.FormatFloat(float64(n)-tf.scaleP, 'g', 3, 64)]++
				for k, cand := range paramIntervalCandidates {
					for j, v := range c.theta {
						lo, hi := tf.Lo[j], tf.Hi[j]
						if cand.iv != nil {
							lo, hi = cand.iv(tf, j, level)
						}
						if lo <= v && v <= hi {
							hits[k][j]++
						}
					}
				}
				mu.Unlock()
			}
		})
	}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		next <- seed
	}
	close(next)
	wg.Wait()
	return hits, dof
}

// TestParamCoverageStudy measures the coverage of the parameters' 90%
// intervals of each table family of paramCases at 3, 6 and 12
// configurations (those with fewer configurations than parameters left
// out) and 2%, 5% and 10% noise, SGDPLAN_COVERAGE_SEEDS seeds each (200
// unless set), and logs the table for docs/fitting.md (long: run with
// SGDPLAN_PARAM_COVERAGE=1; SGDPLAN_COVERAGE_FAMILIES=amdahl,overhead
// picks families).
func TestParamCoverageStudy(t *testing.T) {
	if os.Getenv("SGDPLAN_PARAM_COVERAGE") == "" {
		t.Skip("long: set SGDPLAN_PARAM_COVERAGE=1")
	}
	seeds := 200
	if s, err := strconv.Atoi(os.Getenv("SGDPLAN_COVERAGE_SEEDS")); err == nil && s > 0 {
		seeds = s
	}
	var fams []string
	for _, c := range paramCases {
		fams = append(fams, c.fam)
	}
	if s := os.Getenv("SGDPLAN_COVERAGE_FAMILIES"); s != "" {
		fams = strings.Split(s, ",")
	}
	ns := []int{3, 6, 12}
	if s := os.Getenv("SGDPLAN_COVERAGE_N"); s != "" {
		ns = nil
		for _, v := range strings.Split(s, ",") {
			k, _ := strconv.Atoi(v)
			ns = append(ns, k)
		}
	}
	sigmas := []float64{0.02, 0.05, 0.10}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d seeds; per candidate: mean over the parameters [lowest parameter-highest]\n| family | n | noise | n-p seen |", seeds)
	for _, c := range paramIntervalCandidates {
		b.WriteString(" " + c.name + " |")
	}
	b.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(paramIntervalCandidates)) + "\n")
	for _, fam := range fams {
		c := paramCaseOf(fam)
		for _, n := range ns {
			if n <= len(c.theta) {
				continue // no residual: an exact fit, no interval
			}
			for _, sigma := range sigmas {
				hits, dof := paramCoverage(t, c, n, sigma, seeds)
				fmt.Fprintf(&b, "| %s | %d | %.0f%% | %v |", fam, n, 100*sigma, dof)
				for k := range paramIntervalCandidates {
					m, lo, hi := meanMinMax(hits[k], seeds)
					fmt.Fprintf(&b, " %.1f [%.0f-%.0f] |", m, lo, hi)
				}
				b.WriteString("\n")
				t.Logf("%s n=%d sigma=%g done", fam, n, sigma)
			}
		}
	}
	t.Log(b.String())
}

// TestParamCoverage: over 400 seeds (5% noise) the parameters' 90%
// intervals hold each true parameter in at least 85% of them (340; the
// binomial standard error at 90% is 1.5 points, so 85 is 3.3 below it,
// and a coverage of 80% would reach 340 with odds of 6 in 1000) for
// amdahl's form on 3 and 6 configurations, the power law on 6 and the
// overhead form on 12: 362-382. Before 2026-12-07 (the percentiles not
// widened) they held 251-263, 315-333, 328-333 and 333-361.
func TestParamCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("many seeds")
	}
	const seeds, want = 400, 340
	for _, c := range []struct {
		fam string
		n   int
	}{{"amdahl", 3}, {"amdahl", 6}, {"powerlaw", 6}, {"overhead", 12}} {
		pc := paramCaseOf(c.fam)
		hits, _ := paramCoverage(t, pc, c.n, 0.05, seeds)
		fit, raw := hits[len(hits)-1], hits[0]
		t.Logf("%s on %d configurations: the 90%% intervals held %v of %d (the percentiles alone %v)", c.fam, c.n, fit, seeds, raw)
		for j, k := range fit {
			if k < want {
				t.Errorf("%s on %d configurations: %s inside its 90%% interval in %d of %d seeds, want %d or more", c.fam, c.n, families[c.fam].Params[j].Name, k, seeds, want)
			}
		}
	}
}
