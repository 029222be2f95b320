package traces

import (
	"io"
	"math"
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

	// Run, Accelerator, Nodes and Accelerators identify the result file
	// and the system's size (num_nodes, num_accelerators; 0 when empty or
	// absent); TrainSamples is train_samples_logged (samples per epoch,
	// but for bert the samples trained), NaN when empty or absent.
	Run, Accelerator    string
	Nodes, Accelerators int
	TrainSamples        float64
}

// mlperfColumns are the columns ReadMLPerfRuns needs.
var mlperfColumns = []string{"round", "submitter", "system", "benchmark", "division", "global_batch_size", "status", "final_epoch_num"}

// ReadMLPerfRuns reads an MLPerf Training runs table from path. Bad content
// is a *ParseError naming the file, line and column: an empty benchmark, or
// a global_batch_size that is not a positive integer. An empty or
// unparseable final_epoch_num is not an error (EpochsToTarget NaN).
func ReadMLPerfRuns(path string) ([]MLPerfRun, error) {
	return readTableFile(path, mlperfColumns, readMLPerf)
}

// ReadMLPerfRunsFrom is ReadMLPerfRuns on r; file names the input in errors.
func ReadMLPerfRunsFrom(file string, r io.Reader) ([]MLPerfRun, error) {
	return readTableFrom(file, r, mlperfColumns, readMLPerf)
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
		if v, err := parseFloat(t.str("final_epoch_num")); err == nil && !math.IsInf(v, 0) {
			r.EpochsToTarget = v // NaN stays NaN
		}
		r.Run, r.Accelerator = t.str("run"), t.str("accelerator")
		for _, c := range []struct {
			name string
			dst  *int
		}{{"num_nodes", &r.Nodes}, {"num_accelerators", &r.Accelerators}} {
			if t.str(c.name) == "" {
				continue
			}
			if *c.dst, err = t.integer(c.name, 0); err != nil {
				return err
			}
		}
		r.TrainSamples = optionalPositive(t, "train_samples_logged")
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// optionalPositive is column name as a finite number > 0, NaN when the
// field is empty, absent or anything else.
func optionalPositive(t *pubTable, name string) float64 {
	if v := optionalFinite(t, name); v > 0 {
		return v
	}
	return math.NaN()
}

// MLPerfEval is one row of an MLPerf Training eval-curves table
// (../shared/data/mlperf-training/mlperf_training_<round>_eval_curves.csv):
// one evaluation of one run, with how far training had got and when.
type MLPerfEval struct {
	Round, Submitter, System, Benchmark, Run string
	GlobalBatch                              int
	// Epoch is epoch_num (for bert in v2.0 the samples trained), Samples
	// samples_count, Seconds seconds_since_run_start; NaN when empty or
	// not a finite number (Seconds: an error when negative).
	Epoch, Samples, Seconds float64
}

// mlperfEvalColumns are the columns ReadMLPerfEvals needs.
var mlperfEvalColumns = []string{"round", "submitter", "system", "benchmark", "run", "global_batch_size", "epoch_num", "samples_count", "seconds_since_run_start"}

// ReadMLPerfEvals reads an MLPerf Training eval-curves table from path.
// Bad content is a *ParseError naming the file, line and column: an empty
// benchmark, a global_batch_size that is not a positive integer, a negative
// seconds_since_run_start. Empty or unparseable epoch_num, samples_count
// and seconds are NaN, not errors (the logs omit them at times).
func ReadMLPerfEvals(path string) ([]MLPerfEval, error) {
	return readTableFile(path, mlperfEvalColumns, readMLPerfEvals)
}

// ReadMLPerfEvalsFrom is ReadMLPerfEvals on r; file names the input in
// errors.
func ReadMLPerfEvalsFrom(file string, r io.Reader) ([]MLPerfEval, error) {
	return readTableFrom(file, r, mlperfEvalColumns, readMLPerfEvals)
}

func readMLPerfEvals(t *pubTable) ([]MLPerfEval, error) {
	var out []MLPerfEval
	err := t.each(func() error {
		e := MLPerfEval{
			Round: t.str("round"), Submitter: t.str("submitter"), System: t.str("system"),
			Benchmark: t.str("benchmark"), Run: t.str("run"),
			Epoch: optionalFinite(t, "epoch_num"), Samples: optionalFinite(t, "samples_count"),
			Seconds: optionalFinite(t, "seconds_since_run_start"),
		}
		if e.Benchmark == "" {
			return t.errAt("benchmark", "column benchmark: expected a benchmark name, got an empty field")
		}
		var err error
		if e.GlobalBatch, err = t.integer("global_batch_size", 1); err != nil {
			return err
		}
		if e.Seconds < 0 {
			return t.errAt("seconds_since_run_start", "column seconds_since_run_start: expected seconds >= 0, got %v", e.Seconds)
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// optionalFinite is column name as a finite number, NaN when the field is
// empty, absent or not a finite number.
func optionalFinite(t *pubTable, name string) float64 {
	v, err := parseFloat(t.str(name))
	if err != nil || math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}
