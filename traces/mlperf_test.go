package traces

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

const mlperfExcerpt = "../testdata/public/mlperf-training"

// mlperfHeader is the runs tables' header (both rounds).
const mlperfHeader = "round,submitter,system,benchmark,run,division,accelerator,num_nodes,accelerators_per_node,num_accelerators,framework,global_batch_size,opt_base_learning_rate,train_samples_logged,status,time_to_train_min,final_eval_accuracy,final_epoch_num,final_samples_count,num_evals\n"

// TestReadMLPerfRunsExcerpt reads the excerpt and checks the row count and
// rows against values read from the file by hand.
func TestReadMLPerfRunsExcerpt(t *testing.T) {
	path := filepath.Join(mlperfExcerpt, "mlperf_training_v2.0_runs.csv")
	runs, err := ReadMLPerfRuns(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := bytes.Count(b, []byte("\n")) - 1; len(runs) != want {
		t.Fatalf("%d runs, want %d (the data lines)", len(runs), want)
	}
	// line 2: ASUSTeK ESC8000A-E11-8xA100-PCIE-80GB-NVBridge resnet run 3,
	// aborted, batch 3264, final_epoch_num 35; line 3: the same system's
	// ssd run 0, batch 128, final_epoch_num 5.
	if r := runs[0]; r.Round != "v2.0" || r.Submitter != "ASUSTeK" || r.System != "ESC8000A-E11-8xA100-PCIE-80GB-NVBridge" ||
		r.Benchmark != "resnet" || r.Division != "closed" || r.Status != "aborted" || r.GlobalBatch != 3264 || r.EpochsToTarget != 35 {
		t.Errorf("row 1: %+v", r)
	}
	if r := runs[1]; r.Benchmark != "ssd" || r.Status != "success" || r.GlobalBatch != 128 || r.EpochsToTarget != 5 {
		t.Errorf("row 2: %+v", r)
	}
	var aborted, open, bert, batch2048 int
	for _, r := range runs {
		switch {
		case r.Status == "aborted":
			aborted++
		case r.Division == "open":
			open++
		}
		if r.Benchmark == "bert" {
			bert++
			if !(r.EpochsToTarget > 1e5) { // samples, per the README
				t.Errorf("bert row %+v: final_epoch_num should hold samples", r)
			}
		}
		if r.Benchmark == "ssd" && r.GlobalBatch == 2048 {
			batch2048++
			if r.Submitter != "Google" || (r.EpochsToTarget != 9 && r.EpochsToTarget != 10) {
				t.Errorf("ssd at 2048: %+v", r)
			}
		}
	}
	if aborted != 2 || open != 2 || bert != 5 || batch2048 != 2 {
		t.Errorf("aborted %d open %d bert %d ssd@2048 %d, want 2 2 5 2 (the excerpt's README)", aborted, open, bert, batch2048)
	}

	old, err := ReadMLPerfRuns(filepath.Join(mlperfExcerpt, "mlperf_training_v0.7_runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	divisions := map[string]int{}
	for _, r := range old {
		divisions[r.Division]++
		if r.Round != "v0.7" || r.Benchmark != "gnmt" || r.GlobalBatch < 2048 || !(r.EpochsToTarget >= 4) {
			t.Errorf("v0.7 row %+v", r)
		}
	}
	if len(old) != 24 || divisions["Closed"] != 1 || divisions["closed"] != 23 {
		t.Errorf("v0.7: %d runs, divisions %v; want 24, 1 Closed and 23 closed", len(old), divisions)
	}
}

// TestReadMLPerfRunsShared reads the whole tables when ../shared/data is
// present: every global batch positive, the README's run counts.
func TestReadMLPerfRunsShared(t *testing.T) {
	dir := filepath.Join(testenv.DataDir(t), "mlperf-training")
	for _, c := range []struct {
		round string
		runs  int
	}{{"v2.0", 2609}, {"v0.7", 785}} {
		path := filepath.Join(dir, "mlperf_training_"+c.round+"_runs.csv")
		if _, err := os.Stat(path); err != nil {
			t.Skipf("%s absent", path)
		}
		runs, err := ReadMLPerfRuns(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != c.runs {
			t.Errorf("%s: %d runs, want %d (its README)", c.round, len(runs), c.runs)
		}
	}
}

// TestReadMLPerfRunsEmptyEpoch: an empty or unparseable final_epoch_num is
// NaN, not an error.
func TestReadMLPerfRunsEmptyEpoch(t *testing.T) {
	in := mlperfHeader +
		"v2.0,A,s,bert,0,closed,x,1,8,8,fw,448,0.1,1,aborted,1,0.5,,,1\n" +
		"v2.0,A,s,bert,1,closed,x,1,8,8,fw,448.0,0.1,1,success,1,0.5,n/a,,1\n" +
		"v2.0,A,s,bert,2,closed,x,1,8,8,fw,448,0.1,1,success,1,0.5,Inf,,1\n"
	runs, err := ReadMLPerfRunsFrom("in.csv", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
	for _, r := range runs {
		if !math.IsNaN(r.EpochsToTarget) || r.GlobalBatch != 448 {
			t.Errorf("%+v: want NaN epochs and batch 448", r)
		}
	}
}

// TestReadMLPerfRunsErrors: bad content is a *ParseError at the line and
// column of the field at fault, saying what was expected.
func TestReadMLPerfRunsErrors(t *testing.T) {
	good := "v2.0,A,s,ssd,0,closed,x,1,8,8,\"a, b\",256,0.1,1,success,1,0.5,4,,4\n"
	// column of global_batch_size in good: after 11 fields, the quoted one 6 bytes.
	col := strings.Index(good, ",256,") + 2
	cases := []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"zero batch", mlperfHeader + good + strings.Replace(good, ",256,", ",0,", 1), 3, col, "expected an integer >= 1"},
		{"negative batch", mlperfHeader + strings.Replace(good, ",256,", ",-8,", 1), 2, col, "expected an integer >= 1"},
		{"fractional batch", mlperfHeader + good + good + strings.Replace(good, ",256,", ",25.5,", 1), 4, col, "expected an integer"},
		{"empty batch", mlperfHeader + strings.Replace(good, ",256,", ",,", 1), 2, col, "empty field"},
		{"empty benchmark", mlperfHeader + strings.Replace(good, ",ssd,", ",,", 1), 2, strings.Index(good, "ssd") + 1, "expected a benchmark name"},
		// a row cut after global_batch_size (256, 3 bytes at col): the
		// column just past it, naming the next one.
		{"short row", mlperfHeader + good[:strings.Index(good, ",256,")+4] + "\n", 2, col + 3, `row ends after 12 of the header's 20 fields: column "opt_base_learning_rate" missing`},
		{"missing column", strings.Replace(mlperfHeader, "global_batch_size", "gbs", 1) + good, 1, 0, `missing required column "global_batch_size"`},
		{"bad quote", mlperfHeader + good + "v2.0,A,\"s\"x,ssd\n", 3, 0, ""},
		{"empty file", "", 0, 0, "empty file"},
	}
	for _, c := range cases {
		_, err := ReadMLPerfRunsFrom("in.csv", strings.NewReader(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: err %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.File != "in.csv" || pe.Line != c.line || (c.col > 0 && pe.Column != c.col) || !strings.Contains(pe.Msg, c.msg) || !strings.HasPrefix(err.Error(), "traces: in.csv") {
			t.Errorf("%s: %v (line %d col %d), want line %d col %d with %q", c.name, err, pe.Line, pe.Column, c.line, c.col, c.msg)
		}
	}
	if _, err := ReadMLPerfRuns(filepath.Join(t.TempDir(), "none.csv")); err == nil || !strings.HasPrefix(err.Error(), "traces: ") {
		t.Errorf("absent file: %v", err)
	}
}

func FuzzMLPerfRuns(f *testing.F) {
	b, err := os.ReadFile(filepath.Join(mlperfExcerpt, "mlperf_training_v0.7_runs.csv"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(""))
	f.Add([]byte(mlperfHeader))
	f.Add([]byte(mlperfHeader + "v2.0,A,s,ssd,0,closed,x,1,8,8,fw,1e3,0.1,1,success,1,0.5,NaN,,4\n"))
	f.Add([]byte(mlperfHeader + "v2.0,A,s,,0\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		runs, err := ReadMLPerfRunsFrom("in.csv", bytes.NewReader(in))
		if err != nil {
			requirePositioned(t, err, "in.csv")
			return
		}
		// Every run read has what the reader promises.
		for _, r := range runs {
			if r.GlobalBatch < 1 || r.Benchmark == "" || math.IsInf(r.EpochsToTarget, 0) || r.Accelerators < 0 || r.Nodes < 0 || !(math.IsNaN(r.TrainSamples) || r.TrainSamples > 0 && !math.IsInf(r.TrainSamples, 0)) {
				t.Fatalf("run %+v breaks the reader's promises", r)
			}
		}
	})
}

const mlperfThroughputExcerpt = "../testdata/public/mlperf-throughput"

// mlperfEvalHeader is the eval-curves tables' header (both rounds).
const mlperfEvalHeader = "round,submitter,system,benchmark,run,global_batch_size,epoch_num,samples_count,seconds_since_run_start,eval_accuracy\n"

// The throughput excerpt: runs with their size and samples per epoch, and
// their evaluations, against values read from the files by hand.
func TestReadMLPerfEvalsExcerpt(t *testing.T) {
	runs, err := ReadMLPerfRuns(filepath.Join(mlperfThroughputExcerpt, "mlperf_training_v2.0_runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 30 {
		t.Fatalf("%d runs, want 30", len(runs))
	}
	sizes := map[int]int{}
	for _, r := range runs {
		sizes[r.Accelerators]++
		if r.Accelerator != "NVIDIA A100-SXM-40GB" || r.TrainSamples != 1281167 || r.Nodes*4 != r.Accelerators {
			t.Errorf("run %+v: want A100-SXM-40GB, 1281167 samples per epoch, 4 GPUs per node", r)
		}
	}
	if len(sizes) != 6 || sizes[4] != 5 || sizes[128] != 5 {
		t.Errorf("runs per size %v, want 5 runs of each of 6 sizes", sizes)
	}
	evals, err := ReadMLPerfEvals(filepath.Join(mlperfThroughputExcerpt, "mlperf_training_v2.0_eval_curves.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(evals) != 300 {
		t.Fatalf("%d evaluations, want 300", len(evals))
	}
	e := evals[0]
	if e.Submitter != "Dell" || e.Benchmark != "resnet" || e.GlobalBatch < 1 || !(e.Seconds > 0) || !(e.Epoch > 0) || !math.IsNaN(e.Samples) {
		t.Errorf("first evaluation %+v: want Dell resnet, seconds and epoch, no samples_count", e)
	}
}

func TestReadMLPerfEvalsErrors(t *testing.T) {
	good := "v2.0,A,s,bert,0,448,150080,,88.5,0.37\n"
	cases := []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"zero batch", mlperfEvalHeader + good + strings.Replace(good, ",448,", ",0,", 1), 3, strings.Index(good, ",448,") + 2, "expected an integer >= 1"},
		{"negative seconds", mlperfEvalHeader + strings.Replace(good, ",88.5,", ",-1,", 1), 2, strings.Index(good, ",88.5,") + 2, "expected seconds >= 0"},
		{"empty benchmark", mlperfEvalHeader + strings.Replace(good, ",bert,", ",,", 1), 2, strings.Index(good, "bert") + 1, "expected a benchmark name"},
		{"missing column", strings.Replace(mlperfEvalHeader, "seconds_since_run_start", "t", 1) + good, 1, 0, `missing required column "seconds_since_run_start"`},
	}
	for _, c := range cases {
		_, err := ReadMLPerfEvalsFrom("in.csv", strings.NewReader(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: err %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.File != "in.csv" || pe.Line != c.line || (c.col > 0 && pe.Column != c.col) || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: %v (line %d col %d), want line %d col %d with %q", c.name, err, pe.Line, pe.Column, c.line, c.col, c.msg)
		}
	}
	// empty and unparseable numbers are NaN, not errors
	es, err := ReadMLPerfEvalsFrom("in.csv", strings.NewReader(mlperfEvalHeader+"v2.0,A,s,ssd,0,8,,x,,\n"))
	if err != nil || len(es) != 1 || !math.IsNaN(es[0].Epoch) || !math.IsNaN(es[0].Samples) || !math.IsNaN(es[0].Seconds) {
		t.Errorf("empty fields: %+v, %v", es, err)
	}
}

func FuzzMLPerfEvals(f *testing.F) {
	b, err := os.ReadFile(filepath.Join(mlperfThroughputExcerpt, "mlperf_training_v2.0_eval_curves.csv"))
	if err != nil {
		f.Fatal(err)
	}
	// the table's first 20 lines: the whole 20 KB file as a seed stalled
	// the fuzzer (8 runs in 26 s on one worker), each new input found from
	// it minimized byte by byte first
	if n := bytes.Count(b, []byte("\n")); n > 20 {
		cut := 0
		for range 20 {
			cut += bytes.IndexByte(b[cut:], '\n') + 1
		}
		b = b[:cut]
	}
	f.Add(b)
	f.Add([]byte(mlperfEvalHeader))
	f.Add([]byte(mlperfEvalHeader + "v2.0,A,s,bert,0,448,150080,,88.5,0.37\n"))
	f.Add([]byte(mlperfEvalHeader + "v2.0,A,s,ssd,0,8,Inf,NaN,-0,\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		es, err := ReadMLPerfEvalsFrom("in.csv", bytes.NewReader(in))
		if err != nil {
			requirePositioned(t, err, "in.csv")
			return
		}
		for _, e := range es {
			if e.GlobalBatch < 1 || e.Benchmark == "" || e.Seconds < 0 || math.IsInf(e.Epoch, 0) || math.IsInf(e.Samples, 0) || math.IsInf(e.Seconds, 0) {
				t.Fatalf("evaluation %+v breaks the reader's promises", e)
			}
		}
	})
}

// TestReadMLPerfRunsTrainSamples: train_samples_logged is the samples of an
// epoch, a count > 0; anything else is NaN, not a count. Line 2 of
// mlperf_training_v0.7_runs.csv (DellEMC 2xC4140 resnet run 0) logs
// 1281167, the images of ImageNet-1k's training set; a 0 or a negative
// count (no such row in the tables) would make every epoch of the run 0
// samples or fewer in fit's throughput series, so it is unknown.
func TestReadMLPerfRunsTrainSamples(t *testing.T) {
	in := mlperfHeader +
		"v0.7,DellEMC,2xC4140,resnet,0,closed,Nvidia Tesla V100-SXM2-32GB,,4,0,\"NGC MXNet 20.06 , NGC PyTorch 20.06\",1664,,1281167,success,76.5798,0.76114,40,,10\n" +
		"v0.7,A,s,resnet,1,closed,x,1,8,8,fw,1664,,0,success,1,0.5,40,,1\n" +
		"v0.7,A,s,resnet,2,closed,x,1,8,8,fw,1664,,-1281167,success,1,0.5,40,,1\n" +
		"v0.7,A,s,resnet,3,closed,x,1,8,8,fw,1664,,,success,1,0.5,40,,1\n"
	runs, err := ReadMLPerfRunsFrom("in.csv", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 4", len(runs))
	}
	if r := runs[0]; r.TrainSamples != 1281167 || r.Accelerators != 0 || r.Nodes != 0 || r.GlobalBatch != 1664 || r.EpochsToTarget != 40 {
		t.Errorf("line 2: %+v, want 1281167 samples per epoch, batch 1664, 40 epochs, no node or accelerator count", r)
	}
	for i, what := range []string{"0", "-1281167", "empty"} {
		if r := runs[i+1]; !math.IsNaN(r.TrainSamples) {
			t.Errorf("train_samples_logged %s: %v samples per epoch, want NaN (unknown)", what, r.TrainSamples)
		}
	}
}
