package fit

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// A throughput table with the loss curves of its runs beside it (evals.csv,
// the configuration from the table's run column): the loss curve and the
// staleness cost are fitted as from steps, staleness taken as N - 1. The
// curves are made by the law itself, l(k) = 1/(b0/(1 + lambda (N-1)) k +
// b1) + b2, so the fit must give back its parameters.
func TestTableEfficiencyRecoversTheLaw(t *testing.T) {
	const b0, b1, b2, lambda = 0.004, 0.5, 0.1, 0.2
	tr := &traces.Trace{}
	var rows []traces.Throughput
	for _, n := range []int{1, 2, 4, 8} {
		run := fmt.Sprintf("w%d", n)
		rows = append(rows, traces.Throughput{Workers: n, PS: 1, Batch: 32, StepsPerS: 10 * float64(n), SamplesPerS: math.NaN(), Run: run, Std: math.NaN()})
		rate := b0 / (1 + lambda*float64(n-1))
		for k := int64(0); k <= 4000; k += 200 {
			l := 1/(rate*float64(k)+b1) + b2
			tr.Evals = append(tr.Evals, traces.Eval{Run: run, Time: float64(k) / 10, Updates: k, Loss: l, Accuracy: math.NaN()})
		}
	}
	// a run the table does not name, and one of another series' rows
	tr.Evals = append(tr.Evals, traces.Eval{Run: "lost", Time: 0, Updates: 0, Loss: 1, Accuracy: math.NaN()})
	tr.Throughput = append(rows, traces.Throughput{Workers: 2, PS: 1, Batch: 32, StepsPerS: 5, Model: "other", Run: "theirs", SamplesPerS: math.NaN(), Std: math.NaN()})
	tr.Evals = append(tr.Evals, traces.Eval{Run: "theirs", Time: 0, Updates: 0, Loss: 1, Accuracy: math.NaN()})

	eff, warns := TableEfficiency(tr, rows, &Settings{Bootstrap: 20, Seed: 1})
	if eff == nil {
		t.Fatalf("no efficiency: %v", warns)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"b0", eff.B0, b0}, {"b1", eff.B1, b1}, {"b2", eff.B2, b2}, {"lambda", eff.Lambda, lambda}} {
		if math.Abs(c.got-c.want) > 1e-3*c.want {
			t.Errorf("%s = %.6g, want %g", c.name, c.got, c.want)
		}
	}
	if !eff.StalenessAssumed || eff.StalenessPerWorker != 1 || eff.Batch != 32 {
		t.Errorf("staleness %g assumed %v, batch %g: want 1 x (N-1), assumed, batch 32", eff.StalenessPerWorker, eff.StalenessAssumed, eff.Batch)
	}
	all := strings.Join(warns, "\n")
	if !strings.Contains(all, `the losses of 1 run ("lost") are not fitted: no row of throughput.csv names the run`) || strings.Contains(all, "theirs") {
		t.Errorf("warnings: want the unnamed run said, the other series' run not:\n%s", all)
	}
	if !strings.Contains(all, "taken as N - 1") {
		t.Errorf("warnings: want the assumed staleness said:\n%s", all)
	}

	// a run named at two configurations is not fitted, and said so
	rows2 := append([]traces.Throughput(nil), rows...)
	rows2 = append(rows2, traces.Throughput{Workers: 3, PS: 1, Batch: 32, StepsPerS: 30, Run: "w8", SamplesPerS: math.NaN(), Std: math.NaN()})
	tr.Throughput = rows2
	eff, warns = TableEfficiency(tr, rows2, &Settings{Bootstrap: 0})
	if eff == nil || !strings.Contains(strings.Join(warns, "\n"), `the losses of 1 run ("w8") are not fitted: throughput.csv names the run at several configurations`) {
		t.Errorf("w8 at 3 and 8 workers: efficiency %v, warnings %v", eff != nil, warns)
	}

	// no losses: nothing, and nothing said
	if eff, warns := TableEfficiency(&traces.Trace{Throughput: rows}, rows, &Settings{}); eff != nil || warns != nil {
		t.Errorf("no evals: %v %v", eff, warns)
	}
}

// The review of the table path: a staleness that updates.csv measures is
// used (it was taken as N - 1, with a warning that no updates.csv was
// there); a global batch the workers do not divide keeps its samples per
// step (256 on 3 and 6 workers was rounded to 255 and 258, and four
// "global batches" fitted a batch law); a run named at two configurations
// is left out even when the fitted rows show only one of them.
func TestTableEfficiencyReview(t *testing.T) {
	const b0, b1 = 0.004, 0.5
	curve := func(tr *traces.Trace, run string, rate float64) {
		for k := int64(0); k <= 4000; k += 200 {
			tr.Evals = append(tr.Evals, traces.Eval{Run: run, Time: float64(k), Updates: k, Loss: 1/(rate*float64(k)+b1) + 0.1, Accuracy: math.NaN()})
		}
	}
	row := func(run string, n int, mode string, batch, global int) traces.Throughput {
		return traces.Throughput{Workers: n, PS: 1, Batch: batch, GlobalBatch: global, StepsPerS: float64(n), SamplesPerS: math.NaN(), Mode: mode, Run: run, Std: math.NaN()}
	}

	// async, staleness measured at half of N - 1: 0.5 per worker
	tr := &traces.Trace{}
	for _, n := range []int{1, 3, 5} {
		run := fmt.Sprintf("w%d", n)
		tr.Throughput = append(tr.Throughput, row(run, n, "async", 32, 0))
		curve(tr, run, b0/(1+0.2*0.5*float64(n-1)))
		for v := range 40 {
			tr.Updates = append(tr.Updates, traces.Update{Run: run, Worker: v % n, Time: float64(v), Version: int64(v), Staleness: (n - 1) / 2, Apply: math.NaN()})
		}
	}
	eff, warns := TableEfficiency(tr, tr.Throughput, &Settings{Bootstrap: 0})
	if eff == nil || eff.StalenessAssumed || math.Abs(eff.StalenessPerWorker-0.5) > 1e-9 || math.Abs(eff.Lambda-0.2) > 1e-3 {
		t.Errorf("measured staleness 0.5 (N-1): efficiency %+v, warnings %v; want 0.5 per worker measured, lambda 0.2", eff, warns)
	}

	// sync, one global batch of 256 on 1, 2, 3 and 6 workers: one curve
	// in steps of 256 samples, no batch law
	tr = &traces.Trace{}
	for _, n := range []int{1, 2, 3, 6} {
		run := fmt.Sprintf("g%d", n)
		tr.Throughput = append(tr.Throughput, row(run, n, "allreduce", 0, 256))
		curve(tr, run, b0)
	}
	eff, warns = TableEfficiency(tr, tr.Throughput, &Settings{Bootstrap: 0})
	if eff == nil || eff.GNS != nil || eff.Batch != 256 {
		t.Errorf("one global batch 256: efficiency %+v, warnings %v; want a curve at batch 256 and no batch law", eff, warns)
	}

	// r1 at 1 worker and at 8: left out, said, whatever rows are fitted
	tr = &traces.Trace{}
	tr.Throughput = []traces.Throughput{row("r1", 1, "async", 32, 0), row("r2", 2, "async", 32, 0), row("r1", 8, "async", 32, 0)}
	curve(tr, "r1", b0)
	curve(tr, "r2", b0)
	_, warns = TableEfficiency(tr, tr.Throughput[:2], &Settings{Bootstrap: 0})
	if !strings.Contains(strings.Join(warns, "\n"), `the losses of 1 run ("r1") are not fitted: throughput.csv names the run at several configurations`) {
		t.Errorf("r1 named at 1 and 8 workers, rows fitted at 1 and 2: warnings %v", warns)
	}
}

// A synchronous table's loss curves are at one staleness level (none) by
// the nature of the job: lambda is held at 0 without a word, while an
// asynchronous table at one worker count, where the staleness cost is
// wanted and cannot be measured, is told so.
func TestTableEfficiencySyncNoLambdaNoise(t *testing.T) {
	const b0, b1, b2 = 0.004, 0.5, 0.1
	table := func(mode string, workers []int) (*traces.Trace, []traces.Throughput) {
		tr := &traces.Trace{}
		var rows []traces.Throughput
		for i, n := range workers {
			run := fmt.Sprintf("r%d", i)
			rows = append(rows, traces.Throughput{Workers: n, PS: 1, Batch: 32, Mode: mode, StepsPerS: 10, SamplesPerS: math.NaN(), Run: run, Std: math.NaN()})
			for k := int64(0); k <= 4000; k += 200 {
				tr.Evals = append(tr.Evals, traces.Eval{Run: run, Time: float64(k) / 10, Updates: k, Loss: 1/(b0*float64(k)+b1) + b2 + 1e-4*float64(i), Accuracy: math.NaN()})
			}
		}
		tr.Throughput = rows
		return tr, rows
	}
	tr, rows := table("sync", []int{2, 4})
	eff, warns := TableEfficiency(tr, rows, &Settings{Bootstrap: 0})
	if eff == nil || !eff.LambdaFixed || eff.Lambda != 0 {
		t.Fatalf("sync: efficiency %+v, want lambda held at 0", eff)
	}
	if all := strings.Join(warns, "\n"); strings.Contains(all, "lambda") {
		t.Errorf("sync: a warning about lambda, which a synchronous job does not have:\n%s", all)
	}
	tr, rows = table("async", []int{4, 4})
	eff, warns = TableEfficiency(tr, rows, &Settings{Bootstrap: 0})
	if eff == nil || !eff.LambdaFixed {
		t.Fatalf("async at one worker count: efficiency %+v, want lambda_fixed", eff)
	}
	if all := strings.Join(warns, "\n"); !strings.Contains(all, "the staleness cost (lambda) is not identified") {
		t.Errorf("async at one staleness: want lambda's warning:\n%s", all)
	}
}
