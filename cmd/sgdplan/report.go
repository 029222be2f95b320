package main

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/internal/atomicfile"
	"github.com/sgdplan/sgdplan/internal/limits"
	"github.com/sgdplan/sgdplan/internal/progress"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/planner"
	"github.com/sgdplan/sgdplan/plots"
	"github.com/sgdplan/sgdplan/traces"
	"github.com/urfave/cli/v2"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "write figures and an HTML report",
		Description: `report reads a fitted model (model.json from sgdplan fit) and a jobs file
(jobs.csv) and writes into --out: the figures as 300 dpi PNGs, index.html (one
self-contained page: inline CSS, images by relative links; open it from the folder,
no server needed) and summary.md with the same numbers.

The page shows the fitted parameters with their intervals, the throughput fit with
its bounds and knee, the speedup and efficiency of every job, the recommended
workers per job (its knee, where one more worker cuts its run time by less than
--knee-alpha, capped by max_workers), the plan of --policy on --servers workers with each job's predicted
completion (ideal shares and whole workers), every policy's mean flow time on the
jobs, and a simulation of every policy on Poisson arrivals of jobs resampled from
jobs.csv at several loads (--loads, --seeds seeds each, 95% intervals over seeds).
With a loss curve in the model it adds the convergence figure; with the traces the
model was fitted on (found beside model.json, or as fit was given them), the phases
and staleness figures. --out is a new folder or an earlier report's (one cut short
too), whose figures it replaces; a folder of other files with a report's names
(fit.png, index.html, ...) is refused. Warnings go to stderr and onto the page.
The fitted job enters the plan through a jobs.csv row whose model column names the
model.json (its speedup curve stands for p, which the row leaves empty); without one the plan is of the
jobs file alone, with a warning (sgdplan demo adds such a row).

Example:
   sgdplan fit testdata/synthetic/async-ps --out model.json
   sgdplan report --model model.json --jobs testdata/jobs-example/jobs.csv --servers 16 --out report`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "model", Usage: "model.json from sgdplan fit (required)"},
			&cli.StringFlag{Name: "jobs", Usage: "jobs.csv (required)"},
			&cli.IntFlag{Name: "servers", Usage: fmt.Sprintf("workers in the cluster, 1 to %s (required)", words.Thousands(reportMaxServers)), DefaultText: "none"},
			&cli.StringFlag{Name: "out", Usage: "folder to write the report into (required; created if needed)"},
			&cli.StringFlag{Name: "policy", Value: "hesrpt", Usage: "the policy of the plan: " + strings.Join(planner.PolicyNames, "|")},
			&cli.Float64Flag{Name: "knee-alpha", Value: planner.DefaultKneeAlpha, Usage: "knee threshold: one more worker must cut the run time by this fraction"},
			&cli.StringFlag{Name: "loads", Value: "0.3,0.5,0.7,0.85", Usage: "offered loads of the simulation, each in (0, 1)"},
			&cli.IntFlag{Name: "seeds", Value: 5, Usage: "seeds per load (>= 2, for the intervals)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "the simulation's first seed (seeds seed..seed+K-1)"},
			&cli.IntFlag{Name: "sim-jobs", Value: 100, Usage: fmt.Sprintf("jobs per simulated run, 2 to %s", words.Thousands(planner.MaxPoissonJobs))},
			&cli.Float64Flag{Name: "p", Usage: "speedup exponent in (0, 1] for the jobs with neither p nor model, as plan's", DefaultText: "such jobs are an error"},
		},
		Action: reportAction,
	}
}

// reportOptions are report's validated flags.
type reportOptions struct {
	model, jobs, out, policy string
	servers, seeds, simJobs  int
	alpha                    float64
	p                        float64 // -p: the exponent of the jobs with neither p nor model (0: none)
	loads                    []float64
	seed                     uint64 // the simulation's first seed: seed..seed+seeds-1
}

// reportMaxServers bounds report's --servers: its policy comparison and
// simulation run every policy (greedy's work grows with the workers) at
// every load and seed; at 10,000 workers the report takes about 4 s, at
// 100,000 over a minute, at 1,000,000 five.
const reportMaxServers = 10_000

func reportFlags(c *cli.Context) (reportOptions, error) {
	o := reportOptions{
		model: c.String("model"), jobs: c.String("jobs"), out: c.String("out"), policy: strings.TrimSpace(c.String("policy")),
		servers: c.Int("servers"), seeds: c.Int("seeds"), simJobs: c.Int("sim-jobs"), alpha: c.Float64("knee-alpha"),
		seed: c.Uint64("seed"),
	}
	for _, f := range []struct{ name, v string }{{"model", o.model}, {"jobs", o.jobs}, {"out", o.out}} {
		if f.v == "" && c.IsSet(f.name) {
			return o, fmt.Errorf("report: --%s is empty: want a %s path", f.name, map[string]string{"model": "model.json", "jobs": "jobs.csv", "out": "folder"}[f.name])
		}
		if f.v == "" {
			return o, fmt.Errorf("report: missing --%s", f.name)
		}
	}
	if !c.IsSet("servers") {
		return o, fmt.Errorf("report: missing --servers N (the workers in the cluster)")
	}
	// (past reportMaxServers, which is below planner.MaxServers, refused
	// once --loads and --seeds are read, quoting them)
	if o.servers <= reportMaxServers {
		if err := planCheckServers("report", o.servers); err != nil {
			return o, err
		}
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return o, fmt.Errorf("report: --knee-alpha %g: want 0 < alpha < 1", o.alpha)
	}
	if c.IsSet("p") {
		// (a jobs file plan --p took was refused here, naming no flag)
		if o.p = c.Float64("p"); !(o.p > 0 && o.p <= 1) {
			return o, fmt.Errorf("report: --p %g: want a speedup exponent in (0, 1]", o.p)
		}
	}
	if o.policy == "all" {
		return o, fmt.Errorf("report: --policy all: report compares every policy already (its comparison and simulation); --policy names the one it plans with")
	}
	if strings.Contains(o.policy, ",") {
		// (plan and simulate take lists; the report compares every
		// policy anyway, and plans with one)
		return o, fmt.Errorf("report: --policy %q: report plans with one policy (its comparison and simulation show every policy); a comma list is for plan and simulate", o.policy)
	}
	if o.policy == "numeric" {
		// (it said "unknown policy", where plan takes it)
		return o, fmt.Errorf("report: --policy numeric: numeric is a search over the jobs' priorities that plan runs (sgdplan plan --policy numeric), not a policy report plans with; want one of %s", strings.Join(planner.PolicyNames, ", "))
	}
	if _, err := planner.NewPolicy(o.policy, o.alpha); err != nil {
		return o, fmt.Errorf("report: --policy: %w", err)
	}
	if o.seeds < 2 || o.seeds > maxSeeds {
		return o, fmt.Errorf("report: --seeds %d: want 2 to %d (the intervals need 2; every run is kept)", o.seeds, maxSeeds)
	}
	if err := seedsFit("report", o.seed, o.seeds); err != nil {
		return o, err
	}
	if o.simJobs < 2 {
		return o, fmt.Errorf("report: --sim-jobs %d: want >= 2", o.simJobs)
	}
	if o.simJobs > planner.MaxPoissonJobs {
		return o, fmt.Errorf("report: --sim-jobs %d: want at most %s jobs (steady-state means need far fewer; the benchmarks use 100,000)", o.simJobs, words.Thousands(planner.MaxPoissonJobs))
	}
	for i, s := range strings.Split(c.String("loads"), ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || !decimalFloatRE.MatchString(strings.TrimSpace(s)) || !(v > 0 && v < 1) {
			return o, fmt.Errorf("report: --loads: value %d %q: want a load in (0, 1)", i+1, s)
		}
		o.loads = append(o.loads, v)
	}
	sort.Float64s(o.loads)
	for i := 1; i < len(o.loads); i++ {
		if o.loads[i] == o.loads[i-1] { // (two columns of one load, counted twice in the distribution)
			return o, fmt.Errorf("report: --loads: %g given twice: want each load once", o.loads[i])
		}
	}
	if o.servers > reportMaxServers {
		// the loads and seeds in effect (it quoted the defaults, 4 loads
		// and 5 seeds, whatever --loads and --seeds said)
		return o, fmt.Errorf("report: --servers %d: want at most %s workers: the report simulates every policy at %s (--loads) with %s each (--seeds), which past that takes minutes (plan and simulate go to %s)",
			o.servers, words.Thousands(reportMaxServers), words.Count(len(o.loads), "load"), words.Count(o.seeds, "seed"), words.Thousands(planner.MaxServers))
	}
	return o, nil
}

// defaultReportOptions are report's defaults for everything but the
// model, jobs, servers and output folder (for callers such as demo).
func defaultReportOptions() reportOptions {
	return reportOptions{policy: "hesrpt", alpha: planner.DefaultKneeAlpha, loads: []float64{0.3, 0.5, 0.7, 0.85}, seeds: 5, simJobs: 100, seed: 1}
}

// command is the report command line that makes this report: every
// option that is not report's default, each value quoted for a POSIX shell
// where it needs it (the page's "Made by" line left --policy, --seeds,
// --loads, --sim-jobs and --knee-alpha out, and a path with a space
// unquoted, so that rerunning it made another report or failed).
func (o reportOptions) command() string {
	d := defaultReportOptions()
	args := []string{"sgdplan", "report", "--model", shellQuote(o.model), "--jobs", shellQuote(o.jobs), "--servers", strconv.Itoa(o.servers), "--out", shellQuote(o.out)}
	if o.policy != d.policy {
		args = append(args, "--policy", shellQuote(o.policy))
	}
	if o.alpha != d.alpha {
		args = append(args, "--knee-alpha", strconv.FormatFloat(o.alpha, 'g', -1, 64))
	}
	if !slices.Equal(o.loads, d.loads) {
		ls := make([]string, len(o.loads))
		for i, l := range o.loads {
			ls[i] = strconv.FormatFloat(l, 'g', -1, 64)
		}
		args = append(args, "--loads", strings.Join(ls, ","))
	}
	if o.seeds != d.seeds {
		args = append(args, "--seeds", strconv.Itoa(o.seeds))
	}
	if o.seed != d.seed {
		args = append(args, "--seed", strconv.FormatUint(o.seed, 10))
	}
	if o.simJobs != d.simJobs {
		args = append(args, "--sim-jobs", strconv.Itoa(o.simJobs))
	}
	if o.p != d.p {
		args = append(args, "--p", strconv.FormatFloat(o.p, 'g', -1, 64))
	}
	return strings.Join(args, " ")
}

func reportAction(c *cli.Context) error {
	if err := noArgs(c.Command.Name, c); err != nil {
		return err
	}
	if err := finiteFlags(c); err != nil {
		return err
	}
	o, err := reportFlags(c)
	if err != nil {
		return badInput(err)
	}
	if err := notAFile("report", o.out); err != nil {
		return err
	}
	if err := plots.CheckReportDir(o.out); err != nil {
		return badInput(fmt.Errorf("report: --out %s: %s", o.out, strings.TrimPrefix(err.Error(), "plots: report: ")))
	}
	if err := reportNotInput(o, []input{namedInput(o.model, "--model"), namedInput(o.jobs, "--jobs")}); err != nil {
		return err
	}
	return runReport(c, o)
}

// reportNotInput refuses a file the report writes into o.out (its
// figures, index.html, summary.md) that is one of ins.
func reportNotInput(o reportOptions, ins []input) error {
	return notAnInput("report", "out", o.out, inFolder(o.out, plots.ReportFiles()...), ins)
}

// runReport loads o.model and o.jobs, writes the report into o.out and says
// where it is on stdout; warnings go to stderr. Errors carry exit codes.
func runReport(c *cli.Context, o reportOptions) error {
	m, err := loadModel("report", o.model)
	if err != nil {
		return err
	}
	// the traces the model names are read for the phase figures
	found := findTraces(o.model, m)
	if err := reportNotInput(o, traceInputs(found.paths...)); err != nil {
		return err
	}
	var models []input // the model files the jobs name
	named := false     // does a job of the file run on o.model's curve?
	var warns []string
	servers := 0 // only a plan under fcfs-rigid must place every rigid job
	if o.policy == "fcfs-rigid" {
		servers = o.servers
	}
	jobs, def, err := planReadJobsUsing(o.jobs, planReadOptions{
		cmd:     "report",
		p:       o.p,
		servers: servers, // (the comparison and the simulation leave fcfs-rigid out otherwise: planner.RigidTooWide)
		used: func(p string) {
			named = named || sameFile(p, o.model)
			models = append(models, input{path: p, what: "a model file named in --jobs " + o.jobs})
		},
		warn: func(err error) { warns = append(warns, strings.TrimPrefix(err.Error(), "planner: ")) },
	})
	if errors.Is(err, planner.ErrNoCurve) {
		return badInput(fmt.Errorf("%w (or give --p P, a speedup exponent in (0, 1] for the jobs without one)", err))
	}
	if err != nil {
		return badInput(err)
	}
	if o.servers > 1 && (o.policy == "fcfs-rigid" || planner.RigidTooWide(jobs, float64(o.servers)) == "") {
		// (the comparison and the simulation show fcfs-rigid under any
		// --policy, unless a job is too wide for it)
		if w := rigidDefaultWarning(jobs); w != "" {
			warns = append(warns, w)
		}
	}
	if len(def) > 0 {
		warns = append(warns, fmt.Sprintf("--p %g for %d of %d jobs, which have neither p nor model: %s", o.p, len(def), len(jobs), nameList(def, 8)))
	} else if o.p > 0 {
		warns = append(warns, fmt.Sprintf("--p %g applies to no job: every row of %s has p or model, which --p does not replace", o.p, o.jobs))
	}
	if err := reportNotInput(o, models); err != nil {
		return err
	}
	if err := reportLoadsFit(jobs, float64(o.servers), o.loads, o.simJobs); err != nil {
		return badInput(err)
	}
	if err := plots.CheckOthersFiles(o.out); err != nil {
		return badInput(fmt.Errorf("report: --out %s: %s", o.out, strings.TrimPrefix(err.Error(), "plots: report: ")))
	}
	if err := atomicfile.CheckDir(o.out); err != nil {
		return badInput(fmt.Errorf("report: --out %w", err))
	}
	mt, traceWarn, traceNote := reportTraces(o.model, m, found)
	r, err := buildReport(c, o, m, jobs, mt, found)
	if err != nil {
		return withCode(exitFailure, err)
	}
	if traceNote != "" {
		r.Notes = append(r.Notes, "No phase or staleness figure: "+traceNote)
	}
	peaks := planJobPeaks(jobs, float64(o.servers))
	// plan's words on the jobs' models (their below-fit base: the
	// report named its own --model's alone, in the fit section)
	warns = append(append(append(warns, planPeakWarnings(jobs, peaks)...), planBeyondFitWarnings(jobs, peaks)...), planBelowFitWarnings(jobs)...)
	warns = append(warns, planStalenessWarnings(jobs, peaks, true, float64(o.servers))...)
	r.Warnings = append(warns, r.Warnings...)
	if !named {
		r.Notes = append(r.Notes, fmt.Sprintf("No job of %s names %s in its model column, so the plan, the policy comparison and the simulation are of the jobs file alone: the fitted model is in the figures of the fit, not in the plan (a row with model = %s puts its job there).", o.jobs, o.model, filepath.Base(o.model)))
		r.Warnings = append(r.Warnings, fmt.Sprintf("no job of %s names the model %s: the plan leaves it out", o.jobs, o.model))
	}
	printed := r.Warnings
	if traceWarn != "" { // on the page first, as the warning it is on stderr
		r.Warnings = append([]string{traceWarn}, r.Warnings...)
	}
	removed, err := plots.WriteReport(o.out, r)
	if err != nil {
		return withCode(exitFailure, fmt.Errorf("report: --out %s: %s", o.out, strings.TrimPrefix(err.Error(), "plots: report: ")))
	}
	// warnings as fit's and predict's: "sgdplan: report: " begins an
	// error (main's), which these are not
	if traceWarn != "" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", traceWarn)
	}
	for _, w := range printed {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	w := &stickyWriter{w: c.App.Writer}
	if len(removed) > 0 {
		for i, f := range removed {
			removed[i] = filepath.Join(o.out, f)
		}
		fmt.Fprintf(w, "removed the earlier report's figures this one does not draw: %s\n", strings.Join(removed, ", "))
	}
	fmt.Fprintf(w, "report written to %s (open it in a browser; summary in %s)\n",
		filepath.Join(o.out, "index.html"), filepath.Join(o.out, "summary.md"))
	return w.err // writing to stdout (the report is written)
}

// buildReport computes every number and figure of the report.
// mt are the traces the model was fitted on (nil: none found or read);
// found says where they were looked for.
func buildReport(c *cli.Context, o reportOptions, m *fit.Model, jobs []planner.Job, mt *measuredTraces, found traceLookup) (plots.Report, error) {
	n := float64(o.servers)
	r := plots.Report{
		Title:   "sgdplan report",
		Inputs:  []plots.Input{{Path: o.model}, {Path: o.jobs}},
		Command: o.command(),
		Model:   m.Family + " (" + m.Mode + ")",
		Level:   m.Level,
		Servers: n,
		Policy:  o.policy,
	}
	r.Inputs = append(r.Inputs, found.inputs()...)
	marks := paramMarks(m) // as fit's table marks them
	for i, p := range m.Parameters {
		note := ""
		switch {
		case p.Prior:
			note = "set by the form, not the data (the warnings say how)"
		case marks[i] == markUnidentified:
			note = "not identified: more parameters than configurations"
		case marks[i] == markExactFit:
			note = "exact fit: no uncertainty measured"
		case marks[i] == markAtBound:
			note = "at the form's bound in every refit: no uncertainty measured"
		case marks[i] == markNoEffect:
			note = "no effect on the fitted points: not identified (a warning names it)"
		}
		// fit's "**": the report's note column had nothing, and the
		// narrow intervals read as certainty
		if flatMarked(m, marks, i) {
			flat := "not identified separately: the fit is flat along a combination of parameters (a warning names it), and this interval does not show it"
			if note != "" {
				note += "; " + flat
			} else {
				note = flat
			}
		}
		r.Params = append(r.Params, plots.Param{Name: p.Name, Value: p.Value, Lo: p.Lo, Hi: p.Hi, Unit: p.Unit, Note: note})
	}
	// the statistical efficiency's law beside the throughput's
	// parameters: the plan's counts rest on it (a report put two jobs at
	// 1 worker for a staleness cost of 1.16 that it never showed)
	if e := m.Efficiency; e != nil {
		switch {
		case e.GNS != nil:
			g := e.GNS
			r.Params = append(r.Params, plots.Param{Name: "noise_batch", Value: g.NoiseBatch, Lo: g.NoiseBatchLo, Hi: g.NoiseBatchHi, Unit: "samples",
				Note: "gradient noise scale: a step of a global batch B does 1 / (1 + noise_batch / B) of the progress of an ideal one"})
		case m.Mode == "async":
			note := "staleness cost: an update's progress divided by 1 + lambda x its staleness"
			if e.LambdaFixed {
				note = stalenessUnknownText
			}
			r.Params = append(r.Params, plots.Param{Name: "lambda", Value: e.Lambda, Lo: e.LambdaLo, Hi: e.LambdaHi, Unit: "", Note: note})
		}
	}
	for _, w := range m.Diagnostics.Warnings {
		r.Warnings = append(r.Warnings, "fit: "+strings.TrimPrefix(w, "fit: "))
	}
	// the speedups and knees below start at one worker, as predict's do:
	// its warning when the data do not
	if w := m.BelowFittedWarning([]int{1}); w != "" {
		r.Warnings = append(r.Warnings, "speedup: "+w)
	}
	cv := reportCV(m)
	how := "bootstrap percentile intervals"
	if m.IntervalScale > 1 {
		// (since 2026-12-07 a table fit's parameter intervals are
		// widened as its predictions are)
		how = "bootstrap percentile intervals, widened for the fit's few degrees of freedom (sqrt(n/(n-p))·t/z, as its predictions)"
	}
	switch {
	case m.Family == "mva" && m.Queueing != nil:
		how = "intervals from the standard errors of the profile's phase means"
	case len(m.Samples) == 0:
		// (it said "bootstrap percentile intervals" beside the warning
		// that there was no bootstrap)
		how = "intervals, here of no width: the fit had no bootstrap to measure them (the warnings say why)"
	}
	r.Notes = append(r.Notes,
		fmt.Sprintf("The model was fitted on %s: RMSLE %s, %s. Parameter intervals are %.0f%% %s.",
			m.FittedOn(), plots.Num(m.Diagnostics.RMSLE), cv, 100*m.Level, how))

	names := make([]string, len(jobs))
	for i, j := range jobs {
		names[i] = j.ID
	}
	pal := plots.NewPalette(names...)

	// Fit figure.
	var stats []fit.RunStats // the traces' runs, for the held-out points
	if mt != nil && mt.err == nil {
		stats = mt.stats
	}
	fd, err := reportFitData(m, stats)
	if err != nil {
		return r, err
	}
	if fig, err := plots.FitFigure(fd); err != nil {
		r.Warnings = append(r.Warnings, "fit figure left out: "+err.Error())
	} else {
		cap := "Measured job " + rateUnit(m) + " per second against workers, the fitted curve with its " + fmt.Sprintf("%.0f%%", 100*m.Level) + " band, and residuals in percent beneath."
		if n := fd.HeldOut(); n > 0 {
			cap += fmt.Sprintf(" Hollow points are the traces' runs at %s the fit did not see (held out: how the curve extrapolates; a mean with its 95%% interval where a count has several runs).", words.Count(n, "worker count"))
		}
		if fd.HasBounds() {
			cap += fmt.Sprintf(" Dashed and dotted lines are the asymptotic bounds N/(Z+ΣD) and 1/max D; they cross at N* ≈ %s, where the network saturates (a property of the throughput alone, not a recommendation: the recommended workers in the plan table above weigh what one more worker buys, and check judges a worker count by half a worker). They bound the fitted curve, not its band: the band also holds other fits as good on the data and the error of extrapolating, and real runs with nearly constant transfers beat N/(Z+ΣD), whose demands hold the exponential fork-join wait of the shards; the band stops at what the busiest station can carry.", plots.Num(fd.Knee()))
		}
		for _, o := range fd.Off() {
			what := "The band"
			if o.What == "fit" {
				what = "The fitted curve"
			}
			cap += fmt.Sprintf(" %s rises off the axis, to %s at %s (extrapolated away from the measured workers): the y axis ends at 1.5 times the highest drawn within them.", what, plots.Num(o.Y), words.Count(int(o.X), "worker"))
		}
		r.Figures = append(r.Figures, plots.FigureRef{File: "fit.png", Title: "Throughput fit", Caption: cap, Figure: fig})
	}

	// Phases and staleness, from the traces the model was fitted on.
	if mt != nil {
		reportTraceFigures(&r, m, mt)
	}

	// Convergence figure, when the model has a loss curve.
	var tr *traces.Trace
	if mt != nil {
		tr = mt.t
	}
	if cd, ok := reportConvergence(m, o.servers, tr); ok {
		if fig, err := plots.ConvergenceFigure(cd); err != nil {
			r.Warnings = append(r.Warnings, "convergence figure left out: "+err.Error())
		} else {
			cap, bw := convergenceCaption(cd, o.servers, m.Level)
			if k := saturatedFrom(m, int(bw), max(m.Reference.PS, 0)); k > 0 {
				// check fails such counts and advises a shard: say so
				// where the figure points at one of them
				cap += fmt.Sprintf(" From N = %d a shard's station is at least %.0f%% busy at %s: check fails those counts and advises another shard, which would make them faster still.", k, 100*saturated, words.Count(m.Reference.PS, "shard"))
			}
			if x, ok := flatFloor(cd.TimePredicted); ok {
				if _, net := m.Network(model.Config{Workers: 1}); net {
					// (the flat edge read as a drawing fault)
					cap += fmt.Sprintf(" The band's lower edge is flat from N = %s: the throughput's upper end has reached what the busiest station can carry (1/max D), so no count of workers brings the time below it.", plots.Num(x))
				}
			}
			r.Figures = append(r.Figures, plots.FigureRef{File: "convergence.png", Title: "Convergence",
				Caption: cap,
				Figure:  fig})
		}
	}

	// Speedup, efficiency and knees of the jobs.
	sd := plots.ScalingData{Palette: pal}
	knees := make([]float64, len(jobs))
	recs := make([]float64, len(jobs))
	for i, j := range jobs {
		knees[i] = float64(planner.Knee{Alpha: o.alpha}.Workers(j.Curve, o.servers)) // the knee policy's
		recs[i] = knees[i]
		if j.MaxWorkers > 0 {
			recs[i] = math.Min(recs[i], float64(j.MaxWorkers))
		}
		if o.servers < 2 {
			continue
		}
		sc := plots.ScalingCurve{Job: j.ID, Knee: knees[i]}
		for _, k := range reportWorkers(o.servers) {
			sc.Workers = append(sc.Workers, float64(k))
			sc.Speedup = append(sc.Speedup, j.Curve.Speedup(float64(k)))
		}
		sd.Jobs = append(sd.Jobs, sc)
	}
	if o.servers < 2 && len(jobs) > 0 {
		// (the figure was left out without a word)
		r.Notes = append(r.Notes, "No speedup figure: on 1 server every job runs on 1 worker, where its speedup is 1.")
	}
	if len(sd.Jobs) > 0 {
		if fig, err := plots.ScalingFigure(sd); err != nil {
			r.Warnings = append(r.Warnings, "scaling figure left out: "+err.Error())
		} else {
			r.Figures = append(r.Figures, plots.FigureRef{File: "scaling.png", Title: "Speedup and efficiency",
				Caption: fmt.Sprintf("Each job's speedup s(N) and efficiency s(N)/N on up to %s; markers are the knees, past which one more worker cuts the run time by less than %s%% (a marker at the cluster's size: the knee lies beyond it; the jobs' max_workers are not applied here).", words.Count(o.servers, "worker"), plots.Num(100*o.alpha)),
				Figure:  fig})
		}
	}

	// The plan of --policy, and every policy on the jobs.
	known := map[string]planner.Result{} // the heuristics' plans, for numeric
	chosen, err := planRun(jobs, n, o.policy, o.alpha, true, known)
	if err != nil {
		return r, fmt.Errorf("report: plan (%s): %w", o.policy, err)
	}
	// the ranges of plan: the jobs on fitted models at their curves' ends
	ends := planFindEnds(jobs)
	ranged := func(p *planPolicy) {
		if err := planRanges(p, jobs, n, o.alpha, ends); err != nil {
			r.Warnings = append(r.Warnings, "plan: "+err.Error())
		}
	}
	ranged(&chosen)
	lohi := func(b *[2]float64) (float64, float64) {
		if b == nil {
			return math.NaN(), math.NaN()
		}
		return b[0], b[1]
	}
	if len(ends.models) > 0 {
		r.RangeLabel = "range (fitted curves' ends)"
	}
	for _, w := range chosen.Warnings {
		r.Warnings = append(r.Warnings, "plan ("+o.policy+"): "+planWarning(w))
	}
	for i, j := range chosen.Jobs {
		lo, hi := lohi(j.CompletionRange)
		r.Jobs = append(r.Jobs, plots.JobRow{Job: j.Job, Size: j.Size, Workers: recs[i], Knee: knees[i], StartWorkers: j.Workers,
			Completion: j.Completion, CompletionLo: lo, CompletionHi: hi, CompletionWhole: j.CompletionInteger, StartWorkersWhole: float64(j.WorkersInteger)})
	}
	r.Notes = append(r.Notes, countNotes(jobs, chosen.Jobs, recs, knees, o)...)
	pd := planFigureData(chosen, names, n, pal)
	if fig, err := plots.PlanFigure(pd); err != nil {
		r.Warnings = append(r.Warnings, "plan figure left out: "+err.Error())
	} else {
		axis := ""
		if named, k := pd.OtherJobs(); k > 0 {
			axis = fmt.Sprintf(" The legend's %d jobs are drawn each; the other %d are one grey band at the bottom, without completion marks.", named, k)
		}
		if pd.SqrtTime() {
			axis += " The time axis is a square-root scale, labelled in seconds, since most changes of the allocation come early."
		}
		r.Figures = append(r.Figures, plots.FigureRef{File: "plan.png", Title: "Plan (" + o.policy + ")",
			Caption: fmt.Sprintf("Workers held by each job over time under %s on %s (ideal shares); triangles mark completions, a row higher where they would cover each other.%s", o.policy, words.Count(o.servers, "worker"), axis),
			Figure:  fig})
	}
	// numeric too: the offline optimum the others are judged against
	// (plan --policy all), or the "least mean flow time" would name a
	// heuristic that numeric beats
	tooWide := planner.RigidTooWide(jobs, n) // fcfs-rigid cannot place such a job
	for _, name := range append(slices.Clone(planner.PolicyNames), "numeric") {
		if name == "fcfs-rigid" && tooWide != "" && name != o.policy {
			r.Warnings = append(r.Warnings, "policy fcfs-rigid left out of the comparison and the simulation: "+tooWide)
			continue
		}
		p := chosen
		if name != o.policy {
			if p, err = planRun(jobs, n, name, o.alpha, false, known); err != nil {
				r.Warnings = append(r.Warnings, fmt.Sprintf("policy %s left out: %v", name, err))
				continue
			}
			for _, w := range p.Warnings {
				// numeric's own (above 64 jobs it does not search, and
				// says so); fcfs-rigid left out is said once, above; and
				// every policy's gap between whole workers and the ideal
				// shares the table ranks them on (equi ranked first at
				// 4.256 on 1 server, 7.5 on whole workers, without a word)
				switch {
				case name == "numeric" && !strings.Contains(w, "fcfs-rigid left out"):
					r.Warnings = append(r.Warnings, "policy numeric: "+planWarning(w))
				case strings.HasPrefix(w, wholeGapOpening):
					r.Warnings = append(r.Warnings, "policy "+name+": "+planWarning(w))
				}
			}
			ranged(&p)
		}
		row := plots.PolicyRow{Policy: name, MeanFlow: p.MeanFlowTime, MeanWeightedFlow: p.MeanWeightedFlow, MeanSlowdown: p.MeanSlowdown, P99: p.P99FlowTime}
		row.MeanFlowLo, row.MeanFlowHi = lohi(p.MeanFlowRange)
		row.MeanWeightedFlowLo, row.MeanWeightedFlowHi = lohi(p.MeanWeightedFlowRange)
		row.MeanSlowdownLo, row.MeanSlowdownHi = lohi(p.MeanSlowdownRange)
		row.P99Lo, row.P99Hi = lohi(p.P99FlowRange)
		r.Policies = append(r.Policies, row)
	}
	r.Notes = append(r.Notes, reportPlanNote(o.jobs, ends, r.Jobs, r.Policies), reportTerms(o.alpha))

	// Simulation at several loads.
	sim, tab, growing, drifting, err := reportSimulate(c, o, jobs)
	if err != nil {
		r.Warnings = append(r.Warnings, "simulation left out: "+err.Error())
	} else {
		r.Tables = append(r.Tables, tab)
		if len(growing) > 0 {
			r.Warnings = append(r.Warnings, "simulation: "+growingWarning(growing, o.simJobs, o.seeds, "--sim-jobs", true))
		}
		if len(drifting) > 0 {
			r.Warnings = append(r.Warnings, "simulation: "+driftWarning(drifting, o.simJobs))
		}
		if fig, err := plots.SimulationFigure(sim); err != nil {
			r.Warnings = append(r.Warnings, "simulation figure left out: "+err.Error())
		} else {
			r.Figures = append(r.Figures, plots.FigureRef{File: "simulation.png", Title: "Simulation",
				Caption: simulationCaption(o, growing, len(drifting)) + simulationAboveNote(sim, o.loads),
				Figure:  fig})
		}
	}
	return r, nil
}

// simulationCaption is the simulation figure's caption; growing are the
// cells whose means are no steady state, faded in the figure.
func simulationCaption(o reportOptions, growing []growCell, drifting int) string {
	c := fmt.Sprintf("Left: distribution of response times at load %s (%d seeds of %d jobs resampled from the jobs file, Poisson arrivals). Right: mean response time against load with 95%% intervals over seeds",
		plots.LoadLabels(o.loads)[len(o.loads)/2], o.seeds, o.simJobs)
	if len(o.loads) > 1 {
		c += "; each policy's points are shifted a little along the load axis, so that their intervals do not hide each other"
	}
	c += "."
	if len(growing) > 0 {
		c += fmt.Sprintf(" Faded points (%s marked * or † in the table), and the faded curves on the left (the policies so marked at its load), are no steady-state values: the queue still grew at the runs' end (*: the policy cannot serve the load; †: probably runs too short), so those means and times grow with the run's length.",
			words.Count(len(growing), "cell"))
	}
	if drifting > 0 {
		are := "are"
		if drifting == 1 {
			are = "is"
		}
		c += fmt.Sprintf(" The %s marked ‡ in the table (a mean that moved over runs 4 times as long) %s drawn as the others.", words.Count(drifting, "cell"), are)
	}
	return c
}

// driftCell is a cell of report's simulation whose mean response moved
// over runs 4 times as long: its mean and 95% interval over the seeds, and
// the longer runs' mean.
type driftCell struct {
	what         string
	mean, lo, hi float64
	longer       float64
}

func (d driftCell) String() string {
	return fmt.Sprintf("%s %s s [%s, %s] -> %s s (%+.0f%%)", d.what, reportNum(d.mean), reportNum(d.lo), reportNum(d.hi), reportNum(d.longer), 100*(d.longer/d.mean-1))
}

// driftShown is how many moved cells driftWarning names, the largest moves;
// the table marks every one.
const driftShown = 3

// driftWarning says which of report's cells (drifting: reportSimulate's)
// moved over runs 4 times as long as its runs of jobs jobs, as simulate
// says it of its policies: every cell up to driftShown, else the largest
// moves and the range of the others (at 100 jobs a run, 15 of 30 cells
// can move: one line each would bury the rest).
func driftWarning(drifting []driftCell, jobs int) string {
	those, settle := "those means are not steady-state values", "they settle"
	if len(drifting) == 1 {
		those, settle = "that mean is not a steady-state value", "it settles"
	}
	cells := slices.Clone(drifting)
	move := func(d driftCell) float64 { return math.Abs(d.longer/d.mean - 1) }
	slices.SortStableFunc(cells, func(a, b driftCell) int { return cmp.Compare(move(b), move(a)) })
	shown := len(cells)
	if shown > driftShown+1 { // (one more is named rather than summed up)
		shown = driftShown
	}
	var named []string
	for _, d := range cells[:shown] {
		named = append(named, d.String())
	}
	list := strings.Join(named, "; ")
	if rest := cells[shown:]; len(rest) > 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, d := range rest {
			r := 100 * (d.longer/d.mean - 1)
			lo, hi = math.Min(lo, r), math.Max(hi, r)
		}
		by := fmt.Sprintf("%+.0f%%", lo)
		if math.Round(lo) != math.Round(hi) {
			by = fmt.Sprintf("%+.0f%% to %+.0f%%", lo, hi)
		}
		more := "1 more cell"
		if len(rest) > 1 {
			more = fmt.Sprintf("%d more cells", len(rest))
		}
		list += fmt.Sprintf("; %s moved by %s", more, by)
	}
	return fmt.Sprintf("over runs 4 times as long (%d jobs, the same seeds) the mean response time moves for %s (marked ‡ in the table; the largest moves first): %s; the runs of %d jobs are too short for a steady state (a queue that starts empty and fills slowly near what the policy can serve, or large jobs that a policy starves for longer in a longer run), so %s: raise --sim-jobs to see where %s",
		longerRun(jobs), words.Count(len(drifting), "cell"), list, jobs, those, settle)
}

// simulationAboveNote ends the simulation figure's caption when its load
// panel's axis stops below some faded means (plots.SimulationData.LoadAxis):
// where it ends and each mean above it; "" when none is.
func simulationAboveNote(sim plots.SimulationData, loads []float64) string {
	top, above := sim.LoadAxis()
	if len(above) == 0 {
		return ""
	}
	return fmt.Sprintf(" The right panel's axis ends at %s, above the steady means and their intervals; the faded means above it are drawn as arrows at its top, their lines and intervals cut there: %s.",
		plots.Seconds(top), aboveCells(above, loads))
}

// aboveCells names the load points drawn above the simulation figure's
// axis, by policy in their order: "fifo 11,802 s at load 0.7 and 15,687 s
// at load 0.85; srpt 9,269 s at load 0.85".
func aboveCells(above []plots.LoadPoint, loads []float64) string {
	label := map[float64]string{}
	for i, l := range plots.LoadLabels(loads) {
		label[loads[i]] = l
	}
	var order []string
	by := map[string][]string{}
	for _, l := range above {
		if _, ok := by[l.Policy]; !ok {
			order = append(order, l.Policy)
		}
		ll, ok := label[l.Load]
		if !ok {
			ll = plots.Num(l.Load)
		}
		by[l.Policy] = append(by[l.Policy], fmt.Sprintf("%s at load %s", plots.Seconds(l.Mean), ll))
	}
	var parts []string
	for _, p := range order {
		parts = append(parts, p+" "+words.And(by[p]))
	}
	return strings.Join(parts, "; ")
}

// traceLookup is where report found the traces a model was fitted on.
type traceLookup struct {
	stored  []string // the model's data.paths
	paths   []string // those found, each where it was found
	missing []string // those of stored not found
	tried   []string // every path tried for the missing ones
}

// findTraces looks for each trace of m's data.paths, as fit was given it,
// at: its data.paths_from_model entry from the model file's folder
// (written since 2026-12-05); then the path as stored (a relative one from
// the working folder, as fit was run); then the stored path from the model
// file's folder (fit run there). The first that exists is read. An
// absolute stored path comes first: it names the traces wherever report
// runs. The path beside the model comes before the working folder's: in
// another folder with a folder of the same relative name (input/traces of
// another run) report read that one, another run's traces, silently.
func findTraces(modelPath string, m *fit.Model) traceLookup {
	l := traceLookup{stored: m.Data.Paths}
	dir := filepath.Dir(modelPath)
	for i, p := range m.Data.Paths {
		var try []string
		if filepath.IsAbs(p) {
			try = append(try, p)
		}
		if i < len(m.Data.PathsFromModel) {
			try = append(try, filepath.Join(dir, m.Data.PathsFromModel[i]))
		}
		if !filepath.IsAbs(p) {
			try = append(try, p, filepath.Join(dir, p))
		}
		var tried []string
		at := ""
		for _, q := range try {
			if slices.ContainsFunc(tried, func(t string) bool { return filepath.Clean(t) == filepath.Clean(q) }) {
				continue
			}
			tried = append(tried, q)
			if _, err := os.Stat(q); err == nil {
				at = q
				break
			}
		}
		if at == "" {
			l.missing = append(l.missing, p)
			for _, q := range tried {
				if !slices.Contains(l.tried, q) {
					l.tried = append(l.tried, q)
				}
			}
			continue
		}
		l.paths = append(l.paths, at)
	}
	return l
}

// inputs are the traces as the page's Inputs list names them: the path
// read, or the stored path marked as not found. When one is not found none
// is read (reportTraces), and those found are marked so (they were listed
// as read).
func (l traceLookup) inputs() []plots.Input {
	var ins []plots.Input
	for _, p := range l.stored {
		if slices.Contains(l.missing, p) {
			ins = append(ins, plots.Input{Path: p, Note: "not found: no phases or staleness figure"})
		}
	}
	var found []plots.Input
	for _, p := range l.paths {
		in := plots.Input{Path: p}
		if len(ins) > 0 {
			in.Note = "found, not read: another trace of the model is not found"
		}
		found = append(found, in)
	}
	return append(found, ins...)
}

// reportTraces loads the traces found (l) that the model at modelPath was
// fitted on. warn says why there are none when the model names traces that
// cannot be found or read, what a user can fix (stderr and the page's
// warnings); note, when it names none or they have no steps.csv.
func reportTraces(modelPath string, m *fit.Model, l traceLookup) (mt *measuredTraces, warn, note string) {
	if len(m.Data.Paths) == 0 {
		return nil, "", "the model names no trace"
	}
	if len(l.missing) > 0 {
		what := "the traces " + modelPath + " was fitted on are not found"
		if len(l.paths) > 0 {
			// (it said "the traces ... are not found" of them all)
			what = fmt.Sprintf("%d of the %d traces %s was fitted on are not found, %s", len(l.missing), len(l.stored), modelPath, words.And(l.missing))
		}
		return nil, fmt.Sprintf("%s (tried %s): the phases and staleness figures are left out; run report from the folder fit ran in, or put the traces at one of the paths tried",
			what, words.And(l.tried)), ""
	}
	t, _, err := traces.Load(l.paths...)
	if err != nil {
		return nil, fmt.Sprintf("the traces %s was fitted on could not be read: %v: the phases and staleness figures are left out", modelPath, err), ""
	}
	if len(t.Steps) == 0 {
		return nil, "", fmt.Sprintf("the traces of %s have no steps.csv", strings.Join(l.paths, ", "))
	}
	mt = &measuredTraces{t: t}
	mt.stats, mt.err = fit.Stats(t) // once: the check, the fit figure and the trace figures read them
	if c, ok := unfoundConfig(m, mt); !ok {
		// a folder of the stored relative name in the working folder,
		// another run's traces, was drawn as the model's, silently
		return nil, fmt.Sprintf("the traces found at %s are not those %s was fitted on: none of their runs is its %s (another run's traces?): the phases and staleness figures are left out; run report from the folder fit ran in, or beside the model's traces", words.And(l.paths), modelPath, c), ""
	}
	return mt, "", ""
}

// measuredTraces are the traces a model was fitted on and their runs'
// statistics (fit.Stats; err its error).
type measuredTraces struct {
	t     *traces.Trace
	stats []fit.RunStats
	err   error
}

// unfoundConfig checks that the step traces t hold the runs m was fitted
// on: each configuration of m.Data a run of the same workers and shards
// at its measured rate (within 0.5%: fit.Stats measures it as fit did).
// It returns the first configuration no run matches, in words, and false;
// true when every one is matched, or when t's runs cannot be measured
// (the figures then say why).
func unfoundConfig(m *fit.Model, mt *measuredTraces) (string, bool) {
	if mt.err != nil {
		return "", true
	}
	for _, c := range m.Data.Configurations {
		if !slices.ContainsFunc(mt.stats, func(s fit.RunStats) bool {
			return s.Workers == c.Workers && s.PS == c.PS && math.Abs(s.StepsPerS-c.StepsPerS) <= 0.005*c.StepsPerS
		}) {
			return fmt.Sprintf("run of %s and %s at %.4g steps/s", words.Count(c.Workers, "worker"), words.Count(c.PS, "shard"), c.StepsPerS), false
		}
	}
	return "", true
}

// reportTraceFigures adds the phases figure (measured phase means per
// worker count beside the model's) and the staleness figure when the traces
// have them.
func reportTraceFigures(r *plots.Report, m *fit.Model, mt *measuredTraces) {
	t, stats, err := mt.t, mt.stats, mt.err
	if err != nil {
		r.Notes = append(r.Notes, "No phase or staleness figure: "+err.Error())
		return
	}
	workersOf := map[string]int{}
	type sum struct{ pull, compute, push, n float64 }
	byW := map[int]*sum{}
	phased := false // some run has phase times, at any configuration
	for _, s := range stats {
		workersOf[s.Run] = s.Workers
		phased = phased || s.HasPhases
		if !s.HasPhases || s.PS != m.Reference.PS {
			continue
		}
		// The model's phases are at its reference link rate: runs at
		// other rates would mix configurations in one bar.
		if s.Bandwidth > 0 && m.Reference.Bandwidth > 0 && s.Bandwidth != m.Reference.Bandwidth {
			continue
		}
		a := byW[s.Workers]
		if a == nil {
			a = &sum{}
			byW[s.Workers] = a
		}
		a.pull += s.Pull.Mean
		a.compute += s.Compute.Mean
		a.push += s.Push.Mean
		a.n++
	}
	if len(byW) > 0 {
		var pd plots.PhasesData
		z, apply := math.NaN(), 0.0
		if n, ok := m.Network(model.Config{Workers: 1}); ok {
			z = n.Z
			for _, st := range n.Stations {
				if st.Kind == model.ApplyStation {
					apply = st.D // one shard's, as the phases are
					break
				}
			}
		}
		ws := make([]int, 0, len(byW))
		for w := range byW {
			ws = append(ws, w)
		}
		sort.Ints(ws)
		top := max(ws[len(ws)-1]*2, 8)
		for _, w := range ws {
			a := byW[w]
			pd.Measured = append(pd.Measured, plots.PhaseTimes{Workers: w, Pull: a.pull / a.n, Compute: a.compute / a.n, Push: a.push / a.n})
		}
		if !math.IsNaN(z) {
			for _, w := range predictedCounts(ws, top) {
				// Each worker completes X(N)/N iterations per second: its
				// cycle is N/X(N); compute is the delay Z and pull and
				// push share the rest equally (symmetric links), the push
				// with the shard's apply besides, which a measured push
				// holds (it lasts until acknowledged, after the apply).
				cycle := float64(w) / m.StepsPerSecond(model.Config{Workers: w})
				zw := computeTime(m, w, z, cycle)
				rest := math.Max(cycle-zw, 0)
				a := math.Min(apply, rest)
				comm := (rest - a) / 2
				pd.Predicted = append(pd.Predicted, plots.PhaseTimes{Workers: w, Pull: comm, Compute: zw, Push: comm + a})
			}
			// (a reader took the equal pull and push for a split the
			// model had measured, and its push for wrong)
			pd.PredictedLabel = "predicted (light; pull = push)"
		}
		if fig, err := plots.PhasesFigure(pd); err != nil {
			r.Warnings = append(r.Warnings, "phases figure left out: "+err.Error())
		} else {
			cap := fmt.Sprintf("Mean time of each phase of a worker iteration in the steady window, per worker count (left bars), for the runs at the model's %d shard(s)", max(m.Reference.PS, 1))
			if m.Reference.Bandwidth > 0 {
				cap += " and link rate " + plots.Rate(m.Reference.Bandwidth)
			}
			cap += "."
			if len(pd.Predicted) > 0 {
				compute := "compute the fitted Z"
				if m.Queueing != nil && m.Queueing.SharedCores > 0 {
					compute = fmt.Sprintf("compute the fitted Z and, once the workers outnumber the %s a machine they share, the wait for them (the network's compute station, its share of the cycle by exact MVA)", words.Count(m.Queueing.SharedCores, "core"))
				}
				cap += " Right bars: the model's cycle N/X(N), with " + compute + " and pull and push sharing the rest equally (the push with the shard's apply): the model's links are symmetric, one demand each way, so where the measured pull and push differ the model does not split them, and only the bars' totals compare."
			}
			r.Figures = append(r.Figures, plots.FigureRef{File: "phases.png", Title: "Phases", Caption: cap, Figure: fig})
		}
	} else {
		// say why a figure other reports have is missing
		why := "the traces record no phase times (pull, compute, push)"
		if phased {
			why = fmt.Sprintf("no run with phase times is at the model's %s", words.Count(max(m.Reference.PS, 1), "shard"))
			if m.Reference.Bandwidth > 0 {
				why += " and link rate " + plots.Rate(m.Reference.Bandwidth)
			}
		}
		r.Notes = append(r.Notes, "No phases figure: "+why+".")
	}
	st := map[int][]float64{}
	for _, u := range t.Updates {
		if w, ok := workersOf[u.Run]; ok && u.Staleness >= 0 {
			st[w] = append(st[w], float64(u.Staleness))
		}
	}
	src := "updates.csv"
	if len(st) == 0 {
		src = "steps.csv"
		for _, s := range t.Steps {
			if s.Staleness >= 0 {
				st[s.Workers] = append(st[s.Workers], float64(s.Staleness))
			}
		}
	}
	if len(st) == 0 {
		why := "the traces record no staleness"
		if m.Mode != "async" {
			why += fmt.Sprintf(" (%s updates have none)", m.Mode)
		}
		r.Notes = append(r.Notes, "No staleness figure: "+why+".")
		return
	}
	// the interval at a worker count spans those of every (shards, link
	// rate) the runs pooled at that count were measured at (the network's
	// part of it depends on them; the law does not)
	type psbw struct {
		ps int
		bw float64
	}
	cfgs := map[int][]psbw{}
	for _, s := range stats {
		c := psbw{s.PS, s.Bandwidth}
		if math.IsNaN(c.bw) {
			c.bw = 0
		}
		if !slices.Contains(cfgs[s.Workers], c) {
			cfgs[s.Workers] = append(cfgs[s.Workers], c)
		}
	}
	sd := plots.StalenessData{Predicted: func(n int) float64 { return m.Staleness(float64(n)) }, Level: m.Level,
		Interval: func(n int) (lo, hi float64) {
			lo, hi = math.NaN(), math.NaN()
			for i, c := range cfgs[n] {
				if i == 0 {
					lo, hi = math.Inf(1), math.Inf(-1)
				}
				iv := m.StalenessInterval(model.Config{Workers: n, PS: c.ps, Bandwidth: c.bw})
				if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
					return math.NaN(), math.NaN()
				}
				lo, hi = math.Min(lo, iv.Lo), math.Max(hi, iv.Hi)
			}
			return lo, hi
		}}
	for w, v := range st {
		sd.Samples = append(sd.Samples, plots.StalenessSample{Workers: w, Values: v})
	}
	sort.Slice(sd.Samples, func(i, j int) bool { return sd.Samples[i].Workers < sd.Samples[j].Workers })
	if fig, err := plots.StalenessFigure(sd); err != nil {
		r.Warnings = append(r.Warnings, "staleness figure left out: "+err.Error())
	} else {
		r.Figures = append(r.Figures, plots.FigureRef{File: "staleness.png", Title: "Staleness",
			Caption: "Staleness of the applied gradients (from " + src + ") per worker count, every run at that count pooled whatever its shards and link rate (as the fitted law, staleness per extra worker times N - 1, is): quartile boxes, whiskers to 1.5 IQR, the mean (triangle) and the model's mean staleness (dash), with its " + fmt.Sprintf("%.0f%%", 100*m.Level) + " interval (bar; where the model has one) over the shards and link rates of the runs: the law's bootstrap widened by the runs' scatter about it and stretched to the queueing network's own staleness.",
			Figure:  fig})
	}
}

// countNotes says, for the first three jobs on a fitted model, how the
// counts the page gives them relate: the recommended workers if alone (the
// knee at --knee-alpha), the plan's workers at start, and check's verdict
// on that start (its knee is a worker adding less than half a worker's
// speed). They differ for reasons a reader could not see.
func countNotes(jobs []planner.Job, planned []planJob, recs, knees []float64, o reportOptions) []string {
	var notes []string
	var rest []string // fitted jobs past the third: named, not described
	for i, j := range planned {
		m, ok := jobs[i].Curve.(*fit.Model)
		if !ok {
			continue
		}
		if len(notes) == 3 {
			rest = append(rest, j.Job)
			continue
		}
		start := j.WorkersInteger // whole workers, as check counts them
		if start < 1 {
			start = max(int(math.Round(j.Workers)), 1)
		}
		starts := workersWord(start)
		if math.Abs(j.Workers-float64(start)) > 1e-9 {
			// the ideal share and the whole workers it first holds may be
			// far apart and at different times (1.3e-05 then 4)
			starts = fmt.Sprintf("%s workers as an ideal share, and on %s when it first holds whole workers", plots.Num(j.Workers), workersWord(start))
		}
		v := verdict(m, start, m.Reference.PS)
		// what the recommended count is: the knee, the job's cap below it,
		// or the whole cluster when the knee lies beyond it
		rec := fmt.Sprintf("%s, its knee on %s (one more cuts its run time by less than %s%%)", workersWord(int(recs[i])), words.Count(o.servers, "server"), plots.Num(100*o.alpha))
		if least := m.FewestWorkers(); int(recs[i]) == least && least > 1 {
			rec = fmt.Sprintf("%s, its knee on %s (one more cuts its run time by less than %s%%; the fewest workers it was fitted on: below, its curve is extrapolated)", workersWord(int(recs[i])), words.Count(o.servers, "server"), plots.Num(100*o.alpha))
		}
		switch {
		case recs[i] < knees[i]:
			rec = fmt.Sprintf("%s, its max_workers (its knee on %s is %s)", workersWord(int(recs[i])), words.Count(o.servers, "server"), workersWord(int(knees[i])))
		case o.servers == 1:
			rec = "1 worker, the whole cluster"
		case int(knees[i]) >= o.servers:
			rec = fmt.Sprintf("all %s (its knee lies beyond them: each worker up to %d cuts its run time by %s%% or more)", words.Count(o.servers, "server"), o.servers, plots.Num(100*o.alpha))
		}
		notes = append(notes, fmt.Sprintf("%s runs on a fitted model. Recommended if alone: %s. The plan starts it on %s: %s shares the cluster by the jobs' sizes and curves, not by knees. `sgdplan check --workers %d` on its model says %s: %s (check's knee is where one more worker adds less than half a worker's speed, a different rule).",
			cellText(j.Job), rec, starts, o.policy, start, v.word, v.reason))
	}
	if len(rest) > 0 {
		what := "job " + cellText(rest[0]) + ", also on a fitted model"
		if len(rest) > 1 {
			what = fmt.Sprintf("%d more jobs on fitted models (%s)", len(rest), nameList(rest, len(rest)))
		}
		notes = append(notes, fmt.Sprintf("No such note for %s: the notes above describe the first three jobs on fitted models only; the jobs table gives every job's recommended workers, knee and start, and `sgdplan check` judges a start on each one's model.", what))
	}
	return notes
}

// reportCV is what the report says of m's out-of-sample error: its value,
// or why there is none, as fit's table says it (the report said "not
// computed" where fit said "no training run besides the profile").
func reportCV(m *fit.Model) string {
	if m.Family == "mva" && m.Queueing != nil {
		if m.Diagnostics.CVError == nil {
			return "no out-of-sample error: no training run besides the 1-worker profile"
		}
		return "error " + plots.Num(*m.Diagnostics.CVError) + "% on the training runs besides the 1-worker profile (out of sample: nothing is refitted)"
	}
	if m.Diagnostics.CVError != nil {
		return "leave-one-configuration-out error " + plots.Num(*m.Diagnostics.CVError) + "%"
	}
	why := "fewer than 3 configurations"
	if _, configs := m.Measured(); configs >= 3 {
		why = "not scored"
		for _, a := range m.Diagnostics.Alternatives {
			if a.Family == m.Family && a.Note != "" {
				why = "not scored: " + strings.TrimPrefix(a.Note, "not scored: ")
				break
			}
		}
	}
	return "leave-one-configuration-out error n/a (" + why + ")"
}

// fitYLabel is the fit figure's y label, in report and fit --plot alike:
// an asynchronous job's rate is of updates (each one worker's batch), a
// synchronous job's of steps (fit --plot said steps/s where report said
// updates/s of one model).
func fitYLabel(m *fit.Model) string {
	return "throughput (" + rateUnit(m) + "/s)"
}

// rateUnit is what m's rate counts: "updates" for asynchronous SGD,
// "steps" for synchronous.
func rateUnit(m *fit.Model) string {
	if m.Mode == "async" {
		return "updates"
	}
	return "steps"
}

// reportFitData is the fit figure's input from a model file: the measured
// rates at the reference shards and link rate (repeats of one worker count
// averaged with a t interval), the fitted curve with the model's band, and for the mva
// family the closed network's bounds.
func reportFitData(m *fit.Model, stats []fit.RunStats) (plots.FitData, error) {
	d := plots.FitData{Title: "Throughput fit: " + m.Family, YLabel: fitYLabel(m), Label: m.Family + " fit", Level: m.Level}
	byW := map[int][]float64{}
	maxW := 1
	var hidden offCurve
	for _, c := range m.Data.Configurations {
		// The curve is at the reference shards, link rate, batch and
		// placement: rates measured at other ones are not repeats of its
		// points.
		if !onCurve(m, c.Workers, c.PS, c.Nodes, c.Batch, c.Bandwidth) {
			hidden.add(m, c.Workers, c.PS, c.Nodes, c.Batch, c.Bandwidth, false)
			continue
		}
		byW[c.Workers] = append(byW[c.Workers], c.StepsPerS)
		maxW = max(maxW, c.Workers)
	}
	if len(byW) == 0 {
		return d, fmt.Errorf("report: %s: no fitted configuration at the reference %d shards, batch and placement", m.Family, m.Reference.PS)
	}
	ws := make([]int, 0, len(byW))
	for w := range byW {
		ws = append(ws, w)
	}
	sort.Ints(ws)
	for _, w := range ws {
		d.Measured = append(d.Measured, plots.Repeats(float64(w), byW[w]))
	}
	// the traces' runs at worker counts the fit did not see, where the
	// curve is (hollow: a test of the extrapolation; the figure showed
	// the 2 fitted counts beside a curve drawn to 8)
	trained := map[int]bool{}
	for _, c := range m.Data.Configurations {
		trained[c.Workers] = true
	}
	held := map[int][]float64{}
	for _, s := range stats {
		if trained[s.Workers] || !(s.StepsPerS > 0) {
			continue
		}
		if !onCurve(m, s.Workers, s.PS, s.Nodes, float64(s.Batch), s.Bandwidth) {
			// counted as fit --plot counts them (the title said "6
			// points" not shown where 6 fitted and 12 held-out were not)
			hidden.add(m, s.Workers, s.PS, s.Nodes, float64(s.Batch), s.Bandwidth, true)
			continue
		}
		held[s.Workers] = append(held[s.Workers], s.StepsPerS)
		maxW = max(maxW, s.Workers)
	}
	for _, w := range slices.Sorted(maps.Keys(held)) {
		o := plots.Repeats(float64(w), held[w])
		o.HeldOut = true
		d.Measured = append(d.Measured, o)
	}
	if note := curveNote(m, hidden); note != "" {
		d.Title += note
	} else {
		d.Title += syncStepNote(m)
	}
	setFitBounds(&d, m)
	// Draw the curve past the knee, so that the saturation shows.
	top := max(2*maxW, 8)
	if m.Reference.MaxWorkers > 0 {
		top = max(top, m.Reference.MaxWorkers)
	}
	if k := d.Knee(); !math.IsNaN(k) && k < 256 {
		top = max(top, int(math.Ceil(1.5*k)))
	}
	for _, w := range reportWorkers(drawnTop(m, top)) { // every count, then 1% steps
		pr := m.Predict(model.Config{Workers: w}, math.NaN(), 0)
		d.Curve = append(d.Curve, plots.Band{X: float64(w), Y: pr.StepsPerS.Value, Lo: pr.StepsPerS.Lo, Hi: pr.StepsPerS.Hi})
	}
	return d, nil
}

// reportConvergence is the convergence figure's input from a model with a
// loss curve: the fitted l(k) at a few worker counts and the predicted time
// to the model's target loss against workers; d.InfiniteFrom is the least
// worker count from which every count's predicted time is infinite (the
// updates to the target overflow: not drawn), 0 when none is.
func reportConvergence(m *fit.Model, servers int, t *traces.Trace) (d plots.ConvergenceData, ok bool) {
	e := m.Efficiency
	if e == nil || !(e.TargetLoss > e.B2) {
		return plots.ConvergenceData{}, false
	}
	d = plots.ConvergenceData{Target: e.TargetLoss, Level: m.Level, Servers: servers}
	top := drawnTop(m, max(servers, m.Reference.MaxWorkers, 2))
	// Measured losses by worker count, from evals.csv.
	measured := map[int][][2]float64{}
	if t != nil {
		workersOf := map[string]int{}
		for _, s := range t.Steps {
			workersOf[s.Run] = s.Workers
		}
		for _, ev := range t.Evals {
			if w, ok := workersOf[ev.Run]; ok && ev.Updates >= 0 && !math.IsNaN(ev.Loss) {
				measured[w] = append(measured[w], [2]float64{float64(ev.Updates), ev.Loss})
			}
		}
	}
	var ns []int
	for w := range measured {
		ns = append(ns, w)
	}
	if len(ns) == 0 {
		for k := 1; k <= top && len(ns) < 5; k *= 2 {
			ns = append(ns, k)
		}
	} else if big := 1 << int(math.Log2(float64(top))); !slices.Contains(ns, big) {
		ns = append(ns, big) // the fit extrapolated to the cluster
	}
	sort.Ints(ns)
	// the updates of the counts that reach the target: an infinite
	// count's made every fitted point NaN (0 times infinity) and the
	// figure was left out
	umax := 0.0
	for _, k := range ns {
		if u := m.UpdatesToTarget(float64(k), e.TargetLoss); !math.IsInf(u, 0) {
			umax = math.Max(umax, u)
		}
	}
	if !(umax > 0) {
		return d, false
	}
	umax = math.Min(umax*1.5, math.MaxFloat64/61) // umax*60 finite
	for _, pts := range measured {
		for _, q := range pts {
			umax = math.Max(umax, q[0])
		}
	}
	for _, k := range ns {
		c := plots.LossCurve{Workers: k}
		pts := measured[k]
		sort.Slice(pts, func(a, b int) bool { return pts[a][0] < pts[b][0] })
		for _, q := range pts {
			c.Updates = append(c.Updates, q[0])
			c.Loss = append(c.Loss, q[1])
		}
		curve := m.LossCurve(k)
		for i := 0; i <= 60; i++ {
			u := umax * float64(i) / 60
			c.FitUpdates = append(c.FitUpdates, u)
			c.FitLoss = append(c.FitLoss, curve.Loss(u))
		}
		d.Curves = append(d.Curves, c)
	}
	never := 0
	for _, w := range reportWorkers(top) {
		p := m.Predict(model.Config{Workers: w}, math.NaN(), 0)
		t := p.TimeToTarget
		if math.IsInf(t.Value, 1) {
			// not drawn; from never on none is
			if never == 0 {
				never = w
			}
			continue
		}
		if !(t.Value > 0) {
			continue
		}
		never = 0
		lo, hi := t.Lo, t.Hi
		if !(lo <= t.Value && t.Value <= hi) || math.IsInf(hi, 1) {
			// (an upper end at +Inf, a loss curve's sample whose floor
			// reaches the target, is no band to draw)
			lo, hi = math.NaN(), math.NaN()
		}
		d.TimePredicted = append(d.TimePredicted, plots.Band{X: float64(w), Y: t.Value, Lo: lo, Hi: hi})
	}
	d.InfiniteFrom = float64(never)
	return d, true
}

// convergenceCaption is the convergence figure's caption for cd on a
// cluster of servers (intervals of coverage level), and the worker count it
// points at; the counts from cd.InfiniteFrom on (0: none) take forever and
// are left out of the figure.
func convergenceCaption(cd plots.ConvergenceData, servers int, level float64) (string, float64) {
	never := int(cd.InfiniteFrom)
	bw, bt := cd.Best()
	head := fmt.Sprintf("Loss against global updates per worker count (points: evals.csv, when the traces have it; lines: the fitted curve), and the predicted time to the target loss %s against workers (%.0f%% band): ", plots.Num(cd.Target), 100*level)
	// the least time at the largest count drawn is no fastest
	// count: the time still falls there (it said "fastest at
	// N = 16" of 1 to 16, and "fastest at N = 1 on the cluster's
	// 1 server"); StillFalling is false when the counts past the last
	// drawn take forever
	cap := head + fmt.Sprintf("fastest at N = %d, %s s.", int(bw), plots.Num(bt))
	if n := len(cd.TimePredicted); never > 0 && n > 1 && bw == cd.TimePredicted[n-1].X {
		// least at the last finite count: the fastest, as the counts
		// past it never reach the target (it said "still falling")
		cap = head + fmt.Sprintf("fastest at N = %d, the largest with a finite time, %s s.", int(bw), plots.Num(bt))
	}
	if cd.StillFalling() {
		cap = head + fmt.Sprintf("still falling at N = %d, the largest drawn, %s s.", int(bw), plots.Num(bt))
	}
	cd.Servers = servers
	if iw, it, ok := cd.ClusterBest(); ok {
		// the curve runs past the cluster to the fitted counts: say
		// the best the cluster holds first (it named N = 63 of 16); the
		// figure marks both
		last := 0.0
		for _, b := range cd.TimePredicted {
			if b.X <= float64(servers) {
				last = b.X
			}
		}
		cap = head + fmt.Sprintf("fastest at N = %d on the cluster's %s, %s s", int(iw), words.Count(servers, "server"), plots.Num(it))
		if iw == last {
			// the cluster's end, and the curve falls on past it
			what := "all the cluster's " + words.Count(servers, "server")
			if int(iw) < servers {
				what = "the largest drawn of the cluster's " + words.Count(servers, "server")
			}
			cap = head + fmt.Sprintf("still falling at N = %d, %s, %s s", int(iw), what, plots.Num(it))
		}
		if cd.StillFalling() {
			cap += fmt.Sprintf(" (the curve, drawn beyond it to the fitted worker counts, is still falling at N = %d, the largest drawn, %s s).", int(bw), plots.Num(bt))
		} else {
			cap += fmt.Sprintf(" (the curve, drawn to the fitted worker counts, is fastest at N = %d beyond it, %s s).", int(bw), plots.Num(bt))
		}
		bw = iw
	}
	if never > 0 {
		cap += fmt.Sprintf(" The predicted time to the target is infinite from N = %d on (infinite updates to reach it): those N are not drawn.", never)
	}
	if cd.FitsCoincide() {
		// (the figure's rule: one line, and its legend entry, for them all)
		cap += " The fitted lines of every N agree within 0.5% of the longest (the fitted loss per update hardly depends on the workers: no staleness cost, or a small one), so one line stands for them all, \"fitted, every N alike\"."
	}
	return cap, bw
}

// reportDenseWorkers is how many worker counts from 1 up reportWorkers
// lists one by one.
const reportDenseWorkers = 512

// reportWorkers lists the worker counts 1..top at which a figure draws a
// curve: every one up to reportDenseWorkers, then steps of 1% (a smooth line
// at any width) and top itself. A model's prediction at N workers can cost
// O(N) (exact MVA), so every count up to a large cluster would take minutes.
func reportWorkers(top int) []int {
	var ws []int
	for w := 1; w <= top; {
		ws = append(ws, w)
		if w < reportDenseWorkers {
			w++
		} else {
			w = max(w+1, int(float64(w)*1.01))
		}
	}
	if len(ws) > 0 && ws[len(ws)-1] != top {
		ws = append(ws, top)
	}
	return ws
}

// reportTerms says what the tables' words mean, for a reader who did not
// run the tool (flow time, slowdown, p99 and the policies' names were used
// on the page and defined nowhere on it); alpha is --knee-alpha.
func reportTerms(alpha float64) string {
	return "Terms: a job's flow time (the simulation's response time) runs from its arrival to its completion; " +
		"its slowdown is the flow time over its size (its time alone on 1 worker), below 1 when more workers speed it up; " +
		"p99 is the 99th percentile of the flow times (with few jobs, near the largest). " +
		"Knee names three rules on this page: the plan's recommended workers and the knee policy's, the last worker that cuts a job's run time by at least " + strconv.FormatFloat(100*alpha, 'g', 4, 64) + "%; " +
		"the fit figure's N*, where the throughput's two bounds cross and the network saturates (a property of the speed, no recommendation); " +
		"and sgdplan check's, past which one more worker adds less than half a worker's speed. " +
		"Policies: hesrpt (heSRPT, Berg, Vesilo and Harchol-Balter: the optimal shares for mean flow time when every job has one power-law speedup, a heuristic otherwise), " +
		"hesrpt-slowdown (the same for mean slowdown), equi (equal shares), srpt (all to the smallest remaining job), fifo (all to the earliest), " +
		"sjf (shortest first, not preempted), knee (smallest first, each up to its knee: the last worker that cuts its time by at least " + strconv.FormatFloat(100*alpha, 'g', 4, 64) + "%), " +
		"hell (by speedup squared over workers and remaining size), greedy (each worker to the job it helps most, as Optimus), " +
		"fcfs-rigid (each job its rigid_workers, first come first served) and numeric (a search for the least mean flow time, starting from the best of the others); docs/planner.md gives each rule."
}

// reportLoadsFit refuses a load at which the resampled jobs would arrive
// past limits.MaxTime, the most the simulator takes (simulate refuses such
// arrivals; report drew them, to 1e300 s at --loads 1e-300, and called
// cells at no load at all 145% off). The longest runs draw n jobs
// (longerRun's, or simJobs), whose arrivals span a sum of n exponential
// gaps: n gaps on average, and it is kept under the limit at 4 standard
// deviations (sqrt n gaps) more.
func reportLoadsFit(jobs []planner.Job, servers float64, loads []float64, simJobs int) error {
	if len(jobs) == 0 || len(loads) == 0 {
		return nil
	}
	mean := meanSize(jobs)
	n := float64(max(simJobs, longerRun(simJobs)))
	gaps := n + 4*math.Sqrt(n)
	least := gaps * mean / (servers * limits.MaxTime)
	if l := slices.Min(loads); l < least {
		return fmt.Errorf("report: --loads %g: at that load the %.0f jobs of the longest runs arrive over about %.3g s and may take %.3g s, past the %.0g s the simulator takes (want loads of at least %.3g)", l, n, n*mean/(l*servers), gaps*mean/(l*servers), limits.MaxTime, least)
	}
	return nil
}

// meanSize is the mean size of jobs (not empty), s on one worker: the
// size of a resampled job on average (reportWorkload, reportLoadsFit).
func meanSize(jobs []planner.Job) float64 {
	var sum float64
	for _, j := range jobs {
		sum += j.Size
	}
	return sum / float64(len(jobs))
}

// reportWorkload draws count jobs resampled from jobs (size, curve, caps,
// weight) with Poisson arrivals at the rate that offers load: rate x mean
// size = load x servers.
func reportWorkload(jobs []planner.Job, servers float64, load float64, count int, seed uint64) []planner.Job {
	rate := load * servers / meanSize(jobs)
	rng := rand.New(rand.NewPCG(seed, 0x5e9))
	out := make([]planner.Job, count)
	t := 0.0
	for i := range out {
		t += rng.ExpFloat64() / rate
		j := jobs[rng.IntN(len(jobs))]
		j.ID = fmt.Sprintf("s%d", i)
		j.Arrival = t
		out[i] = j
	}
	return out
}

// reportSimulate runs every policy on resampled workloads at each load and
// seed: the response times at the middle load (for the CDF), the mean
// response per load with a 95% t interval over seeds, and a table of them.
//
// growing names the (policy, load) cells whose queue grows through the run
// in most seeds (growingQueue): their means are no steady state.
//
// drifting are, as simDrift finds them, the other cells whose mean
// response over runs 4 times as long (longerRun, 2 seeds or more) lies
// outside their interval and more than simDriftMin from their mean: runs
// too short for a steady state, which the halves did not see (simulate
// checks its Poisson runs so; report's cells were not checked: at its
// defaults, 100 jobs a run, the demo's hesrpt at load 0.85 moved from
// 4,312 s [3,248, 5,375] to 5,845 s over 400 jobs).
func reportSimulate(c *cli.Context, o reportOptions, jobs []planner.Job) (d plots.SimulationData, tab plots.Table, growing []growCell, drifting []driftCell, err error) {
	n := float64(o.servers)
	cdfLoad := o.loads[len(o.loads)/2]
	tab = plots.Table{Title: "Simulated mean response time (s), whole workers, 95% interval over seeds", Columns: []string{"policy"}}
	// (labels that tell the loads apart, and a load below 1 never "1")
	labels := plots.LoadLabels(o.loads)
	for _, l := range labels {
		tab.Columns = append(tab.Columns, "load "+l)
	}
	d.CDFTitle = fmt.Sprintf("Response times at load %s (%d seeds x %d jobs)", labels[len(o.loads)/2], o.seeds, o.simJobs)
	bar := progress.New(c.App.ErrWriter, "report: simulating", int64(len(planner.PolicyNames)*len(o.loads)*o.seeds), nil)
	defer bar.Done()
	for _, name := range planner.PolicyNames {
		if name == "fcfs-rigid" && planner.RigidTooWide(jobs, n) != "" {
			continue // (said with the comparison)
		}
		pol, err := planner.NewPolicy(name, o.alpha)
		if err != nil {
			return d, tab, nil, nil, err
		}
		row := []string{name}
		var cdf []float64
		cdfFaded := false // the CDF's load had no steady state
		var pts []plots.LoadPoint
		for li, l := range o.loads {
			var means []float64
			grows := 0
			for s := 0; s < o.seeds; s++ {
				w := reportWorkload(jobs, n, l, o.simJobs, o.seed+uint64(s))
				// whole workers, as simulate runs by default: with
				// ideal shares a fraction of a worker runs at k^p > k,
				// and on a small cluster EQUI beat SRPT 2.5 times over
				// where nothing can beat it (one server, one job size)
				res, err := planner.Simulate(w, pol, planner.Settings{Servers: n, Integer: true})
				bar.Add(1)
				if err != nil {
					return d, tab, nil, nil, fmt.Errorf("%s at load %s, seed %d: %w", name, labels[li], o.seed+uint64(s), err)
				}
				means = append(means, res.MeanResponse)
				if growingQueue(res) {
					grows++
				}
				if l == cdfLoad {
					for _, j := range res.Jobs {
						cdf = append(cdf, j.Response)
					}
				}
			}
			ob := plots.Repeats(l, means)
			// cut as simulate cuts its mean_flow_time (a mean
			// response time is never negative)
			ob.Lo, ob.Hi = simClamp("mean_flow_time", ob.Lo, ob.Hi)
			pts = append(pts, plots.LoadPoint{Policy: name, Load: l, Mean: ob.Y, Lo: ob.Lo, Hi: ob.Hi})
			cell := fmt.Sprintf("%s [%s, %s]", reportNum(ob.Y), reportNum(ob.Lo), reportNum(ob.Hi))
			if 2*grows > o.seeds {
				// overload or a short run? The same seeds over 4 times
				// the jobs (growCell)
				g := growCell{what: name + " at load " + labels[li], policy: name, load: labels[li], li: li}
				if g.longer = longerRun(o.simJobs); g.longer > 0 {
					g.settles, err = settlesOver(o.seeds, bar, func(s int) (planner.Result, error) {
						w := reportWorkload(jobs, n, l, g.longer, o.seed+uint64(s))
						res, err := planner.Simulate(w, pol, planner.Settings{Servers: n, Integer: true})
						if err != nil {
							err = fmt.Errorf("%s at load %s, seed %d, %d jobs: %w", name, labels[li], o.seed+uint64(s), g.longer, err)
						}
						return res, err
					})
					if err != nil {
						return d, tab, nil, nil, err
					}
				}
				cell += g.mark()
				pts[len(pts)-1].NotSteady = strings.TrimSpace(g.mark())
				cdfFaded = cdfFaded || l == cdfLoad
				growing = append(growing, g)
			} else if longer := longerRun(o.simJobs); longer > 0 && o.seeds > 1 {
				// a steady mean? The same seeds over 4 times the jobs
				bar.Grow(int64(o.seeds))
				m4 := 0.0
				for s := 0; s < o.seeds; s++ {
					w := reportWorkload(jobs, n, l, longer, o.seed+uint64(s))
					res, err := planner.Simulate(w, pol, planner.Settings{Servers: n, Integer: true})
					if err != nil {
						return d, tab, nil, nil, fmt.Errorf("%s at load %s, seed %d, %d jobs: %w", name, labels[li], o.seed+uint64(s), longer, err)
					}
					bar.Add(1)
					m4 += res.MeanResponse / float64(o.seeds)
				}
				if (m4 < ob.Lo || m4 > ob.Hi) && math.Abs(m4-ob.Y) > simDriftMin*ob.Y {
					cell += " ‡"
					drifting = append(drifting, driftCell{what: name + " at load " + labels[li], mean: ob.Y, lo: ob.Lo, hi: ob.Hi, longer: m4})
				}
			}
			row = append(row, cell)
		}
		d.Responses = append(d.Responses, plots.ResponseTimes{Policy: name, Times: cdf, NotSteady: cdfFaded})
		d.Loads = append(d.Loads, pts...)
		tab.Rows = append(tab.Rows, row)
	}
	return d, tab, growing, drifting, nil
}

// growCell is a simulated cell (a policy, at a load for report) whose
// queue grows through most seeds' runs (growingQueue). longer > 0: the same
// seeds were run again over that many jobs (longerRun), and settles says
// whether the queue then stopped growing in most of them: an overloaded
// queue grows through any run, one that was filling from empty settles.
//
// what names the cell (simulate's: the policy). report's cells name their
// policy and load apart too (load its label, li its place in the loads), so
// that the warning can say "srpt at loads 0.7 to 0.95" where it listed
// every pair (1,670 characters for 19 loads).
type growCell struct {
	what    string
	longer  int
	settles bool
	policy  string
	load    string
	li      int
}

// growList names cells as the warning lists them: report's by policy, in
// the order the policies first come, each with its loads, three or more
// consecutive ones as a range, and policies at the same loads together
// ("srpt at loads 0.5 and 0.7 to 0.95, fifo and sjf at load 0.6");
// simulate's by what.
func growList(cells []growCell) string {
	var names []string
	at := map[string]int{} // a policy's place in names
	var loads [][]growCell // by place in names: the policy's cells
	for _, g := range cells {
		if g.policy == "" {
			names = append(names, g.what)
			loads = append(loads, nil)
			continue
		}
		i, ok := at[g.policy]
		if !ok {
			i = len(names)
			at[g.policy] = i
			names = append(names, g.policy)
			loads = append(loads, nil)
		}
		loads[i] = append(loads[i], g)
	}
	suffix := make([]string, len(names)) // a policy's " at loads ..."
	for i, gs := range loads {
		if len(gs) == 0 {
			continue
		}
		var ls []string
		for a := 0; a < len(gs); {
			b := a
			for b+1 < len(gs) && gs[b+1].li == gs[b].li+1 {
				b++
			}
			if b-a >= 2 {
				ls = append(ls, gs[a].load+" to "+gs[b].load)
			} else {
				for _, g := range gs[a : b+1] {
					ls = append(ls, g.load)
				}
			}
			a = b + 1
		}
		word := " at load "
		if len(gs) > 1 {
			word = " at loads "
		}
		suffix[i] = word + words.And(ls)
	}
	// policies at the same loads are named together, where their loads
	// are first said ("srpt, fifo and sjf at loads 0.7 and 0.85")
	var out []string
	said := map[string]bool{}
	for i, name := range names {
		switch {
		case suffix[i] == "":
			out = append(out, name)
		case !said[suffix[i]]:
			said[suffix[i]] = true
			var same []string
			for k := i; k < len(names); k++ {
				if suffix[k] == suffix[i] {
					same = append(same, names[k])
				}
			}
			out = append(out, words.And(same)+suffix[i])
		}
	}
	return strings.Join(out, ", ")
}

// mark is the cell's mark in report's table: * grows (or not checked), †
// settles over the longer runs (not **: markdown's bold).
func (g growCell) mark() string {
	if g.settles {
		return " †"
	}
	return " *"
}

// longerRun is the jobs of the runs that check a growing queue of runs of
// jobs jobs: 4 times as many, 0 (no check) where that passes 4,000 or
// planner.MaxPoissonJobs. An overloaded run costs more than linearly in
// its jobs: with a cap of 40,000, simulate --count 10000 --policy all took
// 33 s where the simulation itself took 2.4 s.
func longerRun(jobs int) int {
	if l := 4 * jobs; l <= min(4000, planner.MaxPoissonJobs) {
		return l
	}
	return 0
}

// settlesOver runs seeds runs (run(k), k = 0..seeds-1: the longer runs of
// a growCell), counting them on bar, and says whether the queue grows
// through at most half of them (growingQueue): it settles. The first
// error ends it.
func settlesOver(seeds int, bar *progress.Bar, run func(k int) (planner.Result, error)) (bool, error) {
	bar.Grow(int64(seeds))
	still := 0
	for k := 0; k < seeds; k++ {
		r, err := run(k)
		if err != nil {
			return false, err
		}
		bar.Add(1)
		if growingQueue(r) {
			still++
		}
	}
	return 2*still <= seeds, nil
}

// growingWarning says which cells had a growing queue and what each kind
// means: jobs is the runs' length, seeds their number, flag the flag that
// sets the length, marked whether a table marks the cells (report's).
func growingWarning(cells []growCell, jobs, seeds int, flag string, marked bool) string {
	most := "in most seeds"
	if seeds == 1 {
		most = "in its one seed"
	}
	var over, short, unchecked []growCell
	longer := 0
	for _, g := range cells {
		switch {
		case g.longer == 0:
			unchecked = append(unchecked, g)
		case g.settles:
			short = append(short, g)
			longer = g.longer
		default:
			over = append(over, g)
		}
	}
	mark := func(m string) string {
		if !marked {
			return ""
		}
		return " (marked " + m + " in the table)"
	}
	var parts []string
	if len(over) > 0 {
		parts = append(parts, fmt.Sprintf("for %s%s the queue grows through runs of %d jobs and still through runs 4 times as long: the policy cannot serve the load (the load counts each job's work at linear speedup, which a policy that gives one job many workers does not get, so it can be overloaded below load 1), and those means grow with the run's length, not steady-state values", growList(over), mark("*"), jobs))
	}
	if len(short) > 0 {
		parts = append(parts, fmt.Sprintf("for %s%s the queue grows through runs of %d jobs but not through runs of %d %s: more likely runs too short for the queue to fill from empty than an overload, so those means are probably below the steady state (a larger %s shows whether they settle; near overload it takes many jobs)", growList(short), mark("†"), jobs, longer, most, flag))
	}
	if len(unchecked) > 0 {
		parts = append(parts, fmt.Sprintf("for %s%s the queue grows through runs of %d jobs, so those means are not steady-state values: either the policy cannot serve the load (the load counts each job's work at linear speedup, which a policy that gives one job many workers does not get, so it can be overloaded below load 1) or the runs are too short for the queue to fill from empty (then a larger %s gives the steady state; runs 4 times as long are tried up to 1,000 jobs only, and only where their arrivals end by 1e12 s)", growList(unchecked), mark("*"), jobs, flag))
	}
	return strings.Join(parts, "; ") + " (a growing queue: " + most + " the later half of the jobs, by arrival, has a mean response time (waiting plus service) more than twice the earlier half's, or finds more than twice as many jobs in the system)"
}

// growingQueue reports whether a simulated run's queue grows through it:
// the jobs of its second half (by arrival) have a mean response time
// (waiting plus service) more than twice that of its first half, or find
// more than twice as many jobs in the system when they arrive (at least 3
// on average). A stable queue's mean response and length are the same in
// both halves up to noise; an overloaded one's grow with the jobs that
// came before. The length catches what the responses miss: srpt,
// overloaded, finishes the small jobs at once and starves the large ones,
// whose count grows while the mean response by arrival half barely moves.
// Jobs that arrive together do not count one another.
func growingQueue(r planner.Result) bool {
	n := len(r.Jobs)
	if n < 20 {
		return false
	}
	js := slices.Clone(r.Jobs)
	slices.SortStableFunc(js, func(a, b planner.JobResult) int { return cmp.Compare(a.Arrival, b.Arrival) })
	ends := make([]float64, n)
	for i, j := range js {
		ends[i] = j.Arrival + j.Response
	}
	slices.Sort(ends)
	var first, second, qFirst, qSecond float64
	done, before := 0, 0 // jobs done before j arrives; jobs that arrived before it
	for i, j := range js {
		for done < n && ends[done] < j.Arrival { // (<=: a job done at once counted itself out)
			done++
		}
		if i > 0 && js[i-1].Arrival < j.Arrival {
			before = i
		}
		// the jobs in the system as j arrives, those arriving with it
		// aside (a batch at one instant counted each job the ones ahead
		// of it, and the halves always differed twice over)
		q := float64(max(before-done, 0))
		if i < n/2 {
			first += j.Response
			qFirst += q
		} else {
			second += j.Response
			qSecond += q
		}
	}
	h1, h2 := float64(n/2), float64(n-n/2)
	first, second, qFirst, qSecond = first/h1, second/h2, qFirst/h1, qSecond/h2
	return second > 2*first || qSecond >= 3 && qSecond > 2*qFirst
}

// backlogged reports whether a replay of a jobs file fell behind its
// arrivals: the queue grows through it (growingQueue), and either the mean
// response is longer than the span of the arrivals (last less first; a
// file whose jobs all arrive at once has none and is not judged) or, at
// the last arrival, more than 1 in 20 of the jobs are still in the system
// that arrived over a quarter of the span before it and have been in it
// longer than their size on one worker: an old backlog (a job of 5,000 s on
// one worker is in the system 600 s after it came on an idle cluster, and
// 15 such of 200 jobs made a backlog of a trace at 1.4% utilization: the
// day's review, 2026-12-07). A
// trace has no steady state, and growingQueue alone fired on a light one
// whose arrivals were denser late (philly-pollux-150 at 1.7% load on 256
// servers) and on a batch; the jobs in the system at the last arrival
// alone count a late burst (gavel-vc_0e4a51-150: 56 of 150 jobs in its
// last 200 s), none of which arrived so early. The span alone missed
// srpt's overload on 30,000 Poisson jobs at load 0.7 (a mean response of
// 8.8e5 s for jobs of 3,600 s, under the span of 2.4e6 s; 6,586 jobs
// older than 6e5 s still in the system at the last arrival).
func backlogged(r planner.Result) bool {
	if len(r.Jobs) == 0 {
		return false
	}
	lo, hi := r.Jobs[0].Arrival, r.Jobs[0].Arrival
	for _, j := range r.Jobs {
		lo, hi = math.Min(lo, j.Arrival), math.Max(hi, j.Arrival)
	}
	if !(hi > lo) {
		return false
	}
	old := 0 // in the system at the last arrival, arrived over a quarter of the span before, and held up
	for _, j := range r.Jobs {
		if j.Arrival < hi-(hi-lo)/4 && j.Arrival+j.Response > hi && hi-j.Arrival > j.Size {
			old++
		}
	}
	return (r.MeanResponse > hi-lo || 20*old > len(r.Jobs)) && growingQueue(r)
}

// reportPlanNote is the report's note on its plan and policy tables: the
// ranges' note when a row of either shows a range, as plan and simulate
// print theirs only then (every replay at the curves' ends may have failed,
// a warning each: the note spoke of ranges no row had); otherwise that the
// tables carry no interval.
func reportPlanNote(jobsFile string, ends planEnds, jobs []plots.JobRow, pols []plots.PolicyRow) string {
	shown := slices.ContainsFunc(jobs, func(j plots.JobRow) bool { return !math.IsNaN(j.CompletionLo) && !math.IsNaN(j.CompletionHi) }) ||
		slices.ContainsFunc(pols, func(p plots.PolicyRow) bool { return !math.IsNaN(p.MeanFlowLo) && !math.IsNaN(p.MeanFlowHi) })
	if len(ends.models) > 0 && shown {
		return "The plan and the policy comparison replay the jobs of " + jobsFile + " exactly (ideal fractional shares). Ranges: " + strings.TrimPrefix(ends.note("the plan made again"), "ranges: ") + ". The simulation (its table and figure above) repeats random workloads over seeds, on whole workers, and gives 95% intervals."
	}
	return "The plan and the policy comparison replay the jobs of " + jobsFile + " exactly (ideal fractional shares); they carry no interval. The simulation (its table and figure above) repeats random workloads over seeds, on whole workers, and gives 95% intervals."
}

// reportNum formats a time for a table: whole seconds from 1000 s to
// under 10^7 s (seven digits at most), otherwise 4 significant digits,
// with an exponent beyond (3.333e+11, as the plan's table writes it: it
// printed 333333333333).
func reportNum(v float64) string {
	if a := math.Abs(v); a >= 1000 && math.Round(a) < 1e7 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// predictedCounts are the worker counts of the phases figure's predicted
// bars: beside every measured count ws (sorted), and at the powers of two
// past the largest, up to top. It was the powers of two only: no bar
// beside the measured 3 and 6 of testdata/asgd, one at 16 alone.
func predictedCounts(ws []int, top int) []int {
	at := slices.Clone(ws)
	for w := 1; w <= top; w *= 2 {
		if w > ws[len(ws)-1] {
			at = append(at, w)
		}
	}
	return at
}

// computeTime is the compute phase of the phases figure's predicted bar at
// w workers whose cycle is cycle: z, the fitted delay, except where the
// workers share their machines' cores (fit --shared-cores) and outnumber
// them, where it is z and the wait for the cores, the network's compute
// station's share of the cycle by exact MVA (the model's own solver may
// differ a little; the bar's total is the model's cycle). The bars put
// the cores' queue into pull and push before 2026-12-08.
func computeTime(m *fit.Model, w int, z, cycle float64) float64 {
	net, ok := m.Network(model.Config{Workers: w})
	if !ok {
		return z
	}
	for i, st := range net.Stations {
		if st.Kind == model.ComputeStation {
			r := model.ExactMVA(net, w)
			if f := (net.Z + r.R[i]) / r.Cycle; f > 0 && f <= 1 && !math.IsInf(cycle, 0) {
				return f * cycle
			}
		}
	}
	return z
}

// saturatedFrom is the fewest workers, up to n, at which a shard station of
// m's queueing network at p shards is at least saturated busy (check's
// fail), or 0 when none up to n is (or m is not a queueing network).
func saturatedFrom(m *fit.Model, n, p int) int {
	if m.Family != "mva" || p < 1 {
		return 0
	}
	for k := 1; k <= n; k++ {
		if u, _ := busiest(m, k, p); u >= saturated {
			return k
		}
	}
	return 0
}

// flatFloor is the least worker count of band from which its lower edge
// stays within 0.5% of its last value, over at least 3 counts and while
// the point itself moves more; ok is false when it does not.
func flatFloor(band []plots.Band) (float64, bool) {
	n := len(band)
	if n < 3 {
		return 0, false
	}
	last := band[n-1].Lo
	if !(last > 0) {
		return 0, false
	}
	i := n - 1
	for i > 0 && math.Abs(band[i-1].Lo-last) <= 0.005*last {
		i--
	}
	if n-i < 3 || math.Abs(band[i].Y-band[n-1].Y) <= 0.005*band[n-1].Y {
		return 0, false
	}
	return band[i].X, true
}
