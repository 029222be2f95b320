package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/internal/jsontext"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/planner"
)

// Exit codes of check's verdicts.
const (
	exitWarn = 3 // past the knee
	exitFail = 4 // past saturation
)

// maxCheckWorkers bounds check's worker count: the verdict walks every
// count up to it for the fit and each of its bootstrap refits (about two
// seconds at the bound for a queueing-network model; a billion hung).
const maxCheckWorkers = 10_000

// kneeAlpha is check's marginal-gain rule of the knee (the rule
// model.Knee states; check applies its own, in verdict): past the knee,
// one more worker adds less than half a worker's speed.
const kneeAlpha = 0.5

// flatTol is the loss below which N workers' harm is flat, not a failure:
// N workers that make the job slower, or its time to target longer, than
// the best count below N by less than 1% are judged by the knee (warn)
// instead. Before, the N-th worker failed on any loss: a 0.006% longer time
// to target (sync-gns at 64 workers), within any fit's noise.
const flatTol = 0.01

// saturated is the utilisation of the busiest PS station from which check
// fails: the queue there grows without bound as workers are added.
const saturated = 0.9

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "check a worker count before launch: fine, past the knee, or past saturation",
		ArgsUsage: "[MANIFEST.yaml | -]",
		Description: `Gives the verdict of a model.json on a planned (workers, ps), or on the replica
counts of a Kubeflow TFJob (spec.tfReplicaSpecs: Worker trains, and a Chief/Master too
without PS replicas, as beside them ParameterServerStrategy's chief only coordinates; PS are
the shards) or PyTorchJob (spec.pytorchReplicaSpecs: Master + Worker, times spec.nprocPerNode
processes per replica, the operator's world size, and the workers a machine unless
--per-node) manifest, the one job among the file's
YAML documents or a List's items ("kubectl get -o yaml"); "-" reads it from standard input.
nprocPerNode gpu (or auto on pods given GPUs) counts the nvidia.com/gpu limit of the
pytorch container; cpu, or auto without it, needs --workers (torchrun counts at launch).
--workers and --ps override the manifest.
Exit codes: 0 fine, 3 past the knee (one more worker adds less than half a worker's speed,
or of progress to the target when the model's statistical efficiency varies), 4 past
saturation (a PS station at least 90% busy, or the job more than 1% slower than at the
fastest smaller count) or past the best time to target (more than 1% longer to the target
than at the fastest count: the last workers' staleness, or a synchronous job's larger global
batch, costs more than their speed adds), 2 bad input, 1 another error (one writing the
verdict out included: no verdict then). A loss within 1% is flat: the knee judges it (3 or
0), not 4. The speedup printed is T(1)/T(N): the time to the target loss when the model
has a loss curve (with a staleness cost or a batch law, it is then below the samples/s ratio),
else the samples/s ratio.

Examples:
   sgdplan check --model model.json --workers 8 --ps 2
   sgdplan check --model model.json testdata/manifests/tfjob.yaml`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "model", Usage: "model.json written by sgdplan fit (required)"},
			&cli.StringFlag{Name: "workers", Usage: "planned workers", DefaultText: "the manifest's"},
			&cli.StringFlag{Name: "ps", Usage: "planned PS shards", DefaultText: "the model's"},
			&cli.Float64Flag{Name: "bandwidth", Usage: "planned link rate per shard link and direction, B/s (an mva model fitted with runs.csv bandwidth)", DefaultText: "the rate it was fitted at"},
			&cli.Float64Flag{Name: "batch", Usage: "planned samples per worker and step", DefaultText: "the model's reference batch"},
			&cli.Float64Flag{Name: "global-batch", Usage: "planned samples per step split among the workers (strong scaling; excludes --batch)", DefaultText: "none"},
			&cli.IntFlag{Name: "per-node", Usage: "planned workers per machine (models whose cost depends on placement)", DefaultText: "the model's placement"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table (lines of text) or json (one object: verdict, exit_code, reason, the prediction, the bootstrap's and the other fits' verdicts, notes, warnings)"},
		},
		Action: func(c *cli.Context) error {
			err := runCheck(c)
			if err != nil && c.String("format") == "json" {
				writeCheckError(c, err)
			}
			return err
		},
	}
}

// inputErr is an error of check's input what (model or manifest).
type inputErr struct {
	what string
	err  error
}

func (e *inputErr) Error() string { return e.err.Error() }
func (e *inputErr) Unwrap() error { return e.err }

// checkErrorJSON is check's answer under --format json when it gives no
// verdict: a script reading stdout had nothing to read.
type checkErrorJSON struct {
	Verdict  string `json:"verdict"` // "error"
	ExitCode int    `json:"exit_code"`
	Error    string `json:"error"`
	// Input is the file at fault, "model" or "manifest" (absent: a
	// flag, or no file in particular), so that a gate can tell a
	// manifest to mend from a model.json of its own to mend.
	Input string `json:"input,omitempty"`
}

// writeCheckError writes err, which ends check without a verdict, as a
// checkErrorJSON on stdout (nothing for an exit code that carries a
// verdict, which has been written).
func writeCheckError(c *cli.Context, err error) {
	var ee *exitError
	code := exitFailure
	if errors.As(err, &ee) {
		if ee.err == nil {
			return
		}
		code = ee.code
	}
	out := checkErrorJSON{Verdict: "error", ExitCode: code, Error: err.Error()}
	var ie *inputErr
	if errors.As(err, &ie) {
		out.Input = ie.what
	}
	b, _ := jsontext.MarshalIndent(out, "", "  ")
	c.App.Writer.Write(append(b, '\n'))
}

func runCheck(c *cli.Context) error {
	args, err := interspersed(c)
	if err != nil {
		return interspersedError(c, "check", err)
	}
	if len(args) > 1 {
		return badInput(fmt.Errorf("check: one manifest at most, got %d", len(args)))
	}
	if err := finiteFlags(c); err != nil {
		return err
	}
	format := c.String("format")
	if format != "table" && format != "json" {
		return badInput(fmt.Errorf("check: --format %q: want table or json", format))
	}
	if err := emptyFlag(c, "model", "the path of a model.json (written by sgdplan fit)"); err != nil {
		return err
	}
	m, err := loadModel("check", c.String("model"))
	if err != nil {
		if c.String("model") == "" {
			return err // a flag not given: no file at fault
		}
		return &inputErr{"model", err}
	}
	asFiled := m // the model as plan and report use it (countsNote)
	if c.IsSet("bandwidth") {
		if m, err = m.WithBandwidth(c.Float64("bandwidth")); err != nil {
			return badInput(asCmd("check", err))
		}
	}
	if m, err = withPerNode(c, m, "check"); err != nil {
		return err
	}
	if m, err = withBatchFlags(c, m, "check"); err != nil {
		return err
	}
	workers, ps := 0, m.Reference.PS
	var mf manifest
	var early []string // warnings found before the verdict
	placed := ""       // the note of a placement the manifest gives
	if len(args) == 1 {
		if args[0] == "-" && isTerminal(c.App.Reader) {
			// "check -" typed at a terminal waited without a word
			fmt.Fprintln(c.App.ErrWriter, "sgdplan: check: reading the manifest from standard input (end it with Ctrl-D, or pipe it: kubectl get tfjob NAME -o yaml | sgdplan check --model model.json -)")
		}
		mf, err = readManifestArg(args[0], c.App.Reader)
		if err != nil {
			return &inputErr{"manifest", badInput(err)}
		}
		if mf.NeedWorkers != "" && !c.IsSet("workers") {
			// no count to judge: said with the manifest's own warnings
			for _, w := range mf.Warnings {
				fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
			}
			return &inputErr{"manifest", badInput(fmt.Errorf("check: %s", mf.NeedWorkers))}
		}
		if !c.IsSet("workers") {
			// "judged at 2 workers; give --workers" said of a verdict
			// at the --workers given misleads
			early = append(early, mf.CountWarnings...)
		}
		early = append(early, mf.Warnings...)
		workers = mf.Workers
		// (the count bounded: a manifest may give 10^12 workers, which
		// is refused below, and a queueing network there does not end)
		matters := mf.PerNode > 0 && placementIgnored(m, []int{min(workers, maxCheckWorkers)}) == ""
		if matters && !c.IsSet("per-node") {
			// a PyTorchJob's processes per replica are its workers a
			// machine (torchrun's node is the pod): 2 replicas of
			// nprocPerNode "8" were judged at the model's 4 a machine
			if mf.PerNode != m.Reference.PerNode || m.Reference.Nodes > 0 {
				placed = fmt.Sprintf("placed at %d workers a machine, the manifest's processes per replica (%s), not the model's %s; --per-node sets another", mf.PerNode, mf.PerNodeFrom, modelPlacement(m))
			}
			if w := placementBeyond(m, mf.PerNode, "the manifest ("+mf.PerNodeFrom+")"); w != "" {
				early = append(early, w)
			}
			m = placedAt(m, mf.PerNode)
		} else if matters && c.Int("per-node") != mf.PerNode {
			early = append(early, fmt.Sprintf("--per-node %d overrides the manifest's %d processes a replica (%s) as the workers a machine: placed at %d", c.Int("per-node"), mf.PerNode, mf.PerNodeFrom, c.Int("per-node")))
		}
		if mf.HasPS {
			ps = mf.PS
		} else if m.Reference.PS > 0 && !c.IsSet("ps") {
			why := "a PyTorchJob trains without parameter servers"
			if mf.Kind == "TFJob" {
				why = "a TFJob without PS replicas trains by all-reduce"
			}
			early = append(early, fmt.Sprintf("%s has no PS replicas (%s), but the model (%s) has them: judged at its %s; is it this job's model?", manifestName(args[0]), why, m.Mode, words.Count(ps, "shard")))
		}
		// said now: the checks below may stop the command
		for _, w := range early {
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		}
	}
	if c.IsSet("workers") {
		if workers, err = parseCount(c.String("workers"), "--workers", maxCheckWorkers, "workers"); err != nil {
			return badInput(fmt.Errorf("check: %v", err))
		}
	}
	if c.IsSet("ps") {
		if ps, err = parseCount(c.String("ps"), "--ps", maxCount, "PS shards"); err != nil {
			return badInput(fmt.Errorf("check: %v", err))
		}
	}
	if len(args) == 1 {
		// a --workers left in a CI script judged every manifest at its
		// count, without a word
		var over []string
		// (not where the manifest gives no count and asked for
		// --workers: its Workers are the replicas alone)
		if c.IsSet("workers") && workers != mf.Workers && mf.NeedWorkers == "" {
			over = append(over, fmt.Sprintf("--workers %d overrides the %s (at %s): judged at %d", workers, words.Count(mf.Workers, "worker")+" the manifest gives", orName(mf.WorkersAt, args[0]), workers))
		}
		if c.IsSet("ps") && mf.HasPS && ps != mf.PS {
			over = append(over, fmt.Sprintf("--ps %d overrides the %s (at %s): judged at %d", ps, words.Count(mf.PS, "PS shard")+" the manifest gives", orName(mf.PSAt, args[0]), ps))
		}
		for _, w := range over {
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		}
		early = append(early, over...)
	}
	// where a count came from: the manifest's line unless a flag overrode it
	from := func(flag string) string {
		if len(args) == 0 || c.IsSet(flag) {
			return ""
		}
		at := mf.WorkersAt
		if flag == "ps" {
			at = mf.PSAt
		}
		return orName(at, args[0]) + ": "
	}
	if workers > maxCheckWorkers {
		// a PyTorchJob's workers are its replicas times its processes per
		// replica: the position is that of the replicas, so say both
		how := ""
		if from("workers") != "" && mf.Processes > 1 {
			how = fmt.Sprintf(" (%d replicas x %s %d)", workers/mf.Processes, mf.ProcessesKey, mf.Processes)
		}
		return badInput(fmt.Errorf("check: %s%d workers%s: too large: at most %d (check weighs every worker count up to it, for the fit and each bootstrap refit; predict goes to %d)", from("workers"), workers, how, maxCheckWorkers, maxCount))
	}
	if ps > maxCount {
		return badInput(fmt.Errorf("check: %s%d PS shards: too large: at most %d", from("ps"), ps, maxCount))
	}
	if workers < 1 {
		if len(args) == 0 && !c.IsSet("workers") {
			return badInput(errors.New("check: give --workers N or a manifest"))
		}
		return badInput(fmt.Errorf("check: %d workers: want >= 1", workers))
	}
	if c.IsSet("per-node") {
		if w := placementIgnored(m, []int{workers}); w != "" {
			early = append(early, w)
			fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
		}
	}
	if err := splitBatch(m, []int{workers}, "check", c.IsSet("global-batch")); err != nil {
		return err
	}
	switch {
	case ps > 0 && m.Reference.PS == 0:
		return badInput(fmt.Errorf("check: %s%s: the model (%s) has no parameter servers", from("ps"), words.Count(ps, "PS shard"), m.Mode))
	case ps < 1 && m.Reference.PS > 0:
		return badInput(fmt.Errorf("check: %s%d PS shards: want >= 1 (the model has parameter servers)", from("ps"), ps))
	case ps < 0:
		return badInput(fmt.Errorf("check: %s%d PS shards: want 0 (the model has no parameter servers)", from("ps"), ps))
	}
	v := verdict(m, workers, ps)
	if v.bad != "" {
		return &inputErr{"model", badInput(fmt.Errorf("check: %s: the model predicts %s: not a finite positive number, so it cannot judge the job (check its parameters)", c.String("model"), v.bad))}
	}
	out := checkJSON{Verdict: v.word, ExitCode: v.code, Reason: v.reason, Workers: workers, PS: ps,
		StepsPerS: v.pred.StepsPerS.Value, StepsPerSLo: v.pred.StepsPerS.Lo, StepsPerSHi: v.pred.StepsPerS.Hi,
		Speedup: v.pred.Speedup.Value, Efficiency: v.pred.Efficiency.Value, Warnings: early,
		WorkersFrom: countSource(c, args, "workers", mf.WorkersAt, true), PSFrom: countSource(c, args, "ps", mf.PSAt, mf.HasPS),
		KneeWorkers: v.knee, FastestWorkers: v.fastest}
	// what the verdict is at, as predict's rows say it (a script could
	// not tell a --batch or --bandwidth check from another)
	out.Batch, out.Bandwidth = shownAt(m, model.Config{Workers: workers, PS: ps})
	var lines []string
	if share, line := verdictSpread(m, workers, ps, v.word); line != "" {
		if share != nil { // (none where the refits are all one fit)
			out.BootstrapSamples, out.BootstrapShares = len(m.Samples), share
		}
		lines = append(lines, line)
	}
	if ends, line := efficiencyVerdicts(m, workers, ps); line != "" {
		out.EfficiencyEnds = ends
		lines = append(lines, line)
	}
	if !c.IsSet("workers") {
		// an elastic job runs anywhere in its bounds: the verdict at
		// the replicas given said nothing of them (a gate passed a job
		// below its own minReplicas); --workers sets the count
		if ends, line := elasticVerdicts(m, mf, ps); line != "" {
			out.ElasticEnds = ends
			lines = append(lines, line)
			// a gate reads the exit code: the job runs anywhere in its
			// range, so the code is the worst of it (a range whose top
			// failed passed at the replicas given, exit 0)
			if e, ok := worstElastic(ends, v.code); ok {
				out.ExitCode, out.ExitFrom = e.ExitCode, e.Bound
				what := e.Verdict
				if e.ExitCode == exitBadInput {
					what = "no verdict"
				}
				lines = append(lines, fmt.Sprintf("exit %d (%s) from %s %d (%s), the worst of the job's range; at the %s given it is %s", e.ExitCode, what, e.Bound, e.Replicas, words.Count(e.Workers, "worker"), words.Count(workers, "worker"), v.word))
			}
		}
	}
	if g := mf.Processes; g > 1 && !c.IsSet("workers") && workers%g == 0 {
		// the job grows and shrinks by replicas, not workers: the verdict
		// speaks of the next worker, a step it cannot take
		r, sp := workers/g, func(k int) float64 { return m.Progress(k, ps) / m.Progress(1, ps) }
		var parts []string
		for _, rr := range []int{r - 1, r, r + 1} {
			if k := rr * g; rr >= 1 && k <= maxCheckWorkers {
				parts = append(parts, fmt.Sprintf("%s (%d workers) speedup %.4g", words.Count(rr, "replica"), k, sp(k)))
			}
		}
		note := fmt.Sprintf("the job scales by whole replicas of %d processes (%s): %s", g, mf.ProcessesKey, strings.Join(parts, ", "))
		out.Notes = append(out.Notes, note)
		lines = append(lines, note)
	}
	if n := workerCounts(m); n == 1 {
		how := fmt.Sprintf("the %s form's guess", m.Family)
		if m.Family == "mva" {
			how = "the queueing network's prediction from the profile"
		}
		note := fmt.Sprintf("the data have one worker count: how the speed grows with the workers is %s, not measured, and so is this verdict", how)
		out.Notes = append(out.Notes, note)
		lines = append(lines, note)
	}
	if note := strongScalingPriorNote(m, workers); note != "" {
		out.Notes = append(out.Notes, note)
		lines = append(lines, note)
	}
	if placed != "" {
		out.Notes = append(out.Notes, placed)
		lines = append(lines, placed)
	}
	// what moved the verdict off the model as filed, which the counts
	// are of
	var moved []string
	if batchSet(c) {
		moved = append(moved, "batch")
	}
	if c.IsSet("bandwidth") {
		moved = append(moved, "link rate")
	}
	if c.IsSet("per-node") || placed != "" {
		moved = append(moved, "placement")
	}
	if note := countsNote(asFiled, workers, ps, moved); note != "" {
		out.Notes = append(out.Notes, note)
		lines = append(lines, note)
	}
	if rivals, line := rivalVerdicts(m, workers, ps, v.word); line != "" {
		out.Rivals = rivals
		lines = append(lines, line)
	}
	// the fit's own distrust of the model (its miss and superlinear
	// warnings in model.json): check said "fine" without them
	out.Warnings = append(out.Warnings, m.TrustWarnings()...)
	if workers > m.Reference.MaxWorkers {
		beyond := fmt.Sprintf("%s is beyond the %d fitted: the verdict extrapolates the %s model", workersWord(workers), m.Reference.MaxWorkers, m.Family)
		if m.Reference.MaxWorkers < 1 {
			beyond = m.BeyondWorkersWarning([]int{workers}) // ("beyond the 0 fitted")
		}
		out.Warnings = append(out.Warnings, beyond)
		if m.Mode == "async" {
			// predict's word on the staleness law there (check had none)
			out.Warnings = append(out.Warnings, m.StalenessLawWarning())
		}
	}
	if w := m.NoBootstrapWarning(v.pred.StepsPerS.Lo == v.pred.StepsPerS.Hi); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if w := m.ParamIntervalWarning(); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if stalenessUnknown(m, workers) {
		// predict says it too; a verdict of "fine" here would not see a
		// staleness cost that makes the count slower to the target
		out.Warnings = append(out.Warnings, stalenessUnknownText+": the verdict judges the speed alone, and more workers may take longer to the target than it says (fit loss curves at two or more worker counts to measure it)")
	}
	at := []predictRow{{Workers: v.pred.Workers, PS: v.pred.PS, StepsPerS: v.pred.StepsPerS.Value, StepsPerSHi: v.pred.StepsPerS.Hi}}
	for _, w := range []string{m.BeyondNodesWarning([]int{workers}), m.BelowFittedWarning([]int{workers}), m.BeyondShardsWarning([]int{ps}), m.BandwidthWarning(), linkBoundWarning(m, at)} {
		if w != "" {
			out.Warnings = append(out.Warnings, w)
		}
	}
	// the batch warnings predict prints beside the same configuration: a
	// verdict on the time to target past the batch law's fitted batches,
	// or at samples per update the loss curve was not measured at, came
	// with no word (exit 4 and a warnings list without it)
	out.Warnings = append(out.Warnings, batchWarnings(m, []model.Config{{Workers: workers, PS: ps}}, batchSet(c))...)
	// a verdict that could not be printed is no verdict: the write's
	// error (exit 1) comes before its code. The answer goes out in one
	// write: in four, "check ... | head -1" died of SIGPIPE (exit 141)
	// or gave its verdict, as the reader's exit raced the later writes.
	var buf bytes.Buffer
	if format == "json" {
		b, err := jsontext.MarshalIndent(out, "", "  ")
		if err != nil {
			return withCode(exitFailure, err)
		}
		fmt.Fprintf(&buf, "%s\n", b)
	} else {
		fmt.Fprintf(&buf, "%s: %s\n", v.word, v.reason)
		fmt.Fprintf(&buf, "at %s, %d ps: %.4g steps/s [%.4g, %.4g], speedup %.4g, efficiency %.4g\n",
			workersWord(workers), ps, v.pred.StepsPerS.Value, v.pred.StepsPerS.Lo, v.pred.StepsPerS.Hi, v.pred.Speedup.Value, v.pred.Efficiency.Value)
		for _, l := range lines {
			fmt.Fprintln(&buf, l)
		}
	}
	_, werr := c.App.Writer.Write(buf.Bytes())
	for _, w := range out.Warnings[len(early):] { // the early ones are said
		fmt.Fprintf(c.App.ErrWriter, "sgdplan: warning: %s\n", w)
	}
	if werr != nil {
		return werr
	}
	if out.ExitCode != exitOK {
		return withCode(out.ExitCode, nil)
	}
	return nil
}

// strongScalingPriorNote says, under strong scaling (one global batch
// split among the workers), that the verdict compares worker counts at
// per-worker batches whose effect on the step time rests on parameters the
// form's prior set, not the data (one batch measured): a "past saturation"
// from the compute not shrinking with the batch is the prior's ("" when
// the batch is the data's at every count up to n, or nothing is set so).
func strongScalingPriorNote(m *fit.Model, n int) string {
	// (BatchOutside at n asks one worker too, the speedup's base)
	if !(m.Reference.GlobalBatch > 0) || !m.BatchOutside(model.Config{Workers: n}) {
		return ""
	}
	var set []string
	for _, p := range m.Parameters {
		if p.Prior && batchParams[p.Name] {
			set = append(set, fmt.Sprintf("%s = %.4g", p.Name, p.Value))
		}
	}
	if len(set) == 0 {
		return ""
	}
	return fmt.Sprintf("under the global batch of %.4g samples a worker's batch shrinks with the workers, to batches the data do not hold, and how the step time follows it rests on %s, set by the form's prior, not by the data: so does this verdict", m.Reference.GlobalBatch, strings.Join(set, ", "))
}

// batchParams are the families' parameters of the step time's cost per
// sample, the one a batch changes: mva's z1, the Optimus forms'
// compute_per_sample, Ernest's and Amdahl's per_sample, Pollux's alpha_c
// and beta_c (one batch splits them by the prior). A prior-set network
// parameter, Pollux's alpha_n, has nothing to do with the batch.
var batchParams = map[string]bool{"z1": true, "compute_per_sample": true, "per_sample": true, "alpha_c": true, "beta_c": true}

// stalenessUnknownText says an async model's staleness cost was not
// measured: predict's and check's warnings begin with it.
const stalenessUnknownText = "the staleness cost is not identified (the loss curves are at one staleness level) and is taken as 0"

// stalenessUnknown reports whether m is asynchronous, has a loss curve
// whose staleness cost the data did not identify (taken as 0), and is asked
// about more than 1 worker (most: the largest count asked).
func stalenessUnknown(m *fit.Model, most int) bool {
	e := m.Efficiency
	return e != nil && e.LambdaFixed && m.Mode == "async" && most > 1
}

// checkJSON is check's answer as --format json prints it.
type checkJSON struct {
	Verdict  string `json:"verdict"` // fine, warn or fail
	ExitCode int    `json:"exit_code"`
	Reason   string `json:"reason"`
	Workers  int    `json:"workers"`
	PS       int    `json:"ps"`
	// WorkersFrom and PSFrom say where the counts came from: "--workers"
	// (or "--ps"), the manifest's file:line:column, or, for the shards,
	// "model" (the model's own, where neither gives them).
	WorkersFrom string  `json:"workers_from"`
	PSFrom      string  `json:"ps_from"`
	StepsPerS   float64 `json:"steps_per_s"`
	StepsPerSLo float64 `json:"steps_per_s_lo"`
	StepsPerSHi float64 `json:"steps_per_s_hi"`
	Speedup     float64 `json:"speedup"`
	Efficiency  float64 `json:"efficiency"`
	// Batch and Bandwidth are what the verdict is at, as in predict's
	// rows: the per-worker batch, and the link rate (B/s) of a
	// queueing-network model with one (absent otherwise).
	Batch     float64 `json:"batch"`
	Bandwidth float64 `json:"bandwidth,omitempty"`
	// KneeWorkers is the knee of a warn verdict (the count from which one
	// more worker adds less than half a worker's), FastestWorkers the
	// fastest count of a fail past saturation or past the best time to
	// target; absent otherwise (the reason says them in words).
	KneeWorkers    int `json:"knee_workers,omitempty"`
	FastestWorkers int `json:"fastest_workers,omitempty"`
	// BootstrapShares is the share of the model's bootstrap refits that
	// give each verdict (absent without samples).
	BootstrapSamples int                `json:"bootstrap_samples,omitempty"`
	BootstrapShares  map[string]float64 `json:"bootstrap_shares,omitempty"`
	// Rivals are the verdicts of the other fits that match the data as
	// well (absent without rivals).
	Rivals []checkRival `json:"rivals,omitempty"`
	// EfficiencyEnds are the verdicts with the efficiency law (lambda or
	// the noise scale) at the two ends of its interval (absent without).
	EfficiencyEnds []checkEnd `json:"efficiency_ends,omitempty"`
	// ElasticEnds are the verdicts at an elastic PyTorchJob's bounds of
	// replicas (absent for another job, or with --workers).
	ElasticEnds []checkElastic `json:"elastic_ends,omitempty"`
	// ExitFrom names the elastic bound whose verdict gave the exit code
	// where it is worse than the verdict's at the count given (absent
	// otherwise: the exit code is the verdict's).
	ExitFrom string   `json:"exit_from,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	Warnings []string `json:"warnings,omitempty"` // also on stderr
}

type checkRival struct {
	Family  string `json:"family"`
	Start   bool   `json:"another_start,omitempty"` // the same family from another starting point
	Verdict string `json:"verdict"`
}

// countsNote is check's line of the other worker counts sgdplan names for
// m, each with its rule, at the model's reference shards p (where plan and
// report plan it; "" at others, or when it gives none), up to 2n workers
// (at least 16): a user met four "knees" (check's, the report's recommended
// workers, plan's fastest cap, the fit figure's N*) and could not tell
// which count to ask for.
func countsNote(m *fit.Model, n, p int, moved []string) string {
	if p != m.Reference.PS {
		return ""
	}
	limit := min(max(2*n, 16), maxCheckWorkers)
	var parts []string
	if knee := (planner.Knee{Alpha: planner.DefaultKneeAlpha}).Workers(m, limit); knee < limit {
		parts = append(parts, fmt.Sprintf("%d by the report's and the knee policy's rule (the last worker that cuts the job's run time by at least %.0f%%)", knee, 100*planner.DefaultKneeAlpha))
	} else {
		// (a knee past the limit was printed as the limit, "16", where
		// report said 19)
		parts = append(parts, fmt.Sprintf("at least %d by the report's and the knee policy's rule (each worker up to %d cuts the job's run time by at least %.0f%%)", limit, limit, 100*planner.DefaultKneeAlpha))
	}
	if f := int(planner.FastestWorkers(m, float64(limit))); f < limit {
		parts = append(parts, fmt.Sprintf("%d the fastest, where plan caps the job", f))
	} else {
		parts = append(parts, fmt.Sprintf("still faster at %d, so plan does not cap the job below it", limit))
	}
	if net, ok := m.BoundsNetwork(model.Config{Workers: 1, PS: p}); ok {
		if d, _ := net.MaxDemand(); d > 0 {
			parts = append(parts, fmt.Sprintf("N* = %.3g in the fit figure, where the network's two bounds cross (a property of the speed, not a count to ask for)", net.TotalDemand()/d))
		}
	}
	at := fmt.Sprintf("up to %d workers", limit)
	if p > 0 {
		at = words.Count(p, "shard") + ", " + at
	}
	if len(moved) > 0 {
		// (the verdict is at --batch, --global-batch, --bandwidth,
		// --per-node or a manifest's placement; the counts are where plan
		// and report plan the job, the model as filed: computed on it,
		// not on the flags' copy; each named, where all three were named
		// whichever moved)
		at += ", at the model's own " + words.And(moved)
	}
	return fmt.Sprintf("other counts for this model (%s): %s; check's own knee is where one more worker adds less than half a worker's speed", at, strings.Join(parts, "; "))
}

type checkVerdict struct {
	code   int
	word   string
	reason string
	pred   fit.Prediction
	// knee is the knee of a warn, fastest the fastest count of a fail
	// below n (0 otherwise)
	knee, fastest int
	// bad, when not "", says which number the verdict met that is not
	// finite and positive: the model cannot judge the job, and the verdict
	// is not one (word "n/a").
	bad string
}

// verdict judges n workers and p shards. Saturation first: the busiest
// shard station of a queueing-network model at 90% or more ("add a
// shard"), or n workers slower than the fastest count below n by more than
// flatTol; with a staleness cost (or a batch law), n workers taking longer
// to the target than the fastest count by more than flatTol; then the
// knee: the smallest k from which the (k+1)th worker adds less than half a
// worker of progress (samples/s, discounted by the staleness cost when
// there is one). Beyond the fitted worker counts on a fit whose throughput
// is superlinear (fit's warning, in model.json), a "fine" is a warn
// (exit 3): the form carries the superlinear growth on without bound, and
// the knee it puts past n rests on that (check passed 16 workers of a
// power law of exponent 1.5 fitted on 1-4, exit 0).
func verdict(m *fit.Model, n, p int) checkVerdict {
	v := formVerdict(m, n, p)
	if v.word == "fine" && n > m.Reference.MaxWorkers && m.Superlinear() {
		v.code, v.word = exitWarn, "warn"
		beyond := fmt.Sprintf("%s is beyond the %d fitted", workersWord(n), m.Reference.MaxWorkers)
		if m.Reference.MaxWorkers <= 0 {
			// (a hand-written model without max_workers read "2
			// workers is beyond the 0 fitted")
			beyond = "the model does not record the fitted worker counts"
		}
		v.reason = fmt.Sprintf("%s, and the fitted throughput is superlinear (a warning says so), which the %s form carries on without bound: the form alone says %q, but that rests on the superlinear growth; measure %s, or do not plan past the fitted counts", beyond, m.Family, "fine: "+v.reason, workersWord(n))
	}
	return v
}

// formVerdict is verdict as the model's form gives it.
func formVerdict(m *fit.Model, n, p int) (v checkVerdict) {
	pred := m.Predict(model.Config{Workers: n, PS: p}, math.NaN(), 0)
	v = checkVerdict{pred: pred}
	if !finite(pred.StepsPerS.Value, pred.StepsPerS.Lo, pred.StepsPerS.Hi, pred.Speedup.Value, pred.Efficiency.Value) || !(pred.StepsPerS.Value > 0) {
		return badVerdict(v, fmt.Sprintf("%s steps/s [%s, %s], speedup %s at %s", g4(pred.StepsPerS.Value), g4(pred.StepsPerS.Lo), g4(pred.StepsPerS.Hi), g4(pred.Speedup.Value), workersWord(n)))
	}
	// Speed is samples per second: a synchronous step under weak scaling
	// grows with the workers, so its steps per second fall while the job
	// runs faster. A value that is not finite and positive makes the
	// verdict none (bad).
	bad := ""
	speed := func(k int) float64 {
		x := m.SamplesPerSecond(model.Config{Workers: k, PS: p})
		if (!finite(x) || !(x > 0)) && bad == "" {
			bad = fmt.Sprintf("%s samples/s at %s", g4(x), workersWord(k))
		}
		return x
	}
	defer func() {
		if bad != "" {
			v = badVerdict(v, bad)
		}
	}()
	// counts are compared from the fewest fitted: below them the curve
	// is extrapolated (as the knee below)
	from := min(max(m.FewestWorkers(), 1), n)
	// Progress towards the target: samples/s discounted by the
	// statistical efficiency's cost (the staleness cost of an async model,
	// the batch law of a sync one: the speedup predict prints); without
	// either it is the samples/s.
	varies := m.EfficiencyVaries()
	p1 := m.Progress(1, p)
	sp := func(k int) float64 {
		x := m.Progress(k, p) / p1
		if (!finite(x) || !(x > 0)) && bad == "" {
			bad = fmt.Sprintf("a speedup of %s at %s", g4(x), workersWord(k))
		}
		return x
	}
	if m.Family == "mva" && p > 0 {
		u, station := busiest(m, n, p)
		if u >= saturated {
			gain := m.SamplesPerSecond(model.Config{Workers: n, PS: p + 1})/speed(n) - 1
			v.code, v.word = exitFail, "fail"
			v.reason = fmt.Sprintf("PS %s saturated: %.0f%% busy at %s with %s: add a shard (%d shards: %+.0f%% speed)", station, 100*u, workersWord(n), words.Count(p, "shard"), p+1, 100*gain)
			if gain < 0.05 && 2*p <= maxCount {
				// one more of many shards adds little ("1001 shards:
				// +0% speed" read as advice not to)
				gain2 := m.SamplesPerSecond(model.Config{Workers: n, PS: 2 * p})/speed(n) - 1
				v.reason = fmt.Sprintf("PS %s saturated: %.0f%% busy at %s with %s: add shards (%d shards: %+.0f%% speed; one more: %+.2g%%)", station, 100*u, workersWord(n), words.Count(p, "shard"), 2*p, 100*gain2, 100*gain)
			}
			// a shard helps the speed; fewer workers may help the time to
			// target more, and the advice alone would hide it
			if !varies {
				return v // (sp would walk every count for nothing)
			}
			if k := argmax(sp, from, n); sp(n) < sp(k)*(1-flatTol) {
				v.fastest = k
				v.reason += fmt.Sprintf("; and past the best time to target with %s: %s take %s longer to the target than %s, the fastest", words.Count(p, "shard"), workersWord(n), pctText(100*(sp(k)/sp(n)-1)), workersWord(k))
			}
			return v
		}
	}
	if k := argmax(speed, from, n); speed(n) < speed(k)*(1-flatTol) {
		v.code, v.word, v.fastest = exitFail, "fail", k
		v.reason = fmt.Sprintf("past saturation: %s are %.1f%% slower than %s, the fastest", workersWord(n), 100*(1-speed(n)/speed(k)), workersWord(k))
		return v
	}
	what := "speed"
	if varies {
		what = "progress to the target"
		if k := argmax(sp, from, n); sp(n) < sp(k)*(1-flatTol) {
			why := ""
			if e := m.Efficiency; e.GNS != nil && m.Mode != "async" {
				why = fmt.Sprintf("the larger global batch (%.4g samples, against a gradient noise scale of %.4g) uses its samples less efficiently", m.SamplesPerStep(model.Config{Workers: n, PS: p}), e.GNS.NoiseBatch)
			} else {
				why = fmt.Sprintf("the staleness costs more (lambda %.3g, staleness %.3g updates)", e.Lambda, m.Staleness(float64(n)))
			}
			v.code, v.word, v.fastest = exitFail, "fail", k
			faster := fmt.Sprintf("%s give %s more speed than %s, but", workersWord(n), pctText(100*(speed(n)/speed(k)-1)), workersWord(k))
			if speed(n) <= speed(k) {
				faster = fmt.Sprintf("%s give no more speed than %s, and", workersWord(n), workersWord(k))
			}
			v.reason = fmt.Sprintf("past the best time to target: %s take %s longer to the target than %s, the fastest: %s %s", workersWord(n), pctText(100*(sp(k)/sp(n)-1)), workersWord(k), faster, why)
			return v
		}
	}
	// the knee is looked for from the fewest workers fitted too (a model
	// fitted on 2-64 GPUs put every count past a knee at 1 worker)
	for k := from; k < n; k++ {
		if sp(k+1)-sp(k) < kneeAlpha {
			below := ""
			if k == from && from > 1 {
				below = " (the fewest fitted; below, the curve is extrapolated)"
			}
			v.code, v.word, v.knee = exitWarn, "warn", k
			v.reason = fmt.Sprintf("past the knee at %s%s: the %s adds %s %s, %s of one worker's (less than half); %d workers give speedup %.3g of %d", workersWord(k), below, ordinal(k+1), pctText(100*(sp(k+1)/sp(k)-1)), what, workerShare(sp(k+1)-sp(k)), n, sp(n), n) + coresNote(m, n, p)
			return v
		}
	}
	v.code, v.word = exitOK, "fine"
	if g := m.Reference.GlobalBatch; g > 0 && g/float64(n+1) < 1 {
		// the next worker would get less than a sample: predict
		// refuses that configuration, so it is not quoted
		v.reason = fmt.Sprintf("%s is the most a global batch of %s splits among (a sample each): there is no %s to judge", workersWord(n), words.Count(int(g), "sample"), ordinal(n+1))
		if n > 1 {
			v.reason += ", and no fewer count is past the knee"
		}
		return v
	}
	where := "before"
	if sp(n+1)-sp(n) < kneeAlpha {
		where = "at" // the next one would be past it
	}
	v.reason = fmt.Sprintf("%s is %s the knee: the %s would add %s %s, %s of one worker's", workersWord(n), where, ordinal(n+1), pctText(100*(sp(n+1)/sp(n)-1)), what, workerShare(sp(n+1)-sp(n)))
	if sp(n+1) < sp(n) {
		// ("would add -25% speed, -0.89 of one worker's")
		v.reason = fmt.Sprintf("%s is %s the knee: a %s would lower the %s by %s, %s of one worker's", workersWord(n), where, ordinal(n+1), what, pctText(100*(1-sp(n+1)/sp(n))), workerShare(sp(n)-sp(n+1)))
	}
	v.reason += coresNote(m, n, p) // (busy cores at the knee said nothing)
	return v
}

// coresNote is "; ..." naming the workers' shared cores (fit
// --shared-cores) when they are at least saturated busy at n workers on p
// shards, else "": check's saturation verdict judges the shard stations,
// which a shard relieves, and a count whose cores were 100% busy read as
// only past the knee, the same words as at 3 workers.
func coresNote(m *fit.Model, n, p int) string {
	if m.Family != "mva" || m.Queueing == nil || m.Queueing.SharedCores < 1 {
		return ""
	}
	u, kind := busiestStation(m, n, max(p, 1), true)
	if kind != "cores" || u < saturated {
		return ""
	}
	c := m.Config(model.Config{Workers: n, PS: p})
	return fmt.Sprintf("; the workers' shared cores (%s a machine on %s) are %.0f%% busy at %s: more workers on these machines wait for their cores; more machines would add cores", words.Count(m.Queueing.SharedCores, "core"), words.Count(max(c.Nodes, 1), "machine"), 100*u, workersWord(n))
}

// pctText prints a percentage to 2 significant digits below 100, as a whole
// number from 99.5 up, which two digits would round to 100 ("1100%", not
// "1.1e+03%"; "100%", not "1e+02%").
func pctText(v float64) string {
	if math.Abs(v) >= 99.5 {
		return fmt.Sprintf("%.0f%%", v)
	}
	return fmt.Sprintf("%.2g%%", v)
}

// workerShare prints a gain in workers to two digits, or three where two
// would round it onto the knee's threshold (0.496 is not "0.5 ... less
// than half").
func workerShare(x float64) string {
	// as many digits as it takes for the printed share to fall on the
	// same side of kneeAlpha as x (0.4996 is not "0.5 (less than half)")
	for digits := 2; digits < 17; digits++ {
		s := strconv.FormatFloat(x, 'g', digits, 64)
		if v, _ := strconv.ParseFloat(s, 64); (v < kneeAlpha) == (x < kneeAlpha) && (v == kneeAlpha) == (x == kneeAlpha) {
			return s
		}
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// badVerdict is v when the model predicts what (a number that is not
// finite and positive): no verdict.
func badVerdict(v checkVerdict, what string) checkVerdict {
	v.code, v.word, v.bad = exitBadInput, "n/a", what
	v.knee, v.fastest = 0, 0 // (no verdict, no counts of one)
	v.reason = "the model predicts " + what + ": not a finite positive number, so it cannot judge the job"
	return v
}

// verdictSpread says how the verdict on n workers and p shards varies over
// the model's bootstrap samples ("" without samples): the share of the
// refits of the data that give each verdict, the point fit's verdict
// (first) first. The samples vary the measurement noise of the fitted
// data, not the model's error beyond them, and the line says so. Where
// the samples are all one fit (an exact fit's), no shares: the line says
// they measure nothing.
func verdictSpread(m *fit.Model, n, p int, first string) (map[string]float64, string) {
	if len(m.Samples) == 0 {
		return nil, ""
	}
	if m.SamplesAlike() {
		// an exact fit's 200 copies of itself gave "fine 100%" as
		// though the refits had weighed it (NoBootstrapWarning says why)
		return nil, fmt.Sprintf("no spread of the verdict over the bootstrap refits: all %d are the same fit, so they measure no uncertainty in it (a warning says why)", len(m.Samples))
	}
	// A verdict reads point predictions: the loss curve's and the batch
	// law's samples, which only the updates' interval reads, are left out
	// of every refit (each refit's prediction sorted all B of them, B
	// times: 10 s at --bootstrap 8000; a scaling review, 2026-12-07).
	e := pointEfficiency(m.Efficiency)
	count := map[string]int{}
	for i := range m.Samples {
		r := m.Resampled(i)
		r.Efficiency = e
		count[verdict(r, n, p).word]++
	}
	share := map[string]float64{}
	for w, k := range count {
		share[w] = float64(k) / float64(len(m.Samples))
	}
	words := []string{first}
	for _, w := range []string{"fine", "warn", "fail", "n/a"} {
		if w != first && count[w] > 0 {
			words = append(words, w)
		}
	}
	ks := make([]int, len(words))
	for i, w := range words {
		ks[i] = count[w]
	}
	var parts []string
	for i, pct := range sharePcts(ks) {
		parts = append(parts, fmt.Sprintf("%s %d%%", words[i], pct))
	}
	return share, fmt.Sprintf("verdict over %d bootstrap refits of the data: %s (they vary its measurement noise, not the model's error beyond it)", len(m.Samples), strings.Join(parts, ", "))
}

// pointEfficiency is a copy of e without the loss curve's and the batch
// law's bootstrap samples (nil for nil): the same point predictions.
func pointEfficiency(e *fit.Efficiency) *fit.Efficiency {
	if e == nil {
		return nil
	}
	c := *e
	c.CurveSamples = nil
	if e.GNS != nil {
		g := *e.GNS
		g.Samples = nil
		c.GNS = &g
	}
	return &c
}

// efficiencyVerdicts gives the verdict on n workers and p shards with the
// statistical efficiency law at each end of its interval (the staleness
// cost lambda, or the batch law's noise scale), the throughput at its fit:
// the bootstrap refits hold the law at its value, and a verdict they all
// share ("fail 100%") could turn at lambda's lower end. nil and "" when
// the law has no interval.
func efficiencyVerdicts(m *fit.Model, n, p int) ([]checkEnd, string) {
	models, name, vals := m.EfficiencyEnds()
	if models == nil {
		return nil, ""
	}
	var ends []checkEnd
	var parts []string
	_, _, staleEnds := m.StalenessPerWorkerEnds()
	for i, em := range models {
		w := verdict(em, n, p).word
		end := checkEnd{Law: strings.ReplaceAll(name, " ", "_"), Value: vals[i], Verdict: w}
		part := fmt.Sprintf("%s %.3g %s", name, vals[i], w)
		if staleEnds {
			// the staleness at the same end (the cost rises with both)
			k := em.Efficiency.StalenessPerWorker
			if k == math.SmallestNonzeroFloat64 {
				k = 0 // (held so by EfficiencyEnds: 0 there reads as 1)
			}
			end.StalenessPerWorker = &k
			part = fmt.Sprintf("%s %.3g with staleness %.3g x (N-1) %s", name, vals[i], k, w)
		}
		ends = append(ends, end)
		parts = append(parts, part)
	}
	agree := "the same verdict"
	if ends[0].Verdict != ends[1].Verdict {
		agree = "the verdict turns within it"
	}
	whose := name + "'s"
	if name == "noise scale" {
		whose = "the noise scale's"
	}
	held := " (the bootstrap refits hold it at its fit)"
	if len(m.Samples) == 0 {
		held = ""
	}
	return ends, fmt.Sprintf("at the ends of %s %.0f%% interval%s: %s (%s)", whose, 100*m.Level, held, strings.Join(parts, ", "), agree)
}

// checkEnd is the verdict at one end of the efficiency law's interval.
type checkEnd struct {
	// Law names what Value is: "lambda" (the staleness cost, an async
	// model's) or "noise_scale" (the batch law's gradient noise scale, in
	// samples): a script read a noise scale of 3178 as the ends of the
	// efficiency beside it.
	Law     string  `json:"law"`
	Value   float64 `json:"value"`
	Verdict string  `json:"verdict"`
	// StalenessPerWorker is the per-worker staleness taken with lambda at
	// this end (the same end of its one-run interval); absent where the
	// staleness law has none.
	StalenessPerWorker *float64 `json:"staleness_per_worker,omitempty"`
}

// rivalVerdicts gives the verdict on n workers and p shards of each of the
// model's rivals, the other fits that match its data as well ("" without
// rivals): where they disagree with the fitted verdict (first), the data
// do not decide it.
func rivalVerdicts(m *fit.Model, n, p int, first string) ([]checkRival, string) {
	if len(m.Rivals) == 0 {
		return nil, ""
	}
	var parts []string
	var out []checkRival
	differ := 0
	times := map[string]int{} // one part per family, start and verdict, counted
	for i, r := range m.Rivals {
		w := verdict(m.AsRival(i), n, p).word
		if w != first {
			differ++
		}
		out = append(out, checkRival{Family: r.Family, Start: r.Why == "start", Verdict: w})
		what := r.Family
		if r.Why == "start" {
			what += " (another start)"
		}
		if times[what+" "+w]++; times[what+" "+w] == 1 {
			parts = append(parts, what+" "+w)
		}
	}
	for i, part := range parts {
		if k := times[part]; k > 1 {
			parts[i] = fmt.Sprintf("%s (%d fits)", part, k)
		}
	}
	agree := "all agree"
	if differ > 0 {
		agree = fmt.Sprintf("%d of %d differ from %s: the data do not decide the verdict", differ, len(m.Rivals), first)
	}
	return out, fmt.Sprintf("other fits that match the data as well: %s (%s)", strings.Join(parts, ", "), agree)
}

// sharePcts gives each count's share of their sum in whole percent,
// summing to 100 (largest remainders: 73.5% and 26.5% of a verdict read
// "74%, 27%"), a count above 0 never at 0% and one below the sum never at
// 100%.
func sharePcts(ks []int) []int {
	n := 0
	for _, k := range ks {
		n += k
	}
	pct := make([]int, len(ks))
	if n == 0 {
		return pct
	}
	left := 100
	for i, k := range ks {
		pct[i] = 100 * k / n
		left -= pct[i]
	}
	// the rest, one each, to the largest remainders (ties: the first)
	order := make([]int, len(ks))
	for i := range order {
		order[i] = i
	}
	rem := func(i int) int { return 100 * ks[i] % n }
	slices.SortStableFunc(order, func(a, b int) int { return rem(b) - rem(a) })
	for _, i := range order[:left] {
		pct[i]++
	}
	for i, k := range ks {
		if k > 0 && pct[i] == 0 {
			big := 0
			for j := range pct {
				if pct[j] > pct[big] {
					big = j
				}
			}
			pct[i]++
			pct[big]--
		}
	}
	return pct
}

// busiest returns the utilisation X·D and the kind ("link" or "CPU") of
// the busiest shard station of an "mva" model's network at n workers and p
// shards; the workers' own compute station (shared cores) is not a shard's.
func busiest(m *fit.Model, n, p int) (float64, string) {
	return busiestStation(m, n, p, false)
}

// busiestStation is busiest, the workers' shared cores (fit
// --shared-cores: a compute station once the workers outnumber them) as
// the kind "cores" too when withCores: predict's busiest_station, which
// said "link" at 67% where the cores were 100% busy.
func busiestStation(m *fit.Model, n, p int, withCores bool) (float64, string) {
	c := model.Config{Workers: n, PS: p}
	net, ok := m.Network(c)
	if !ok {
		return 0, ""
	}
	x := m.StepsPerSecond(c)
	u, kind := 0.0, ""
	for _, s := range net.Stations {
		if s.Delay || (s.Kind == model.ComputeStation && !withCores) {
			continue
		}
		k := "link"
		switch s.Kind {
		case model.ApplyStation:
			k = "CPU"
		case model.ComputeStation:
			k = "cores"
		}
		if v := x * s.D / float64(max(s.Servers, 1)); v > u {
			u, kind = v, k
		}
	}
	return u, kind
}

func ordinal(n int) string {
	suf := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suf = "st"
	case n%10 == 2:
		suf = "nd"
	case n%10 == 3:
		suf = "rd"
	}
	return fmt.Sprintf("%d%s", n, suf)
}

func workersWord(n int) string { return words.Count(n, "worker") }

// argmax is the k in lo..n with the largest f(k) (the smallest such k).
func argmax(f func(int) float64, lo, n int) int {
	best, fb := lo, f(lo)
	for k := lo + 1; k <= n; k++ {
		if v := f(k); v > fb {
			best, fb = k, v
		}
	}
	return best
}

// workerCounts is the number of distinct worker counts m was fitted on.
func workerCounts(m *fit.Model) int {
	seen := map[int]bool{}
	for _, d := range m.Data.Configurations {
		seen[d.Workers] = true
	}
	return len(seen)
}

// orName is at, or the manifest argument's name where at is "".
func orName(at, arg string) string {
	if at == "" {
		return manifestName(arg)
	}
	return at
}

// countSource is where check's count of flag (workers or ps) came from:
// the flag, the manifest's place at (given says the manifest gives the
// count), else the model's own.
func countSource(c *cli.Context, args []string, flag, at string, given bool) string {
	switch {
	case c.IsSet(flag):
		return "--" + flag
	case len(args) == 1 && given:
		return orName(at, args[0])
	}
	return "model"
}

// checkElastic is the verdict at one bound of an elastic job's replicas.
type checkElastic struct {
	Bound    string `json:"bound"` // minReplicas or maxReplicas
	Replicas int    `json:"replicas"`
	Workers  int    `json:"workers"`
	Verdict  string `json:"verdict"`
	ExitCode int    `json:"exit_code"`
	Reason   string `json:"reason"`
}

// worstElastic is the bound of ends whose exit code is the highest, where
// it is above code (the verdict's at the count given; ok false otherwise).
// The codes rank the verdicts: fine 0 < warn 3 < fail 4; of two bounds
// alike, the first (minReplicas).
func worstElastic(ends []checkElastic, code int) (checkElastic, bool) {
	var worst checkElastic
	ok := false
	for _, e := range ends {
		if e.ExitCode > code {
			worst, code, ok = e, e.ExitCode, true
		}
	}
	return worst, ok
}

// elasticVerdicts are the verdicts at the bounds of mf's elastic replicas
// (times its processes a replica) and the line that gives them; none, and
// "", for a job without such bounds. A bound of 0 replicas (which
// parseManifest refuses: torchrun does) is said without a verdict; one
// past maxCheckWorkers, or
// where the model's prediction is not finite, has none either, an end of
// verdict "n/a" and exit code 2: a gate must not pass a range whose top
// check cannot judge (it passed 1 to 20,000 replicas at exit 0).
func elasticVerdicts(m *fit.Model, mf manifest, ps int) ([]checkElastic, string) {
	if mf.ElasticHi == 0 {
		return nil, ""
	}
	g := max(mf.Processes, 1)
	var ends []checkElastic
	var parts []string
	for _, b := range []struct {
		name string
		r    int
	}{{"minReplicas", mf.ElasticLo}, {"maxReplicas", mf.ElasticHi}} {
		w := b.r * g
		if b.r < 1 {
			parts = append(parts, fmt.Sprintf("%s %d: no verdict (no workers)", b.name, b.r))
			continue
		}
		why := ""
		if w > maxCheckWorkers {
			why = fmt.Sprintf("past %d workers, the most check weighs", maxCheckWorkers)
		} else if v := verdict(m, w, ps); v.bad != "" {
			why = "the model predicts " + v.bad + ", not a finite positive number"
		} else {
			ends = append(ends, checkElastic{Bound: b.name, Replicas: b.r, Workers: w, Verdict: v.word, ExitCode: v.code, Reason: v.reason})
			parts = append(parts, fmt.Sprintf("%s %d (%s) %s", b.name, b.r, words.Count(w, "worker"), v.word))
			continue
		}
		ends = append(ends, checkElastic{Bound: b.name, Replicas: b.r, Workers: w, Verdict: "n/a", ExitCode: exitBadInput, Reason: "no verdict: " + why})
		parts = append(parts, fmt.Sprintf("%s %d (%s): no verdict (%s)", b.name, b.r, words.Count(w, "worker"), why))
	}
	return ends, "at its elasticPolicy's bounds (the job runs anywhere between): " + strings.Join(parts, ", ")
}

// modelPlacement says how the model m places workers on machines where no
// flag or manifest says: its workers a machine, or its machines.
func modelPlacement(m *fit.Model) string {
	switch r := m.Reference; {
	case r.PerNode > 0:
		return fmt.Sprintf("%d a machine", r.PerNode)
	case r.Nodes > 0:
		return fmt.Sprintf("%s in all", words.Count(r.Nodes, "machine"))
	}
	return "one a machine"
}
