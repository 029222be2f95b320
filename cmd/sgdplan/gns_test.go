package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/traces"
)

var syncGNS = filepath.Join("..", "..", "testdata", "sync-gns")

// syncGNSRuns are the fixture's runs: weak scaling at 64 samples per GPU,
// so W GPUs train at global batch 64 W, which is the batch of one of
// pollux-osdi21's cifar10 validation curves; the step time is that of the
// packed placement of W GPUs (4 per node) at local_bsz 64, from
// placements.csv up to 4 nodes, scalability.csv beyond.
var syncGNSRuns = []struct {
	workers, nodes int
	placement      string // placements.csv placement, "" for scalability.csv
}{
	{2, 1, "2"}, {4, 1, "4"}, {8, 2, "44"}, {16, 4, "4444"}, {32, 8, ""}, {64, 16, ""},
}

// syncGNSSteps is the number of synchronous steps written per run to
// steps.csv (each at the measured mean step time).
const syncGNSSteps = 20

// buildSyncGNS derives the fixture testdata/sync-gns from the
// pollux-osdi21 cifar10 folder dir (see testdata/sync-gns/README.md).
func buildSyncGNS(t *testing.T, dir string) *traces.Trace {
	t.Helper()
	readCSV := func(name string) [][]string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var rows [][]string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			rows = append(rows, strings.Split(strings.TrimSpace(l), ","))
		}
		return rows
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tr := &traces.Trace{}
	for _, r := range syncGNSRuns {
		var step, sync float64
		if r.placement != "" {
			for _, row := range readCSV("placements.csv")[1:] {
				if row[0] == r.placement && row[1] == "64" {
					step, sync = num(row[2]), num(row[3])
				}
			}
		} else {
			for _, row := range readCSV("scalability.csv")[1:] {
				if row[0] == strconv.Itoa(r.nodes) && row[1] == strconv.Itoa(r.workers) && row[2] == "64" {
					step, sync = num(row[3]), num(row[4])
				}
			}
		}
		if !(step > 0) {
			t.Fatalf("no step time for %d GPUs on %d nodes at local_bsz 64", r.workers, r.nodes)
		}
		batch := 64 * r.workers
		run := fmt.Sprintf("b%d-w%d", batch, r.workers)
		src := fmt.Sprintf("placements.csv placement %s", r.placement)
		if r.placement == "" {
			src = fmt.Sprintf("scalability.csv num_nodes %d, num_replicas %d", r.nodes, r.workers)
		}
		tr.Runs = append(tr.Runs, traces.RunInfo{
			Run: run, Model: "resnet18-cifar10", Mode: "allreduce", Nodes: r.nodes, Bandwidth: math.NaN(),
			Dataset: 50000, Epochs: 100, Framework: "PyTorch + AdaptDL (all-reduce)", Hardware: "AWS g4dn.12xlarge, 4 x NVIDIA T4 per node",
			Notes: fmt.Sprintf("derived from pollux-osdi21 cifar10: evals from validation-%d.csv (loss = 1 - metric), step time %.6g s (sync %.6g s) from %s, local_bsz 64", batch, step, sync, src),
		})
		for i := int64(0); i < syncGNSSteps; i++ {
			for w := 0; w < r.workers; w++ {
				tr.Steps = append(tr.Steps, traces.Step{
					Run: run, Workers: r.workers, PS: 0, Batch: 64, Worker: w, Step: i,
					Start: float64(i) * step, End: float64(i+1) * step,
					Pull: math.NaN(), Compute: step - sync, Push: sync, Staleness: -1, Loss: math.NaN(),
				})
			}
		}
		for _, row := range readCSV(fmt.Sprintf("validation-%d.csv", batch))[1:] {
			it, acc := num(row[1]), num(row[2])
			tr.Evals = append(tr.Evals, traces.Eval{Run: run, Time: it * step, Updates: int64(it), Loss: 1 - acc, Accuracy: acc})
		}
	}
	return tr
}

// The fixture is what buildSyncGNS derives from ../shared/data (go test
// ./cmd/sgdplan -run TestSyncGNSFixture -update rewrites it); steps.csv is
// stored gzipped (steps.csv.gz: 2,520 repetitive rows, 249 kB plain, and
// testdata/ is embedded in the binary).
func TestSyncGNSFixture(t *testing.T) {
	data := sharedData(t)
	tr := buildSyncGNS(t, filepath.Join(data, "pollux-osdi21", "traces", "cifar10"))
	out := t.TempDir()
	if err := traces.WriteDir(out, tr); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"steps.csv", "runs.csv", "evals.csv"} {
		got, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		stored := filepath.Join(syncGNS, f)
		if f == "steps.csv" {
			stored += ".gz"
		}
		if *update {
			b := got
			if f == "steps.csv" {
				var z bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
				zw.Write(got)
				zw.Close()
				b = z.Bytes()
			}
			if err := os.WriteFile(stored, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(stored)
		if err != nil {
			t.Fatal(err)
		}
		if f == "steps.csv" {
			zr, err := gzip.NewReader(bytes.NewReader(want))
			if err != nil {
				t.Fatal(err)
			}
			if want, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/sync-gns/%s is not what the pollux-osdi21 files give (go test ./cmd/sgdplan -run TestSyncGNSFixture -update)", filepath.Base(stored))
		}
	}
}

// sgdplan fit on the synchronous fixture stores the batch law, and predict's
// updates to target at W workers (global batch 64 W) are the law's
// steps_ref (1 + noise/B)/(1 + noise/ref_batch), worked here from the
// model.json fields, so they fall as the workers (and the batch) grow.
func TestSyncGNSFitPredict(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "model.json")
	code, stdout, stderr := runCmd(t, "fit", syncGNS, "--out", mp)
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "batch law") || !strings.Contains(stdout, "samples, 90% interval [") {
		t.Errorf("fit does not print the batch law with its interval:\n%s", stdout)
	}
	// --bootstrap 0 resamples nothing (the law drew 200 resamples
	// whatever it said): the noise scale has no interval, and fit says so
	// rather than print [x, x]
	if code, out, e := runCmd(t, "fit", syncGNS, "--bootstrap", "0", "--out", filepath.Join(dir, "none.json")); code != 0 ||
		!strings.Contains(out, "samples, no interval (no bootstrap resamples)") || !strings.Contains(e, "the batch law's noise scale has no interval") {
		t.Errorf("fit --bootstrap 0: exit %d:\n%s%s", code, out, e)
	}
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	if m.Efficiency == nil || m.Efficiency.GNS == nil {
		t.Fatalf("no batch law in model.json: %+v", m.Efficiency)
	}
	g := *m.Efficiency.GNS
	// cifar10's target: the 4096 curve's best accuracy 0.9418, loss
	// 0.0582; the reference is the smallest batch, 128 (2 GPUs x 64).
	if math.Abs(g.TargetLoss-0.0582) > 1e-9 || g.RefBatch != 128 || g.MinBatch != 128 || g.MaxBatch != 4096 {
		t.Errorf("law %+v: want target 0.0582, batches 128 to 4096", g)
	}
	if !(g.NoiseBatchLo <= g.NoiseBatch && g.NoiseBatch <= g.NoiseBatchHi && g.NoiseBatch > 128 && g.NoiseBatch < 1e6) {
		t.Errorf("noise scale %g [%g, %g]: want inside its interval, between the batches and 1e6", g.NoiseBatch, g.NoiseBatchLo, g.NoiseBatchHi)
	}
	code, stdout, stderr = runCmd(t, "predict", "--model", mp, "--workers", "2,4,8,16,32,64,128", "--format", "json")
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	var rows []predictRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	prev := math.Inf(1)
	for _, r := range rows {
		if r.UpdatesToTarget == nil {
			t.Fatalf("%d workers: no updates to target", r.Workers)
		}
		b := 64 * float64(r.Workers)
		want := g.StepsRef * (1 + g.NoiseBatch/b) / (1 + g.NoiseBatch/g.RefBatch)
		if u := *r.UpdatesToTarget; math.Abs(u-want) > 1e-9*want || !(u < prev) {
			t.Errorf("%d workers (batch %g): %g updates to target, want %g and fewer than at half the workers (%g)", r.Workers, b, u, want, prev)
		}
		if !(*r.UpdatesToTargetLo <= *r.UpdatesToTarget && *r.UpdatesToTarget <= *r.UpdatesToTargetHi) {
			t.Errorf("%d workers: updates interval [%g, %g] misses %g", r.Workers, *r.UpdatesToTargetLo, *r.UpdatesToTargetHi, *r.UpdatesToTarget)
		}
		prev = *r.UpdatesToTarget
	}
	// At 2 workers (the reference batch) the noise scale's ends give the
	// interval no width; the law's joint samples (steps_ref, noise_batch)
	// and one run's scatter about it do (it was a point, with a warning).
	if r := rows[0]; !(*r.UpdatesToTargetLo < *r.UpdatesToTarget && *r.UpdatesToTarget < *r.UpdatesToTargetHi) {
		t.Errorf("2 workers: interval [%g, %g] around %g, want a width", *r.UpdatesToTargetLo, *r.UpdatesToTargetHi, *r.UpdatesToTarget)
	}
	const flat = "have an interval of no width"
	if strings.Contains(stderr, flat) {
		t.Errorf("a warning of an interval of no width:\n%s", stderr)
	}
	// A model.json without them (written before 2026-12-06) still has the
	// point, and the warning says why.
	old := filepath.Join(dir, "old.json")
	b, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	gns := doc["efficiency"].(map[string]any)["gns"].(map[string]any)
	for _, k := range []string{"samples", "interval_scale", "run_scatter"} {
		if _, ok := gns[k]; !ok {
			t.Errorf("model.json's efficiency.gns has no %s", k)
		}
		delete(gns, k)
	}
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, oldOut, oldErr := runCmd(t, "predict", "--model", old, "--workers", "2,4", "--format", "json")
	if code != 0 {
		t.Fatalf("predict on the old model: exit %d: %s", code, oldErr)
	}
	var oldRows []predictRow
	if err := json.Unmarshal([]byte(oldOut), &oldRows); err != nil {
		t.Fatal(err)
	}
	if r := oldRows[0]; *r.UpdatesToTargetLo != *r.UpdatesToTargetHi || *r.UpdatesToTarget != *rows[0].UpdatesToTarget {
		t.Errorf("old model, 2 workers: %g [%g, %g], want the point %g", *r.UpdatesToTarget, *r.UpdatesToTargetLo, *r.UpdatesToTargetHi, *rows[0].UpdatesToTarget)
	}
	if !strings.Contains(oldErr, "the updates to target at 2 workers "+flat) || !strings.Contains(oldErr, "the batch law holds no bootstrap samples and no run scatter") {
		t.Errorf("old model: no warning of the point interval at 2 workers:\n%s", oldErr)
	}
	// 128 workers (batch 8192) is beyond the fitted batches: a warning.
	if !strings.Contains(stderr, "a step takes 8192 samples") {
		t.Errorf("no extrapolation warning for batch 8192:\n%s", stderr)
	}
	code, _, stderr = runCmd(t, "predict", "--model", mp, "--workers", "2-64")
	if code != 0 || strings.Contains(stderr, "the batch law") {
		t.Errorf("2-64 workers (batches 128 to 4096): exit %d, warning %s", code, stderr)
	}
}

// check on the batch-law model: speed is samples per second (the steps
// per second of weak-scaling synchronous steps fall as the global batch
// grows), and progress to the target follows the batch law: past 63 GPUs
// more do not shorten the time to target (the noise scale, about 3,300
// samples, is below the global batch of 4,096 at 64). 64 GPUs take 0.006%
// longer than 63, flat within check's 1% (warn, past the knee); 128 take
// 7.6% longer, and the verdict names the batch, not saturation.
func TestCheckSyncBatchLaw(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "m.json")
	if code, _, e := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--out", mp); code != 0 {
		t.Fatal(e)
	}
	code, out, e := runCmd(t, "check", "--model", mp, "--workers", "128")
	if code != exitFail || !strings.Contains(out, "past the best time to target: 128 workers take 7.6% longer to the target than 63 workers") || !strings.Contains(out, "global batch (8192 samples") || strings.Contains(out, "saturation") {
		t.Errorf("128 GPUs: exit %d, stdout %q, stderr %q", code, out, e)
	}
	code, out, e = runCmd(t, "check", "--model", mp, "--workers", "64")
	if code != exitWarn || strings.Contains(out, "past the best time") {
		t.Errorf("64 GPUs (0.006%% longer than 63): exit %d, stdout %q, stderr %q; want warn", code, out, e)
	}
	code, out, _ = runCmd(t, "check", "--model", mp, "--workers", "2")
	if code == exitFail || !strings.Contains(out, "progress to the target") {
		t.Errorf("2 GPUs: exit %d, stdout %q", code, out)
	}
	// the knee is looked for from the 2 GPUs fitted, not at an
	// extrapolated 1 (every count was "past the knee at 1 worker")
	code, out, _ = runCmd(t, "check", "--model", mp, "--workers", "4")
	if code != exitWarn || !strings.Contains(out, "past the knee at 2 workers (the fewest fitted; below, the curve is extrapolated)") {
		t.Errorf("4 GPUs: exit %d, stdout %q", code, out)
	}
}

// Fitted on the runs at two global batches only (no batch law), the loss
// curve pools them in samples (a warning says so), and the speedup predict
// prints is the ratio of the times to target it prints (design.md: s(N) =
// T(1)/T(N)); before 2026-12-04 the times grew with the workers while
// the speedup rose to 5.9. predict warns where the batch differs from the
// curve's.
func TestSyncTwoBatchesSpeedupIsTimeRatio(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "model.json")
	code, _, stderr := runCmd(t, "fit", syncGNS, "--train-workers", "2,4", "--out", mp)
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "pooled in samples") {
		t.Errorf("fit does not say the curves are pooled in samples:\n%s", stderr)
	}
	code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,2,4,8,16", "--format", "json")
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "the loss curve counts updates of") {
		t.Errorf("predict does not warn of the batch assumption:\n%s", stderr)
	}
	var rows []predictRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	if rows[0].TimeToTargetS == nil {
		t.Fatal("no time to target")
	}
	for _, r := range rows[1:] {
		ratio := *rows[0].TimeToTargetS / *r.TimeToTargetS
		if math.Abs(ratio-r.Speedup) > 1e-6*r.Speedup {
			t.Errorf("%d workers: T(1)/T(N) = %g, speedup %g", r.Workers, ratio, r.Speedup)
		}
	}
}

// Fitted on 2 GPUs and more, one worker (every speedup's base) is below
// the data: predict marks the row extrapolated and says so, and check
// says so too; and check says 1 worker is at the knee when the 2nd adds
// less than half a worker.
func TestBelowTheFittedWorkers(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "model.json")
	if code, _, stderr := runCmd(t, "fit", syncGNS, "--out", mp); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,2", "--format", "json")
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	var rows []predictRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	if !rows[0].BeyondFittedWorker || rows[1].BeyondFittedWorker {
		t.Errorf("extrapolated: 1 worker %v, 2 workers %v; want true, false", rows[0].BeyondFittedWorker, rows[1].BeyondFittedWorker)
	}
	if !strings.Contains(stderr, "fitted on 2 workers and more: one worker, the base of every speedup") || !strings.Contains(stderr, "fewer than 2 workers are extrapolated down") {
		t.Errorf("predict does not warn below the data:\n%s", stderr)
	}
	code, stdout, stderr = runCmd(t, "check", "--model", mp, "--workers", "1")
	if code != 0 || !strings.Contains(stdout, "1 worker is at the knee") || !strings.Contains(stderr, "one worker, the base of every speedup") {
		t.Errorf("check at 1 worker: exit %d\n%s%s", code, stdout, stderr)
	}
}

// The synchronous runs of testdata/sync-gns at two global batches (no batch
// law): fit prints the loss curve without a staleness cost, and says
// nothing of lambda, which a synchronous job does not have.
func TestFitSyncCurveHasNoLambda(t *testing.T) {
	mp := filepath.Join(t.TempDir(), "m.json")
	code, stdout, stderr := runCmd(t, "fit", syncGNS, "--train-workers", "2,4", "--bootstrap", "0", "--out", mp)
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "(synchronous: its updates see no staleness, so no staleness cost)") {
		t.Errorf("stdout: want the curve said to be synchronous:\n%s", stdout)
	}
	if strings.Contains(stdout+stderr, "lambda") || strings.Contains(stdout, "x (N-1)") {
		t.Errorf("fit of a synchronous job speaks of staleness:\n%s\n%s", stdout, stderr)
	}
}

// A batch law's model keeps the lowest loss its curve gives at the end of
// a fitted run, as the staleness law's does: a target below it
// extrapolates the curve, and predict says so and marks the rows (to loss
// 0.03 on cifar10, whose runs end at 0.0534 and above, 5255 updates were
// predicted without a word).
func TestSyncGNSTargetBelowTheRuns(t *testing.T) {
	mp := filepath.Join(t.TempDir(), "model.json")
	if code, _, stderr := runCmd(t, "fit", syncGNS, "--bootstrap", "20", "--out", mp); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	e := m.Efficiency
	if e == nil || e.GNS == nil || !(e.LowestLoss > e.B2 && e.LowestLoss <= e.TargetLoss) || e.LowestLoss > 0.0534 {
		t.Fatalf("efficiency %+v: want lowest_loss above the floor, at most the target and the runs' lowest measured loss 0.0534", e)
	}
	for _, c := range []struct {
		target string
		beyond bool
	}{{"0.03", true}, {fmt.Sprintf("%.6f", (e.LowestLoss+e.TargetLoss)/2), false}} {
		code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "64", "--target-loss", c.target, "--format", "json")
		if code != 0 {
			t.Fatalf("predict --target-loss %s: exit %d: %s", c.target, code, stderr)
		}
		said := strings.Contains(stderr, "--target-loss "+strings.TrimRight(strings.TrimRight(c.target, "0"), ".")+" is below ")
		var rows []struct {
			Beyond bool `json:"target_extrapolated"`
		}
		if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 1 {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if said != c.beyond || rows[0].Beyond != c.beyond {
			t.Errorf("--target-loss %s: warned %v, target_extrapolated %v, want %v:\n%s", c.target, said, rows[0].Beyond, c.beyond, stderr)
		}
	}
	// Between the curve's lowest at a run's end (0.05075) and the lowest
	// loss a run measured (0.0534) the curve reaches the target within the
	// runs' updates, but no run did: a warning of its own, the rows not
	// marked target_extrapolated (the curve is not extrapolated). Before,
	// nothing was said.
	if !(e.LowestMeasuredLoss == 0.0534 && e.LowestLoss < 0.052) {
		t.Fatalf("lowest_measured_loss %g, lowest_loss %g: want 0.0534 and below 0.052", e.LowestMeasuredLoss, e.LowestLoss)
	}
	for _, c := range []struct {
		target string
		warn   bool
	}{{"0.052", true}, {"0.0535", false}} {
		code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "64", "--target-loss", c.target, "--format", "json")
		if code != 0 {
			t.Fatalf("predict --target-loss %s: exit %d: %s", c.target, code, stderr)
		}
		want := "sgdplan: warning: --target-loss " + c.target + " is below 0.0534, the lowest loss any fitted run measured: the fitted curve reaches it within the runs' updates (down to 0.05075 at a run's end), but no run did"
		if strings.Contains(stderr, want) != c.warn || strings.Contains(stderr, "the lowest loss the fitted curve gives") || strings.Contains(stdout, `"target_extrapolated": true`) {
			t.Errorf("--target-loss %s: want the measured-loss warning %v and no other:\n%s%s", c.target, c.warn, stderr, stdout)
		}
	}
}

// lowest_measured_loss is the lowest loss a run measured, not the lowest
// mean of the points the curve fit averages runs down to (at most 100 a
// run): with 200 evaluations a run, each second one 3% below the first,
// the means hid the lowest, and predict warned that no run measured a
// target that one had.
func TestLowestMeasuredLossBeforeAveraging(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	copyDir(t, syncGNS, dir)
	b, err := os.ReadFile(filepath.Join(dir, "evals.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	out := []string{lines[0]}
	low := math.Inf(1)
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		upd, _ := strconv.ParseFloat(f[2], 64)
		loss, _ := strconv.ParseFloat(f[3], 64)
		tm, _ := strconv.ParseFloat(f[1], 64)
		l2 := loss * 0.97
		low = math.Min(low, l2)
		out = append(out, l, fmt.Sprintf("%s,%g,%g,%g,%s", f[0], tm+0.001, upd+1, l2, f[4]))
	}
	os.WriteFile(filepath.Join(dir, "evals.csv"), []byte(strings.Join(out, "\n")+"\n"), 0o644)
	mp := filepath.Join(t.TempDir(), "m.json")
	if code, _, stderr := runCmd(t, "fit", dir, "--bootstrap", "20", "--out", mp); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Efficiency; e == nil || e.LowestMeasuredLoss != low {
		got := math.NaN()
		if e != nil {
			got = e.LowestMeasuredLoss
		}
		t.Fatalf("lowest_measured_loss %g, want the evaluations' lowest %g", got, low)
	}
	// a target above what a run measured but below the pairs' means
	target := strconv.FormatFloat(low*1.005, 'g', 6, 64)
	_, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "64", "--target-loss", target)
	if strings.Contains(stderr, "the lowest loss any fitted run measured") {
		t.Errorf("--target-loss %s, which a run measured below: %s", target, stderr)
	}
}
