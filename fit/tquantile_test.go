package fit

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// tQuantile's memo gives gonum's quantile, the first time and from the
// memo, and does not store a NaN level (it would never be found again).
// Independent values: t_{0.95, 1} = 6.3138, t_{0.95, 4} = 2.1318 (tables).
func TestTQuantileMemo(t *testing.T) {
	for _, c := range []struct{ level, nu, table float64 }{{0.9, 1, 6.3138}, {0.9, 4, 2.1318}, {0.95, 4, 2.7764}} {
		want := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: c.nu}.Quantile(1 - (1-c.level)/2)
		for i := range 2 {
			if got := tQuantile(c.level, c.nu); got != want || math.Abs(got-c.table) > 1e-4 {
				t.Errorf("call %d: tQuantile(%g, %g) = %g, want %g (tables: %g)", i+1, c.level, c.nu, got, want, c.table)
			}
		}
	}
	_ = tQuantile(math.NaN(), 3)
	if _, ok := tQuantiles.Load([2]float64{math.NaN(), 3}); ok {
		t.Error("a NaN level was stored")
	}
	n := 0
	tQuantiles.Range(func(k, _ any) bool {
		if key := k.([2]float64); key[0] != key[0] {
			n++
		}
		return true
	})
	if n != 0 {
		t.Errorf("%d NaN keys in the memo", n)
	}
}
