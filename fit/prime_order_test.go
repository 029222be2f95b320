package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// TestPrimeAnyOrder: after Prime, worker counts asked descending or
// shuffled (below and above sweepMax, 1 and 2 shards) give to the bit what
// the model without its memo gives, and no recursion is started at a
// count (no cursor, for the staleness or the throughput): Prime keeps the
// network's staleness at the counts asked out of order, and the
// throughputs above sweepMax, from one pass each. Before, each count below
// the last restarted the staleness's cursor from 1 (predict sorted its
// counts to avoid it).
func TestPrimeAnyOrder(t *testing.T) {
	var desc []int
	for w := 300; w >= 1; w-- {
		desc = append(desc, w)
	}
	for w := sweepMax + 40; w >= sweepMax-2; w-- {
		desc = append(desc, w)
	}
	shuffled := slices.Clone(desc)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for name, m0 := range rangeModels(t) {
		m0.Samples = m0.Samples[:min(len(m0.Samples), 4)]
		for order, ws := range map[string][]int{"descending": desc, "shuffled": shuffled} {
			var cs []model.Config
			for _, ps := range []int{1, 2} {
				for _, w := range ws {
					cs = append(cs, model.Config{Workers: w, PS: ps})
				}
			}
			fresh := *m0
			fresh.sweeps = newSweepMemo()
			ref := *m0
			ref.sweeps = nil
			fresh.Prime(cs)
			staleness := false // the rows stretch to the network's staleness
			for _, c := range cs {
				got, want := fresh.Predict(c, math.NaN(), 0), ref.Predict(c, math.NaN(), 0)
				if fmt.Sprint(predictionBits(got)) != fmt.Sprint(predictionBits(want)) {
					t.Fatalf("%s, %s, %+v:\n got %+v\nwant %+v", name, order, c, got, want)
				}
				staleness = staleness || c.Workers > 1 && !math.IsNaN(got.Staleness.Lo) && m0.fam.Network != nil
			}
			if n := len(fresh.sweeps.stal); n > 0 {
				t.Errorf("%s, %s: %d staleness recursions started at a count, want all from Prime's table", name, order, n)
			}
			if n := len(fresh.sweeps.cursors); n > 0 {
				t.Errorf("%s, %s: %d throughput recursions started at a count, want all from Prime's table", name, order, n)
			}
			if name != "simulated" && !staleness {
				t.Errorf("%s: no row reads the network's staleness (the test tests nothing there)", name)
			}
		}
	}
}

// TestPrimeAscendingNoTable: counts asked in ascending order of an mva
// model keep no table of its own family past sweepMax, nor a sweep below
// it (its cursors step on to each count: predict --workers 1-100000 kept
// 128 MiB and 26 MB it did not need), and give to the bit what the model
// without its memo gives.
func TestPrimeAscendingNoTable(t *testing.T) {
	for name, m0 := range rangeModels(t) {
		m0.Samples = m0.Samples[:min(len(m0.Samples), 4)]
		var cs []model.Config
		for _, ps := range []int{2, 1} {
			for _, w := range []int{2, 3, 300} {
				cs = append(cs, model.Config{Workers: w, PS: ps})
			}
			for w := sweepMax - 2; w <= sweepMax+60; w += 3 {
				cs = append(cs, model.Config{Workers: w, PS: ps}, model.Config{Workers: w, PS: ps})
			}
		}
		fresh := *m0
		fresh.sweeps = newSweepMemo()
		ref := *m0
		ref.sweeps = nil
		fresh.Prime(cs)
		for k := range fresh.sweeps.primed {
			if k.family == m0.fam.Name {
				t.Errorf("%s: a table of the model's own family (%d shards), for ascending counts", name, k.c.PS)
			}
		}
		for _, c := range cs {
			got, want := fresh.Predict(c, math.NaN(), 0), ref.Predict(c, math.NaN(), 0)
			if fmt.Sprint(predictionBits(got)) != fmt.Sprint(predictionBits(want)) {
				t.Fatalf("%s, %+v:\n got %+v\nwant %+v", name, c, got, want)
			}
			// (as predict's json asks it of each row: the cursor's, not
			// a solution from 1 at each count)
			if a, b := fresh.StepsPerSecond(c), ref.StepsPerSecond(c); math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("%s, %+v: StepsPerSecond %v, without the memo %v", name, c, a, b)
			}
		}
		// (one number a vector and shard count: the speedup's base, at 1
		// worker)
		if most := 2 * (len(m0.Samples) + 1); len(m0.Rivals) == 0 && fresh.sweeps.held > most {
			t.Errorf("%s: the memo holds %d throughputs for ascending counts, want at most %d", name, fresh.sweeps.held, most)
		}
	}
}
