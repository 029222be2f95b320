package main

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/traces"
)

// stalenessResult is the protocol's staleness-law test on one trace: fitted
// on the runs with at most 2 workers, and leaving one worker count out.
type stalenessResult struct {
	path   string
	runs   int
	small  fit.StalenessScore // fitted on workers <= 2
	smallE string             // why it could not be scored
	lowo   []fit.StalenessScore
	lowoE  []string
	all    fit.StalenessFit // on every run, for reference
}

// stalenessScores runs the efficiency protocol "across worker counts" on
// each async trace: the loss per update depends on the staleness, not on
// the link rate or the shards, so every run of a trace is one series.
func stalenessScores(paths []asyncInput) ([]stalenessResult, []string) {
	var out []stalenessResult
	var errs []string
	for _, a := range paths {
		p := a.path
		t, _, err := traces.LoadFS(a.fsys, p)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		runs, err := fit.StalenessRunsOf(t)
		if err != nil || len(runs) == 0 {
			errs = append(errs, fmt.Sprintf("%s: no loss curves (%v)", p, err))
			continue
		}
		r := stalenessResult{path: p, runs: len(runs)}
		r.all, _ = fit.FitStalenessLaw(runs, 200, 1, 0.9)
		var train, test []fit.StalenessRun
		counts := map[int]bool{}
		for _, x := range runs {
			counts[x.Workers] = true
			if x.Workers <= 2 {
				train = append(train, x)
			} else {
				test = append(test, x)
			}
		}
		if sc, err := fit.ScoreStalenessLaw(p, train, test); err != nil {
			r.smallE = strings.TrimPrefix(err.Error(), "fit: ")
		} else {
			r.small = sc
		}
		ws := make([]int, 0, len(counts))
		for w := range counts {
			ws = append(ws, w)
		}
		sort.Ints(ws)
		for _, w := range ws {
			var tr, te []fit.StalenessRun
			for _, x := range runs {
				if x.Workers == w {
					te = append(te, x)
				} else {
					tr = append(tr, x)
				}
			}
			sc, err := fit.ScoreStalenessLaw(workersWord(w)+" left out", tr, te)
			if err != nil {
				r.lowoE = append(r.lowoE, strings.TrimPrefix(err.Error(), "fit: "))
				continue
			}
			r.lowo = append(r.lowo, sc)
		}
		out = append(out, r)
	}
	return out, errs
}

// stalenessMarkdown writes the staleness-law section.
func (v *validation) stalenessMarkdown(b *bytes.Buffer) {
	fmt.Fprintf(b, "## Efficiency: the staleness law across worker counts (async traces)\n\n")
	fmt.Fprintf(b, "The protocol's test: the loss curves of the training runs fitted jointly (`fit.FitStalenessLaw`:\n")
	fmt.Fprintf(b, "one l(k) = 1/(b0 k + b1) + b2, its rate divided by 1 + lambda s at each run's measured mean\n")
	fmt.Fprintf(b, "staleness s), predicting the global updates each other run needs to reach the highest last loss\n")
	fmt.Fprintf(b, "of the training runs (a loss they all reached, so the curve is not extrapolated in loss); the\n")
	fmt.Fprintf(b, "measured count is the first evaluation at or below it. The loss per update depends on staleness,\n")
	fmt.Fprintf(b, "not on the link rate or the shards, so all runs of a trace form one series. \"lambda = 0\" is the\n")
	fmt.Fprintf(b, "same curve without a staleness cost (the throughput ratio alone). \"Inside the 90%% interval\" counts the\n")
	fmt.Fprintf(b, "measured counts inside the curve's interval of the updates to target: its bootstrap samples (200\n")
	fmt.Fprintf(b, "resamples of each training run's points) joined with lambda's ends. Each run's own loss trajectory\n")
	fmt.Fprintf(b, "lies off the curve by more: the training runs' scatter is the root mean square of log(measured /\n")
	fmt.Fprintf(b, "fitted) updates to the target over them (shown as e^rms - 1: the form's misfit at that loss and\n")
	fmt.Fprintf(b, "the runs' own scatter), and the last column counts the test runs inside the curve's interval\n")
	fmt.Fprintf(b, "widened by it, z times it joined to each end's distance in log space as an independent error\n")
	fmt.Fprintf(b, "(root of the sum of squares): one run's interval, the one predict gives (model.json's\n")
	fmt.Fprintf(b, "efficiency.run_scatter). The measured count is the first evaluation at or below the target, so\n")
	fmt.Fprintf(b, "it runs late by up to an evaluation's interval, more updates with more workers.\n\n")
	for _, r := range v.staleness {
		fmt.Fprintf(b, "**%s** (%d runs). On every run: %s.\n\n", r.path, r.runs, r.all)
		fmt.Fprintf(b, "| fitted on | lambda [90%%] | target loss | runs scored | MAPE (%%) | worst (%%) | MAPE with lambda = 0 (%%) | inside the 90%% interval | training runs' scatter (%%) | inside it widened by their scatter |\n|---|---|---|---|---|---|---|---|---|---|\n")
		row := func(what string, sc fit.StalenessScore) {
			fmt.Fprintf(b, "| %s | %.3g [%.3g, %.3g] | %.3g | %d | %.1f | %.1f | %.1f | %d of %d | %.1f | %d of %d |\n", what, sc.Fit.Lambda, sc.Fit.LambdaLo, sc.Fit.LambdaHi, sc.Target, len(sc.Measured), sc.MAPE, sc.Worst, sc.MAPENo0, sc.Covered, len(sc.Measured), 100*(math.Exp(sc.Scatter)-1), sc.CoveredRun, len(sc.Measured))
		}
		if r.smallE == "" {
			row("workers <= 2 (the protocol)", r.small)
		} else {
			fmt.Fprintf(b, "| workers <= 2 (the protocol) | not scored: %s | | | | | | | | | |\n", r.smallE)
		}
		var all, all0 []float64
		for _, sc := range r.lowo {
			row("all but "+sc.Name, sc)
			all = append(all, sc.MAPE)
			all0 = append(all0, sc.MAPENo0)
		}
		for _, e := range r.lowoE {
			fmt.Fprintf(b, "| not scored: %s | | | | | | | | | |\n", e)
		}
		fmt.Fprintln(b)
		if len(all) > 0 {
			m, m0 := stat.Mean(all, nil), stat.Mean(all0, nil)
			verdict := "the staleness cost improves on the throughput ratio alone"
			if m >= m0 {
				verdict = "the staleness cost does **not** improve on the throughput ratio alone here"
			}
			fmt.Fprintf(b, "Leaving one worker count out, mean MAPE %.1f%% (%.1f%% with lambda = 0): %s.", m, m0, verdict)
			if r.smallE == "" && r.small.Fit.LambdaLo == 0 {
				fmt.Fprintf(b, " Fitted on workers <= 2 (staleness 0 to about 1), lambda cannot be told from 0 (its interval holds 0).")
			}
			fmt.Fprintf(b, "\n\n")
		}
	}
	fmt.Fprintf(b, "Reading it: the target is the loss every training run reached, so with 1-worker runs among\n")
	fmt.Fprintf(b, "them (the shortest in updates) it lies early on the curve, where staleness costs little; and\n")
	fmt.Fprintf(b, "near the initial loss (a trace with 3 evaluations per run, as testdata/synthetic/async-ps) the\n")
	fmt.Fprintf(b, "inversion k(l) is steep, so a small error in the fitted loss is a large error in updates.\n\n")
	for _, e := range v.stalenessErr {
		fmt.Fprintf(b, "- not scored: %s\n", e)
	}
	if len(v.stalenessErr) > 0 {
		fmt.Fprintln(b)
	}
}
