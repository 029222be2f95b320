package fit

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// BenchmarkPrimeOrder: Model.Predict at 5,000 worker counts, one shard,
// after Model.Prime, asked ascending and descending, below sweepMax
// (1-5,000) and above it (16,385-21,384), of the demo's model (testdata/asgd
// fitted on 1-2 workers, 200 bootstrap samples); a fresh memo per op.
// Before Prime readied the order asked, each descending count restarted the
// staleness's recursion from 1 (sgdplan predict sorted its counts to avoid
// it).
//
//	go test ./fit -run '^$' -bench PrimeOrder -benchtime 1x -count 5
func BenchmarkPrimeOrder(b *testing.B) {
	sf, _, err := FitStepsPaths([]string{filepath.Join(repoRoot(b), "testdata", "asgd")}, StepOptions{TrainWorkers: []int{1, 2}})
	if err != nil {
		b.Skipf("no real async traces: %v", err)
	}
	m := sf.Model
	for _, r := range []struct {
		name   string
		lo, hi int
	}{{"below", 1, 5000}, {"above", sweepMax + 1, sweepMax + 5000}} {
		for _, desc := range []bool{false, true} {
			name := r.name + "/ascending"
			if desc {
				name = r.name + "/descending"
			}
			var cs []model.Config
			for w := r.lo; w <= r.hi; w++ {
				cs = append(cs, model.Config{Workers: w, PS: 1})
			}
			if desc {
				slices.Reverse(cs)
			}
			b.Run(name, func(b *testing.B) {
				loopCPU(b, func() { primeAndPredict(m, cs) })
			})
		}
	}
}
