package fit

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// repoRoot walks up from the package folder to the one holding go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = up
	}
}

func loadAsync(t *testing.T) *traces.Trace {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "testdata", "synthetic", "async-ps")
	tr, _, err := traces.Load(dir)
	if err != nil {
		t.Skipf("no async testdata: %v", err)
	}
	return tr
}

func TestStatsSteadyWindow(t *testing.T) {
	// Run a: one worker, steps end at 1, 2, ..., 10 s (starts 0..9): wall
	// time [0, 10], window [1, 9.5]: steps ending at 1..9 count: 9 steps
	// over 8.5 s = 1.0588 steps/s. Compute 0.5 s each (SCV 0), pull 0.2 and
	// 0.4 alternately (mean 0.3, SCV 1/9).
	tr := &traces.Trace{}
	for i := 0; i < 10; i++ {
		pull := 0.2
		if i%2 == 1 {
			pull = 0.4
		}
		tr.Steps = append(tr.Steps, traces.Step{Run: "a", Workers: 1, PS: 1, Batch: 8, Step: int64(i), Start: float64(i), End: float64(i + 1), Pull: pull, Compute: 0.5, Push: 0.3, Staleness: 0, Loss: math.NaN()})
	}
	st, err := Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	r := st[0]
	if r.Steps != 9 || relErr(r.StepsPerS, 9/8.5) > 1e-12 {
		t.Errorf("steps %d rate %g, want 9 and %g", r.Steps, r.StepsPerS, 9/8.5)
	}
	if relErr(r.Compute.Mean, 0.5) > 1e-12 || r.Compute.SCV > 1e-12 {
		t.Errorf("compute %+v", r.Compute)
	}
	// steps 1..9 in window (end 1..9 -> i = 0..8): pulls 0.2 x5, 0.4 x4:
	// mean 1.8/9 + ... = (1.0 + 1.6)/9 = 0.28889.
	if relErr(r.Pull.Mean, 2.6/9) > 1e-12 {
		t.Errorf("pull mean %g, want %g", r.Pull.Mean, 2.6/9)
	}
	// No step in the window: a run whose only step ends at its start.
	bad := &traces.Trace{Steps: []traces.Step{{Run: "b", Workers: 1, Batch: 1, Start: 0, End: 10}}}
	if _, err := Stats(bad); err == nil || !strings.Contains(err.Error(), "run b: no steps end in the steady window") {
		t.Errorf("error %v", err)
	}
}

// The two-node profile of the simulated trace (pull = push = 0.01 s,
// compute 0.05 + Exp(0.05) s, apply 0.002 s) gives those demands back, and
// predicts the 2- and 4-worker runs within 10%.
func TestTwoNodeProfilePredicts(t *testing.T) {
	tr := loadAsync(t)
	sf, err := FitSteps(tr, nil, StepOptions{TrainWorkers: []int{1}, Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	if m.Family != "mva" {
		t.Fatalf("family %s, want mva from the profile", m.Family)
	}
	th := m.theta()
	if relErr(th[2], 0.01) > 0.1 || relErr(th[3], 0.002) > 0.05 {
		t.Errorf("link %g apply %g, want 0.01 and 0.002", th[2], th[3])
	}
	if relErr(th[0], 0.1) > 0.25 {
		t.Errorf("Z = %g, want about 0.1", th[0])
	}
	for _, r := range sf.Stats {
		p := m.StepsPerSecond(model.Config{Workers: r.Workers, PS: r.PS})
		e := relErr(p, r.StepsPerS)
		t.Logf("%s: measured %.4g predicted %.4g (%.1f%%)", r.Run, r.StepsPerS, p, 100*e)
		if e > 0.10 {
			t.Errorf("%s: error %.1f%% over 10%%", r.Run, 100*e)
		}
	}
	found := false
	for _, w := range m.Diagnostics.Warnings {
		found = found || strings.Contains(w, "only one worker count")
	}
	if !found {
		t.Errorf("no warning on the one worker count: %q", m.Diagnostics.Warnings)
	}
}

func TestLossCurveRecovered(t *testing.T) {
	// l(k) = 1/(0.01 k + 0.5) + 0.3, sampled at k = 0, 50, ..., 1000.
	truth := model.LossCurve{B0: 0.01, B1: 0.5, B2: 0.3}
	var ks, ls []float64
	for k := 0.0; k <= 1000; k += 50 {
		ks = append(ks, k)
		ls = append(ls, truth.Loss(k))
	}
	c, ok := fitLossCurve(func(i int) (float64, float64) { return ks[i], ls[i] }, len(ks))
	if !ok {
		t.Fatal("no fit")
	}
	for j, w := range truth.Params() {
		if relErr(c.Params()[j], w) > 1e-4 {
			t.Errorf("param %d = %g, want %g", j, c.Params()[j], w)
		}
	}
}

// No loss at all (NaN is an empty field: steps.csv and evals.csv refuse
// the text NaN) says the efficiency is not fitted; infinite losses (a
// converted TensorBoard scalar of a diverged run) are counted and skipped,
// and empty ones are not called infinite.
func TestNaNLossWarns(t *testing.T) {
	tr := loadAsync(t)
	cp := *tr
	cp.Evals = append([]traces.Eval(nil), tr.Evals...)
	for i := range cp.Evals {
		cp.Evals[i].Loss = math.NaN()
	}
	cp.Steps = append([]traces.Step(nil), tr.Steps...)
	for i := range cp.Steps {
		cp.Steps[i].Loss = math.NaN()
	}
	sf, err := FitSteps(&cp, nil, StepOptions{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(sf.Warnings, "\n")
	if !strings.Contains(joined, "no loss in the traces") || !strings.Contains(joined, "not fitted") || strings.Contains(joined, "infinite") || sf.Model.Efficiency != nil {
		t.Errorf("warnings for no loss: %s", joined)
	}
	if len(tr.Evals) < 6 {
		t.Fatalf("fixture has %d evaluations", len(tr.Evals))
	}
	cp.Evals = append([]traces.Eval(nil), tr.Evals...)
	cp.Evals[1].Loss, cp.Evals[4].Loss = math.Inf(1), math.Inf(1)
	cp.Evals[2].Loss = math.NaN() // an accuracy-only row
	if sf, err = FitSteps(&cp, nil, StepOptions{Bootstrap: -1}); err != nil {
		t.Fatal(err)
	}
	joined = strings.Join(sf.Warnings, "\n")
	if !strings.Contains(joined, "2 losses are infinite") || sf.Model.Efficiency == nil {
		t.Errorf("warnings for two infinite losses: %s", joined)
	}
}

// The streaming fit (FitStepsPaths) reads the same runs as the in-memory
// one: the same steady-state rates and the same two-node profile.
func TestFitStepsPathsAgrees(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "synthetic", "async-ps")
	tr := loadAsync(t)
	mem, err := FitSteps(tr, nil, StepOptions{Family: "mva", Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	str, _, err := FitStepsPaths([]string{dir}, StepOptions{Family: "mva", Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(mem.Stats) != len(str.Stats) {
		t.Fatalf("%d runs in memory, %d streamed", len(mem.Stats), len(str.Stats))
	}
	for i, a := range mem.Stats {
		b := str.Stats[i]
		if a.Run != b.Run || a.Steps != b.Steps || relErr(b.StepsPerS, a.StepsPerS) > 1e-9 || relErr(b.Pull.Mean, a.Pull.Mean) > 1e-9 || relErr(b.Apply.Mean, a.Apply.Mean) > 1e-9 {
			t.Errorf("run %s: in memory %+v, streamed %+v", a.Run, a, b)
		}
	}
	for j, p := range mem.Model.Parameters {
		if q := str.Model.Parameters[j]; relErr(q.Value, p.Value) > 1e-6 {
			t.Errorf("%s: %g in memory, %g streamed", p.Name, p.Value, q.Value)
		}
	}
	// the same loss curves: evals.csv's 3 points per run in both (lambda
	// was 2.2 in memory, from the per-step losses, and 1.16 streamed)
	if a, b := mem.Model.Efficiency, str.Model.Efficiency; a == nil || b == nil || relErr(a.Lambda, b.Lambda) > 1e-6 {
		t.Errorf("efficiency in memory %+v, streamed %+v: want the same lambda", a, b)
	}
}

// A curve that follows the form exactly: the first half predicts the
// updates to its final loss. l(k) = 1/(0.01 k + 0.5) + 0.3 at k = 100,
// 200, ..., 1200: final loss 1/12.5 + 0.3 = 0.38 at k = 1200.
func TestScoreLossCurveExact(t *testing.T) {
	c := model.LossCurve{B0: 0.01, B1: 0.5, B2: 0.3}
	var ks, ls []float64
	for k := 100.0; k <= 1200; k += 100 {
		ks = append(ks, k)
		ls = append(ls, c.Loss(k))
	}
	s, err := ScoreLossCurve("exact", ks, ls)
	if err != nil {
		t.Fatal(err)
	}
	if s.Measured != 1200 || relErr(s.Predicted, 1200) > 1e-4 || s.Err > 1e-2 {
		t.Errorf("%+v, want measured 1200, predicted 1200", s)
	}
	if _, err := ScoreLossCurve("short", ks[:5], ls[:5]); err == nil {
		t.Error("no error for 5 points")
	}
}

// Steps to target that follow the noise-scale law exactly, S(B) = 1000 (1 +
// 256/B): fitted on B = 32, 64, 128 it predicts B = 256, 512, 1024 (2000,
// 1500, 1250 steps) exactly.
func TestScoreBatchSizeExact(t *testing.T) {
	var cs []BatchCurve
	for _, b := range []float64{32, 64, 128, 256, 512, 1024} {
		s := 1000 * (1 + 256/b)
		// loss 1 at step 0, 0.5 (the target) at step s, 0.4 after.
		cs = append(cs, BatchCurve{Batch: b, Steps: []float64{0, s, 2 * s}, Loss: []float64{1, 0.5, 0.4}})
	}
	cs[0].Loss[2] = 0.5 // the worst best value: the target is 0.5
	s, err := ScoreBatchSize("exact", cs)
	if err != nil {
		t.Fatal(err)
	}
	if s.Target != 0.5 || relErr(s.Noise, 256) > 1e-4 || s.MAPE > 1e-3 {
		t.Errorf("%+v, want target 0.5, noise 256, MAPE 0", s)
	}
	if _, err := ScoreBatchSize("few", cs[:3]); err == nil {
		t.Error("no error for 3 batch sizes")
	}
}

// TestScoreBatchSizeMAPEByHand: the score is the mean over the test
// batches only. The law S(B) = 1000 (1 + 256/B) fitted exactly on B = 32,
// 64, 128 predicts 2000, 1500 and 1250 steps at 256, 512, 1024; measured
// 1.1, 1 and 0.8 times that, the errors |p - m|/m are 0.1/1.1 = 9.0909%,
// 0 and 0.2/0.8 = 25%: MAPE (9.0909 + 0 + 25)/3 = 11.364%, worst 25%.
func TestScoreBatchSizeMAPEByHand(t *testing.T) {
	var cs []BatchCurve
	for i, b := range []float64{32, 64, 128, 256, 512, 1024} {
		s := 1000 * (1 + 256/b) * []float64{1, 1, 1, 1.1, 1, 0.8}[i]
		cs = append(cs, BatchCurve{Batch: b, Steps: []float64{0, s, 2 * s}, Loss: []float64{1, 0.5, 0.4}})
	}
	cs[0].Loss[2] = 0.5 // the target is 0.5
	s, err := ScoreBatchSize("by hand", cs)
	if err != nil {
		t.Fatal(err)
	}
	want := (100*0.1/1.1 + 0 + 25) / 3
	if math.Abs(s.MAPE-want) > 1e-3 || math.Abs(s.Worst-25) > 1e-3 || len(s.Test) != 3 {
		t.Errorf("MAPE %.5g, worst %.5g over %v; want %.5g, 25 over 256, 512, 1024", s.MAPE, s.Worst, s.Test, want)
	}
}

// S/B scaling of the profile's link demand: 0.01 s for 4e6 B at 4e8 B/s;
// at 1e8 B/s it is 4 x 0.01 = 0.04 s; a model of 8e6 B doubles that: 0.08 s.
func TestProfileScale(t *testing.T) {
	p := Profile{Link: 0.01, ParamBytes: 4e6, Bandwidth: 4e8, FromRun: "w1"}
	q, err := p.Scale(1e8, 0)
	if err != nil || relErr(q.Link, 0.04) > 1e-12 {
		t.Errorf("bandwidth 1e8: link %g, %v; want 0.04", q.Link, err)
	}
	q, err = p.Scale(1e8, 8e6)
	if err != nil || relErr(q.Link, 0.08) > 1e-12 {
		t.Errorf("bandwidth 1e8, 8e6 bytes: link %g, %v; want 0.08", q.Link, err)
	}
	if _, err := (Profile{Link: 0.01, FromRun: "w1"}).Scale(1e8, 0); err == nil || !strings.Contains(err.Error(), "param_bytes and bandwidth") {
		t.Errorf("no metadata: %v", err)
	}
}

func TestComputeGrowthWarning(t *testing.T) {
	run := func(w int, compute float64) RunStats {
		return RunStats{Workers: w, HasPhases: true, Compute: Moments{Mean: compute}}
	}
	// 0.21 s at 1 worker, 0.40 s at 6: +90%, past the 15% threshold.
	if w := computeGrowth([]RunStats{run(1, 0.21), run(2, 0.22), run(6, 0.40)}); !strings.Contains(w, "+90%") || !strings.Contains(w, "--shared-cores") {
		t.Errorf("growing compute: warning %q, want +90%% and the --shared-cores hint", w)
	}
	// 0.20 s and 0.22 s: +10%, within noise.
	if w := computeGrowth([]RunStats{run(1, 0.20), run(2, 0.22)}); w != "" {
		t.Errorf("flat compute: warning %q, want none", w)
	}
	// One worker count: nothing to compare.
	if w := computeGrowth([]RunStats{run(1, 0.2), run(1, 0.4)}); w != "" {
		t.Errorf("one worker count: warning %q, want none", w)
	}
}

// A run at ps 0 that runs.csv does not describe is all-reduce, in memory
// and streamed (it was read as async and fitted with the asynchronous
// families); the same steps with a parameter server stay async.
func TestNoModeFollowsPS(t *testing.T) {
	for _, c := range []struct {
		ps   int
		want string
	}{{0, "allreduce"}, {2, "async"}} {
		var b strings.Builder
		b.WriteString("run,workers,ps,batch,worker,step,start,end\n")
		tr := &traces.Trace{}
		for w := 0; w < 2; w++ {
			for s := 0; s < 50; s++ {
				st := traces.Step{Run: "r", Workers: 2, PS: c.ps, Batch: 8, Worker: w, Step: int64(s),
					Start: float64(s), End: float64(s) + 0.9, Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()}
				tr.Steps = append(tr.Steps, st)
				fmt.Fprintf(&b, "r,2,%d,8,%d,%d,%d,%g\n", c.ps, w, s, s, float64(s)+0.9)
			}
		}
		mem, err := Stats(tr)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "steps.csv"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		sums, _, err := traces.SummarizePaths(dir)
		if err != nil {
			t.Fatal(err)
		}
		if mem[0].Mode != c.want || sums[0].Mode != c.want {
			t.Errorf("ps %d: mode %q in memory, %q streamed, want %q", c.ps, mem[0].Mode, sums[0].Mode, c.want)
		}
	}
}

// Worker 0's PyTorch profile of a 2-worker run of testdata/asgd
// (r3000k-p2-n2), converted with --workers 2: its steps hold one worker,
// and the run's rate was read as half the job's (6.08 updates/s against
// the 11.34 that the harness measured over both workers). Scaled by
// workers/seen in memory and streamed alike, it is within 10% of that, and
// the fit's warning says the rate is an estimate.
func TestOneWorkerProfileScaled(t *testing.T) {
	root := repoRoot(t)
	tr, _, err := traces.Convert("chrome", filepath.Join(root, "testdata", "asgd", "samples", "chrome", "r3000k-p2-n2.pt.trace.json.gz"),
		traces.ConvertOptions{Workers: 2, PS: 2, Batch: 32, Mode: "async"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := traces.WriteDir(dir, tr.Trace); err != nil {
		t.Fatal(err)
	}
	mem, err := Stats(tr.Trace)
	if err != nil {
		t.Fatal(err)
	}
	sums, _, err := traces.SummarizePaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	const measured = 11.34 // testdata/asgd's steps.csv, both workers
	if r := mem[0]; r.WorkersSeen != 1 || math.Abs(r.StepsPerS/measured-1) > 0.1 || math.Abs(sums[0].UpdatesPerS/r.StepsPerS-1) > 1e-9 {
		t.Errorf("in memory %d workers seen, %g updates/s; streamed %g; want 1 and within 10%% of %g", r.WorkersSeen, r.StepsPerS, sums[0].UpdatesPerS, measured)
	}
	sf, err := fitFromStats(mem, nil, 0, nil, StepOptions{Bootstrap: -1, Family: "mva"})
	if err != nil {
		t.Fatal(err)
	}
	if !containsWarning(sf.Warnings, "steps of 1 of its 2 workers only") {
		t.Errorf("warnings %q: want the estimate named", sf.Warnings)
	}
}

// Without evals.csv the loss curves come from steps.csv's per-step losses:
// in memory and streamed alike (the fit in memory binned them its own way:
// lambda 0.0457 in memory, 0.0741 streamed on testdata/asgd without its
// evaluations).
func TestFitStepsPathsAgreeOnStepLosses(t *testing.T) {
	tr, _, err := traces.Load(filepath.Join(repoRoot(t), "testdata", "asgd"))
	if err != nil {
		t.Skip(err)
	}
	tr.Evals = nil
	dir := t.TempDir()
	if err := traces.WriteDir(dir, tr); err != nil {
		t.Fatal(err)
	}
	o := StepOptions{Family: "mva", Bootstrap: -1, TrainWorkers: []int{1, 2}}
	mem, err := FitSteps(tr, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	str, _, err := FitStepsPaths([]string{dir}, o)
	if err != nil {
		t.Fatal(err)
	}
	// the same points and staleness; the runs come in another order (first
	// appearance, sorted), so the joint fit's sums differ in rounding and
	// its optimum by about 1e-4 (it was 60%)
	a, b := mem.Model.Efficiency, str.Model.Efficiency
	if a == nil || b == nil || relErr(a.Lambda, b.Lambda) > 1e-3 || relErr(a.B0, b.B0) > 1e-3 || a.StalenessPerWorker != b.StalenessPerWorker {
		t.Errorf("efficiency in memory %+v, streamed %+v: want the same curve", a, b)
	}
}

// The push lasts until the shard acknowledges, after its apply: the
// profile's transfer leaves the apply out, so that at one worker the
// network's cycle Z + 2 link/P + apply/P is the measured iteration (the
// apply was counted twice: 20 ms transfers and a 5 ms apply read as a
// 22.5 ms link). An apply not shorter than the push cannot be inside it:
// the push is then all transfer, with a warning.
func TestProfileApplyInsidePush(t *testing.T) {
	for _, P := range []int{1, 2} {
		r := RunStats{Run: "n1", Workers: 1, PS: P, Batch: 32, HasPhases: true,
			Pull: Moments{N: 10, Mean: 0.02}, Compute: Moments{N: 10, Mean: 0.1}, Push: Moments{N: 10, Mean: 0.025}, Apply: Moments{N: 10, Mean: 0.005}}
		p, warn, err := TwoNodeProfile([]RunStats{r})
		if err != nil {
			t.Fatal(err)
		}
		if relErr(p.Link, 0.02*float64(P)) > 1e-12 || relErr(p.Apply, 0.005*float64(P)) > 1e-12 || len(warn) != 0 {
			t.Errorf("P=%d: link %g apply %g (want %g, %g), warnings %q", P, p.Link, p.Apply, 0.02*float64(P), 0.005*float64(P), warn)
		}
		// at one worker the network gives back the measured iteration
		x := mvaFamily(p.Queueing("exact")).Predict(p.Theta(), model.Config{Workers: 1, PS: P})
		if want := 1 / (0.02 + 0.1 + 0.025); P == 1 && relErr(x, want) > 1e-12 {
			t.Errorf("1 worker: %g steps/s, the run's %g", x, want)
		}
	}
	// the transfer's SCV leaves the apply's variance out: transfers of
	// 20 ms with SCV 0.5 and an exponential 5 ms apply make a push of
	// variance 2e-4 + 2.5e-5 over 25 ms squared, SCV 0.36
	sc := RunStats{Run: "n1", Workers: 1, PS: 1, Batch: 32, HasPhases: true,
		Pull: Moments{N: 10, Mean: 0.02, SCV: 0.5}, Compute: Moments{N: 10, Mean: 0.1, SCV: 0}, Push: Moments{N: 10, Mean: 0.025, SCV: 0.36}, Apply: Moments{N: 10, Mean: 0.005, SCV: 1}}
	if p, _, err := TwoNodeProfile([]RunStats{sc}); err != nil || relErr(p.SCV, 0.5) > 1e-12 {
		t.Errorf("transfer SCV %g (%v), want 0.5", p.SCV, err)
	}
	r := RunStats{Run: "early-ack", Workers: 1, PS: 1, Batch: 32, HasPhases: true,
		Pull: Moments{N: 10, Mean: 0.02}, Compute: Moments{N: 10, Mean: 0.1}, Push: Moments{N: 10, Mean: 0.02}, Apply: Moments{N: 10, Mean: 0.03}}
	p, warn, err := TwoNodeProfile([]RunStats{r})
	if err != nil {
		t.Fatal(err)
	}
	if relErr(p.Link, 0.02) > 1e-12 || len(warn) != 1 || !strings.Contains(warn[0], "acknowledge before it applies") {
		t.Errorf("apply longer than the push: link %g, warnings %q", p.Link, warn)
	}
}

// A profile's transfer set against S/B from runs.csv: faster than the link
// or 100 times slower is named (a trace in milliseconds fitted a 22.7 s
// link where S/B was 0.02 s, silently); within, nothing.
func TestLinkPlausible(t *testing.T) {
	p := Profile{FromRun: "n1", ParamBytes: 20000, Bandwidth: 1e6}
	for _, c := range []struct {
		link float64
		want string
	}{
		{0.021, ""},
		{0.5, ""}, // latency 25 times the payload: possible
		{20.1, "run n1: the measured transfer of the model (20.1 s) is 1005 times S/B from runs.csv (0.02 s: 20000 B at 1e+06 B/s)"},
		{0.005, "is 0.25 of S/B from runs.csv (0.02 s: 20000 B at 1e+06 B/s), faster than the link can carry it"},
	} {
		p.Link = c.link
		got := linkPlausible(p)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("link %g: %q, want %q", c.link, got, c.want)
		}
	}
	p.Bandwidth = 0
	if got := linkPlausible(p); got != "" {
		t.Errorf("no link rate: %q", got)
	}
}

// The profile is one run at one batch: on data with two batches the
// warning no longer says the data hold one.
func TestProfileBatchWarning(t *testing.T) {
	tr := loadAsync(t)
	cp := *tr
	cp.Steps = append([]traces.Step(nil), tr.Steps...)
	for i := range cp.Steps {
		if cp.Steps[i].Workers == 4 {
			cp.Steps[i].Batch = 64
		}
	}
	sf, err := FitSteps(&cp, nil, StepOptions{Family: "mva", Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(sf.Model.Diagnostics.Warnings, "\n")
	if !strings.Contains(joined, "the two-node profile is one run, at batch 32 (the data also hold 64, but no training run of 1 worker there)") || strings.Contains(joined, "(one batch size)") {
		t.Errorf("warnings:\n%s", joined)
	}
}

// A profile run whose phase times vary far more than exponential ones is
// named: 3 stalls of 100 s among 1,400 computes of 0.1 s make the mean
// 0.314 s (SCV about 216), which the profile would take as every
// iteration's compute without a word. Exponential times (SCV 1, as in the
// simulated fixtures) and the real traces are not named.
func TestProfileHeavyTailWarning(t *testing.T) {
	mean := (1397*0.1 + 3*100) / 1400.0
	ss := (1397*0.01 + 3*1e4) / 1400.0
	scv := (ss - mean*mean) / (mean * mean)
	r := RunStats{Run: "n1", Workers: 1, PS: 1, Batch: 32, HasPhases: true,
		Pull: Moments{N: 1400, Mean: 0.02, SCV: 1}, Compute: Moments{N: 1400, Mean: mean, SCV: scv}, Push: Moments{N: 1400, Mean: 0.02, SCV: 0.5}}
	_, warn, err := TwoNodeProfile([]RunStats{r})
	if err != nil {
		t.Fatal(err)
	}
	if len(warn) != 2 || !strings.Contains(warn[1], "run n1: the compute times vary widely (squared coefficient of variation 216 over 1400 iterations)") || !strings.Contains(warn[1], "0.3141 s") {
		t.Errorf("SCV %.4g: warnings %q", scv, warn)
	}
	r.Compute.SCV = 1
	if _, warn, _ := TwoNodeProfile([]RunStats{r}); len(warn) != 1 { // the missing apply only
		t.Errorf("exponential compute: %q", warn)
	}
	for _, st := range [][]RunStats{asgdStats(t)} {
		for _, r := range st {
			if w := heavyTails(r); r.Workers == 1 && len(w) > 0 {
				t.Errorf("real run %s: %q", r.Run, w)
			}
		}
	}
	sf, err := FitSteps(loadAsync(t), nil, StepOptions{Family: "mva", Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if joined := strings.Join(sf.Model.Diagnostics.Warnings, "\n"); strings.Contains(joined, "vary widely") {
		t.Errorf("simulated fixture:\n%s", joined)
	}
}

// A second 1-worker training run at another batch splits the profile's
// compute into z0 + z1 b: the line through the two compute means (it was
// z1 = 0 "not estimated" whatever the data held). Here the run at batch 64
// computes 20 ms more than the profile's at 32: z1 = 0.02/32 s a sample,
// with an interval, and the model gives that run back at 1 worker.
func TestProfileComputeSplit(t *testing.T) {
	tr := loadAsync(t)
	cp := *tr
	cp.Steps = append([]traces.Step(nil), tr.Steps...)
	for _, s := range tr.Steps {
		if s.Workers == 1 {
			s.Run += "-b64"
			s.Batch = 64
			s.Compute += 0.02
			s.Start += 0.02 * float64(s.Step)
			s.End += 0.02 * float64(s.Step+1)
			cp.Steps = append(cp.Steps, s)
		}
	}
	sf, err := FitSteps(&cp, nil, StepOptions{Family: "mva", Bootstrap: 200})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	st, _ := Stats(&cp)
	var one, b64 RunStats
	for _, r := range st {
		switch {
		case r.Workers == 1 && r.Batch == 32:
			one = r
		case r.Workers == 1 && r.Batch == 64:
			b64 = r
		}
	}
	z0, z1 := m.Parameters[0], m.Parameters[1]
	wantZ1 := (b64.Compute.Mean - one.Compute.Mean) / 32
	if relErr(z1.Value, wantZ1) > 1e-9 || relErr(z0.Value, one.Compute.Mean-32*wantZ1) > 1e-9 || z1.Prior || !(z1.Lo < z1.Value && z1.Value < z1.Hi) || relErr(wantZ1, 0.02/32) > 0.05 {
		t.Errorf("z0 %+v z1 %+v: want z1 = %.4g (about 0.02/32) with an interval, z0 = %.4g", z0, z1, wantZ1, one.Compute.Mean-32*wantZ1)
	}
	joined := strings.Join(m.Diagnostics.Warnings, "\n")
	if !strings.Contains(joined, "compute split into z0 + z1 b from the 1-worker runs") || strings.Contains(joined, "not estimated") || strings.Contains(joined, "not identified") {
		t.Errorf("warnings:\n%s", joined)
	}
	if x := m.StepsPerSecond(model.Config{Workers: 1, Batch: 64}); relErr(x, b64.StepsPerS) > 0.05 {
		t.Errorf("1 worker at batch 64: %.4g steps/s predicted, %.4g measured", x, b64.StepsPerS)
	}
	// a second run computing less at the larger batch splits nothing
	for i := range cp.Steps {
		if cp.Steps[i].Batch == 64 {
			cp.Steps[i].Compute -= 0.04
		}
	}
	sf, err = FitSteps(&cp, nil, StepOptions{Family: "mva", Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if p := sf.Model.Parameters[1]; p.Value != 0 || !p.Prior || !strings.Contains(strings.Join(sf.Model.Diagnostics.Warnings, "\n"), "compute time per sample not identified: the 1-worker runs") {
		t.Errorf("less compute at batch 64: z1 %+v, warnings %q", p, sf.Model.Diagnostics.Warnings)
	}
}

// Synchronous runs at one global batch (128 split among 1, 2 and 4
// workers) default the queries to that global batch, as a table does
// (they defaulted to 128 a worker, the first run's share).
func TestFitStepsStrongReference(t *testing.T) {
	tr := &traces.Trace{}
	for _, w := range []int{1, 2, 4} {
		b := 128 / w
		d := 0.01 + 0.001*float64(b) + 0.002*float64(w-1)
		for k := range 200 {
			for wk := range w {
				tr.Steps = append(tr.Steps, traces.Step{Run: fmt.Sprintf("n%d", w), Workers: w, PS: 0, Batch: b, Worker: wk, Step: int64(k),
					Start: float64(k) * d, End: float64(k+1) * d, Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()})
			}
		}
	}
	sf, err := FitSteps(tr, nil, StepOptions{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if r := sf.Model.Reference; r.GlobalBatch != 128 || r.Batch != 0 {
		t.Errorf("reference %+v: want global batch 128", r)
	}
	if x := sf.Model.SamplesPerSecond(model.Config{Workers: 2}); relErr(x, 128/(0.01+0.001*64+0.002)) > 0.02 {
		t.Errorf("2 workers: %.4g samples/s, measured %.4g", x, 128/(0.01+0.001*64+0.002))
	}
	// the same batches in asynchronous runs: each update is one worker's
	// batch, there is no global batch to split
	for i := range tr.Steps {
		tr.Steps[i].PS = 1
	}
	tr.Runs = nil
	for _, w := range []int{1, 2, 4} {
		tr.Runs = append(tr.Runs, traces.RunInfo{Run: fmt.Sprintf("n%d", w), Mode: "async", Bandwidth: math.NaN(), Epochs: math.NaN()})
	}
	sf, err = FitSteps(tr, nil, StepOptions{Family: "overhead-async", Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if r := sf.Model.Reference; r.GlobalBatch != 0 || r.Batch != 128 {
		t.Errorf("async: reference %+v: want the first run's batch, 128, and no global batch", r)
	}
}

// The streamed summary's updates/s of a synchronous run are its steps/s,
// as the in-memory statistics give them: a step, one iteration of every
// worker, is one update. inspect printed the workers' iterations/s as
// updates/s (32.34 for testdata/sync-gns's b128-w2, whose steps/s are
// 16.17; 64 times too many at 64 workers).
func TestSyncUpdatesAreSteps(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "sync-gns")
	tr, _, err := traces.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	sums, _, err := traces.SummarizePaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	byRun := map[string]traces.RunSummary{}
	for _, s := range sums {
		byRun[s.Run] = s
	}
	multi := 0
	for _, r := range mem {
		s, ok := byRun[r.Run]
		if !ok || r.Mode == "async" {
			t.Fatalf("run %s: summary %v, mode %s; want a sync summary", r.Run, ok, r.Mode)
		}
		if r.Workers > 1 {
			multi++
		}
		if math.Abs(s.UpdatesPerS/r.StepsPerS-1) > 1e-9 || !(s.UpdatesPerSLo <= s.UpdatesPerS && s.UpdatesPerS <= s.UpdatesPerSHi) {
			t.Errorf("run %s (%d workers): summary updates/s %g [%g, %g], steps/s %g", r.Run, r.Workers, s.UpdatesPerS, s.UpdatesPerSLo, s.UpdatesPerSHi, r.StepsPerS)
		}
		if want := float64(r.Batch*r.Workers) * r.StepsPerS; math.Abs(s.SamplesPerS/want-1) > 1e-9 {
			t.Errorf("run %s: samples/s %g, want %g", r.Run, s.SamplesPerS, want)
		}
	}
	if multi == 0 {
		t.Fatal("no run with more than one worker")
	}
}
