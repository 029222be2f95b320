package planner

import (
	"math"
	"slices"
	"testing"
)

// heSRPT re-solves at every event from the work left, not the requested
// sizes: a job that has run most of its size is the smaller one now. For
// s(k) = k^p and equal weights, heSRPT's closed form gives the job that is
// i-th by decreasing remaining size, of m, the share (i/m)^c - ((i-1)/m)^c
// with c = 1/(1-p) (Berg, Vesilo, Harchol-Balter, 2020): at p = 0.5, c = 2,
// two jobs get 1/4 (the larger remaining) and 3/4 (the smaller). Job A
// asked for 10 s and has 1 s left, B asked for 5 s and has 4 s left: A is
// the smaller now and gets 3/4 of 8 workers, 6; B gets 2.
func TestHeSRPTPolicyUsesRemainingWork(t *testing.T) {
	jobs := []Job{{ID: "A", Size: 10, Curve: PowerLaw{0.5}}, {ID: "B", Size: 5, Curve: PowerLaw{0.5}}}
	vs := views(8, jobs, []float64{1, 4})
	alloc := make([]float64, 2)
	HeSRPTPolicy{}.Allocate(8, vs, alloc)
	want := []float64{6, 2}
	for i := range want {
		if math.Abs(alloc[i]-want[i]) > 1e-9*want[i] {
			t.Fatalf("heSRPT on 8 workers, remaining 1 s (of 10) and 4 s (of 5): %v, want %v", alloc, want)
		}
	}
}

// RoundWorkers with conserve gives the workers still idle once floors and
// remainders are placed to the jobs below their caps, largest share first.
// Shares 1, 2 and 0.5 of 6 workers under caps 2, 3 and 9: floors 1, 2, 0
// (3), the remainder 0.5 takes one (4), and the 2 left go to the 2.0 share
// (to its cap, 3), then the 1.0 share (to 2): 2, 3, 1. Smallest share
// first would give 2, 2, 2.
func TestRoundWorkersConserveLargestShareFirst(t *testing.T) {
	out := make([]int, 3)
	RoundWorkers([]float64{1, 2, 0.5}, []int{2, 3, 9}, 6, true, out)
	if want := []int{2, 3, 1}; !slices.Equal(out, want) {
		t.Errorf("RoundWorkers(1, 2, 0.5; caps 2, 3, 9; 6 workers, conserve) = %v, want %v", out, want)
	}
}

// Ties of remaining work go by weight, whatever the requested sizes: A (10
// s asked, weight 1) and B (5 s asked, weight 3) both have 2 s left, so
// the heavier B is the one to finish first (exchanging two equal jobs
// lowers the weighted flow by the difference of their weights). Weighted
// heSRPT, jobs largest remaining first, gives share_i = (W_i/W)^c -
// (W_{i-1}/W)^c with W_i the weights so far and c = 1/(1-p) = 2: A first,
// (1/4)^2 = 1/16 of 8 workers, 0.5; B the rest, 7.5. Ranking by the
// requested sizes (B smaller) reads no tie and keeps A last: B 9/16, A
// 7/16.
func TestHeSRPTPolicyTiesOfRemainingByWeight(t *testing.T) {
	jobs := []Job{{ID: "A", Size: 10, Weight: 1, Curve: PowerLaw{0.5}}, {ID: "B", Size: 5, Weight: 3, Curve: PowerLaw{0.5}}}
	alloc := make([]float64, 2)
	HeSRPTPolicy{}.Allocate(8, views(8, jobs, []float64{2, 2}), alloc)
	want := []float64{0.5, 7.5}
	for i := range want {
		if math.Abs(alloc[i]-want[i]) > 1e-9*want[i] {
			t.Fatalf("weighted heSRPT on 8 workers, 2 s left each, weights 1 and 3: %v, want %v", alloc, want)
		}
	}
}
