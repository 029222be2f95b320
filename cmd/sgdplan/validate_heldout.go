package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/traces"
)

// heldOutResult is the choice rule checked on a dataset it was not tuned
// on: sgdplan against the peers' forms (the dataset's datasetResult, in
// v.datasets) and against the other choice rules fit.Settings offers.
type heldOutResult struct {
	reading fit.GavelReading
	series  int
	rules   []heldOutRule
}

// heldOutRule is one way of choosing the family, with its mean MAPE over
// the held-out series.
type heldOutRule struct {
	name, what string
	mean       float64
}

// choiceRules are the choice rules fit.Settings offers; the first is
// sgdplan's default.
var choiceRules = []struct {
	name, what string
	s          fit.Settings
}{
	{"loo + 1-SE (sgdplan)", "leave-one-configuration-out error, then the fewest parameters within one standard error of the best", fit.Settings{}},
	{"loo", "lowest leave-one-configuration-out error", fit.Settings{NoParsimony: true}},
	{"largest", "lowest error at the largest training worker count, fitted on the smaller ones", fit.Settings{CV: "largest"}},
	{"both", "mean of the two errors", fit.Settings{CV: "both"}},
	{"loo, no overhead family", "lowest leave-one-out error without the families added after looking at the protocol's data", fit.Settings{NoParsimony: true, Exclude: []string{"overhead", "overhead-async"}}},
}

// validateHeldOut scores gavel-osdi20 (fit.GavelSeries) with the
// validation's methods and with each choice rule; the dataset joins
// v.datasets (its table, the figure, the coverage of the intervals).
func (v *validation) validateHeldOut(dataDir string, ms []fit.Method) error {
	if _, err := os.Stat(filepath.Join(dataDir, fit.HeldOutDataset)); err != nil {
		return nil
	}
	rows, _, err := traces.LoadDataset(fit.HeldOutDataset, dataDir)
	if err != nil {
		return badInput(err)
	}
	ss, reading, err := fit.GavelSeries(rows)
	if err != nil {
		return withCode(exitFailure, err)
	}
	if len(ss) == 0 {
		return nil
	}
	d := datasetResult{name: fit.HeldOutDataset, series: ss}
	d.note = heldOutNote(reading)
	h := &heldOutResult{reading: reading, series: len(ss)}
	sums := make([]float64, len(choiceRules))
	for _, s := range ss {
		d.scores = append(d.scores, fit.ScoreSeries(s, ms))
		d.coverage = append(d.coverage, fit.CoverageAuto(s, fit.Settings{Bootstrap: coverageResamples}, coverageLevel))
		for i, r := range choiceRules {
			sums[i] += fit.ScoreSeries(s, []fit.Method{fit.AutoMethodCV(r.name, r.s)})[0].MAPE
		}
	}
	for i, r := range choiceRules {
		h.rules = append(h.rules, heldOutRule{name: r.name, what: r.what, mean: sums[i] / float64(len(ss))})
	}
	d.summarize(len(ms))
	v.datasets = append(v.datasets, d)
	v.heldOut = h
	return nil
}

func heldOutNote(r fit.GavelReading) string {
	return fmt.Sprintf("Not part of the protocol: a check of sgdplan's choice rule on data it was not tuned on (see\n"+
		"\"The choice rule on data it was not tuned on\" below). Series = (model, GPU type) of Gavel's consolidated jobs\n"+
		"(all GPUs on one server), batch sizes pooled; train on 1, 2 and 4 GPUs, predict 8. Gavel's steps/s of a\n"+
		"multi-GPU job is read as the sum of its workers' steps (the job's synchronous steps/s times the GPUs): read\n"+
		"as the job's own steps, %d of the %d (job, GPU type) pairs measured at 1 and 8 GPUs would process more than\n"+
		"8 times the 1-GPU samples/s at 8 GPUs; read as the sum, %d would. The 8-GPU errors are the same ratios\n"+
		"under either reading; the shapes the forms are fitted to are not.", r.SuperJob, r.Pairs, r.SuperSum)
}

// heldOutMarkdown writes the choice rules' scores on the held-out dataset.
func (v *validation) heldOutMarkdown(b *bytes.Buffer) {
	h := v.heldOut
	if h == nil {
		return
	}
	var d *datasetResult
	for i := range v.datasets {
		if v.datasets[i].name == fit.HeldOutDataset {
			d = &v.datasets[i]
		}
	}
	fmt.Fprintf(b, "## The choice rule on data it was not tuned on\n\n")
	fmt.Fprintf(b, "The one-standard-error rule and the `overhead` family were added after looking at the\n")
	fmt.Fprintf(b, "protocol's datasets (\"Selection on the test sets\" above). %s was not looked at for\n", fit.HeldOutDataset)
	fmt.Fprintf(b, "them: its %d series (section %s above) check whether they help on data they were not chosen on.\n", h.series, fit.HeldOutDataset)
	fmt.Fprintf(b, "Mean MAPE (%%) at 8 GPUs, fitted on 1-4 GPUs, for each way `--family auto` can choose\n")
	fmt.Fprintf(b, "(fit.Settings) and for the peers' forms:\n\n")
	fmt.Fprintf(b, "| choice | how | mean MAPE |\n|---|---|---|\n")
	for _, r := range h.rules {
		fmt.Fprintf(b, "| %s | %s | %s |\n", r.name, r.what, pct(r.mean))
	}
	best, bestName := 0.0, ""
	for m := 1; m < len(v.methods); m++ {
		fmt.Fprintf(b, "| %s | the peer's form (or baseline) on every series | %s |\n", v.methods[m], pct(d.mean[m]))
		if bestName == "" || d.mean[m] < best {
			best, bestName = d.mean[m], v.methods[m]
		}
	}
	verdict := "lower than"
	if !(d.mean[0] < best) {
		verdict = "not lower than"
	}
	lowest := h.rules[0]
	for _, r := range h.rules[1:] {
		if r.mean < lowest.mean {
			lowest = r
		}
	}
	fmt.Fprintf(b, "\nsgdplan's rule scores %s%%, %s the best of the peers' forms and baselines (%s %s%%);\n", pct(d.mean[0]), verdict, bestName, pct(best))
	if lowest.name == h.rules[0].name {
		fmt.Fprintf(b, "no other choice rule scores lower. ")
	} else {
		fmt.Fprintf(b, "the rule %q scores lower (%s%%). ", lowest.name, pct(lowest.mean))
	}
	fmt.Fprintf(b, "One dataset of %d series at a single extrapolation step (4 to 8 GPUs,\n", h.series)
	fmt.Fprintf(b, "within one server) is weak evidence either way, and says nothing about crossing servers, where\n")
	fmt.Fprintf(b, "the protocol's misses are.\n\n")
}
