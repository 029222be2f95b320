package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// sweepModel fits the mva family to simulated async steps (1, 2, 4 and 8
// workers) with bootstrap samples: a model whose predictions sweep.
func sweepModel(t testing.TB) *Model {
	t.Helper()
	f, err := FitSteps(simSteps(40_000), nil, StepOptions{Family: "mva", Bootstrap: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if f.Model.Family != "mva" || len(f.Model.Samples) == 0 || f.Model.fam.Sweep == nil {
		t.Fatalf("want an mva model with bootstrap samples and a sweep, got %s with %d samples", f.Model.Family, len(f.Model.Samples))
	}
	return f.Model
}

// TestSweepMemoEqualsPredict: in any order, with repeats, several
// parameter vectors and shard counts, and a budget small enough to be
// emptied many times, the memo returns Family.Predict's numbers exactly.
func TestSweepMemoEqualsPredict(t *testing.T) {
	f := mvaFamily(Queueing{})
	thetas := [][]float64{{0.05, 0.001, 0.01, 0.002}, {0.2, 0, 0.05, 0.01}, {0.01, 0.0005, 0.002, 0.0001}}
	for _, limit := range []int{sweepBudget, 300} {
		s := newSweepMemo()
		s.limit = limit
		rng := rand.New(rand.NewPCG(7, uint64(limit)))
		for i := 0; i < 3000; i++ {
			th := thetas[rng.IntN(len(thetas))]
			c := model.Config{Workers: 1 + rng.IntN(200), PS: 1 + rng.IntN(3), Batch: 32, Nodes: rng.IntN(4)}
			if got, want := s.predict(f, th, c), f.Predict(th, c); got != want {
				t.Fatalf("limit %d, theta %v at %+v: memo %g, Predict %g", limit, th, c, got, want)
			}
			if s.held > s.limit {
				t.Fatalf("limit %d: the memo holds %d numbers", limit, s.held)
			}
		}
		if limit == 300 && len(s.runs) == 0 {
			t.Error("the memo kept nothing")
		}
	}
	// Past sweepMax, and for a nil memo, Predict itself.
	var none *sweepMemo
	c := model.Config{Workers: sweepMax + 1, PS: 1, Batch: 32}
	if got, want := none.predict(f, thetas[0], c), f.Predict(thetas[0], c); got != want {
		t.Errorf("nil memo: %g, want %g", got, want)
	}
	s := newSweepMemo()
	if got, want := s.predict(f, thetas[0], c), f.Predict(thetas[0], c); got != want || len(s.runs) != 0 {
		t.Errorf("beyond sweepMax: %g (%d runs kept), want %g and none", got, len(s.runs), want)
	}
}

// TestSweepMemoConcurrent: goroutines sharing a memo get Predict's numbers
// (run with -race for the locking).
func TestSweepMemoConcurrent(t *testing.T) {
	f := mvaFamily(Queueing{})
	th := []float64{0.05, 0.001, 0.01, 0.002}
	s := newSweepMemo()
	s.limit = 500
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 1; n <= 300; n++ {
				c := model.Config{Workers: (n*(g+1))%300 + 1, PS: 1 + g%2, Batch: 32}
				if got, want := s.predict(f, th, c), f.Predict(th, c); got != want {
					errs <- "memo differs from Predict"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestSweepFamilyContract: the mva family's Predict does not depend on the
// machines (the memo's key drops them), and with shared cores, where it
// does, the family has no sweep.
func TestSweepFamilyContract(t *testing.T) {
	f := mvaFamily(Queueing{Bandwidth: 1e8})
	th := []float64{0.05, 0.001, 0.01, 0.002}
	for _, w := range []int{1, 3, 17} {
		c := model.Config{Workers: w, PS: 2, Batch: 16, Bandwidth: 5e7}
		want := f.Predict(th, c)
		for _, nodes := range []int{1, 2, w} {
			c.Nodes = nodes
			if got := f.Predict(th, c); got != want {
				t.Errorf("%d workers on %d machines: %g, on none given %g", w, nodes, got, want)
			}
		}
	}
	if mvaFamily(Queueing{SharedCores: 2}).Sweep != nil {
		t.Error("shared cores: the family sweeps, but its network changes with the workers")
	}
}

// TestModelPredictSweeps: a fitted mva model predicts the same with its
// memo as without, whatever the order of the worker counts, and its
// speedup curve too.
func TestModelPredictSweeps(t *testing.T) {
	m := sweepModel(t)
	bare := *m
	bare.sweeps = nil
	ws := []int{64, 1, 2, 3, 200, 5, 64, 150, 9}
	for n := 1; n <= 40; n++ {
		ws = append(ws, n)
	}
	for _, ps := range []int{1, 2} {
		for _, w := range ws {
			c := model.Config{Workers: w, PS: ps}
			got, want := m.Predict(c, 0.5, 0), bare.Predict(c, 0.5, 0)
			if got != want {
				t.Fatalf("%d workers, %d shards: with the memo %+v, without %+v", w, ps, got, want)
			}
			if a, b := m.StepsPerSecond(c), bare.StepsPerSecond(c); a != b {
				t.Fatalf("%d workers: StepsPerSecond %g with the memo, %g without", w, a, b)
			}
		}
	}
	for _, k := range []float64{1, 2.5, 7, 33} {
		if a, b := m.Speedup(k), bare.Speedup(k); a != b {
			t.Errorf("speedup at %g: %g with the memo, %g without", k, a, b)
		}
	}
	if len(m.sweeps.runs) == 0 {
		t.Error("the model's predictions never used the memo")
	}
}

// Prime serves the counts above sweepMax from one sweep per parameter
// vector: the same numbers as solving each count alone, for the fit, its
// bootstrap samples and its rivals. (The counts are given descending: an
// mva model's ascending counts are stepped to, with no table;
// TestPrimeAscendingNoTable.)
func TestPrimeMatchesPerCount(t *testing.T) {
	st := asgdStats(t)
	sf, err := fitFromStats(st, nil, 0, nil, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	var cs []model.Config
	for _, w := range []int{model.ExactLimit + 5, 30000, 20001, 20000, sweepMax + 2, sweepMax + 1, sweepMax - 1} {
		for _, p := range []int{1, 2} {
			cs = append(cs, model.Config{Workers: w, PS: p})
		}
	}
	alone := *m
	alone.sweeps = nil // every count solved on its own
	m.Prime(cs)
	if len(m.sweeps.primed) == 0 {
		t.Fatal("nothing primed")
	}
	for _, c := range cs {
		a, b := m.Predict(c, math.NaN(), 0), alone.Predict(c, math.NaN(), 0)
		if a.StepsPerS != b.StepsPerS || a.Speedup != b.Speedup || a.TimeToTarget != b.TimeToTarget && !math.IsNaN(a.TimeToTarget.Value) {
			t.Errorf("%+v: primed %+v, alone %+v", c, a, b)
		}
	}
	// the table is what predict reads (a changed entry shows), and it
	// stops at model.ExactLimit: above, a count costs a fixed point
	// whatever N, and a sweep to 1,000,000 took 10 s for one count
	for k, r := range m.sweeps.primed {
		if r.ns[len(r.ns)-1] > model.ExactLimit {
			t.Errorf("primed up to %d workers", r.ns[len(r.ns)-1])
		}
		if k.family == m.fam.Name && k.theta == keyOf(m.fam, m.theta(), model.Config{}).theta && k.c.PS == 1 {
			r.xs[0] = 12345
		}
	}
	if x := m.StepsPerSecond(model.Config{Workers: sweepMax + 1, PS: 1}); x != 12345 {
		t.Errorf("StepsPerSecond at %d workers = %g: the primed table is not read", sweepMax+1, x)
	}
}

// TestWrappedFamilySweeps: the asyncps family (package model's AsyncPS
// through its parameter vector) sweeps, and its sweep is its Predict at
// every count to the bit, whatever the machines; a fitted asyncps model
// predicts the same with its memo as without.
func TestWrappedFamilySweeps(t *testing.T) {
	f, ok := families["asyncps"]
	if !ok || f.Sweep == nil {
		t.Fatal("the asyncps family has no sweep")
	}
	th := []float64{0.05, 1e-3, 0.02, 0.01}
	for _, ps := range []int{1, 3} {
		c := model.Config{PS: ps, Batch: 16}
		xs := make([]float64, 200)
		f.Sweep(th, c, xs)
		for w := 1; w <= len(xs); w++ {
			c.Workers = w
			for _, nodes := range []int{0, 1, w} {
				c.Nodes = nodes
				if got := f.Predict(th, c); math.Float64bits(got) != math.Float64bits(xs[w-1]) {
					t.Fatalf("%d ps, %d workers on %d machines: Predict %v, Sweep %v", ps, w, nodes, got, xs[w-1])
				}
			}
		}
	}
	m, err := ParseModel("m.json", []byte(`{"schema": "sgdplan/model/v1", "family": "asyncps", "mode": "async", "parameters": [{"name": "compute0", "value": 0.05}, {"name": "compute1", "value": 0.001}, {"name": "latency", "value": 0.02}, {"name": "apply", "value": 0.01}], "reference": {"batch": 16, "ps": 2}, "bootstrap_samples": [[0.06, 0.001, 0.018, 0.011], [0.045, 0.0012, 0.022, 0.009]]}`))
	if err != nil {
		t.Fatal(err)
	}
	bare := *m
	bare.sweeps = nil
	for _, w := range []int{1, 5, 64, 3, 400, 399, 20000, 17000, 2} {
		c := model.Config{Workers: w, PS: 2}
		if a, b := predictionBits(m.Predict(c, math.NaN(), 0)), predictionBits(bare.Predict(c, math.NaN(), 0)); !slices.Equal(a, b) {
			t.Fatalf("%d workers: the memo's prediction differs from the one solved alone", w)
		}
	}
	if f := families["syncps"]; f.Sweep != nil {
		t.Error("syncps sweeps: its model has no sweep")
	}
}
