package main

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/internal/jsontext"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/planner"
	"github.com/sgdplan/sgdplan/plots"
	"github.com/urfave/cli/v2"
)

// a fitted model tells the planner the fewest workers it was fitted on
var _ planner.FittedFrom = (*fit.Model)(nil)

func planCommand() *cli.Command {
	return &cli.Command{
		Name:  "plan",
		Usage: "allocate workers to jobs offline (heSRPT and its competitors)",
		Description: `plan reads jobs.csv (job, arrival, size in seconds on one worker, p or model,
optional max_workers, weight, rigid_workers) and replays every job through a cluster
of --servers workers under the policy, reporting each job's completion time and the
mean flow time and slowdown, both with ideal fractional shares and with whole
workers (largest-remainder rounding, never above max_workers).

--policy all compares hesrpt, hesrpt-slowdown, equi, srpt, fifo, sjf, knee, hell,
greedy, fcfs-rigid and numeric (the best of them improved by local search; with ideal
shares at least as good as each on mean flow time, weighted by the weight column when a job
has one: the table then adds that weighted mean, ideal and whole; on whole workers it keeps the best of its
plan rounded, its priorities searched again on whole workers and every other policy's
whole-worker plan, so it is at least as good as each there too, and says which it kept). With all jobs present at once, one power law and
weights that do not grow with size, the heSRPT rows also carry the closed-form optimum.

Rows with neither p nor model (as sgdplan convert writes a job trace without --p)
are an error unless --p P gives them the speedup exponent P; rows that have one keep
theirs, and stderr names the jobs that got P.

Example:
   sgdplan plan --jobs testdata/jobs-example/worked.csv --servers 1 --policy all`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "jobs", Usage: "jobs.csv (required)"},
			&cli.IntFlag{Name: "servers", Usage: planServersUsage, DefaultText: "none"},
			&cli.StringFlag{Name: "policy", Value: "hesrpt", Usage: strings.Join(planPolicyNames(), "|") + "|all, or a comma list (hesrpt,equi)"},
			&cli.Float64Flag{Name: "knee-alpha", Value: planner.DefaultKneeAlpha, Usage: "knee threshold: one more worker must cut the run time by this fraction"},
			&cli.Float64Flag{Name: "p", Usage: "speedup exponent in (0, 1] for the jobs with neither p nor model", DefaultText: "such jobs are an error"},
			&cli.StringFlag{Name: "plot", Usage: "write the allocation over time (ideal shares, first policy) as a PNG"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table|json|csv"},
		},
		Action: planAction,
	}
}

func planPolicyNames() []string {
	return append(append([]string(nil), planner.PolicyNames...), "numeric")
}

// planPolicies resolves --policy into policies (numeric is built later,
// from the jobs): one name, a comma list of them (compared as under all,
// in the order given), or all.
func planPolicies(name string, alpha float64, allowNumeric bool) ([]string, error) {
	names := []string{name}
	switch {
	case name == "all":
		names = planner.PolicyNames
		if allowNumeric {
			names = planPolicyNames()
		}
	case strings.Contains(name, ","):
		// (a list was refused as one unknown name: --policy hesrpt,equi)
		names = nil
		for _, n := range strings.Split(name, ",") {
			n = strings.TrimSpace(n)
			switch {
			case n == "":
				return nil, fmt.Errorf("--policy %q: an empty name in the list: want policies separated by commas, e.g. hesrpt,equi", name)
			case n == "all":
				return nil, fmt.Errorf("--policy %q: all stands alone, not in a list", name)
			case slices.Contains(names, n):
				return nil, fmt.Errorf("--policy %q: %s is named twice", name, n)
			}
			names = append(names, n)
		}
	}
	for _, n := range names {
		if n == "numeric" {
			if allowNumeric {
				continue
			}
			// (simulate's, alone or in a list: simulate split the
			// list a second time to find it)
			return nil, fmt.Errorf("unknown policy \"numeric\" for simulate: numeric tunes one priority per job by replaying the whole job list, "+
				"future arrivals and sizes known in advance, so it is plan only; want one of %s (or a comma list of them), or all", strings.Join(planner.PolicyNames, ", "))
		}
		if _, err := planner.NewPolicy(n, alpha); err != nil {
			if allowNumeric {
				return nil, fmt.Errorf("%w (or numeric, a comma list of them, or all)", err)
			}
			return nil, fmt.Errorf("%w (a comma list of them, or all)", err)
		}
	}
	return names, nil
}

// maxSeeds bounds simulate's and report's --seeds: each seed's run is kept
// in memory for the intervals.
const maxSeeds = 10_000

// planReadOptions are the settings of planReadJobsUsing; the zero value
// reads the file as it is.
type planReadOptions struct {
	p       float64            // the exponent of the jobs with neither p nor model (0: none)
	servers int                // > 0: a rigid_workers above it is an error at its cell
	used    func(model string) // when not nil, called once with the path of each model file, resolved as read
	warn    func(error)        // when not nil, called with each warning (unknown columns)
	cmd     string             // the command, named first in the errors about --jobs itself ("" none)
}

// planReadJobsUsing reads a jobs file; model paths are relative to its
// folder and loaded with sgdplan fit's model.json loader, and every job
// needs p or model (or o.p). It returns the IDs of the jobs that got o.p.
func planReadJobsUsing(path string, o planReadOptions) ([]planner.Job, []string, error) {
	jobs, def, err := planReadJobsFile(path, o)
	if err != nil && o.cmd != "" && strings.HasPrefix(err.Error(), "--jobs") {
		// (the command first, as its other flags' errors: it said
		// "sgdplan: --jobs .: a folder")
		err = fmt.Errorf("%s: %w", o.cmd, err)
	}
	return jobs, def, err
}

// planReadJobsFile is planReadJobsUsing without the command's name.
func planReadJobsFile(path string, o planReadOptions) ([]planner.Job, []string, error) {
	used := o.used
	if path == "" { // (open said "open : no such file or directory")
		return nil, nil, errors.New("--jobs is empty: want the path of a jobs.csv")
	}
	f, err := os.Open(path)
	if err != nil {
		if path == "-" {
			// (it said "open -: no such file or directory", naming no
			// flag: check reads its manifest from -, these do not)
			return nil, nil, errors.New("--jobs -: the jobs are read from a file, not standard input: want the path of a jobs.csv (its model column's paths are relative to its folder)")
		}
		return nil, nil, fmt.Errorf("--jobs: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		// (it said "planner: .: read .: is a directory")
		return nil, nil, fmt.Errorf("--jobs %s: a folder: want the path of a jobs.csv file (docs/planner.md)", path)
	}
	load := fit.ModelResolver(filepath.Dir(path), used)
	resolve := func(p string) (planner.Speedup, error) {
		s, err := load(p)
		if err != nil {
			// said as plan's, not as the fit command's
			return nil, errors.New(strings.TrimPrefix(err.Error(), "fit: "))
		}
		return s, nil
	}
	return planner.ReadJobsWith(f, path, &planner.ReadOptions{Resolve: resolve, DefaultP: o.p, Servers: o.servers, Warn: o.warn})
}

// planSetup is what plan and simulate read alike from the command line.
type planSetup struct {
	format  string
	servers int
	alpha   float64  // --knee-alpha
	names   []string // the policies of --policy
	// warnings are those of the jobs (planLoadJobs), said on stderr and
	// put in each policy's json too
	warnings []string
}

// planServersUsage is the help of --servers in plan, simulate and report.
var planServersUsage = fmt.Sprintf("workers in the cluster, 1 to %s (required)", words.Thousands(planner.MaxServers))

// planCheckServers refuses a --servers count of the command cmd outside
// 1..planner.MaxServers.
func planCheckServers(cmd string, n int) error {
	if n <= 0 {
		return fmt.Errorf("%s: --servers %d: want a number of workers > 0", cmd, n)
	}
	if n > planner.MaxServers {
		return fmt.Errorf("%s: --servers %d: want at most %s workers (a generous cluster: the policies' work grows with the workers, so far more would run for minutes)",
			cmd, n, words.Thousands(planner.MaxServers))
	}
	return nil
}

// planParse checks the arguments (none), --format, --jobs (when needJobs),
// --servers, --knee-alpha and --policy (numeric allowed when allowNumeric)
// and that no float flag is NaN or infinite; its errors are bad input.
func planParse(c *cli.Context, needJobs, allowNumeric bool) (planSetup, error) {
	if err := noArgs(c.Command.Name, c); err != nil {
		return planSetup{}, err
	}
	s := planSetup{format: c.String("format"), servers: c.Int("servers"), alpha: c.Float64("knee-alpha")}
	if err := planCheckFormat(s.format); err != nil {
		return s, badInput(err)
	}
	if err := planRequire(c, needJobs); err != nil {
		return s, badInput(err)
	}
	if err := planCheckServers(c.Command.Name, s.servers); err != nil {
		return s, badInput(err)
	}
	if err := finiteFlags(c); err != nil {
		return s, err
	}
	if !(s.alpha > 0 && s.alpha < 1) {
		return s, badInput(fmt.Errorf("%s: --knee-alpha %g: want 0 < alpha < 1", c.Command.Name, s.alpha))
	}
	if err := emptyPath(c, "plot", "no figure is drawn"); err != nil {
		return s, err
	}
	// --plot (plan's and simulate's) must not replace the jobs file
	if plot, jobs := c.String("plot"), c.String("jobs"); plot != "" && jobs != "" {
		if err := notAnInput(c.Command.Name, "plot", plot, nil, []input{namedInput(jobs, "--jobs")}); err != nil {
			return s, err
		}
	}
	var err error
	if s.names, err = planPolicies(strings.TrimSpace(c.String("policy")), s.alpha, allowNumeric); err != nil {
		return s, badInput(err)
	}
	if pol := strings.TrimSpace(c.String("policy")); c.IsSet("knee-alpha") && pol != "all" && !slices.Contains(s.names, "knee") && !slices.Contains(s.names, "numeric") {
		// (it was taken without a word; numeric starts from every
		// heuristic's plan, knee's among them)
		users := "knee and all use it"
		if allowNumeric {
			users = "knee, numeric and all use it"
		}
		w := fmt.Sprintf("--knee-alpha %g: --policy %s does not use it (%s), so it changes nothing", s.alpha, pol, users)
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		s.warnings = append(s.warnings, w) // (the json's too: a review)
	}
	return s, nil
}

// planLoadJobs reads --jobs for s, with --p (when set) as the exponent of the
// jobs with neither p nor model, named on stderr; it checks that fcfs-rigid
// (when among the policies) can place every job. Its errors are bad input.
//
// Under --policy all, a job whose rigid_workers exceed the servers leaves
// fcfs-rigid out of s.names, with a warning (as report does: the other
// policies can run it); a fcfs-rigid named on its own or in a list makes
// it an error at the job's cell.
func planLoadJobs(c *cli.Context, s *planSetup) ([]planner.Job, error) {
	// warn says w on stderr and keeps it for the json, whose readers saw
	// the per-policy warnings alone
	warn := func(format string, a ...any) {
		w := fmt.Sprintf(format, a...)
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		s.warnings = append(s.warnings, w)
	}
	path := c.String("jobs")
	var p float64
	if c.IsSet("p") {
		if p = c.Float64("p"); !(p > 0 && p <= 1) {
			return nil, badInput(fmt.Errorf("%s: --p %g: want a speedup exponent in (0, 1]", c.Command.Name, p))
		}
	}
	// --plot must not replace a model file that a row names either (see
	// planParse for the jobs file): known once the file is read, still
	// before anything is written
	plot := c.String("plot")
	var models []input
	// the reader's warnings (an unknown column) too: said and kept
	o := planReadOptions{p: p, cmd: c.Command.Name, warn: func(err error) { warn("%s", strings.TrimPrefix(err.Error(), "planner: ")) },
		used: func(m string) { models = append(models, input{path: m, what: "a model file named in --jobs " + path}) }}
	all := strings.TrimSpace(c.String("policy")) == "all"
	if slices.Contains(s.names, "fcfs-rigid") && !all {
		o.servers = s.servers // fcfs-rigid must be able to place every job
	}
	jobs, def, err := planReadJobsUsing(path, o)
	if err == nil && all && slices.Contains(s.names, "fcfs-rigid") {
		if why := planner.RigidTooWide(jobs, float64(s.servers)); why != "" {
			s.names = slices.DeleteFunc(slices.Clone(s.names), func(n string) bool { return n == "fcfs-rigid" })
			warn("policy fcfs-rigid left out: %s", why)
		}
	}
	if errors.Is(err, planner.ErrNoCurve) {
		return nil, badInput(fmt.Errorf("%w (or give --p P, a speedup exponent in (0, 1] for the jobs without one)", err))
	}
	if err != nil {
		return nil, badInput(err)
	}
	if slices.Contains(s.names, "fcfs-rigid") && s.servers > 1 {
		if w := rigidDefaultWarning(jobs); w != "" {
			warn("%s", w)
		}
	}
	if plot != "" {
		if err := notAnInput(c.Command.Name, "plot", plot, nil, models); err != nil {
			return nil, err
		}
	}
	if len(def) > 0 {
		warn("--p %g for %d of %d jobs, which have neither p nor model: %s",
			p, len(def), len(jobs), nameList(def, 8))
	} else if c.IsSet("p") {
		// --p fills in only: say it did nothing rather than let it
		// read as an override
		warn("--p %g applies to no job: every row of %s has p or model, which --p does not replace",
			p, path)
	}
	// the caps apply to every policy but fcfs-rigid, and not under
	// simulate's energy accounting (which gives every job a power law)
	capped := slices.ContainsFunc(s.names, func(n string) bool { return n != "fcfs-rigid" })
	if c.IsSet("energy-alpha") && c.Float64("energy-alpha") > 0 {
		capped = false
	}
	peaks := planJobPeaks(jobs, float64(s.servers))
	for _, w := range planPeakWarnings(jobs, peaks) {
		if !capped {
			break
		}
		warn("%s", w)
	}
	if w := superlinearJobs(jobs, float64(s.servers)); w != "" {
		warn("%s", w)
	}
	for _, w := range planBeyondFitWarnings(jobs, peaks) {
		if !capped {
			break // (fcfs-rigid alone holds rigid_workers; speed scaling drops the curves)
		}
		warn("%s", w)
	}
	if !(c.Float64("energy-alpha") > 0) { // (speed scaling replaces every curve)
		// fcfs-rigid alone holds each job at its rigid count
		for _, w := range planStalenessWarnings(jobs, peaks, capped, float64(s.servers)) {
			warn("%s", w)
		}
	}
	if !(c.Float64("energy-alpha") > 0) { // (speed scaling replaces every curve)
		for _, w := range planBelowFitWarnings(jobs) {
			warn("%s", w)
		}
	}
	return jobs, nil
}

// planStalenessWarnings names, per asynchronous fitted model whose
// staleness cost the data did not identify (taken as 0), the jobs on it
// that can get more than one worker, as predict, check and report say of
// the model: their speedups to the target leave staleness out (plan and
// simulate said nothing, and their ranges name the staleness's intervals,
// [0, 0] for such a model).
//
// flexible says a policy that shares workers is planned (the jobs can get
// up to their peaks); else fcfs-rigid alone, which holds each job at its
// rigid count on n servers (a job of rigid_workers 8 on such a model was
// planned at a speedup of 3.17 without a word).
func planStalenessWarnings(jobs []planner.Job, peaks []jobPeak, flexible bool, n float64) []string {
	var order []*fit.Model
	ids := map[*fit.Model][]string{}
	for i, j := range jobs {
		m, ok := j.Curve.(*fit.Model)
		if !ok {
			continue
		}
		most := int(math.Min(peaks[i].limit, peaks[i].peak))
		if !flexible {
			most = j.RigidOn(n)
		}
		if !stalenessUnknown(m, most) {
			continue
		}
		if ids[m] == nil {
			order = append(order, m)
		}
		ids[m] = append(ids[m], j.ID)
	}
	var out []string
	for _, m := range order {
		what, its := "job "+cellText(ids[m][0])+"'s model", "its speedup past 1 worker leaves"
		if n := len(ids[m]); n > 1 {
			what, its = fmt.Sprintf("the model of %d jobs (%s)", n, nameList(ids[m], 8)), "their speedups past 1 worker leave"
		}
		out = append(out, fmt.Sprintf("%s: %s: %s staleness out, so more workers may gain less than planned, and the ranges do not widen for it (fit loss curves at two or more worker counts to measure it)", what, stalenessUnknownText, its))
	}
	return out
}

// planBelowFitWarnings names, per fitted model whose data start above one
// worker, the jobs that run on it: a job's size is its time on one worker,
// and its speedup at k workers is over one worker, which the model
// extrapolates below its data (predict, check and report warned; plan and
// simulate did not: the review of 2026-12-07). One line per model.
func planBelowFitWarnings(jobs []planner.Job) []string {
	var models []*fit.Model
	ids := map[*fit.Model][]string{}
	for _, j := range jobs {
		m, ok := j.Curve.(*fit.Model)
		if !ok || m.FewestWorkers() <= 1 {
			continue
		}
		if ids[m] == nil {
			models = append(models, m)
		}
		ids[m] = append(ids[m], j.ID)
	}
	var out []string
	for _, m := range models {
		what := "job " + cellText(ids[m][0]) + " runs"
		if n := len(ids[m]); n > 1 {
			what = fmt.Sprintf("%d jobs (%s) run", n, nameList(ids[m], 8))
		}
		out = append(out, fmt.Sprintf("%s on a model fitted on %s and more: its size is its time on one worker, and the speedups that divide it are over one worker, which the model extrapolates below its data (predict warns the same), so the completion times rest on that extrapolation",
			what, workersWord(m.FewestWorkers())))
	}
	return out
}

// planBeyondFitWarnings names, per fitted model, the jobs that can get more
// workers than the model was fitted on (up to their max_workers, the
// servers, or the count where their curve is fastest, whichever is least:
// peaks, of planJobPeaks): their speedups there are extrapolated, as predict warns at those
// counts. A job of a model fitted on 1 and 2 workers got 32 of 32 servers
// without a word (a review, 2026-12-06). One line per model.
func planBeyondFitWarnings(jobs []planner.Job, peaks []jobPeak) []string {
	type group struct {
		m    *fit.Model
		ids  []string
		most float64
	}
	var groups []*group
	byModel := map[*fit.Model]*group{}
	for i, j := range jobs {
		m, ok := j.Curve.(*fit.Model)
		if !ok {
			continue
		}
		limit := math.Min(peaks[i].limit, peaks[i].peak)
		if !(limit > float64(m.Reference.MaxWorkers)) {
			continue
		}
		g := byModel[m]
		if g == nil {
			g = &group{m: m}
			byModel[m] = g
			groups = append(groups, g)
		}
		g.ids = append(g.ids, j.ID)
		g.most = math.Max(g.most, limit)
	}
	var out []string
	for _, g := range groups {
		what, it, its := "job "+cellText(g.ids[0])+" can", "it runs", "its speedup"
		if len(g.ids) > 1 {
			what, it, its = fmt.Sprintf("%d jobs (%s) can", len(g.ids), nameList(g.ids, 8)), "they run", "their speedup"
		}
		on := fmt.Sprintf("%d to %s", g.m.FewestWorkers(), workersWord(g.m.Reference.MaxWorkers))
		if g.m.FewestWorkers() >= g.m.Reference.MaxWorkers {
			on = workersWord(g.m.Reference.MaxWorkers) + " only"
		}
		upTo := "up to " + workersWord(int(g.most))
		if len(g.ids) > 1 {
			upTo += " (the most any of them can)"
		}
		out = append(out, fmt.Sprintf("%s get %s, and the model %s on was fitted on %s: %s past %s is extrapolated (predict warns the same), so the shares and completion times that use it rest on the fitted form beyond the data; the ranges carry predict's intervals, which widen there",
			what, upTo, it, on, its, workersWord(g.m.Reference.MaxWorkers)))
	}
	return out
}

// nextCount is the worker count superlinearJobs tries after k: every one
// up to 64 (fitted counts are small), then doubling.
func nextCount(k float64) float64 {
	if k < 64 {
		return k + 1
	}
	return 2 * k
}

// superlinearJobs names the jobs whose fitted curve gives more than k times
// one worker's speed at some k workers (2 to 64, then doubling, up to the
// servers), as fit's warning does at the fitted counts and twice the most:
// the policies, heSRPT's closed form above all, take a speedup of at most
// the workers, and such a curve (a power law fitted with an exponent above
// 1) is an artefact of the data or of what they count (fit warns too). ""
// when there are none.
func superlinearJobs(jobs []planner.Job, n float64) string {
	var ids []string
	seen := map[planner.Speedup]bool{}
	for _, j := range jobs {
		if _, ok := j.Curve.(planner.PowerLaw); ok || j.Curve == nil {
			continue
		}
		comparable := reflect.TypeOf(j.Curve).Comparable()
		if comparable {
			if super, ok := seen[j.Curve]; ok {
				if super {
					ids = append(ids, j.ID)
				}
				continue
			}
		}
		super := false
		for k := 2.0; k <= n && !super; k = nextCount(k) {
			super = j.Curve.Speedup(k) > k*1.01
		}
		if comparable {
			seen[j.Curve] = super
		}
		if super {
			ids = append(ids, j.ID)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	what := "job " + cellText(ids[0]) + "'s fitted speedup is"
	if len(ids) > 1 {
		what = fmt.Sprintf("%d jobs' fitted speedups (%s) are", len(ids), nameList(ids, 8))
	}
	return what + " superlinear (more than k times one worker's speed at k workers): the policies take a speedup of at most the workers, so their shares and completion times rest on a curve the data or what they count made (see fit's warning)"
}

// jobPeak is a job's worker limit (its max_workers, else the servers) and,
// for a curve that is not a power law (fitted: power laws never fall), the
// count in 1..limit where it is fastest (planner.FastestWorkers).
type jobPeak struct {
	limit, peak float64
	fitted      bool
}

// planJobPeaks is each job's jobPeak on n servers, the search made once per
// curve and limit (jobs of one model share its curve): the peak warnings
// and the beyond-fit warnings read them both (each searched on its own).
func planJobPeaks(jobs []planner.Job, n float64) []jobPeak {
	type key struct {
		c     planner.Speedup
		limit float64
	}
	memo := map[key]float64{}
	out := make([]jobPeak, len(jobs))
	for i, j := range jobs {
		limit := n
		if j.MaxWorkers > 0 && float64(j.MaxWorkers) < n {
			limit = float64(j.MaxWorkers)
		}
		out[i] = jobPeak{limit: limit, peak: limit}
		if _, ok := j.Curve.(planner.PowerLaw); ok || j.Curve == nil {
			continue
		}
		k := key{j.Curve, limit}
		comparable := reflect.TypeOf(j.Curve).Comparable()
		peak, seen := 0.0, false
		if comparable {
			peak, seen = memo[k]
		}
		if !seen {
			peak = planner.FastestWorkers(j.Curve, limit)
			if comparable {
				memo[k] = peak
			}
		}
		out[i].peak, out[i].fitted = peak, true
	}
	return out
}

// rigidDefaultWarning names the jobs that hold 1 worker under fcfs-rigid
// because they have neither rigid_workers nor max_workers ("" when none):
// the default was in planner.md alone, and a large job on 1 worker read as
// the policy's fault. For more than one server (on one, every job holds 1).
func rigidDefaultWarning(jobs []planner.Job) string {
	var one []string
	for _, j := range jobs {
		if j.RigidWorkers == 0 && j.MaxWorkers == 0 {
			one = append(one, j.ID)
		}
	}
	if len(one) == 0 {
		return ""
	}
	have := "jobs have"
	if len(one) == 1 {
		have = "job has"
	}
	each := "each holds"
	if len(one) == 1 {
		each = "it holds" // ("1 job has ..., so each holds")
	}
	return fmt.Sprintf("fcfs-rigid: %d %s neither rigid_workers nor max_workers, so %s 1 worker under it (%s)", len(one), have, each, nameList(one, 8))
}

// planPeakWarnings names the jobs the planner caps below their max_workers
// and the servers because their curve is fastest there (peaks, of
// planJobPeaks; peakCause says why): every policy but
// fcfs-rigid gives them no more, and the workers they would waste go to
// other jobs or idle. One line per worker count.
func planPeakWarnings(jobs []planner.Job, peaks []jobPeak) []string {
	type line struct {
		k     float64
		cause string
	}
	byPeak := map[line][]string{}
	for i, j := range jobs {
		if p := peaks[i]; p.fitted && p.peak < p.limit {
			l := line{p.peak, peakCause(j.Curve, p.peak)}
			byPeak[l] = append(byPeak[l], j.ID)
		}
	}
	var out []string
	lines := slices.SortedFunc(maps.Keys(byPeak), func(a, b line) int {
		return cmp.Or(cmp.Compare(a.k, b.k), strings.Compare(a.cause, b.cause))
	})
	for _, l := range lines {
		ids := byPeak[l]
		what := "job " + cellText(ids[0]) + " is"
		if len(ids) > 1 {
			what = fmt.Sprintf("%d jobs (%s) are", len(ids), nameList(ids, 8))
		}
		out = append(out, fmt.Sprintf("%s fastest at %s: past it the fitted speedup gains nothing or falls (%s), so every policy but fcfs-rigid gives no more and the other workers go to other jobs or idle", what, workersWord(int(l.k)), l.cause))
	}
	return out
}

// peakCause says why curve c stops rising at k workers, from what its
// model has: a throughput that peaks (a saturated link or shard of the
// queueing model, else the fitted form's own shape), the staleness cost,
// the batch law's larger global batch. It named all three for any curve,
// a flat fitted table too, where it was none of them.
func peakCause(c planner.Speedup, k float64) string {
	m, ok := c.(*fit.Model)
	if !ok {
		return "the shape of the fitted curve"
	}
	n := int(k)
	var causes []string
	at := func(w int) float64 { return m.SamplesPerSecond(m.Config(model.Config{Workers: w})) }
	peaks := at(n+1) <= at(n)*(1+1e-9)
	if peaks {
		if m.Queueing != nil {
			causes = append(causes, "its throughput peaks: a saturated link or shard")
		} else {
			causes = append(causes, fmt.Sprintf("its throughput peaks there in the fitted %s form", m.Family))
		}
	}
	if m.EfficiencyVaries() {
		if m.Mode == "async" {
			cost := "the staleness cost"
			if e := m.Efficiency; e != nil && e.LambdaLo == 0 && e.Lambda > 0 && !peaks {
				// (fit said lambda's interval reaches 0, and this said
				// the cap as a fact; not where the throughput peaks
				// there too, which holds it with no cost as well)
				cost += fmt.Sprintf(": lambda %.4g, whose %.0f%% interval [0, %.4g] reaches 0, so with no cost the job may scale further", e.Lambda, 100*m.Level, e.LambdaHi)
			}
			causes = append(causes, cost)
		} else {
			causes = append(causes, "the larger global batch's extra steps")
		}
	}
	if len(causes) == 0 {
		return "the shape of the fitted curve"
	}
	return strings.Join(causes, "; ")
}

// planWriteJSON writes out as indented json: the one object when there is
// one, else the list. The list is written one element at a time, as
// jsontext.MarshalIndent of the whole list writes it, byte for byte: that held
// the whole text at once, in buffers grown by doubling and copied (plan
// --policy all --format json on 82,247 jobs peaked at about 1 GB for 330 MB
// of text). Every element is encoded once first, so that a value json
// cannot write (NaN, an infinity) still fails before anything is written.
func planWriteJSON[T any](w io.Writer, out []T) error {
	if len(out) <= 1 {
		var v any = out
		if len(out) == 1 {
			v = out[0]
		}
		b, err := jsontext.MarshalIndent(v, "", "  ")
		if err != nil {
			return withCode(exitFailure, err)
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	check := json.NewEncoder(io.Discard) // its buffer is reused
	for _, v := range out {
		if err := check.Encode(v); err != nil {
			return withCode(exitFailure, err)
		}
	}
	sep := "[\n  "
	for _, v := range out {
		b, err := jsontext.MarshalIndent(v, "  ", "  ")
		if err != nil {
			return withCode(exitFailure, err)
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		sep = ",\n  "
	}
	_, err := io.WriteString(w, "\n]\n")
	return err
}

// planWritePNG renders f as a PNG at path, never leaving a partial file.
func planWritePNG(path string, f *plots.Figure) error {
	var buf bytes.Buffer
	if err := f.WritePNG(&buf); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

// planRequire reports a missing --servers (or --jobs) as bad input.
func planRequire(c *cli.Context, jobs bool) error {
	if jobs && !c.IsSet("jobs") {
		return fmt.Errorf("%s: missing --jobs jobs.csv", c.Command.Name)
	}
	if !c.IsSet("servers") {
		return fmt.Errorf("%s: missing --servers N", c.Command.Name)
	}
	return nil
}

func planCheckFormat(f string) error {
	switch f {
	case "table", "json", "csv":
		return nil
	}
	return fmt.Errorf("--format %q: want table, json or csv", f)
}

// planJob is one job of a policy's plan in the json output.
type planJob struct {
	Job               string  `json:"job"`
	Arrival           float64 `json:"arrival"`
	Size              float64 `json:"size"`
	Completion        float64 `json:"completion"`
	FlowTime          float64 `json:"flow_time"`
	Slowdown          float64 `json:"slowdown"`
	Workers           float64 `json:"workers"`
	CompletionInteger float64 `json:"completion_integer"`
	FlowTimeInteger   float64 `json:"flow_time_integer"`
	WorkersInteger    int     `json:"workers_integer"`
	// CompletionRange is the least and most completion over the plan and
	// the plans made again with the fitted curves at the low and at the
	// high ends of their 90% intervals (ideal shares; absent when no job
	// is on a fitted model).
	CompletionRange *[2]float64 `json:"completion_range,omitempty"`
}

type planSummary struct {
	MeanFlowTime float64 `json:"mean_flow_time"`
	MeanSlowdown float64 `json:"mean_slowdown"`
	P99FlowTime  float64 `json:"p99_flow_time"`
	Makespan     float64 `json:"makespan"`
	// MeanWeightedFlow is as planPolicy's, on whole workers.
	MeanWeightedFlow float64 `json:"mean_weighted_flow_time,omitempty"`
	// Plan is, for numeric, whose whole-worker plan this is: "rounded"
	// (its plan of ideal shares, rounded), "searched" (its priorities
	// searched again on whole workers) or the heuristic whose plan was
	// best (planner.OptimizeWhole keeps the best of them all).
	Plan string `json:"plan,omitempty"`
	// Rounded is, for numeric, its plan rounded by its objective: the
	// weighted mean flow time when the jobs have weights, else the mean.
	Rounded float64 `json:"rounded_objective,omitempty"`
}

// planClosedForm is heSRPT's closed form beside the replay.
type planClosedForm struct {
	Objective    string  `json:"objective"`
	Optimum      float64 `json:"optimum"`
	MeanFlowTime float64 `json:"mean_flow_time"`
	MeanSlowdown float64 `json:"mean_slowdown"`
	MaxRelDiff   float64 `json:"max_rel_diff_vs_replay"`
}

// planPolicy is one policy's plan in the json output.
type planPolicy struct {
	Policy       string  `json:"policy"`
	MeanFlowTime float64 `json:"mean_flow_time"`
	// MeanWeightedFlow is sum w T / sum w, with ideal shares, when a job
	// has a weight other than 1 (the objective numeric minimises).
	MeanWeightedFlow float64 `json:"mean_weighted_flow_time,omitempty"`
	MeanSlowdown     float64 `json:"mean_slowdown"`
	P99FlowTime      float64 `json:"p99_flow_time"`
	Makespan         float64 `json:"makespan"`
	// MeanFlowRange and MeanWeightedFlowRange are as planJob's
	// CompletionRange.
	MeanFlowRange         *[2]float64 `json:"mean_flow_time_range,omitempty"`
	MeanWeightedFlowRange *[2]float64 `json:"mean_weighted_flow_time_range,omitempty"`
	// MeanSlowdownRange, P99FlowRange and MakespanRange are the same
	// replays' (ideal shares), in the JSON alone: the table has no room.
	MeanSlowdownRange *[2]float64     `json:"mean_slowdown_range,omitempty"`
	P99FlowRange      *[2]float64     `json:"p99_flow_time_range,omitempty"`
	MakespanRange     *[2]float64     `json:"makespan_range,omitempty"`
	Integer           planSummary     `json:"integer"`
	ClosedForm        *planClosedForm `json:"closed_form,omitempty"`
	Warnings          []string        `json:"warnings,omitempty"`
	Jobs              []planJob       `json:"jobs"`
	segments          []planner.Segment
	backlog           bool // the queue grows through the plan (growingQueue, ideal shares)
	backlogWhole      bool // and on whole workers (Integer's run)
}

func planAction(c *cli.Context) error {
	s, err := planParse(c, true, true)
	if err != nil {
		return err
	}
	if p := c.String("plot"); p != "" {
		if err := outFolder("plan", "plot", p); err != nil {
			return err
		}
	}
	jobs, err := planLoadJobs(c, &s)
	if err != nil {
		return err
	}
	// after the jobs: a --plot that names one of the inputs says so first
	if p := c.String("plot"); p != "" {
		if err := plotName("plan", p); err != nil {
			return err
		}
	}
	n := s.servers
	ends := planFindEnds(jobs)
	out, err := planPlans(jobs, s, c.String("plot") != "", ends, c.App.ErrWriter)
	if err != nil {
		return err
	}
	var backlog, wholeOnly []string
	for _, p := range out {
		switch {
		case p.backlog:
			backlog = append(backlog, p.Policy)
		case p.backlogWhole:
			wholeOnly = append(wholeOnly, p.Policy)
		}
	}
	if len(backlog) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", backlogWarning(backlog, c.String("jobs"), n))
	}
	// judged on the ideal shares alone, plan named no backlog where its
	// whole-worker columns, what a cluster can run, fell behind the
	// arrivals and simulate (whole workers by default) warned of it
	if len(wholeOnly) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: on whole workers (the table's whole-worker columns, what a cluster can run; on ideal shares they keep up) %s\n", backlogWarning(wholeOnly, c.String("jobs"), n))
	}
	if path := c.String("plot"); path != "" {
		if err := planPlot(path, out[0], jobs, float64(n)); err != nil {
			return withCode(exitFailure, err)
		}
		if len(out) > 1 {
			// (the figure of --policy all was hesrpt's, beside a table
			// whose best policy may be another, without a word)
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s draws the plan of %s alone, the first policy of %d (give --policy NAME for another's)\n", path, out[0].Policy, len(out))
		}
	}
	w := c.App.Writer
	switch s.format {
	case "json":
		// the jobs' warnings first, in each policy's (the json had the
		// policy's own alone; stderr says them once)
		for i := range out {
			// (numeric's search repeats one in its own words: "planner:
			// optimize: fcfs-rigid left out: ..." beside "policy
			// fcfs-rigid left out: ...")
			norm := func(w string) string {
				return strings.TrimPrefix(strings.TrimPrefix(w, "planner: optimize: "), "policy ")
			}
			own := slices.DeleteFunc(out[i].Warnings, func(w string) bool {
				return slices.ContainsFunc(s.warnings, func(j string) bool { return norm(j) == norm(w) })
			})
			out[i].Warnings = append(slices.Clone(s.warnings), own...)
		}
		return planWriteJSON(w, out)
	case "csv":
		for _, p := range out { // the table's note, which csv has no place for
			if note := planWholeNote(p); note != "" {
				fmt.Fprintf(c.App.ErrWriter, "sgdplan: note: %s\n", note)
			}
		}
		return planCSV(w, out)
	}
	if err := planTable(w, out, float64(n)); err != nil {
		return err
	}
	if len(ends.models) > 0 && planHasRanges(out) {
		_, err := fmt.Fprintf(w, "\n%s\n", ends.note("the plan made again"))
		return err
	}
	return nil
}

// planPlans makes the plans of s.names for jobs, with their ranges at
// ends, warnings on stderr; the first is recorded for the plot when plot.
// Each is kept as planKeep says.
func planPlans(jobs []planner.Job, s planSetup, plot bool, ends planEnds, stderr io.Writer) ([]planPolicy, error) {
	n, alpha := float64(s.servers), s.alpha
	var out []planPolicy
	var known map[string]planner.Result // the heuristics' plans, for numeric
	if len(s.names) > 1 && slices.Contains(s.names, "numeric") {
		known = map[string]planner.Result{}
	}
	for k, name := range s.names {
		p, err := planRun(jobs, n, name, alpha, k == 0 && plot, known)
		if err != nil {
			return nil, withCode(exitFailure, err)
		}
		if err := planRanges(&p, jobs, n, alpha, ends); err != nil {
			fmt.Fprintf(stderr, "sgdplan: warning: %v\n", err)
		}
		for _, w := range p.Warnings {
			fmt.Fprintf(stderr, "sgdplan: warning: %s: %s\n", p.Policy, planWarning(w))
		}
		out = append(out, planKeep(p, s.format, len(s.names), k == 0 && plot))
	}
	return out, nil
}

// planWarning is a policy's warning w as said after the policy's name
// (stderr, the report's page): numeric's from planner.Optimize lose their
// "planner: optimize: ", which said "numeric: planner: optimize:
// fcfs-rigid left out: ...". The json keeps w whole, its policy beside it.
func planWarning(w string) string {
	return strings.TrimPrefix(w, "planner: optimize: ")
}

// planKeep is what plan keeps of policy p's plan until it writes its
// output (format, of policies policies): a table of several policies shows
// their summary rows only, so p's rows of every job are dropped (kept for
// the plot of the first, when plot). Holding them for --policy all on
// 82,247 jobs took 8 MB a policy, about 90 MB in all, with the garbage
// collector's headroom twice that.
func planKeep(p planPolicy, format string, policies int, plot bool) planPolicy {
	if format == "table" && policies > 1 && !plot {
		p.Jobs = nil
	}
	return p
}

// planHasRanges reports whether a policy of out has ranges: those whose
// plans at the ends failed have none (a warning said why), the others do.
func planHasRanges(out []planPolicy) bool {
	return slices.ContainsFunc(out, func(p planPolicy) bool { return p.MeanFlowRange != nil })
}

// planPolicyFor is policy name for jobs on n servers: numeric searches
// for the jobs' allocation (its warnings returned), the others are fixed.
// known holds the plans (ideal shares) of heuristics already made for jobs
// on n servers, which numeric need not replay (nil: none).
func planPolicyFor(jobs []planner.Job, n float64, name string, alpha float64, known map[string]planner.Result) (planner.Policy, []string, error) {
	if name != "numeric" {
		pol, err := planner.NewPolicy(name, alpha)
		return pol, nil, err
	}
	o, warns, err := planOptimize(jobs, n, alpha, known)
	if err != nil {
		return nil, nil, err
	}
	return o.Policy, warns, nil
}

// planOptimize is numeric's search for jobs on n servers
// (planner.Optimize, given known) and its warnings.
func planOptimize(jobs []planner.Job, n, alpha float64, known map[string]planner.Result) (planner.Optimized, []string, error) {
	o, err := planner.Optimize(jobs, n, planner.FlowTime, &planner.OptimizeSettings{KneeAlpha: alpha, Known: known})
	if err != nil {
		return o, nil, err
	}
	var warns []string
	for _, w := range o.Warnings {
		warns = append(warns, w.Error())
	}
	if o.Policy.Name() != "numeric" && o.Evaluations > 0 { // (above MaxJobs it does not search, and says so)
		warns = append(warns, fmt.Sprintf("local search found nothing better than %s", o.Start))
	}
	return o, warns, nil
}

// planRun replays jobs under one policy, ideal and whole workers. known,
// when not nil, keeps the plans of each heuristic by name (whole workers
// under planner.WholeKnown), and gives numeric those already made (it
// replayed every heuristic again). numeric's whole-worker plan is the best
// of its plan rounded, its priorities searched on whole workers and every
// heuristic's (planner.OptimizeWhole).
func planRun(jobs []planner.Job, n float64, name string, alpha float64, record bool, known map[string]planner.Result) (planPolicy, error) {
	var o planner.Optimized // numeric's search
	var pol planner.Policy
	var warns []string
	var err error
	if name == "numeric" {
		o, warns, err = planOptimize(jobs, n, alpha, known)
		pol = o.Policy
	} else {
		pol, warns, err = planPolicyFor(jobs, n, name, alpha, known)
	}
	if err != nil {
		return planPolicy{}, err
	}
	ideal, err := planner.Simulate(jobs, pol, planner.Settings{Servers: n, Record: record})
	if err != nil {
		return planPolicy{}, err
	}
	var w planner.OptimizedWhole
	if name == "numeric" {
		w, err = planner.OptimizeWhole(jobs, n, planner.FlowTime, o, &planner.OptimizeSettings{KneeAlpha: alpha, Known: known})
	} else {
		w.Result, err = planner.Simulate(jobs, pol, planner.Settings{Servers: n, Integer: true})
	}
	if err != nil {
		return planPolicy{}, err
	}
	whole := w.Result
	if known != nil && name != "numeric" {
		known[name], known[planner.WholeKnown(name)] = ideal, whole
	}
	p := planPolicy{
		Policy: name, MeanFlowTime: ideal.MeanResponse, MeanSlowdown: ideal.MeanSlowdown,
		P99FlowTime: ideal.P99Response, Makespan: lastCompletion(ideal),
		Integer:  planSummary{MeanFlowTime: whole.MeanResponse, MeanSlowdown: whole.MeanSlowdown, P99FlowTime: whole.P99Response, Makespan: lastCompletion(whole)},
		Warnings: warns, segments: ideal.Segments, backlog: backlogged(ideal), backlogWhole: backlogged(whole),
	}
	sw, weighted := planWeights(jobs)
	if weighted {
		p.MeanWeightedFlow = ideal.WeightedFlow / sw
		p.Integer.MeanWeightedFlow = whole.WeightedFlow / sw
	}
	if name == "numeric" {
		p.Integer.Plan, p.Integer.Rounded = w.From, w.Rounded/sw
		if w.From == "" {
			p.Integer.Plan = "rounded"
			if w.Searched {
				p.Integer.Plan = "searched"
			}
		}
	}
	for i, j := range ideal.Jobs {
		wj := whole.Jobs[i]
		p.Jobs = append(p.Jobs, planJob{Job: j.ID, Arrival: j.Arrival, Size: j.Size, Completion: j.Completion,
			FlowTime: j.Response, Slowdown: j.Slowdown, Workers: j.Workers,
			CompletionInteger: wj.Completion, FlowTimeInteger: wj.Response, WorkersInteger: int(wj.Workers)})
	}
	if name == "hesrpt" || name == "hesrpt-slowdown" {
		cf, why := planClosed(jobs, n, name, ideal)
		p.ClosedForm = cf
		if why != "" {
			p.Warnings = append(p.Warnings, why)
		}
	}
	if gap := whole.MeanResponse/ideal.MeanResponse - 1; math.Abs(gap) > 0.05 {
		w := fmt.Sprintf(wholeGapOpening+" by %+.1f%% from the ideal shares", 100*gap)
		// a job on a share k < 1 whose curve gives s(k) > k (under p = 1
		// a share runs at its size, and such a job was named all the
		// same); ideal.Jobs are in the order of jobs
		at := -1
		for i, j := range ideal.Jobs {
			if j.Workers > 0 && j.Workers < 1 && jobs[i].Curve.Speedup(j.Workers) > j.Workers {
				at = i
				break
			}
		}
		if at >= 0 && gap > 0 {
			// (the ideal shares read as an achievable optimum: on 1
			// server they beat running the jobs one after the other)
			j := ideal.Jobs[at]
			w += fmt.Sprintf(": the ideal shares split workers (job %s starts on %.3g of one), each share k run at the curve's s(k) > k (k^p for p < 1), which no fraction of a machine gives; the whole-worker columns are what a cluster can run", cellText(j.ID), j.Workers)
			// and where whole workers make jobs wait, that queue is most
			// of the gap (300 jobs on 4 servers: +797.7%, said to be the
			// shares' speed alone)
			queued := 0
			for _, wj := range whole.Jobs {
				if wj.Queued {
					queued++
				}
			}
			if queued > 0 {
				w += fmt.Sprintf("; with whole workers %s of %d waited for a worker after arriving, a queue the ideal shares, which start every job at once, never form", words.Count(queued, "job"), len(whole.Jobs))
			}
		}
		p.Warnings = append(p.Warnings, w)
	}
	return p, nil
}

// lastCompletion is the makespan: the last completion, from time 0 (the
// jobs' arrivals are times after the start), not from the first arrival.
func lastCompletion(r planner.Result) float64 {
	t := 0.0
	for _, j := range r.Jobs {
		t = math.Max(t, j.Completion)
	}
	return t
}

// planWeights is the sum of the jobs' weights, and whether one is not 1.
func planWeights(jobs []planner.Job) (sum float64, weighted bool) {
	for _, j := range jobs {
		sum += j.EffectiveWeight()
		weighted = weighted || j.EffectiveWeight() != 1
	}
	return sum, weighted
}

// closedFormAgree is how far apart (relative) the replay of heSRPT's
// shares and the closed form's completions may be and still agree: the
// table says "agrees within" it, and a max_workers cap that leaves them
// this close never bound.
const closedFormAgree = 1e-9

// notPowerLaw says whether j's curve is not a planner.PowerLaw.
func notPowerLaw(j planner.Job) bool {
	_, ok := j.Curve.(planner.PowerLaw)
	return !ok
}

// planClosed returns heSRPT's closed form when it applies (all jobs present at once,
// one power law, no caps), or why not.
func planClosed(jobs []planner.Job, n float64, name string, ideal planner.Result) (*planClosedForm, string) {
	var p float64
	capped := false // a max_workers below the servers: the replay tells whether it binds
	x := make([]float64, len(jobs))
	w := make([]float64, len(jobs))
	for i, j := range jobs {
		pl, ok := j.Curve.(planner.PowerLaw)
		switch {
		case !ok && len(jobs) == 1:
			return nil, "" // one job: every worker up to its cap, the best there is
		case !ok:
			// (jobs that share one fitted model share a curve, but not a
			// power law: "the same power-law curve" read as if they had)
			return nil, fmt.Sprintf("heSRPT is optimal only when every job has the same power-law curve k^p; job %s's curve is a fitted model, not a power law, so it uses the median exponent (log s(n)/log n at n servers) as a heuristic (see numeric)", cellText(j.ID))
		case i > 0 && pl.P != p && !slices.ContainsFunc(jobs[i:], notPowerLaw):
			return nil, "heSRPT is optimal only when every job has the same power-law curve; here the exponents differ, so it uses the median exponent as a heuristic (see numeric)"
		case j.Arrival != jobs[0].Arrival:
			return nil, "jobs arrive over time: heSRPT is recomputed at each arrival (optimal only for jobs all present at once)"
		}
		capped = capped || j.MaxWorkers > 0 && float64(j.MaxWorkers) < n
		p = pl.P
		x[i] = j.Size
		w[i] = j.EffectiveWeight()
	}
	obj := planner.FlowTime
	if name == "hesrpt-slowdown" {
		obj = planner.Slowdown
	}
	off, err := planner.HeSRPT(x, w, p, n, obj)
	var we *planner.WeightOrderError
	switch {
	case errors.As(err, &we):
		what := "weight"
		if obj == planner.Slowdown {
			what = "weight/size"
		}
		return nil, fmt.Sprintf("no closed-form optimum: heSRPT finishes the smallest job first, the optimum when no larger job weighs more; job %q (size %.4g s) has %s %.4g, more than the smaller job %q (size %.4g s, %.4g), so heSRPT's shares are a heuristic here (numeric searches for better)",
			jobs[we.Larger].ID, we.SizeL, what, we.WeightL, jobs[we.Smaller].ID, we.SizeS, we.WeightS)
	case errors.Is(err, planner.ErrNotOrdered):
		return nil, "no closed-form optimum: " + strings.TrimPrefix(err.Error(), "planner: ") + "; heSRPT's shares are then a heuristic (numeric searches for better)"
	}
	if err != nil {
		return nil, err.Error()
	}
	cf := &planClosedForm{Objective: obj.String(), Optimum: off.Objective, MeanFlowTime: off.MeanFlowTime, MeanSlowdown: off.MeanSlowdown}
	for i, j := range ideal.Jobs { // flow times: the jobs may all arrive at a time after 0
		cf.MaxRelDiff = math.Max(cf.MaxRelDiff, math.Abs(j.Response-off.Completion[i])/off.Completion[i])
	}
	// A cap below the servers binds only if heSRPT's share of some job
	// reaches it; the replay (which caps) then parts from the closed form
	// (which does not). Refused outright, a cap of 3 on a job whose
	// largest share is 2.74 of 4 servers lost the optimum for nothing.
	if capped && !(cf.MaxRelDiff <= closedFormAgree) {
		return nil, "max_workers caps cut heSRPT's shares: the closed form does not apply"
	}
	return cf, ""
}

// wholeGapOpening opens plan's warning that whole workers change a
// policy's mean flow time much from its ideal shares (report repeats it
// for every policy its table ranks on the ideal shares).
const wholeGapOpening = "whole workers change the mean flow time"

// planTable prints plan's table; it returns the first error writing to
// stdout (the lines after the first table dropped theirs).
func planTable(stdout io.Writer, out []planPolicy, n float64) error {
	w := &stickyWriter{w: stdout}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	weighted := out[0].MeanWeightedFlow > 0
	head := "policy\tmean flow (s)\t"
	if weighted {
		head += "weighted mean flow (s)\t"
	}
	ranges := planHasRanges(out)
	if ranges {
		head = "policy\tmean flow (s)\trange\t"
		if weighted {
			head += "weighted mean flow (s)\trange\t"
		}
	}
	if ranges {
		head += "mean slowdown\trange\tp99 flow (s)\trange\tmakespan (s)\trange\t"
	} else {
		head += "mean slowdown\tp99 flow (s)\tmakespan (s)\t"
	}
	// with weights, the whole-worker columns give the weighted mean too:
	// numeric keeps the best of them by it, and the plain mean alone made
	// its pick look worse than srpt's (4.783 against 4.618, where the
	// weighted means are 3.794 against 5.718)
	whole := "whole workers: mean flow (s)\t"
	if weighted {
		whole += "weighted mean flow (s)\t"
	}
	fmt.Fprintf(tw, "%s%smean slowdown\t\n", head, whole)
	for _, p := range out {
		// each value, then its range when the table has them
		row := p.Policy + "\t"
		cell := func(v float64, r *[2]float64) {
			row += fmt.Sprintf("%.4g\t", v)
			if ranges {
				row += planRangeText(r) + "\t"
			}
		}
		cell(p.MeanFlowTime, p.MeanFlowRange)
		if weighted {
			cell(p.MeanWeightedFlow, p.MeanWeightedFlowRange)
		}
		cell(p.MeanSlowdown, p.MeanSlowdownRange)
		cell(p.P99FlowTime, p.P99FlowRange)
		cell(p.Makespan, p.MakespanRange)
		row += fmt.Sprintf("%.4g\t", p.Integer.MeanFlowTime)
		if weighted {
			row += fmt.Sprintf("%.4g\t", p.Integer.MeanWeightedFlow)
		}
		fmt.Fprintf(tw, "%s%.4g\t\n", row, p.Integer.MeanSlowdown)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range out {
		if p.ClosedForm != nil {
			agree := "the replay agrees within 1e-9 (relative)" // closedFormAgree
			if d := p.ClosedForm.MaxRelDiff; d > closedFormAgree {
				agree = fmt.Sprintf("the replay differs by %.1e (relative)", d)
			}
			// the optimum is a sum over the jobs (weighted), not a mean
			total := "total flow time %.6g s"
			if p.ClosedForm.Objective == "slowdown" {
				total = "total slowdown %.6g"
			}
			if p.MeanWeightedFlow > 0 { // jobs with weights: the weighted sum
				total = strings.Replace(total, "total ", "total weighted ", 1)
			}
			fmt.Fprintf(w, "%s closed form (%s-optimal, all jobs present at once): "+total+" (the optimum), mean flow %.6g s, mean slowdown %.6g; %s\n",
				p.Policy, strings.ReplaceAll(p.ClosedForm.Objective, " ", "-"), p.ClosedForm.Optimum, p.ClosedForm.MeanFlowTime, p.ClosedForm.MeanSlowdown, agree)
		}
	}
	for _, p := range out {
		if note := planWholeNote(p); note != "" {
			fmt.Fprintln(w, note)
		}
	}
	if len(out) == 1 {
		p := out[0]
		whole := "whole workers"
		if from := planWholeFrom(p); from != "" {
			whole += ": " + from
		}
		fmt.Fprintf(w, "\njobs under %s on %s (ideal shares, then %s):\n", p.Policy, words.Count(int(n), "worker"), whole)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		band := ""
		if ranges {
			band = "range\t"
		}
		// "at start": the share a job held when it started, which later
		// events change (a job at 1.3 workers that finished in a tenth of
		// its size read as a contradiction)
		fmt.Fprintf(tw, "job\tarrival (s)\tsize (s)\tworkers at start\tcompletion (s)\t%sflow (s)\tslowdown\twhole workers at start\tcompletion (s)\t\n", band)
		for _, j := range p.Jobs {
			if ranges {
				band = planRangeText(j.CompletionRange) + "\t"
			}
			fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%.4g\t%.6g\t%s%.6g\t%.4g\t%d\t%.6g\t\n", cellText(j.Job), j.Arrival, j.Size, j.Workers, j.Completion, band, j.FlowTime, j.Slowdown, j.WorkersInteger, j.CompletionInteger)
		}
		tw.Flush()
	}
	return w.err
}

// planWholeFrom is whose whole-worker plan numeric's row p shows when it
// is not its own plan rounded, in words; "" when it is (or p is another
// policy's).
func planWholeFrom(p planPolicy) string {
	switch p.Integer.Plan {
	case "", "rounded":
		return ""
	case "searched":
		return "its priorities searched again with whole-worker replays"
	}
	return p.Integer.Plan + "'s plan"
}

// planWholeNote says whose whole-worker plan numeric's row p shows
// (planWholeFrom) and how far it is below numeric's plan rounded; "" when
// it is that plan.
func planWholeNote(p planPolicy) string {
	from := planWholeFrom(p)
	if from == "" {
		return ""
	}
	what, v := "mean flow", p.Integer.MeanFlowTime
	if p.Integer.MeanWeightedFlow > 0 {
		what, v = "weighted mean flow", p.Integer.MeanWeightedFlow
	}
	return fmt.Sprintf("%s on whole workers: %s, %s %.4g s, %.3g%% below its plan rounded (%.4g s) (it keeps the best whole-worker plan of its plan rounded, its priorities searched again with whole-worker replays and every heuristic's)",
		p.Policy, from, what, v, 100*(1-v/p.Integer.Rounded), p.Integer.Rounded)
}

func planCSV(w io.Writer, out []planPolicy) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"policy", "job", "arrival", "size", "workers", "completion", "flow_time", "slowdown", "workers_integer", "completion_integer", "flow_time_integer", "completion_low", "completion_high"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) } // as json: every digit (10 printed arrivals of 1.23456789012345e11 as 1.23456789e+11)
	for _, p := range out {
		for _, j := range p.Jobs {
			lo, hi := "", "" // no job on a fitted model: empty
			if b := j.CompletionRange; b != nil {
				lo, hi = g(b[0]), g(b[1])
			}
			cw.Write([]string{p.Policy, j.Job, g(j.Arrival), g(j.Size), g(j.Workers), g(j.Completion), g(j.FlowTime), g(j.Slowdown), strconv.Itoa(j.WorkersInteger), g(j.CompletionInteger), g(j.FlowTimeInteger), lo, hi})
		}
	}
	cw.Flush()
	return cw.Error()
}

// planPlot draws the first policy's ideal allocation over time.
func planPlot(path string, p planPolicy, jobs []planner.Job, n float64) error {
	names := make([]string, len(jobs))
	for i, j := range jobs {
		names[i] = j.ID
	}
	f, err := plots.PlanFigure(planFigureData(p, names, n, nil))
	if err != nil {
		return err
	}
	return planWritePNG(path, f)
}

// planFigureData is the plan figure's input from a recorded replay p of
// the jobs named names on n servers (pal nil: the figure's own palette).
func planFigureData(p planPolicy, names []string, n float64, pal *plots.Palette) plots.PlanData {
	d := plots.PlanData{Policy: p.Policy, Servers: n, Completions: map[string]float64{}, Palette: pal, Names: names}
	for i, j := range p.Jobs {
		d.Completions[names[i]] = j.Completion
	}
	// the plan's own slices, shared: a map a segment cost 3.5 GB on the
	// Philly trace (160,000 segments of hundreds of jobs each)
	d.Segments = make([]plots.PlanSegment, 0, len(p.segments))
	for _, s := range p.segments {
		d.Segments = append(d.Segments, plots.PlanSegment{Start: s.Start, End: s.End, Jobs: s.Jobs, Workers: s.Workers})
	}
	sort.SliceStable(d.Segments, func(a, b int) bool { return d.Segments[a].Start < d.Segments[b].Start })
	return d
}
