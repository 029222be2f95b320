package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/sgdplan/sgdplan/internal/progress"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/planner"
	"github.com/sgdplan/sgdplan/plots"
	"github.com/urfave/cli/v2"
)

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:  "simulate",
		Usage: "simulate a cluster with arrivals under a policy",
		Description: `simulate runs jobs through a cluster of --servers workers, event by event: at every
arrival and departure the policy reallocates the workers (whole workers unless
--fractional). Jobs come from --jobs jobs.csv or, without it, from a Poisson process
(--arrival-rate jobs/s, --count, sizes of mean --mean-size s, exponential or, with
--size-sigma S, lognormal, exponent --p, default 0.5). With --jobs, --p P is the
exponent of the rows with neither p nor model (otherwise an error), as in plan.

--early-stop F kills each job with probability F at a uniform random fraction of its
requested size (policies know only the requested size). --energy-alpha A gives jobs
the speed-scaling curve speed = power^(1/A) and reports flow time + energy.
--seeds K repeats the run with seeds S..S+K-1 and reports the means over seeds with
95% intervals (Student t), cut to the values a quantity can take (>= 0; <= 1 for
utilization and the queued fraction). The table gives the intervals of the response
times, the slowdown and the totals (weighted mean response, flow+energy), and the means
alone of utilization, reallocations, queued and energy; --format json has every
interval (ci95).

--policy takes the policies of plan that react to arrivals (all runs every one of
them), not numeric: numeric tunes one priority per job by replaying the whole job
list, every future arrival and size known in advance, so it is plan only.
The Poisson flags (--arrival-rate, --count, --mean-size, --size-sigma, --max-workers)
do not apply with --jobs and are refused there. When a Poisson workload offers at
least as much work as the servers can do, stderr says so: the queue then grows
without bound and the response times grow with --count. Below that, stderr names the
policies whose queue grows through the run (the later half of the jobs, by arrival,
has twice the earlier half's mean response or finds twice as many jobs) and, with
--count at most 1,000 and 2 or more seeds, those whose mean response over runs 4
times as long leaves the printed 95% interval and moves by more than 10% (this costs
the longer runs): their means are not steady-state values yet. With --jobs it names the policies whose queue grows
through the file's replay.

Example:
   sgdplan simulate --jobs testdata/jobs-example/jobs.csv --servers 16 --policy all --early-stop 0.3 --seeds 5`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "jobs", Usage: "jobs.csv (else a Poisson workload)"},
			&cli.IntFlag{Name: "servers", Usage: planServersUsage, DefaultText: "none"},
			&cli.StringFlag{Name: "policy", Value: "hesrpt", Usage: strings.Join(planner.PolicyNames, "|") + "|all (not numeric, which is plan only), or a comma list (hesrpt,equi)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random draws"},
			&cli.IntFlag{Name: "seeds", Value: 1, Usage: "runs with seeds seed..seed+K-1; K > 1 adds 95% intervals"},
			&cli.Float64Flag{Name: "early-stop", Usage: "probability a job is killed early, 0..1", DefaultText: "0"},
			&cli.Float64Flag{Name: "energy-alpha", Usage: "speed = power^(1/alpha), alpha >= 1; 0: off", DefaultText: "0, off"},
			&cli.BoolFlag{Name: "fractional", Usage: "ideal fractional shares instead of whole workers"},
			&cli.Float64Flag{Name: "knee-alpha", Value: planner.DefaultKneeAlpha, Usage: "knee threshold"},
			&cli.Float64Flag{Name: "arrival-rate", Usage: fmt.Sprintf("Poisson arrivals, jobs/s (without --jobs), at least --count / %g s (near that rate a seed's last arrival may pass %g s: an error)", float64(planner.MaxTime), float64(planner.MaxTime)), DefaultText: "none"},
			&cli.IntFlag{Name: "count", Value: 1000, Usage: fmt.Sprintf("Poisson jobs, 1 to %s", words.Thousands(planner.MaxPoissonJobs))},
			&cli.Float64Flag{Name: "mean-size", Value: 3600, Usage: fmt.Sprintf("Poisson jobs' mean size, s on one worker, %g to %g", planner.MinSize, simMaxMeanSize)},
			&cli.Float64Flag{Name: "size-sigma", Usage: fmt.Sprintf("0: exponential sizes; > 0: lognormal sizes with this sigma (same mean), at most %g", simMaxSigma), DefaultText: "0"},
			&cli.Float64Flag{Name: "p", Value: 0.5, Usage: "speedup exponent, (0, 1]: of the Poisson jobs; with --jobs, of the rows with neither p nor model (only when given)"},
			&cli.IntFlag{Name: "max-workers", Usage: "Poisson jobs' cap; 0: none", DefaultText: "0, none"},
			&cli.StringFlag{Name: "plot", Usage: "write response-time distributions as a PNG"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table|json|csv"},
		},
		Action: simulateAction,
	}
}

// simJob is one job of a simulation in the json output.
type simJob struct {
	Job        string  `json:"job"`
	Arrival    float64 `json:"arrival"`
	Start      float64 `json:"start"`
	Completion float64 `json:"completion"`
	Response   float64 `json:"response"`
	Slowdown   float64 `json:"slowdown"`
	Size       float64 `json:"size"`
	Work       float64 `json:"work"`
}

// simPolicy is one policy's simulation in the json output; means are over
// seeds, and CI95 holds their 95% intervals when there are several.
type simPolicy struct {
	Policy string `json:"policy"`
	Seeds  int    `json:"seeds"`
	// Seed is the first of the seeds, seed..seed+seeds-1 (absent where
	// nothing is random: a jobs file without --early-stop)
	Seed         *uint64 `json:"seed,omitempty"`
	Workers      string  `json:"workers"` // "whole", or "fractional" (ideal shares, --fractional)
	MeanFlowTime float64 `json:"mean_flow_time"`
	// MeanWeightedFlow is sum w T / sum w when a job of the jobs file
	// has a weight other than 1 (plan's mean_weighted_flow_time).
	MeanWeightedFlow float64               `json:"mean_weighted_flow_time,omitempty"`
	MeanSlowdown     float64               `json:"mean_slowdown"`
	P50Response      float64               `json:"p50_response"`
	P99Response      float64               `json:"p99_response"`
	Utilization      float64               `json:"utilization"`
	Reallocations    float64               `json:"reallocations"`
	QueuedFraction   float64               `json:"queued_fraction"`
	Energy           float64               `json:"energy,omitempty"`
	FlowPlusEnergy   float64               `json:"flow_plus_energy,omitempty"`
	CI95             map[string][2]float64 `json:"ci95,omitempty"`
	// MeanFlowRange is the least and most mean flow time of the
	// simulation and of it run again with the jobs' fitted speedups at
	// the low and at the high ends of their 90% intervals (a jobs file
	// with a job on a fitted model, without --energy-alpha).
	MeanFlowRange *[2]float64 `json:"mean_flow_time_range,omitempty"`
	// MeanWeightedFlowRange (weighted jobs), MeanSlowdownRange and
	// P99Range are the same runs' least and most of their values.
	MeanWeightedFlowRange *[2]float64 `json:"mean_weighted_flow_time_range,omitempty"`
	MeanSlowdownRange     *[2]float64 `json:"mean_slowdown_range,omitempty"`
	P99Range              *[2]float64 `json:"p99_response_range,omitempty"`
	// Warnings are every warning stderr says once but the csv's
	// first-seed note: the jobs file's and the run's (a script reading
	// the json saw none of them)
	Warnings []string `json:"warnings,omitempty"`
	Jobs     []simJob `json:"jobs"`
}

// widenRanges widens p's ranges to hold e's values (a run at an end of
// the fitted curves), first setting each to p's own value.
func (p *simPolicy) widenRanges(e simPolicy) {
	if p.MeanFlowRange == nil {
		p.MeanFlowRange = &[2]float64{p.MeanFlowTime, p.MeanFlowTime}
		p.MeanSlowdownRange = &[2]float64{p.MeanSlowdown, p.MeanSlowdown}
		p.P99Range = &[2]float64{p.P99Response, p.P99Response}
		if p.MeanWeightedFlow > 0 {
			p.MeanWeightedFlowRange = &[2]float64{p.MeanWeightedFlow, p.MeanWeightedFlow}
		}
	}
	widenRange(p.MeanFlowRange, e.MeanFlowTime)
	widenRange(p.MeanSlowdownRange, e.MeanSlowdown)
	widenRange(p.P99Range, e.P99Response)
	if p.MeanWeightedFlowRange != nil {
		widenRange(p.MeanWeightedFlowRange, e.MeanWeightedFlow)
	}
}

// simPoissonFlags describe the Poisson workload; a jobs file replaces them.
var simPoissonFlags = []string{"arrival-rate", "count", "mean-size", "size-sigma", "max-workers"}

// simMaxSigma bounds --size-sigma: a lognormal of sigma S and mean m has its
// median at m e^(-S^2/2), 4e-6 m at S = 5; much beyond, nearly every size
// underflows to 0 (at S = 50 the draws never end) and the mean of --count
// sizes is far from --mean-size.
const simMaxSigma = 5.0

// simMaxMeanSize bounds --mean-size (s): 1e12 s is some 30,000 years of work
// on one worker, and keeps every drawn size finite (at 1e308 they overflow).
const simMaxMeanSize = 1e12

func simulateAction(c *cli.Context) error {
	if err := noArgs(c.Command.Name, c); err != nil {
		return err
	}
	s, err := planParse(c, false, false)
	if err != nil {
		return err
	}
	n, alpha, names := s.servers, s.alpha, s.names
	// warn says w on stderr and keeps it for the json, whose policies
	// carry the run's warnings as plan's do (a growing queue, an
	// overload, one seed: the json said none of them)
	warn := func(w string) {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		s.warnings = append(s.warnings, w)
	}
	seeds := c.Int("seeds")
	if seeds < 1 || seeds > maxSeeds {
		return badInput(fmt.Errorf("%s: --seeds %d: want 1 to %d (every run is kept for the intervals)", c.Command.Name, seeds, maxSeeds))
	}
	if p := c.String("plot"); p != "" {
		if err := outFolder("simulate", "plot", p); err != nil {
			return err
		}
		if err := plotName(c.Command.Name, p); err != nil {
			return err
		}
	}
	es := c.Float64("early-stop")
	if !(es >= 0 && es <= 1) {
		return badInput(fmt.Errorf("%s: --early-stop %g: want a probability in [0, 1]", c.Command.Name, es))
	}
	ea := c.Float64("energy-alpha")
	if ea != 0 && !(ea >= 1) {
		return badInput(fmt.Errorf("%s: --energy-alpha %g: want >= 1 (or 0 for off)", c.Command.Name, ea))
	}
	if err := emptyFlag(c, "jobs", "the path of a jobs.csv (or leave --jobs out for a Poisson workload: --arrival-rate)"); err != nil {
		return err
	}
	var fixed []planner.Job
	var poisson planner.Poisson
	// the offered load is past what any policy (or fcfs-rigid) can serve,
	// said once: the growing queues below need no word more
	overloaded, rigidOverloaded := false, false
	if c.String("jobs") != "" {
		var set []string
		for _, f := range simPoissonFlags {
			if c.IsSet(f) {
				set = append(set, fmt.Sprintf("--%s %v", f, c.Value(f)))
			}
		}
		if len(set) > 0 {
			return badInput(fmt.Errorf("simulate: %s: Poisson workload only, not with --jobs (the jobs file gives the arrivals, sizes and max_workers)",
				strings.Join(set, ", ")))
		}
		if fixed, err = planLoadJobs(c, &s); err != nil {
			return err
		}
		names = s.names // (fcfs-rigid may have been left out)
		if w := simHeSRPTNote(fixed, names); w != "" && !(c.Float64("energy-alpha") > 0) {
			warn(w) // (the json's too, as plan's has it)
		}
	} else {
		rate, p, mean, count := c.Float64("arrival-rate"), c.Float64("p"), c.Float64("mean-size"), c.Int("count")
		switch {
		case !(rate > 0):
			if c.IsSet("arrival-rate") {
				return badInput(fmt.Errorf("simulate: --arrival-rate %g: want jobs per second > 0 (or give --jobs jobs.csv)", rate))
			}
			return badInput(fmt.Errorf("simulate: give --jobs jobs.csv, or --arrival-rate > 0 for a Poisson workload"))
		case !(p > 0 && p <= 1):
			return badInput(fmt.Errorf("%s: --p %g: want a speedup exponent in (0, 1]", c.Command.Name, p))
		case !(mean >= planner.MinSize):
			// as jobs.csv's sizes: at 1e-310 the sizes are subnormal, a
			// job's last work takes no time at its rate, and the
			// simulation made no progress (it never returned)
			return badInput(fmt.Errorf("simulate: --mean-size %g: want at least %g s (a microsecond on one worker, the least size jobs.csv takes; far smaller sizes stall the simulation's clock)", mean, planner.MinSize))
		case mean > simMaxMeanSize:
			return badInput(fmt.Errorf("simulate: --mean-size %g: want at most %g s (some 30,000 years on one worker; far larger sizes overflow)", mean, float64(simMaxMeanSize)))
		case count < 1:
			return badInput(fmt.Errorf("%s: --count %d: want >= 1", c.Command.Name, count))
		case count > planner.MaxPoissonJobs:
			return badInput(fmt.Errorf("simulate: --count %d: want at most %s jobs (steady-state means need far fewer; the benchmarks use 100,000)", count, words.Thousands(planner.MaxPoissonJobs)))
		case float64(count)/rate > planner.MaxTime:
			// at 1e-308 jobs/s the arrivals overflowed to +Inf (exit 1,
			// "arrival +Inf"); at 1e-300 they ran, some 1e300 s apart
			return badInput(fmt.Errorf("simulate: --arrival-rate %g: want at least --count / %g s = %g jobs/s: slower, the last arrival (of %d) comes after %g s on average (some 30,000 years, the latest arrival jobs.csv takes)",
				rate, float64(planner.MaxTime), float64(count)/planner.MaxTime, count, float64(planner.MaxTime)))
		case c.Int("max-workers") < 0:
			return badInput(fmt.Errorf("%s: --max-workers %d: want >= 0", c.Command.Name, c.Int("max-workers")))
		case !(c.Float64("size-sigma") >= 0):
			return badInput(fmt.Errorf("%s: --size-sigma %g: want >= 0", c.Command.Name, c.Float64("size-sigma")))
		case c.Float64("size-sigma") > simMaxSigma:
			return badInput(fmt.Errorf("simulate: --size-sigma %g: want at most %g: a lognormal's median is the mean x e^(-sigma^2/2), 4e-6 of it at sigma 5; beyond, nearly every size underflows to 0 and the sizes drawn no longer have --mean-size as their mean",
				c.Float64("size-sigma"), simMaxSigma))
		}
		var sizes planner.SizeDist = planner.Exponential{Mean: mean}
		if sg := c.Float64("size-sigma"); sg > 0 {
			// E[exp(mu + sigma Z)] = exp(mu + sigma^2/2) = mean
			sizes = planner.LogNormal{Mu: math.Log(mean) - sg*sg/2, Sigma: sg}
		}
		poisson = planner.Poisson{Rate: rate, Count: count, Sizes: sizes, Curve: planner.PowerLaw{P: p}, MaxWorkers: c.Int("max-workers")}
		pe := p // the exponent the jobs run at
		if ea > 0 {
			pe = 1 / ea
		}
		var ws []string
		ws, overloaded, rigidOverloaded = simOverload(poisson, mean, pe, n, c.Bool("fractional"), names)
		for _, w := range ws {
			warn(w)
		}
		if slices.Contains(names, "fcfs-rigid") && poisson.MaxWorkers == 0 && n > 1 {
			// (as for a jobs file's rows without rigid_workers or
			// max_workers: planLoadJobs)
			warn("fcfs-rigid: the generated jobs have no max_workers (--max-workers), so each holds 1 worker under it")
		}
	}
	if ea > 0 {
		// speed scaling replaces the jobs' own speedup curves: say so,
		// a job on a fitted model otherwise ran at linear speedup
		// with no word (planner.Settings.EnergyAlpha)
		what := fmt.Sprintf("the curves of all %s (their p or model) are not used; max_workers still caps them", words.Count(len(fixed), "job"))
		if len(fixed) == 1 {
			what = "the job's curve (its p or model) is not used; max_workers still caps it"
		}
		if fixed == nil {
			what = "--p is not used"
			if !c.IsSet("p") {
				what = ""
			}
		}
		if what != "" {
			warn(fmt.Sprintf("--energy-alpha %g: every job runs at speed = power^(1/%g), s(k) = k^%.4g: %s", ea, ea, 1/ea, what))
		}
	}
	if fixed != nil && es == 0 && seeds > 1 {
		// the jobs file fixes every arrival and size: the seeds would
		// repeat one result, and intervals of zero width would say
		// nothing
		warn(fmt.Sprintf("--seeds %d: with --jobs and no --early-stop nothing is random, so every seed gives the same result: ran one, with no intervals", seeds))
		seeds = 1
	}
	if fixed != nil && es == 0 && c.IsSet("seed") {
		// (it was taken without a word)
		warn(fmt.Sprintf("--seed %d: with --jobs and no --early-stop nothing is random, so the seed changes nothing", c.Uint64("seed")))
	}
	// (after the seeds are cut to one where nothing is random: there
	// they do not wrap, and the run was taken before)
	if err := seedsFit(c.Command.Name, c.Uint64("seed"), seeds); err != nil {
		return badInput(err)
	}
	// the jobs file's fitted curves at the ends of their intervals
	// (speed scaling replaces every curve: none then)
	var ends planEnds
	var endJobs [][]planner.Job
	if fixed != nil && ea == 0 {
		if ends = planFindEnds(fixed); len(ends.models) > 0 {
			low, high := ends.jobs(fixed)
			endJobs = [][]planner.Job{low, high}
		}
	}
	var out []simPolicy
	var resp []plots.ResponseTimes
	var growing []growCell // policies whose queue grows through most seeds' runs
	var drifting []string  // policies whose mean moves over runs 4 times as long (simDrift)
	var backlog []string   // policies whose queue grows through the jobs file's replay
	sumW := 0.0            // the jobs' weights summed when one is not 1, else 0
	if fixed != nil {
		if sw, weighted := planWeights(fixed); weighted {
			sumW = sw
		}
	}
	workersKind := "whole"
	if c.Bool("fractional") {
		workersKind = "fractional"
	}
	// A bar on stderr when it is a terminal (many jobs and seeds take a
	// while); nothing otherwise.
	bar := progress.New(c.App.ErrWriter, "simulate", int64(len(names)*seeds*(1+len(endJobs))), nil)
	defer bar.Done()
	// the simulator's settings of every run (the growing-queue reruns too)
	settings := func(seed uint64) planner.Settings {
		return planner.Settings{Servers: float64(n), Integer: !c.Bool("fractional"), EarlyStop: es, Seed: seed, EnergyAlpha: ea}
	}
	for _, name := range names {
		pol, _ := planner.NewPolicy(name, alpha)
		// simOne simulates one seed's jobs under the policy (every run:
		// the seeds', the growing-queue and moving-mean reruns')
		simOne := func(seed uint64, jobs []planner.Job) (planner.Result, error) {
			r, err := planner.Simulate(jobs, pol, settings(seed))
			if err != nil {
				err = withCode(exitFailure, err)
			}
			return r, err
		}
		// run simulates seeds on the jobs file's jobs js (nil: the
		// Poisson workload's). It keeps each run's summary and drops its
		// jobs as it goes (every seed's whole result was kept to the
		// end: 616 MB at --seeds 256 of 10,000 jobs): only the first
		// seed's, where csv or json print them, stay. main is whether
		// these are the runs the table, the queue checks and the figure
		// read (not a rerun at the curves' ends): then grows says, per
		// run, whether its queue grew (backlogged for a jobs file,
		// growingQueue for a Poisson workload), and times gets every
		// run's response times for --plot.
		var grows []bool
		var times []float64
		run := func(js []planner.Job, main bool) ([]planner.Result, error) {
			var runs []planner.Result
			for k := 0; k < seeds; k++ {
				seed := c.Uint64("seed") + uint64(k)
				jobs := js
				if jobs == nil {
					if jobs, err = poisson.Jobs(seed); err != nil {
						return nil, badInput(simPoissonErr(err, poisson, seed))
					}
				}
				r, err := simOne(seed, jobs)
				if err != nil {
					return nil, err
				}
				if main {
					if fixed != nil {
						grows = append(grows, backlogged(r))
					} else {
						grows = append(grows, growingQueue(r))
					}
					if c.String("plot") != "" {
						for _, j := range r.Jobs {
							times = append(times, j.Response)
						}
					}
				}
				if !main || k > 0 || s.format == "table" {
					r.Jobs = nil
				}
				runs = append(runs, r)
				bar.Add(1)
			}
			return runs, nil
		}
		runs, err := run(fixed, true)
		if err != nil {
			return err
		}
		sp := simSummarize(name, runs, sumW)
		sp.Workers = workersKind
		if fixed == nil || es > 0 {
			seed := c.Uint64("seed")
			sp.Seed = &seed
		}
		if fixed != nil && inMost(grows) {
			backlog = append(backlog, name)
		}
		if fixed == nil {
			if inMost(grows) && !(name == "fcfs-rigid" && rigidOverloaded) {
				// overload or a short run? The same seeds over 4 times
				// the jobs (growCell)
				g, err := simGrowing(name, poisson, seeds, overloaded, bar, simOne, c.Uint64("seed"))
				if err != nil {
					return err
				}
				growing = append(growing, g)
			} else if d, ok, err := simDrift(sp, runs, poisson, overloaded || name == "fcfs-rigid" && rigidOverloaded, bar, simOne, c.Uint64("seed")); err != nil {
				return err
			} else if ok {
				drifting = append(drifting, d)
			}
		}
		for i, js := range endJobs {
			er, err := run(js, false)
			if err != nil {
				// the fitted curves' results stand; only the range is lost
				warn(fmt.Sprintf("%s: no range: with the fitted curves at the %s ends of their intervals: %v", name, [2]string{"low", "high"}[i], err))
				sp.MeanFlowRange, sp.MeanWeightedFlowRange, sp.MeanSlowdownRange, sp.P99Range = nil, nil, nil, nil
				break
			}
			sp.widenRanges(simSummarize(name, er, sumW))
		}
		out = append(out, sp)
		// every seed's responses, for the figure alone: their
		// distribution, as the table's means are over every seed (it
		// drew the first)
		if c.String("plot") != "" {
			notSteady := slices.ContainsFunc(growing, func(g growCell) bool { return g.what == name })
			resp = append(resp, plots.ResponseTimes{Policy: name, Times: times, NotSteady: notSteady})
		}
	}
	if len(growing) > 0 && !overloaded {
		warn(growingWarning(growing, poisson.Count, seeds, "--count", false))
	}
	if len(backlog) > 0 {
		warn(backlogWarning(backlog, c.String("jobs"), n))
	}
	if len(drifting) > 0 {
		those, settle := "those means are", "they settle"
		if len(drifting) == 1 {
			those, settle = "that mean is", "it settles"
		}
		warn(fmt.Sprintf("over runs 4 times as long (%d jobs, the same seeds) the mean response time moves: %s; the runs of %d jobs are too short for a steady state (a queue that starts empty and fills slowly near what the policy can serve, large jobs that a policy starves for longer in a longer run, or heavy-tailed sizes whose mean settles slowly), so %s not a steady-state value: raise --count to see where %s",
			longerRun(poisson.Count), strings.Join(drifting, "; "), poisson.Count, those, settle))
	}
	if seeds == 1 && (es > 0 || fixed == nil) {
		warn("one seed of a random workload: rerun with --seeds 5 or more for 95% intervals")
	}
	if seeds > 1 && s.format == "csv" {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: the csv rows are each job's under the first seed (%d) alone; the means over the %d seeds and their 95%% intervals are in --format table or json\n", c.Uint64("seed"), seeds)
	}
	if path := c.String("plot"); path != "" {
		// what the times are of (the title said "Response-time
		// distribution" alone)
		title := fmt.Sprintf("Response times: %s, %s", filepath.Base(c.String("jobs")), words.Count(n, "server"))
		if fixed == nil {
			title = fmt.Sprintf("Response times: %d jobs at %.3g/s, %s", poisson.Count, poisson.Rate, words.Count(n, "server"))
		}
		if seeds > 1 {
			title += fmt.Sprintf(", %d seeds", seeds)
		}
		f, err := plots.SimulationFigure(plots.SimulationData{Responses: resp, CDFTitle: title})
		if err != nil {
			return withCode(exitFailure, err)
		}
		if err := planWritePNG(path, f); err != nil {
			return withCode(exitFailure, err)
		}
	}
	w := c.App.Writer
	switch s.format {
	case "json":
		for i := range out {
			out[i].Warnings = s.warnings
		}
		return planWriteJSON(w, out)
	case "csv":
		return simCSV(w, out)
	}
	if err := simWriteTable(w, out, simLayout{energy: ea > 0, weighted: sumW > 0, fractional: c.Bool("fractional"), seeds: seeds}); err != nil {
		return err
	}
	if len(endJobs) > 0 && simHasRanges(out) {
		// a blank line before it, as plan's
		_, err := fmt.Fprintf(w, "\n%s\n", ends.note("the simulation run again"))
		return err
	}
	return nil
}

// simPoissonErr is the error of drawing the Poisson workload pw of seed,
// naming --arrival-rate where a seed's arrivals pass planner.MaxTime (a
// rate held to --count / MaxTime has its last arrival there on average).
func simPoissonErr(err error, pw planner.Poisson, seed uint64) error {
	if errors.Is(err, planner.ErrLateArrival) {
		return fmt.Errorf("simulate: --arrival-rate %g, --count %d, seed %d: %w", pw.Rate, pw.Count, seed, err)
	}
	return err
}

// simHasRanges reports whether a policy of out has a range (one whose
// runs at the ends failed has none; a warning said why).
func simHasRanges(out []simPolicy) bool {
	return slices.ContainsFunc(out, func(p simPolicy) bool { return p.MeanFlowRange != nil })
}

// simOverload warns when the Poisson workload pw (sizes of mean mean s,
// exponent p) offers at least as much work as n servers can do. On whole
// workers a running job holds k >= 1 workers and does k^p <= k seconds of
// one-worker work per second, so the servers do at most n: the offered load
// rate x mean / n is a lower bound on every policy's, and at or above 1 the
// queue grows without bound. fcfs-rigid holds r workers per job for
// size / r^p, a load of rate x mean x r^(1-p) / n. With fractional shares and
// p < 1 a share below one worker runs faster than its share (k^p > k), so the
// bound does not hold and only fcfs-rigid (always whole workers) is checked.
//
// all says the load is past every policy's reach, rigid fcfs-rigid's.
func simOverload(pw planner.Poisson, mean, p float64, n int, fractional bool, names []string) (out []string, all, rigid bool) {
	const advice = "the queue grows without bound, so the response times grow with the simulated horizon (--count) and are not steady-state values; lower --arrival-rate or raise --servers"
	load := pw.Rate * mean / float64(n)
	// (the product overflows past 1.8e308: "offered load +Inf")
	loadText := func(l float64) string {
		if math.IsInf(l, 1) {
			return fmt.Sprintf("above %.3g", math.MaxFloat64)
		}
		return fmt.Sprintf("%.3g", l)
	}
	if load >= 1 && (!fractional || p == 1) {
		all = true
		out = append(out, fmt.Sprintf("overloaded: offered load %s (arrival rate %g/s x mean size %g s / %s) >= 1, more work than the servers can do under any policy: %s",
			loadText(load), pw.Rate, mean, words.Count(n, "server"), advice))
	}
	if slices.Contains(names, "fcfs-rigid") && len(out) == 0 {
		r := 1 // as planner's rigid default: max_workers, at most the servers
		if pw.MaxWorkers > 0 {
			r = min(pw.MaxWorkers, n)
		}
		if rl := load * math.Pow(float64(r), 1-p); rl >= 1 {
			rigid = true
			out = append(out, fmt.Sprintf("fcfs-rigid overloaded: offered load %s (arrival rate %g/s x mean size %g s x %d^(1-%g) / %s; each job holds %s) >= 1: %s",
				loadText(rl), pw.Rate, mean, r, p, words.Count(n, "server"), words.Count(r, "rigid worker"), advice))
		}
	}
	return out, all, rigid
}

// simBounds are the values the quantities of simSummarize can take.
var simBounds = map[string][2]float64{"utilization": {0, 1}, "queued_fraction": {0, 1}}

// simClamp cuts the interval [lo, hi] of the quantity key to the values it
// can take: simBounds, or [0, +Inf) (times, counts, energy are never
// negative).
func simClamp(key string, lo, hi float64) (float64, float64) {
	b, ok := simBounds[key]
	if !ok {
		b = [2]float64{0, math.Inf(1)}
	}
	return math.Max(lo, b[0]), math.Min(hi, b[1])
}

// simSummarize averages one policy's runs over seeds, with 95% intervals.
// Every quantity is >= 0 (utilization and the queued fraction also <= 1),
// so the Student-t interval is cut to those values: the true mean lies
// there, so the cut interval covers it as often as the whole one.
//
// sumW is the jobs' weights summed when one is not 1 (then the weighted
// mean flow time is given), else 0.
func simSummarize(name string, runs []planner.Result, sumW float64) simPolicy {
	p := simPolicy{Policy: name, Seeds: len(runs)}
	fields := []struct {
		key string
		dst *float64
		get func(r planner.Result) float64
	}{
		{"mean_flow_time", &p.MeanFlowTime, func(r planner.Result) float64 { return r.MeanResponse }},
		{"mean_slowdown", &p.MeanSlowdown, func(r planner.Result) float64 { return r.MeanSlowdown }},
		{"p50_response", &p.P50Response, func(r planner.Result) float64 { return r.P50Response }},
		{"p99_response", &p.P99Response, func(r planner.Result) float64 { return r.P99Response }},
		{"utilization", &p.Utilization, func(r planner.Result) float64 { return r.Utilization }},
		{"reallocations", &p.Reallocations, func(r planner.Result) float64 { return float64(r.Reallocations) }},
		{"queued_fraction", &p.QueuedFraction, func(r planner.Result) float64 { return r.QueuedFraction }},
		{"energy", &p.Energy, func(r planner.Result) float64 { return r.Energy }},
		{"flow_plus_energy", &p.FlowPlusEnergy, func(r planner.Result) float64 { return r.FlowPlusEnergy }},
		{"mean_weighted_flow_time", &p.MeanWeightedFlow, func(r planner.Result) float64 { return r.WeightedFlow / sumW }},
	}
	// without --energy-alpha no run accounts energy: no energy fields
	energy := false
	for _, r := range runs {
		energy = energy || r.Energy != 0
	}
	x := make([]float64, len(runs))
	for _, f := range fields {
		if !energy && (f.key == "energy" || f.key == "flow_plus_energy") || sumW == 0 && f.key == "mean_weighted_flow_time" {
			continue
		}
		for i, r := range runs {
			x[i] = f.get(r)
		}
		m, lo, hi := planner.MeanCI(x, 0.95)
		*f.dst = m
		if len(runs) > 1 && !math.IsNaN(lo) {
			if p.CI95 == nil {
				p.CI95 = map[string][2]float64{}
			}
			lo, hi = simClamp(f.key, lo, hi)
			p.CI95[f.key] = [2]float64{lo, hi}
		}
	}
	for _, j := range runs[0].Jobs {
		p.Jobs = append(p.Jobs, simJob{Job: j.ID, Arrival: j.Arrival, Start: j.Start, Completion: j.Completion,
			Response: j.Response, Slowdown: j.Slowdown, Size: j.Size, Work: j.Work})
	}
	return p
}

// simLayout is what the simulate table shows besides its rows, as
// simulateAction knows it from the flags and the jobs: not read from the
// rows, which may be none.
type simLayout struct {
	energy     bool // --energy-alpha: the energy columns
	weighted   bool // a job's weight is not 1: the weighted mean column
	fractional bool // --fractional: ideal fractional shares, not whole workers
	seeds      int  // runs per policy; > 1: means with 95% intervals
}

// simWriteTable prints simulate's table; it returns the first error
// writing to stdout (the lines after the table dropped theirs).
func simWriteTable(stdout io.Writer, out []simPolicy, l simLayout) error {
	w := &stickyWriter{w: stdout}
	energy := l.energy
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ci := func(p simPolicy, key string, v float64) string {
		if r, ok := p.CI95[key]; ok {
			return fmt.Sprintf("%.4g [%.4g, %.4g]", v, r[0], r[1])
		}
		return fmt.Sprintf("%.4g", v)
	}
	ranges := simHasRanges(out)
	weighted := l.weighted
	rng := "" // the range column after each value that has one
	if ranges {
		rng = "range\t"
	}
	head := "policy\tmean response (s)\t" + rng
	if weighted {
		head += "weighted mean response (s)\t" + rng
	}
	head += "p50 (s)\tp99 (s)\t" + rng + "mean slowdown\t" + rng + "utilization\treallocations\tqueued"
	if energy {
		head += "\tenergy\ttotal flow+energy"
	}
	fmt.Fprintln(tw, head+"\t")
	for _, p := range out {
		// each value (with its interval over seeds), then its range when
		// the table has them
		line := p.Policy + "\t"
		cell := func(key string, v float64, r *[2]float64, ranged bool) {
			line += ci(p, key, v) + "\t"
			if ranged {
				line += planRangeText(r) + "\t"
			}
		}
		cell("mean_flow_time", p.MeanFlowTime, p.MeanFlowRange, ranges)
		if weighted {
			cell("mean_weighted_flow_time", p.MeanWeightedFlow, p.MeanWeightedFlowRange, ranges)
		}
		cell("p50_response", p.P50Response, nil, false)
		cell("p99_response", p.P99Response, p.P99Range, ranges)
		cell("mean_slowdown", p.MeanSlowdown, p.MeanSlowdownRange, ranges)
		line += fmt.Sprintf("%.3f\t%.4g\t%.3f", p.Utilization, p.Reallocations, p.QueuedFraction)
		if energy {
			line += fmt.Sprintf("\t%.4g\t%s", p.Energy, ci(p, "flow_plus_energy", p.FlowPlusEnergy))
		}
		fmt.Fprintln(tw, line+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// (the line said "whole workers" alone, which read as a stray word,
	// and the last two columns were explained nowhere on the page)
	kind := "allocations in whole workers"
	if l.fractional {
		kind = "allocations in ideal fractional shares (--fractional)"
	}
	if l.seeds > 1 {
		fmt.Fprintf(w, "%s; means over %d seeds with 95%% intervals (Student t)\n", kind, l.seeds)
	} else {
		fmt.Fprintln(w, kind)
	}
	fmt.Fprintln(w, "reallocations: times a job that held workers had them changed; queued: the fraction of jobs that waited before their first workers")
	if energy {
		fmt.Fprintln(w, "total flow+energy: the sum of every job's response time plus the energy (Vaze and Nair's objective), beside the mean response")
	}
	return w.err
}

func simCSV(w io.Writer, out []simPolicy) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"policy", "job", "arrival", "start", "completion", "response", "slowdown", "size", "work"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) } // as json: every digit (10 printed arrivals of 1.23456789012345e11 as 1.23456789e+11)
	for _, p := range out {
		for _, j := range p.Jobs {
			cw.Write([]string{p.Policy, j.Job, g(j.Arrival), g(j.Start), g(j.Completion), g(j.Response), g(j.Slowdown), g(j.Size), g(j.Work)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// simDriftMin is how far (relative) the mean response over runs 4 times as
// long must also lie from the runs' before simDrift says it moved: with
// 100 seeds the interval shrank onto a start-up bias of 1.3% (hell, 3019
// [2988, 3051] -> 3057), a move of no consequence.
const simDriftMin = 0.10

// simGrowing checks whether policy name's growing queue (in most of the
// seeds' runs of pw's jobs) is an overload or a short run: the same seeds
// seed0..seed0+seeds-1, through run, over longerRun's jobs (growCell).
// Not past load 1 (overloaded: the overload warning has said it, and this
// one is not printed), nor where the longer runs' arrivals would pass
// planner.MaxTime, which --arrival-rate is held to for --count jobs, not
// 4 times as many: those cells are left unchecked (longer 0).
func simGrowing(name string, pw planner.Poisson, seeds int, overloaded bool, bar *progress.Bar, run func(seed uint64, jobs []planner.Job) (planner.Result, error), seed0 uint64) (growCell, error) {
	g := growCell{what: name, longer: longerRun(pw.Count)}
	if float64(g.longer)/pw.Rate > planner.MaxTime {
		g.longer = 0
	}
	if g.longer == 0 || overloaded {
		return g, nil
	}
	lp := pw
	lp.Count = g.longer
	var err error
	g.settles, err = settlesOver(seeds, bar, func(k int) (planner.Result, error) {
		seed := seed0 + uint64(k)
		jobs, err := lp.Jobs(seed)
		if err != nil {
			return planner.Result{}, badInput(err)
		}
		return run(seed, jobs)
	})
	if errors.Is(err, planner.ErrLateArrival) {
		// a seed's longer run passed it all the same: not checked
		return growCell{what: name}, nil
	}
	return g, err
}

// simDrift runs a policy's Poisson seeds again over 4 times the jobs (where
// longerRun allows it, the workload is not overloaded: the overload
// warnings say it there, and there are 2 or more seeds: one seed's mean
// has no interval, and with heavy-tailed sizes one seed's means moved by
// -39% to +151% at 10% utilization, noise) and says, as "policy: mean m
// [lo, hi] -> m4", when their mean response lies outside the runs' 95%
// interval and more than simDriftMin from their mean. A queue that starts
// empty is below its steady state early in a run; far from what the
// policy can serve it settles within the runs and the longer runs' mean
// falls inside the interval, near it (hesrpt at load 0.8 of 16 servers,
// p 0.5: 3432 [2478, 4385] over 1,000 jobs, 3777 over 4,000), while
// hesrpt-slowdown's grew past it (6777 [4070, 9484], then 10,260, 13,700
// at 16,000 jobs), which growingQueue's halves did not see. sp is the
// policy's summary of runs; run simulates a seed's jobs.
func simDrift(sp simPolicy, runs []planner.Result, pw planner.Poisson, overloaded bool, bar *progress.Bar, run func(seed uint64, jobs []planner.Job) (planner.Result, error), seed0 uint64) (string, bool, error) {
	longer := longerRun(pw.Count)
	if longer == 0 || overloaded || len(runs) < 2 || float64(longer)/pw.Rate > planner.MaxTime {
		return "", false, nil
	}
	lp := pw
	lp.Count = longer
	bar.Grow(int64(len(runs)))
	sum := 0.0
	for k := range runs {
		seed := seed0 + uint64(k)
		jobs, err := lp.Jobs(seed)
		if errors.Is(err, planner.ErrLateArrival) {
			return "", false, nil // a seed's longer run passes it: not checked
		}
		if err != nil {
			return "", false, badInput(err)
		}
		r, err := run(seed, jobs)
		if err != nil {
			return "", false, err
		}
		bar.Add(1)
		sum += r.MeanResponse
	}
	m4 := sum / float64(len(runs))
	m := sp.MeanFlowTime
	iv, ok := sp.CI95["mean_flow_time"]
	if !ok || m4 >= iv[0] && m4 <= iv[1] || math.Abs(m4-m) <= simDriftMin*m {
		return "", false, nil
	}
	return fmt.Sprintf("%s %.4g s [%.4g, %.4g] -> %.4g s (%+.0f%%)", sp.Policy, m, iv[0], iv[1], m4, 100*(m4/m-1)), true, nil
}

// inMost says whether most of the runs' flags hold (growingQueue: the
// queue grows through most seeds' runs; backlogged: most replays of a jobs
// file fell behind).
func inMost(flags []bool) bool {
	n := 0
	for _, f := range flags {
		if f {
			n++
		}
	}
	return 2*n > len(flags)
}

// backlogWarning says that under the policies names the queue grows
// through the replay of the jobs file path on n servers (growingQueue): a
// replay of 810 hours of a cluster's jobs gave fifo a mean response of
// twice the trace's length with no word (a review, 2026-12-06). A trace
// has no steady state to compare with, and its load may rise over time,
// which the halves cannot tell from a policy falling behind.
func backlogWarning(names []string, path string, n int) string {
	these, fall := "this policy", "falls"
	if len(names) > 1 {
		these, fall = "these policies", "fall"
	}
	return fmt.Sprintf("for %s the queue grows through the replay of %s (the later half of its jobs, by arrival, has a mean response time more than twice the earlier half's, or finds more than twice as many jobs in the system, and the mean response is longer than the span of the arrivals or more than 1 in 20 of the jobs are still in the system at the last arrival that arrived over a quarter of the span before it and have been in it longer than their size on one worker): on %s %s %s behind the trace's arrivals, or its load rises over time (the halves cannot tell the two apart), and the means are of a backlog that grows with the trace's length",
		strings.Join(names, ", "), path, words.Count(n, "server"), these, fall)
}

// simHeSRPTNote says, when heSRPT is among the policies, that it is a
// heuristic on the jobs' curves: they are not one power law (a job on a
// fitted model, or exponents that differ), so it allocates at the median
// exponent, as plan says of it (simulate said nothing: the review of
// 2026-12-07). "" for one job or one power law.
func simHeSRPTNote(jobs []planner.Job, names []string) string {
	var pols []string
	for _, n := range names {
		if n == "hesrpt" || n == "hesrpt-slowdown" {
			pols = append(pols, n)
		}
	}
	if len(pols) == 0 || len(jobs) < 2 {
		return ""
	}
	why, fitted := "", false
	for _, j := range jobs {
		pl, ok := j.Curve.(planner.PowerLaw)
		if !ok {
			why, fitted = fmt.Sprintf("job %s's curve is a fitted model, not a power law", cellText(j.ID)), true
			break
		}
		if p0, ok0 := jobs[0].Curve.(planner.PowerLaw); ok0 && pl.P != p0.P && why == "" {
			why = "the exponents differ"
		}
	}
	if why == "" {
		return ""
	}
	median := "the median exponent"
	if fitted {
		// (said of power laws alone too, where no curve is fitted)
		median += " (log s(n)/log n at n servers for a fitted curve)"
	}
	return fmt.Sprintf("%s: heSRPT is optimal only when every job has the same power-law curve k^p; here %s, so it allocates at %s, a heuristic", strings.Join(pols, ", "), why, median)
}

// seedsFit refuses a first seed whose run of seeds seed..seed+seeds-1
// passes 2^64-1: the seeds wrapped round to 0, 1, ... without a word.
func seedsFit(cmd string, seed uint64, seeds int) error {
	if seeds > 1 && seed > math.MaxUint64-uint64(seeds-1) {
		return fmt.Errorf("%s: --seed %d with --seeds %d: seeds past 2^64-1 = %d would wrap round to 0 (want --seed at most %d)", cmd, seed, seeds, uint64(math.MaxUint64), uint64(math.MaxUint64)-uint64(seeds-1))
	}
	return nil
}
