package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/sgdplan/sgdplan/traces"
	"github.com/urfave/cli/v2"
)

// maxWarningsShown caps the warnings convert prints one by one; the rest are
// counted.
const maxWarningsShown = 20

func convertCommand() *cli.Command {
	return &cli.Command{
		Name:      "convert",
		Usage:     "convert other formats to the canonical trace or jobs.csv",
		ArgsUsage: "IN",
		Description: `Reads IN in --from FORMAT and writes canonical files into --out DIR
(created when missing; each file written to a temporary file and renamed):

  tfevents                 TensorBoard event file(s) (a file, or a folder of *tfevents* files
                           as one run: of a Keras log folder, its train/ or validation/)
                           -> evals.csv (loss, accuracy), throughput.csv
                           (global_step/sec, examples/sec), runs.csv
  chrome                   Chrome trace-event JSON, optionally gzipped (TensorFlow timeline,
                           PyTorch profiler, Horovod timeline) -> steps.csv, runs.csv
  pollux-osdi21, dl2-mxnet-ps-speed, elasticflow-asplos23, tf-cnn-benchmarks-2017,
  gavel-osdi20, shockwave-nsdi23
                           a public dataset folder (or the data root holding it)
                           -> throughput.csv, the series key in its model column
  philly-pollux, itp, gavel-vc
                           a job trace file -> jobs.csv for plan and simulate
                           (size: philly-pollux and itp duration x GPUs, measured
                           GPU-seconds; gavel-vc total_steps / the job type's steps/s
                           on one V100; rigid_workers = GPUs)

For tfevents and chrome, --mode async or sync needs --ps (shards >= 1) and
--mode allreduce takes no --ps; with neither, the run is written as allreduce.
For chrome, --param-bytes and --bandwidth go into runs.csv: with both, fit
scales the two-node profile's link demand to other link rates and model sizes.

The mapping rules are in docs/formats.md. Warnings go to stderr; bad input
exits 2 with the file, line and column.

Examples:
  sgdplan convert --from chrome --batch 32 trace.json.gz --out run1/
  sgdplan convert --from chrome --batch 32 --ps 1 --mode async --param-bytes 25000000 --bandwidth 5e8 trace-0.json --out w1/
  sgdplan convert --from pollux-osdi21 ../shared/data --out pollux/
  sgdplan convert --from itp --p 0.8 cluster10.csv --out jobs/`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "input format: " + strings.Join(traces.ConvertFormats(), ", ")},
			&cli.StringFlag{Name: "out", Usage: "output folder"},
			&cli.StringFlag{Name: "run", Usage: "run name", DefaultText: "the input's base name"},
			&cli.IntFlag{Name: "workers", Usage: "workers in the run, when the input does not say", DefaultText: "none"},
			&cli.IntFlag{Name: "ps", Usage: "parameter-server shards of the run", DefaultText: "none"},
			&cli.IntFlag{Name: "batch", Usage: "per-worker mini-batch of the run", DefaultText: "none"},
			&cli.StringFlag{Name: "mode", Usage: "async, sync or allreduce"},
			&cli.Int64Flag{Name: "param-bytes", Usage: "chrome: bytes sent per pull and per push (runs.csv param_bytes; with --bandwidth, fit scales the link demand as S/B to other rates and model sizes)", DefaultText: "none"},
			&cli.Float64Flag{Name: "bandwidth", Usage: "chrome: link bandwidth per shard and direction, B/s (runs.csv bandwidth)", DefaultText: "none"},
			&cli.Float64Flag{Name: "p", Usage: "speedup exponent in (0, 1] written into jobs.csv (job traces); empty: plan and simulate then take --p", DefaultText: "empty"},
		},
		Action: func(c *cli.Context) error {
			return runConvert(c, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// convertFlagsAfterArgs parses the flags that follow IN ("convert --from F
// IN --out DIR", as the manual writes it): urfave/cli stops at the first
// argument. It returns the positional arguments.
func convertFlagsAfterArgs(c *cli.Context) ([]string, error) {
	var pos []string
	args := c.Args().Slice()
	if afterDashDash(args) {
		return args, nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(pos, args[i+1:]...), nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		known := false
		for _, f := range c.Command.Flags {
			for _, n := range f.Names() {
				known = known || n == name
			}
		}
		if !known || name == "help" || name == "h" {
			return nil, fmt.Errorf("convert: unknown flag %s", a)
		}
		if !hasVal {
			if i+1 == len(args) {
				return nil, fmt.Errorf("convert: flag %s needs a value", a)
			}
			i++
			val = args[i]
		}
		if err := c.Set(name, val); err != nil {
			return nil, fmt.Errorf("convert: flag %s: %v", a, err)
		}
	}
	return pos, nil
}

// readsRunFlags says whether convert reads the run's flags (--run,
// --workers, --ps, --batch, --mode) for format: a trace of one run does; a
// table's rows give them.
func readsRunFlags(format string) bool { return format == "tfevents" || format == "chrome" }

// convertIgnored says which of the flags given do not apply to format: the
// run's flags are read for tfevents and chrome only (a table's rows carry
// them), --p for the job traces only.
func convertIgnored(c *cli.Context, format string) []string {
	var out []string
	for _, f := range []string{"run", "workers", "ps", "batch", "mode"} {
		if c.IsSet(f) && !readsRunFlags(format) {
			out = append(out, fmt.Sprintf("--%s is read for tfevents and chrome only: ignored for %s, whose rows give it", f, format))
		}
	}
	for _, f := range []string{"param-bytes", "bandwidth"} {
		if c.IsSet(f) && format != "chrome" {
			out = append(out, fmt.Sprintf("--%s is read for chrome only (a step trace, whose two-node profile it scales): ignored for %s", f, format))
		}
	}
	if c.IsSet("p") && !slices.Contains(traces.JobFormats(), format) {
		out = append(out, fmt.Sprintf("--p is read for the job traces (%s) only: ignored for %s", strings.Join(traces.JobFormats(), ", "), format))
	}
	return out
}

func runConvert(c *cli.Context, stdout, stderr io.Writer) error {
	pos, err := convertFlagsAfterArgs(c)
	if err != nil {
		return badInput(err)
	}
	if len(pos) != 1 {
		return badInput(fmt.Errorf("convert: want exactly one input IN, got %d arguments", len(pos)))
	}
	in, out, format := pos[0], c.String("out"), c.String("from")
	if err := emptyFolder(c, "out", "the folder the converted files go to: --out is required"); err != nil {
		return err
	}
	if format == "" || out == "" {
		return badInput(fmt.Errorf("convert: --from FORMAT and --out DIR are required"))
	}
	known := false
	for _, f := range traces.ConvertFormats() {
		known = known || f == format
	}
	if !known {
		return badInput(fmt.Errorf("convert: unknown --from %q (known: %s)", format, strings.Join(traces.ConvertFormats(), ", ")))
	}
	// the run's flags are checked where they are read, tfevents and chrome
	// (elsewhere they are warned about as ignored, and --workers 0 or
	// --mode bogus exited 2 for a table whose rows give them)
	isTrace := readsRunFlags(format)
	if isTrace {
		if c.Int("ps") < 0 {
			return badInput(fmt.Errorf("convert: --ps %d: want a count >= 0 (0: no parameter server)", c.Int("ps")))
		}
		for _, f := range []string{"workers", "batch"} {
			// 0 is the options' "unknown": a flag given must say a count
			if (c.IsSet(f) || c.Int(f) != 0) && c.Int(f) < 1 {
				return badInput(fmt.Errorf("convert: --%s %d: want a count >= 1 (leave the flag out when unknown)", f, c.Int(f)))
			}
		}
		switch m := c.String("mode"); m {
		case "", "async", "sync", "allreduce":
		default:
			return badInput(fmt.Errorf("convert: --mode %q: want async, sync or allreduce", m))
		}
	}
	if format == "chrome" {
		if c.IsSet("param-bytes") && c.Int64("param-bytes") < 1 {
			return badInput(fmt.Errorf("convert: --param-bytes %d: want the bytes sent per pull and per push, >= 1 (leave the flag out when unknown)", c.Int64("param-bytes")))
		}
		if bw := c.Float64("bandwidth"); c.IsSet("bandwidth") && !(bw >= traces.MinBandwidth && bw <= traces.MaxBandwidth) {
			return badInput(fmt.Errorf("convert: --bandwidth %g: want the link rate in bytes per second, from %g to %g (leave the flag out when unknown)", bw, float64(traces.MinBandwidth), float64(traces.MaxBandwidth)))
		}
	}
	isJobs := slices.Contains(traces.JobFormats(), format)
	// as plan and simulate do: a --p given must be an exponent (0 was read
	// as the options' "no p" and wrote the p column empty without a word)
	if isJobs && c.IsSet("p") {
		if p := c.Float64("p"); !(p > 0 && p <= 1) {
			return badInput(fmt.Errorf("convert: --p %g: want a speedup exponent in (0, 1]", p))
		}
	}
	if err := notAFile("convert", out); err != nil {
		return err
	}
	// the folder is made, or takes the files, before the input is read
	// (as report checks: an --out under a folder one cannot write failed
	// at mkdir, exit 1 without naming --out, after the whole conversion)
	if err := atomicfile.CheckDir(out); err != nil {
		return badInput(fmt.Errorf("convert: --out %w", err))
	}
	if c.IsSet("run") && strings.TrimSpace(c.String("run")) == "" {
		// (it fell back to the input's name, silently)
		return badInput(fmt.Errorf("convert: --run is empty: want a run name (without --run, the input's base name)"))
	}
	if f := words.NameFault(c.String("run")); f != "" {
		// (the writer refused it after the whole conversion)
		return badInput(fmt.Errorf("convert: --run %q %s", c.String("run"), f))
	}
	for _, w := range convertIgnored(c, format) {
		fmt.Fprintf(stderr, "sgdplan: warning: convert: %s\n", w)
	}
	var opts traces.ConvertOptions
	if isTrace {
		opts = traces.ConvertOptions{Run: c.String("run"), Workers: c.Int("workers"), PS: c.Int("ps"),
			Batch: c.Int("batch"), Mode: c.String("mode")}
	}
	if format == "chrome" {
		opts.ParamBytes, opts.Bandwidth = c.Int64("param-bytes"), c.Float64("bandwidth")
		if c.IsSet("param-bytes") != c.IsSet("bandwidth") {
			given, other := "--param-bytes", "--bandwidth"
			if c.IsSet("bandwidth") {
				given, other = other, given
			}
			fmt.Fprintf(stderr, "sgdplan: warning: convert: %s without %s: fit scales the link demand with both (runs.csv gets the one given)\n", given, other)
		}
	}
	if isJobs {
		// elsewhere --p was warned about as ignored: it is not checked either
		opts.P = c.Float64("p")
	}
	if in == "" { // (stat said "stat : no such file or directory")
		return badInput(fmt.Errorf("convert: an empty input path: want the file or folder to convert"))
	}
	if _, err := os.Stat(in); err != nil {
		return badInput(fmt.Errorf("convert: %w", err))
	}
	writes := traces.FileNames() // the files convert may write into --out
	if slices.Contains(traces.JobFormats(), format) {
		writes = []string{"jobs.csv"}
	}
	if err := notAnInput("convert", "out", out, inFolder(out, writes...), convertInputs(format, in)); err != nil {
		return err
	}
	res, warns, err := traces.Convert(format, in, opts)
	for i, w := range warns {
		if i == maxWarningsShown {
			fmt.Fprintf(stderr, "sgdplan: warning: ... and %d more warnings\n", len(warns)-maxWarningsShown)
			break
		}
		fmt.Fprintf(stderr, "sgdplan: warning: %v\n", w)
	}
	if err != nil {
		return badInput(err)
	}
	// a row the canonical files cannot hold (a --run with spaces at
	// either end, say: the readers trim them) is refused before the
	// folder is made; WriteDir would refuse it too, after
	if res.Trace != nil {
		if err := res.Trace.Check(); err != nil {
			return badInput(fmt.Errorf("convert: the converted trace cannot be written (nothing written): %w", err))
		}
	}
	// every file convert writes: none may be a folder or another
	// non-regular file, checked before any is written
	names := []string{"jobs.csv"}
	if tr := res.Trace; tr != nil {
		names = names[:0]
		for _, f := range tr.Files() {
			names = append(names, f.Name)
		}
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		if _, err := atomicfile.CheckFiles(out, names...); err != nil {
			return badInput(fmt.Errorf("convert: --out %s: %w", out, err))
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			// a file where a folder of the --out path should be
			return badInput(fmt.Errorf("convert: --out %s: %w: --out must be a folder (created when missing)", out, err))
		}
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			// (CheckDir passed: the folder changed since)
			return badInput(fmt.Errorf("convert: --out %s: %w", out, err))
		}
		return withCode(exitFailure, fmt.Errorf("convert: --out %s: %w", out, err))
	}
	if res.Trace == nil {
		var buf bytes.Buffer
		if err := traces.WriteJobsCSV(&buf, res.Jobs); err != nil {
			return withCode(exitFailure, fmt.Errorf("convert: %w", err))
		}
		p := filepath.Join(out, "jobs.csv")
		if err := writeFileAtomic(p, buf.Bytes()); err != nil {
			return withCode(exitFailure, fmt.Errorf("convert: %w", err))
		}
		_, err := fmt.Fprintf(stdout, "wrote %s (%s)\n", p, words.Count(len(res.Jobs), "job"))
		if opts.P == 0 {
			fmt.Fprintf(stderr, "sgdplan: note: the p column is empty: give plan and simulate --p P, convert again with --p, or fill the column\n")
		}
		return err // writing to stdout (the file is written)
	}
	// a file this conversion writes beside its gzipped twin (or the
	// reverse), or beside its name in another case (Steps.csv, which the
	// readers take for steps.csv), makes a folder no reader accepts:
	// refused before writing. Names are compared in lower case without .gz,
	// as the readers do (traces.underOtherNames).
	ents, _ := os.ReadDir(out)
	// (the canonical kind a name is read as, in any case, .gz or not:
	// traces.KindOfName, as the readers find files in a folder)
	for _, f := range res.Trace.Files() {
		fk, _ := traces.KindOfName(f.Name)
		for _, e := range ents {
			if k, ok := traces.KindOfName(e.Name()); e.IsDir() || e.Name() == f.Name || !ok || k != fk {
				continue
			}
			if a, errA := os.Stat(filepath.Join(out, e.Name())); errA == nil {
				// a file system that ignores case: the same file
				if b, errB := os.Stat(filepath.Join(out, f.Name)); errB == nil && os.SameFile(a, b) {
					continue
				}
			}
			why := "a file both plain and gzipped"
			if strings.TrimSuffix(e.Name(), ".gz") != strings.TrimSuffix(f.Name, ".gz") {
				why = "one name in two cases"
			}
			return badInput(fmt.Errorf("convert: --out %s holds %s, from an earlier conversion: the %s this one writes beside it would make a folder that fit and inspect refuse (%s); remove it, or convert into another folder", out, e.Name(), f.Name, why))
		}
	}
	// files of an earlier conversion this one replaces: said, since
	// converting a run's workers one by one into one folder kept the last
	// worker's steps alone, without a word
	var replaced []string
	for _, f := range res.Trace.Files() {
		if _, err := os.Stat(filepath.Join(out, f.Name)); err == nil {
			replaced = append(replaced, f.Name)
		}
	}
	if err := traces.WriteDir(out, res.Trace); err != nil {
		var pe *traces.ParseError
		if errors.As(err, &pe) {
			return badInput(err)
		}
		return withCode(exitFailure, fmt.Errorf("convert: %w", err))
	}
	written := map[string]bool{}
	w := &stickyWriter{w: stdout}
	for _, f := range res.Trace.Files() {
		written[f.Name] = true
		fmt.Fprintf(w, "wrote %s (%s)\n", filepath.Join(out, f.Name), words.Count(f.Rows, "row"))
	}
	if len(replaced) > 0 {
		fmt.Fprintf(stderr, "sgdplan: warning: convert: replaced %s in %s, written before (an earlier conversion?): to read several traces together, convert each into a folder of its own and give fit or inspect all the folders (a run's workers so: each file's distributedInfo rank numbers its worker; files without one are all worker 0, and fit refuses their steps as repeats)\n", strings.Join(replaced, ", "), out)
	}
	// canonical files of an earlier conversion into the same folder are
	// read with these by fit and inspect, as one trace, in any case
	// (Evals.csv too); those of the kinds written are these files (any
	// other was refused above)
	var stale []string
	if ents, err := os.ReadDir(out); err == nil {
		for _, n := range traces.FileNames() {
			if written[n] || written[n+".gz"] {
				continue
			}
			for _, e := range ents {
				if k, ok := traces.KindOfName(e.Name()); !e.IsDir() && ok && k.FileName() == n {
					stale = append(stale, e.Name())
				}
			}
		}
	}
	if len(stale) > 0 {
		fmt.Fprintf(stderr, "sgdplan: warning: %s also holds %s, which this conversion did not write (from an earlier one?): fit and inspect read them with the new files as one trace; remove them, or convert into an empty folder\n", out, strings.Join(stale, ", "))
	}
	return w.err // writing to stdout (the files are written)
}

// convertInputs lists the files convert reads for format from in: in when
// it is a file (and, for gavel-vc, the rates file beside it or in its
// parent folder); a folder's event files for tfevents. A public dataset's
// folder adds nothing: its files have the datasets' own names, never one
// that convert writes.
func convertInputs(format, in string) []input {
	fi, err := os.Stat(in)
	if err != nil {
		return nil
	}
	if !fi.IsDir() {
		ins := []input{namedInput(in, "the input")}
		if format == "gavel-vc" {
			const thr = "simulation_throughputs_isolated.csv"
			for _, d := range []string{filepath.Dir(in), filepath.Dir(filepath.Dir(in))} {
				ins = append(ins, input{path: filepath.Join(d, thr), what: "the rates file " + filepath.Join(d, thr)})
			}
		}
		return ins
	}
	var ins []input
	if format == "tfevents" {
		ents, _ := os.ReadDir(in)
		for _, e := range ents {
			if !e.IsDir() && strings.Contains(e.Name(), "tfevents") {
				ins = append(ins, input{path: filepath.Join(in, e.Name()), what: e.Name() + " of " + in})
			}
		}
	}
	return ins
}
