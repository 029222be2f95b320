package main

import (
	"path/filepath"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/traces"
)

// The report's fit figure draws the traces' runs at worker counts the
// fit did not see, hollow (held out), where the curve is: a model of the
// 1- and 2-worker runs of testdata/asgd showed 2 points beside a curve
// drawn to 8 workers, hiding the runs at 3, 4, 6 and 8.
func TestReportFitDataHeldOut(t *testing.T) {
	m, err := loadModel("report", asgdModel(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := traces.Load(filepath.Join("..", "..", "testdata", "asgd"))
	if err != nil {
		t.Fatal(err)
	}
	stats, err := fit.Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	d, err := reportFitData(m, stats)
	if err != nil {
		t.Fatal(err)
	}
	var held, seen []float64
	for _, o := range d.Measured {
		if o.HeldOut {
			held = append(held, o.X)
		} else {
			seen = append(seen, o.X)
		}
	}
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 2 || len(held) != 4 || held[0] != 3 || held[3] != 8 || d.HeldOut() != 4 {
		t.Errorf("fitted at %v, held out at %v (%d): want 1, 2 and 3, 4, 6, 8", seen, held, d.HeldOut())
	}
	if d0, _ := reportFitData(m, nil); d0.HeldOut() != 0 {
		t.Errorf("no traces: %d held out", d0.HeldOut())
	}
}
