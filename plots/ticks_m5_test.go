package plots

import (
	"slices"
	"testing"
)

// Tests from mutation round 5 (the response-time CDF's log axis).

// The range is closed: a power of ten, or a 1-2-5 multiple, at the top of
// the range is labelled. [1, 1000] holds 1, 10, 100, 1000 (four powers);
// [0.2, 5] holds one power (1), so 1-2-5 labels: 0.2, 0.5, 1, 2, 5.
func TestLog10TicksClosedRangeM5(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{1, 1000, []string{"1", "10", "100", "1000"}},
		{0.2, 5, []string{"0.2", "0.5", "1", "2", "5"}},
	} {
		var got []string
		for _, tk := range (log10Ticks{}).Ticks(c.min, c.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", c.min, c.max, got, c.want)
		}
	}
}
