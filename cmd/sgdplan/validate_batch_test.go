package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
)

// The batch-size table gives each job's noise scale with one fitted count
// moved by 1%, and names the jobs whose every curve reaches the target at
// its last evaluation (their counts are the runs' lengths), and only those.
func TestBatchMarkdownPinAndLastEvaluation(t *testing.T) {
	v := &validation{batches: []fit.BatchScore{
		{Name: "short", Target: 1, Train: []float64{1, 2, 4}, Test: []float64{8, 16}, Noise: 100, NoiseLo: 50, NoiseHi: 2e3, MAPE: 3, Worst: 6, AtLast: 5, Evals: 2},
		{Name: "long", Target: 1, Train: []float64{1, 2, 4}, Test: []float64{8, 16}, Noise: 100, NoiseLo: 90, NoiseHi: 110, MAPE: 5, Worst: 9, AtLast: 4, Evals: 50},
	}}
	var b bytes.Buffer
	v.batchMarkdown(&b)
	out := b.String()
	for _, want := range []string{
		"| fitted Bnoise | Bnoise, a fitted count ±1% | MAPE (%) |",
		"| short | 1 | 1, 2, 4 | 8, 16 | 100 | 50 to 2000 | 3.0 | 6.0 |",
		"| long | 1 | 1, 2, 4 | 8, 16 | 100 | 90 to 110 | 5.0 | 9.0 |",
		"On short (2 evaluations a curve) every batch size first reaches the target at its last evaluation",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "On long") || strings.Contains(out, "and long") {
		t.Errorf("long (4 of 5 curves at the last evaluation) named:\n%s", out)
	}
}
