package fit

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// RunStats is what the step-trace estimators read from one run in its
// steady window (validation protocol: the first 10% and the last 5% of the
// run's wall time dropped).
type RunStats struct {
	Run         string
	Mode        string
	Workers, PS int
	Batch       int
	Window      [2]float64 // s
	Steps       int        // worker iterations completed in the window
	StepsPerS   float64    // job-wide updates (async) or steps per second
	Pull, Push  Moments    // s, per iteration
	// PullPush is the covariance of the pull and the push of the
	// iterations with both (traces.RunSummary.PullPush)
	PullPush   traces.Covariance
	Compute    Moments // s
	Apply      Moments // s, from updates.csv
	Staleness  Moments // updates
	ParamBytes int64   // runs.csv, 0 when absent
	Bandwidth  float64 // runs.csv, B/s, NaN when absent
	Nodes      int
	Dataset    int64
	Epochs     float64
	// PerStep, when > 0, is the samples of one step (update) as a
	// throughput row gives them (a global batch that the workers do not
	// divide: Batch cannot hold its share); 0: from Batch (samplesPerStep).
	PerStep    float64
	HasPhases  bool // pull, compute and push all measured
	TotalSteps int  // rows of the run
	// WorkersSeen is the number of workers with rows; below Workers,
	// StepsPerS is scaled from theirs (traces.RunSummary.WorkersSeen).
	WorkersSeen int
	// Overlap, when not nil, says that iterations of one worker start
	// before the end of the worker's previous one: times that contradict
	// each other, used as written (the fit warns of it).
	Overlap *traces.OverlapWarning
	// modeAt is where runs.csv gave the run's mode, "FILE:LINE:COL"; ""
	// when the mode is the default of its ps (no runs.csv mode) or the
	// run was not read from a file.
	modeAt string
	// stepFiles are the steps files that hold the run's rows
	// (traces.RunSummary.StepFiles); nil when not read from files.
	stepFiles []string
}

// Config is the configuration of the fit's point of the run (StepFit.Points):
// its workers, shards and per-worker batch, and its runs.csv link rate
// where it has one. The runs table, validation and the profile's checks
// predict the run there.
func (r RunStats) Config() model.Config {
	c := model.Config{Workers: r.Workers, PS: r.PS, Batch: float64(r.Batch)}
	if r.Bandwidth > 0 {
		c.Bandwidth = r.Bandwidth
	}
	return c
}

// in is "FILES: ", the steps files of the run, before an error of the
// run; "" when it was not read from files.
func (r *RunStats) in() string {
	if len(r.stepFiles) == 0 {
		return ""
	}
	return strings.Join(r.stepFiles, ", ") + ": "
}

// modeAtOf is where info's mode was read (RunStats.modeAt): "" for an
// empty mode or a row not read from a runs.csv.
func modeAtOf(info *traces.RunInfo) string {
	file, line, col := info.ModePos()
	if info.Mode == "" || line == 0 || col == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}

// Moments are the mean and squared coefficient of variation of a sample.
type Moments struct {
	N    int
	Mean float64
	SCV  float64 // variance / mean², NaN for fewer than 2 values
}

type acc struct{ n, s, ss float64 }

func (a *acc) add(v float64) {
	if math.IsNaN(v) {
		return
	}
	a.n++
	a.s += v
	a.ss += v * v
}

func (a acc) moments() Moments {
	if a.n == 0 {
		return Moments{Mean: math.NaN(), SCV: math.NaN()}
	}
	m := a.s / a.n
	scv := math.NaN()
	if a.n > 1 && m != 0 {
		v := (a.ss - a.n*m*m) / (a.n - 1)
		scv = math.Max(v, 0) / (m * m)
	}
	return Moments{N: int(a.n), Mean: m, SCV: scv}
}

// Steady is the fraction of wall time dropped at the start and end of each
// run by the validation protocol.
const (
	SteadyHead = 0.10
	SteadyTail = 0.05
)

// MinSteadySteps is the fewest iterations in its steady window a run needs
// to be fitted: one iteration gives a rate of one count over the window's
// length (not its own time) and phase times without spread, whose
// bootstrap intervals have no width.
const MinSteadySteps = 2

// Stats computes RunStats for every run of t's steps, in order of first
// appearance. A run with no step ending in its steady window is an error
// naming the run and the window.
func Stats(t *traces.Trace) ([]RunStats, error) {
	if t == nil {
		return nil, errorf("no trace (nil)")
	}
	type span struct {
		i          int
		start, end float64
	}
	idx := map[string]int{}
	var out []RunStats
	var spans []span
	var seen []map[int]bool // workers with rows, by run
	for k := range t.Steps {
		s := &t.Steps[k]
		i, ok := idx[s.Run]
		if !ok {
			i = len(out)
			idx[s.Run] = i
			out = append(out, RunStats{Run: s.Run, Workers: s.Workers, PS: s.PS, Batch: s.Batch, Mode: traces.DefaultMode(s.PS), Bandwidth: math.NaN(), Epochs: math.NaN(), HasPhases: true})
			spans = append(spans, span{i, s.Start, s.End})
			seen = append(seen, map[int]bool{})
		}
		seen[i][s.Worker] = true
		sp := &spans[i]
		sp.start = math.Min(sp.start, s.Start)
		sp.end = math.Max(sp.end, s.End)
		out[i].TotalSteps++
		if math.IsNaN(s.Pull) || math.IsNaN(s.Compute) || math.IsNaN(s.Push) {
			out[i].HasPhases = false
		}
	}
	for i := range out {
		l := spans[i].end - spans[i].start
		out[i].Window = [2]float64{spans[i].start + SteadyHead*l, spans[i].end - SteadyTail*l}
	}
	pulls := make([]acc, len(out))
	pullPush := make([]traces.CoAccumulator, len(out))
	pushes := make([]acc, len(out))
	comps := make([]acc, len(out))
	stal := make([]acc, len(out))
	applies := make([]acc, len(out))
	for _, s := range t.Steps {
		i := idx[s.Run]
		w := out[i].Window
		if s.End < w[0] || s.End > w[1] {
			continue
		}
		out[i].Steps++
		pulls[i].add(s.Pull)
		pushes[i].add(s.Push)
		if !math.IsNaN(s.Pull) && !math.IsNaN(s.Push) {
			pullPush[i].Add(s.Pull, s.Push)
		}
		comps[i].add(s.Compute)
		if s.Staleness >= 0 {
			stal[i].add(float64(s.Staleness))
		}
	}
	// staleness from updates.csv when the run has updates in its window,
	// else from steps.csv, as traces.Summarize reads it (this took the
	// first update alone when steps.csv had no staleness)
	ustal := make([]acc, len(out))
	for _, u := range t.Updates {
		if i, ok := idx[u.Run]; ok {
			if w := out[i].Window; u.Time >= w[0] && u.Time <= w[1] {
				applies[i].add(u.Apply)
				ustal[i].add(float64(u.Staleness))
			}
		}
	}
	for i := range ustal {
		if ustal[i].n > 0 {
			stal[i] = ustal[i]
		}
	}
	overlaps := traces.Overlaps(t.Steps)
	for i := range out {
		r := &out[i]
		r.Overlap = overlaps[r.Run]
		if r.Steps == 0 {
			return nil, errorf("run %s: no steps end in the steady window [%.6g, %.6g] s (the first %.0f%% and last %.0f%% of the run's wall time are dropped)%s", r.Run, r.Window[0], r.Window[1], 100*SteadyHead, 100*SteadyTail, overlapNote(r.Overlap))
		}
		r.StepsPerS = float64(r.Steps) / (r.Window[1] - r.Window[0])
		if r.WorkersSeen = len(seen[i]); r.WorkersSeen < r.Workers { // as traces.Summarize
			r.StepsPerS *= float64(r.Workers) / float64(r.WorkersSeen)
		}
		r.Pull, r.Push, r.Compute = pulls[i].moments(), pushes[i].moments(), comps[i].moments()
		r.PullPush = pullPush[i].Covariance()
		r.Apply, r.Staleness = applies[i].moments(), stal[i].moments()
	}
	for _, info := range t.Runs {
		if i, ok := idx[info.Run]; ok {
			r := &out[i]
			if info.Mode != "" {
				r.Mode = info.Mode
				r.modeAt = modeAtOf(&info)
			}
			r.ParamBytes, r.Bandwidth, r.Nodes = info.ParamBytes, info.Bandwidth, info.Nodes
			r.Dataset, r.Epochs = info.Dataset, info.Epochs
		}
	}
	for i := range out {
		out[i].StepsPerS = jobStepsPerS(out[i].Mode, out[i].Workers, out[i].StepsPerS)
	}
	return out, nil
}

// jobStepsPerS turns worker iterations per second (steps.csv has one row
// per worker iteration) into the job's rate: every iteration is an update
// of asynchronous SGD, while a synchronous step (sync, allreduce) is one
// iteration of every worker.
func jobStepsPerS(mode string, workers int, itersPerS float64) float64 {
	if mode == "async" || mode == "" || workers < 1 {
		return itersPerS
	}
	return itersPerS / float64(workers)
}

// Profile is the two-node estimate of the closed network (1 worker + 1
// shard, no contention): the demands straight from the phase times.
type Profile struct {
	Z     float64 // compute, s per iteration
	Link  float64 // mean of pull and push, s per iteration at one shard
	Apply float64 // shard CPU per update, s (0 when updates.csv has none)
	SCV   float64 // squared coefficient of variation of the transfers
	// SCVApply and SCVCompute are those of the shard's apply and of
	// compute (NaN when not measured).
	SCVApply, SCVCompute float64
	Batch                float64
	PS                   int // shards of the profile run (0 or 1)
	FromRun              string
	// ParamBytes and Bandwidth (B/s) are the profile run's model size and
	// link rate from runs.csv (0 when not recorded): with both, the link
	// demand scales as S/B to other rates (Queueing).
	ParamBytes int64
	Bandwidth  float64
	// SharedCores: cores per machine the workers' compute shares (0: each
	// worker computes on its own device); set by the caller, not measured.
	SharedCores int
}

// Theta is the "mva" family's parameter vector of the profile: z0 = Z,
// z1 = 0 (one batch size cannot split compute into fixed and per-sample
// parts), link, apply.
func (p Profile) Theta() []float64 {
	return []float64{p.Z, 0, p.Link, p.Apply}
}

// Queueing is how the profile's network is solved with the given variant
// ("" = exact): the measured SCVs of each phase, and the link rate the
// transfers were measured at (0 when runs.csv has none).
func (p Profile) Queueing(variant string) Queueing {
	q := Queueing{Variant: variant, SCVLink: nz(p.SCV), SCVApply: nz(p.SCVApply), SCVCompute: nz(p.SCVCompute)}
	if q.Variant == "" {
		q.Variant = "exact"
	}
	q.SharedCores = p.SharedCores
	if p.Bandwidth > 0 && p.ParamBytes > 0 {
		q.Bandwidth = p.Bandwidth
	}
	return q
}

// TwoNodeProfile estimates the network's demands from the first run with
// one worker and at most one shard, or else the first with one worker and
// several shards. It returns an error when there is no such run with pull,
// compute and push times.
func TwoNodeProfile(stats []RunStats) (Profile, []string, error) {
	var warn []string
	for i := 0; i < 2*len(stats); i++ {
		// First the runs with at most one shard, then any shard count
		// (profileOf spreads a P-shard run's phases over the model).
		r := stats[i%len(stats)]
		if r.Workers != 1 || (i < len(stats) && r.PS > 1) || !r.HasPhases || r.Pull.N == 0 {
			continue
		}
		p, note := profileOf(r)
		if note != "" {
			warn = append(warn, note)
		}
		if r.Apply.N == 0 {
			warn = append(warn, fmt.Sprintf("run %s: no apply times (updates.csv): the shard CPU demand is taken as 0", r.Run))
		}
		if w := linkPlausible(p); w != "" {
			warn = append(warn, w)
		}
		warn = append(warn, heavyTails(r)...)
		return p, warn, nil
	}
	return Profile{}, nil, errorf("no run with 1 worker and pull, compute and push times: no two-node profile")
}

// heavyTailSCV is the squared coefficient of variation of a profile phase
// above which its mean is said to rest on a few long iterations: 4 is
// twice the standard deviation of an exponential time (SCV 1), which
// simulated traces reach; the 1-worker runs of testdata/asgd are at 0.26
// at most.
const heavyTailSCV = 4

// heavyTails names the profile run's phases whose times vary more than
// heavyTailSCV: 3 stalls of 100 s among 1,400 computes of 0.1 s make the
// mean 0.31 s (SCV about 200), which the profile then takes as the
// compute of every iteration at every worker count.
func heavyTails(r RunStats) []string {
	var warn []string
	for _, ph := range []struct {
		name string
		m    Moments
	}{{"compute", r.Compute}, {"pull", r.Pull}, {"push", r.Push}} {
		if ph.m.SCV > heavyTailSCV {
			warn = append(warn, fmt.Sprintf("run %s: the %s times vary widely (squared coefficient of variation %.3g over %d iterations): a few very long ones (stalls, a shared machine) can make the mean %.4g s, which the profile takes for every iteration; check the trace, or profile a steadier run", r.Run, ph.name, ph.m.SCV, ph.m.N, ph.m.Mean))
		}
	}
	return warn
}

// linkPlausible compares the profile's measured transfer of the whole
// model with S/B from runs.csv: a transfer faster than the link can carry
// it, or more than 100 times slower, is named ("" otherwise, or without
// S and B). A trace in milliseconds read as seconds gave a 22.7 s link
// where S/B was 0.02 s, without a word; the fit cannot tell that from a
// link whose latency dwarfs its payload, so it only warns.
func linkPlausible(p Profile) string {
	return LinkPlausible(p.FromRun, p.Link, "", p.ParamBytes, p.Bandwidth)
}

// LinkPlausible is the check of linkPlausible on run's measured transfer
// of the whole model, link seconds (how says how it was measured, "" for
// nothing), against S/B of paramBytes at bandwidth (runs.csv): "" when it
// is plausible or cannot be checked. inspect runs it on its one-worker
// runs.
func LinkPlausible(run string, link float64, how string, paramBytes int64, bandwidth float64) string {
	if paramBytes <= 0 || !(bandwidth > 0) || !(link > 0) {
		return ""
	}
	at := fmt.Sprintf("%.4g s", link)
	if how != "" {
		at += ": " + how
	}
	sb := float64(paramBytes) / bandwidth
	switch r := link / sb; {
	case r < 0.5:
		return fmt.Sprintf("run %s: the measured transfer of the model (%s) is %.2g of S/B from runs.csv (%.4g s: %d B at %.4g B/s), faster than the link can carry it: are param_bytes and bandwidth this run's, and the times in seconds?", run, at, r, sb, paramBytes, bandwidth)
	case r > 100:
		return fmt.Sprintf("run %s: the measured transfer of the model (%s) is %.0f times S/B from runs.csv (%.4g s: %d B at %.4g B/s): latency dominates the link, or the times are not in seconds (milliseconds read 1000 times too long)", run, at, r, sb, paramBytes, bandwidth)
	}
	return ""
}

// profileOf is the two-node profile of a run with one worker and P >= 1
// shards visited in parallel: each phase time is that of one shard's part,
// so the whole model's transfer is P times the mean of pull and push, and
// the whole update's apply P times one shard's (shard apply times from
// updates.csv; 0 when there are none).
//
// A push lasts until it is acknowledged (trace-format.md), and the shard
// acknowledges after applying (the network's cycle is push, apply, pull:
// docs/models.md), so the measured push holds the shard's apply. The network
// has the apply as a station of its own, so the transfer is the push
// without it: at one worker the network's cycle Z + 2 link/P + apply/P
// is then the measured iteration, where taking the whole push as transfer
// counted the apply twice (a profile of 20 ms transfers and a 5 ms apply
// read as a 22.5 ms link and under-predicted its own run by 3%). When the
// apply is not shorter than the push, the shard must acknowledge before
// applying; the push is then all transfer (said in the second result).
func profileOf(r RunStats) (Profile, string) {
	P := float64(max(r.PS, 1))
	push, scvPush, ackFirst := pushTransfer(r)
	note := ""
	if ackFirst {
		note = fmt.Sprintf("run %s: the shard's apply (%.4g s) is not shorter than the push (%.4g s), which lasts until acknowledged: the shard seems to acknowledge before it applies; the push is taken as transfer alone", r.Run, r.Apply.Mean, r.Push.Mean)
	}
	p := Profile{Z: r.Compute.Mean, Link: P * (r.Pull.Mean + push) / 2, Batch: float64(r.Batch), PS: r.PS, FromRun: r.Run, ParamBytes: r.ParamBytes, Bandwidth: r.Bandwidth}
	p.SCV = (r.Pull.SCV + scvPush) / 2
	p.SCVApply, p.SCVCompute = r.Apply.SCV, r.Compute.SCV
	if !(p.Bandwidth > 0) {
		p.Bandwidth = 0
	}
	if r.Apply.N > 0 {
		p.Apply = P * r.Apply.Mean
	}
	return p, note
}

// pushTransfer is the push of run r without the shard's apply (profileOf):
// its mean, the push's less the apply's when the apply is shorter (else
// the whole push, and ackFirst), and its SCV, the push's variance less the
// apply's (independent parts) over the smaller mean squared (NaN when
// either is not measured).
func pushTransfer(r RunStats) (mean, scv float64, ackFirst bool) {
	mean, scv = r.Push.Mean, r.Push.SCV
	if r.Apply.N > 0 {
		if r.Apply.Mean < mean {
			mean -= r.Apply.Mean
		} else {
			ackFirst = true
		}
	}
	if mean < r.Push.Mean && !math.IsNaN(scv) && !math.IsNaN(r.Apply.SCV) {
		v := scv*r.Push.Mean*r.Push.Mean - r.Apply.SCV*r.Apply.Mean*r.Apply.Mean
		scv = math.Max(v, 0) / (mean * mean)
	}
	return mean, scv, ackFirst
}

// linkRelSE is the relative standard error of the profile's link demand
// P (pull + transfer) / 2 from run r: the variance of the mean of each
// (variance / n) and twice their covariance over n, the pull's and the
// push's (the shard's apply in the push taken as independent of the
// pull). It was the mean of the two SCVs over n, times the link: twice the
// variance for a pull and a push alike (the 90% interval held the true
// link in 99 of 100 simulated runs, 98.2% of 4,000), and too little where
// one phase is most of the link and varies more (a 2 ms steady pull beside
// a 30 ms push of SCV 1.5: 75 of 100, 77.4% of 4,000; now 86 and 88.7%).
// Without the covariance, a pull and a push that vary together (one
// congested link) had an interval of 0.75 of the spread of the estimates
// (81 of 100); TestProfileCoverage.
func linkRelSE(r RunStats) float64 {
	push, scvPush, _ := pushTransfer(r)
	link := r.Pull.Mean + push
	if !(link > 0) {
		return 0
	}
	v := nz(r.Pull.SCV)*r.Pull.Mean*r.Pull.Mean/float64(max(r.Pull.N, 1)) +
		nz(scvPush)*push*push/float64(max(r.Push.N, 1))
	if c := r.PullPush; c.N > 1 && !math.IsNaN(c.Cov) {
		v += 2 * c.Cov / float64(c.N)
	}
	return math.Sqrt(math.Max(v, 0)) / link
}

// ProfileRow is one run predicted from a two-node profile.
type ProfileRow struct {
	Run         string
	Workers, PS int
	Bandwidth   float64   // B/s, 0 when unknown
	Measured    float64   // updates/s
	Profile     string    // the profile's run
	Predicted   []float64 // updates/s, per variant
}

// ProfileComparison predicts every run of stats from a two-node profile
// with each MVA variant (QueueingVariants order when variants is nil).
// perSeries: each run from the 1-worker run of its own series (same
// shards, link rate, batch and model size), so only contention is
// predicted; otherwise every run from the one profile TwoNodeProfile picks,
// its link demand scaled as S/B to the run's rate and spread over the
// run's shards. Runs without a profile are left out; an error when none
// has one.
func ProfileComparison(stats []RunStats, variants []string, perSeries bool) ([]ProfileRow, error) {
	if variants == nil {
		variants = QueueingVariants
	}
	type key struct {
		ps    int
		bw    float64
		batch int
		bytes int64
	}
	keyOf := func(r RunStats) key { return key{max(r.PS, 1), nz(r.Bandwidth), r.Batch, r.ParamBytes} }
	profiles := map[key]Profile{}
	var one Profile
	if perSeries {
		for _, r := range stats {
			if _, ok := profiles[keyOf(r)]; !ok && r.Workers == 1 && r.HasPhases && r.Pull.N > 0 {
				profiles[keyOf(r)], _ = profileOf(r)
			}
		}
	} else {
		var err error
		if one, _, err = TwoNodeProfile(stats); err != nil {
			return nil, err
		}
	}
	var rows []ProfileRow
	for _, r := range stats {
		p := one
		if perSeries {
			var ok bool
			if p, ok = profiles[keyOf(r)]; !ok {
				continue
			}
		}
		if p.FromRun == r.Run {
			continue
		}
		c := r.Config()
		row := ProfileRow{Run: r.Run, Workers: r.Workers, PS: r.PS, Bandwidth: c.Bandwidth, Measured: r.StepsPerS, Profile: p.FromRun}
		for _, v := range variants {
			row.Predicted = append(row.Predicted, mvaFamily(p.Queueing(v)).Predict(p.Theta(), c))
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, errorf("no run has a 1-worker profile run with the same shards, link rate, batch and model size")
	}
	return rows, nil
}

// Scale returns the profile's parameters for a link of bandwidth bw (B/s)
// and a model of paramBytes bytes (0 or NaN keep the profile's): the link
// demand scales as S/B. It needs the profile's own S and B.
func (p Profile) Scale(bw float64, paramBytes int64) (Profile, error) {
	if (bw > 0 || paramBytes > 0) && !(p.Bandwidth > 0 && p.ParamBytes > 0) {
		return p, errorf("scaling the link demand needs runs.csv param_bytes and bandwidth for run %s", p.FromRun)
	}
	q := p
	if bw > 0 {
		q.Link *= p.Bandwidth / bw
		q.Bandwidth = bw
	}
	if paramBytes > 0 {
		q.Link *= float64(paramBytes) / float64(p.ParamBytes)
		q.ParamBytes = paramBytes
	}
	return q, nil
}

// StepOptions tunes FitSteps. The zero value means: auto family, every
// run, 200 bootstrap resamples with seed 1, 90% intervals.
type StepOptions struct {
	Family string // "auto" or "" or a family name
	// Combine is what auto keeps among the table families (Settings.Combine).
	Combine string
	// NNLS adds the NNLS variants to auto's candidates (Settings.NNLS).
	NNLS         bool
	TrainWorkers []int // fit on runs with these worker counts only; nil: all
	Bootstrap    int
	Seed         uint64
	Level        float64
	// Queueing is the variant of MVA that solves the two-node profile's
	// network: "exact" (default), "correction" or "flow" (see Queueing).
	Queueing string
	// SharedCores > 0: the workers share that many cores per machine
	// (runs.csv nodes machines), so compute is a load-dependent station
	// of the profile's network (Queueing.SharedCores).
	SharedCores int
}

// StepFit is the result of FitSteps.
type StepFit struct {
	Model    *Model
	Stats    []RunStats // every run
	Points   []Point    // the runs fitted
	Warnings []string
}

// FitSteps fits a model to a step trace: runs' steady-state rates, the
// two-node profile of the network where there is one, and the loss curves
// and staleness law where evals and several worker counts allow.
func FitSteps(t *traces.Trace, paths []string, o StepOptions) (*StepFit, error) {
	if t == nil {
		return nil, errorf("no trace (nil)")
	}
	stats, err := Stats(t)
	if err != nil {
		return nil, err
	}
	curves, nanLoss := curvesFromTrace(t)
	sf, err := fitFromStats(stats, curves, nanLoss, paths, o)
	if err == nil {
		var o dataWarnings
		steps := map[string]bool{}
		for _, s := range t.Steps {
			steps[s.Run] = true
		}
		for _, e := range t.Evals {
			o.add(steps, e.Run, "evals.csv")
		}
		for _, u := range t.Updates {
			o.add(steps, u.Run, "updates.csv")
		}
		for _, r := range t.Runs {
			o.add(steps, r.Run, "runs.csv")
		}
		o.warn(sf)
	}
	return sf, err
}

// dataWarnings are fit's first words, on its data: the runs of
// evals.csv, updates.csv and runs.csv that steps.csv lacks, by file (fit
// reads a run's loss, apply times and link rate by its name and left such
// rows out without a word, then said the traces held no loss, or took the
// apply time as 0: a run named "run-1" in evals.csv and "w1" in
// steps.csv), and data.
type dataWarnings struct {
	runs  map[string][]string // file -> runs, in first-seen order
	seen  map[[2]string]bool
	files []string
	// data are other words on the data put first too: the summary's
	// warning of a run whose workers never ran at the same time
	// (traces.DisjointFormat), which inspect alone gave
	data []string
}

// add notes run of file when steps (steps.csv's runs) lacks it.
func (o *dataWarnings) add(steps map[string]bool, run, file string) {
	if steps[run] || o.seen[[2]string{file, run}] {
		return
	}
	if o.runs == nil {
		o.runs, o.seen = map[string][]string{}, map[[2]string]bool{}
	}
	o.seen[[2]string{file, run}] = true
	if len(o.runs[file]) == 0 {
		o.files = append(o.files, file)
	}
	o.runs[file] = append(o.runs[file], run)
}

// warn puts the warning first among sf's (a fit's words on its data come
// before its words on the fit).
func (o *dataWarnings) warn(sf *StepFit) {
	if sf == nil || sf.Model == nil {
		return
	}
	if len(o.data) > 0 {
		sf.Model.Diagnostics.Warnings = append(slices.Clone(o.data), sf.Model.Diagnostics.Warnings...)
		sf.Warnings = sf.Model.Diagnostics.Warnings
	}
	if len(o.files) == 0 {
		return
	}
	var parts []string
	for _, f := range o.files {
		rs := o.runs[f]
		names := strings.Join(rs[:min(len(rs), 5)], ", ")
		if len(rs) > 5 {
			names += fmt.Sprintf(" and %d more", len(rs)-5)
		}
		parts = append(parts, fmt.Sprintf("%s: %s %s", f, words.Count(len(rs), "run"), names))
	}
	w := fmt.Sprintf("runs with no steps.csv rows are left out, their losses, apply times and link rates unused (a run named differently in two files?): %s", strings.Join(parts, "; "))
	sf.Model.Diagnostics.Warnings = append([]string{w}, sf.Model.Diagnostics.Warnings...)
	sf.Warnings = sf.Model.Diagnostics.Warnings
}

// FitStepsPaths is FitSteps on the files that paths name, streaming
// steps.csv (traces.SummarizePaths reads it twice and never holds its rows):
// memory does not grow with the steps. The warnings are the readers'.
func FitStepsPaths(paths []string, o StepOptions) (*StepFit, []error, error) {
	sums, warns, err := traces.SummarizePaths(paths...)
	if err != nil {
		return nil, warns, err
	}
	files, err := traces.Files(paths...)
	if err != nil {
		return nil, warns, err
	}
	var small []string // updates.csv: the shards' apply times
	var stepFiles []string
	for _, f := range files {
		if f.Kind == traces.KindUpdates {
			small = append(small, f.Path)
		}
		if f.Kind == traces.KindSteps {
			stepFiles = append(stepFiles, f.Path)
		}
	}
	var updates []traces.Update
	if len(small) > 0 {
		tr, _, err := traces.Load(small...)
		if err != nil {
			return nil, warns, err
		}
		updates = tr.Updates
	}
	stats := make([]RunStats, 0, len(sums))
	idx := map[string]int{}
	curves, infLoss := map[string][]lossPoint{}, 0
	var lost dataWarnings
	for _, r := range sums {
		if r.Steps == 0 {
			none := map[string]bool{}
			if len(r.Loss) > 0 {
				lost.add(none, r.Run, "evals.csv")
			}
			if r.Staleness.N > 0 { // (from updates.csv: the run has no steps)
				lost.add(none, r.Run, "updates.csv")
			}
			if r.Info != nil {
				lost.add(none, r.Run, "runs.csv")
			}
			continue
		}
		st := RunStats{Run: r.Run, Mode: r.Mode, Workers: r.Workers, PS: r.PS, Batch: r.Batch,
			Window: [2]float64{r.WindowStart, r.WindowEnd}, Steps: int(r.WindowSteps), StepsPerS: r.UpdatesPerS,
			Pull: moments(r.Pull), Push: moments(r.Push), Compute: moments(r.Compute), PullPush: r.PullPush,
			Apply: Moments{Mean: math.NaN(), SCV: math.NaN()}, Bandwidth: math.NaN(), Epochs: math.NaN(), TotalSteps: int(r.Steps)}
		st.HasPhases = r.Pull.N > 0 && r.Compute.N > 0 && r.Push.N > 0
		st.WorkersSeen = r.WorkersSeen
		st.stepFiles = r.StepFiles
		for _, w := range r.Warnings {
			errors.As(w, &st.Overlap)
			if rw := (*traces.RunWarning)(nil); errors.As(w, &rw) && rw.Format == traces.DisjointFormat {
				lost.data = append(lost.data, "run "+r.Run+": "+rw.Message())
			}
		}
		st.Staleness = Moments{Mean: math.NaN(), SCV: math.NaN()}
		if r.Staleness.N > 0 {
			st.Staleness = Moments{N: int(r.Staleness.N), Mean: r.Staleness.Mean, SCV: math.NaN()}
		}
		if st.Mode == "" {
			st.Mode = traces.DefaultMode(st.PS)
		}
		// the summary's updates/s are the job's steps/s already (a sync
		// step is one update)
		if info := r.Info; info != nil {
			st.modeAt = modeAtOf(info)
			st.ParamBytes, st.Bandwidth, st.Nodes = info.ParamBytes, info.Bandwidth, info.Nodes
			st.Dataset, st.Epochs = info.Dataset, info.Epochs
		}
		if st.Steps == 0 {
			// (named the run alone: with several paths, in which file?)
			in := ""
			switch len(stepFiles) {
			case 0:
			case 1:
				in = stepFiles[0] + ": "
			default:
				in = "in " + strings.Join(stepFiles, ", ") + ": "
			}
			return nil, warns, errorf("%srun %s: no steps end in the steady window [%.6g, %.6g] s (the first %.0f%% and last %.0f%% of the run's wall time are dropped)%s", in, r.Run, r.WindowStart, r.WindowEnd, 100*SteadyHead, 100*SteadyTail, overlapNote(st.Overlap))
		}
		infLoss += addCurve(curves, r)
		idx[r.Run] = len(stats)
		stats = append(stats, st)
	}
	applies := make([]acc, len(stats))
	for _, u := range updates {
		if i, ok := idx[u.Run]; ok {
			if w := stats[i].Window; u.Time >= w[0] && u.Time <= w[1] {
				applies[i].add(u.Apply)
			}
		}
	}
	for i := range stats {
		stats[i].Apply = applies[i].moments()
	}
	sf, err := fitFromStats(stats, curves, infLoss, paths, o)
	if err == nil {
		lost.warn(sf)
	}
	return sf, warns, err
}

// overlapNote is what an error about a run's window adds when iterations
// of one of its workers overlap (the window is cut from times that
// contradict each other), "" when none do.
func overlapNote(w *traces.OverlapWarning) string {
	if w == nil {
		return ""
	}
	return "; its times contradict each other: " + w.Detail()
}

func moments(m traces.Moments) Moments {
	if m.N == 0 {
		return Moments{Mean: math.NaN(), SCV: math.NaN()}
	}
	return Moments{N: int(m.N), Mean: m.Mean, SCV: m.SCV}
}

// lossPoint is one point of a loss curve: k global updates, loss l.
// lossPoint is a loss l at k updates, or the mean loss over the w updates
// centred on k (a bin of per-step losses; w = 0 for one measurement).
type lossPoint struct{ k, l, w float64 }

// oneMode refuses training runs of different modes (one model has one
// mode: a sync run among async ones was fitted as async, its steps/s taken
// for updates/s, or failed the model's own checks after the whole fit). The
// odd run is the first whose mode is not the one most runs have (the first
// run's among equals), named at its runs.csv mode field as the
// throughput.csv reader names a row of another mode.
func oneMode(train []RunStats) error {
	count := map[string]int{}
	for _, r := range train {
		count[r.Mode]++
	}
	if len(count) < 2 {
		return nil
	}
	want := train[0].Mode
	for _, r := range train { // the first of the most common
		if count[r.Mode] > count[want] {
			want = r.Mode
		}
	}
	var odd *RunStats
	var same []string
	for i, r := range train {
		if r.Mode == want {
			same = append(same, fmt.Sprintf("%q", r.Run))
		} else if odd == nil {
			odd = &train[i]
		}
	}
	what := fmt.Sprintf("run %q (%s)", odd.Run, words.Count(odd.Workers, "worker"))
	at := odd.modeAt
	if at == "" {
		at = fmt.Sprintf("%s: mode: %s, the default with ps %d (runs.csv gives it no mode)", what, odd.Mode, odd.PS)
	} else {
		at = fmt.Sprintf("%s: mode: %s, %s", at, odd.Mode, what)
	}
	runs := "run " + same[0] + " is"
	if len(same) > 1 {
		runs = "runs " + words.FirstOf(same, 4) + " are"
	}
	return errorf("%s, but the other training %s %s: want one mode among the runs fitted (fit each mode's runs apart: --train-workers, or a folder of each mode's runs)", at, runs, want)
}

// fitFromStats is the common part of FitSteps and FitStepsPaths.
func fitFromStats(stats []RunStats, curves map[string][]lossPoint, nanLoss int, paths []string, o StepOptions) (*StepFit, error) {
	if len(stats) == 0 {
		return nil, errorf("no steps in the trace (steps.csv is needed for a step-level fit)")
	}
	if err := checkLevel(&Settings{Level: o.Level}); err != nil {
		return nil, err
	}
	if o.SharedCores < 0 || o.SharedCores > model.MaxSharedCores {
		return nil, errorf("shared cores %d: want 0 (each worker computes on its own device) to %d cores per machine", o.SharedCores, model.MaxSharedCores)
	}
	res := &StepFit{Stats: stats}
	var ows []*traces.OverlapWarning
	for _, r := range stats {
		if r.Overlap != nil {
			ows = append(ows, r.Overlap)
		}
	}
	overlaps := traces.GroupOverlaps(ows) // said first: the data contradict themselves
	var train []RunStats
	for _, r := range stats {
		if o.TrainWorkers == nil || slices.Contains(o.TrainWorkers, r.Workers) {
			train = append(train, r)
		}
	}
	if len(train) == 0 {
		have := make([]int, len(stats))
		for i, r := range stats {
			have[i] = r.Workers
		}
		return nil, errorf("no run has a worker count in --train-workers %v: the runs have %s workers", o.TrainWorkers, words.Either(have))
	}
	if err := oneMode(train); err != nil {
		return nil, err
	}
	async := true
	for _, r := range train {
		if r.Steps < MinSteadySteps {
			return nil, errorf("run %s: only %s in its steady-state window [%.4g, %.4g] s (the first %.0f%% and last %.0f%% of the run's wall time are dropped): want at least %d to fit the run (one has no spread: its rate and phase times, and every interval through them, would rest on a single sample, and the fit would call them certain); record more steps, or leave the run out (--train-workers)",
				r.Run, words.Count(r.Steps, "iteration"), r.Window[0], r.Window[1], 100*SteadyHead, 100*SteadyTail, MinSteadySteps)
		}
		if r.Steps < traces.FewInWindow {
			res.Warnings = append(res.Warnings, fmt.Sprintf("run %s: only %s in the steady-state window: its throughput is uncertain", r.Run, words.Count(r.Steps, "iteration")))
		}
		async = async && r.Mode == "async"
		if r.Mode == "async" && r.WorkersSeen < r.Workers {
			res.Warnings = append(res.Warnings, fmt.Sprintf("run %s: steps of %d of its %d workers only: its throughput is theirs scaled by %d/%d, assuming the absent workers run at their mean rate (give every worker's steps to measure it)", r.Run, r.WorkersSeen, r.Workers, r.Workers, r.WorkersSeen))
		}
		if !(r.StepsPerS > 0) || math.IsInf(r.StepsPerS, 0) {
			// (a window of a few subnormal seconds: model.json could not
			// be written, NaN)
			return nil, errorf("%srun %s: its steady window [%.4g, %.4g] s gives no finite positive rate (%g steps/s): want step times a rate can be measured from", r.in(), r.Run, r.Window[0], r.Window[1], r.StepsPerS)
		}
		res.Points = append(res.Points, Point{
			Config:         r.Config(),
			StepsPerS:      r.StepsPerS,
			SamplesPerStep: samplesPerStep(r),
			Async:          r.Mode == "async",
		})
	}
	s := (&Settings{Bootstrap: o.Bootstrap, Seed: o.Seed, Level: o.Level, Combine: o.Combine, NNLS: o.NNLS}).withDefaults()
	ref := Reference{PS: max(train[0].PS, 0), Batch: float64(train[0].Batch), Dataset: train[0].Dataset}
	// synchronous runs at a fixed global batch split among the workers:
	// the queries' default is that global batch (the one at the most worker
	// counts), not the first run's per-worker share of it (runs at a global
	// 128 on 1-8 workers were queried at 128 a worker). Asynchronous
	// updates have no global batch: each is one worker's.
	if !async && StrongScaling(res.Points) {
		ref.Batch, ref.GlobalBatch = 0, MostMeasured(res.Points, 0, GlobalBatchOf)
	}
	if train[0].ParamBytes > 0 && train[0].Bandwidth > 0 {
		ref.ParamBytes, ref.Bandwidth = train[0].ParamBytes, train[0].Bandwidth
	}
	mode := "async"
	if !async {
		mode = train[0].Mode
	}
	var tf *ThroughputFit
	var err error
	var alts []Alternative
	prof, pwarn, perr := TwoNodeProfile(train)
	keys, _ := configKeys(res.Points)
	auto := o.Family == "" || o.Family == "auto"
	switch o.Queueing {
	case "", "exact", "correction", "flow":
	default:
		return nil, errorf("queueing variant %q, want exact, correction or flow", o.Queueing)
	}
	mixed := KindOf(res.Points).MixedBandwidth
	if async && perr == nil && (o.Family == "mva" || auto) {
		res.Warnings = append(res.Warnings, pwarn...)
		if mixed && !(prof.Bandwidth > 0 && prof.ParamBytes > 0) {
			return nil, errorf("the training runs have different link rates but the profile run %s has no runs.csv param_bytes and bandwidth: its link demand cannot be scaled to the other rates", prof.FromRun)
		}
		if w := computeGrowth(train); w != "" && o.SharedCores == 0 {
			res.Warnings = append(res.Warnings, w)
		}
		if o.SharedCores > 0 {
			prof.SharedCores = o.SharedCores
			ref.Nodes = max(train[0].Nodes, 1)
			for i := range res.Points {
				res.Points[i].Config.Nodes = min(ref.Nodes, res.Points[i].Config.Workers)
			}
		}
		tf, err = profileFit(prof, res.Points, stats, s, o.Queueing)
		if err != nil {
			return nil, err
		}
		tf.CVError = profileCV(prof, res.Points, stats, s, o.Queueing)
		// What the intervals cover: with other training runs to check
		// the profile on, the network's own error beyond it too.
		// (kept under --bootstrap 0 too: it resamples nothing, and its
		// warning was printed while the model left it out)
		var w string
		tf.Extrapolation, w = profileExtrapolation(tf, prof, res.Points, s.Level)
		tf.Warnings = append(tf.Warnings, w)
		if prof.Bandwidth > 0 && prof.ParamBytes > 0 {
			ref.ParamBytes, ref.Bandwidth = prof.ParamBytes, prof.Bandwidth
		}
		alts = []Alternative{{Family: "mva", CVError: tf.CVError, RMSLE: tf.RMSLE, Profile: true}}
	}
	if tf != nil && mixed && auto && len(keys) >= 3 {
		res.Warnings = append(res.Warnings, "the training runs have different link rates: the table families (no link-rate covariate) are not applicable and were not tried; the mva family scales the profile's link demand as S/B")
	}
	if tf == nil || (auto && len(keys) >= 3 && !mixed) {
		s.Exclude = []string{"mva"} // the profile's network stands for it
		if tf == nil {
			s.Exclude = nil
		}
		lt, lalts, lerr := FitThroughput(res.Points, o.Family, &s)
		switch {
		case lerr != nil && tf == nil:
			return nil, lerr
		case lerr == nil:
			alts = append(alts, lalts...)
			// Against the profile's network the table family must win
			// at what the profile is used for: extrapolating to more
			// workers. Both are scored on the training runs with the
			// most workers, the family fitted without them (largestCV),
			// the network from its 1-worker profile as always. (By
			// leave-one-out, a 3-parameter curve through a 2 x 2 block
			// of workers x shards interpolates its corner to 0.1%, and
			// then misses 8 workers by 150%: testdata/asgd at 3 MB/s.)
			// The network wins ties and unknown errors: it rests on
			// measured demands, not on a curve through few points.
			if tf == nil {
				tf = lt
			} else if le, pe := largestCV(lt.Family, res.Points), profileLargest(tf, res.Points); !math.IsNaN(le) && lessNaN(le, pe) {
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s predicts the training runs with the most workers, fitted without them, %.3g%% off; the two-node profile's network %.3g%%: %s is kept", lt.Family.Name, le, pe, lt.Family.Name))
				tf = lt
			} else {
				what := fmt.Sprintf("predicts them %.3g%% off", le)
				if math.IsNaN(le) {
					what = "leaves its prediction there free"
				}
				res.Warnings = append(res.Warnings, fmt.Sprintf("the table families are not kept: %s (the lowest leave-one-out error, %.3g%%), fitted without the training runs with the most workers, %s; the two-node profile's network predicts them %.3g%% off", lt.Family.Name, lt.CVError, what, pe))
			}
		}
		sort.SliceStable(alts, func(i, j int) bool { return lessNaN(alts[i].CVError, alts[j].CVError) })
	}
	m := NewModel(tf, res.Points, alts, mode, ref, paths, s.Level)
	m.Diagnostics.Warnings = append(overlaps, m.Diagnostics.Warnings...)
	if async && perr != nil && (o.Family == "mva" || auto) {
		m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, perr.Error())
	}
	m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, res.Warnings...)
	if eff := fitEfficiency(curves, nanLoss, stats, o.TrainWorkers, s); eff != nil {
		m.Efficiency = eff
		m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, eff.Warnings...)
	} else {
		m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, "no loss in the traces (evals.csv or steps.csv's loss column): the loss curve and the staleness cost are not fitted, and speedups are throughput ratios")
	}
	res.Model = m
	res.Warnings = m.Diagnostics.Warnings
	return res, nil
}

// profileMissFactor is how far (a factor either way) the network built
// from the profile run's phase means may predict that run's own measured
// rate before a warning says the two disagree. Contention is nil at one
// worker, so the network is then the phases' sum against the iteration
// time; the project's profiles (testdata/asgd, asgd/cpu, synthetic)
// land within 3%.
const profileMissFactor = 2.0

// profileMissWarning says when the network at th (family f) misses the
// profile run pr itself by more than profileMissFactor: its phases and
// its iterations' start and end disagree (phases in milliseconds against
// start and end in seconds gave a model 1000 times too slow, fitted with
// no word, where inspect warned).
func profileMissWarning(f Family, th []float64, pr RunStats) string {
	if !(pr.StepsPerS > 0) {
		return ""
	}
	pred := f.Predict(th, pr.Config())
	if r := pred / pr.StepsPerS; !(r > 1/profileMissFactor && r < profileMissFactor) {
		sum := nz(pr.Pull.Mean) + nz(pr.Compute.Mean) + nz(pr.Push.Mean)
		return fmt.Sprintf("the two-node profile's network predicts its own run %s at %.4g steps/s where the run measured %.4g (%.3g times): its phase means (pull + compute + push = %.4g s) and its iterations' start and end (%.4g s an iteration) disagree, so every prediction is off by as much: are the phases in other units than start and end, or does part of the iteration (loading data, waiting at a barrier) fall outside pull, compute and push?", pr.Run, pred, pr.StepsPerS, r, sum, float64(pr.Workers)/pr.StepsPerS)
	}
	return ""
}

// MostMeasured is the batch (batch(p) of the points) measured at the most
// worker counts, the first such in the data on a tie; first when no batch
// is known.
func MostMeasured(pts []Point, first float64, batch func(Point) float64) float64 {
	counts := map[float64]map[int]bool{}
	var order []float64
	for _, p := range pts {
		b := math.Round(batch(p)*1e6) / 1e6
		if !(b > 0) {
			continue
		}
		if counts[b] == nil {
			counts[b] = map[int]bool{}
			order = append(order, b)
		}
		counts[b][p.Config.Workers] = true
	}
	best := first
	n := 0
	for _, b := range order {
		if len(counts[b]) > n {
			best, n = b, len(counts[b])
		}
	}
	return best
}

// GlobalBatchOf is a point's global batch: per-worker batch x workers.
func GlobalBatchOf(p Point) float64 { return p.Config.Batch * float64(p.Config.Workers) }

// profileFit builds the "mva" fit from the two-node profile: the demands
// and SCVs are those measured on the profile run, solved by the given MVA
// variant (model.AsyncPS); nothing is refined on the other training runs,
// which only score it. Intervals come from the standard errors of the
// profile's phase means.
func profileFit(prof Profile, pts []Point, stats []RunStats, s Settings, variant string) (*ThroughputFit, error) {
	q := prof.Queueing(variant)
	f := mvaFamily(q)
	th := prof.Theta()
	var warn []string
	others := 0
	for _, p := range pts {
		if p.Config.Workers > 1 {
			others++
		}
	}
	if others == 0 {
		warn = append(warn, "only one worker count in the training runs: contention is predicted by the queueing network from the two-node profile alone, not checked against data")
	}
	var batches []string
	for _, r := range stats {
		if b := fmt.Sprint(r.Batch); r.Batch > 0 && float64(r.Batch) != prof.Batch && !slices.Contains(batches, b) {
			batches = append(batches, b)
		}
	}
	// A training run of 1 worker at another batch splits the compute into
	// z0 + z1 b (the two compute means on a line).
	second, split, splitWarn := computeSplit(prof, pts, stats)
	if split {
		th[0], th[1] = computeLine(prof.Batch, prof.Z, float64(second.Batch), second.Compute.Mean)
	}
	switch {
	case split:
		warn = append(warn, fmt.Sprintf("compute split into z0 + z1 b from the 1-worker runs %s (batch %.4g, %.4g s) and %s (batch %d, %.4g s): z0 = %.4g s, z1 = %.4g s per sample", prof.FromRun, prof.Batch, prof.Z, second.Run, second.Batch, second.Compute.Mean, th[0], th[1]))
	case splitWarn != "":
		warn = append(warn, splitWarn)
	case len(batches) == 0:
		warn = append(warn, "compute time per sample not identified (one batch size): z1 = 0, all compute in z0")
	default:
		// (it said "one batch size" on data with two)
		warn = append(warn, fmt.Sprintf("compute time per sample not estimated: the two-node profile is one run, at batch %.4g (the data also hold %s, but no training run of 1 worker there): z1 = 0, all compute in z0, so predictions at another batch keep the profile's compute time", prof.Batch, strings.Join(batches, ", ")))
	}
	tf := &ThroughputFit{Family: f, Theta: th, CVError: math.NaN(), Warnings: warn, Queueing: &q}
	// Without a split, z1 (compute per sample) is set to 0, not measured:
	// fit marks it as set by the form (its interval [0, 0] says nothing of it)
	tf.PriorSet = make([]bool, len(th))
	tf.PriorSet[1] = !split
	tf.Residuals = make([]float64, len(pts))
	ss := 0.0
	for i, p := range pts {
		tf.Residuals[i] = math.Log(f.Predict(th, p.Config) / p.StepsPerS)
		ss += tf.Residuals[i] * tf.Residuals[i]
	}
	tf.RMSLE = math.Sqrt(ss / float64(len(pts)))
	// Relative uncertainty of the demands from the spread of the profile's
	// phase means: a batch-means bootstrap approximated by the standard
	// error of each mean (SCV/n; the link's from its pull and transfer,
	// linkRelSE), 1.645 sd for 90%.
	var pr RunStats
	for _, r := range stats {
		if r.Run == prof.FromRun {
			pr = r
		}
	}
	if w := profileMissWarning(f, th, pr); w != "" {
		tf.Warnings = append(tf.Warnings, w)
	}
	tf.Lo = append([]float64(nil), th...)
	tf.Hi = append([]float64(nil), th...)
	rng := newRand(s.Seed)
	z := zQuantile(s.Level)
	seZ := math.Sqrt(nz(pr.Compute.SCV)/float64(max(pr.Compute.N, 1))) * prof.Z
	seL := linkRelSE(pr) * prof.Link
	seA := math.Sqrt(nz(pr.Apply.SCV)/float64(max(pr.Apply.N, 1))) * prof.Apply
	tf.Lo[0], tf.Hi[0] = math.Max(th[0]-z*seZ, 0), th[0]+z*seZ
	tf.Lo[2], tf.Hi[2] = math.Max(th[2]-z*seL, 0), th[2]+z*seL
	tf.Lo[3], tf.Hi[3] = math.Max(th[3]-z*seA, 0), th[3]+z*seA
	// with a split, z0 and z1 are lines through the two compute means,
	// each drawn from its standard error
	var se2 float64
	b1, b2 := prof.Batch, float64(second.Batch)
	splitAt := func(c1, c2 float64) (float64, float64) { // a refit's line, kept >= 0
		_, k := computeLine(b1, c1, b2, c2)
		k = math.Max(k, 0)
		return math.Max(c1-k*b1, 0), k
	}
	if split {
		se2 = math.Sqrt(nz(second.Compute.SCV)/float64(max(second.Compute.N, 1))) * second.Compute.Mean
		// intervals by propagation (independent means)
		r := b1 / (b2 - b1)
		se0 := math.Hypot((1+r)*seZ, r*se2)
		se1 := math.Hypot(seZ, se2) / math.Abs(b2-b1)
		tf.Lo[0], tf.Hi[0] = math.Max(th[0]-z*se0, 0), th[0]+z*se0
		tf.Lo[1], tf.Hi[1] = math.Max(th[1]-z*se1, 0), th[1]+z*se1
	}
	if s.Bootstrap > 0 {
		for b := 0; b < s.Bootstrap; b++ {
			v := append([]float64(nil), th...)
			v[0] = math.Max(th[0]+seZ*rng.NormFloat64(), 0)
			if split {
				v[0], v[1] = splitAt(prof.Z+seZ*rng.NormFloat64(), second.Compute.Mean+se2*rng.NormFloat64())
			}
			v[2] = math.Max(th[2]+seL*rng.NormFloat64(), 0)
			v[3] = math.Max(th[3]+seA*rng.NormFloat64(), 0)
			tf.Samples = append(tf.Samples, v)
		}
	}
	return tf, nil
}

// computeLine is the line z0 + z1 b through the compute times c1 at
// batch b1 and c2 at b2.
func computeLine(b1, c1, b2, c2 float64) (z0, z1 float64) {
	z1 = (c2 - c1) / (b2 - b1)
	return c1 - z1*b1, z1
}

// computeSplit finds a training run that splits the profile's compute
// into z0 + z1 b: one worker, the profile's shards and link rate, phase
// times, at another batch (the first such in stats whose line through the
// two compute means has z1 > 0 and z0 >= 0). Without one, a run that was
// tried gives a warning saying why it was not used.
func computeSplit(prof Profile, pts []Point, stats []RunStats) (second RunStats, split bool, warn string) {
	for _, r := range stats {
		if r.Workers != 1 || r.PS != prof.PS || !r.HasPhases || r.Compute.N == 0 || r.Batch <= 0 || float64(r.Batch) == prof.Batch ||
			(prof.Bandwidth > 0 && r.Bandwidth > 0 && r.Bandwidth != prof.Bandwidth) {
			continue
		}
		// a training run: its configuration is among the fitted points
		if !slices.ContainsFunc(pts, func(p Point) bool { return p.Config.Workers == 1 && p.Config.Batch == float64(r.Batch) }) {
			continue
		}
		if z0, z1 := computeLine(prof.Batch, prof.Z, float64(r.Batch), r.Compute.Mean); z1 > 0 && z0 >= 0 {
			return r, true, ""
		}
		if warn == "" { // the first tried; a later run may still split it
			warn = fmt.Sprintf("compute time per sample not identified: the 1-worker runs %s (batch %.4g) and %s (batch %d) compute %.4g s and %.4g s, not more for more samples on a line through z0 >= 0: z1 = 0, all compute in z0", prof.FromRun, prof.Batch, r.Run, r.Batch, prof.Z, r.Compute.Mean)
		}
	}
	return RunStats{}, false, warn
}

// profileCV is the MAPE (%) of the profile fit on the training
// configurations other than the profile's own (nothing is fitted on them,
// so this is an out-of-sample error); NaN when there is none.
func profileCV(prof Profile, pts []Point, stats []RunStats, s Settings, variant string) float64 {
	s.Bootstrap = -1
	tf, err := profileFit(prof, pts, stats, s, variant)
	if err != nil {
		return math.NaN()
	}
	sum, n := 0.0, 0
	for _, p := range pts {
		if p.Config.Workers == 1 && p.Config.PS == prof.PS && (p.Config.Bandwidth == 0 || p.Config.Bandwidth == prof.Bandwidth) {
			continue
		}
		pr := tf.Family.Predict(tf.Theta, p.Config)
		sum += math.Abs(pr-p.StepsPerS) / p.StepsPerS
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return 100 * sum / float64(n)
}

func nz(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// curvesFromTrace collects each run's loss curve as the streamed fit
// reads it (traces.Summarize: evals.csv from traces.MinEvals usable
// evaluations, else the per-step losses of steps.csv in 20 bins of wall
// time), so that FitSteps and FitStepsPaths fit the same points (the fit in
// memory binned the per-step losses its own way, and its lambda differed).
// It returns the number of infinite losses of the curves skipped.
func curvesFromTrace(t *traces.Trace) (map[string][]lossPoint, int) {
	curves, skipped := map[string][]lossPoint{}, 0
	for _, r := range traces.Summarize(t) {
		skipped += addCurve(curves, r)
	}
	return curves, skipped
}

// addCurve adds run r's loss points with an update count and a finite
// loss to curves and returns how many it skipped for an infinite loss (an
// empty loss, an accuracy-only evaluation, is not in r.Loss; a converted
// TensorBoard scalar may be infinite).
func addCurve(curves map[string][]lossPoint, r traces.RunSummary) int {
	skipped := 0
	for _, l := range r.Loss {
		switch {
		case math.IsInf(l.Loss, 0):
			skipped++
		case l.Updates >= 0 && !math.IsNaN(l.Loss):
			curves[r.Run] = append(curves[r.Run], lossPoint{l.Middle(), l.Loss, float64(l.Span)})
		}
	}
	return skipped
}

// fitEfficiency fits the loss curve of each run and the staleness law
// across runs, lambda's interval at s.Level (the profile likelihood's,
// joined with s.Bootstrap resamples of whole runs, s.Seed), the staleness
// law's interval (s.Bootstrap resamples of its runs) and the curve's
// samples by s.Bootstrap resamples of each run's points (CurveSamples).
// With s.Bootstrap <= 0 nothing is resampled: lambda keeps the profile
// likelihood's interval, the staleness and the curve have none. It
// returns nil when there is no loss at all.
func fitEfficiency(curves map[string][]lossPoint, nanLoss int, stats []RunStats, trainWorkers []int, s Settings) *Efficiency {
	type lp = lossPoint
	eff := &Efficiency{}
	if nanLoss > 0 {
		eff.Warnings = append(eff.Warnings, fmt.Sprintf("%d losses are infinite (a diverged run?) and were skipped", nanLoss))
	}
	if len(curves) == 0 {
		if nanLoss > 0 {
			eff.Warnings = append(eff.Warnings, "no finite loss: the loss curve and the staleness cost are not fitted (speedup = throughput ratio)")
			eff.B0, eff.B1, eff.B2 = 0, 0, 0
			return &Efficiency{Warnings: eff.Warnings, StalenessPerWorker: 1, StalenessAssumed: true}
		}
		return nil
	}
	// Synchronous runs at 3 or more global batches: the batch law.
	law, warn, ok := fitBatchLaw(curves, stats, trainWorkers, s)
	eff.Warnings = append(eff.Warnings, warn...)
	if ok {
		law.Warnings = append(eff.Warnings, law.Warnings...)
		return law
	}
	runs := stalenessRunsFrom(stats, curves, trainWorkers)
	eff.StalenessPerWorker, eff.StalenessAssumed = 1, true
	xs, ss := stalenessPoints(stats, trainWorkers)
	if a, ok := stalenessLaw(xs, ss); ok {
		eff.StalenessPerWorker, eff.StalenessAssumed = a, false
		eff.StalenessLo, eff.StalenessHi, eff.StalenessScatter = stalenessUncertainty(xs, ss, eff.StalenessPerWorker, s.Bootstrap, s.Seed, s.Level)
		if eff.StalenessScatter > 0 && len(xs) <= 3 {
			// the scatter's degrees of freedom: the runs that measured a
			// staleness above 0, less one
			pos := 0
			for _, v := range ss {
				if v > 0 {
					pos++
				}
			}
			eff.StalenessScatterScale = stalenessScatterScale(pos, s.Level)
		}
	}
	// the staleness law alone, when there is no loss curve to fit
	stalenessOnly := func() *Efficiency {
		return &Efficiency{Warnings: eff.Warnings, StalenessPerWorker: eff.StalenessPerWorker, StalenessAssumed: eff.StalenessAssumed,
			StalenessLo: eff.StalenessLo, StalenessHi: eff.StalenessHi, StalenessScatter: eff.StalenessScatter, StalenessScatterScale: eff.StalenessScatterScale}
	}
	if len(runs) == 0 {
		eff.Warnings = append(eff.Warnings, "no run has 3 or more finite losses: no loss curve")
		return stalenessOnly()
	}
	batch, pooled := curveBatch(runs, stats)
	if pooled != "" {
		eff.Warnings = append(eff.Warnings, pooled)
	}
	eff.Warnings = append(eff.Warnings, curveWarnings(runs, stats)...)
	// One curve for every run, its rate divided by 1 + lambda s at the
	// run's mean staleness s (FitStalenessLaw: shared initial loss and
	// floor, bootstrap over runs for lambda's interval).
	sf, err := FitStalenessLaw(runs, s.Bootstrap, s.Seed, s.Level)
	if err != nil {
		eff.Warnings = append(eff.Warnings, "loss curves: "+strings.TrimPrefix(err.Error(), "fit: "))
		return stalenessOnly()
	}
	if !(sf.Curve.B0 > 0) {
		// the rate at its bound 0: a curve that never falls, through
		// which every target below the start is never reached; model.json
		// refuses it, and the fit failed whole, the throughput model too
		eff.Warnings = append(eff.Warnings, fmt.Sprintf("loss curves: the fitted rate b0 is 0 (initial loss %.4g, floor %.4g): over %d points the loss does not fall measurably beside its noise, so no loss curve is kept and the updates to a target are not predicted", 1/sf.Curve.B1+sf.Curve.B2, sf.Curve.B2, curvePoints(runs)))
		return stalenessOnly()
	}
	if fall, kmax := curveFall(sf.Curve, runs); !(fall > sf.RMSE/math.Sqrt(float64(curvePoints(runs)))) {
		// b0 left near its start's floor (1e-12) by losses that do not
		// move: a curve flat to rounding, written to model.json, whose
		// updates to any target below it were 1e12 times the data's or
		// whose run scatter failed the model's own checks (exit 1). The
		// fall is judged against the noise of a mean of the points
		// (RMSE / sqrt(points)), not of one point: a slow fall of 0.25
		// beside a residual of 0.29 over 288 points is real (a line
		// through them has t = -4.2), and its curve was dropped.
		eff.Warnings = append(eff.Warnings, fmt.Sprintf("loss curves: the fitted curve (rate b0 %.3g, initial loss %.4g, floor %.4g) falls by %.3g over the %.6g updates fitted, no more than its root mean square residual %.3g over the square root of its %d points: the loss does not fall measurably beside its noise, so no loss curve is kept and the updates to a target are not predicted", sf.Curve.B0, 1/sf.Curve.B1+sf.Curve.B2, sf.Curve.B2, fall, kmax, sf.RMSE, curvePoints(runs)))
		return stalenessOnly()
	}
	// an exact fit, as curveUncertainty counts it (it keeps no samples)
	if total, p := curvePoints(runs), curveParams(sf); total <= p {
		with := "b0, b1, b2 and lambda"
		if p == 3 {
			with = "b0, b1 and b2, lambda held at 0"
		}
		eff.Warnings = append(eff.Warnings, fmt.Sprintf("loss curve through %d points (%d parameters: %s): an exact fit that nothing checks, and no interval of its own", total, p, with))
	}
	eff.B0, eff.B1, eff.B2 = sf.Curve.B0, sf.Curve.B1, sf.Curve.B2
	eff.Batch = batch
	eff.Lambda, eff.LambdaLo, eff.LambdaHi = sf.Lambda, sf.LambdaLo, sf.LambdaHi
	eff.CurveSamples, eff.CurveScale = curveUncertainty(runs, sf, s)
	if len(runs) > 1 {
		eff.RunScatter = updatesScatter(runs, sf, highestLastLoss(runs))
	}
	for i, r := range runs {
		l := sf.CurveAt(r.Staleness).Loss(r.K[len(r.K)-1])
		eff.TargetLoss = math.Max(eff.TargetLoss, l)
		if i == 0 || l < eff.LowestLoss {
			eff.LowestLoss = l
		}
	}
	eff.LowestMeasuredLoss = lowestMeasuredLoss(runs)
	switch {
	case sf.Levels < 2:
		eff.LambdaFixed = true
		// a synchronous job has no staleness: lambda is not wanted, and
		// saying it is not identified would only be noise
		if anyAsync(runs, stats) {
			eff.Warnings = append(eff.Warnings, "loss curves at one staleness only: the staleness cost (lambda) is not identified and taken as 0")
		}
	case !(sf.LambdaLo > 0):
		eff.Warnings = append(eff.Warnings, fmt.Sprintf("staleness cost lambda %.3g, %.3g%% interval [%.3g, %.3g]"+lambdaZeroMark+"staleness %.2g to %.2g updates); the updates to target may grow with workers more than predicted", sf.Lambda, 100*s.Level, sf.LambdaLo, sf.LambdaHi, minStaleness(runs), maxStaleness(runs)))
	}
	return eff
}

// curveFall is how much c (at staleness 0, its fastest) falls from update
// 0 to the last update of runs' points, and that update.
func curveFall(c model.LossCurve, runs []StalenessRun) (fall, kmax float64) {
	for _, r := range runs {
		for _, k := range r.K {
			kmax = math.Max(kmax, k)
		}
	}
	return c.Loss(0) - c.Loss(kmax), kmax
}

// anyAsync says whether one of runs is asynchronous (or of no stated
// mode, which the readers take as asynchronous) by its stats.
func anyAsync(runs []StalenessRun, stats []RunStats) bool {
	mode := map[string]string{}
	for _, r := range stats {
		mode[r.Run] = r.Mode
	}
	for _, r := range runs {
		if m := mode[r.Run]; m == "async" || m == "" {
			return true
		}
	}
	return false
}

// curveWarnings says what the staleness fit of runs takes on trust: an
// asynchronous run with several workers and no measured staleness (no
// staleness column in steps.csv, no updates.csv), whose staleness is then
// taken as N - 1; and a run whose loss does not fall (the mean of the last
// third of its points not below the first third's), through which the
// curve is fitted with a rate near 0 and absurd updates to any target.
func curveWarnings(runs []StalenessRun, stats []RunStats) []string {
	var out, assumed []string
	measured := map[string]bool{}
	for _, r := range stats {
		measured[r.Run] = r.Staleness.N > 0 || r.Mode != "async" && r.Mode != ""
	}
	for _, r := range runs {
		if r.Workers > 1 && !measured[r.Run] {
			assumed = append(assumed, r.Run)
		}
		n := len(r.Loss) / 3
		if n == 0 {
			continue
		}
		first, last := 0.0, 0.0
		for j := 0; j < n; j++ {
			first += r.Loss[j]
			last += r.Loss[len(r.Loss)-1-j]
		}
		if last >= first {
			out = append(out, fmt.Sprintf("run %s: the loss does not fall (mean of the first third of its curve %.4g, of the last third %.4g): the loss curve through it, and the updates and time to any target, mean nothing", r.Run, first/float64(n), last/float64(n)))
		}
	}
	if len(assumed) > 0 {
		word := "run "
		if len(assumed) > 1 {
			word = "runs "
		}
		out = append(out, fmt.Sprintf("no staleness measured in %s (no staleness column in steps.csv, no updates.csv): taken as N - 1, so the staleness cost rests on that assumption", word+strings.Join(assumed, ", ")))
	}
	return out
}

// curveBatch is the samples per update (samplesPerStep) in which the loss
// curve of runs counts its updates: the runs' own when they share one;
// when they differ, their geometric mean, with each run's updates
// rescaled to it in place (the curve then pools the runs in samples: the
// same samples to a loss at every batch) and a warning that says so. 0
// when a run's batch is unknown.
func curveBatch(runs []StalenessRun, stats []RunStats) (float64, string) {
	sps := map[string]float64{}
	for _, r := range stats {
		sps[r.Run] = samplesPerStep(r)
	}
	lo, hi, logSum := math.Inf(1), math.Inf(-1), 0.0
	for _, r := range runs {
		b := sps[r.Run]
		if !(b > 0) || math.IsInf(b, 0) {
			return 0, ""
		}
		lo, hi = math.Min(lo, b), math.Max(hi, b)
		logSum += math.Log(b)
	}
	if len(runs) == 0 {
		return 0, ""
	}
	if hi <= lo*(1+1e-9) {
		return lo, ""
	}
	ref := math.Exp(logSum / float64(len(runs)))
	for i := range runs {
		f := sps[runs[i].Run] / ref
		for j := range runs[i].K {
			runs[i].K[j] *= f
		}
		for j := range runs[i].W {
			runs[i].W[j] *= f
		}
	}
	return ref, fmt.Sprintf("the loss curves of runs at %.4g to %.4g samples per update are pooled in samples (one curve in updates of %.4g samples): the same samples to a loss at every batch is assumed, not measured (ideal batch scaling: optimistic above the critical batch size); runs at 3 or more global batches fit the batch law instead", lo, hi, ref)
}

func minStaleness(rs []StalenessRun) float64 {
	m := math.Inf(1)
	for _, r := range rs {
		m = math.Min(m, r.Staleness)
	}
	return m
}

func maxStaleness(rs []StalenessRun) float64 {
	m := math.Inf(-1)
	for _, r := range rs {
		m = math.Max(m, r.Staleness)
	}
	return m
}

// fitLossCurve fits l(k) = 1/(b0 k + b1) + b2 to n points by bounded LM.
func fitLossCurve(at func(i int) (k, l float64), n int) (model.LossCurve, bool) {
	k0, l0 := at(0)
	kn, ln := at(n - 1)
	_ = k0
	floor := math.Max(ln-0.5*math.Abs(l0-ln), 0)
	b1 := 1 / math.Max(l0-floor, 1e-9)
	b0 := math.Max((1/math.Max(ln-floor, 1e-9)-b1)/math.Max(kn, 1), 1e-12)
	prob := Problem{
		M: n,
		Residuals: func(dst, p []float64) {
			c := model.LossCurve{}.WithParams(p)
			for i := 0; i < n; i++ {
				k, l := at(i)
				dst[i] = c.Loss(k) - l
			}
		},
		Lower: []float64{0, 1e-12, 0},
		Upper: []float64{math.Inf(1), math.Inf(1), math.Inf(1)},
	}
	r, err := LevenbergMarquardt(prob, []float64{b0, b1, floor}, nil)
	if err != nil {
		return model.LossCurve{}, false
	}
	return model.LossCurve{}.WithParams(r.X), true
}

// computeGrowth says, as a warning, when the mean compute time of the runs
// with the most workers exceeds that of the runs with the fewest by more than
// 15%: the workers then share a CPU (or something else), which the delay
// station of the profile does not see. "" when it does not grow or cannot be
// told (one worker count, no phase times).
func computeGrowth(runs []RunStats) string {
	lo, hi := math.MaxInt, 0
	for _, r := range runs {
		if r.HasPhases && r.Compute.Mean > 0 {
			lo, hi = min(lo, r.Workers), max(hi, r.Workers)
		}
	}
	if hi <= lo {
		return ""
	}
	mean := func(w int) float64 {
		var sum, n float64
		for _, r := range runs {
			if r.HasPhases && r.Compute.Mean > 0 && r.Workers == w {
				sum += r.Compute.Mean
				n++
			}
		}
		return sum / n
	}
	a, b := mean(lo), mean(hi)
	if b <= 1.15*a {
		return ""
	}
	return fmt.Sprintf("compute time grows with workers (%.4g s at %d, %.4g s at %d, +%.0f%%): the workers seem to share a CPU, which a delay station does not model; try --shared-cores C (the cores per machine they share)", a, lo, b, hi, 100*(b/a-1))
}

// profileLargest is the MAPE (%) of a profile fit on the training points
// with the most workers (nothing is fitted on them); NaN when those are
// the profile's own (one worker).
func profileLargest(tf *ThroughputFit, pts []Point) float64 {
	_, out, maxW, _ := splitLargest(pts)
	if maxW <= 1 {
		return math.NaN()
	}
	sum := 0.0
	for _, p := range out {
		sum += math.Abs(tf.Family.Predict(tf.Theta, p.Config)-p.StepsPerS) / p.StepsPerS
	}
	return 100 * sum / float64(len(out))
}

// samplesPerStep is the per-worker batch of an asynchronous update, or the
// global batch (batch x workers) of a synchronous step.
func samplesPerStep(r RunStats) float64 {
	if r.PerStep > 0 {
		return r.PerStep
	}
	if r.Mode == "async" || r.Mode == "" {
		return float64(r.Batch)
	}
	return float64(r.Batch) * float64(r.Workers)
}
