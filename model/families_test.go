package model

import (
	"math"
	"testing"
)

// relClose reports whether got is within rel of want, relative to |want|
// (absolute when want is 0).
func relClose(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestExpectedMaxNormal(t *testing.T) {
	// Textbook values (Tippett 1925; Harter 1961 tables of expected normal
	// order statistics): E[max of 2] = 1/sqrt(pi), E[max of 3] = 3/(2 sqrt(pi)).
	cases := []struct {
		n    int
		want float64
	}{
		{1, 0},
		{2, 1 / math.Sqrt(math.Pi)},       // 0.5641896
		{3, 3 / (2 * math.Sqrt(math.Pi))}, // 0.8462844
		{4, 1.0293754},
		{5, 1.1629645},
		{10, 1.5387527},
		{100, 2.50759}, // 5 digits in the tables
	}
	for _, c := range cases {
		if got := ExpectedMaxNormal(c.n); !relClose(got, c.want, 2e-6) {
			t.Errorf("ExpectedMaxNormal(%d) = %.8g, want %.8g", c.n, got, c.want)
		}
	}
}
