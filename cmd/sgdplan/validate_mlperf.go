package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/traces"
)

// The batch-size part of the protocol on MLPerf Training: epochs to the
// benchmark's target per global batch (fit.MLPerfBatchTables), the
// gradient-noise-scale law fitted on the smallest half of the batches
// (fit.ScoreBatchTable).

// mlperfDataset is the folder of the MLPerf Training tables under --data.
const mlperfDataset = "mlperf-training"

// mlperfRounds are the runs tables read, in order.
var mlperfRounds = []string{"v2.0", "v0.7"}

// mlperfNotes flags tables whose numbers need a word of warning, by
// "round benchmark".
var mlperfNotes = map[string]string{
	"v0.7 transformer": "its global_batch_size appears to mix units: Google's submissions log small batches (sentences, it seems), the other submitters large ones (tokens), so its batch axis is not one quantity",
}

// mlperfScore is one scored table.
type mlperfScore struct {
	table fit.MLPerfTable
	score fit.EpochBatchScore
}

// mlperfResult is the MLPerf section's content; found is false when the
// data folder has no mlperf-training tables.
type mlperfResult struct {
	found   bool
	files   []string // the runs tables read
	runs    int      // rows read
	scores  []mlperfScore
	skipped []string // tables not scored, with why
}

// mlperfBatches reads the runs tables of dir (the mlperf-training folder)
// that are present and scores every table of epochs to target. An absent
// folder or absent tables are not an error (found false); bad content is.
func mlperfBatches(dir string) (*mlperfResult, error) {
	res := &mlperfResult{}
	var runs []traces.MLPerfRun
	for _, round := range mlperfRounds {
		name := "mlperf_training_" + round + "_runs.csv"
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		rs, err := traces.ReadMLPerfRuns(path)
		if err != nil {
			return nil, err
		}
		res.found = true
		res.files = append(res.files, name)
		res.runs += len(rs)
		runs = append(runs, rs...)
	}
	for _, t := range fit.MLPerfBatchTables(runs) {
		s, err := fit.ScoreBatchTable(t.Name(), t.Batches, t.Epochs)
		if err != nil {
			res.skipped = append(res.skipped, strings.TrimPrefix(err.Error(), "fit: "))
			continue
		}
		res.scores = append(res.scores, mlperfScore{table: t, score: s})
	}
	return res, nil
}

// means are the mean over the scored tables of the law's MAPE, the
// baseline's MAPE, the law's worst and the baseline's worst (%).
func (r *mlperfResult) means() (law, constant, worst, constWorst float64) {
	n := float64(len(r.scores))
	for _, s := range r.scores {
		law += s.score.MAPE / n
		constant += s.score.ConstMAPE / n
		worst += s.score.Worst / n
		constWorst += s.score.ConstWorst / n
	}
	return
}

// mlperfMarkdown writes the section "Efficiency: batch size (MLPerf
// Training, epochs to target)".
func (v *validation) mlperfMarkdown(b *bytes.Buffer) {
	fmt.Fprintf(b, "## Efficiency: batch size (MLPerf Training, epochs to target)\n\n")
	r := v.mlperf
	if r == nil || !r.found {
		fmt.Fprintf(b, "%s was not found under the data folder (expected %s/mlperf_training_<round>_runs.csv): not scored.\n\n", mlperfDataset, mlperfDataset)
		return
	}
	fmt.Fprintf(b, "The protocol's batch-size test on the official MLPerf Training results\n(%s, %d runs): per round\n", strings.Join(r.files, ", "), r.runs)
	fmt.Fprintf(b, "and benchmark, the successful closed-division runs give the median epochs to the benchmark's target at\n")
	fmt.Fprintf(b, "each global batch B. The steps to target are epochs x dataset size / B, so the law\n")
	fmt.Fprintf(b, "S(B) = S(B0) (1 + Bnoise/B)/(1 + Bnoise/B0) is fitted on epochs/B of the smallest half of the batches\n")
	fmt.Fprintf(b, "and predicts the epochs of the larger half. Baseline **constant epochs**: the epochs of the largest\n")
	fmt.Fprintf(b, "training batch kept for every larger batch (perfect scaling: the steps fall as 1/B).\n\n")
	excluded := make([]string, 0, len(fit.MLPerfExcluded))
	for name, why := range fit.MLPerfExcluded {
		excluded = append(excluded, fmt.Sprintf("%s (%s)", name, why))
	}
	sort.Strings(excluded)
	fmt.Fprintf(b, "Left out: %s.\n\n", strings.Join(excluded, "; "))
	if len(r.scores) > 0 {
		fmt.Fprintf(b, "| round | benchmark | fitted on B | predicted B | runs pooled | fitted Bnoise | MAPE law (%%) | MAPE constant epochs (%%) | worst law (%%) | worst constant (%%) |\n")
		fmt.Fprintf(b, "|---|---|---|---|---|---|---|---|---|---|\n")
		for _, s := range r.scores {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %d | %.4g | %s | %s | %s | %s |\n", s.table.Round, s.table.Benchmark,
				joinF(s.score.Train), joinF(s.score.Test), s.table.Pooled(), s.score.Noise,
				pct(s.score.MAPE), pct(s.score.ConstMAPE), pct(s.score.Worst), pct(s.score.ConstWorst))
		}
		law, constant, worst, constWorst := r.means()
		fmt.Fprintf(b, "| **mean** | | | | | | **%s** | **%s** | %s | %s |\n\n", pct(law), pct(constant), pct(worst), pct(constWorst))
		// Within 0.05 points the two round to the same printed MAPE: a tie.
		better, worse, atBound := 0, 0, 0
		for _, s := range r.scores {
			switch d := s.score.MAPE - s.score.ConstMAPE; {
			case d < -0.05:
				better++
			case d > 0.05:
				worse++
			}
			if s.score.Noise >= 0.999e9 {
				atBound++
			}
		}
		fmt.Fprintf(b, "Of %d tables, the law beats constant epochs on %d, loses on %d and ties on %d (MAPE within\n0.05 points). ",
			len(r.scores), better, worse, len(r.scores)-better-worse)
		if atBound > 0 {
			fmt.Fprintf(b, "On %d the fitted Bnoise sits on its upper bound (1e+09): the epochs do not grow over\nthe ", atBound)
			fmt.Fprintf(b, "fitted half, so the law predicts the same epochs at every larger batch, at its fitted level (the\n")
			fmt.Fprintf(b, "baseline keeps the largest training batch's): it cannot foresee a loss of efficiency it has not seen.")
		}
		fmt.Fprintf(b, "\n\nMedian epochs to target on the predicted batches (runs pooled at each):\n\n")
		fmt.Fprintf(b, "| round | benchmark | B | runs | measured | law | constant epochs |\n|---|---|---|---|---|---|---|\n")
		for _, s := range r.scores {
			for i, bt := range s.score.Test {
				fmt.Fprintf(b, "| %s | %s | %g | %d | %.4g | %.4g | %.4g |\n", s.table.Round, s.table.Benchmark, bt,
					runsAt(s.table, bt), s.score.Measured[i], s.score.Est[i], s.score.Constant[i])
			}
		}
		fmt.Fprintln(b)
	}
	if len(r.skipped) > 0 {
		fmt.Fprintf(b, "Not scored: %s.\n\n", strings.Join(r.skipped, "; "))
	}
	var notes []string
	for _, s := range r.scores {
		if n, ok := mlperfNotes[s.table.Name()]; ok {
			notes = append(notes, fmt.Sprintf("%s: %s", s.table.Name(), n))
		}
	}
	fmt.Fprintf(b, "Caveats: hyper-parameters (learning rate, warm-up, schedule) and large-batch optimizers such as\n")
	fmt.Fprintf(b, "LARS and LAMB are tuned per submission, and each table pools submitters, systems and software stacks,\n")
	fmt.Fprintf(b, "so the epochs measure tuned recipes, not one training recipe at different batches. Each point is the median over\n")
	fmt.Fprintf(b, "the runs at that batch (submissions repeat runs to average out seed noise), and the epochs are counted at the\n")
	fmt.Fprintf(b, "evaluations each benchmark schedules, a coarse grid on the benchmarks with few epochs.")
	if len(notes) > 0 {
		fmt.Fprintf(b, "\n%s.", strings.Join(notes, "; "))
	}
	fmt.Fprintf(b, "\n\n")
}

// runsAt is the number of runs t pooled at global batch x (0 when t has
// no such batch).
func runsAt(t fit.MLPerfTable, x float64) int {
	for i, y := range t.Batches {
		if y == x {
			return t.Runs[i]
		}
	}
	return 0
}
