package fit

import (
	"fmt"
	"math"
	"sort"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// The third held-out check of the choice rule: MLPerf Training's official
// submissions read as throughput tables. Added on 2026-12-03, after every
// choice rule was written (the last, the mean of the close families, that
// day too), with its whole reading fixed before any fit was scored on it.

// MLPerfThroughputMinCounts is the number of distinct accelerator counts a
// series needs: MLPerfThroughputTrain to train on, at least one to predict.
const MLPerfThroughputMinCounts = MLPerfThroughputTrain + 1

// MLPerfThroughputTrain is how many of a series' smallest accelerator
// counts are trained on; the larger ones are predicted.
const MLPerfThroughputTrain = 3

// mlperfMaxPerAccelerator is the samples/s per accelerator above which a
// run's reading is a unit error, not a measurement (no accelerator of these
// rounds trains any benchmark at 100,000 samples/s).
const mlperfMaxPerAccelerator = 1e5

// MLPerfReading counts what MLPerfThroughputSeries did with the runs.
type MLPerfReading struct {
	Runs       int // successful runs with a size and a global batch
	Read       int // of those, with a throughput read from their evaluations
	UnitErrors int // readings above mlperfMaxPerAccelerator per accelerator, left out
	Configs    int // configurations (medians over their runs) in scored series
}

// MLPerfThroughputSeries reads the official MLPerf Training runs as
// throughput measurements and makes the held-out series of the choice rule.
//
// A run's throughput is the samples trained between its first and its last
// evaluation over the seconds between them (so evaluation time is part of
// the pace, as in the time to train): samples are epoch_num times the
// samples per epoch (train_samples_logged), or, for bert, whose epoch_num
// counts samples, samples_count when logged and epoch_num otherwise (v0.7
// bert runs need samples_count: their epoch_num is submitter-dependent).
// Runs need status success, a system size (num_accelerators) and two
// evaluations with increasing samples and seconds. A configuration is
// (round, submitter, accelerator, benchmark, accelerators, nodes, global
// batch), its throughput the median over its runs. A series is (round,
// submitter, accelerator, benchmark) with at least MLPerfThroughputMinCounts
// distinct accelerator counts; it trains on the configurations at the
// MLPerfThroughputTrain smallest counts and predicts the rest. A point's
// workers are the accelerators, its per-worker batch the global batch over
// them, its nodes num_nodes and its steps/s the samples/s over the global
// batch (synchronous steps).
func MLPerfThroughputSeries(runs []traces.MLPerfRun, evals []traces.MLPerfEval) ([]Series, MLPerfReading) {
	type runKey struct{ round, submitter, system, bench, run string }
	type span struct{ t0, t1, x0, x1 float64 }
	spans := map[runKey]*span{}
	perEpoch := map[runKey]float64{}
	var rd MLPerfReading
	ok := map[runKey]traces.MLPerfRun{}
	for _, r := range runs {
		if r.Status != "success" || r.Accelerators < 1 || r.GlobalBatch < 1 {
			continue
		}
		k := runKey{r.Round, r.Submitter, r.System, r.Benchmark, r.Run}
		ok[k] = r
		perEpoch[k] = r.TrainSamples
		rd.Runs++
	}
	for _, e := range evals {
		k := runKey{e.Round, e.Submitter, e.System, e.Benchmark, e.Run}
		if _, in := ok[k]; !in || math.IsNaN(e.Seconds) {
			continue
		}
		x := e.Epoch * perEpoch[k]
		if e.Benchmark == "bert" {
			x = e.Samples
			if math.IsNaN(x) && e.Round != "v0.7" {
				x = e.Epoch
			}
		}
		if !(x >= 0) || math.IsInf(x, 0) {
			continue
		}
		s := spans[k]
		if s == nil {
			spans[k] = &span{e.Seconds, e.Seconds, x, x}
			continue
		}
		if e.Seconds < s.t0 {
			s.t0, s.x0 = e.Seconds, x
		}
		if e.Seconds > s.t1 {
			s.t1, s.x1 = e.Seconds, x
		}
	}
	type seriesKey struct{ round, submitter, accel, bench string }
	type configKey struct {
		series              seriesKey
		accels, nodes, glob int
	}
	rates := map[configKey][]float64{}
	for k, r := range ok {
		s := spans[k]
		if s == nil || !(s.t1 > s.t0) || !(s.x1 > s.x0) {
			continue
		}
		v := (s.x1 - s.x0) / (s.t1 - s.t0)
		rd.Read++
		if v > mlperfMaxPerAccelerator*float64(r.Accelerators) {
			rd.UnitErrors++
			continue
		}
		ck := configKey{seriesKey{r.Round, r.Submitter, r.Accelerator, r.Benchmark}, r.Accelerators, r.Nodes, r.GlobalBatch}
		rates[ck] = append(rates[ck], v)
	}
	bySeries := map[seriesKey][]configKey{}
	for ck := range rates {
		bySeries[ck.series] = append(bySeries[ck.series], ck)
	}
	var keys []seriesKey
	for sk, cks := range bySeries {
		counts := map[int]bool{}
		for _, ck := range cks {
			counts[ck.accels] = true
		}
		if len(counts) >= MLPerfThroughputMinCounts {
			keys = append(keys, sk)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.round != b.round {
			return a.round > b.round // v2.0 first
		}
		return fmt.Sprint(a.submitter, a.accel, a.bench) < fmt.Sprint(b.submitter, b.accel, b.bench)
	})
	var out []Series
	for _, sk := range keys {
		cks := bySeries[sk]
		sort.Slice(cks, func(i, j int) bool {
			a, b := cks[i], cks[j]
			if a.accels != b.accels {
				return a.accels < b.accels
			}
			if a.nodes != b.nodes {
				return a.nodes < b.nodes
			}
			return a.glob < b.glob
		})
		var counts []int
		for _, ck := range cks {
			if len(counts) == 0 || counts[len(counts)-1] != ck.accels {
				counts = append(counts, ck.accels)
			}
		}
		limit := counts[MLPerfThroughputTrain-1]
		s := Series{Dataset: "mlperf-training", Name: fmt.Sprintf("%s %s %s %s", sk.round, sk.bench, sk.submitter, sk.accel)}
		for _, ck := range cks {
			sps := Percentile(rates[ck], 0.5)
			g := float64(ck.glob)
			p := Point{
				Config:         model.Config{Workers: ck.accels, Nodes: max(ck.nodes, 1), Batch: g / float64(ck.accels)},
				StepsPerS:      sps / g,
				SamplesPerStep: g,
			}
			if ck.accels <= limit {
				s.Train = append(s.Train, p)
			} else {
				s.Test = append(s.Test, p)
			}
			rd.Configs++
		}
		out = append(out, s)
	}
	return out, rd
}
