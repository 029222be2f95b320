package traces

import (
	"io"
	"math"
	"strconv"
)

// MLPerfRun is one row of an MLPerf Training runs table
// (../shared/data/mlperf-training/mlperf_training_<round>_runs.csv): one
// official result file of a submission.
type MLPerfRun struct {
	Round, Benchmark, Submitter, System string
	Division                            string // closed or open, as logged (v0.7 has "Closed" and empty fields)
	Status                              string // success or aborted (sometimes "abort")
	GlobalBatch                         int    // global mini-batch, samples
	// EpochsToTarget is final_epoch_num, the epoch of the last evaluation
	// (epochs to the target for most benchmarks; samples for bert, a
	// fraction for dlrm, per the dataset's README); NaN when the field is
	// empty or not a finite number.
	EpochsToTarget float64
}

// mlperfColumns are the columns ReadMLPerfRuns needs.
var mlperfColumns = []string{"round", "submitter", "system", "benchmark", "division", "global_batch_size", "status", "final_epoch_num"}

// ReadMLPerfRuns reads an MLPerf Training runs table from path. Bad content
// is a *ParseError naming the file, line and column: an empty benchmark, or
// a global_batch_size that is not a positive integer. An empty or
// unparseable final_epoch_num is not an error (EpochsToTarget NaN).
func ReadMLPerfRuns(path string) ([]MLPerfRun, error) {
	t, f, err := pubOpenFile(path, mlperfColumns...)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readMLPerf(t)
}

// ReadMLPerfRunsFrom is ReadMLPerfRuns on r; file names the input in errors.
func ReadMLPerfRunsFrom(file string, r io.Reader) ([]MLPerfRun, error) {
	t, err := pubOpenReader(file, r, mlperfColumns...)
	if err != nil {
		return nil, err
	}
	return readMLPerf(t)
}

func readMLPerf(t *pubTable) ([]MLPerfRun, error) {
	var out []MLPerfRun
	err := t.each(func() error {
		r := MLPerfRun{
			Round: t.str("round"), Benchmark: t.str("benchmark"), Submitter: t.str("submitter"),
			System: t.str("system"), Division: t.str("division"), Status: t.str("status"),
			EpochsToTarget: math.NaN(),
		}
		if r.Benchmark == "" {
			return t.errAt("benchmark", "column benchmark: expected a benchmark name, got an empty field")
		}
		var err error
		if r.GlobalBatch, err = t.integer("global_batch_size", 1); err != nil {
			return err
		}
		if v, err := strconv.ParseFloat(t.str("final_epoch_num"), 64); err == nil && !math.IsInf(v, 0) {
			r.EpochsToTarget = v // NaN stays NaN
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
