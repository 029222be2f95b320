package fit

import (
	"math"
	"sort"
	"strings"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// The batch-size part of the validation protocol on MLPerf Training
// (../shared/data/mlperf-training): the epochs to the benchmark's target
// measured at each global batch, the gradient-noise-scale law fitted on the
// smallest half of the batches, the larger half predicted.

// MLPerfExcluded are the benchmarks whose final_epoch_num is not epochs to
// the target, with the reason (the dataset's README): they are never
// tabulated.
var MLPerfExcluded = map[string]string{
	"bert": "its final_epoch_num holds training samples (v0.7: submitter-dependent), not epochs",
}

// MLPerfTable is one benchmark of one MLPerf round: the median epochs to the
// target at each distinct global batch over its successful closed-division
// runs.
type MLPerfTable struct {
	Round, Benchmark string
	Batches          []float64 // distinct global batches, ascending
	Epochs           []float64 // median epochs to target at each batch
	Runs             []int     // runs pooled into each median
}

// Name is "round benchmark".
func (t MLPerfTable) Name() string { return t.Round + " " + t.Benchmark }

// Pooled is the number of runs behind the whole table.
func (t MLPerfTable) Pooled() int {
	n := 0
	for _, r := range t.Runs {
		n += r
	}
	return n
}

// MLPerfBatchTables groups runs by (round, benchmark), keeping the runs of
// the closed division (any case) with status success and a finite positive
// EpochsToTarget, and takes the median epochs per global batch. Benchmarks
// in MLPerfExcluded are left out. Tables come in the order their round first
// appears, benchmarks sorted within a round; a table may have fewer than the
// 4 batches ScoreBatchTable needs.
func MLPerfBatchTables(runs []traces.MLPerfRun) []MLPerfTable {
	type key struct{ round, bench string }
	epochs := map[key]map[int][]float64{}
	var rounds []string
	seenRound := map[string]bool{}
	for _, r := range runs {
		if _, ex := MLPerfExcluded[r.Benchmark]; ex {
			continue
		}
		if !strings.EqualFold(r.Division, "closed") || !strings.EqualFold(r.Status, "success") ||
			!(r.EpochsToTarget > 0) || math.IsInf(r.EpochsToTarget, 0) || r.GlobalBatch <= 0 {
			continue
		}
		if !seenRound[r.Round] {
			seenRound[r.Round] = true
			rounds = append(rounds, r.Round)
		}
		k := key{r.Round, r.Benchmark}
		if epochs[k] == nil {
			epochs[k] = map[int][]float64{}
		}
		epochs[k][r.GlobalBatch] = append(epochs[k][r.GlobalBatch], r.EpochsToTarget)
	}
	var out []MLPerfTable
	for _, round := range rounds {
		var benches []string
		for k := range epochs {
			if k.round == round {
				benches = append(benches, k.bench)
			}
		}
		sort.Strings(benches)
		for _, b := range benches {
			byBatch := epochs[key{round, b}]
			batches := make([]int, 0, len(byBatch))
			for gb := range byBatch {
				batches = append(batches, gb)
			}
			sort.Ints(batches)
			t := MLPerfTable{Round: round, Benchmark: b}
			for _, gb := range batches {
				t.Batches = append(t.Batches, float64(gb))
				t.Epochs = append(t.Epochs, Percentile(byBatch[gb], 0.5)) // the median
				t.Runs = append(t.Runs, len(byBatch[gb]))
			}
			out = append(out, t)
		}
	}
	return out
}

// EpochBatchScore is the batch-size part of the protocol on a table of
// epochs to target per global batch.
type EpochBatchScore struct {
	Name        string
	Train, Test []float64 // global batches, ascending
	Noise       float64   // fitted gradient noise scale, samples
	// Measured, Est and Constant are the epochs to target on the Test
	// batches: measured, predicted by the law, and the constant-epochs
	// baseline (the epochs at the largest training batch: perfect scaling).
	Measured, Est, Constant []float64
	MAPE, Worst             float64 // the law's errors on Test, %
	ConstMAPE, ConstWorst   float64 // the baseline's, %
}

// ScoreBatchTable fits the gradient-noise-scale law S(B) = S(B0) (1 +
// Noise/B)/(1 + Noise/B0) to the steps to target of the smallest half of
// the batch sizes and predicts the epochs to target of the larger half.
// The steps to target are epochs x dataset size / B, so the law is fitted on
// epochs/B (the dataset size cancels) and its predictions multiplied back by
// B. Beside it, the constant-epochs baseline keeps the epochs of the largest
// training batch. It needs 4 or more distinct positive batches, each with
// finite positive epochs.
func ScoreBatchTable(name string, batches, epochs []float64) (EpochBatchScore, error) {
	if len(batches) != len(epochs) {
		return EpochBatchScore{}, errorf("%s: %d batch sizes, %d epoch counts", name, len(batches), len(epochs))
	}
	idx := make([]int, len(batches))
	for i := range idx {
		idx[i] = i
		b, e := batches[i], epochs[i]
		if !(b > 0) || math.IsInf(b, 0) {
			return EpochBatchScore{}, errorf("%s: global batch %g, want positive and finite", name, b)
		}
		if !(e > 0) || math.IsInf(e, 0) {
			return EpochBatchScore{}, errorf("%s: %g epochs at batch %g, want positive and finite", name, e, b)
		}
	}
	sort.SliceStable(idx, func(i, j int) bool { return batches[idx[i]] < batches[idx[j]] })
	for k := 1; k < len(idx); k++ {
		if batches[idx[k]] == batches[idx[k-1]] {
			return EpochBatchScore{}, errorf("%s: batch %g appears twice, want one epoch count per batch", name, batches[idx[k]])
		}
	}
	if len(idx) < 4 {
		return EpochBatchScore{}, errorf("%s: %d batch sizes, want 4 or more", name, len(idx))
	}
	half := len(idx) / 2
	trainB := make([]float64, half)
	trainS := make([]float64, half)
	for k, i := range idx[:half] {
		trainB[k] = batches[i]
		trainS[k] = epochs[i] / batches[i]
	}
	s0, noise, _, err := gnsLaw(trainB, trainS, trainB[0])
	if err != nil {
		return EpochBatchScore{}, errorf("%s: %v", name, strings.TrimPrefix(err.Error(), "fit: "))
	}
	law := model.GNS{Noise: noise, RefBatch: trainB[0]}
	constant := epochs[idx[half-1]]
	s := EpochBatchScore{Name: name, Train: trainB, Noise: noise}
	var sum, constSum float64
	for _, i := range idx[half:] {
		b, meas := batches[i], epochs[i]
		est := s0 * law.StepsRatio(b) * b
		s.Test = append(s.Test, b)
		s.Measured = append(s.Measured, meas)
		s.Est = append(s.Est, est)
		s.Constant = append(s.Constant, constant)
		e := 100 * math.Abs(est-meas) / meas
		ce := 100 * math.Abs(constant-meas) / meas
		sum += e
		constSum += ce
		s.Worst = math.Max(s.Worst, e)
		s.ConstWorst = math.Max(s.ConstWorst, ce)
	}
	s.MAPE = sum / float64(len(s.Test))
	s.ConstMAPE = constSum / float64(len(s.Test))
	return s, nil
}
