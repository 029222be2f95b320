package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// predictionBits is every number of p, as bits (NaN payloads and signed
// zeros included).
func predictionBits(p Prediction) []uint64 {
	out := []uint64{uint64(p.Workers), uint64(p.PS)}
	for _, iv := range []Interval{p.Staleness, p.StepsPerS, p.SamplesPerS, p.Speedup, p.Efficiency, p.UpdatesToTarget, p.TimeToTarget} {
		out = append(out, math.Float64bits(iv.Value), math.Float64bits(iv.Lo), math.Float64bits(iv.Hi))
	}
	return out
}

// rangeModels are mva models to predict over ranges of worker counts: the
// demo's fit of testdata/asgd on 1-2 workers (loss curves and their
// samples, as sgdplan fit makes it; exact and corrected MVA), read back
// from its JSON, and the simulated one of sweepModel.
func rangeModels(t *testing.T) map[string]*Model {
	t.Helper()
	ms := map[string]*Model{"simulated": sweepModel(t)}
	dir := filepath.Join(repoRoot(t), "testdata", "asgd")
	for _, v := range []string{"exact", "correction"} {
		sf, _, err := FitStepsPaths([]string{dir}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 12, Seed: 5, Queueing: v})
		if err != nil {
			t.Skipf("no real async traces: %v", err)
		}
		b, err := sf.Model.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseModel("m.json", b)
		if err != nil {
			t.Fatal(err)
		}
		if m.Family != "mva" || len(m.Samples) == 0 || m.fam.Sweep == nil {
			t.Fatalf("asgd %s: want an mva model with samples and a sweep, got %s with %d samples", v, m.Family, len(m.Samples))
		}
		ms["asgd "+v] = m
	}
	return ms
}

// TestPredictRangeBitForBit: Model.Predict over worker counts 1..300 in a
// shuffled order, then runs past sweepMax up, down and around primed
// counts, up to model.ExactLimit and past it, at 1, 2 and 4 shards, with
// the model's link rate and another, gives to the bit what the model
// without its memo gives (every count solved alone by Family.Predict, the
// saturation from the networks: the code before memo and cursors), with
// the memo's budget at its size and small enough to be emptied often.
func TestPredictRangeBitForBit(t *testing.T) {
	var ws []int
	for w := 1; w <= 300; w++ {
		ws = append(ws, w)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	rng.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	for w := sweepMax - 2; w <= sweepMax+25; w++ {
		ws = append(ws, w)
	}
	ws = append(ws, sweepMax+7, sweepMax+26, sweepMax+3, sweepMax+40, 20000, 19999, 20001, model.ExactLimit, model.ExactLimit+1, model.ExactLimit-1, 1)
	for name, m0 := range rangeModels(t) {
		// (the reference solves each count alone for every vector: a few
		// samples are enough to test, and cost less)
		m0.Samples = m0.Samples[:min(len(m0.Samples), 6)]
		for _, bw := range []float64{0, 2e6} {
			m := m0
			if bw > 0 {
				if m0.Queueing == nil || !(m0.Queueing.Bandwidth > 0) {
					continue
				}
				var err error
				if m, err = m0.WithBandwidth(bw); err != nil {
					t.Fatal(err)
				}
			}
			for _, limit := range []int{sweepBudget, 500} {
				fresh := *m
				fresh.sweeps = newSweepMemo()
				fresh.sweeps.limit = limit
				ref := *m
				ref.sweeps = nil
				// primed: a few counts past sweepMax, as predict primes
				// them (the others are stepped to)
				fresh.Prime([]model.Config{{Workers: sweepMax + 5, PS: 2}, {Workers: sweepMax + 30, PS: 2}})
				rows := 0
				for _, ps := range []int{1, 2, 4} {
					for i, w := range ws {
						if i >= 300 && (limit != sweepBudget || testing.Short()) {
							break // (the budget is of counts up to sweepMax)
						}
						c := model.Config{Workers: w, PS: ps}
						got, want := fresh.Predict(c, math.NaN(), 0), ref.Predict(c, math.NaN(), 0)
						if fmt.Sprint(predictionBits(got)) != fmt.Sprint(predictionBits(want)) {
							t.Fatalf("%s, link rate %g, budget %d, %d workers, %d shards:\n got %+v\nwant %+v", name, bw, limit, w, ps, got, want)
						}
						if a, b := fresh.Saturation(c), ref.Saturation(c); math.Float64bits(a) != math.Float64bits(b) {
							t.Fatalf("%s, %d workers, %d shards: saturation %v, without the memo %v", name, w, ps, a, b)
						}
						// copies sharing the memo with other vectors
						if a, b := fresh.Resampled(1).Saturation(c), ref.Resampled(1).Saturation(c); math.Float64bits(a) != math.Float64bits(b) {
							t.Fatalf("%s, %d workers, %d shards: a sample's saturation %v, without the memo %v", name, w, ps, a, b)
						}
						rows++
					}
				}
				if !testing.Short() && limit == sweepBudget && len(fresh.sweeps.cursors) == 0 {
					t.Errorf("%s: no count was stepped to", name)
				}
				t.Logf("%s, link rate %g, budget %d: %d predictions the same", name, bw, limit, rows)
			}
		}
	}
}

// TestPredictRangeConcurrent: goroutines predicting ascending ranges past
// sweepMax on one model (sharing its memo and cursors, as plan's two
// interval ends do) get the predictions of the model without a memo (run
// with -race for the locking).
func TestPredictRangeConcurrent(t *testing.T) {
	m := sweepModel(t)
	m.Samples = m.Samples[:5]
	ref := *m
	ref.sweeps = nil
	const n = 40
	want := map[model.Config][]uint64{}
	for ps := 1; ps <= 2; ps++ {
		for w := sweepMax + 1; w <= sweepMax+n; w++ {
			c := model.Config{Workers: w, PS: ps}
			want[c] = predictionBits(ref.Predict(c, 0.5, 0))
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 6)
	for g := range 6 {
		wg.Go(func() {
			for i := range n {
				w := sweepMax + 1 + i
				if g%3 == 2 { // one in three goes down: its cursor starts again each time
					w = sweepMax + n - i
				}
				c := model.Config{Workers: w, PS: 1 + g%2}
				if got := predictionBits(m.Predict(c, 0.5, 0)); fmt.Sprint(got) != fmt.Sprint(want[c]) {
					errs <- fmt.Sprintf("goroutine %d, %+v: %v, want %v", g, c, got, want[c])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestSaturationMemoVectors: a copy of a model sharing its memo, with the
// same fit and number of samples but one sample changed, gets its own
// saturation, not the memo's of the model.
func TestSaturationMemoVectors(t *testing.T) {
	m := sweepModel(t)
	c := model.Config{Workers: 7, PS: 2}
	before := m.Saturation(c)
	other := *m
	other.Samples = slices.Clone(m.Samples)
	other.Samples[3] = slices.Clone(m.Samples[3])
	for j := range other.Samples[3] {
		other.Samples[3][j] *= 1e-3 // a far faster job: a higher bound
	}
	bare := other
	bare.sweeps = nil
	if got, want := other.Saturation(c), bare.Saturation(c); math.Float64bits(got) != math.Float64bits(want) || got == before {
		t.Errorf("changed sample: saturation %v (the model's %v), want %v", got, before, want)
	}
	if again := m.Saturation(c); again != before {
		t.Errorf("the model's saturation went from %v to %v", before, again)
	}
}
