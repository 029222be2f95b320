package fit

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// asgdStats reads the real asynchronous-SGD traces of testdata/asgd (or a
// folder under it), skipping when they are absent.
func asgdStats(t *testing.T, sub ...string) []RunStats {
	t.Helper()
	dir := filepath.Join(append([]string{repoRoot(t), "testdata", "asgd"}, sub...)...)
	tr, _, err := traces.Load(dir)
	if err != nil {
		t.Skipf("no real async traces in %s: %v", dir, err)
	}
	st, err := Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// profileTable formats rows as the markdown table of docs/models.md and
// returns each variant's MAPE (%) over the rows.
func profileTable(rows []ProfileRow, variants []string) (string, []float64) {
	var b strings.Builder
	fmt.Fprintf(&b, "| run | workers | ps | link B/s | measured | %s |\n|---|---|---|---|---|%s\n",
		strings.Join(variants, " | "), strings.Repeat("---|", len(variants)))
	mape := make([]float64, len(variants))
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %d | %.3g | %.3g |", r.Run, r.Workers, r.PS, r.Bandwidth, r.Measured)
		for j, x := range r.Predicted {
			e := (x - r.Measured) / r.Measured
			mape[j] += math.Abs(e) / float64(len(rows))
			fmt.Fprintf(&b, " %.3g (%+.0f%%) |", x, 100*e)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "| **MAPE** | | | | |")
	for j := range mape {
		mape[j] *= 100
		fmt.Fprintf(&b, " **%.1f%%** |", mape[j])
	}
	b.WriteString("\n")
	return b.String(), mape
}

// Issue 3 item 2 on real traces: the two-node profile (1 worker) predicts
// every other run of testdata/asgd with exact MVA, the residual-service
// correction and the flow correction. The link-bound sweep is in the
// model's regime; the errors are printed for docs/models.md
// (go test ./fit -run TestProfileVariantsOnASGD -v).
func TestProfileVariantsOnASGD(t *testing.T) {
	st := asgdStats(t)
	vs := QueueingVariants
	for _, perSeries := range []bool{true, false} {
		rows, err := ProfileComparison(st, vs, perSeries)
		if err != nil {
			t.Fatal(err)
		}
		// 24 runs: 4 series of 6 worker counts, one 1-worker profile each
		// (20 predicted); or one profile predicting the other 23.
		want := 20
		if !perSeries {
			want = 23
		}
		if len(rows) != want {
			t.Fatalf("perSeries=%v: %d runs predicted, want %d", perSeries, len(rows), want)
		}
		tab, mape := profileTable(rows, vs)
		t.Logf("perSeries=%v\n%s", perSeries, tab)
		for j, v := range vs {
			// A stated bound: the profile alone is within 30% on average
			// for every variant (the links saturate at 72-86% of their
			// rate, which no variant knows, so the error is not small).
			if math.IsNaN(mape[j]) || mape[j] > 30 {
				t.Errorf("perSeries=%v: %s MAPE %.3g%%, want finite and under 30%%", perSeries, v, mape[j])
			}
		}
		// The finding reported in docs/models.md: on these real links the
		// exact (exponential) MVA is closer than the corrections, whose
		// deterministic-transfer premise the saturated TCP links break.
		if !(mape[0] < mape[1] && mape[0] < mape[2]) {
			t.Errorf("perSeries=%v: exact MVA %.3g%% not the closest (correction %.3g%%, flow %.3g%%): update docs/models.md", perSeries, mape[0], mape[1], mape[2])
		}
	}
}
