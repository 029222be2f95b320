package fit

import (
	"github.com/sgdplan/sgdplan/model"
	"math"
	"testing"
)

// TestSpeedupStepsAboveSweepMax: Model.Speedup at counts above sweepMax,
// ascending as the planner's greedy and knee policies ask them, then down
// and up again and past model.ExactLimit, gives to the bit what the model
// without its memo gives (each count solved alone), and an mva model
// reaches the ascending counts by stepping its cursor on (one step each):
// SamplesPerSecond solved each from 1 (plan --policy greedy on 100,000
// servers, two jobs of one fitted model: 37 s, O(N^2)). Fails on the old
// SamplesPerSecond, which left no cursor.
func TestSpeedupStepsAboveSweepMax(t *testing.T) {
	for name, m0 := range rangeModels(t) {
		fresh := *m0
		fresh.sweeps = newSweepMemo()
		ref := *m0
		ref.sweeps = nil
		var ks []float64
		for k := sweepMax - 3; k <= sweepMax+40; k++ {
			ks = append(ks, float64(k))
		}
		ks = append(ks, sweepMax+20, sweepMax+20.5, sweepMax+41, sweepMax+7, sweepMax+8, 100000, 100001, 100002.25, sweepMax+42)
		for _, k := range ks {
			if got, want := fresh.Speedup(k), ref.Speedup(k); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s: Speedup(%v) = %v, solved alone %v", name, k, got, want)
			}
			c := model.Config{Workers: int(k)}
			if got, want := fresh.SamplesPerSecond(c), ref.SamplesPerSecond(c); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s: SamplesPerSecond at %d workers = %v, solved alone %v", name, int(k), got, want)
			}
		}
		if fresh.stepsOf(fresh.fam) == nil {
			continue // not an mva model: no cursor
		}
		// the ascending counts up to sweepMax+40 came from the cursor:
		// it stands past sweepMax (later counts moved it on)
		stepped := false
		for k, cur := range fresh.sweeps.cursors {
			if k.family == fresh.fam.Name && cur.st != nil && cur.st.N() > sweepMax {
				stepped = true
			}
		}
		if !stepped {
			t.Errorf("%s: no cursor of the model's family past sweepMax: each count above it was solved from 1", name)
		}
	}
}

// BenchmarkSpeedupAscending: a fitted mva model's Speedup at the 1,000
// whole counts above sweepMax, ascending, from a fresh memo: what the
// greedy and knee policies ask of a job's curve on many servers.
func BenchmarkSpeedupAscending(b *testing.B) {
	m0 := sweepModel(b)
	b.ResetTimer()
	for b.Loop() {
		m := *m0
		m.sweeps = newSweepMemo()
		for k := sweepMax + 1; k <= sweepMax+1000; k++ {
			m.Speedup(float64(k))
		}
	}
}
