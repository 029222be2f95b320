package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/internal/atomicfile"
	"github.com/sgdplan/sgdplan/internal/jsontext"
	"github.com/sgdplan/sgdplan/internal/progress"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
)

func predictCommand() *cli.Command {
	return &cli.Command{
		Name:  "predict",
		Usage: "predict throughput, staleness, speedup and time to target for worker and shard counts",
		Description: `Evaluates a fitted model.json at every (workers, ps) pair. Intervals (<field>_lo,
<field>_hi) are the model's bootstrap percentile intervals (90% unless the model says;
for a table fit widened by sqrt(n/(n-p))·t/z, model.json interval_scale), stretched to hold the other fits that match the data as well (model.json rivals) and,
beyond the data, widened by the model's extrapolation error (model.json extrapolation;
docs/fitting.md "Uncertainty"); a queueing network's throughput interval stays below its capacity.
They are the fitted curve's: a single run lies about it as the fitted data do, by the fit's
RMSLE (the table's first line; fit_rmsle in every JSON and CSV row).
speedup is T(1)/T(N): the time to the target loss when the model has a loss curve (with
a staleness cost or a batch law, it is then below the samples/s ratio), else the samples/s
ratio; efficiency is speedup/N.
Time to target is printed when a target is known: --target-loss, --epochs (with the
dataset size from runs.csv), or the loss the model was fitted to reach; a line under
the table names it, and json and csv rows give target_loss or target_epochs. The batch is the
model's reference batch (the one measured at the most worker counts) unless --batch (samples per worker) or
--global-batch (samples per step, split among the workers) says otherwise; a batch outside
the fitted ones gets a warning.

Examples:
   sgdplan predict --model model.json --workers 1-16 --ps 1,2
   sgdplan predict --model model.json --workers 1,2,4,8 --bandwidth 1.25e9 --format json`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "model", Usage: "model.json written by sgdplan fit (required)"},
			&cli.StringFlag{Name: "workers", Value: "1-16", Usage: "worker counts: 1-64, 1,2,4 or mixes"},
			&cli.StringFlag{Name: "ps", Usage: "PS shard counts", DefaultText: "the model's"},
			&cli.Float64Flag{Name: "bandwidth", Usage: "link bandwidth per shard, B/s (mva models fitted with runs.csv bandwidth)", DefaultText: "the rate it was fitted at"},
			&cli.IntFlag{Name: "per-node", Usage: "workers per machine (models whose cost depends on placement)", DefaultText: "the model's placement"},
			&cli.Float64Flag{Name: "batch", Usage: "samples per worker and step", DefaultText: "the model's reference batch"},
			&cli.Float64Flag{Name: "global-batch", Usage: "samples per step split among the workers (strong scaling; excludes --batch)", DefaultText: "none"},
			&cli.Float64Flag{Name: "target-loss", Usage: "loss to reach (models fitted with a loss curve)", DefaultText: "the loss the data reached"},
			&cli.Float64Flag{Name: "epochs", Usage: "passes over the dataset to train (needs the dataset size)", DefaultText: "none"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json or csv"},
		},
		Action: runPredict,
	}
}

// MarshalJSON writes r as its fields say, with updates_to_target_hi and
// time_to_target_s_hi null where the target may never be reached: a
// script reading design.md's <field>_hi beside <field>_lo got no key
// (KeyError) where the upper end is unbounded.
func (r predictRow) MarshalJSON() ([]byte, error) {
	type plain predictRow // (no MarshalJSON: no recursion)
	b, err := jsontext.Marshal(plain(r))
	if err != nil || !r.TargetMaybeNever {
		return b, err
	}
	for _, k := range []string{"updates_to_target", "time_to_target_s"} {
		// after the _lo's number, which json writes without spaces
		lo := []byte(`"` + k + `_lo":`)
		i := bytes.Index(b, lo)
		if i < 0 {
			continue
		}
		j := i + len(lo)
		for j < len(b) && b[j] != ',' && b[j] != '}' {
			j++
		}
		b = slices.Insert(b, j, []byte(`,"`+k+`_hi":null`)...)
	}
	return b, nil
}

// predictRow is one (workers, ps) of predict's output.
type predictRow struct {
	Workers           int      `json:"workers"`
	PS                int      `json:"ps"`
	StepsPerS         float64  `json:"steps_per_s"`
	StepsPerSLo       float64  `json:"steps_per_s_lo"`
	StepsPerSHi       float64  `json:"steps_per_s_hi"`
	SamplesPerS       float64  `json:"samples_per_s"`
	SamplesPerSLo     float64  `json:"samples_per_s_lo"`
	SamplesPerSHi     float64  `json:"samples_per_s_hi"`
	Staleness         float64  `json:"staleness"`
	StalenessLo       *float64 `json:"staleness_lo,omitempty"` // absent: no interval for the staleness law
	StalenessHi       *float64 `json:"staleness_hi,omitempty"`
	Speedup           float64  `json:"speedup"`
	SpeedupLo         float64  `json:"speedup_lo"`
	SpeedupHi         float64  `json:"speedup_hi"`
	Efficiency        float64  `json:"efficiency"`
	EfficiencyLo      float64  `json:"efficiency_lo"`
	EfficiencyHi      float64  `json:"efficiency_hi"`
	UpdatesToTarget   *float64 `json:"updates_to_target,omitempty"`
	UpdatesToTargetLo *float64 `json:"updates_to_target_lo,omitempty"`
	UpdatesToTargetHi *float64 `json:"updates_to_target_hi,omitempty"`
	TimeToTargetS     *float64 `json:"time_to_target_s,omitempty"`
	TimeToTargetSLo   *float64 `json:"time_to_target_s_lo,omitempty"`
	TimeToTargetSHi   *float64 `json:"time_to_target_s_hi,omitempty"`
	// TargetMaybeNever: the upper ends of the updates and the time to
	// target are unbounded (null above: MarshalJSON): within the interval
	// the loss curve's floor reaches the target, which may then never be
	// reached (a file cannot hold +Inf; the table prints inf). Absent
	// otherwise.
	TargetMaybeNever   bool `json:"target_may_never_be_reached,omitempty"`
	BeyondFittedWorker bool `json:"extrapolated"` // workers outside those fitted, more shards, a link rate or (asked) a batch outside the fitted
	// TargetBeyondData: the target loss lies below the lowest loss the
	// fitted curve gives at the end of a fitted run, so the updates to it
	// extrapolate the loss curve; absent (nil) when the row has no target
	TargetBeyondData *bool `json:"target_extrapolated,omitempty"`
	// FitRMSLE is the fit's RMSLE (model.json diagnostics.rmsle), the
	// same in every row: how far the fitted data lie about the curve
	// (log units), so how far a single run can lie from the row when
	// the intervals, the curve's, are narrower; the table's first line
	// says it in percent
	FitRMSLE float64 `json:"fit_rmsle"`
	// Batch is the per-worker batch the row is at (the model's, or
	// --batch, or --global-batch split among the workers), and Bandwidth
	// the link rate, B/s, of a queueing-network model with one (the rate
	// fitted at, or --bandwidth; absent otherwise): a script keeping rows
	// of several queries could not tell them apart.
	Batch     float64 `json:"batch"`
	Bandwidth float64 `json:"bandwidth,omitempty"`
	// Busiest is the utilisation of the busiest shard station of a
	// queueing-network model (its link or its CPU, BusiestStation), what
	// check's "PS link saturated" verdict judges, at 0.9 or more; absent
	// for a model without the network (a gate could not tell check's
	// saturation from predict's numbers; in the csv's last two columns
	// too since 2026-12-07, json only before).
	Busiest        float64 `json:"busiest_utilization,omitempty"`
	BusiestStation string  `json:"busiest_station,omitempty"`
	// TargetLoss is the loss the updates and the time to target are for
	// (--target-loss, or the model's own: the loss every fitted run
	// reached), TargetEpochs the passes over the dataset they are for
	// instead (--epochs); each absent where the row has no time to target
	// (a script, or a reader of the table, could not tell which target a
	// time was to). targetFrom says where the target came from, for the
	// table's line.
	TargetLoss   *float64 `json:"target_loss,omitempty"`
	TargetEpochs *float64 `json:"target_epochs,omitempty"`
	targetFrom   string
}

// loadModel reads the model.json of --model for the command cmd: a
// missing flag or a bad file is bad input, said as cmd's (not as package
// fit's: "predict: m.json:3:7: ...").
func loadModel(cmd, path string) (*fit.Model, error) {
	if path == "" {
		return nil, badInput(fmt.Errorf("%s: missing --model model.json (written by sgdplan fit)", cmd))
	}
	m, err := fit.LoadModel(path)
	if err != nil {
		return nil, badInput(asCmd(cmd, err))
	}
	return m, nil
}

// asCmd is err of package fit said as the command cmd's: "predict: ..."
// instead of "fit: ...", which names a command the user did not run.
func asCmd(cmd string, err error) error {
	return fmt.Errorf("%s: %s", cmd, strings.TrimPrefix(err.Error(), "fit: "))
}

func runPredict(c *cli.Context) error {
	if err := noArgs("predict", c); err != nil {
		return err
	}
	if err := finiteFlags(c); err != nil {
		return err
	}
	format := c.String("format")
	if format != "table" && format != "json" && format != "csv" {
		return badInput(fmt.Errorf("predict: --format %q: want table, json or csv", format))
	}
	if err := emptyFlag(c, "model", "the path of a model.json (written by sgdplan fit)"); err != nil {
		return err
	}
	m, err := loadModel("predict", c.String("model"))
	if err != nil {
		return err
	}
	ws, err := parseIntList(c.String("workers"), 1)
	if err != nil {
		return badInput(fmt.Errorf("predict: --workers: %v", err))
	}
	ps := []int{m.Reference.PS}
	if s := c.String("ps"); c.IsSet("ps") { // (an empty --ps was the model's)
		least := 1 // a PS model has at least one shard
		if m.Reference.PS == 0 {
			least = 0
		}
		if ps, err = parseIntList(s, least); err != nil {
			return badInput(fmt.Errorf("predict: --ps: %v (parameter-server shards)", err))
		}
		if m.Reference.PS == 0 {
			for _, p := range ps {
				if p > 0 {
					return badInput(fmt.Errorf("predict: --ps %s: the model was fitted on data without parameter servers (%s)", s, m.Mode))
				}
			}
		}
	}
	if c.IsSet("bandwidth") {
		if m, err = m.WithBandwidth(c.Float64("bandwidth")); err != nil {
			return badInput(asCmd("predict", err))
		}
	}
	if m, err = withPerNode(c, m, "predict"); err != nil {
		return err
	}
	if m, err = withBatchFlags(c, m, "predict"); err != nil {
		return err
	}
	if err := splitBatch(m, ws, "predict", c.IsSet("global-batch")); err != nil {
		return err
	}
	if c.IsSet("per-node") {
		if w := placementIgnored(m, ws); w != "" {
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		}
	}
	if c.IsSet("target-loss") && c.IsSet("epochs") {
		return badInput(errors.New("predict: --target-loss and --epochs exclude each other"))
	}
	target := math.NaN()
	if c.IsSet("target-loss") {
		target = c.Float64("target-loss")
		if m.Efficiency == nil || !(m.Efficiency.B0 > 0) {
			return badInput(fmt.Errorf("predict: --target-loss: the model has no loss curve (fit it on traces with evals.csv or per-step losses)"))
		}
		if !(target > m.Efficiency.B2) {
			return badInput(fmt.Errorf("predict: --target-loss %g is at or below the loss curve's floor %.4g: never reached", target, m.Efficiency.B2))
		}
		if e := m.Efficiency; e.B1 > 0 {
			if start := 1/e.B1 + e.B2; target >= start {
				return badInput(fmt.Errorf("predict: --target-loss %g is at or above the fitted loss at the start, %.4g: reached before any update; want a target between the floor %.4g and %.4g", target, start, e.B2, start))
			}
		}
	}
	// the model's own target at or above its curve's start: the curve
	// says 0 updates, and the time to target columns went without a word
	if e := m.Efficiency; e != nil && !c.IsSet("target-loss") && !c.IsSet("epochs") && e.GNS == nil && e.B0 > 0 && e.B1 > 0 && e.TargetLoss > 0 {
		if start := 1/e.B1 + e.B2; e.TargetLoss >= start {
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: the model's target loss %.4g (efficiency.target_loss) is at or above its loss curve's start, %.4g: the curve says it is reached before any update, so no updates or time to target are printed (the speedup column stands: the staleness cost scales the updates to every target alike); pass --target-loss between the floor %.4g and %.4g\n", e.TargetLoss, start, e.B2, start)
		}
	}
	// a target below every fitted run's last loss extrapolates the loss
	// curve: 1e-9 gave 8.3e10 updates [8.3e10, 8.3e10] with no word
	targetBeyond := false
	if e := m.Efficiency; e != nil && e.LowestLoss > 0 && target < e.LowestLoss {
		targetBeyond = true
		held := "their interval holds lambda's uncertainty only, not the curve's (no width where the staleness is 0)"
		if len(e.CurveSamples) > 0 {
			held = "their interval holds the curve's fitting uncertainty (its points resampled), not the error of its form so far past its points"
		}
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: --target-loss %g is below %.4g, the lowest loss the fitted curve gives at the end of a fitted run (each at its updates and staleness): the updates to it extrapolate the loss curve past its data, and %s\n", target, e.LowestLoss, held)
	} else if e != nil && e.LowestMeasuredLoss > 0 && target < e.LowestMeasuredLoss {
		// the curve reaches it within the runs' updates, but no run
		// measured a loss so low: 0.052 on testdata/sync-gns (measured
		// down to 0.05339, the curve to 0.05075) had no word
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: --target-loss %g is below %.4g, the lowest loss any fitted run measured: the fitted curve reaches it within the runs' updates (down to %.4g at a run's end), but no run did, so the updates to it rest on the curve's form there, not on a measurement\n", target, e.LowestMeasuredLoss, e.LowestLoss)
	}
	epochs := 0.0
	if c.IsSet("epochs") {
		epochs = c.Float64("epochs")
		if !(epochs > 0) {
			return badInput(fmt.Errorf("predict: --epochs %g: want > 0", epochs))
		}
		if m.Reference.Dataset <= 0 {
			return badInput(errors.New("predict: --epochs needs the dataset size (runs.csv dataset) in the model"))
		}
	}
	var want []model.Config
	for _, p := range ps {
		for _, w := range ws {
			want = append(want, model.Config{Workers: w, PS: p})
		}
	}
	m.Prime(want) // counts above 16,384: one sweep per fit, not one solution per count
	bwWarn := m.BandwidthWarning()
	bwBeyond := bwWarn != ""
	least := m.FewestWorkers()
	mostPS := 0 // the most shards fitted
	for _, d := range m.Data.Configurations {
		mostPS = max(mostPS, d.PS)
	}
	// a long range (100,000 counts take some seconds a shard count, a
	// million minutes) shows it is alive on a terminal
	var bar *progress.Bar
	if n := len(ps) * len(ws); n >= predictBarRows {
		bar = progress.New(c.App.ErrWriter, "predict", int64(n), nil)
	}
	tLoss, tEpochs, tFrom := targetOf(c, m, target, epochs) // (the rows share it)
	rowAt := func(w, p int) predictRow {
		cfg := model.Config{Workers: w, PS: p}
		u := 0.0
		if epochs > 0 {
			u = epochs * float64(m.Reference.Dataset) / m.SamplesPerStep(cfg)
		}
		pr := m.Predict(cfg, target, u)
		// a --batch or --global-batch that puts a worker's batch
		// outside the fitted ones is an extrapolation too
		// (or the speedup's 1-worker base is, its interval widened for it)
		batchBeyond := batchSet(c) && m.BatchOutside(cfg)
		r := predictRow{
			Workers: pr.Workers, PS: pr.PS,
			StepsPerS: pr.StepsPerS.Value, StepsPerSLo: pr.StepsPerS.Lo, StepsPerSHi: pr.StepsPerS.Hi,
			SamplesPerS: pr.SamplesPerS.Value, SamplesPerSLo: pr.SamplesPerS.Lo, SamplesPerSHi: pr.SamplesPerS.Hi,
			Staleness: pr.Staleness.Value,
			Speedup:   pr.Speedup.Value, SpeedupLo: pr.Speedup.Lo, SpeedupHi: pr.Speedup.Hi,
			Efficiency: pr.Efficiency.Value, EfficiencyLo: pr.Efficiency.Lo, EfficiencyHi: pr.Efficiency.Hi,
			BeyondFittedWorker: w > m.Reference.MaxWorkers || w < least || (mostPS >= 1 && p > mostPS) || bwBeyond || batchBeyond,
			FitRMSLE:           m.Diagnostics.RMSLE,
		}
		r.Batch, r.Bandwidth = shownAt(m, cfg)
		if format != "table" && m.Family == "mva" && p > 0 {
			r.Busiest, r.BusiestStation = busiestStation(m, w, p, true)
		}
		if !math.IsNaN(pr.Staleness.Lo) {
			r.StalenessLo, r.StalenessHi = ptr(pr.Staleness.Lo), ptr(pr.Staleness.Hi)
		}
		if !math.IsNaN(pr.TimeToTarget.Value) {
			r.TargetBeyondData = &targetBeyond
			r.UpdatesToTarget = ptr(pr.UpdatesToTarget.Value)
			r.UpdatesToTargetLo = ptr(pr.UpdatesToTarget.Lo)
			r.TimeToTargetS = ptr(pr.TimeToTarget.Value)
			r.TimeToTargetSLo = ptr(pr.TimeToTarget.Lo)
			if r.TargetMaybeNever = math.IsInf(pr.UpdatesToTarget.Hi, 1); !r.TargetMaybeNever {
				r.UpdatesToTargetHi = ptr(pr.UpdatesToTarget.Hi)
				r.TimeToTargetSHi = ptr(pr.TimeToTarget.Hi)
			}
			r.TargetLoss, r.TargetEpochs, r.targetFrom = tLoss, tEpochs, tFrom
		}
		return r
	}
	// The rows are evaluated in the order asked (m.Prime readies the
	// model for that order: a descending list costs what a range does).
	// csv and json rows are encoded as they come into a rowSpill (a
	// temporary file past some megabytes), not kept: predict --workers
	// 1-100000 held every row until the end. What the warnings, printed
	// before the rows, need of them is kept as a few bits a row
	// (rowFlags); the few rows a message quotes are evaluated again (the
	// same numbers).
	nw := len(ws)
	flags := make([]rowFlags, len(ps)*nw) // by place in the output
	var table []predictRow                // the table's rows (tabwriter needs them all)
	var spill *rowSpill
	if format == "table" {
		table = make([]predictRow, len(ps)*nw)
	} else {
		spill = &rowSpill{}
		defer spill.Close()
	}
	linkCap, linkOK := linkCapacity(m)
	var rec bytes.Buffer
	cw := csv.NewWriter(&rec)
	for pi, p := range ps {
		for i, w := range ws {
			bar.Add(1)
			r := rowAt(w, p)
			at := pi*nw + i
			flags[at] = flagsOf(r, linkCap, linkOK)
			switch format {
			case "table":
				table[at] = r
				continue
			case "json":
				b, err := jsontext.MarshalIndent(r, "  ", "  ")
				if err != nil {
					flags[at] |= rowNoJSON // (said, as json.MarshalIndent of the rows said it, after the warnings)
				}
				spill.WriteString(",\n  ") // the first row written has "[\n  " (predictRowsOut)
				spill.Write(b)
			case "csv":
				rec.Reset()
				cw.Write(predictCSVRecord(r))
				cw.Flush()
				spill.Write(rec.Bytes())
			}
			if spill.err != nil {
				bar.Done()
				return withCode(exitFailure, fmt.Errorf("predict: keeping the rows until they are written: %w", spill.err))
			}
		}
	}
	bar.Done()
	// row is the row at place at of the output, evaluated again
	row := func(at int) predictRow { return rowAt(ws[at%nw], ps[at/nw]) }
	first := func(f rowFlags) int { // the first place of the output flagged f, -1 if none
		return slices.IndexFunc(flags, func(g rowFlags) bool { return g&f != 0 })
	}
	if at := first(rowNotFinite); at >= 0 {
		return finiteRows(c.String("model"), []predictRow{row(at)})
	}
	// the fit's own distrust of the model (its miss and superlinear
	// warnings in model.json), as check repeats them
	for _, w := range m.TrustWarnings() {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	if w := m.LambdaZeroWarning(); w != "" && slices.ContainsFunc(ws, func(n int) bool { return n > max(m.Reference.MaxWorkers, 1) }) {
		// beyond the fitted workers, where the staleness grows past what
		// the fit saw (the points take lambda at its fit, free staleness
		// where it is 0; check gives its verdicts at lambda's ends);
		// as Caveats
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	for _, w := range ws {
		if w > m.Reference.MaxWorkers {
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", m.BeyondWorkersWarning([]int{w}))
			if m.Mode == "async" {
				// the staleness law is linear in N: say how far off it
				// was where it could be checked
				fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", m.StalenessLawWarning())
			}
			break
		}
	}
	if w := m.NoBootstrapWarning(first(rowFlat) >= 0); w != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	if w := m.ParamIntervalWarning(); w != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	if w := m.BelowFittedWarning(ws); w != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	if w := m.BeyondNodesWarning(ws); w != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	if w := m.BeyondShardsWarning(ps); w != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	at := first(rowAboveLinks)
	if at < 0 {
		at = first(rowHiAboveLinks)
	}
	if at >= 0 {
		if w := linkBoundWarning(m, []predictRow{row(at)}); w != "" {
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		}
	}
	if bwWarn != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", bwWarn)
	}
	if epochs > 0 && m.EfficiencyVaries() && slices.Max(ws) > 1 {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: --epochs %g: the time is for that many passes over the data, which no staleness cost or batch law changes; the speedup column counts them (it is to a target loss), so the ratio of the times differs from it\n", epochs)
	}
	if flags[0]&rowUpdates != 0 && stalenessUnknown(m, slices.Max(ws)) {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s: the updates to target past 1 worker, and their intervals, leave staleness out\n", stalenessUnknownText)
	}
	for _, w := range batchWarnings(m, want, batchSet(c)) {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	// the lists of rows name the first and count the rest, as
	// words.FirstOf(names, 1) writes them, without a name for every row
	flagged := func(f rowFlags, name func(workers, ps int) string) string {
		at := first(f)
		if at < 0 {
			return ""
		}
		n := 0
		for _, g := range flags[at:] {
			if g&f != 0 {
				n++
			}
		}
		w := name(ws[at%nw], ps[at/nw])
		if n > 1 {
			w = fmt.Sprintf("%s and %d more", w, n-1)
		}
		return w
	}
	if w := flatUpdates(m, flagged(rowFlatUpdates, flatUpdatesName)); w != "" && epochs == 0 { // --epochs fixes the updates: no interval meant
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	if w := maybeNever(m, flagged(rowMaybeNever, func(w, _ int) string { return workersWord(w) }), target); w != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	if at := first(rowUnderOne); at >= 0 {
		if w := underOneUpdate(row(at), batchSet(c)); w != "" {
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		}
	}
	switch format {
	case "json":
		if at := first(rowNoJSON); at >= 0 {
			_, err := jsontext.MarshalIndent([]predictRow{row(at)}, "", "  ")
			return withCode(exitFailure, err)
		}
		return predictRowsOut(&stickyWriter{w: c.App.Writer}, spill, "[\n  ", 4, "\n]\n")
	case "csv":
		out := &stickyWriter{w: c.App.Writer}
		hw := csv.NewWriter(out)
		hw.Write(predictCSVHead)
		hw.Flush()
		if out.err != nil {
			return out.err
		}
		return predictRowsOut(out, spill, "", 0, "")
	}
	return writePredictTable(c.App.Writer, m, table)
}

func ptr(v float64) *float64 { return &v }

// targetOf is the target of a row with a time to target: the loss (the
// model's own unless --target-loss; 0 is one, a batch law's whose runs
// all reached 0), or the passes over the dataset of --epochs, which fix
// the updates whatever the loss; and, for the table's line, where it came
// from.
func targetOf(c *cli.Context, m *fit.Model, target, epochs float64) (loss, passes *float64, from string) {
	switch {
	case epochs > 0:
		return nil, ptr(epochs), "--epochs"
	case c.IsSet("target-loss"):
		return ptr(target), nil, "--target-loss"
	}
	if l := m.TargetLossFor(target); !math.IsNaN(l) {
		return ptr(l), nil, "the model's target: the loss every fitted run reached; --target-loss sets another"
	}
	return nil, nil, ""
}

// targetLine is the table's line naming the target of its time to target
// ("" when no row has one): the rows share it. A flag's value is written
// as given (to 4 digits it quoted --epochs 0.1235 for 0.123456), the
// model's own target to 4 digits, as the table's numbers.
func targetLine(m *fit.Model, rows []predictRow) string {
	given := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, r := range rows {
		switch {
		case r.TargetEpochs != nil:
			passes := "passes"
			if *r.TargetEpochs == 1 {
				passes = "pass"
			}
			line := fmt.Sprintf("updates and time to target: for %s %s (--epochs) over the dataset of %s samples", given(*r.TargetEpochs), passes, words.Thousands(int(m.Reference.Dataset)))
			if m.EfficiencyVaries() {
				// (a user read 4 workers' 3486 s against 1 worker's
				// 9643 s, 2.77 times, beside a speedup of 1.971)
				line += "; the speedup column is to the loss target, counting the extra updates more workers need, not the ratio of these times"
			}
			return line
		case r.TargetLoss != nil && r.targetFrom == "--target-loss":
			return fmt.Sprintf("updates and time to target: to loss %s (--target-loss)", given(*r.TargetLoss))
		case r.TargetLoss != nil:
			return fmt.Sprintf("updates and time to target: to loss %s (%s)", g4(*r.TargetLoss), r.targetFrom)
		}
	}
	return ""
}

// finite reports whether every value is a finite number.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// finiteRows refuses rows of the model at path that hold a number that is
// not finite (NaN or infinite steps/s, speedup, efficiency or time to
// target), or a non-positive speed: the model cannot say anything there,
// and printing NaN or +Inf would read as a prediction.
func finiteRows(path string, rows []predictRow) error {
	for _, r := range rows {
		if !rowFinite(r) {
			ttt := ""
			if r.TimeToTargetS != nil {
				ttt = fmt.Sprintf(", time to target %s s [%s, %s]", g4(*r.TimeToTargetS), g4(*r.TimeToTargetSLo), hiOrInf(r.TimeToTargetSHi))
			}
			stale := ""
			if r.StalenessLo != nil {
				stale = fmt.Sprintf(", staleness %s [%s, %s]", g4(r.Staleness), g4(*r.StalenessLo), g4(*r.StalenessHi))
			}
			if flag := targetFlag(r); flag != "" && rowFinite(withoutTarget(r)) {
				// the throughput is fine (7.16 steps/s): the flag's
				// target is what overflows (--target-loss 5e-324,
				// --epochs 1e308)
				nearer, where := "a larger --target-loss", "on the model's loss curve"
				if r.TargetEpochs != nil {
					nearer, where = "fewer --epochs", "the passes' samples divided by one update's"
				}
				return badInput(fmt.Errorf("predict: %s: at %s, %d ps the updates to the target are %s [%s, %s]%s: not finite numbers, the target is beyond float64's range (%s; its steps/s, %s, are finite): give %s",
					flag, workersWord(r.Workers), r.PS, g4(*r.UpdatesToTarget), g4(*r.UpdatesToTargetLo), hiOrInf(r.UpdatesToTargetHi), ttt, where, g4(r.StepsPerS), nearer))
			}
			return badInput(fmt.Errorf("predict: %s: at %s, %d ps the model predicts %s steps/s [%s, %s], speedup %s [%s, %s]%s%s: not all finite numbers, so the model cannot predict there (check its parameters)",
				path, workersWord(r.Workers), r.PS, g4(r.StepsPerS), g4(r.StepsPerSLo), g4(r.StepsPerSHi), g4(r.Speedup), g4(r.SpeedupLo), g4(r.SpeedupHi), stale, ttt))
		}
	}
	return nil
}

// targetFlag is the flag and value that gave r its target ("--epochs 2",
// "--target-loss 0.1"), "" when it has none or its target is the model's
// own.
func targetFlag(r predictRow) string {
	given := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch {
	case r.TargetEpochs != nil:
		return "--epochs " + given(*r.TargetEpochs)
	case r.TargetLoss != nil && r.targetFrom == "--target-loss":
		return "--target-loss " + given(*r.TargetLoss)
	}
	return ""
}

// withoutTarget is r without its updates and time to target.
func withoutTarget(r predictRow) predictRow {
	r.UpdatesToTarget, r.UpdatesToTargetLo, r.UpdatesToTargetHi = nil, nil, nil
	r.TimeToTargetS, r.TimeToTargetSLo, r.TimeToTargetSHi = nil, nil, nil
	return r
}

// rowFinite says whether every number of r is finite and its steps/s
// above 0 (finiteRows' test; flagsOf asks it of every row, and built two
// slices a row for it).
func rowFinite(r predictRow) bool {
	if !finite(r.StepsPerS, r.StepsPerSLo, r.StepsPerSHi, r.SamplesPerS, r.SamplesPerSLo, r.SamplesPerSHi, r.Staleness,
		r.Speedup, r.SpeedupLo, r.SpeedupHi, r.Efficiency, r.EfficiencyLo, r.EfficiencyHi) || !(r.StepsPerS > 0) {
		return false
	}
	for _, p := range [...]*float64{r.StalenessLo, r.StalenessHi, r.UpdatesToTarget, r.UpdatesToTargetLo, r.UpdatesToTargetHi, r.TimeToTargetS, r.TimeToTargetSLo, r.TimeToTargetSHi} {
		if p != nil && !finite(*p) {
			return false
		}
	}
	return true
}

func g4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// hiOrInf is an upper end to 4 digits, "inf" where it is unbounded (nil).
func hiOrInf(p *float64) string {
	if p == nil {
		return "inf"
	}
	return g4(*p)
}

// writePredictCSV writes rows to 10 significant digits, as plan and
// simulate write theirs (it wrote 4, the table's: a CSV is for programs).
func writePredictCSV(w io.Writer, rows []predictRow) error {
	cw := csv.NewWriter(w)
	cw.Write(predictCSVHead)
	for _, r := range rows {
		cw.Write(predictCSVRecord(r))
	}
	cw.Flush()
	return cw.Error()
}

// predictCSVHead is the header of predict's csv.
var predictCSVHead = []string{"workers", "ps", "steps_per_s", "steps_per_s_lo", "steps_per_s_hi", "samples_per_s", "samples_per_s_lo", "samples_per_s_hi", "staleness", "staleness_lo", "staleness_hi", "speedup", "speedup_lo", "speedup_hi", "efficiency", "efficiency_lo", "efficiency_hi", "updates_to_target", "updates_to_target_lo", "updates_to_target_hi", "time_to_target_s", "time_to_target_s_lo", "time_to_target_s_hi", "extrapolated", "target_extrapolated", "fit_rmsle", "batch", "bandwidth", "target_loss", "target_epochs", "busiest_utilization", "busiest_station"}

// predictCSVRecord is r's record in predict's csv.
func predictCSVRecord(r predictRow) []string {
	g4 := func(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
	opt := func(p *float64) string {
		if p == nil {
			return ""
		}
		return g4(*p)
	}
	hi := func(p *float64, never bool) string {
		if never {
			return "inf"
		}
		return opt(p)
	}
	nonzero := func(v float64) string { // "" for none (0): no link rate, no network
		if v == 0 {
			return ""
		}
		return g4(v)
	}
	optBool := func(p *bool) string {
		if p == nil {
			return ""
		}
		return strconv.FormatBool(*p)
	}
	return []string{strconv.Itoa(r.Workers), strconv.Itoa(r.PS), g4(r.StepsPerS), g4(r.StepsPerSLo), g4(r.StepsPerSHi),
		g4(r.SamplesPerS), g4(r.SamplesPerSLo), g4(r.SamplesPerSHi), g4(r.Staleness), opt(r.StalenessLo), opt(r.StalenessHi), g4(r.Speedup), g4(r.SpeedupLo), g4(r.SpeedupHi),
		g4(r.Efficiency), g4(r.EfficiencyLo), g4(r.EfficiencyHi), opt(r.UpdatesToTarget), opt(r.UpdatesToTargetLo), hi(r.UpdatesToTargetHi, r.TargetMaybeNever), opt(r.TimeToTargetS), opt(r.TimeToTargetSLo), hi(r.TimeToTargetSHi, r.TargetMaybeNever), strconv.FormatBool(r.BeyondFittedWorker), optBool(r.TargetBeyondData), g4(r.FitRMSLE), g4(r.Batch), nonzero(r.Bandwidth), opt(r.TargetLoss), opt(r.TargetEpochs), nonzero(r.Busiest), r.BusiestStation}
}

// writePredictTable prints rows as predict's table; it returns the first
// error writing to w.
func writePredictTable(out io.Writer, m *fit.Model, rows []predictRow) error {
	w := &stickyWriter{w: out}
	fmt.Fprintf(w, "%s; intervals %.0f%%", m, 100*m.Level)
	if r := m.Diagnostics.RMSLE; r > 0.005 && !math.IsInf(r, 0) {
		// the intervals are the curve's; a run measured at a configuration
		// scatters about it as the fitted data do
		fmt.Fprintf(w, " of the fitted curve (the fitted data lie about it by %.2g%%, RMSLE %.2g: a single run can too)", 100*(math.Exp(r)-1), r)
	}
	if m.Queueing != nil && m.Queueing.Bandwidth > 0 && m.Reference.Bandwidth > 0 {
		fmt.Fprintf(w, "; link rate %.4g B/s", m.Reference.Bandwidth)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	timed := false
	for _, r := range rows {
		timed = timed || r.TimeToTargetS != nil
	}
	// the staleness's interval where it can have one (asynchronous SGD)
	stale := m.Mode == "async"
	if stale {
		fmt.Fprint(tw, "workers\tps\tsteps/s\t[lo, hi]\tsamples/s\tstaleness\t[lo, hi]\tspeedup\t[lo, hi]\tefficiency\t")
	} else {
		fmt.Fprint(tw, "workers\tps\tsteps/s\t[lo, hi]\tsamples/s\tstaleness\tspeedup\t[lo, hi]\tefficiency\t")
	}
	if timed {
		fmt.Fprint(tw, "updates to target\t[lo, hi]\ttime to target (s)\t[lo, hi]\t")
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%d\t%s\t[%s, %s]\t%s\t%s\t", r.Workers, r.PS, g4(r.StepsPerS), g4(r.StepsPerSLo), g4(r.StepsPerSHi),
			g4(r.SamplesPerS), g4(r.Staleness))
		switch {
		case stale && r.StalenessLo != nil:
			fmt.Fprintf(tw, "[%s, %s]\t", g4(*r.StalenessLo), g4(*r.StalenessHi))
		case stale:
			fmt.Fprint(tw, "n/a\t")
		}
		fmt.Fprintf(tw, "%s\t[%s, %s]\t%s\t", g4(r.Speedup), g4(r.SpeedupLo), g4(r.SpeedupHi), g4(r.Efficiency))
		switch {
		case timed && r.TimeToTargetS != nil:
			fmt.Fprintf(tw, "%s\t[%s, %s]\t%s\t[%s, %s]\t", g4(*r.UpdatesToTarget), g4(*r.UpdatesToTargetLo), hiOrInf(r.UpdatesToTargetHi), g4(*r.TimeToTargetS), g4(*r.TimeToTargetSLo), hiOrInf(r.TimeToTargetSHi))
		case timed: // no target reached at this count (the others have one)
			fmt.Fprint(tw, "n/a\t\tn/a\t\t")
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	// under the rows: the header stays the second line, where a script
	// reading the table finds it
	if t := targetLine(m, rows); t != "" {
		fmt.Fprintln(w, t)
	}
	return w.err
}

// batchSet reports whether the command asks for a batch of its own: the
// batch-range warning is for that (under strong scaling the per-worker
// batch leaves the fitted range with the workers, which the extrapolation
// warnings already cover).
func batchSet(c *cli.Context) bool { return c.IsSet("batch") || c.IsSet("global-batch") }

// splitBatch refuses a global batch that leaves a worker of ws less than
// one sample (the command cmd's --global-batch).
func splitBatch(m *fit.Model, ws []int, cmd string, flagSet bool) error {
	g := m.Reference.GlobalBatch
	what := fmt.Sprintf("--global-batch %g", g)
	if !flagSet {
		what = fmt.Sprintf("the model's global batch, %g samples (fitted under strong scaling),", g)
	}
	for _, w := range ws {
		if g > 0 && g/float64(w) < 1 {
			return badInput(fmt.Errorf("%s: %s split among %d workers leaves each %.3g samples: want at least one sample per worker (at most %s)", cmd, what, w, g/float64(w), words.Count(int(g), "worker")))
		}
	}
	return nil
}

// batchWarnings are the model's words on the batches of cfgs, as predict
// and check give them: the batch law's fitted global batches, the loss
// curve's samples per update, and, when a batch flag is set (set), the
// per-worker batch outside the fitted ones or else the speedup's 1-worker
// base there.
func batchWarnings(m *fit.Model, cfgs []model.Config, set bool) []string {
	ws := []string{m.BatchWarning(cfgs), m.EfficiencyBatchWarning(cfgs)}
	if set {
		w := m.BatchRangeWarning(cfgs)
		if w == "" {
			w = m.SpeedupBaseBatchWarning(cfgs)
		}
		ws = append(ws, w)
	}
	return slices.DeleteFunc(ws, func(w string) bool { return w == "" })
}

// shownAt is the per-worker batch a row at cfg is at (completed by the
// model's Config) and the link rate, B/s, of a queueing-network model that
// has one (0 otherwise): what predict's rows and check's json say.
func shownAt(m *fit.Model, cfg model.Config) (batch, bandwidth float64) {
	full := m.Config(cfg)
	if m.Family == "mva" && m.Queueing != nil && m.Queueing.Bandwidth > 0 {
		bandwidth = full.Bandwidth
	}
	return full.Batch, bandwidth
}

// withPerNode returns m placed at --per-node's workers per machine when
// the flag is set (predict and check): every count is then spread over
// ceil(workers / per-node) machines. It is a copy: m is left as it was
// (check's counts line, of the model as filed, read the placement set
// here, where --bandwidth had made a copy and --per-node had not).
func withPerNode(c *cli.Context, m *fit.Model, cmd string) (*fit.Model, error) {
	if !c.IsSet("per-node") {
		return m, nil
	}
	g := c.Int("per-node")
	if g < 1 {
		return nil, badInput(fmt.Errorf("%s: --per-node %d: want >= 1", cmd, g))
	}
	if w := placementBeyond(m, g, "--per-node"); w != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	return placedAt(m, g), nil
}

// placementBeyond says when g workers a machine (from what) is more than
// the most a machine the model's data held (Reference.PerNode, a table
// fit's rows with nodes), where the placement matters to the model: its
// speed within one machine is extrapolated past them ("" otherwise). A
// manifest's 8 processes a pod were judged on a model fitted at 4 a
// machine without a word.
func placementBeyond(m *fit.Model, g int, from string) string {
	fitted := m.Reference.PerNode
	if fitted <= 0 || g <= fitted || placementIgnored(m, []int{2 * g}) != "" {
		return ""
	}
	return fmt.Sprintf("%s places %d workers a machine, more than the %d a machine the %s model's data held: its speed within a machine past %d workers is extrapolated (predict warns the same of worker counts past the data)", from, g, fitted, m.Family, fitted)
}

// placedAt is a copy of m that places g workers a machine (every count
// spread over ceil(workers / g) machines): --per-node's, or a manifest's
// processes per replica (check). m is left as it was.
func placedAt(m *fit.Model, g int) *fit.Model {
	cp := *m
	cp.Reference.PerNode, cp.Reference.Nodes = g, 0
	return &cp
}

// placementIgnored says, for --per-node, when m predicts alike however
// its largest worker count of ws is spread over machines ("" when the
// placement matters).
func placementIgnored(m *fit.Model, ws []int) string {
	n := slices.Max(ws)
	if n < 2 {
		n = 2
	}
	one := m.StepsPerSecond(model.Config{Workers: n, Nodes: 1})
	spread := m.StepsPerSecond(model.Config{Workers: n, Nodes: n})
	if one != spread {
		return ""
	}
	return fmt.Sprintf("--per-node: the %s model predicts alike however the workers are placed on machines (it has no term for the network between them), so the placement changes nothing", m.Family)
}

// parseCount reads a whole count of the flag flag; a count above most
// written as a float (1e18) or past the int range says it is too large.
func parseCount(s, flag string, most int, what string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		if e := countError(s, most, what); e != nil {
			return 0, fmt.Errorf("%s %v", flag, e)
		}
		return 0, fmt.Errorf("%s %q: want a whole number", flag, s)
	}
	return n, nil
}

// withBatchFlags applies --batch or --global-batch (of the command named
// cmd) to m: m itself when neither is set.
func withBatchFlags(c *cli.Context, m *fit.Model, cmd string) (*fit.Model, error) {
	if !batchSet(c) {
		return m, nil
	}
	if c.IsSet("batch") && c.IsSet("global-batch") {
		return nil, badInput(fmt.Errorf("%s: --batch and --global-batch exclude each other", cmd))
	}
	b, g := 0.0, 0.0
	name := "--batch"
	if c.IsSet("batch") {
		b = c.Float64("batch")
	} else {
		g, name = c.Float64("global-batch"), "--global-batch"
	}
	if !(b+g >= 1) || math.IsInf(b+g, 0) || b+g != math.Trunc(b+g) {
		return nil, badInput(fmt.Errorf("%s: %s %g: want a whole number of samples, at least 1", cmd, name, b+g))
	}
	if b+g > fit.MaxBatch {
		// (check --batch 1e300 printed 1.861e-297 steps/s)
		return nil, badInput(fmt.Errorf("%s: %s %g: too large: want at most 2^53 = %d samples, the largest whole number a float64 holds exactly (model.json's reference batch has the same limit)", cmd, name, b+g, int64(fit.MaxBatch)))
	}
	out, err := m.WithBatch(b, g)
	if err != nil {
		return nil, badInput(fmt.Errorf("%s: %v", cmd, err))
	}
	return out, nil
}

// underOne reports whether r reaches the target in less than one update:
// the loss curve, scaled to a batch far beyond its data, has no meaning
// there (predict --batch 1e18 printed 3.3e-15 updates).
func underOne(r predictRow) bool {
	u := r.UpdatesToTarget
	return u != nil && *u < 1
}

// underOneUpdate says so of r when it reaches the target in less than one
// update (underOne), with the cause: --epochs fewer than one update's
// samples, a batch asked for (batchGiven) far beyond the loss curve's data,
// or else a loss curve that falls below the target within its first update
// (a target loss at or above where the job starts, or a hand-edited curve);
// "" when it does not. (It blamed the batch whatever the cause.)
func underOneUpdate(r predictRow, batchGiven bool) string {
	if !underOne(r) {
		return ""
	}
	why := "the loss curve falls below the target loss within its first update (a target this close to the loss the job starts from, or a loss curve not fitted on this job)"
	switch {
	case r.TargetEpochs != nil:
		why = fmt.Sprintf("--epochs %s is less than one update's samples", strconv.FormatFloat(*r.TargetEpochs, 'g', -1, 64))
	case batchGiven:
		why = "the batch is so far beyond the loss curve's data"
	}
	return fmt.Sprintf("at %s and %d ps the target is reached in %.3g updates, less than one: %s, so its updates and time to target mean nothing there", words.Count(r.Workers, "worker"), r.PS, *r.UpdatesToTarget, why)
}

// predictBarRows is the least number of rows for which predict draws a
// progress bar (on a terminal only).
const predictBarRows = 10000

// maybeNever says when rows' updates and time to target have no upper end
// (inf): the loss curve's bootstrap samples put its floor at or above the
// target often enough to reach the interval's upper percentile. where
// names those rows (the first of their worker counts and how many more,
// predict's flagged); "" when none has.
func maybeNever(m *fit.Model, where string, target float64) string {
	if where == "" {
		return ""
	}
	if math.IsNaN(target) {
		target = m.Efficiency.TargetLoss
	}
	return fmt.Sprintf("the updates and time to target at %s have no upper end (inf): in %.3g%% or more of the loss curve's bootstrap resamples its floor is at or above the target loss %.4g, which the job may then never reach", where, 50*(1-m.Level), target)
}

// flatUpdates says when a row's updates to target have an interval of no
// width: without the loss curve's bootstrap samples the interval holds the
// uncertainty of the staleness cost only (or, for a batch law without its
// samples and run scatter, of the noise scale only), so where the
// staleness is 0 (1 worker) or the batch is the law's reference it has no
// width, and said nothing of it (65.43 [65.43, 65.43] updates on a curve
// fitted to 3 evaluations a run).
// where names those rows (predict's flagged, by flatUpdatesName); "" when every
// row's interval has a width, or none has updates.
func flatUpdates(m *fit.Model, where string) string {
	if where == "" {
		return ""
	}
	if m.Efficiency != nil && m.Efficiency.GNS != nil {
		// a batch law fitted since 2026-12-06 keeps joint samples of
		// (steps_ref, noise_batch) and the runs' scatter about it,
		// which give the reference batch a width too
		return fmt.Sprintf("the updates to target at %s have an interval of no width (and the time to target only the throughput's): it holds the gradient noise scale's uncertainty only, not that of the law's steps at its reference batch nor one run's scatter about the law: the batch law holds no bootstrap samples and no run scatter (efficiency.gns.samples, run_scatter: fitted with --bootstrap 0, a model.json written before 2026-12-06, or fewer than 10 of the resamples of the runs could be fitted); the true uncertainty is wider", where)
	}
	why := "the model holds no bootstrap samples of the curve (fitted with --bootstrap 0, on no more loss points than the curve has parameters, or written before 2026-12-06)"
	return fmt.Sprintf("the updates to target at %s have an interval of no width (and the time to target only the throughput's): it holds the staleness cost's (lambda's) uncertainty only, not the loss curve's: %s; the true uncertainty is wider", where, why)
}

// flatUpdatesName names a row in flatUpdates' list: its workers, and its
// shards where it has some.
func flatUpdatesName(workers, ps int) string {
	w := words.Count(workers, "worker")
	if ps > 0 {
		w += ", " + words.Count(ps, "shard")
	}
	return w
}

// rowFlags are what predict's warnings, printed before its rows, need to
// know of a row: the rows themselves are not kept (runPredict).
type rowFlags uint16

const (
	rowNotFinite    rowFlags = 1 << iota // finiteRows refuses it
	rowFlat                              // steps/s interval of no width (NoBootstrapWarning)
	rowAboveLinks                        // steps/s above the links' capacity (linkBoundWarning)
	rowHiAboveLinks                      // upper end above it
	rowUpdates                           // has updates to target
	rowFlatUpdates                       // updates' interval of no width (flatUpdates)
	rowMaybeNever                        // updates without an upper end (maybeNever)
	rowUnderOne                          // under one update (underOneUpdate)
	rowNoJSON                            // json cannot write it
)

// flagsOf is r's rowFlags but rowNoJSON; perShard and ok are
// linkCapacity's.
func flagsOf(r predictRow, perShard float64, ok bool) rowFlags {
	var f rowFlags
	if !rowFinite(r) {
		f |= rowNotFinite
	}
	if r.StepsPerSLo == r.StepsPerSHi {
		f |= rowFlat
	}
	if bound := float64(r.PS) * perShard; ok && r.PS >= 1 {
		if aboveLinks(r.StepsPerS, bound) {
			f |= rowAboveLinks
		}
		if aboveLinks(r.StepsPerSHi, bound) {
			f |= rowHiAboveLinks
		}
	}
	if r.UpdatesToTarget != nil {
		f |= rowUpdates
		if underOne(r) {
			f |= rowUnderOne
		}
	}
	if r.UpdatesToTargetHi != nil && *r.UpdatesToTargetLo == *r.UpdatesToTargetHi {
		f |= rowFlatUpdates
	}
	if r.TargetMaybeNever {
		f |= rowMaybeNever
	}
	return f
}

// spillMem is the most bytes a rowSpill holds in memory (a variable for
// the tests).
var spillMem = 8 << 20

// rowSpill keeps predict's encoded rows until they are written: in memory
// up to spillMem bytes, past that in a temporary file, removed at once
// where the system allows (an open file's data stay until it is closed),
// else by Close. Where no temporary file can be made it keeps them in
// memory. err is the first error of its writes.
type rowSpill struct {
	mem    []byte
	f      *os.File
	bw     *bufio.Writer
	inFile int64
	name   string // the file, to remove at Close ("" when removed)
	noFile bool
	err    error
}

func (s *rowSpill) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.f == nil && !s.noFile && len(s.mem)+len(p) > spillMem {
		f, err := os.CreateTemp("", "sgdplan-predict-*")
		if err != nil {
			s.noFile = true
		} else {
			s.f = f
			if os.Remove(f.Name()) != nil {
				// (not unlinked while open: removed at Close, or by
				// the interrupt handler on Ctrl-C)
				s.name = f.Name()
				atomicfile.Track(s.name)
			}
			s.bw = bufio.NewWriterSize(f, 1<<16)
			n, err := s.bw.Write(s.mem)
			s.inFile, s.mem = int64(n), nil
			if err != nil {
				s.err = err
				return 0, err
			}
		}
	}
	if s.f == nil {
		s.mem = append(s.mem, p...)
		return len(p), nil
	}
	n, err := s.bw.Write(p)
	s.inFile += int64(n)
	s.err = err
	return n, err
}

func (s *rowSpill) WriteString(p string) (int, error) { return s.Write([]byte(p)) }

// size is the bytes written.
func (s *rowSpill) size() int64 {
	if s.f == nil {
		return int64(len(s.mem))
	}
	return s.inFile
}

// copyTo writes bytes a to b of s to w.
func (s *rowSpill) copyTo(w io.Writer, a, b int64) error {
	if a == b {
		return nil
	}
	if s.f == nil {
		_, err := w.Write(s.mem[a:b])
		return err
	}
	if s.bw.Buffered() > 0 {
		if err := s.bw.Flush(); err != nil {
			return withCode(exitFailure, fmt.Errorf("predict: keeping the rows until they are written: %w", err))
		}
	}
	_, err := io.Copy(w, io.NewSectionReader(s.f, a, b-a))
	return err
}

// Close closes and removes the file, if there is one.
func (s *rowSpill) Close() {
	if s.f != nil {
		s.f.Close()
		if s.name != "" {
			os.Remove(s.name)
			atomicfile.Untrack(s.name)
		}
		s.f = nil
	}
}

// predictRowsOut writes the rows kept in spill to w, the first starting
// with open in place of its first skip bytes, and close after the last.
func predictRowsOut(out io.Writer, spill *rowSpill, open string, skip int64, close string) error {
	// buffered: bufio keeps the first error
	w := bufio.NewWriterSize(out, 64<<10)
	if _, err := io.WriteString(w, open); err != nil {
		return err
	}
	if n := spill.size(); n > 0 {
		if err := spill.copyTo(w, skip, n); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(w, close); err != nil {
		return err
	}
	return w.Flush()
}
