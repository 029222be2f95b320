package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// Tests from mutation round 4 of the loss-curve fit of a throughput table.

// A run that the table names at two configurations is left out with a
// warning (TableEfficiency's doc: a loss curve is one configuration's),
// whatever differs: the workers (TestTableEfficiencyReview), the batch, or
// the shards. Here r1 is at 2 workers both times, at batch 32 and 64, or
// at 1 and 2 shards.
func TestTableEfficiencySameWorkersOtherConfiguration(t *testing.T) {
	row := func(run string, n, ps, batch int) traces.Throughput {
		return traces.Throughput{Workers: n, PS: ps, Batch: batch, StepsPerS: float64(n), SamplesPerS: math.NaN(), Mode: "async", Run: run, Std: math.NaN()}
	}
	for _, c := range []struct {
		name  string
		other traces.Throughput
	}{{"batch", row("r1", 2, 1, 64)}, {"shards", row("r1", 2, 2, 32)}} {
		tr := &traces.Trace{}
		tr.Throughput = []traces.Throughput{row("r1", 2, 1, 32), row("r2", 4, 1, 32), c.other}
		for _, run := range []string{"r1", "r2"} {
			for k := int64(0); k <= 4000; k += 200 {
				tr.Evals = append(tr.Evals, traces.Eval{Run: run, Time: float64(k), Updates: k, Loss: 1/(0.004*float64(k)+0.5) + 0.1, Accuracy: math.NaN()})
			}
		}
		_, warns := TableEfficiency(tr, tr.Throughput[:2], &Settings{Bootstrap: 0})
		if !strings.Contains(strings.Join(warns, "\n"), `the losses of 1 run ("r1") are not fitted: throughput.csv names the run at several configurations`) {
			t.Errorf("%s: r1 named at two configurations of 2 workers: warnings %q", c.name, warns)
		}
	}
}
