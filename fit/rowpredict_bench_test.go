package fit

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// repeatedPoints is r measurements of each of 1, 2, 4, 8, 16 and 32
// workers at one shard and batch 32 (the review's gen_tprep), 3% noise.
func repeatedPoints(r int) []Point {
	rng := rand.New(rand.NewPCG(3, 1))
	var pts []Point
	for _, w := range []int{1, 2, 4, 8, 16, 32} {
		for range r {
			t := 0.002*32 + 0.05*float64(w)/8 + 0.01
			pts = append(pts, Point{Config: model.Config{Workers: w, PS: 1, Batch: 32}, StepsPerS: float64(w) / t * (1 + 0.03*rng.NormFloat64()), SamplesPerStep: 32, Async: true})
		}
	}
	return pts
}

// tableWith is a gen_tp3-like table (workers 1, w/4, w/2, w at 1, 2 and 4
// shards and batches 32, 64, 128), each row repeated rep times.
func tableWith(w, rep int, seed uint64) []Point {
	rng := rand.New(rand.NewPCG(seed, 3))
	var pts []Point
	for _, n := range []int{1, w / 4, w / 2, w} {
		for _, p := range []int{1, 2, 4} {
			for _, b := range []float64{32, 64, 128} {
				t := 0.002*b + 0.05*float64(n)/float64(p)/64 + 0.01
				for range rep {
					pts = append(pts, Point{Config: model.Config{Workers: n, PS: p, Batch: b}, StepsPerS: float64(n) / t * (1 + 0.03*rng.NormFloat64()), SamplesPerStep: b, Async: true})
				}
			}
		}
	}
	return pts
}

// smaller keeps the points at 1 and 2 shards and batches 32 and 128 (16
// configurations: auto's cross-validation of every family, twice, in a
// few seconds).
func smaller(pts []Point) []Point {
	var out []Point
	for _, p := range pts {
		if p.Config.PS < 4 && p.Config.Batch != 64 {
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkFitThroughputTable: sgdplan fit's auto choice with its
// defaults (200 bootstrap resamples) on the scaling review's tables: a
// gen_tp3-like table of 36 configurations at up to 256 workers, and
// gen_tprep's 6 configurations measured 100 times each. The queueing
// families (asyncps, mva) dominated both: an MVA recursion per row per
// residual evaluation (rowPredictor).
func BenchmarkFitThroughputTable(b *testing.B) {
	for _, c := range []struct {
		name string
		pts  []Point
	}{
		{"tp3-w256", tableWith(256, 1, 3)},
		{"rep100", repeatedPoints(100)},
	} {
		b.Run(fmt.Sprintf("%s-%drows", c.name, len(c.pts)), func(b *testing.B) {
			loopCPU(b, func() {
				if _, _, err := FitThroughput(c.pts, "auto", nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
