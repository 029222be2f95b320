package traces

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The -update flag rewrites testdata/synthetic from the generator. It is
// defined in init unless another test file of the package defined it first.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files and generated testdata")
	}
}

// updating reports whether the tests run with -update.
func updatingSynthetic() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// near reports whether got is within rel (relative) of want.
func relNear(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// clockwork: 2 workers, batch 32, iterations of exactly 1 s back to back from
// t=0, steps 0..99, so worker w's step k ends at k+1. Pull 0.25; compute
// 0.4 (even k) or 0.6 (odd k); push the rest; staleness k%3; loss 100-k.
func clockwork() *Trace {
	t := &Trace{}
	for w := range 2 {
		for k := range 100 {
			c := 0.4
			if k%2 == 1 {
				c = 0.6
			}
			t.Steps = append(t.Steps, Step{Run: "cw", Workers: 2, PS: 1, Batch: 32, Worker: w, Step: int64(k),
				Start: float64(k), End: float64(k + 1), Pull: 0.25, Compute: c, Push: 0.75 - c,
				Staleness: k % 3, Loss: float64(100 - k)})
		}
	}
	return t
}

func TestSummarizeHandWorked(t *testing.T) {
	got := Summarize(clockwork())
	if len(got) != 1 {
		t.Fatalf("%d summaries, want 1", len(got))
	}
	s := got[0]
	// wall [0, 100]; window [10, 95], 85 s long; ends k+1 in [10, 95] are
	// k = 9..94: 86 per worker, 172 in all; 172/85 = 2.023529 updates/s;
	// x 32 = 64.75294 samples/s.
	checks := []struct {
		name      string
		got, want float64
	}{
		{"window start", s.WindowStart, 10},
		{"window end", s.WindowEnd, 95},
		{"window steps", float64(s.WindowSteps), 172},
		{"updates/s", s.UpdatesPerS, 172.0 / 85},
		{"samples/s", s.SamplesPerS, 32 * 172.0 / 85},
		{"pull mean", s.Pull.Mean, 0.25},
		{"pull var", s.Pull.Var, 0},
		// compute: 86 values 0.4 and 86 values 0.6: mean 0.5, sample
		// variance 172 x 0.01 / 171 = 0.010058480, SCV = that / 0.25
		{"compute mean", s.Compute.Mean, 0.5},
		{"compute var", s.Compute.Var, 172 * 0.01 / 171},
		{"compute scv", s.Compute.SCV, 172 * 0.01 / 171 / 0.25},
		{"iteration mean", s.Iteration.Mean, 1},
		// staleness k%3 for k = 9..94, per worker: 29 zeros, 29 ones, 28
		// twos; both workers: 58, 58, 56; mean (58 + 2x56)/172 = 170/172
		{"staleness mean", s.Staleness.Mean, 170.0 / 172},
		// nearest rank: p50 needs 86 values: zeros give 58, ones 116 -> 1
		{"staleness p50", float64(s.Staleness.P50), 1},
		// p90 needs ceil(154.8) = 155 > 116 -> 2
		{"staleness p90", float64(s.Staleness.P90), 2},
		{"staleness max", float64(s.Staleness.Max), 2},
	}
	for _, c := range checks {
		if !relNear(c.got, c.want, 1e-12) && !(c.want == 0 && math.Abs(c.got) < 1e-15) {
			t.Errorf("%s = %.10g, want %.10g", c.name, c.got, c.want)
		}
	}
	if s.Staleness.Source != "steps.csv" || s.Mode != "async" || s.Info != nil {
		t.Errorf("source %q mode %q info %v", s.Staleness.Source, s.Mode, s.Info)
	}
	// sub-windows of 8.5 s hold 9 or 8 ends per worker: the rate varies,
	// so the interval is not empty, and it holds the point estimate.
	if !(s.UpdatesPerSLo < s.UpdatesPerS && s.UpdatesPerS < s.UpdatesPerSHi) || s.UpdatesPerSHi-s.UpdatesPerSLo > 0.2*s.UpdatesPerS {
		t.Errorf("interval [%g, %g] around %g", s.UpdatesPerSLo, s.UpdatesPerSHi, s.UpdatesPerS)
	}
	// loss from steps in 20 bins of 5 s, each at the middle of its
	// iterations: bin 0 holds ends 1..4 (k = 0..3): mean 98.5, its 8
	// iterations' middle the 4th, at t=2.5; the last bin holds ends 95..100
	// (k = 94..99, the end at 100 clamped in): mean 3.5, after 188
	// iterations its 12 have their middle at 194, t=97.5.
	if s.LossSource != "steps.csv" || len(s.Loss) != 20 {
		t.Fatalf("loss source %q, %d points", s.LossSource, len(s.Loss))
	}
	if first := s.Loss[0]; first != (LossPoint{Updates: 4, Time: 2.5, Loss: 98.5, Span: 8}) || first.Middle() != 4.5 {
		t.Errorf("first loss point %+v, middle %g (updates 1..8: 4.5)", first, first.Middle())
	}
	if last := s.Loss[19]; last != (LossPoint{Updates: 194, Time: 97.5, Loss: 3.5, Span: 12}) {
		t.Errorf("last loss point %+v", last)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings %v", s.Warnings)
	}
}

// A step's infinite loss (a converter's diverged value) is left out of its
// bin's mean like a NaN, not made the bin's mean.
func TestSummarizeInfiniteStepLoss(t *testing.T) {
	tr := clockwork()
	tr.Steps[0].Loss = math.Inf(1) // worker 0, step 0: bin 0
	s := Summarize(tr)[0]
	// bin 0 without it: 99 + 98 + 97 and 100 + 99 + 98 + 97, 688 / 7
	if got := s.Loss[0].Loss; !relNear(got, 688.0/7, 1e-12) {
		t.Errorf("bin 0 loss %g, want %g", got, 688.0/7)
	}
}

// TestSummarizeSources: updates.csv staleness wins over steps.csv, evals.csv
// loss over per-step loss, runs.csv sets the mode; runs without steps warn.
func TestSummarizeSources(t *testing.T) {
	tr := clockwork()
	// updates at t = 50 (in the window) with staleness 4, 4, 6 and one at
	// t = 99 (outside): mean 14/3, p50 4, max 6.
	for i, st := range []int{4, 4, 6, 9} {
		tm := 50.0
		if i == 3 {
			tm = 99
		}
		tr.Updates = append(tr.Updates, Update{Run: "cw", Time: tm, Version: int64(i), Staleness: st, Apply: math.NaN()})
	}
	// MinEvals evaluations: evals.csv's loss curve wins over steps.csv's
	tr.Evals = []Eval{{Run: "cw", Time: 10, Updates: 20, Loss: 1.5, Accuracy: math.NaN()},
		{Run: "cw", Time: 20, Updates: 40, Loss: 1.2, Accuracy: math.NaN()},
		{Run: "cw", Time: 30, Updates: 60, Loss: 1.1, Accuracy: math.NaN()},
		{Run: "other", Time: 1, Updates: -1, Loss: 2, Accuracy: math.NaN()}}
	tr.Runs = []RunInfo{{Run: "cw", Mode: "sync", Bandwidth: 1e9, Epochs: math.NaN()}, {Run: "meta", Mode: "async", Bandwidth: math.NaN(), Epochs: math.NaN()}}
	sums := Summarize(tr)
	byRun := map[string]RunSummary{}
	for _, s := range sums {
		byRun[s.Run] = s
	}
	cw := byRun["cw"]
	if cw.Staleness.Source != "updates.csv" || cw.Staleness.N != 3 || !relNear(cw.Staleness.Mean, 14.0/3, 1e-12) ||
		cw.Staleness.P50 != 4 || cw.Staleness.Max != 6 {
		t.Errorf("staleness %+v", cw.Staleness)
	}
	if cw.LossSource != "evals.csv" || len(cw.Loss) != 3 || cw.Loss[0] != (LossPoint{20, 10, 1.5, 0}) {
		t.Errorf("loss %q %+v", cw.LossSource, cw.Loss)
	}
	// fewer than MinEvals: the per-step losses, as the fit in memory reads
	tr.Evals = tr.Evals[:1]
	for _, s := range Summarize(tr) {
		if s.Run == "cw" && (s.LossSource != "steps.csv" || len(s.Loss) != 20) {
			t.Errorf("one evaluation beside per-step losses: loss %q %+v, want steps.csv's 20 bins", s.LossSource, s.Loss)
		}
		// each bin says the updates its mean covers: they add up to the
		// run's iterations, and its middle update is in its span
		if s.Run == "cw" {
			var sum int64
			for _, p := range s.Loss {
				sum += p.Span
				if p.Span < 1 || p.Updates < sum-p.Span || p.Updates > sum {
					t.Errorf("bin %+v: middle outside its span ending at %d", p, sum)
				}
				// the exact centre of updates sum-Span+1 .. sum
				if m := p.Middle(); m != float64(sum-p.Span)+float64(p.Span+1)/2 {
					t.Errorf("bin %+v: Middle %g, want the centre of %d..%d", p, m, sum-p.Span+1, sum)
				}
			}
			// a sync run: 200 rows are 100 global updates of 2 workers
			// (the bins counted rows: 200)
			if want := s.Steps / 2; sum != want {
				t.Errorf("bins span %d updates, the run has %d global steps", sum, want)
			}
		}
	}
	if cw.Mode != "sync" || cw.Info == nil || cw.Info.Bandwidth != 1e9 {
		t.Errorf("mode %q info %+v", cw.Mode, cw.Info)
	}
	for _, name := range []string{"other", "meta"} {
		s, ok := byRun[name]
		if !ok || len(s.Warnings) != 1 || !math.IsNaN(s.UpdatesPerS) {
			t.Errorf("%s: %+v", name, s)
		}
	}
	if got := byRun["meta"].Warnings[0].Error(); got != `traces: run "meta": no steps, updates or evals (only runs.csv metadata)` {
		t.Errorf("meta warning %q", got)
	}
}

func TestSummarizeWarnsEmptyWindow(t *testing.T) {
	// one worker, two iterations [0,0.5] and [9.8,10]: window [1, 9.5] holds no end
	tr := &Trace{Steps: []Step{
		{Run: "gap", Workers: 1, PS: 1, Batch: 1, Step: 0, Start: 0, End: 0.5, Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()},
		{Run: "gap", Workers: 1, PS: 1, Batch: 1, Step: 1, Start: 9.8, End: 10, Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()},
	}}
	s := Summarize(tr)[0]
	want := `traces: run "gap": no iteration ends in the steady-state window [1, 9.5] s`
	if len(s.Warnings) != 1 || s.Warnings[0].Error() != want || !math.IsNaN(s.UpdatesPerS) {
		t.Errorf("warnings %v, updates/s %g; want %q and NaN", s.Warnings, s.UpdatesPerS, want)
	}
}

// simulateAsyncPS runs an asynchronous parameter server with one shard and no
// contention: each worker loops pull (p), compute (c + Exp(mean e)), push
// (p, then the shard's apply of simApply s, after which it acknowledges:
// the push lasts until acknowledged, trace-format.md); an update is applied
// at the end of the push. Staleness is the number
// of updates applied by others between the worker's read (end of its pull)
// and its own apply. The loss of the job after k updates is
// 0.2 + 2 exp(-k/(150 W)) plus noise; evals every 25 updates.
func simulateAsyncPS(seed uint64, run string, workers, steps int, p, c, e float64) *Trace {
	rng := rand.New(rand.NewPCG(seed, uint64(workers)))
	type it struct {
		w, k             int
		start, read, end float64
		pull, comp, push float64
	}
	var its []it
	for w := range workers {
		// times on a µs clock; workers do not start in lockstep
		us := func(x float64) float64 { return math.Round(x*1e6) / 1e6 }
		at := us(rng.Float64() * p)
		for k := range steps {
			comp := us(c + rng.ExpFloat64()*e)
			pull := us(p * (1 + 0.1*rng.Float64()))
			push := us(p*(1+0.1*rng.Float64()) + simApply)
			end := us(at + pull + comp + push)
			its = append(its, it{w, k, at, us(at + pull), end, pull, comp, push})
			at = end
		}
	}
	ends := make([]float64, len(its))
	for i := range its {
		ends[i] = its[i].end
	}
	sort.Float64s(ends)
	order := make([]int, len(its))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return its[order[a]].end < its[order[b]].end })
	t := &Trace{}
	loss := func(k int) float64 {
		return math.Round((0.2+2*math.Exp(-float64(k)/(150*float64(workers)))+0.01*rng.NormFloat64())*1e4) / 1e4
	}
	stale := make([]int, len(its))
	for v, i := range order {
		x := its[i]
		// applies in (read, end): all ends before this one, minus those at or
		// before the read
		stale[i] = v - sort.SearchFloat64s(ends, x.read)
		t.Updates = append(t.Updates, Update{Run: run, Shard: 0, Worker: x.w, Time: x.end, Version: int64(v + 1), Staleness: stale[i], Apply: simApply})
		if (v+1)%25 == 0 {
			t.Evals = append(t.Evals, Eval{Run: run, Time: x.end, Updates: int64(v + 1), Loss: loss(v + 1), Accuracy: math.NaN()})
		}
	}
	for i, x := range its {
		t.Steps = append(t.Steps, Step{Run: run, Workers: workers, PS: 1, Batch: 32, Worker: x.w, Step: int64(x.k),
			Start: x.start, End: x.end, Pull: x.pull, Compute: x.comp, Push: x.push, Staleness: stale[i], Loss: loss(i)})
	}
	t.Runs = []RunInfo{{Run: run, Model: "synthetic", Mode: "async", ParamBytes: 4000000, Nodes: workers + 1,
		Bandwidth: 4000000 / p, Dataset: 60000, Epochs: math.NaN(), Framework: "simulated",
		Notes: fmt.Sprintf("traces/summary_test.go simulateAsyncPS(seed %d): pull=push=%gs, push + apply %gs until acknowledged, compute %g+Exp(%g)s", seed, p, simApply, c, e)}}
	return t
}

// simApply is the shard's apply time in simulateAsyncPS, s.
const simApply = 0.002

// TestSummarizeRenewal checks the steady-state rate against renewal theory:
// W independent workers whose iterations last 2p(1.05) + a + c + e on
// average (a the apply) complete W / (2.1p + a + c + e) iterations per
// second in the long run.
func TestSummarizeRenewal(t *testing.T) {
	for _, w := range []int{1, 4, 16} {
		p, c, e := 0.01, 0.05, 0.05
		s := Summarize(simulateAsyncPS(7, "r", w, 2000, p, c, e))[0]
		want := float64(w) / (2.1*p + simApply + c + e)
		// 2000 steps per worker with Exp noise: the estimate is within 3%
		if !relNear(s.UpdatesPerS, want, 0.03) {
			t.Errorf("W=%d: updates/s %.4g, want %.4g", w, s.UpdatesPerS, want)
		}
		if !(s.UpdatesPerSLo <= want && want <= s.UpdatesPerSHi) {
			t.Errorf("W=%d: 95%% interval [%.4g, %.4g] misses %.4g", w, s.UpdatesPerSLo, s.UpdatesPerSHi, want)
		}
		// compute c + Exp(e): mean c+e, variance e^2, SCV e^2/(c+e)^2 = 0.25
		if !relNear(s.Compute.Mean, c+e, 0.03) || !relNear(s.Compute.SCV, e*e/((c+e)*(c+e)), 0.1) {
			t.Errorf("W=%d: compute %+v, want mean %g SCV %g", w, s.Compute, c+e, 0.25)
		}
		// with W workers of equal speed about W-1 others apply during one
		// iteration's read-to-apply span (a fraction ~(c+e+1.05p)/(iteration)
		// of it): mean staleness ~ (W-1) x 0.9
		wantSt := float64(w-1) * (c + e + 1.05*p + simApply) / (2.1*p + simApply + c + e)
		if math.Abs(s.Staleness.Mean-wantSt) > 0.05*wantSt+0.01 {
			t.Errorf("W=%d: staleness mean %.4g, want %.4g", w, s.Staleness.Mean, wantSt)
		}
	}
}

// TestSummarizePathsMatches: the streaming two-pass summary equals the
// in-memory one on the same files.
func TestSummarizePathsMatches(t *testing.T) {
	tr := simulateAsyncPS(3, "a", 3, 200, 0.01, 0.05, 0.02)
	b := simulateAsyncPS(4, "b", 2, 100, 0.01, 0.05, 0.02)
	tr.Steps = append(tr.Steps, b.Steps...)
	tr.Updates = append(tr.Updates, b.Updates...)
	tr.Evals = append(tr.Evals, b.Evals...)
	tr.Runs = append(tr.Runs, b.Runs...)
	dir := t.TempDir()
	if err := WriteDir(dir, tr); err != nil {
		t.Fatal(err)
	}
	got, warnings, err := SummarizePaths(dir)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("err %v, warnings %v", err, warnings)
	}
	want := Summarize(tr)
	if len(got) != len(want) {
		t.Fatalf("%d summaries, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Info == nil || want[i].Info == nil || rowText(*got[i].Info) != rowText(*want[i].Info) {
			t.Errorf("run %d: info %+v, want %+v", i, got[i].Info, want[i].Info)
		}
		got[i].Info, want[i].Info = nil, nil
		// the files of the run's steps: read from one, from none in memory
		if f := filepath.Join(dir, "steps.csv"); len(got[i].StepFiles) != 1 || got[i].StepFiles[0] != f || want[i].StepFiles != nil {
			t.Errorf("run %d: step files %q and %q in memory, want [%s] and none", i, got[i].StepFiles, want[i].StepFiles, f)
		}
		got[i].StepFiles = nil
	}
	if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
		t.Errorf("SummarizePaths differs from Summarize:\n got %s\nwant %s", g, w)
	}
}

// TestSynthetic keeps testdata/synthetic/async-ps (the small trace inspect's
// golden test and the demo use) equal to the generator; -update rewrites it.
func TestSynthetic(t *testing.T) {
	tr := &Trace{}
	for _, w := range []int{1, 2, 4} {
		x := simulateAsyncPS(1, fmt.Sprintf("w%d", w), w, 96/w, 0.01, 0.05, 0.05)
		tr.Steps = append(tr.Steps, x.Steps...)
		tr.Updates = append(tr.Updates, x.Updates...)
		tr.Evals = append(tr.Evals, x.Evals...)
		tr.Runs = append(tr.Runs, x.Runs...)
	}
	dir := filepath.Join("..", "testdata", "synthetic", "async-ps")
	if updatingSynthetic() {
		if err := WriteDir(dir, tr); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	diffRows(t, "steps", got.Steps, tr.Steps)
	diffRows(t, "updates", got.Updates, tr.Updates)
	diffRows(t, "evals", got.Evals, tr.Evals)
	diffRows(t, "runs", got.Runs, tr.Runs)
	if _, err := os.Stat(filepath.Join(dir, "steps.csv")); err != nil {
		t.Fatal(err)
	}
}

// Phases that add up to more than 3 times end - start (end == start with
// phase times, phases in other units) are warned of when 1% or more of the
// window's iterations have them; overlap up to twice the iteration (a
// converted profiler trace's all-reduce in push and compute) is not.
func TestSummarizeWarnsOverlongPhases(t *testing.T) {
	const want = "have pull + compute + push more than 3 times end - start"
	has := func(s RunSummary) bool {
		for _, w := range s.Warnings {
			if strings.Contains(w.Error(), want) {
				return true
			}
		}
		return false
	}
	if s := Summarize(clockwork())[0]; has(s) {
		t.Errorf("clockwork: %v", s.Warnings)
	}
	// overlap: push as long as the whole iteration, over compute
	tr := clockwork()
	for i := range tr.Steps {
		tr.Steps[i].Push = 1
	}
	if s := Summarize(tr)[0]; has(s) {
		t.Errorf("overlapping push: %v", s.Warnings)
	}
	// every 10th iteration ends where it starts
	tr = clockwork()
	for i := range tr.Steps {
		if tr.Steps[i].Step%10 == 3 {
			tr.Steps[i].End = tr.Steps[i].Start
		}
	}
	s := Summarize(tr)[0]
	if !has(s) {
		t.Fatalf("end == start: no warning in %v", s.Warnings)
	}
	for _, w := range s.Warnings {
		if strings.Contains(w.Error(), want) && !strings.Contains(w.Error(), "18 of 172 iterations") || strings.Contains(w.Error(), want) && !strings.Contains(w.Error(), "by up to 1 s") {
			t.Errorf("warning %q, want 18 of 172 by up to 1 s", w)
		}
	}
	// an empty phase counts as 0, not as a sum that is NaN (which
	// switched the check off)
	for i := range tr.Steps {
		tr.Steps[i].Pull = math.NaN()
	}
	if s := Summarize(tr)[0]; !has(s) {
		t.Errorf("end == start without pull times: no warning in %v", s.Warnings)
	}
	// and in any mode
	tr.Runs = []RunInfo{{Run: "cw", Mode: "allreduce", Bandwidth: math.NaN(), Epochs: math.NaN()}}
	if s := Summarize(tr)[0]; !has(s) {
		t.Errorf("allreduce run: %v", s.Warnings)
	}
}

// evals.csv rows out of order make the loss curve in update order (inspect
// printed the file's first and last rows as the first and last loss),
// or in time order when some row has no update count.
func TestSummarizeSortsEvals(t *testing.T) {
	tr := clockwork()
	nan := math.NaN()
	tr.Evals = []Eval{{Run: "cw", Time: 30, Updates: 300, Loss: 0.5, Accuracy: nan}, {Run: "cw", Time: 10, Updates: 100, Loss: 2, Accuracy: nan},
		{Run: "cw", Time: 20, Updates: 200, Loss: 1, Accuracy: nan}, {Run: "cw", Time: 0, Updates: 0, Loss: 3, Accuracy: nan}}
	s := Summarize(tr)[0]
	var got []float64
	for _, p := range s.Loss {
		got = append(got, p.Loss)
	}
	if s.LossSource != "evals.csv" || !slices.Equal(got, []float64{3, 2, 1, 0.5}) {
		t.Errorf("by updates: %q %v, want 3 2 1 0.5", s.LossSource, got)
	}
	tr.Evals[2].Updates = -1 // by time
	tr.Evals[0].Time = 5
	s = Summarize(tr)[0]
	got = got[:0]
	for _, p := range s.Loss {
		got = append(got, p.Loss)
	}
	if !slices.Equal(got, []float64{3, 0.5, 2, 1}) {
		t.Errorf("by time: %v, want 3 0.5 2 1", got)
	}
}

// CoAccumulator's one-pass covariance is the two-pass one, also for times
// far from 0 with small spread (a sum of products would cancel there), and
// Summarize reports it for the window's pull and push: pulls that rise
// with the pushes (one congested link) give a positive covariance.
func TestPullPushCovariance(t *testing.T) {
	xs := []float64{1e6 + 0.1, 1e6 + 0.3, 1e6 + 0.2, 1e6 + 0.6, 1e6 + 0.4}
	ys := []float64{5.01, 5.05, 5.02, 5.08, 5.03}
	var c CoAccumulator
	if got := c.Covariance(); got.N != 0 || !math.IsNaN(got.Cov) {
		t.Errorf("empty: %+v, want N 0 and NaN", got)
	}
	mx, my := 0.0, 0.0
	for i := range xs {
		c.Add(xs[i], ys[i])
		mx += xs[i] / 5
		my += ys[i] / 5
	}
	want := 0.0
	for i := range xs {
		want += (xs[i] - mx) * (ys[i] - my) / 4
	}
	if got := c.Covariance(); got.N != 5 || math.Abs(got.Cov-want) > 1e-9*math.Abs(want) {
		t.Errorf("covariance %+v, want N 5, %g", got, want)
	}

	tr := &Trace{}
	for i := range 100 {
		f := 1 + float64(i%7)/10 // the link's slowdown, shared
		tr.Steps = append(tr.Steps, Step{Run: "r", Workers: 1, PS: 1, Batch: 8, Step: int64(i), Start: float64(i), End: float64(i) + 0.9,
			Pull: 0.1 * f, Compute: 0.5, Push: 0.2 * f, Staleness: 0, Loss: math.NaN()})
	}
	s := Summarize(tr)
	if len(s) != 1 {
		t.Fatalf("%d summaries", len(s))
	}
	pp := s[0].PullPush
	// pull and push are exactly 0.1 f and 0.2 f: the covariance is
	// 0.02 var(f), with pull's variance 0.01 var(f)
	if wantCov := 2 * s[0].Pull.Var; pp.N != s[0].WindowSteps || math.Abs(pp.Cov-wantCov) > 1e-12 || !(pp.Cov > 0) {
		t.Errorf("pull/push covariance %+v over %d window steps, want %g", pp, s[0].WindowSteps, wantCov)
	}
}

// A run whose rows in two files give two configurations is an error at the
// later file's row, naming the other, whatever the order of the paths (the
// summary took the last file's configuration: 40.47 or 30.35 updates/s for
// one set of files). The same configuration in two files is one run.
func TestSummarizePathsRunConfigAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "steps.csv"), []byte("run,workers,ps,batch,worker,step,start,end\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
		return d
	}
	rows := func(w, workers int) string {
		s := ""
		for i := range 40 {
			s += fmt.Sprintf("x,%d,1,8,%d,%d,%g,%g\n", workers, w, i, 0.1*float64(i), 0.1*float64(i+1))
		}
		return s
	}
	a, b, c := write("a", rows(0, 2)), write("b", rows(1, 2)), write("c", rows(2, 4))
	// the batch alone differs, in a file with the columns in another order
	d := filepath.Join(dir, "d")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "steps.csv"), []byte("run,worker,step,start,end,workers,ps,batch\nx,1,0,0,0.1,2,1,16\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// the error is at the later row's first field that differs: its
	// column too (it named the line alone)
	for _, c := range []struct {
		order []string
		col   int
	}{{[]string{a, b, c}, 3}, {[]string{c, a, b}, 3}, {[]string{a, d}, 17}} {
		_, _, err := SummarizePaths(c.order...)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || pe.Column != c.col || !strings.Contains(err.Error(), "expected one configuration per run in every file") || !strings.Contains(err.Error(), filepath.Join(c.order[0], "steps.csv")+" on line 2") {
			t.Errorf("paths %v: err %v, want a configuration error at line 2, column %d, naming %s", c.order, err, c.col, c.order[0])
		}
	}
	sums, _, err := SummarizePaths(a, b)
	if err != nil || len(sums) != 1 || sums[0].Workers != 2 {
		t.Errorf("one configuration in two files: %v, %+v", err, sums)
	}
}

// updates.csv rows that all fall outside the run's steady-state window
// (another clock, or other units) are said, with their times; the
// staleness was left unknown without a word. Rows inside leave no warning.
func TestSummarizeUpdatesOutsideWindow(t *testing.T) {
	for _, c := range []struct {
		offset float64
		warn   bool
	}{{1000, true}, {0, false}} {
		dir := t.TempDir()
		steps, upd := "run,workers,ps,batch,worker,step,start,end\n", "run,shard,worker,time,version,staleness\n"
		for i := range 100 {
			steps += fmt.Sprintf("x,1,1,8,0,%d,%g,%g\n", i, 0.1*float64(i), 0.1*float64(i+1))
			upd += fmt.Sprintf("x,0,0,%g,%d,0\n", c.offset+0.1*float64(i+1), i+1)
		}
		for name, body := range map[string]string{"steps.csv": steps, "updates.csv": upd} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		sums, _, err := SummarizePaths(dir)
		if err != nil || len(sums) != 1 {
			t.Fatalf("offset %g: %v", c.offset, err)
		}
		said := slices.ContainsFunc(sums[0].Warnings, func(e error) bool {
			return strings.Contains(e.Error(), "all 100 of its updates.csv rows (times 1000 to 1010 s) fall outside the steady-state window")
		})
		if said != c.warn {
			t.Errorf("offset %g: warnings %v, want the updates outside said: %v", c.offset, sums[0].Warnings, c.warn)
		}
	}
}

// Phases adding up to under 1/100 of end - start are in other units (start
// and end in ms, phases in s: the rate came out 1000 times too low without
// a word); phases that fill the iteration, or a run without all three
// phases, give no warning.
func TestSummarizePhasesFarUnderIteration(t *testing.T) {
	for _, c := range []struct {
		name, header string
		row          func(i int) string
		warn         bool
	}{
		{"ms against s", "pull,compute,push", func(i int) string { return fmt.Sprintf("%d,%d,0.01,0.08,0.01", 100*i, 100*(i+1)) }, true},
		{"seconds", "pull,compute,push", func(i int) string { return fmt.Sprintf("%g,%g,0.01,0.08,0.01", 0.1*float64(i), 0.1*float64(i+1)) }, false},
		{"compute only", "compute", func(i int) string { return fmt.Sprintf("%d,%d,0.08", 100*i, 100*(i+1)) }, false},
	} {
		dir := t.TempDir()
		steps := "run,workers,ps,batch,worker,step,start,end," + c.header + "\n"
		for i := range 100 {
			steps += fmt.Sprintf("x,1,1,8,0,%d,%s\n", i, c.row(i))
		}
		if err := os.WriteFile(filepath.Join(dir, "steps.csv"), []byte(steps), 0o644); err != nil {
			t.Fatal(err)
		}
		sums, _, err := SummarizePaths(dir)
		if err != nil || len(sums) != 1 {
			t.Fatalf("%s: %v", c.name, err)
		}
		said := slices.ContainsFunc(sums[0].Warnings, func(e error) bool {
			return strings.Contains(e.Error(), "pull + compute + push under 1/100 of end - start")
		})
		if said != c.warn {
			t.Errorf("%s: warnings %v, want the phases' units said: %v", c.name, sums[0].Warnings, c.warn)
		}
	}
}
