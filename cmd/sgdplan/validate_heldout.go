package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/traces"
)

// heldOutResult is the choice rule checked on a dataset it was not tuned
// on: sgdplan against the peers' forms (the two datasetResults in
// v.datasets: within one server, and spread over servers) and against the
// other choice rules fit.Settings offers.
type heldOutResult struct {
	reading fit.GavelReading
	series  [2]int // within one server, spread
	rules   []heldOutRule
}

// heldOutRule is one way of choosing the family, with its mean MAPE over
// the held-out series within one server and spread over servers.
type heldOutRule struct {
	name, what string
	mean       [2]float64
}

// heldOutNames are the names of the two held-out datasetResults.
var heldOutNames = [2]string{fit.HeldOutDataset, fit.HeldOutDataset + ", spread"}

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
	{"loo, no post-hoc families", "lowest leave-one-out error without the families added after looking at the protocol's data (overhead, shardlink)", fit.Settings{NoParsimony: true, Exclude: postHocFamilies}},
}

// validateHeldOut scores gavel-osdi20 (fit.GavelSeries, within one server
// and spread over servers) with the validation's methods and with each
// choice rule; both join v.datasets (their tables, the figure, the
// coverage of the intervals).
func (v *validation) validateHeldOut(dataDir string, ms []fit.Method) error {
	if _, err := os.Stat(filepath.Join(dataDir, fit.HeldOutDataset)); err != nil {
		return nil
	}
	rows, _, err := traces.LoadDataset(fit.HeldOutDataset, dataDir)
	if err != nil {
		return badInput(err)
	}
	h := &heldOutResult{}
	for _, r := range choiceRules {
		h.rules = append(h.rules, heldOutRule{name: r.name, what: r.what})
	}
	for k, spread := range []bool{false, true} {
		ss, reading, err := fit.GavelSeries(rows, spread)
		if err != nil {
			return withCode(exitFailure, err)
		}
		if len(ss) == 0 {
			continue
		}
		h.reading = reading
		h.series[k] = len(ss)
		d := datasetResult{name: heldOutNames[k], series: ss, short: "gavel"}
		if spread {
			d.short = "gavel spread"
		}
		d.note = heldOutNote(reading, spread)
		for _, s := range ss {
			d.scores = append(d.scores, fit.ScoreSeries(s, ms))
			d.coverage = append(d.coverage, fit.CoverageAuto(s, fit.Settings{Bootstrap: coverageResamples}, coverageLevel))
			for i, r := range choiceRules {
				h.rules[i].mean[k] += fit.ScoreSeries(s, []fit.Method{fit.AutoMethodCV(r.name, r.s)})[0].MAPE / float64(len(ss))
			}
		}
		d.summarize(len(ms))
		v.datasets = append(v.datasets, d)
	}
	if h.series[0] > 0 || h.series[1] > 0 {
		v.heldOut = h
	}
	return nil
}

func heldOutNote(r fit.GavelReading, spread bool) string {
	if spread {
		return "Not part of the protocol, and the same training as the section above (consolidated jobs on 1, 2 and 4\n" +
			"GPUs), predicting instead the jobs of 2, 4 and 8 GPUs spread over servers (Gavel's \"unconsolidated\"\n" +
			"rows; how many servers is not recorded, so the Pollux form, the only one with a term for them, takes\n" +
			"one GPU per server): the step across servers that the protocol's misses are about, on data nobody\n" +
			"tuned anything on."
	}
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
	var ds [2]*datasetResult
	for i := range v.datasets {
		for k, name := range heldOutNames {
			if v.datasets[i].name == name {
				ds[k] = &v.datasets[i]
			}
		}
	}
	fmt.Fprintf(b, "## The choice rule on data it was not tuned on\n\n")
	fmt.Fprintf(b, "The one-standard-error rule and the `overhead` family were added after looking at the\n")
	fmt.Fprintf(b, "protocol's datasets (\"Selection on the test sets\" above; `shardlink` too, but it needs PS\n")
	fmt.Fprintf(b, "data and this dataset has none). %s was not looked at for\n", fit.HeldOutDataset)
	fmt.Fprintf(b, "them: its series (sections %s and %s above) check whether they help on data they were\n", heldOutNames[0], heldOutNames[1])
	fmt.Fprintf(b, "not chosen on. Mean MAPE (%%), fitted on 1-4 GPUs of one server, for each way `--family auto` can\n")
	fmt.Fprintf(b, "choose (fit.Settings) and for the peers' forms:\n\n")
	fmt.Fprintf(b, "| choice | how | 8 GPUs, one server (%d series) | 2-8 GPUs spread over servers (%d series) |\n|---|---|---|---|\n", h.series[0], h.series[1])
	mean := func(k, m int) string {
		if ds[k] == nil {
			return "n/a"
		}
		return pct(ds[k].mean[m])
	}
	for _, r := range h.rules {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", r.name, r.what, pct(r.mean[0]), pct(r.mean[1]))
	}
	for m := 1; m < len(v.methods); m++ {
		fmt.Fprintf(b, "| %s | the peer's form (or baseline) on every series | %s | %s |\n", v.methods[m], mean(0, m), mean(1, m))
	}
	fmt.Fprintln(b)
	for k, where := range []string{"at 8 GPUs on one server", "spread over servers"} {
		d := ds[k]
		if d == nil {
			continue
		}
		best, bestName := 0.0, ""
		for m := 1; m < len(v.methods); m++ {
			if bestName == "" || d.mean[m] < best {
				best, bestName = d.mean[m], v.methods[m]
			}
		}
		verdict := "lower than"
		if !(d.mean[0] < best) {
			verdict = "**not** lower than"
		}
		lowest := h.rules[0]
		for _, r := range h.rules[1:] {
			if r.mean[k] < lowest.mean[k] {
				lowest = r
			}
		}
		fmt.Fprintf(b, "- %s: sgdplan's rule scores %s%%, %s the best of the peers' forms and baselines (%s %s%%); ", where, pct(d.mean[0]), verdict, bestName, pct(best))
		if lowest.name == h.rules[0].name {
			fmt.Fprintf(b, "no other choice rule scores lower.\n")
		} else {
			fmt.Fprintf(b, "the rule %q scores lower (%s%%).\n", lowest.name, pct(lowest.mean[k]))
		}
	}
	fmt.Fprintf(b, "\nOne dataset at one extrapolation step (4 to 8 GPUs) is weak evidence either way, and what\n")
	fmt.Fprintf(b, "spreading over servers costs is in no measurement of one server, for any form: the spread\n")
	fmt.Fprintf(b, "column scores how each form's in-server shape happens to carry over.\n\n")
}

// heldOutSummary is the summary's line on the held-out dataset ("" when it
// was not scored): sgdplan against the best peer's form or baseline, within
// one server and spread over servers.
func (v *validation) heldOutSummary() string {
	if v.heldOut == nil {
		return ""
	}
	var parts []string
	for k, where := range []string{"8 GPUs on one server", "2-8 GPUs spread over servers"} {
		for _, d := range v.datasets {
			if d.name != heldOutNames[k] {
				continue
			}
			best, bestName := 0.0, ""
			for m := 1; m < len(v.methods); m++ {
				if bestName == "" || d.mean[m] < best {
					best, bestName = d.mean[m], v.methods[m]
				}
			}
			parts = append(parts, fmt.Sprintf("%s: sgdplan %s%%, best peer or baseline %s %s%%", where, pct(d.mean[0]), bestName, pct(best)))
		}
	}
	return fmt.Sprintf("**Held out from the choice rule** (%s, trained on 1-4 GPUs of one server; section \"The choice rule on data it was not tuned on\"): %s.", fit.HeldOutDataset, strings.Join(parts, "; "))
}
