package fit

import (
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// BatchOutside says what the two batch warnings speak of: the demo's model
// was fitted at one per-worker batch, 32, so a row is outside at any other
// per-worker batch, and under a global batch G its speedup's base (one
// worker at G) is too past one worker unless G is 32; and it agrees with
// the warnings (predict built both strings for every row to know it) on
// that model, on strongly scaled data and on a model without a batch
// record (never outside).
func TestBatchOutside(t *testing.T) {
	asgd, strong := asgdBatchModel(t), strongModel(t)
	for _, b := range []float64{8, 16, 32, 64, 256} {
		m, err := asgd.WithBatch(b, 0)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 12; n++ {
			if got, want := m.BatchOutside(model.Config{Workers: n}), b != 32; got != want {
				t.Errorf("--batch %g, %d workers: BatchOutside %v, want %v", b, n, got, want)
			}
		}
	}
	for _, g := range []float64{32, 64, 96, 256} {
		m, err := asgd.WithBatch(0, g)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 3, 8} {
			want := g/float64(n) != 32 || n > 1 && g != 32
			if got := m.BatchOutside(model.Config{Workers: n}); got != want {
				t.Errorf("--global-batch %g, %d workers: BatchOutside %v, want %v", g, n, got, want)
			}
		}
	}
	for name, base := range map[string]*Model{"asgd": asgd, "strong": strong, "no record": withoutBatches(asgd)} {
		for _, set := range [][2]float64{{0, 0}, {8, 0}, {32, 0}, {1024, 0}, {0, 64}, {0, 256}, {0, 4096}} {
			m := base // {0, 0}: the model's own batch
			if set != [2]float64{} {
				var err error
				if m, err = base.WithBatch(set[0], set[1]); err != nil {
					t.Fatal(err)
				}
			}
			for _, n := range []int{1, 2, 5, 8, 32} {
				for _, ps := range []int{0, 1, 2} {
					c := model.Config{Workers: n, PS: ps}
					if m.CheckConfig(c) != nil {
						continue
					}
					cs := []model.Config{c}
					want := m.BatchRangeWarning(cs) != "" || m.SpeedupBaseBatchWarning(cs) != ""
					if got := m.BatchOutside(c); got != want {
						t.Errorf("%s at batch %v, %d workers, %d ps: BatchOutside %v, the warnings say %v", name, set, n, ps, got, want)
					}
					if name == "no record" && want {
						t.Errorf("%s at batch %v, %d workers: outside, with no batch recorded", name, set, n)
					}
				}
			}
		}
	}
}
