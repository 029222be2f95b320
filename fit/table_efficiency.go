package fit

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/traces"
)

// TableEfficiency fits the statistical efficiency of a throughput-table fit
// from the loss curves beside the table: evals.csv (a converted TensorBoard
// log writes one), each run's configuration (workers, shards, batch, mode,
// as the throughput fit reads them) from the rows of the table that name
// it in their run column, and runs.csv where it has the run (dataset,
// link). rows are the rows being fitted (one series, the training worker
// counts); t.Throughput is the whole table. A run's staleness is
// updates.csv's where it measures it; else an asynchronous run with several
// workers is taken at N - 1 (fitEfficiency warns of it). It returns nil
// when no fitted row's run has losses; the warnings say what was left out
// (the losses of a run that no row of the table names, or that it names at
// several configurations) and what the fit could not do.
func TableEfficiency(t *traces.Trace, rows []traces.Throughput, s *Settings) (*Efficiency, []string) {
	if len(t.Evals) == 0 {
		return nil, nil
	}
	type conf struct {
		workers, ps, batch int
		perStep            float64 // samples of one step, as the throughput fit reads the row
		mode               string
	}
	confOf := func(r traces.Throughput) conf {
		c := conf{workers: r.Workers, ps: r.PS, batch: r.Batch, mode: r.Mode}
		if c.mode == "" {
			c.mode = "async"
		}
		// the samples of a step exactly as the throughput fit takes them
		// (a global batch of 256 on 3 workers is 256 a sync step, 85.33
		// an async update: rounding the share to 85 made a table of one
		// global batch look like four, 255 to 258, and fit a batch law)
		if pts, err := PointsFromThroughput([]traces.Throughput{r}); err == nil && len(pts) == 1 && pts[0].SamplesPerStep > 0 {
			c.perStep = pts[0].SamplesPerStep
		}
		return c
	}
	// a run named at two configurations anywhere in the table, not only
	// among the rows fitted (--series, --train-workers hid the other)
	named := map[string]conf{}
	several := map[string]bool{}
	for _, r := range t.Throughput {
		if r.Run == "" {
			continue
		}
		c := confOf(r)
		if o, ok := named[r.Run]; ok && o != c {
			several[r.Run] = true
		}
		named[r.Run] = c
	}
	confs := map[string]conf{}
	for _, r := range rows {
		if r.Run != "" {
			confs[r.Run] = confOf(r)
		}
	}
	var stats []RunStats
	var unnamed, ambiguous []string
	curves := map[string][]lossPoint{}
	nanLoss := 0
	for _, r := range traces.Summarize(t) {
		if len(r.Loss) == 0 {
			continue
		}
		c, ok := confs[r.Run]
		switch {
		case several[r.Run]:
			ambiguous = append(ambiguous, fmt.Sprintf("%q", r.Run))
			continue
		case !ok:
			if _, in := named[r.Run]; !in { // (a run of another series, or outside the training workers, is not this fit's)
				unnamed = append(unnamed, fmt.Sprintf("%q", r.Run))
			}
			continue
		}
		rs := RunStats{Run: r.Run, Mode: c.mode, Workers: c.workers, PS: c.ps, Batch: c.batch, PerStep: c.perStep,
			Bandwidth: math.NaN(), Epochs: math.NaN(), Staleness: Moments{Mean: math.NaN(), SCV: math.NaN()}}
		// the staleness updates.csv (or steps.csv) measured, as a step
		// fit reads it (it was taken as N - 1 beside a measured one)
		if st := r.Staleness; st.N > 0 {
			rs.Staleness = Moments{N: int(st.N), Mean: st.Mean, SCV: math.NaN()}
		}
		// the mode is the row's, as the throughput fit read it (not
		// runs.csv's, which could say otherwise)
		if in := r.Info; in != nil {
			rs.ParamBytes, rs.Bandwidth, rs.Nodes = in.ParamBytes, in.Bandwidth, in.Nodes
			rs.Dataset, rs.Epochs = in.Dataset, in.Epochs
		}
		nanLoss += addCurve(curves, r)
		stats = append(stats, rs)
	}
	var warns []string
	if len(unnamed) > 0 {
		sort.Strings(unnamed)
		warns = append(warns, fmt.Sprintf("evals.csv: the losses of %s (%s) are not fitted: no row of throughput.csv names the run (its run column), so its workers, shards and batch are unknown", words.Count(len(unnamed), "run"), strings.Join(unnamed, ", ")))
	}
	if len(ambiguous) > 0 {
		sort.Strings(ambiguous)
		warns = append(warns, fmt.Sprintf("evals.csv: the losses of %s (%s) are not fitted: throughput.csv names the run at several configurations, and a loss curve is one configuration's (give each its own run name)", words.Count(len(ambiguous), "run"), strings.Join(ambiguous, ", ")))
	}
	if len(stats) == 0 {
		return nil, warns
	}
	eff := fitEfficiency(curves, nanLoss, stats, nil, s.withDefaults())
	if eff == nil {
		return nil, warns
	}
	eff.Warnings = append(warns, eff.Warnings...)
	return eff, eff.Warnings
}
