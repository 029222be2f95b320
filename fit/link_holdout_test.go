package fit

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// The link widening against measurements it was not fitted on: the
// project's real async traces hold every configuration at two link rates,
// 3 and 6 MB/s. The mva model (the one family that follows the rate, as
// predict --bandwidth needs) fitted on the runs of one rate, all their
// worker and shard counts or the 1-2 worker runs alone, is asked about the
// 12 runs of the other rate through Config.Bandwidth; its 90% intervals,
// widened, must hold at least 90% of them and no fewer than the same
// model's without the record of its fitted rates (no link widening). The
// logged counts say how many each holds. An independent check of the
// assumption that a doubling of the rate drifts as a doubling of the
// workers does.
func TestLinkWideningHoldsTheOtherRate(t *testing.T) {
	dir := filepath.Join("..", "testdata", "asgd")
	tr, _, err := traces.Load(dir)
	if err != nil {
		t.Skipf("no real async traces: %v", err)
	}
	all, err := Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fitAt, askAt float64
		train        []int
	}{{3e6, 6e6, nil}, {6e6, 3e6, nil}, {3e6, 6e6, []int{1, 2}}, {6e6, 3e6, []int{1, 2}}} {
		sub := onlyRate(tr, c.fitAt)
		sf, err := FitSteps(sub, []string{dir}, StepOptions{Family: "mva", TrainWorkers: c.train, Bootstrap: 100})
		if err != nil {
			t.Fatalf("fit at %g B/s: %v", c.fitAt, err)
		}
		m := sf.Model
		if !m.ScalesLink() {
			t.Fatalf("fit at %g B/s: the model does not follow the link rate", c.fitAt)
		}
		plain := *m
		plain.Data.Configurations = nil
		var n, held, heldPlain int
		var errs []float64
		for _, r := range all {
			if r.Bandwidth != c.askAt {
				continue
			}
			cfg := model.Config{Workers: r.Workers, PS: r.PS, Bandwidth: c.askAt}
			p, q := m.Predict(cfg, math.NaN(), 0).StepsPerS, plain.Predict(cfg, math.NaN(), 0).StepsPerS
			if p.Value != q.Value {
				t.Fatalf("%s: the widening moved the point: %g vs %g", r.Run, p.Value, q.Value)
			}
			n++
			if r.StepsPerS >= p.Lo && r.StepsPerS <= p.Hi {
				held++
			}
			if r.StepsPerS >= q.Lo && r.StepsPerS <= q.Hi {
				heldPlain++
			}
			errs = append(errs, 100*math.Abs(p.Value/r.StepsPerS-1))
		}
		if n < 8 {
			t.Fatalf("%g B/s: %d runs asked, want the traces' 12", c.askAt, n)
		}
		mean := 0.0
		for _, e := range errs {
			mean += e
		}
		mean /= float64(len(errs))
		t.Logf("fitted at %g B/s (workers %v), asked at %g B/s: %d runs, mean error %.1f%%; widened intervals hold %d, unwidened %d", c.fitAt, c.train, c.askAt, n, mean, held, heldPlain)
		if float64(held) < 0.9*float64(n) {
			t.Errorf("fitted at %g B/s (workers %v): the widened 90%% intervals hold %d of %d runs at %g B/s", c.fitAt, c.train, held, n, c.askAt)
		}
		if held < heldPlain {
			t.Errorf("fitted at %g B/s: the widened intervals hold %d of %d runs at %g B/s, fewer than the unwidened %d", c.fitAt, held, n, c.askAt, heldPlain)
		}
	}
}

// onlyRate is the trace's rows of the runs at link rate bw alone.
func onlyRate(tr *traces.Trace, bw float64) *traces.Trace {
	keep := map[string]bool{}
	out := &traces.Trace{}
	for _, r := range tr.Runs {
		if r.Bandwidth == bw {
			keep[r.Run] = true
			out.Runs = append(out.Runs, r)
		}
	}
	for _, s := range tr.Steps {
		if keep[s.Run] {
			out.Steps = append(out.Steps, s)
		}
	}
	for _, u := range tr.Updates {
		if keep[u.Run] {
			out.Updates = append(out.Updates, u)
		}
	}
	for _, e := range tr.Evals {
		if keep[e.Run] {
			out.Evals = append(out.Evals, e)
		}
	}
	return out
}

// Step traces of one link rate, where auto keeps a table family (which has
// no link term): WithBandwidth refuses the model and says that the same
// data fit the queueing network with --family mva, which follows the rate.
func TestWithBandwidthSaysFamilyMVA(t *testing.T) {
	dir := filepath.Join("..", "testdata", "asgd")
	tr, _, err := traces.Load(dir)
	if err != nil {
		t.Skipf("no real async traces: %v", err)
	}
	sf, err := FitSteps(onlyRate(tr, 3e6), []string{dir}, StepOptions{Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	if sf.Model.Family == "mva" {
		t.Skip("auto kept mva: nothing to say")
	}
	_, err = sf.Model.WithBandwidth(6e6)
	if err == nil || !strings.Contains(err.Error(), "sgdplan fit --family mva fits the queueing network") {
		t.Errorf("WithBandwidth on %s: %v", sf.Model.Family, err)
	}
}
