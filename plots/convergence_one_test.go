package plots

import "testing"

// One fitted line stands for every worker count when their fitted losses
// agree within 0.5% wherever they share an update count; the one that
// reaches furthest is drawn.
func TestCoincidentFits(t *testing.T) {
	curve := func(w int, upTo int, scale float64) LossCurve {
		c := LossCurve{Workers: w}
		for u := 0; u <= upTo; u += 100 {
			c.FitUpdates = append(c.FitUpdates, float64(u))
			c.FitLoss = append(c.FitLoss, scale/(1+float64(u)/100))
		}
		return c
	}
	data := LossCurve{Workers: 3, Updates: []float64{1, 2}, Loss: []float64{2, 1}} // runs, no fit
	for _, c := range []struct {
		name   string
		curves []LossCurve
		want   int
	}{
		{"alike, the last reaches furthest", []LossCurve{curve(1, 500, 1), curve(2, 500, 1.004), data, curve(16, 900, 1)}, 3},
		{"alike, the first reaches furthest", []LossCurve{curve(1, 900, 1), curve(2, 500, 1)}, 0},
		{"1% apart", []LossCurve{curve(1, 500, 1), curve(2, 500, 1.01)}, -1},
		{"one fit", []LossCurve{curve(1, 500, 1), data}, -1},
		{"no shared updates", []LossCurve{curve(1, 500, 1), {Workers: 2, FitUpdates: []float64{50, 150}, FitLoss: []float64{1, 1}}}, -1},
	} {
		if got := coincidentFits(c.curves); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
