package traces

import (
	"strings"
	"testing"
)

// One iteration in the window was "only 1 iterations".
func TestSummaryFewIterationsGrammar(t *testing.T) {
	tr := &Trace{}
	for i, end := range []float64{0.084157, 0.299731} {
		tr.Steps = append(tr.Steps, Step{Run: "a", Workers: 1, PS: 1, Batch: 32, Step: int64(i), Start: []float64{0.003403, 0.084157}[i], End: end, Pull: 0.01, Compute: 0.05, Push: 0.01, Staleness: -1})
	}
	s := Summarize(tr)
	var got []string
	for _, w := range s[0].Warnings {
		got = append(got, w.Error())
	}
	if !strings.Contains(strings.Join(got, "\n"), "only 1 iteration in the steady-state window: throughput is uncertain") {
		t.Errorf("warnings %q, want one of only 1 iteration", got)
	}
}
