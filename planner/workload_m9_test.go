package planner

import (
	"math"
	"math/rand/v2"
	"testing"
)

// LogNormal{Mu, Sigma} draws exp(Mu + Sigma Z), Z standard normal: its
// median is e^Mu, and the logs of the draws have mean Mu and standard
// deviation Sigma. 4000 draws (fixed seed): half below e^Mu within 0.05
// (the binomial's sd is 0.0079), and the logs' mean and sd within 0.05 of
// 1 and 0.5 (sd of the mean 0.5/sqrt(4000) = 0.0079).
func TestLogNormalMomentsM9(t *testing.T) {
	d := LogNormal{Mu: 1, Sigma: 0.5}
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 4000
	below, sum, sum2 := 0, 0.0, 0.0
	for range n {
		x := d.Rand(rng)
		if x < math.E {
			below++
		}
		l := math.Log(x)
		sum += l
		sum2 += l * l
	}
	mean := sum / n
	sd := math.Sqrt(sum2/n - mean*mean)
	if f := float64(below) / n; math.Abs(f-0.5) > 0.05 {
		t.Errorf("fraction below e^Mu %g, want 0.5", f)
	}
	if math.Abs(mean-1) > 0.05 || math.Abs(sd-0.5) > 0.05 {
		t.Errorf("logs: mean %g, sd %g; want 1 and 0.5", mean, sd)
	}
}
