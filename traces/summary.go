package traces

import (
	"cmp"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sgdplan/sgdplan/internal/words"
)

// RunSummary is what later steps need to know about one run: its
// configuration, steady-state throughput with an interval, per-phase moments,
// the staleness distribution and the loss curve. Times are seconds, rates per
// second. A value that cannot be computed is NaN (counts are 0).
//
// Steady state follows docs/validation-protocol.md: the run's wall time is
// [Start, End] (first iteration start to last iteration end over all
// workers); the window drops its first 10% and last 5%; UpdatesPerS is the
// job's global updates/s: the number of iterations whose end lies in the
// window divided by the window's length, and for a sync or allreduce run
// (whose step is one iteration of every worker, one update) divided by the
// workers too; SamplesPerS is Batch x iterations/s. Phase moments and the
// staleness of steps.csv are over the iterations that end in the window;
// staleness from updates.csv over the updates applied in the window.
type RunSummary struct {
	Run     string
	Workers int
	PS      int
	Batch   int
	Mode    string   // runs.csv mode, else DefaultMode(PS)
	Info    *RunInfo // the runs.csv row, nil when absent

	Steps       int64   // rows in steps.csv
	Start, End  float64 // wall time of the run, s
	WindowStart float64 // steady-state window, s
	WindowEnd   float64
	WindowSteps int64 // iterations that end in the window
	// WorkersSeen is the number of workers with rows in steps.csv. When it
	// is below Workers (one worker's profile converted with --workers N),
	// UpdatesPerS and SamplesPerS are those of the workers seen scaled by
	// Workers/WorkersSeen, with a warning: exact for synchronous steps (every
	// worker takes each step), an estimate for async (the absent workers at
	// the mean rate of those seen).
	WorkersSeen int
	// StepFiles are the steps files that hold the run's rows, in the order
	// read (none for steps not read from a file).
	StepFiles []string

	UpdatesPerS float64 // job updates/s in the window (sync: steps/s)
	// UpdatesPerSLo and UpdatesPerSHi bound a 95% interval of UpdatesPerS by
	// batch means: the window is cut into 10 equal parts and the spread of
	// their rates gives a Student-t interval (9 degrees of freedom).
	UpdatesPerSLo, UpdatesPerSHi float64
	SamplesPerS                  float64 // Batch x iterations/s (sync: x Workers x UpdatesPerS)

	Pull, Compute, Push Moments
	Iteration           Moments // end - start
	// PullPush is the sample covariance of the pull and the push of the
	// window's iterations that have both (s^2, NaN for fewer than 2): one
	// congested link makes them vary together, and the mean of their sum
	// varies more than their variances say.
	PullPush Covariance

	Staleness Staleness
	Loss      []LossPoint
	// LossSource is "evals.csv", "steps.csv" (per-step loss averaged in 20
	// bins of wall time) or "" when the run has no loss.
	LossSource string

	Warnings []error
}

// Moments are the sample moments of a phase time, s.
type Moments struct {
	N    int64
	Mean float64
	Var  float64 // sample variance (n-1), s^2
	SCV  float64 // squared coefficient of variation Var/Mean^2
}

// Staleness is the distribution of update staleness. Quantiles are
// nearest-rank: the smallest value with at least ceil(p*N) values at or below.
type Staleness struct {
	Source        string // "updates.csv", "steps.csv" or "" when unknown
	N             int64
	Mean          float64
	P50, P90, P99 int
	Max           int
}

// LossPoint is one point of a loss curve.
type LossPoint struct {
	Updates int64   // global updates so far, -1 when unknown
	Time    float64 // s, NaN when unknown
	Loss    float64
	// Span is the updates the point's loss is a mean over, centred on
	// Updates (a bin of per-step losses); 0 for one measurement (evals.csv).
	Span int64
}

// Middle is the update count the point stands for: Updates for one
// measurement; for a bin of the Span updates done+1 .. done+Span, whose
// Updates is done + (Span+1)/2 in whole updates, the exact centre
// done + (Span+1)/2 (half an update later for an even Span).
func (p LossPoint) Middle() float64 {
	if p.Span <= 0 {
		return float64(p.Updates)
	}
	done := p.Updates - (p.Span+1)/2
	return float64(done) + float64(p.Span+1)/2
}

// FewInWindow is the count of iterations in a run's steady-state window
// below which its summary warns that the throughput is uncertain (fit
// repeats the warning for the runs it fits).
const FewInWindow = 30

const (
	windowHead   = 0.10 // fraction of the wall time dropped at the start
	windowTail   = 0.05 // and at the end
	rateBatches  = 10   // sub-windows of the batch-means interval
	t975df9      = 2.2621571627409915
	lossBins     = 20
	unknownValue = -1
)

// Summarize summarizes every run of t: the runs of steps.csv, then those that
// appear only in runs.csv, evals.csv or updates.csv. Runs with steps come
// first, ordered by workers, ps, batch, then name; then the others by name.
func Summarize(t *Trace) []RunSummary {
	s := newSummarizer()
	for i := range t.Steps {
		s.scan(&t.Steps[i])
	}
	s.openWindows()
	for i := range t.Steps {
		s.step(&t.Steps[i], "", 0)
	}
	for i := range t.Updates {
		s.update(&t.Updates[i])
	}
	for i := range t.Evals {
		s.eval(&t.Evals[i])
	}
	for i := range t.Runs {
		s.info(&t.Runs[i])
	}
	return s.finish()
}

// SummarizePaths is Summarize on the files that paths name (see Files),
// without keeping the steps in memory: steps.csv is read twice, first for
// each run's wall time, then for the statistics of its window. Memory per run
// is a constant plus one counter and one record per worker, one counter per
// distinct staleness value, and the rows of evals.csv (which are kept as the
// loss curve); a worker whose rows are out of step order also has its rows
// kept in the second pass (32 bytes a row), for the overlap check. A run in
// which an iteration of a worker starts before the end of an earlier
// iteration of the worker has an *OverlapWarning with the file and line of
// the worst.
func SummarizePaths(paths ...string) ([]RunSummary, []error, error) {
	return SummarizeFS(nil, paths...)
}

// SummarizeFS is SummarizePaths on the file system fsys (nil: the operating
// system's), e.g. the embedded testdata of the demo.
func SummarizeFS(fsys fs.FS, paths ...string) ([]RunSummary, []error, error) {
	files, err := FilesFS(fsys, paths...)
	if err != nil {
		return nil, nil, err
	}
	s := newSummarizer()
	var warnings []error
	// pass streams the files; warnings are kept from the first read of each.
	var file string // the file being read
	pass := func(h Handlers, warn func(Kind) bool, dups *crossFiles) error {
		for _, f := range files {
			file = f.Path
			w, err := forEach(f, h, dups)
			if warn(f.Kind) {
				warnings = append(warnings, w...)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	isSteps := func(k Kind) bool { return k == KindSteps }
	// the first pass also finds a step that two files hold
	x := newCrossFiles(files)
	if err := pass(Handlers{stepAt: func(st Step, line int) error { s.scanAt(&st, file, line); return nil }}, isSteps, x); err != nil {
		return nil, warnings, err
	}
	x.frozen = true // the second pass checks the updates against the runs of steps.csv
	s.openWindows()
	err = pass(Handlers{
		stepAt: func(st Step, line int) error { s.step(&st, file, line); return nil },
		Update: func(u Update) error { s.update(&u); return nil },
		Eval:   func(e Eval) error { s.eval(&e); return nil },
		Run:    func(r RunInfo) error { s.info(&r); return nil },
	}, func(k Kind) bool { return !isSteps(k) }, x)
	if err != nil {
		return nil, warnings, err
	}
	return s.finish(), warnings, nil
}

// RunWarning is a warning on one run of a summary: its text is
// fmt.Sprintf(Format, Args...) after "traces: run %q: ". Format tells
// warnings of one kind apart whatever their numbers (inspect gives the
// first few of a kind and counts the rest: 1,000 short runs printed 1,000
// lines).
type RunWarning struct {
	Run    string
	Format string
	Args   []any
}

// DisjointFormat is the Format of the RunWarning of a run two of whose
// workers never ran at the same time (their steps' spans do not meet):
// fit repeats it, since the run's rate is then wrong.
const DisjointFormat = "workers %d and %d never ran at the same time, nor any worker between them (worker %d's steps span [%.6g, %.6g] s, worker %d's [%.6g, %.6g] s): separate clocks, or two runs under one name? The rate counts the steps over the run's whole wall time, the gap too, and is then too low"

func (w *RunWarning) Error() string { return fmt.Sprintf("traces: run %q: %s", w.Run, w.Message()) }

// Message is the warning without its run.
func (w *RunWarning) Message() string { return fmt.Sprintf(w.Format, w.Args...) }

type summarizer struct {
	runs map[string]*runAcc
	last *runAcc
}

// runAcc accumulates one run.
type runAcc struct {
	sum     RunSummary
	info    RunInfo
	hasInfo bool

	// both passes: the iterations of a worker that overlap (overlap.go):
	// a record per worker with rows, and the rows of a worker whose rows
	// are out of step order
	ov overlapRun

	// second pass
	binLen   float64 // length of a rate sub-window
	counts   [rateBatches]int64
	phases   [4]welford
	pullPush CoAccumulator
	stSteps  map[int]int64 // staleness histogram from steps.csv
	stUpd    map[int]int64 // from updates.csv
	// updates.csv rows of a run with steps outside its window: how many,
	// and their first and last time
	updOut               int64
	updOutMin, updOutMax float64
	perWk                map[int]int64 // iterations in the window per worker
	lossSum              [lossBins]float64
	lossN                [lossBins]int64
	endsIn               [lossBins]int64 // iterations ending in each loss bin
	evals                []LossPoint
	hasSteps             bool
	mixed                bool
	// iterations in the window whose pull + compute + push exceed
	// end - start, and the largest excess, s
	overlong  int64
	maxExcess float64
	// iterations in the window with all three phases whose sum is under
	// end - start / underlongFactor
	underlong int64
}

// nz0 is v, or 0 for an absent (NaN) phase time.
func nz0(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// overlongFactor is how many times end - start an iteration's phases may
// add up to before they are said to disagree with it: a trace converted
// from a profiler counts an all-reduce or a send that overlaps the
// backward pass in push and in compute (formats.md), up to twice the
// iteration, so only a gross excess is a fault (end == start with phase
// times, phases in other units than start and end). overlongShare is the
// share of the window's iterations past it that is warned of.
const (
	overlongFactor = 3
	overlongShare  = 0.01
	// underlongFactor: all three phases adding up to under 1/100 of end -
	// start are in other units than start and end (seconds against
	// milliseconds gives 1/1000), not an iteration that waits 99% of its
	// time; only the upward check existed, and start and end in ms with
	// phases in s gave a rate 1000 times too low without a word.
	underlongFactor = 100
)

func newSummarizer() *summarizer { return &summarizer{runs: map[string]*runAcc{}} }

func (s *summarizer) run(name string) *runAcc {
	if s.last != nil && s.last.sum.Run == name {
		return s.last
	}
	a := s.runs[name]
	if a == nil {
		a = &runAcc{sum: RunSummary{Run: name, Start: math.Inf(1), End: math.Inf(-1)}}
		s.runs[name] = a
	}
	s.last = a
	return a
}

// scan is the first pass over steps: configuration and wall time.
func (s *summarizer) scan(st *Step) { s.scanAt(st, "", 0) }

// scanAt is scan of the row at file:line ("" and 0 when unknown). A run
// whose rows give two configurations is a warning here, in memory (the
// summary takes the last); from files it is the steps reader's error
// (configFault: a run is one configuration, in every file), before the row
// comes here.
func (s *summarizer) scanAt(st *Step, file string, line int) {
	a := s.run(st.Run)
	if a.hasSteps && (a.sum.Workers != st.Workers || a.sum.PS != st.PS || a.sum.Batch != st.Batch) && !a.mixed {
		a.mixed = true
		a.sum.Warnings = append(a.sum.Warnings, fmt.Errorf("traces: run %q: rows with workers, ps, batch = %d, %d, %d and %d, %d, %d (several files?); the summary uses the last",
			st.Run, a.sum.Workers, a.sum.PS, a.sum.Batch, st.Workers, st.PS, st.Batch))
	}
	a.hasSteps = true
	a.sum.Workers, a.sum.PS, a.sum.Batch = st.Workers, st.PS, st.Batch
	a.sum.Steps++
	if n := len(a.sum.StepFiles); file != "" && (n == 0 || a.sum.StepFiles[n-1] != file) {
		a.sum.StepFiles = append(a.sum.StepFiles, file)
	}
	a.ov.add(st, file, line)
	a.sum.Start = math.Min(a.sum.Start, st.Start)
	a.sum.End = math.Max(a.sum.End, st.End)
}

// openWindows fixes each run's steady-state window after the first pass.
func (s *summarizer) openWindows() {
	for _, a := range s.runs {
		if !a.hasSteps {
			continue
		}
		wall := a.sum.End - a.sum.Start
		a.sum.WindowStart = a.sum.Start + windowHead*wall
		a.sum.WindowEnd = a.sum.End - windowTail*wall
		a.binLen = (a.sum.WindowEnd - a.sum.WindowStart) / rateBatches
		a.stSteps = map[int]int64{}
		a.perWk = map[int]int64{}
	}
}

// inWindow reports whether t lies in the closed window.
func (a *runAcc) inWindow(t float64) bool {
	return a.hasSteps && t >= a.sum.WindowStart && t <= a.sum.WindowEnd
}

// step is the second pass over steps, st read at file:line ("" and 0 when
// unknown).
func (s *summarizer) step(st *Step, file string, line int) {
	a := s.run(st.Run)
	a.ov.again(st, file, line)
	wall := a.sum.End - a.sum.Start
	if wall > 0 {
		b := min(int((st.End-a.sum.Start)/wall*lossBins), lossBins-1)
		a.endsIn[b]++
		if !math.IsNaN(st.Loss) && !math.IsInf(st.Loss, 0) { // a diverged step would make its bin's mean infinite
			a.lossSum[b] += st.Loss
			a.lossN[b]++
		}
	}
	if !a.inWindow(st.End) {
		return
	}
	a.sum.WindowSteps++
	a.perWk[st.Worker]++
	if a.binLen > 0 {
		a.counts[min(int((st.End-a.sum.WindowStart)/a.binLen), rateBatches-1)]++
	}
	for i, v := range [4]float64{st.Pull, st.Compute, st.Push, st.End - st.Start} {
		if !math.IsNaN(v) {
			a.phases[i].add(v)
		}
	}
	if !math.IsNaN(st.Pull) && !math.IsNaN(st.Push) {
		a.pullPush.Add(st.Pull, st.Push)
	}
	// The phases lie between start (the pull begins) and end (the push
	// is acknowledged): a sum far past end - start says the timestamps
	// are not the iteration's (overlongFactor).
	if sum, wall := nz0(st.Pull)+nz0(st.Compute)+nz0(st.Push), st.End-st.Start; sum > wall*overlongFactor+1e-6 {
		a.overlong++
		a.maxExcess = max(a.maxExcess, sum-wall)
	} else if !math.IsNaN(st.Pull) && !math.IsNaN(st.Compute) && !math.IsNaN(st.Push) && sum*underlongFactor < wall {
		a.underlong++
	}
	if st.Staleness >= 0 {
		a.stSteps[st.Staleness]++
	}
}

func (s *summarizer) update(u *Update) {
	a := s.run(u.Run)
	if a.hasSteps && !a.inWindow(u.Time) {
		if a.updOut == 0 || u.Time < a.updOutMin {
			a.updOutMin = u.Time
		}
		if a.updOut == 0 || u.Time > a.updOutMax {
			a.updOutMax = u.Time
		}
		a.updOut++
		return
	}
	if a.stUpd == nil {
		a.stUpd = map[int]int64{}
	}
	a.stUpd[u.Staleness]++
}

func (s *summarizer) eval(e *Eval) {
	if math.IsNaN(e.Loss) {
		return
	}
	a := s.run(e.Run)
	a.evals = append(a.evals, LossPoint{Updates: e.Updates, Time: e.Time, Loss: e.Loss})
}

func (s *summarizer) info(r *RunInfo) {
	a := s.run(r.Run)
	a.info, a.hasInfo = *r, true
}

// finish computes the summaries and orders them.
func (s *summarizer) finish() []RunSummary {
	out := make([]RunSummary, 0, len(s.runs))
	for _, a := range s.runs {
		out = append(out, a.result())
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := &out[i], &out[j]
		if (x.Steps == 0) != (y.Steps == 0) {
			return x.Steps > 0
		}
		if x.Workers != y.Workers {
			return x.Workers < y.Workers
		}
		if x.PS != y.PS {
			return x.PS < y.PS
		}
		if x.Batch != y.Batch {
			return x.Batch < y.Batch
		}
		return x.Run < y.Run
	})
	return out
}

func (a *runAcc) result() RunSummary {
	r := a.sum
	r.WorkersSeen = len(a.ov.workers)
	r.Mode = DefaultMode(r.PS)
	if a.hasInfo {
		info := a.info
		r.Info = &info
		if info.Mode != "" {
			r.Mode = info.Mode
		}
	}
	nan := math.NaN()
	r.UpdatesPerS, r.UpdatesPerSLo, r.UpdatesPerSHi, r.SamplesPerS = nan, nan, nan, nan
	r.Pull, r.Compute, r.Push, r.Iteration = a.phases[0].moments(), a.phases[1].moments(), a.phases[2].moments(), a.phases[3].moments()
	r.PullPush = a.pullPush.Covariance()
	warn := func(format string, args ...any) {
		r.Warnings = append(r.Warnings, &RunWarning{Run: r.Run, Format: format, Args: args})
	}
	if w := a.ov.warning(r.Run); w != nil {
		r.Warnings = append(r.Warnings, w)
	}
	if !a.hasSteps {
		r.Start, r.End, r.WindowStart, r.WindowEnd = nan, nan, nan, nan
		if len(a.evals) == 0 && a.stUpd == nil {
			warn("no steps, updates or evals (only runs.csv metadata)")
		} else {
			warn("no step rows (no steps.csv, or none of its rows are of this run): no step throughput or phase times")
		}
	} else {
		if wa, wb, sa, sb, ok := a.ov.disjoint(); ok {
			warn(DisjointFormat, wa, wb, wa, sa[0], sa[1], wb, sb[0], sb[1])
		}
		length := r.WindowEnd - r.WindowStart
		switch {
		case length <= 0:
			warn("wall time is zero: no steady-state window")
		case r.WindowSteps == 0:
			warn("no iteration ends in the steady-state window [%.4g, %.4g] s", r.WindowStart, r.WindowEnd)
		}
		if a.updOut > 0 && a.stUpd == nil && length > 0 {
			// all of them: a few outside are the window doing its work
			// (another clock, or times in other units than steps.csv's,
			// left the staleness unknown without a word)
			from := "unknown"
			if len(a.stSteps) > 0 {
				from = "from steps.csv's staleness column instead"
			}
			warn("all %d of its updates.csv rows (times %.4g to %.4g s) fall outside the steady-state window [%.4g, %.4g] s of its steps: staleness %s (are updates.csv's times on the clock, and in the units, of steps.csv?)", a.updOut, a.updOutMin, a.updOutMax, r.WindowStart, r.WindowEnd, from)
		}
		if length > 0 && r.WindowSteps > 0 {
			r.UpdatesPerS = float64(r.WindowSteps) / length
			r.SamplesPerS = float64(r.Batch) * r.UpdatesPerS
			var m welford
			for _, c := range a.counts {
				m.add(float64(c) / a.binLen)
			}
			half := t975df9 * math.Sqrt(m.variance()/rateBatches)
			r.UpdatesPerSLo, r.UpdatesPerSHi = math.Max(0, r.UpdatesPerS-half), r.UpdatesPerS+half
			if r.WindowSteps < FewInWindow {
				warn("only %s in the steady-state window: throughput is uncertain", words.Count(int(r.WindowSteps), "iteration"))
			}
			if a.overlong > 0 && float64(a.overlong) >= overlongShare*float64(r.WindowSteps) {
				warn("%d of %d iterations in the steady-state window have pull + compute + push more than %d times end - start (by up to %.4g s): start and end are not the iteration's, or the phases are in other units (trace-format.md); the phase means and the iteration time disagree", a.overlong, r.WindowSteps, overlongFactor, a.maxExcess)
			}
			if a.underlong > 0 && float64(a.underlong) >= overlongShare*float64(r.WindowSteps) {
				warn("%d of %d iterations in the steady-state window have pull + compute + push under 1/%d of end - start: the phases are in other units than start and end (seconds against milliseconds gives 1/1000; then the rate, from start and end, is off by as much), or the iteration mostly waits; the phase means and the iteration time disagree", a.underlong, r.WindowSteps, underlongFactor)
			}
			if missing := len(a.ov.workers) - len(a.perWk); missing > 0 {
				warn("%d of %d workers finish no iteration in the steady-state window", missing, r.Workers)
			}
			if n := len(a.ov.workers); n < r.Workers {
				f := float64(r.Workers) / float64(n)
				r.UpdatesPerS, r.UpdatesPerSLo, r.UpdatesPerSHi, r.SamplesPerS = f*r.UpdatesPerS, f*r.UpdatesPerSLo, f*r.UpdatesPerSHi, f*r.SamplesPerS
				if r.Mode == "async" {
					warn("steps.csv has rows of %d of its %d workers (one worker's trace converted with --workers %d?): updates/s are theirs scaled by %d/%d, an estimate that assumes the absent workers run at their mean rate; give every worker's steps to measure it", n, r.Workers, r.Workers, r.Workers, n)
				} else {
					warn("steps.csv has rows of %d of its %d workers: every worker takes each %s step, so the job's rate is that of the workers present (iterations/s scaled by %d/%d)", n, r.Workers, r.Mode, r.Workers, n)
				}
			}
			// a synchronous step is one iteration of every worker and
			// one global update: the job's updates/s are its iterations/s
			// over the workers (samples/s stay batch x iterations/s)
			if r.Mode != "async" && r.Workers > 1 {
				f := float64(r.Workers)
				r.UpdatesPerS, r.UpdatesPerSLo, r.UpdatesPerSHi = r.UpdatesPerS/f, r.UpdatesPerSLo/f, r.UpdatesPerSHi/f
			}
			// a window of a few subnormal seconds gives rates of +Inf:
			// they are unknown (NaN), which JSON writes null and CSV empty
			var unknown []string
			if math.IsInf(r.UpdatesPerS, 0) {
				r.UpdatesPerS = nan
				unknown = append(unknown, "updates/s")
			}
			if math.IsInf(r.UpdatesPerSLo, 0) || math.IsInf(r.UpdatesPerSHi, 0) {
				r.UpdatesPerSLo, r.UpdatesPerSHi = nan, nan
				unknown = append(unknown, "its 95% interval")
			}
			if math.IsInf(r.SamplesPerS, 0) {
				r.SamplesPerS = nan
				unknown = append(unknown, "samples/s")
			}
			if unknown != nil {
				warn("the steady-state window [%.4g, %.4g] s is %.4g s long, too short for a finite rate: %s unknown", r.WindowStart, r.WindowEnd, length, strings.Join(unknown, " and "))
			}
		}
	}
	switch {
	case a.stUpd != nil:
		r.Staleness = staleness("updates.csv", a.stUpd)
	case len(a.stSteps) > 0:
		r.Staleness = staleness("steps.csv", a.stSteps)
	default:
		r.Staleness = Staleness{Mean: nan, P50: unknownValue, P90: unknownValue, P99: unknownValue, Max: unknownValue}
	}
	usable := 0 // evaluations a loss curve can use: an update count and a finite loss
	for _, e := range a.evals {
		if e.Updates >= 0 && !math.IsNaN(e.Loss) && !math.IsInf(e.Loss, 0) {
			usable++
		}
	}
	hasStepLoss := false
	for _, n := range a.lossN {
		hasStepLoss = hasStepLoss || n > 0
	}
	switch {
	case len(a.evals) > 0 && (usable >= MinEvals || !hasStepLoss):
		r.Loss, r.LossSource = sortedEvals(a.evals), "evals.csv"
	case a.hasSteps:
		// each bin's mean loss at the middle of its iterations: the
		// middle update count and time (it was put at the bin's end, half
		// a bin late: the first point at twice its update count)
		//
		// A synchronous step is one global update of every worker's row:
		// rows count updates once divided by the workers with rows (the
		// updates of a 4-worker sync run came out 4 times too many).
		per := 1.0
		if r.Mode != "async" && len(a.ov.workers) > 1 {
			per = float64(len(a.ov.workers))
		}
		var rows int64
		done := int64(0) // global updates before the bin
		wall := r.End - r.Start
		for b := range lossBins {
			rows += a.endsIn[b]
			end := int64(math.Round(float64(rows) / per))
			if a.lossN[b] > 0 {
				span := end - done
				r.Loss = append(r.Loss, LossPoint{Updates: done + (span+1)/2, Time: r.Start + wall*(float64(b)+0.5)/lossBins, Loss: a.lossSum[b] / float64(a.lossN[b]), Span: span})
			}
			done = end
		}
		if len(r.Loss) > 0 {
			r.LossSource = "steps.csv"
		}
	}
	return r
}

// sortedEvals orders a run's evaluations by update count when every one
// has it, else by time when every one has it, else leaves the file's order
// (inspect's first and last loss were the file's first and last rows).
func sortedEvals(ev []LossPoint) []LossPoint {
	switch {
	case !slices.ContainsFunc(ev, func(p LossPoint) bool { return p.Updates < 0 }):
		slices.SortStableFunc(ev, func(a, b LossPoint) int { return cmp.Compare(a.Updates, b.Updates) })
	case !slices.ContainsFunc(ev, func(p LossPoint) bool { return math.IsNaN(p.Time) }):
		slices.SortStableFunc(ev, func(a, b LossPoint) int { return cmp.Compare(a.Time, b.Time) })
	}
	return ev
}

// MinEvals is the fewest evaluations (with an update count and a finite
// loss) from which a run's loss curve is read from evals.csv; with fewer,
// the per-step losses of steps.csv are used when the run has them. The
// streamed summary and the fit in memory read the same points (before
// 2026-12-04 one took evals.csv from 1 evaluation and the other from 4, and
// the staleness cost of testdata/synthetic/async-ps came out as 1.16 in
// `fit` and 2.2 in `validate`).
const MinEvals = 3

// staleness summarizes a histogram of staleness values.
func staleness(src string, hist map[int]int64) Staleness {
	vals := make([]int, 0, len(hist))
	var n int64
	var sum float64
	for v, c := range hist {
		vals = append(vals, v)
		n += c
		sum += float64(v) * float64(c)
	}
	sort.Ints(vals)
	rank := func(p float64) int {
		need := int64(math.Ceil(p * float64(n)))
		var cum int64
		for _, v := range vals {
			cum += hist[v]
			if cum >= need {
				return v
			}
		}
		return vals[len(vals)-1]
	}
	return Staleness{Source: src, N: n, Mean: sum / float64(n), P50: rank(0.5), P90: rank(0.9), P99: rank(0.99), Max: vals[len(vals)-1]}
}

// welford accumulates a mean and variance in one pass (Welford 1962).
type welford struct {
	n    int64
	mean float64
	m2   float64
}

func (w *welford) add(x float64) {
	w.n++
	d := x - w.mean
	w.mean += d / float64(w.n)
	w.m2 += d * (x - w.mean)
}

func (w *welford) variance() float64 {
	if w.n < 2 {
		return math.NaN()
	}
	return w.m2 / float64(w.n-1)
}

// Covariance is the sample covariance (n-1) of two phase times over the
// N iterations that have both, s^2; NaN for N < 2.
type Covariance struct {
	N   int64
	Cov float64
}

// CoAccumulator accumulates a Covariance in one pass (Welford's update
// for a co-moment: no cancellation of large sums). Its zero value is empty.
type CoAccumulator struct {
	n          int64
	mx, my, cm float64
}

// Add counts the pair (x, y).
func (w *CoAccumulator) Add(x, y float64) {
	w.n++
	dx := x - w.mx
	w.mx += dx / float64(w.n)
	w.my += (y - w.my) / float64(w.n)
	w.cm += dx * (y - w.my)
}

// Covariance is the covariance of the pairs added.
func (w *CoAccumulator) Covariance() Covariance {
	if w.n < 2 {
		return Covariance{N: w.n, Cov: math.NaN()}
	}
	return Covariance{N: w.n, Cov: w.cm / float64(w.n-1)}
}

func (w *welford) moments() Moments {
	if w.n == 0 {
		return Moments{Mean: math.NaN(), Var: math.NaN(), SCV: math.NaN()}
	}
	v := w.variance()
	return Moments{N: w.n, Mean: w.mean, Var: v, SCV: v / (w.mean * w.mean)}
}
