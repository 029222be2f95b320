package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/internal/jsontext"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/traces"
	"github.com/urfave/cli/v2"
)

// runWarningsShown is how many warnings of one kind inspect prints on
// stderr before it counts the rest in one line.
const runWarningsShown = 3

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "per-run summary of traces",
		ArgsUsage: "PATH...",
		Description: `Reads canonical traces (folders of steps.csv, updates.csv, runs.csv,
evals.csv, throughput.csv, or those files, optionally .gz) and prints one
summary per run: configuration, steady-state job throughput with a 95%
interval, per-phase mean and squared coefficient of variation, staleness
distribution and loss curve. The steady-state window drops the first 10% and
the last 5% of each run's wall time (docs/trace-format.md).

Inputs with no step trace, only run-level rows of throughput.csv, are listed:
their ranges by file and model in the table, one record a row in csv, and
{"throughput": [...], "runs": [...]} in json (docs/trace-format.md).

Files are streamed twice; memory does not grow with the number of steps.
Warnings go to stderr; malformed input exits 2 with file:line:column.

Example:
   sgdplan inspect testdata/synthetic/async-ps
   sgdplan inspect --format json testdata/synthetic/async-ps/steps.csv`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json or csv"},
		},
		Action: func(c *cli.Context) error {
			paths, format, err := trailingFormat(c.Args().Slice(), c.String("format"))
			if err != nil {
				return err
			}
			return runInspect(paths, format, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// trailingFormat takes a --format given after the paths (the command line
// of docs/design.md puts it there; the flag parser stops at the first path).
func trailingFormat(args []string, format string) (paths []string, _ string, err error) {
	if afterDashDash(args) {
		return args, format, nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--format" || a == "-format":
			if i+1 == len(args) {
				return nil, "", badInput(errors.New("inspect: --format needs a value: table, json or csv"))
			}
			format = args[i+1]
			i++
		case strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "-format="):
			format = a[strings.IndexByte(a, '=')+1:]
		case a == "--":
			return append(paths, args[i+1:]...), format, nil
		case strings.HasPrefix(a, "-") && a != "-":
			return nil, "", badInput(fmt.Errorf("inspect: unknown flag %s (inspect takes PATH... and --format; a path that starts with - goes after --)", a))
		default:
			paths = append(paths, a)
		}
	}
	return paths, format, nil
}

func runInspect(paths []string, format string, stdout, stderr io.Writer) error {
	switch format {
	case "table", "json", "csv":
	default:
		return badInput(fmt.Errorf("inspect: --format %q: expected table, json or csv", format))
	}
	if len(paths) == 0 {
		return badInput(errors.New("inspect: no trace given: expected PATH... (a folder or canonical .csv files)"))
	}
	sums, warnings, err := traces.SummarizePaths(paths...)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "sgdplan: warning: %v\n", w)
	}
	if err != nil {
		return badInput(err)
	}
	// the first runWarningsShown of a kind each, then one line for the
	// rest of it (1,000 short runs printed 1,000 lines)
	shown, rest := map[string]int{}, map[string][]string{}
	first := map[string]*traces.RunWarning{}
	var kinds []string
	var overlaps []*traces.OverlapWarning // (the rest in one line: GroupOverlaps)
	for _, s := range sums {
		for _, w := range s.Warnings {
			var rw *traces.RunWarning
			var ow *traces.OverlapWarning
			if errors.As(w, &ow) {
				if overlaps = append(overlaps, ow); len(overlaps) > traces.OverlapsShown {
					continue
				}
			}
			if errors.As(w, &rw) {
				if shown[rw.Format] == runWarningsShown {
					if rest[rw.Format] == nil {
						kinds = append(kinds, rw.Format)
					}
					rest[rw.Format] = append(rest[rw.Format], rw.Run)
					continue
				}
				if shown[rw.Format]++; first[rw.Format] == nil {
					first[rw.Format] = rw
				}
			}
			fmt.Fprintf(stderr, "sgdplan: warning: %v\n", w)
		}
		if w := linkPlausible(s); w != "" {
			fmt.Fprintf(stderr, "sgdplan: warning: %s\n", w)
		}
	}
	if len(overlaps) > traces.OverlapsShown {
		g := traces.GroupOverlaps(overlaps)
		fmt.Fprintf(stderr, "sgdplan: warning: %s (--format json lists every run's warnings)\n", g[len(g)-1])
	}
	for _, k := range kinds {
		runs := rest[k]
		what := "1 more run has"
		if len(runs) > 1 {
			what = words.Thousands(len(runs)) + " more runs have"
		}
		f := first[k]
		fmt.Fprintf(stderr, "sgdplan: warning: traces: %s the warning given above for run %q (%s), each with its own numbers: %s (--format json lists every run's warnings)\n", what, f.Run, f.Message(), nameList(runs, 8))
	}
	// with no step rows the runs' table has no rates: list the
	// throughput rows' ranges first (a converted TensorBoard log's
	// evals.csv beside its throughput.csv hid its one measurement)
	stepless := !slices.ContainsFunc(sums, func(s traces.RunSummary) bool { return s.Steps > 0 })
	listed := ""
	if stepless {
		listed = format
	}
	series, err := noteThroughput(paths, stderr, listed)
	if err != nil {
		return badInput(err)
	}
	if stepless && len(series) > 0 {
		// the rows are the data: json and csv printed an empty list
		switch format {
		case "json":
			return throughputJSON(stdout, series, sums)
		case "csv":
			if len(sums) > 0 {
				fmt.Fprintf(stderr, "sgdplan: note: csv lists the throughput rows only; --format json and table list %s without step rows too (loss curves)\n", words.Count(len(sums), "run"))
			}
			return throughputCSV(stdout, series)
		}
		if err := throughputTable(stdout, series); err != nil || len(sums) == 0 {
			return err
		}
		fmt.Fprintln(stdout)
	}
	switch format {
	case "json":
		return inspectJSON(stdout, sums)
	case "csv":
		return inspectCSV(stdout, sums)
	}
	return inspectTable(stdout, sums)
}

// noteThroughput says on stderr how many run-level rows throughput.csv
// files hold: they are not per-run traces, so inspect does not summarize
// them as runs. It returns the rows grouped by file and model, for what
// inspect prints when there is no step trace at all; listed is the format
// it prints them in then ("" when it does not: there are steps).
func noteThroughput(paths []string, stderr io.Writer, listed string) ([]throughputSeries, error) {
	files, err := traces.Files(paths...)
	if err != nil {
		return nil, err
	}
	// with steps.csv, fit reads the steps and not throughput.csv
	steps := slices.ContainsFunc(files, func(f traces.File) bool { return f.Kind == traces.KindSteps })
	var out []throughputSeries
	for _, f := range files {
		if f.Kind != traces.KindThroughput {
			continue
		}
		n := 0
		idx := map[string]int{}
		w, err := traces.ForEach(f, traces.Handlers{Throughput: func(r traces.Throughput) error {
			n++
			i, ok := idx[r.Model]
			if !ok {
				i = len(out)
				idx[r.Model] = i
				out = append(out, throughputSeries{file: f.Path, model: r.Model})
			}
			out[i].add(f.Path, r)
			return nil
		}})
		for _, w := range w {
			fmt.Fprintf(stderr, "sgdplan: warning: %v\n", w)
		}
		if err != nil {
			return nil, err
		}
		rows := words.Count(n, "run-level throughput row")
		switch {
		case steps:
			// fit reads the step traces and ignores this file (it
			// warns so), as inspect's runs do
			fmt.Fprintf(stderr, "sgdplan: note: %s holds %s; inspect summarizes step traces only, and fit, given steps.csv, reads those and ignores this file (give it alone to fit its rows)\n", f.Path, rows)
		case listed == "table":
			fmt.Fprintf(stderr, "sgdplan: note: %s holds %s, no step trace: inspect lists their ranges by model (fit reads them)\n", f.Path, rows)
		case listed != "":
			fmt.Fprintf(stderr, "sgdplan: note: %s holds %s, no step trace: inspect lists them, one record a row (fit reads them)\n", f.Path, rows)
		default:
			fmt.Fprintf(stderr, "sgdplan: note: %s holds %s; inspect summarizes step traces only (fit reads these)\n", f.Path, rows)
		}
	}
	return out, nil
}

// throughputSeries is what inspect says of one model's rows of a
// throughput.csv: how many, and the range of each column.
type throughputSeries struct {
	file, model        string
	rows               int
	workers, ps, batch [2]float64 // min, max (batch: per worker or global, 0 when absent)
	steps, samples     [2]float64 // NaN when no row has it
	modes              []string
	global             bool // some row gives global_batch, not batch
	derived            bool // some row's steps/s is its samples/s over its samples per step
	derivedSamples     bool // some row's samples/s is its steps/s times its samples per step
	recs               []throughputRec
}

// throughputRec is one row of a throughput.csv, for inspect's json and
// csv: StepsPerS is the row's steps_per_s, or (From "samples_per_s") its
// samples/s divided by its samples per step as fit divides them
// (fit.PointsFromThroughput: for async one worker's batch, a global batch
// split among the workers; for sync the global batch, or the batch times
// the workers); NaN when neither.
type throughputRec struct {
	file string
	line int
	r    traces.Throughput
	sps  float64
	from string
}

// stepsPerS is r's steps/s as fit reads it, and where it comes from:
// "steps_per_s", "samples_per_s" (divided by the samples per step), or
// NaN and "" when the row has neither with a batch.
func stepsPerS(r traces.Throughput) (float64, string) {
	if r.StepsPerS > 0 {
		return r.StepsPerS, "steps_per_s"
	}
	pts, err := fit.PointsFromThroughput([]traces.Throughput{r})
	if err != nil || len(pts) != 1 {
		return math.NaN(), ""
	}
	return pts[0].StepsPerS, "samples_per_s"
}

func (s *throughputSeries) add(file string, r traces.Throughput) {
	widen := func(x *[2]float64, v float64) {
		if math.IsNaN(v) {
			return
		}
		if s.rows == 0 || math.IsNaN(x[0]) {
			*x = [2]float64{v, v}
			return
		}
		x[0], x[1] = math.Min(x[0], v), math.Max(x[1], v)
	}
	if s.rows == 0 {
		s.steps, s.samples = [2]float64{math.NaN(), math.NaN()}, [2]float64{math.NaN(), math.NaN()}
	}
	b := float64(r.Batch)
	if b == 0 && r.GlobalBatch > 0 {
		b = float64(r.GlobalBatch)
		s.global = true
	}
	widen(&s.workers, float64(r.Workers))
	widen(&s.ps, float64(r.PS))
	widen(&s.batch, b)
	sps, from := stepsPerS(r)
	widen(&s.steps, sps)
	samples := r.SamplesPerS
	if !(samples > 0) && from == "steps_per_s" {
		// the other way round, as fit multiplies them (a converted
		// TensorBoard log has steps/s only: its samples/s read "-")
		if pts, err := fit.PointsFromThroughput([]traces.Throughput{r}); err == nil && len(pts) == 1 && pts[0].SamplesPerStep > 0 {
			samples = sps * pts[0].SamplesPerStep
			s.derivedSamples = true
		}
	}
	widen(&s.samples, samples)
	s.derived = s.derived || from == "samples_per_s"
	_, line, _ := r.Pos()
	s.recs = append(s.recs, throughputRec{file: file, line: line, r: r, sps: sps, from: from})
	mode := r.Mode
	if mode == "" {
		mode = "async"
	}
	if !slices.Contains(s.modes, mode) {
		s.modes = append(s.modes, mode)
	}
	s.rows++
}

// throughputTable prints the throughput rows by file and model, each
// column's range, when the inputs hold no step trace.
func throughputTable(w io.Writer, series []throughputSeries) error {
	span := func(x [2]float64) string {
		switch {
		case math.IsNaN(x[0]):
			return "-"
		case x[0] == x[1]:
			return g(x[0])
		}
		return g(x[0]) + "-" + g(x[1])
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "file\tmodel\trows\tworkers\tps\tbatch\tmode\tsteps/s\tsamples/s\t")
	for _, s := range series {
		model := s.model
		if model == "" {
			model = "-"
		}
		batch := span(s.batch)
		if s.global {
			batch += " (global)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", s.file, model, s.rows, span(s.workers), span(s.ps), batch, strings.Join(s.modes, ","), span(s.steps), span(s.samples))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nRun-level throughput rows (no step trace): ranges per file and model; batch is per worker, or the global batch where marked; fit reads them (a file with several models needs --series).")
	if err == nil && slices.ContainsFunc(series, func(s throughputSeries) bool { return s.derived }) {
		_, err = fmt.Fprintln(w, "steps/s: the row's steps_per_s, or its samples/s divided by the samples of one step, as fit divides them: for async one worker's batch (an update's; a global batch split among the workers), for sync and allreduce the global batch or the batch times the workers.")
	}
	if err == nil && slices.ContainsFunc(series, func(s throughputSeries) bool { return s.derivedSamples }) {
		_, err = fmt.Fprintln(w, "samples/s: the row's samples_per_s, or, where it gives none, its steps/s times the samples of one step (for async one worker's batch, for sync and allreduce the global batch or the batch times the workers).")
	}
	return err
}

// throughputFields are the columns of inspect --format csv, and the keys
// of --format json, for throughput rows.
var throughputFields = strings.Split("file,line,model,run,workers,ps,nodes,batch,global_batch,mode,steps_per_s,steps_per_s_from,samples_per_s,repeats", ",")

// values returns rec's fields in throughputFields' order: nil when absent,
// int, float64 or string.
func (rec throughputRec) values() []any {
	r := rec.r
	opt := func(v int) any {
		if v == 0 {
			return nil
		}
		return v
	}
	fl := func(v float64) any {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	mode := r.Mode
	if mode == "" {
		mode = "async"
	}
	line := opt(rec.line)
	from := any(rec.from)
	if rec.from == "" {
		from = nil
	}
	return []any{rec.file, line, r.Model, r.Run, r.Workers, r.PS, opt(r.Nodes), opt(r.Batch), opt(r.GlobalBatch), mode,
		fl(rec.sps), from, fl(r.SamplesPerS), opt(r.Repeats)}
}

// throughputJSON prints the throughput rows, one object a row, and the
// runs without step rows (loss curves from evals.csv): {"throughput":
// [...], "runs": [...]}, where inspect prints an array of runs when there
// are step traces.
func throughputJSON(w io.Writer, series []throughputSeries, sums []traces.RunSummary) error {
	out := struct {
		Throughput []json.RawMessage `json:"throughput"`
		Runs       []jsonSummary     `json:"runs"`
	}{Throughput: []json.RawMessage{}, Runs: []jsonSummary{}}
	for _, s := range series {
		for _, rec := range s.recs {
			// an object with the keys in throughputFields' order
			var b bytes.Buffer
			b.WriteByte('{')
			for i, v := range rec.values() {
				k, _ := jsontext.Marshal(throughputFields[i])
				x, err := jsontext.Marshal(v)
				if err != nil {
					return err
				}
				if i > 0 {
					b.WriteByte(',')
				}
				b.Write(k)
				b.WriteByte(':')
				b.Write(x)
			}
			b.WriteByte('}')
			out.Throughput = append(out.Throughput, b.Bytes())
		}
	}
	for _, s := range sums {
		out.Runs = append(out.Runs, toJSON(s))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // as jsontext
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// throughputCSV prints the throughput rows, one record a row.
func throughputCSV(w io.Writer, series []throughputSeries) error {
	cw := csv.NewWriter(w)
	cw.Write(throughputFields)
	for _, s := range series {
		for _, rec := range s.recs {
			var row []string
			for _, v := range rec.values() {
				switch v := v.(type) {
				case nil:
					row = append(row, "")
				case float64:
					row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
				default:
					row = append(row, fmt.Sprint(v))
				}
			}
			cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// g formats a number with 4 significant digits, "-" when unknown.
func g(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func inspectTable(w io.Writer, sums []traces.RunSummary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	// iterations: steps.csv's rows, one a worker's iteration (the column
	// said "steps", and a 2-worker sync run of 20 steps showed 40)
	fmt.Fprintln(tw, "run\tworkers\tps\tbatch\tmode\titerations\twindow s\tupdates/s\t95% interval\tsamples/s\t"+
		"pull s (SCV)\tcompute s (SCV)\tpush s (SCV)\titeration s (SCV)\tstaleness mean\tp50/p90/p99/max\tloss first->last\t")
	for _, s := range sums {
		interval := "-"
		if !math.IsNaN(s.UpdatesPerSLo) {
			interval = "[" + g(s.UpdatesPerSLo) + ", " + g(s.UpdatesPerSHi) + "]"
		}
		quant := "-"
		if s.Staleness.N > 0 {
			quant = fmt.Sprintf("%d/%d/%d/%d", s.Staleness.P50, s.Staleness.P90, s.Staleness.P99, s.Staleness.Max)
		}
		loss := "-"
		if n := len(s.Loss); n > 0 {
			loss = g(s.Loss[0].Loss) + "->" + g(s.Loss[n-1].Loss)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			cellText(s.Run), known(s, s.Workers), known(s, s.PS), known(s, s.Batch), cellText(knownMode(s, "-")), s.Steps, g(s.WindowEnd-s.WindowStart),
			g(s.UpdatesPerS), interval, g(s.SamplesPerS),
			phase(s.Pull), phase(s.Compute), phase(s.Push), phase(s.Iteration),
			g(s.Staleness.Mean), quant, loss)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nSteady state: the first 10% and last 5% of each run's wall time are dropped; "+
		"updates/s = iterations ending in the window / its length; 95% interval from 10 sub-window rates (batch means).")
	if err != nil {
		return err
	}
	for _, s := range sums {
		if s.Mode != "" && s.Mode != "async" && s.Steps > 0 {
			_, err = fmt.Fprintln(w, "Synchronous runs (sync, allreduce): a step is one iteration of every worker and one update, so their updates/s are steps/s (what fit uses) = iterations/s / workers, and their steps are iterations / workers; samples/s = batch x iterations/s.")
			break
		}
	}
	return err
}

// known formats a run's workers, ps or batch, "-" for a run with no
// step rows: they come from steps.csv, and such a run (an evals.csv or
// runs.csv row alone) has none to give them (it printed 0 workers, 0 ps,
// batch 0).
// knownMode is a run's mode, none (unknown) for a run with no step rows
// and no mode in runs.csv: its mode would come from its shards, which it
// has none to give (it printed allreduce beside ps "-", against runs.csv's
// default, async).
func knownMode(s traces.RunSummary, none string) string {
	if s.Steps == 0 && (s.Info == nil || s.Info.Mode == "") {
		return none
	}
	return s.Mode
}

func known(s traces.RunSummary, v int) string {
	if s.Steps == 0 && v == 0 {
		return "-"
	}
	return strconv.Itoa(v)
}

func phase(m traces.Moments) string {
	if m.N == 0 {
		return "-"
	}
	m = exact(m)
	return g(m.Mean) + " (" + g(m.SCV) + ")"
}

// flatSCV is the squared coefficient of variation below which a phase's
// times are taken as constant: a spread of a billionth of the mean, below
// what float64 timestamps resolve (end - start of identical iterations
// varies in its last bits: constant iterations printed SCV 9.269e-31).
const flatSCV = 1e-18

// exact returns m with its variance and SCV 0 when the SCV is below
// flatSCV: rounding noise, not spread.
func exact(m traces.Moments) traces.Moments {
	if math.Abs(m.SCV) < flatSCV {
		m.Var, m.SCV = 0, 0
	}
	return m
}

// num is a float64 that marshals NaN as null.
type num float64

func (n num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(n), 'g', -1, 64), nil
}

type jsonMoments struct {
	N    int64 `json:"n"`
	Mean num   `json:"mean_s"`
	Var  num   `json:"var_s2"`
	SCV  num   `json:"scv"`
}

type jsonSummary struct {
	Run     string  `json:"run"`
	Workers *int    `json:"workers"` // null: no step rows give it
	PS      *int    `json:"ps"`
	Batch   *int    `json:"batch"`
	Mode    *string `json:"mode"` // null: unknown (knownMode)
	Model   string  `json:"model,omitempty"`
	// Iterations and WindowIterations count steps.csv's rows, a worker's
	// iteration each (named "steps" and "window_steps" until 2026-12-06,
	// where a 2-worker sync run of 20 steps gave 40)
	Steps         int64       `json:"iterations"`
	Start         num         `json:"start_s"`
	End           num         `json:"end_s"`
	WindowStart   num         `json:"window_start_s"`
	WindowEnd     num         `json:"window_end_s"`
	WindowSteps   int64       `json:"window_iterations"`
	UpdatesPerS   num         `json:"updates_per_s"`
	UpdatesPerSLo num         `json:"updates_per_s_lo"`
	UpdatesPerSHi num         `json:"updates_per_s_hi"`
	SamplesPerS   num         `json:"samples_per_s"`
	Pull          jsonMoments `json:"pull"`
	Compute       jsonMoments `json:"compute"`
	Push          jsonMoments `json:"push"`
	Iteration     jsonMoments `json:"iteration"`
	Staleness     struct {
		Source string `json:"source"`
		N      int64  `json:"n"`
		Mean   num    `json:"mean"`
		P50    *int   `json:"p50"`
		P90    *int   `json:"p90"`
		P99    *int   `json:"p99"`
		Max    *int   `json:"max"`
	} `json:"staleness"`
	LossSource string     `json:"loss_source"`
	Loss       []jsonLoss `json:"loss"`
	Warnings   []string   `json:"warnings"`
}

type jsonLoss struct {
	Updates *int64 `json:"updates"`
	Time    num    `json:"time_s"`
	Loss    num    `json:"loss"`
}

func moments(m traces.Moments) jsonMoments {
	m = exact(m)
	return jsonMoments{N: m.N, Mean: num(m.Mean), Var: num(m.Var), SCV: num(m.SCV)}
}

// knownInt is known for JSON: nil (null) where the table prints "-".
func knownInt(s traces.RunSummary, v int) *int {
	if s.Steps == 0 && v == 0 {
		return nil
	}
	return &v
}

func toJSON(s traces.RunSummary) jsonSummary {
	j := jsonSummary{Run: s.Run, Workers: knownInt(s, s.Workers), PS: knownInt(s, s.PS), Batch: knownInt(s, s.Batch), Steps: s.Steps,
		Start: num(s.Start), End: num(s.End), WindowStart: num(s.WindowStart), WindowEnd: num(s.WindowEnd),
		WindowSteps: s.WindowSteps, UpdatesPerS: num(s.UpdatesPerS), UpdatesPerSLo: num(s.UpdatesPerSLo),
		UpdatesPerSHi: num(s.UpdatesPerSHi), SamplesPerS: num(s.SamplesPerS),
		Pull: moments(s.Pull), Compute: moments(s.Compute), Push: moments(s.Push), Iteration: moments(s.Iteration),
		LossSource: s.LossSource, Loss: []jsonLoss{}, Warnings: []string{}}
	if s.Info != nil {
		j.Model = s.Info.Model
	}
	if m := knownMode(s, ""); m != "" {
		j.Mode = &m
	}
	j.Staleness.Source, j.Staleness.N, j.Staleness.Mean = s.Staleness.Source, s.Staleness.N, num(s.Staleness.Mean)
	if s.Staleness.N > 0 {
		st := s.Staleness
		j.Staleness.P50, j.Staleness.P90, j.Staleness.P99, j.Staleness.Max = &st.P50, &st.P90, &st.P99, &st.Max
	}
	for _, p := range s.Loss {
		l := jsonLoss{Time: num(p.Time), Loss: num(p.Loss)}
		if p.Updates >= 0 {
			u := p.Updates
			l.Updates = &u
		}
		j.Loss = append(j.Loss, l)
	}
	for _, w := range s.Warnings {
		j.Warnings = append(j.Warnings, w.Error())
	}
	return j
}

func inspectJSON(w io.Writer, sums []traces.RunSummary) error {
	out := make([]jsonSummary, 0, len(sums))
	for _, s := range sums {
		out = append(out, toJSON(s))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // as jsontext
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// csvHeader lists the columns of inspect --format csv (units in the names).
var csvHeader = strings.Split("run,workers,ps,batch,mode,model,iterations,start_s,end_s,window_start_s,window_end_s,window_iterations,"+
	"updates_per_s,updates_per_s_lo,updates_per_s_hi,samples_per_s,"+
	"pull_mean_s,pull_var_s2,pull_scv,compute_mean_s,compute_var_s2,compute_scv,push_mean_s,push_var_s2,push_scv,"+
	"iteration_mean_s,iteration_var_s2,iteration_scv,"+
	"staleness_source,staleness_n,staleness_mean,staleness_p50,staleness_p90,staleness_p99,staleness_max,"+
	"loss_source,loss_points,loss_first,loss_last,warnings", ",")

func inspectCSV(w io.Writer, sums []traces.RunSummary) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, s := range sums {
		model := ""
		if s.Info != nil {
			model = s.Info.Model
		}
		k := func(v int) string {
			if s.Steps == 0 && v == 0 {
				return "" // as the table's "-"
			}
			return i(int64(v))
		}
		rec := []string{s.Run, k(s.Workers), k(s.PS), k(s.Batch), knownMode(s, ""), model, i(s.Steps),
			f(s.Start), f(s.End), f(s.WindowStart), f(s.WindowEnd), i(s.WindowSteps),
			f(s.UpdatesPerS), f(s.UpdatesPerSLo), f(s.UpdatesPerSHi), f(s.SamplesPerS)}
		for _, m := range []traces.Moments{s.Pull, s.Compute, s.Push, s.Iteration} {
			m = exact(m)
			rec = append(rec, f(m.Mean), f(m.Var), f(m.SCV))
		}
		st := s.Staleness
		if st.N > 0 {
			rec = append(rec, st.Source, i(st.N), f(st.Mean), i(int64(st.P50)), i(int64(st.P90)), i(int64(st.P99)), i(int64(st.Max)))
		} else {
			rec = append(rec, "", "0", "", "", "", "", "")
		}
		first, last := "", ""
		if n := len(s.Loss); n > 0 {
			first, last = f(s.Loss[0].Loss), f(s.Loss[n-1].Loss)
		}
		rec = append(rec, s.LossSource, i(int64(len(s.Loss))), first, last, i(int64(len(s.Warnings))))
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// linkPlausible is fit's check of a measured transfer against S/B
// (fit.LinkPlausible) on a run with one worker: the shards times the mean
// of its pull and push as measured ("" without S, B or phases). fit takes
// the shard's apply out of the push (updates.csv), which inspect's
// summary does not hold: near the check's thresholds the two can differ.
// (inspect printed a millisecond trace's rates 1000 times too low without
// a word, where fit warned.)
func linkPlausible(s traces.RunSummary) string {
	in := s.Info
	if in == nil || s.Workers != 1 || s.PS < 1 || s.Pull.N == 0 || s.Push.N == 0 {
		return ""
	}
	link := float64(s.PS) * (s.Pull.Mean + s.Push.Mean) / 2
	return fit.LinkPlausible(s.Run, link, words.Count(s.PS, "shard")+" x the mean of pull and push, the push with its apply", in.ParamBytes, in.Bandwidth)
}
