package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/gonum/stat"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/internal/limits"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/plots"
	"github.com/sgdplan/sgdplan/traces"
)

func fitCommand() *cli.Command {
	return &cli.Command{
		Name:      "fit",
		Usage:     "fit a throughput and efficiency model to traces",
		ArgsUsage: "PATH...",
		Description: `Reads canonical traces (folders or steps.csv, updates.csv, runs.csv, evals.csv,
throughput.csv) and writes model.json. With steps.csv the fit uses each run's steady-state
rate and, for asynchronous runs with one worker, the two-node profile of the queueing network;
with throughput.csv alone it fits the family's parameters by least squares in log space.
--family auto fits every family that applies and scores each by its
leave-one-configuration-out error; it keeps the geometric mean of the distinct families within
one standard error of the lowest (--combine mean, a family named mean(a,b,...)) or, with
--combine one or when only one is that close, the one with the fewest parameters among them.
Intervals are bootstrap percentile intervals (90%); a table fit's predictions and parameters
are widened by sqrt(n/(n-p))·t/z (n configurations, p parameters they pin down, t Student's
quantile on n-p degrees of freedom, z the normal's), the predictions also to hold the other
close fits.

Examples:
   sgdplan fit testdata/synthetic/async-ps --train-workers 1 --out model.json
   sgdplan fit throughput.csv --family optimus-sync --format json
   sgdplan fit testdata/asgd --train-workers 1,2 --out model.json     (link rates from runs.csv)
   sgdplan fit testdata/asgd/cpu --train-workers 1 --shared-cores 2 --out cpu.json`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "family", Value: "auto", Usage: "auto or one of: " + strings.Join(fit.FamilyNames(), ", ")},
			&cli.StringFlag{Name: "series", Usage: "fit only the throughput.csv rows of this model (the model column), when it holds several"},
			&cli.StringFlag{Name: "train-workers", Usage: "fit only on runs with these worker counts, e.g. 1,2 or 1-4"},
			&cli.StringFlag{Name: "out", Value: "model.json", Usage: "where to write the model"},
			&cli.StringFlag{Name: "plot", Usage: "write the fit figure (PNG) here; the path must end in .png"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table or json (the model) on stdout"},
			&cli.StringFlag{Name: "combine", Value: "mean", Usage: "what --family auto keeps: mean (the geometric mean of the families it cannot tell apart), one (the simplest of them) or all (the mean of every family it could score)"},
			&cli.BoolFlag{Name: "nnls", Usage: "--family auto also tries each family whose step time is linear in its parameters fitted by NNLS on the step time (the peers' estimator; named FAMILY/nnls, e.g. ernest/nnls, which --family also takes); validate's held-out data did not make it the default"},
			&cli.IntFlag{Name: "bootstrap", Value: 200, Usage: "bootstrap resamples for the intervals, 10 to 100000 (0: none)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the bootstrap"},
			&cli.IntFlag{Name: "shared-cores", Usage: "cores per machine that the workers' compute shares (compute grows with the workers, e.g. testdata/asgd/cpu: 2); 0: each worker has its own device", DefaultText: "0"},
			&cli.StringFlag{Name: "queueing", Value: "exact", Usage: "how the two-node profile's network is solved: exact (MVA, exponential service), correction (residual service with the measured SCVs) or flow"},
		},
		Action: runFit,
	}
}

func runFit(c *cli.Context) error {
	args, err := interspersed(c)
	if err != nil {
		return interspersedError(c, "fit", err)
	}
	if len(args) == 0 {
		return badInput(errors.New("fit: no trace given (usage: sgdplan fit PATH... [--out model.json])"))
	}
	format := c.String("format")
	if format != "table" && format != "json" {
		return badInput(fmt.Errorf("fit: --format %q: want table or json", format))
	}
	family := c.String("family")
	if err := fit.MeanFamilyError(family); err != nil {
		// (mean(a,a) and mean(a, b) got the list of families alone)
		return badInput(fmt.Errorf("fit: --family %q: %s", family, strings.TrimPrefix(err.Error(), "fit: ")))
	}
	if _, ok := fit.LookupFamily(family); !ok && family != "auto" {
		return badInput(fmt.Errorf("fit: --family %q: want auto, one of %s (a linear one with the suffix /nnls: fitted by NNLS), or mean(a,b,...) of two or more of them", family, strings.Join(fit.FamilyNames(), ", ")))
	}
	combine := c.String("combine")
	if combine != "mean" && combine != "one" && combine != "all" {
		return badInput(fmt.Errorf("fit: --combine %q: want mean, one or all", combine))
	}
	var train []int
	if s := c.String("train-workers"); c.IsSet("train-workers") { // (an empty one fitted every run)
		var err error
		if train, err = parseIntList(s, 1); err != nil {
			return badInput(fmt.Errorf("fit: --train-workers: %v", err))
		}
	}
	queueing := c.String("queueing")
	switch queueing {
	case "exact", "correction", "flow":
	default:
		return badInput(fmt.Errorf("fit: --queueing %q: want exact, correction or flow", queueing))
	}
	cores := c.Int("shared-cores")
	if cores < 0 || cores > model.MaxSharedCores {
		return badInput(fmt.Errorf("fit: --shared-cores %d: want 0 (each worker computes on its own device) to %d cores per machine", cores, model.MaxSharedCores))
	}
	boot := c.Int("bootstrap")
	if boot < 0 || boot > maxBootstrap || (boot > 0 && boot < minBootstrap) {
		// (3 resamples gave the throughput's and the curve's 90%
		// intervals from 3 values, while the laws kept none below 10)
		return badInput(fmt.Errorf("fit: --bootstrap %d: want 0 (no intervals) or %d to %d resamples (each refits the model; fewer than %d give no percentile interval worth the name; the default is 200)", boot, minBootstrap, maxBootstrap, minBootstrap))
	}
	if boot == 0 {
		boot = -1
	}
	if err := emptyPath(c, "out", "fit writes model.json"); err != nil {
		return err
	}
	if err := emptyPath(c, "plot", "no figure is drawn"); err != nil {
		return err
	}
	if p := c.String("plot"); p != "" && sameFile(p, c.String("out")) {
		return badInput(fmt.Errorf("fit: --plot %s is the --out path: the figure would overwrite the model; give them different paths", p))
	}
	ins := traceInputs(args...)
	for _, f := range []string{"out", "plot"} {
		if p := c.String(f); p != "" {
			if err := notAnInput("fit", f, p, nil, ins); err != nil {
				return err
			}
			if err := outFolder("fit", f, p); err != nil {
				return err
			}
			if f == "plot" {
				if err := plotName("fit", p); err != nil {
					return err
				}
			}
		}
	}
	if k, ok := traces.KindOfName(filepath.Base(c.String("out"))); ok {
		// (after the inputs' check, which names the file a trace holds)
		// model.json written as oc2/Runs.csv: the folder's next read
		// took it for its runs.csv and failed, "header has {"
		return badInput(fmt.Errorf("fit: --out %s: a trace file's name (%s, in any case): the model would be read as the folder's %s; give it another name, such as model.json", c.String("out"), k.FileName(), k.FileName()))
	}
	paths := args
	m, stats, pts, held, warns, err := fitPaths(paths, c.String("series"), fit.StepOptions{Family: family, Combine: combine, NNLS: c.Bool("nnls"), TrainWorkers: train, Bootstrap: boot, Seed: c.Uint64("seed"), Queueing: queueing, SharedCores: cores})
	if err != nil {
		return withLinkRatesHow(err, paths, train)
	}
	if x := m.StepsPerSecond(m.Config(model.Config{Workers: 1})); math.IsInf(x, 1) {
		// (fit --family allreduce on data without 1 worker put all of the
		// step into the ring's terms: model.json failed its own checks,
		// exit 1)
		return badInput(fmt.Errorf("fit: family %s puts no time into one worker's step (its parameters give +Inf steps/s at 1 worker): the data's fewest workers, %d, leave its compute terms free; measure 1 worker, or fit another family", m.Family, m.FewestWorkers()))
	}
	if w := noBootstrapFit(m, boot); w != "" {
		// in model.json too, so that predict, check and report carry it
		m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, w)
		warns = append(warns, w)
	}
	if w := networkFlagsUnused(m.Family, m.Mode, queueing, cores); w != "" {
		m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, w)
		warns = append(warns, w)
	}
	if w := trainAbsent(c.String("train-workers"), stats, pts, held); w != "" {
		m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, w)
		warns = append(warns, w)
	}
	// in model.json too (fit's table printed it alone)
	m.Diagnostics.HeldOut = heldOutErrors(m, stats, held, train)
	for _, w := range warns {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	// the paths as one spelling: "./x/" and "x" wrote other bytes for
	// the same data
	m.Data.Paths = storedPaths(paths)
	m.Data.PathsFromModel = pathsFrom(filepath.Dir(c.String("out")), paths)
	m.Data.Command = commandLine(c, m.Data.Paths, "out", "plot", "format")
	// the model checked, then the figure, then the model written: a
	// figure that cannot be drawn or written leaves the old model.json as
	// it was (it was replaced, then fit exited 1)
	doc, err := fit.EncodeModel(c.String("out"), m)
	if err != nil {
		return withCode(exitFailure, err)
	}
	if p := c.String("plot"); p != "" {
		if err := fitPlot(p, m, pts, stats); err != nil {
			return withCode(exitFailure, err)
		}
	}
	if err := writeFileAtomic(c.String("out"), doc); err != nil {
		return withCode(exitFailure, fmt.Errorf("fit: %v", err))
	}
	if format == "json" {
		b, err := m.Marshal()
		if err != nil {
			return withCode(exitFailure, err)
		}
		// stdout holds the model: say on stderr that it was written to
		// --out too, as the table does (./model.json by default, which
		// it overwrote silently)
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: note: model written to %s\n", c.String("out"))
		_, err = c.App.Writer.Write(b)
		return err
	}
	return writeFitTable(c.App.Writer, m, stats, train, c.String("out"))
}

// withLinkRatesHow adds to fit's refusal of several link rates
// (fit.ErrLinkRates), whose advice ("fit each rate on its own") fit has no
// flag for, how to do what it advises, for the step traces at paths: the folder of one rate's
// runs (named, by rate), and, when --train-workers (train) left out the
// trace's 1-worker runs, the list with 1 in it, whose two-node profile
// scales the link demand with the rate. Other errors pass unchanged.
func withLinkRatesHow(err error, paths []string, train []int) error {
	var ee *exitError
	if !errors.Is(err, fit.ErrLinkRates) || !errors.As(err, &ee) {
		return err
	}
	files, ferr := traces.Files(paths...)
	if ferr != nil {
		return err
	}
	workers := map[string]int{}
	var runs []string // in the order of steps.csv
	rate := map[string]float64{}
	for _, f := range files {
		var h traces.Handlers
		switch f.Kind {
		case traces.KindSteps:
			h.Step = func(s traces.Step) error {
				if _, ok := workers[s.Run]; !ok {
					runs = append(runs, s.Run)
				}
				workers[s.Run] = s.Workers
				return nil
			}
		case traces.KindRuns:
			h.Run = func(r traces.RunInfo) error {
				rate[r.Run] = r.Bandwidth
				return nil
			}
		default:
			continue
		}
		if _, rerr := traces.ForEach(f, h); rerr != nil {
			return err
		}
	}
	byRate := map[string][]string{}
	var rates []float64
	for _, r := range runs {
		bw, ok := rate[r]
		key := "without a bandwidth in runs.csv"
		if ok && bw > 0 && !math.IsInf(bw, 0) {
			key = fmt.Sprintf("at %g B/s", bw)
			if len(byRate[key]) == 0 {
				rates = append(rates, bw)
			}
		}
		byRate[key] = append(byRate[key], r)
	}
	if len(byRate) < 2 {
		return err
	}
	sort.Float64s(rates)
	keys := make([]string, 0, len(byRate))
	for _, bw := range rates {
		keys = append(keys, fmt.Sprintf("at %g B/s", bw))
	}
	if _, ok := byRate["without a bandwidth in runs.csv"]; ok {
		keys = append(keys, "without a bandwidth in runs.csv")
	}
	var groups []string
	for _, k := range keys {
		groups = append(groups, fmt.Sprintf("%s: %s", k, someRuns(byRate[k])))
	}
	how := fmt.Sprintf("; to fit one rate on its own, give fit a folder that holds its runs alone: their rows of steps.csv (and of runs.csv, updates.csv and evals.csv), found by the run column, each file with its header (the runs %s)", strings.Join(groups, "; "))
	if train != nil && !slices.Contains(train, 1) {
		var ones []string
		for _, r := range runs {
			if workers[r] == 1 {
				ones = append(ones, r)
			}
		}
		if len(ones) > 0 {
			with := slices.Sorted(slices.Values(append(slices.Clone(train), 1)))
			how += fmt.Sprintf("; or keep the 1-worker runs: --train-workers %s (%s)", intList(with), someRuns(ones))
		}
	}
	ee.err = fmt.Errorf("%w%s", ee.err, how)
	return err
}

// someRuns names the first three of runs and counts the rest.
func someRuns(runs []string) string {
	if len(runs) <= 3 {
		return words.And(runs)
	}
	return fmt.Sprintf("%s and %d more", strings.Join(runs[:3], ", "), len(runs)-3)
}

// trainAbsent says which worker counts --train-workers (flag) names singly
// that no run (stats) or row (the fitted pts and the held-out held) has:
// --train-workers 1,2,3 on rows at 1, 2 and 4 workers fitted 1 and 2 and
// dropped 3 without a word. A range (1-4) names the counts it spans, not
// each of them: none of its counts is said. "" when every count named is
// in the data.
func trainAbsent(flag string, stats []fit.RunStats, pts, held []fit.Point) string {
	have := map[int]bool{}
	var all []int
	add := func(w int) {
		if !have[w] {
			have[w] = true
			all = append(all, w)
		}
	}
	for _, r := range stats {
		add(r.Workers)
	}
	for _, p := range append(slices.Clone(pts), held...) {
		add(p.Config.Workers)
	}
	var absent []int
	for _, tok := range strings.Split(flag, ",") {
		if w, err := strconv.Atoi(strings.TrimSpace(tok)); err == nil && !have[w] && !slices.Contains(absent, w) {
			absent = append(absent, w)
		}
	}
	if len(absent) == 0 {
		return ""
	}
	what := "throughput row"
	if len(stats) > 0 {
		what = "run"
	}
	counts := words.And(intStrings(all))
	if len(all) > 8 {
		counts = words.FirstOf(intStrings(all), 8)
	}
	return fmt.Sprintf("--train-workers %s: no %s has %s workers (the data have %s): nothing was fitted there", intList(absent), what, words.Either(absent), counts)
}

// intStrings writes xs in increasing order, each as a decimal.
func intStrings(xs []int) []string {
	xs = slices.Sorted(slices.Values(xs))
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return s
}

// intList writes xs as --train-workers takes them: 1,3,4.
func intList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// throughputIgnored is fit's warning for the throughput.csv at path of a
// trace that has steps.csv: the step fit reads the step traces only.
func throughputIgnored(path string) string {
	return fmt.Sprintf("%s is ignored, not read: the trace has steps.csv, and fit reads the step traces (throughput.csv is fitted in a trace without them: give it alone to fit its rows)", path)
}

// networkFlagsUnused says when --queueing (other than exact) or
// --shared-cores was given and the model kept is not the mva family's
// network, which is all they shape: they were dropped without a word.
func networkFlagsUnused(family, mode, queueing string, cores int) string {
	if family == "mva" {
		return ""
	}
	var unused []string
	if queueing != "" && queueing != "exact" {
		unused = append(unused, "--queueing "+queueing)
	}
	if cores > 0 {
		unused = append(unused, fmt.Sprintf("--shared-cores %d", cores))
	}
	if len(unused) == 0 {
		return ""
	}
	it, is := "it", "is"
	if len(unused) > 1 {
		it, is = "them", "are"
	}
	keep := "--family mva keeps the network"
	if mode != "async" {
		// (--family mva refuses these data: it was suggested all the same)
		keep = "the network is asynchronous SGD's, and these data are " + mode
	}
	return fmt.Sprintf("%s %s modelled only by the two-node profile's network (family mva); the model kept is %s, whose predictions do not use %s (%s)", strings.Join(unused, " and "), is, family, it, keep)
}

// fitPaths loads the traces and fits them: a step-level fit when there are
// steps, a table fit otherwise. Bad data are badInput errors.
func fitPaths(paths []string, series string, o fit.StepOptions) (m *fit.Model, stats []fit.RunStats, pts, held []fit.Point, warns []string, err error) {
	files, err := traces.Files(paths...)
	if err != nil {
		return nil, nil, nil, nil, nil, badInput(err)
	}
	for _, f := range files {
		if f.Kind != traces.KindSteps {
			continue
		}
		if series != "" {
			return nil, nil, nil, nil, nil, badInput(fmt.Errorf("fit: --series %q: the trace has steps.csv, fitted step by step; --series picks a model of throughput.csv (the model column) and applies to tables only", series))
		}
		// A step trace: stream it (steps.csv is never held in memory).
		sf, tw, err := fit.FitStepsPaths(paths, o)
		for _, w := range tw {
			warns = append(warns, w.Error())
		}
		if err != nil {
			return nil, nil, nil, nil, warns, badInput(err)
		}
		warns = append(warns, sf.Warnings...)
		// throughput.csv beside steps.csv is not read: say so, in
		// model.json too (it was ignored without a word, even broken)
		for _, f := range files {
			if f.Kind == traces.KindThroughput {
				w := throughputIgnored(f.Path)
				sf.Model.Diagnostics.Warnings = append(sf.Model.Diagnostics.Warnings, w)
				warns = append(warns, w)
			}
		}
		return sf.Model, sf.Stats, sf.Points, nil, warns, nil
	}
	tr, tw, err := traces.Load(paths...)
	if err != nil {
		return nil, nil, nil, nil, nil, badInput(err)
	}
	for _, w := range tw {
		warns = append(warns, w.Error())
	}
	if len(tr.Throughput) == 0 {
		return nil, nil, nil, nil, nil, badInput(errors.New("fit: the trace has neither steps.csv nor throughput.csv rows: nothing to fit"))
	}
	rows := tr.Throughput
	models := map[string]bool{}
	for _, r := range rows {
		models[r.Model] = true
	}
	var names []string
	for s := range models {
		names = append(names, fmt.Sprintf("%q", s))
	}
	sort.Strings(names)
	if series != "" {
		if !models[series] {
			return nil, nil, nil, nil, nil, badInput(fmt.Errorf("fit: --series %q: throughput.csv has no such model (it holds %s)", series, strings.Join(names, ", ")))
		}
		var keep []traces.Throughput
		for _, r := range rows {
			if r.Model == series {
				keep = append(keep, r)
			}
		}
		rows = keep
	} else if len(models) > 1 {
		return nil, nil, nil, nil, nil, badInput(fmt.Errorf("fit: throughput.csv holds %d models (%s): fit one model at a time (--series NAME)", len(models), strings.Join(names, ", ")))
	}
	// one mode per model: a table that mixes them failed after the whole
	// fit, at the model.json it did not write (exit 1)
	modeOf := func(r traces.Throughput) string {
		if r.Mode == "" {
			return "async"
		}
		return r.Mode
	}
	for _, r := range rows {
		if m0, m := modeOf(rows[0]), modeOf(r); m != m0 {
			run := ""
			if r.Run != "" {
				run = fmt.Sprintf(" (run %q)", r.Run)
			}
			first, how := fmt.Sprintf("the first row of model %q", r.Model), "give each mode its own model name and fit it with --series"
			if r.Model == "" {
				// (it said `the first row of model ""` of a table
				// without a model column)
				first, how = "the first row", "give each mode its own model name in a model column and fit it with --series, or fit each mode's rows on their own"
			}
			return nil, nil, nil, nil, nil, badInput(fmt.Errorf("fit: %s: mode: %s at %d workers%s, but %s (%s) is %s: want one mode per model (%s)",
				throughputAt(r), m, r.Workers, run, first, throughputAt(rows[0]), m0, how))
		}
	}
	if train := o.TrainWorkers; train != nil {
		var keep []traces.Throughput
		for _, r := range rows {
			for _, w := range train {
				if r.Workers == w {
					keep = append(keep, r)
				}
			}
		}
		if len(keep) == 0 {
			have := make([]int, len(rows))
			for i, r := range rows {
				have[i] = r.Workers
			}
			return nil, nil, nil, nil, nil, badInput(fmt.Errorf("fit: no throughput row has a worker count in --train-workers %v: the rows have %s workers", train, words.Either(have)))
		}
		// the rows left out, to say how far off the fit is on them (a
		// table fit printed no held-out error, a step fit did)
		var out []traces.Throughput
		for _, r := range rows {
			if !slices.Contains(train, r.Workers) {
				out = append(out, r)
			}
		}
		if len(out) > 0 {
			if held, err = fit.PointsFromThroughput(out); err != nil {
				return nil, nil, nil, nil, nil, badInput(err)
			}
		}
		rows = keep
	}
	pts, err = fit.PointsFromThroughput(rows)
	if err != nil {
		return nil, nil, nil, nil, nil, badInput(err)
	}
	tf, alts, err := fit.FitThroughput(pts, o.Family, &fit.Settings{Bootstrap: o.Bootstrap, Seed: o.Seed, Combine: o.Combine, NNLS: o.NNLS})
	if err != nil {
		return nil, nil, nil, nil, nil, badInput(err)
	}
	ref := fit.Reference{PS: rows[0].PS, Nodes: rows[0].Nodes}
	mode := rows[0].Mode
	if mode == "" {
		mode = "async"
	}
	// Strong or weak scaling as the data measure it (fit.StrongScaling), not as
	// the first row's column says: a weak-scaling table written with
	// global_batch (32, 64, 128, 256 at 1-8 workers) was queried at a global
	// batch of 32 split among the workers, and check failed 4 workers that
	// the table shows 2.7 times faster than 1.
	if fit.StrongScaling(pts) {
		ref.GlobalBatch = fit.MostMeasured(pts, pts[0].Config.Batch*float64(pts[0].Config.Workers), fit.GlobalBatchOf)
	} else {
		ref.Batch = fit.MostMeasured(pts, pts[0].Config.Batch, func(p fit.Point) float64 { return p.Config.Batch })
	}
	if ref.Batch == 0 && ref.GlobalBatch == 0 {
		ref.Batch = 1
		warns = append(warns, "no batch size in the data: samples/s are reported per step (batch taken as 1)")
	}
	// workers per machine from every row that says its machines (the
	// first row's empty nodes left the rest unread: predictions on one
	// machine for a model fitted on several)
	for _, r := range rows {
		if r.Nodes > 0 && r.Workers > 0 {
			ref.PerNode = max(ref.PerNode, (r.Workers+r.Nodes-1)/r.Nodes)
			ref.Nodes = 0
		}
	}
	// the dataset size (for --epochs) from runs.csv, as a step fit reads
	// it: the first run the fitted rows name that gives one
	for _, r := range rows {
		for _, info := range tr.Runs {
			if ref.Dataset == 0 && r.Run != "" && info.Run == r.Run && info.Dataset > 0 {
				ref.Dataset = info.Dataset
			}
		}
	}
	m = fit.NewModel(tf, pts, alts, mode, ref, paths, 0.9)
	// the loss curves beside the table (evals.csv with runs.csv, as a
	// converted TensorBoard log has them) were ignored without a word
	eff, ew := fit.TableEfficiency(tr, rows, &fit.Settings{Bootstrap: o.Bootstrap, Seed: o.Seed, Level: m.Level})
	m.Efficiency = eff
	m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, ew...)
	return m, nil, pts, held, append(warns, m.Diagnostics.Warnings...), nil
}

// throughputAt is where a throughput row was read: file:line:column of its
// mode, file:line when the file has no mode column (the default mode).
func throughputAt(r traces.Throughput) string {
	file, line, col := r.Pos()
	switch {
	case line == 0:
		return "throughput.csv"
	case col == 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}

// fitPlot draws the fitted curve at the model's reference shards and link
// rate with the points measured there: those the fit saw, and as held-out
// rings the runs of stats that --train-workers left out.
func fitPlot(path string, m *fit.Model, pts []fit.Point, stats []fit.RunStats) error {
	fig, err := plots.FitFigure(fitPlotData(m, pts, stats))
	if err != nil {
		return err
	}
	return fig.Save(path)
}

// fitPlotData is fitPlot's figure data.
func fitPlotData(m *fit.Model, pts []fit.Point, stats []fit.RunStats) plots.FitData {
	d := plots.FitData{Title: "sgdplan fit: " + m.Family, YLabel: fitYLabel(m), Label: m.Family, Level: m.Level}
	maxW := 1
	var hidden offCurve
	for _, p := range pts {
		// The curve is at the reference shards, link rate, batch and
		// placement: only the points measured there belong beside it.
		if !onCurve(m, p.Config.Workers, p.Config.PS, p.Config.Nodes, p.Config.Batch, p.Config.Bandwidth) {
			hidden.add(m, p.Config.Workers, p.Config.PS, p.Config.Nodes, p.Config.Batch, p.Config.Bandwidth, false)
			continue
		}
		d.Measured = append(d.Measured, plots.Obs{X: float64(p.Config.Workers), Y: p.StepsPerS, Lo: math.NaN(), Hi: math.NaN()})
		maxW = max(maxW, p.Config.Workers)
	}
	trained := map[int]bool{}
	for _, p := range pts {
		trained[p.Config.Workers] = true
	}
	for _, s := range stats {
		// held out: by the same rule as the trained points
		if trained[s.Workers] || !(s.StepsPerS > 0) {
			continue
		}
		if !onCurve(m, s.Workers, s.PS, s.Nodes, float64(s.Batch), s.Bandwidth) {
			hidden.add(m, s.Workers, s.PS, s.Nodes, float64(s.Batch), s.Bandwidth, true)
			continue
		}
		d.Measured = append(d.Measured, plots.Obs{X: float64(s.Workers), Y: s.StepsPerS, Lo: math.NaN(), Hi: math.NaN(), HeldOut: true})
		maxW = max(maxW, s.Workers)
	}
	note := curveNote(m, hidden)
	if note == "" && m.Reference.Bandwidth > 0 {
		// (the reference as curveNote writes it: this was "(1 shard,
		// 3e+06 B/s)", without the batch, for the simplest profile)
		note = "\nat " + referenceAt(m)
	}
	if note == "" {
		note = syncStepNote(m)
	}
	d.Title += note
	top := drawnTop(m, max(2*maxW, 8))
	for _, w := range reportWorkers(top) { // every count, then 1% steps
		pr := m.Predict(model.Config{Workers: w}, math.NaN(), 0)
		d.Curve = append(d.Curve, plots.Band{X: float64(w), Y: pr.StepsPerS.Value, Lo: pr.StepsPerS.Lo, Hi: pr.StepsPerS.Hi})
	}
	setFitBounds(&d, m)
	return d
}

// referenceBatchLine says which batch predict and check use by default
// when the data hold several ("" when they hold one).
func referenceBatchLine(m *fit.Model) string {
	// under strong scaling the per-worker batch changes with the workers
	// at one global batch: count the global batches there
	strong := m.Reference.GlobalBatch > 0
	batches := map[float64]bool{}
	for _, c := range m.Data.Configurations {
		b := c.Batch
		if strong {
			b *= float64(c.Workers)
		}
		batches[math.Round(b*1e6)/1e6] = true
	}
	if len(batches) < 2 {
		return ""
	}
	what, b := "per-worker", fmt.Sprintf("%.4g samples per worker", m.Reference.Batch)
	if strong {
		what, b = "global", fmt.Sprintf("a global batch of %.4g samples split among the workers", m.Reference.GlobalBatch)
	}
	return fmt.Sprintf("the data hold %d %s batches; predict, check and report use %s (the one measured at the most worker counts) unless --batch or --global-batch says otherwise", len(batches), what, b)
}

// paramMark is what fit's parameter table and the report say of a
// parameter's interval beyond its numbers.
type paramMark int

const (
	markNone         paramMark = iota
	markUnidentified           // more free parameters than configurations
	markExactFit               // as many, one measurement each, a zero-width interval, no residual
	markAtBound                // a zero-width interval at a bound of the form
	markNoEffect               // no effect on the fitted points (a warning names it)
)

// flatMarked reports whether parameter i of m (marks: paramMarks(m)) is
// one the fit is flat along a combination of, and not marked unidentified
// already: fit's table marks it "**", report's note says so.
func flatMarked(m *fit.Model, marks []paramMark, i int) bool {
	return marks[i] != markUnidentified && slices.Contains(m.Diagnostics.FlatParameters, m.Parameters[i].Name)
}

// paramMarks marks each of m's parameters (in m.Parameters order): a
// family with more free parameters than the configurations it was fitted
// on is not identified (every refit passes through the points as the fit
// did, and the intervals, often of zero width, read as certainty); one
// with as many on one measurement each is an exact fit, said of a
// zero-width interval only (step traces measure the rates' noise within
// each run). A mean of families fits each member on its own, so the count
// is per member. A parameter that every refit left at a bound of the form
// (a compute time of 0) has a zero-width interval that measures nothing
// either, exact or not: at its bound. A fit that misses its points is not
// exact, whatever its counts. A queueing network measured on the profile
// is not fitted to the points: no marks. A parameter a warning says has
// no effect on the fitted points (diagnostics.no_effect_parameters) is not
// identified either, whatever its interval: pollux's gamma read 1.978
// [1.978, 1.978] with no mark.
func paramMarks(m *fit.Model) []paramMark {
	marks := make([]paramMark, len(m.Parameters))
	if m.Family == "mva" && m.Queueing != nil {
		return marks
	}
	measured, configs := m.Measured()
	free := m.FreeParams()
	form := m.FamilyForm().Params
	for i, p := range m.Parameters {
		zeroWidth := p.Hi-p.Lo <= 1e-6*math.Abs(p.Value)
		switch n := free[m.Member(p.Name)]; {
		case p.Prior:
		case n > configs:
			marks[i] = markUnidentified
		case slices.Contains(m.Diagnostics.NoEffectParameters, p.Name):
			marks[i] = markNoEffect
		case zeroWidth && i < len(form) && (p.Value == form[i].Lo || p.Value == form[i].Hi):
			marks[i] = markAtBound
		case n == configs && measured == configs && zeroWidth && m.Diagnostics.RMSLE <= fit.ExactRMSLE:
			marks[i] = markExactFit
		}
	}
	return marks
}

// onCurve reports whether a configuration measured at workers, shards ps,
// nodes, per-worker batch and link rate bw is one of the fit figure's
// curve, which is drawn at the model's reference (Model.Config): the same
// shards, link rate (when both are known), batch (the global batch under
// strong scaling) and machines (when known). Points elsewhere are not
// comparable with the curve and would read as misfits, unless they differ
// only in what the family ignores: where the model predicts the same rate
// at the point's own configuration as at the curve's, the point is on it
// (a power law ignores the machines: 16 to 64 workers on several machines
// were hidden from a curve at one machine, 3 of a series' 5 points).
func onCurve(m *fit.Model, workers, ps, nodes int, batch, bw float64) bool {
	ref := m.Config(model.Config{Workers: workers, PS: m.Reference.PS})
	same := ps == m.Reference.PS && (bw <= 0 || m.Reference.Bandwidth <= 0 || bw == m.Reference.Bandwidth) &&
		(batch <= 0 || ref.Batch <= 0 || math.Abs(batch-ref.Batch) <= 1e-9*ref.Batch) &&
		(nodes <= 0 || ref.Nodes <= 0 || nodes == ref.Nodes)
	if same {
		return true
	}
	if ps == 0 && m.Reference.PS != 0 {
		return false // no shards, which Model.Config would read as the reference's
	}
	own := model.Config{Workers: workers, PS: ps, Nodes: nodes, Batch: batch, Bandwidth: bw}
	x, y := m.StepsPerSecond(own), m.StepsPerSecond(ref)
	return x > 0 && y > 0 && math.Abs(x-y) <= 1e-9*y
}

// variantErrors are the errors printed under an mva model's held-out
// error: the same profile's on those runs (configurations cs, rates
// measured) under the other --queueing variants, so that a user whose
// links the fitted variant suits less sees it (nil for other families). No variant is
// chosen for them: on testdata/asgd exact did best, on links with nearly
// constant transfers the corrections can (docs/models.md).
func variantErrors(m *fit.Model, cs []model.Config, measured []float64) []fit.VariantError {
	if m.Family != "mva" || m.Queueing == nil || len(cs) == 0 {
		return nil
	}
	var out []fit.VariantError
	for _, v := range fit.QueueingVariants {
		if v == m.Queueing.Variant || (v == "exact" && m.Queueing.Variant == "") {
			continue
		}
		rates, err := m.RatesWithQueueing(v, cs)
		if err != nil {
			return nil
		}
		errs := make([]float64, len(rates))
		for i, r := range rates {
			errs[i] = 100 * math.Abs(r-measured[i]) / measured[i]
		}
		// (the mean of equal errors can round an ulp above them)
		worst := slices.Max(errs)
		out = append(out, fit.VariantError{Variant: v, MAPEPct: min(stat.Mean(errs, nil), worst), WorstPct: worst})
	}
	return out
}

// heldOutErrors is m's error on what --train-workers (train) left out of
// its fit, out of sample: the runs of stats, each at its own configuration
// and batch (fit.RunStats.Config), or a table fit's rows held; nil when
// nothing was left out or nothing left out could be predicted.
func heldOutErrors(m *fit.Model, stats []fit.RunStats, held []fit.Point, train []int) *fit.HeldOut {
	if train == nil {
		return nil
	}
	// the kept counts the data hold (--train-workers 1-10000 was stored
	// as 10,000 numbers)
	h := &fit.HeldOut{}
	for _, d := range m.Data.Configurations {
		if slices.Contains(train, d.Workers) && !slices.Contains(h.TrainWorkers, d.Workers) {
			h.TrainWorkers = append(h.TrainWorkers, d.Workers)
		}
	}
	slices.Sort(h.TrainWorkers)
	if len(h.TrainWorkers) == 0 {
		h.TrainWorkers = train
	}
	var errs, measured []float64
	var cs []model.Config
	worst := -1.0
	add := func(c model.Config, x float64) {
		pred := m.StepsPerSecond(c)
		if !(x > 0 && pred > 0) {
			return
		}
		e := 100 * math.Abs(pred-x) / x
		errs, measured, cs = append(errs, e), append(measured, x), append(cs, c)
		if e > worst {
			worst, h.WorstWorkers, h.WorstBatch = e, c.Workers, c.Batch
		}
	}
	if len(stats) > 0 {
		for _, r := range stats {
			if !slices.Contains(train, r.Workers) {
				add(r.Config(), r.StepsPerS)
			}
		}
		h.Runs = len(errs)
		h.OtherVariants = variantErrors(m, cs, measured)
	} else {
		for _, p := range held {
			add(p.Config, p.StepsPerS)
		}
		h.Rows = len(errs)
	}
	if len(errs) == 0 {
		return nil
	}
	// (the mean of equal errors can round an ulp above them: model.json's
	// check then refused fit's own model)
	h.MAPEPct, h.WorstPct = min(stat.Mean(errs, nil), worst), worst
	return h
}

// offCurve counts the measured points a fit figure leaves out because they
// are not at the curve's reference (onCurve), and what of theirs differs.
type offCurve struct {
	fitted, heldOut                int
	shards, rate, batch, placement bool
}

// add counts a point at ps shards, nodes, per-worker batch and link rate bw
// that is not on m's curve.
func (o *offCurve) add(m *fit.Model, workers, ps, nodes int, batch, bw float64, heldOut bool) {
	if heldOut {
		o.heldOut++
	} else {
		o.fitted++
	}
	ref := m.Config(model.Config{Workers: workers, PS: m.Reference.PS})
	switch {
	case ps != m.Reference.PS:
		o.shards = true
	case bw > 0 && m.Reference.Bandwidth > 0 && bw != m.Reference.Bandwidth:
		o.rate = true
	case batch > 0 && ref.Batch > 0 && math.Abs(batch-ref.Batch) > 1e-9*ref.Batch:
		o.batch = true
	default:
		o.placement = true
	}
}

// curveNote is the fit figure's second title line: where the curve is
// drawn (shards, link rate, batch) and how many points, fitted and held
// out, it leaves out and at what ("" when none).
func curveNote(m *fit.Model, o offCurve) string {
	if o.fitted+o.heldOut == 0 {
		return ""
	}
	var what []string
	for _, w := range []struct {
		on   bool
		name string
	}{{o.shards, "shards"}, {o.rate, "link rates"}, {o.batch, "batches"}, {o.placement, "placements"}} {
		if w.on {
			what = append(what, w.name)
		}
	}
	n := words.Count(o.fitted, "point")
	if o.heldOut > 0 {
		n = fmt.Sprintf("%d fitted, %d held-out points", o.fitted, o.heldOut)
	}
	return fmt.Sprintf("\nat %s\nnot shown: %s at other %s", referenceAt(m), n, strings.Join(what, " or "))
}

// referenceAt is the configuration the fit figure's curve is drawn at, as
// its title names it: "1 shard, 3 MB/s, batch 32 per worker".
func referenceAt(m *fit.Model) string {
	var at []string
	if m.Reference.PS > 0 {
		at = append(at, words.Count(m.Reference.PS, "shard"))
	}
	if m.Reference.Bandwidth > 0 {
		at = append(at, plots.Rate(m.Reference.Bandwidth))
	}
	if m.Reference.GlobalBatch > 0 {
		at = append(at, fmt.Sprintf("global batch %.4g", m.Reference.GlobalBatch))
	} else {
		at = append(at, fmt.Sprintf("batch %.4g per worker", m.Reference.Batch))
	}
	return strings.Join(at, ", ")
}

// drawnTop is top, the most workers a figure of m draws, held to the
// model's global batch under strong scaling: past it a worker gets less
// than one sample, which predict and check refuse (splitBatch). The fit
// figure of elasticflow-asplos23's bert (global batch 64) drew its curve
// and band on to 128 workers.
func drawnTop(m *fit.Model, top int) int {
	if g := m.Reference.GlobalBatch; g >= 1 && float64(top) > g {
		return max(int(g), 1)
	}
	return top
}

// syncStepNote is the fit figure's second title line for a synchronous
// model, whose steps grow with the workers under weak scaling ("" for
// another): the steps/s of testdata/sync-gns fell from 16 to 3.3 as the
// global batch grew from 128 to 4096, which the figure read as "more
// workers, slower".
func syncStepNote(m *fit.Model) string {
	switch {
	case m.Mode == "async":
		return ""
	case m.Reference.GlobalBatch > 0:
		return fmt.Sprintf("\nsteps of global batch %.4g, split among the N workers", m.Reference.GlobalBatch)
	case m.Reference.Batch > 0:
		return fmt.Sprintf("\nsteps of %.4g samples per worker: a step of N workers is %.4g N samples", m.Reference.Batch, m.Reference.Batch)
	}
	return ""
}

// setFitBounds gives the fit figure the delay and demands of the model's
// queueing network at its reference shards and link rate, so that it draws
// both asymptotic bounds and the knee; models without a network get none.
func setFitBounds(d *plots.FitData, m *fit.Model) {
	n, ok := m.BoundsNetwork(model.Config{Workers: 1})
	if !ok {
		return
	}
	maxD, _ := n.MaxDemand()
	d.Z, d.SumD, d.MaxD = n.Z, n.TotalDemand()-n.Z, maxD
	if !d.HasBounds() {
		d.Z, d.SumD, d.MaxD = 0, 0, 0
	}
}

// writeFitTable prints fit's table; it returns the first error writing to
// stdout.
func writeFitTable(stdout io.Writer, m *fit.Model, stats []fit.RunStats, train []int, out string) error {
	w := &stickyWriter{w: stdout}
	fmt.Fprintf(w, "family %s (%s), fitted on %s; model written to %s\n", m.Family, m.Mode, m.FittedOn(), out)
	if f := m.FamilyForm(); len(f.Members) > 0 {
		fmt.Fprintf(w, "(%s)\n", f.Doc)
	}
	_, configs := m.Measured()
	cv := "n/a (fewer than 3 configurations)"
	if configs >= 3 {
		// (it said "fewer than 3" of 3 configurations whose folds the
		// family's parameters were too many for)
		cv = "n/a (not scored)"
		for _, a := range m.Diagnostics.Alternatives {
			if a.Family == m.Family && a.Note != "" {
				cv = "n/a (not scored: " + strings.TrimPrefix(a.Note, "not scored: ") + ")"
				break
			}
		}
	}
	if m.Diagnostics.CVError != nil {
		cv = fmt.Sprintf("%.4g%%", *m.Diagnostics.CVError)
	}
	if m.Family == "mva" && m.Queueing != nil {
		// the profile is fitted on one run and nothing is refitted: its
		// error on the other runs is out of sample already
		cv = "n/a (no training run besides the profile)"
		if m.Diagnostics.CVError != nil {
			cv = fmt.Sprintf("%.4g%% on the training runs besides the profile (out of sample: the network is measured on the profile alone)", *m.Diagnostics.CVError)
		}
		fmt.Fprintf(w, "fit error: RMSLE %.4g on every training run, MAPE %s\n", m.Diagnostics.RMSLE, cv)
	} else {
		fmt.Fprintf(w, "fit error: RMSLE %.4g, leave-one-configuration-out MAPE %s\n", m.Diagnostics.RMSLE, cv)
	}
	if line := referenceBatchLine(m); line != "" {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "parameter\tvalue\t%.0f%% interval\tunit\n", 100*m.Level)
	priors, flat := 0, 0
	marks := paramMarks(m)
	for i, p := range m.Parameters {
		unit := p.Unit
		if p.Prior {
			unit += " *"
			priors++
		}
		iv := fmt.Sprintf("[%.4g, %.4g]", p.Lo, p.Hi)
		switch marks[i] {
		case markUnidentified:
			iv += " not identified"
		case markExactFit:
			iv += " (exact fit: no measurement to spare, no uncertainty measured)"
		case markAtBound:
			iv += fmt.Sprintf(" (at the form's bound %.4g in every refit: no uncertainty measured)", p.Value)
		case markNoEffect:
			iv += " (no effect on the fitted points: not identified)"
		}
		// a flat combination's narrow intervals read as certainty: marked
		// ("*" is the prior's, in the unit column)
		if flatMarked(m, marks, i) {
			iv += " **"
			flat++
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%s\n", p.Name, p.Value, iv, unit)
	}
	tw.Flush()
	if priors > 0 {
		fmt.Fprintf(w, "* set by the form's prior, not by the data (which leave it free; the warnings say how)\n")
	}
	if flat > 0 {
		fmt.Fprintf(w, "** not identified separately: the fit is flat along a combination of them (a warning names it), and their intervals do not show it\n")
	}
	if q := m.Queueing; q != nil {
		fmt.Fprintf(w, "network: %s MVA (model.AsyncPS); SCV of a transfer %.3g, of an apply %.3g, of compute %.3g", q.Variant, q.SCVLink, q.SCVApply, q.SCVCompute)
		if q.Bandwidth > 0 {
			fmt.Fprintf(w, "; link demand measured at %.4g B/s, scaled as S/B to other rates", q.Bandwidth)
		} else {
			// (predict --bandwidth refused the model later, the first word of it)
			fmt.Fprint(w, "; no link rate (runs.csv bandwidth and param_bytes; convert --bandwidth, --param-bytes): the link demand holds at the profile's own rate and model size, and predict --bandwidth cannot scale it")
		}
		if q.SharedCores > 0 {
			fmt.Fprintf(w, "; compute shares %d cores per machine, %s", q.SharedCores, words.Count(max(m.Reference.Nodes, 1), "machine"))
		}
		fmt.Fprintln(w)
	}
	if len(m.Diagnostics.Alternatives) > 1 {
		head := "leave-one-configuration-out MAPE"
		for _, a := range m.Diagnostics.Alternatives {
			// (a table's mva is scored by leave-one-out as the others:
			// the heading spoke of a profile it does not have)
			if a.Family == "mva" && a.Profile {
				head += "; for mva, the profile's error on the other runs"
				break
			}
		}
		fmt.Fprintf(w, "\nfamilies tried (%s):\n", head)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, a := range m.Diagnostics.Alternatives {
			v := "n/a"
			if a.CVError >= 0 {
				v = fmt.Sprintf("%.4g%%", a.CVError)
			} else if a.Note != "" {
				v = "n/a (" + a.Note + ")"
			}
			if a.Error != "" {
				v = "failed: " + a.Error
			}
			fmt.Fprintf(tw, "  %s\t%s\n", a.Family, v)
		}
		tw.Flush()
	}
	if len(stats) > 0 {
		fmt.Fprintln(w, "\nruns (steady window):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		rates := false
		for _, r := range stats {
			rates = rates || r.Bandwidth > 0
		}
		// --train-workers: which runs the fit saw, and how far off it is
		// on the others (all runs were listed alike)
		heldOut := func(r fit.RunStats) bool { return train != nil && !slices.Contains(train, r.Workers) }
		head := "  run\tworkers\tps\t"
		if rates {
			head += "link B/s\t"
		}
		head += "measured steps/s\tfitted steps/s"
		if train != nil {
			head += "\tin the fit"
		}
		fmt.Fprintln(tw, head)
		for _, r := range stats {
			// the configuration of the fit's point of the run, with its
			// batch (without it, a run at another batch than the model's
			// was predicted at the model's, 439% off where the fit
			// matched it)
			c := r.Config()
			pred := m.StepsPerSecond(c)
			fmt.Fprintf(tw, "  %s\t%d\t%d\t", cellText(r.Run), r.Workers, r.PS) // (a newline in a run name split its row)
			if rates {
				// a run without its rate in runs.csv is predicted at
				// the model's (it printed NaN)
				bw := fmt.Sprintf("%.4g", r.Bandwidth)
				if !(r.Bandwidth > 0) {
					bw = fmt.Sprintf("%.4g (none: the model's)", m.Config(c).Bandwidth)
				}
				fmt.Fprintf(tw, "%s\t", bw)
			}
			fmt.Fprintf(tw, "%.4g\t%.4g", r.StepsPerS, pred)
			switch {
			case heldOut(r):
				fmt.Fprint(tw, "\theld out")
			case train != nil:
				fmt.Fprint(tw, "\tfitted")
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		if h := m.Diagnostics.HeldOut; h != nil && h.Runs > 0 {
			fmt.Fprintf(w, "held out by --train-workers: %s, predicted %.3g%% off on average (worst %.3g%%), out of sample\n", words.Count(h.Runs, "run"), h.MAPEPct, h.WorstPct)
			if len(h.OtherVariants) > 0 {
				parts := make([]string, len(h.OtherVariants))
				for i, v := range h.OtherVariants {
					parts[i] = fmt.Sprintf("%s %.3g%% (worst %.3g%%)", v.Variant, v.MAPEPct, v.WorstPct)
				}
				fmt.Fprintf(w, "  the same profile under the other --queueing variants, on these runs: %s (a refit with --queueing V writes that variant; docs/models.md says which links each suits)\n", strings.Join(parts, ", "))
			}
		}
	}
	if h := m.Diagnostics.HeldOut; h != nil && h.Rows > 0 {
		// a table fit's rows left out by --train-workers (a step fit's
		// runs are in its runs table above), the worst with its batch (a
		// worker count measured at two batches was named alone)
		fmt.Fprintf(w, "\nheld out by --train-workers: %s, predicted %.3g%% off on average (worst %.3g%%, at %s, batch %.4g), out of sample\n", words.Count(h.Rows, "throughput row"), h.MAPEPct, h.WorstPct, workersWord(h.WorstWorkers), h.WorstBatch)
	}
	if e := m.Efficiency; e != nil && e.GNS != nil {
		g := e.GNS
		noise := fmt.Sprintf("%.0f%% interval [%.4g, %.4g]", 100*m.Level, g.NoiseBatchLo, g.NoiseBatchHi)
		if len(g.Samples) == 0 && g.NoiseBatchLo == g.NoiseBatchHi {
			// --bootstrap 0, or too few resamples fitted, or 3 runs (a
			// warning says which)
			noise = "no interval (no bootstrap resamples)"
			if slices.ContainsFunc(e.Warnings, func(w string) bool { return strings.Contains(w, "3 runs leave the law") }) {
				// (it said "no bootstrap resamples" after 200 had run)
				noise = "no interval (3 runs: every resample is the runs themselves)"
			}
		}
		fmt.Fprintf(w, "\nbatch law (gradient noise scale, McCandlish et al. 2018): steps to loss %.4g at global batch B = %.4g (1 + %.4g/B)/(1 + %.4g/%.4g); noise scale %.4g samples, %s; fitted on global batches %.4g to %.4g\n",
			g.TargetLoss, g.StepsRef, g.NoiseBatch, g.NoiseBatch, g.RefBatch, g.NoiseBatch, noise, g.MinBatch, g.MaxBatch)
		if e.B0 > 0 {
			fmt.Fprintf(w, "loss curve l(k) = 1/(%.4g k + %.4g) + %.4g in steps at global batch %.4g (other targets scale its updates)\n", e.B0, e.B1, e.B2, g.RefBatch)
			if lo, hi, ok := e.CurveIntervals(m.Level); ok {
				fmt.Fprintf(w, "loss curve's %.0f%% intervals (%d resamples of each run's loss points; they widen the updates to targets other than %.4g): b0 [%.4g, %.4g], b1 [%.4g, %.4g], b2 [%.4g, %.4g]\n", 100*m.Level, len(e.CurveSamples), g.TargetLoss, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2])
			}
		}
	} else if e := m.Efficiency; e != nil && e.B0 > 0 {
		per := ""
		if e.Batch > 0 {
			per = fmt.Sprintf(", k in updates of %.4g samples", e.Batch)
		}
		lambda := fmt.Sprintf("%.4g [%.4g, %.4g]", e.Lambda, e.LambdaLo, e.LambdaHi)
		if e.LambdaFixed {
			lambda = fmt.Sprintf("%.4g (not identified: loss curves at one staleness level; taken as 0, so the updates to target ignore staleness)", e.Lambda)
		}
		assumed := ""
		switch {
		case e.StalenessAssumed && m.Mode == "async":
			assumed = " (assumed: no fitted run with 2 or more workers measured it)"
		case e.StalenessHi > 0 && m.Mode == "async":
			// the per-worker staleness's own interval, and how far a run
			// lies from the law (predict joins the two)
			assumed = fmt.Sprintf(" [%.4g, %.4g], runs %.2g%% about it", e.StalenessLo, e.StalenessHi, 100*(math.Exp(e.StalenessScatter)-1))
		case m.Mode == "async":
			// one run measured it, or --bootstrap 0
			assumed = " (no interval)"
		}
		if m.Mode == "async" {
			fmt.Fprintf(w, "\nloss curve l(k) = 1/(%.4g k + %.4g) + %.4g at zero staleness%s; staleness cost lambda %s (rate / (1 + lambda staleness)); staleness %.4g x (N-1)%s; target loss %.4g\n", e.B0, e.B1, e.B2, per, lambda, e.StalenessPerWorker, assumed, e.TargetLoss)
		} else {
			// a synchronous job's updates see no staleness: no lambda
			fmt.Fprintf(w, "\nloss curve l(k) = 1/(%.4g k + %.4g) + %.4g%s (synchronous: its updates see no staleness, so no staleness cost); target loss %.4g\n", e.B0, e.B1, e.B2, per, e.TargetLoss)
		}
		if lo, hi, ok := e.CurveIntervals(m.Level); ok {
			fmt.Fprintf(w, "loss curve's %.0f%% intervals (%d resamples of each run's loss points): b0 [%.4g, %.4g], b1 [%.4g, %.4g], b2 [%.4g, %.4g]\n", 100*m.Level, len(e.CurveSamples), lo[0], hi[0], lo[1], hi[1], lo[2], hi[2])
		}
	}
	if len(m.Diagnostics.Warnings) > 0 {
		n := len(m.Diagnostics.Warnings)
		word := "warnings"
		if n == 1 {
			word = "warning"
		}
		fmt.Fprintf(w, "\n%d %s (also on stderr)\n", n, word)
	}
	return w.err
}

// interspersedError is the error of interspersed(c) for command cmd: a
// flag value that does not parse says what the flag wants (flagValueError,
// which names the command), any other names cmd.
func interspersedError(c *cli.Context, cmd string, err error) error {
	if fe := flagValueError(c, err); fe != err {
		return badInput(fe)
	}
	return badInput(fmt.Errorf("%s: %v", cmd, err))
}

// interspersed returns the positional arguments of c, setting the flags
// that follow them (urfave/cli stops at the first positional argument, but
// users write "sgdplan fit DIR --out m.json").
func interspersed(c *cli.Context) ([]string, error) {
	known := map[string]bool{} // name -> takes a value
	for _, f := range c.Command.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			known[n] = !isBool
		}
	}
	var pos []string
	args := c.Args().Slice()
	if afterDashDash(args) {
		return args, nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takes, ok := known[name]
		if !ok {
			return nil, fmt.Errorf("unknown flag --%s (sgdplan %s --help lists its flags; a path that starts with - goes after --)", strings.TrimLeft(name, "-"), c.Command.Name)
		}
		if !hasVal {
			if takes {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("flag needs an argument: %s", a)
				}
				i++
				val = args[i]
			} else {
				val = "true"
			}
		}
		if err := c.Set(name, val); err != nil {
			// the flag package's words (one dash), which flagValueError
			// reads to say what the flag wants
			return nil, fmt.Errorf("invalid value %q for flag -%s: %v", val, name, err)
		}
	}
	return pos, nil
}

// afterDashDash reports whether the flag parser stopped at a "--" before
// args: it stops at the first argument that is not a flag, and one that
// starts with "-" (other than "-" itself) it parses as a flag, or refuses,
// unless a "--" ends the flags just before it and is consumed. Then every
// argument is positional ("sgdplan inspect -- -x" names a path -x, as
// inspect's own error tells). A "--" followed by a path that does not start
// with "-" cannot be told apart from no "--": flags after that path are
// still read as flags.
func afterDashDash(args []string) bool {
	return len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-"
}

// maxCount bounds the worker and shard counts of a query: the MVA solves
// every count up to the largest one, and check walks them one by one, so an
// absurd count (10^9) would hang the command; no trace measures a job of
// more than a million workers.
const maxCount = limits.MaxCount

// maxBootstrap bounds fit --bootstrap: each resample refits the model, and
// beyond 100,000 the percentiles do not change (the default is 200).
const maxBootstrap = 100_000

// minBootstrap is the fewest resamples fit --bootstrap takes besides 0,
// the fewest that predict and check read without a warning.
const minBootstrap = fit.MinBootstrap

// countError says why s is not a count at most most: too large (also when
// written 1e18, or past the int range), or not a whole number at all.
func countError(s string, most int, what string) error {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > float64(most) {
		return fmt.Errorf("%q: too large: at most %d %s", s, most, what)
	}
	if _, err := strconv.Atoi(s); errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-") {
		return fmt.Errorf("%q: too large: at most %d %s", s, most, what)
	}
	return nil
}

// parseIntList reads a list of whole numbers and ranges, "1,2,8" or
// "1-4,8", each at least least and at most maxCount; the values come out
// once each, in the order given.
func parseIntList(s string, least int) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	like := fmt.Sprintf("whole numbers >= %d or ranges of them, separated by commas, like 1,2,4 or 1-4,8", least)
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("%q: an empty list (expected %s)", s, like)
	}
	parts := strings.Split(s, ",")
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			// (",1" was answered `"": expected a whole number`, which did
			// not say the list has an empty item)
			return nil, fmt.Errorf("%q: item %d of %d is empty (expected %s)", s, i+1, len(parts), like)
		}
		lo, hi, isRange := strings.Cut(part, "-")
		if lo == "" && isRange {
			return nil, fmt.Errorf("%q: expected whole numbers >= %d (no negative counts)", part, least)
		}
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			if e := countError(lo, maxCount, "(a count of workers or shards)"); e != nil {
				return nil, e
			}
			return nil, fmt.Errorf("%q: expected a whole number or a range like %d-64", part, max(least, 1))
		}
		b := a
		if isRange {
			if strings.HasPrefix(strings.TrimSpace(hi), "-") {
				// ("1--3" was answered "a range runs from low to high
				// (-3-1)", itself no valid range)
				return nil, fmt.Errorf("%q: the range's high end %s is negative (expected whole numbers >= %d at each end, low-high, like %d-64)", part, strings.TrimSpace(hi), least, max(least, 1))
			}
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
				if e := countError(hi, maxCount, "(a count of workers or shards)"); e != nil {
					return nil, e
				}
				return nil, fmt.Errorf("%q: a range needs a whole number at each end, like %d-64", part, max(least, 1))
			}
			if b < a {
				return nil, fmt.Errorf("%q: a range runs from low to high (%d-%d)", part, b, a)
			}
		}
		if a < least {
			return nil, fmt.Errorf("%q: want numbers >= %d", part, least)
		}
		if b > maxCount {
			return nil, fmt.Errorf("%q: too large: at most %d (a count of workers or shards; the model solves every count up to the largest)", part, maxCount)
		}
		if b-a > 100000 {
			return nil, fmt.Errorf("%q: range too long (at most 100000 values)", part)
		}
		for v := a; v <= b; v++ {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// noBootstrapFit is fit's warning when --bootstrap 0 (boot -1) left the
// model without resamples: predictions' steps/s intervals then have no
// width, nor, for a table fit, do the parameters' (the table printed them
// under "90% interval" without a word of it). "" when there were
// resamples.
func noBootstrapFit(m *fit.Model, boot int) string {
	if boot >= 0 || len(m.Samples) > 0 {
		return ""
	}
	params := ""
	for _, p := range m.Parameters {
		if p.Lo == p.Hi && !p.Prior {
			params = "; the parameters' intervals are their fitted values, of no width, too"
			break
		}
	}
	eff := ""
	if e := m.Efficiency; e != nil {
		switch {
		case e.GNS != nil:
			eff = "; the batch law's noise scale has no interval, and the updates to target only the runs' scatter about the law"
		case e.B0 > 0 && !e.LambdaFixed:
			eff = "; the loss curve's and the staleness's uncertainty are left out too (lambda keeps its profile likelihood's interval, which resamples nothing)"
		case e.B0 > 0:
			eff = "; the loss curve's and the staleness's uncertainty are left out too"
		}
	}
	return "no bootstrap (--bootstrap 0): the model holds no resamples, so the predictions' steps/s intervals have no width where nothing widens them and say nothing of the uncertainty" + params + eff + " (leave out --bootstrap for 200 resamples)"
}

// storedPaths are paths as model.json keeps them: each lexically clean
// ("./x/" is "x", "a//b" is "a/b"), but as typed where it has a ".."
// element, which names another folder than its cleaned form after a
// symbolic link.
func storedPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if p != "" && !slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "..") {
			out[i] = filepath.Clean(p)
		}
	}
	return out
}

// pathsFrom is paths relative to the folder dir (model.json's data
// paths_from_model), or nil when one of them cannot be put so.
func pathsFrom(dir string, paths []string) []string {
	base, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	var rel []string
	for _, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil
		}
		r, err := filepath.Rel(base, a)
		if err != nil {
			return nil
		}
		rel = append(rel, r)
	}
	return rel
}
