package fit

import (
	"fmt"
	"math"
	"testing"
)

// genStepsRuns are the loss curves of the scaling review's gen_steps.py
// trace of n runs (/work/notes/scale_report.md section 2: run i has 1 +
// (i/9 mod 16) workers, staleness workers - 1, 30 evaluations of 2.3
// exp(-u/400) + 0.3 over 100 steps per worker, to 5 decimals): the
// long flat valley where the joint fit and its refits stop at the
// iteration limit.
func genStepsRuns(n int) []StalenessRun {
	var runs []StalenessRun
	for i := range n {
		w := 1 + (i/9)%16
		r := StalenessRun{Run: fmt.Sprintf("r%d", i), Workers: w, Staleness: float64(w - 1)}
		for k := range 30 {
			u := float64(k * 100 * w / 30)
			r.K = append(r.K, u)
			r.Loss = append(r.Loss, math.Round((2.3*math.Exp(-u/400)+0.3)*1e5)/1e5)
		}
		runs = append(runs, r)
	}
	return runs
}

// BenchmarkFitStalenessLaw is the staleness law's part of fit on 50 runs
// of 30 losses: the joint fit with its bootstrap (200 resamples of runs)
// and profile interval, then the curve's 200 resamples of points
// (CurveSamples), as fit's defaults run them.
func BenchmarkFitStalenessLaw(b *testing.B) {
	runs := genStepsRuns(50)
	loopCPU(b, func() {
		f, err := FitStalenessLaw(runs, 200, 1, 0.9)
		if err != nil {
			b.Fatal(err)
		}
		if len(CurveSamples(runs, f, 200, 1)) == 0 {
			b.Fatal("no curve samples")
		}
	})
}
