package main

import (
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
)

// With --epochs the time to target is the passes' time, while the speedup
// column is to the loss target: where more workers need more updates
// (a staleness cost) the two differ, and the line under the table says
// which the speedup is (a user read 9643 s against 3486 s, 2.77 times,
// beside a speedup of 1.971); where they agree it says nothing more.
func TestEpochsLineNamesTheSpeedup(t *testing.T) {
	m, err := fit.LoadModel(fitModel(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	m.Reference.Dataset = 1000
	rows := []predictRow{{TargetEpochs: ptr(2)}}
	const note = "the speedup column is to the loss target"
	for _, lambda := range []float64{0, 0.1} {
		if m.Efficiency == nil {
			m.Efficiency = &fit.Efficiency{}
		}
		m.Efficiency.Lambda = lambda
		line := targetLine(m, rows)
		if !strings.HasPrefix(line, "updates and time to target: for 2 passes (--epochs)") || strings.Contains(line, note) != (lambda > 0) {
			t.Errorf("lambda %g: %q", lambda, line)
		}
	}
}
