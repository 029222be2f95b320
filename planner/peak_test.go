package planner

import (
	"math"
	"testing"
)

// hump is s(k) = 2k/(1 + (k/k0)^2) for k >= 1, which peaks at k0 (its
// derivative 2(1 - (k/k0)^2)/(1 + (k/k0)^2)^2 vanishes there).
type hump struct{ k0 float64 }

func (h hump) Speedup(k float64) float64 { return 2 * k / (1 + (k/h.k0)*(k/h.k0)) }

// plateau rises linearly to 5 workers and stays there.
type plateau struct{}

func (plateau) Speedup(k float64) float64 { return math.Min(k, 5) }

// flatNoise is a flat curve with rounding noise, a last bit up at 5
// workers, as a fitted flat table gave (plan called it fastest at 5).
type flatNoise struct{}

func (flatNoise) Speedup(k float64) float64 {
	if k == 5 {
		return math.Nextafter(1, 2)
	}
	return 1
}

func TestFastestWorkers(t *testing.T) {
	cases := []struct {
		name  string
		c     Speedup
		limit float64
		want  float64
	}{
		{"power law never falls", PowerLaw{P: 0.5}, 1000, 1000},
		{"hump at 8", hump{8}, 32, 8},
		{"hump at 8, limit below it", hump{8}, 6, 6},
		{"hump at 8, fractional limit", hump{8}, 20.5, 8},
		{"plateau: its start", plateau{}, 100, 5},
		{"flat with rounding noise: one worker", flatNoise{}, 16, 1},
		{"still rising at the end of the search", hump{1e6}, 50000, 50000},
		{"one worker", hump{8}, 1, 1},
	}
	for _, c := range cases {
		if got := FastestWorkers(c.c, c.limit); got != c.want {
			t.Errorf("%s: %g, want %g", c.name, got, c.want)
		}
	}
}

// A job whose curve peaks at 8 workers runs on 8 of 32 servers under every
// policy but fcfs-rigid (which gives it the 32 it asks for): its completion
// is size/s(8), against size/s(32) for the 32 (it was given all 32 and took
// longer than on 8).
func TestSimulateCapsAtPeak(t *testing.T) {
	jobs := []Job{{ID: "a", Size: 1000, Curve: hump{8}, RigidWorkers: 32}}
	for _, name := range PolicyNames {
		pol, err := NewPolicy(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, integer := range []bool{false, true} {
			r, err := Simulate(jobs, pol, Settings{Servers: 32, Integer: integer})
			if err != nil {
				t.Fatal(err)
			}
			want := 1000 / hump{8}.Speedup(8)
			if name == "fcfs-rigid" {
				want = 1000 / hump{8}.Speedup(32)
			}
			if got := r.Jobs[0].Completion; math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s (whole workers %v): completion %g, want %g", name, integer, got, want)
			}
		}
	}
}
