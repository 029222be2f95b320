package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/plots"
)

// flatFloor finds where a band's lower edge stops moving (within 0.5%)
// for 3 counts or more while the point still moves: the time to target's
// band at the throughput's cap, which read as a drawing fault.
func TestFlatFloor(t *testing.T) {
	band := func(los ...float64) []plots.Band {
		b := make([]plots.Band, len(los))
		for i, lo := range los {
			b[i] = plots.Band{X: float64(i + 1), Y: 20 / float64(i+1), Lo: lo, Hi: 40}
		}
		return b
	}
	for _, c := range []struct {
		name string
		b    []plots.Band
		x    float64
		ok   bool
	}{
		{"flat from 3", band(10, 7, 5.5, 5.5, 5.52, 5.5), 3, true},
		{"falls to the end", band(10, 8, 7, 6, 5, 4), 0, false},
		{"flat for 2 counts only", band(10, 8, 7, 6, 5.5, 5.5), 0, false},
		{"too short", band(5, 5), 0, false},
	} {
		if x, ok := flatFloor(c.b); ok != c.ok || x != c.x {
			t.Errorf("%s: %g, %v; want %g, %v", c.name, x, ok, c.x, c.ok)
		}
	}
	// the point flat too: nothing to say
	b := band(10, 5, 5, 5, 5)
	for i := range b {
		b[i].Y = 7
	}
	if _, ok := flatFloor(b); ok {
		t.Error("a flat point and edge: named")
	}
	// the demo's model: flat from 4 workers, said in the caption
	m, _ := loadModel("t", asgdModel(t, t.TempDir()))
	cd, ok := reportConvergence(m, 16, nil)
	if x, flat := flatFloor(cd.TimePredicted); !ok || !flat || x != 4 {
		t.Errorf("asgd's time to target: flat from %g (%v, %v), want 4", x, ok, flat)
	}
	dir := t.TempDir()
	md := quickReport(t, asgdModel(t, dir), filepath.Join(jobsExample, "jobs.csv"), "16", filepath.Join(dir, "r"))
	if !strings.Contains(md, "The band's lower edge is flat from N = 4: the throughput's upper end has reached what the busiest station can carry (1/max D)") {
		t.Errorf("the convergence caption does not say why the band's edge is flat:\n%s", md)
	}
}
