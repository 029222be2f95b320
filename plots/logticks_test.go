package plots

import (
	"math"
	"slices"
	"testing"
)

// The response-time CDF's log axis: powers of ten when two or more lie in
// range (LogTicks' labels), else 1-2-5 times them, else every multiple,
// else a linear axis's ticks; every tick within the range.
func TestLog10TicksLabels(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{80, 60000, []string{"100", "1000", "10000"}},
		{300, 4000, []string{"500", "1000", "2000"}},
		{210, 480, []string{"300", "400"}},
		{0.03, 0.4, []string{"0.05", "0.1", "0.2"}},
		{1010, 1090, []string{"1020", "1040", "1060", "1080"}},
	} {
		ts := (log10Ticks{}).Ticks(c.min, c.max)
		var got []string
		for _, tk := range ts {
			if tk.Value < c.min || tk.Value > c.max {
				t.Errorf("[%g, %g]: tick %g outside", c.min, c.max, tk.Value)
			}
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", c.min, c.max, got, c.want)
		}
	}
	for _, r := range [][2]float64{{0, 10}, {-1, 10}, {5, 5}, {1, math.Inf(1)}} {
		if ts := (log10Ticks{}).Ticks(r[0], r[1]); len(ts) != 0 {
			t.Errorf("%v: %d ticks, want none", r, len(ts))
		}
	}
}
