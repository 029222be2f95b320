package traces

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/internal/words"
)

// The streaming readers of the five canonical files. Each reads its file by
// header name (column order is free), validates every row as
// docs/trace-format.md says, and calls fn once per row in file order; rows are
// not kept, so memory does not grow with the number of rows (ReadSteps keeps a
// little state per run and worker for the duplicate check, see ReadSteps;
// ReadEvals keeps a few words per evaluation, see ReadEvals).
//
// The input may be gzip-compressed (sniffed from its first bytes). file names
// the input in errors. Errors are *ParseError with the line and the column
// (the 1-based byte column where the field at fault starts) of the fault; an error returned by fn stops the
// read and is returned as it is. Warnings (unknown columns) come back in
// warnings, also as *ParseError.

// ReadSteps reads steps.csv. Besides the checks on each value, it rejects a
// row whose workers, ps or batch differ from the earlier rows of its run, a
// worker index outside 0..workers-1, and a duplicate (run, worker, step).
//
// The duplicate check keeps, per run and worker, the set of steps seen as
// disjoint intervals of consecutive steps (stepSet): when a worker's steps
// come in increasing order with no gaps (as every writer of the project
// emits them) that is one interval per worker, so memory is bounded by runs
// x workers; steps with gaps cost one interval per gap, in any order, until
// the gap fills, and each row O(log n) for n intervals. The lines of the steps
// are not kept: when r is an io.Seeker (a file), the error of a duplicate
// names the line of the first row with its key, found by reading r again
// from where the read began up to it.
//
// When r can seek (a file), ReadSteps reads and parses on goroutines of its
// own, a few thousand rows ahead of fn (steps_pipe.go), and calls fn on the
// caller's goroutine, in file order; it returns once those goroutines have
// stopped, so r is not read after it returns (a panic in r's Read
// reaches the caller, after fn has had the rows before it). A stream that
// cannot seek is read on the caller's goroutine alone.
func ReadSteps(r io.Reader, file string, fn func(Step) error) (warnings []error, err error) {
	return readSteps(r, file, func(s Step, _ int) error { return fn(s) }, nil)
}

// readSteps is ReadSteps, giving fn each row's line too; a non-nil dups also
// rejects a step (run, worker, step) that a steps file read earlier with the
// same dups holds, and a row whose run has another configuration there
// (configFault), and keeps this file's steps for the files read after it.
func readSteps(r io.Reader, file string, fn func(s Step, line int) error, dups *crossFiles) (warnings []error, err error) {
	// A stream (a pipe, a socket, standard input) is read on the caller's
	// goroutine: the pipeline's reader may sit in a Read that a stalled
	// writer never returns from, and a stop waited for it (the
	// sequential reader returned at once), and fn lagged a slow stream by
	// a batch. Files, which seek, are read by the pipeline.
	return readStepsWith(r, file, fn, dups, stepsRead{sequential: rewinder(r) == nil})
}

// readStepsWith is readSteps, read as o says.
func readStepsWith(r io.Reader, file string, fn func(s Step, line int) error, dups *crossFiles, o stepsRead) (warnings []error, err error) {
	rewind := rewinder(r)
	var dup *Step // the row of a duplicate (run, worker, step)
	warnings, err = readStepsOnce(r, file, fn, dups, &dup, o)
	if dup != nil && rewind != nil && rewind() {
		first := 0
		readStepsOnce(r, file, func(s Step, line int) error {
			if s.Worker == dup.Worker && s.Step == dup.Step && s.Run == dup.Run {
				first = line
				return errFirstFound
			}
			return nil
		}, nil, nil, o)
		var pe *ParseError
		if first > 0 && errors.As(err, &pe) {
			pe.Msg = stepDupMsg(dup, first)
		}
	}
	return warnings, err
}

// errFirstFound stops the second read of a file with a duplicate row at the
// first row of its key.
var errFirstFound = errors.New("traces: first row found")

// rewinder returns a function that seeks r back to where it is now, or nil
// when r cannot seek (a pipe, a stream).
func rewinder(r io.Reader) func() bool {
	s, ok := r.(io.Seeker)
	if !ok {
		return nil
	}
	at, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	return func() bool {
		_, err := s.Seek(at, io.SeekStart)
		return err == nil
	}
}

// stepsExpect is the header steps.csv should have, for the error of an
// empty file.
const stepsExpect = "run,workers,ps,batch,worker,step,start,end[,pull,compute,push,staleness,loss]"

// readStepsOnce is readSteps without naming a duplicate's first line: the
// row of a duplicate is left in *dup (nil: none kept). It reads on several
// goroutines (readStepsPipelined); o.sequential reads on the caller's alone,
// as before the pipeline (readRows), for the tests that compare the two.
func readStepsOnce(r io.Reader, file string, fn func(s Step, line int) error, dups *crossFiles, dup **Step, o stepsRead) (warnings []error, err error) {
	if !o.sequential {
		return readStepsPipelined(r, file, fn, dups, dup, o)
	}
	return readRows(r, file, stepsExpect,
		func(h *header) (func(*row) error, error) {
			c, err := stepColumns(h)
			if err != nil {
				return nil, err
			}
			check := stepChecks(file, fn, dups, dup)
			return func(r *row) error {
				s, err := c.parse(r)
				if err != nil {
					return err
				}
				return check(&s, r.c.line)
			}, nil
		})
}

// stepCols holds the positions of the columns of steps.csv (-1: absent).
type stepCols struct {
	run, workers, ps, batch, worker, step, start, end, pull, compute, push, staleness, loss int
}

// stepColumns finds the columns of steps.csv in h.
func stepColumns(h *header) (*stepCols, error) {
	var err error
	c := &stepCols{
		h.col("run", true, &err), h.col("workers", true, &err), h.col("ps", true, &err),
		h.col("batch", true, &err), h.col("worker", true, &err), h.col("step", true, &err),
		h.col("start", true, &err), h.col("end", true, &err), h.col("pull", false, &err),
		h.col("compute", false, &err), h.col("push", false, &err),
		h.col("staleness", false, &err), h.col("loss", false, &err),
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// parse is the part of reading a step row that needs no other row: its
// values, and stepFault. The error is r's *ParseError or stepFault's
// *rowFault. The run name aliases r's fields: check interns it.
func (c *stepCols) parse(r *row) (Step, error) {
	s := Step{
		Run:       r.name(c.run, true),
		Workers:   int(r.integer(c.workers, true, stepInts.workers)),
		PS:        int(r.integer(c.ps, true, stepInts.ps)),
		Batch:     int(r.integer(c.batch, true, stepInts.batch)),
		Worker:    int(r.integer(c.worker, true, stepInts.worker)),
		Step:      r.integer(c.step, true, stepInts.step),
		Start:     r.clock(c.start, true),
		End:       r.clock(c.end, true),
		Pull:      r.duration(c.pull),
		Compute:   r.duration(c.compute),
		Push:      r.duration(c.push),
		Staleness: int(r.integer(c.staleness, false, stepInts.staleness)),
		Loss:      r.number(c.loss, false, lossWhat),
	}
	if r.err != nil {
		return s, r.err
	}
	if f := stepFault(&s); f != nil {
		return s, f
	}
	return s, nil
}

// stepChecks returns the part of reading a step row that depends on the
// rows before it, to run on each parsed row (on line) in file order: it
// interns the run name, refuses a row of another configuration than its
// run's or a duplicate (run, worker, step) (keeping the row of a duplicate
// in *dup when dup is not nil), checks the row against the steps files read
// before with the same dups, and calls fn. A fault is a *rowFault.
func stepChecks(file string, fn func(s Step, line int) error, dups *crossFiles, dup **Step) func(s *Step, line int) error {
	runs := newStepChecker()
	prior := dups.add(file, runs)
	// the files before this one that hold each run (read whole: they do
	// not change), found once per run: a row looks in those alone (every
	// row looked in every file before, rows x files, and 4,000 folders of
	// one run each took 12 s to inspect against 0.13 s for 250; a scaling
	// review, 2026-12-07); for the last run looked up, those files and the
	// run's state in the first (its configuration)
	holders := map[string][]fileSteps{}
	var cfgRun string
	var cur []fileSteps
	var cfg *runState
	var cfgFile string
	return func(s *Step, line int) error {
		s.Run = runs.intern(s.Run)
		if f := runs.check(line, s); f != nil {
			if runs.dup && dup != nil {
				d := *s // (a copy: s is the caller's)
				*dup = &d
			}
			return f
		}
		if len(prior) == 0 {
			return fn(*s, line)
		}
		if cfgRun != s.Run || cfgRun == "" {
			hs := holdersOf(holders, prior, s.Run, func(p fileSteps) bool { return p.k.runs[s.Run] != nil })
			cfgRun, cur, cfg, cfgFile = s.Run, hs, nil, ""
			if len(hs) > 0 {
				cfg, cfgFile = hs[0].k.runs[s.Run], hs[0].file
			}
		}
		for _, p := range cur {
			if p.k.has(s) {
				return &rowFault{column: "step", msg: fmt.Sprintf("step: (run %q, worker %d, step %d) is also in %s (a step is in one file only: the same trace given twice?)", s.Run, s.Worker, s.Step, p.file)}
			}
		}
		if f := configFault(s, cfg, cfgFile); f != nil {
			return f
		}
		return fn(*s, line)
	}
}

// holdersOf is the files of prior that hold run (holds says whether one
// does), in prior's order, found once per run and kept in memo: the files
// before are read whole and do not change.
func holdersOf[F any](memo map[string][]F, prior []F, run string, holds func(F) bool) []F {
	hs, ok := memo[run]
	if !ok {
		for _, p := range prior {
			if holds(p) {
				hs = append(hs, p)
			}
		}
		memo[run] = hs
	}
	return hs
}

// configFault is the fault of a step whose run has another configuration
// (workers, ps, batch) in the steps file from, read before (st: the run's
// state there; nil when that file does not hold the run), at the first of
// the three that differs. Load took such a run as it came (steps of one run
// with workers 1 and 2), which only the summary refused (it kept the last
// file's, so the rate depended on the order of the paths).
func configFault(s *Step, st *runState, from string) *rowFault {
	if st == nil || s.Workers == st.workers && s.PS == st.ps && s.Batch == st.batch {
		return nil
	}
	col := "batch"
	switch {
	case s.Workers != st.workers:
		col = "workers"
	case s.PS != st.ps:
		col = "ps"
	}
	return &rowFault{column: col, msg: fmt.Sprintf("run %q: workers, ps, batch = %d, %d, %d, but %d, %d, %d in %s on line %d (expected one configuration per run in every file: give each configuration its own run name)",
		s.Run, s.Workers, s.PS, s.Batch, st.workers, st.ps, st.batch, from, st.line)}
}

// stepFault is the fault of a step row whatever the other rows: an end
// before its start, a worker outside 0..workers-1.
func stepFault(s *Step) *rowFault {
	if s.End < s.Start {
		return &rowFault{column: "end", msg: fmt.Sprintf("end: %s is before start %s", fmtFloat(s.End), fmtFloat(s.Start))}
	}
	if s.Worker >= s.Workers {
		return &rowFault{column: "worker", msg: fmt.Sprintf("worker: %d is out of range (expected 0..%d for workers=%d)", s.Worker, s.Workers-1, s.Workers)}
	}
	return nil
}

// stepDupMsg is the error of a duplicate step whose first row is on line
// first.
func stepDupMsg(s *Step, first int) string {
	return fmt.Sprintf("step: duplicate (run %q, worker %d, step %d), first on line %d", s.Run, s.Worker, s.Step, first)
}

// ReadUpdates reads updates.csv. A duplicate (run, shard, version) is an
// error: version is the model version after the update, so one shard
// reaches each version once. The versions seen are kept per run and shard as
// disjoint intervals, like the steps of ReadSteps (one interval per shard when
// they come in order); when r is an io.Seeker, the error of a duplicate names
// the line of the first row with its key, as ReadSteps does.
func ReadUpdates(r io.Reader, file string, fn func(Update) error) (warnings []error, err error) {
	return readUpdates(r, file, fn, nil)
}

// readUpdates is ReadUpdates; with a non-nil x, the worker and shard of a run
// that a steps file read before describes must lie in 0..workers-1 and
// 0..ps-1 of that run, and an update (run, shard, version) that an updates
// file read before with the same x holds is an error.
func readUpdates(r io.Reader, file string, fn func(Update) error, x *crossFiles) (warnings []error, err error) {
	rewind := rewinder(r)
	var dup *Update // the row of a duplicate (run, shard, version)
	warnings, err = readUpdatesOnce(r, file, func(u Update, _ int) error { return fn(u) }, x, &dup)
	if dup != nil && rewind != nil && rewind() {
		first := 0
		readUpdatesOnce(r, file, func(u Update, line int) error {
			if u.Shard == dup.Shard && u.Version == dup.Version && u.Run == dup.Run {
				first = line
				return errFirstFound
			}
			return nil
		}, nil, nil)
		var pe *ParseError
		if first > 0 && errors.As(err, &pe) {
			pe.Msg = updateDupMsg(dup, first)
		}
	}
	return warnings, err
}

// readUpdatesOnce is readUpdates without naming a duplicate's first line:
// the row of a duplicate is left in *dup (nil: none kept); fn gets each
// row's line too.
func readUpdatesOnce(r io.Reader, file string, fn func(u Update, line int) error, x *crossFiles, dup **Update) (warnings []error, err error) {
	return readRows(r, file, "run,shard,worker,time,version,staleness[,apply]",
		func(h *header) (func(*row) error, error) {
			var err error
			c := struct{ run, shard, worker, time, version, staleness, apply int }{
				h.col("run", true, &err), h.col("shard", true, &err), h.col("worker", true, &err),
				h.col("time", true, &err), h.col("version", true, &err), h.col("staleness", true, &err),
				h.col("apply", false, &err),
			}
			if err != nil {
				return nil, err
			}
			var in interner
			var lastRun string
			var last *runState
			var lastFile string
			seen := &updateChecker{runs: map[string]map[int]*stepSet{}}
			prior := x.addUpdates(file, seen)
			// the updates files before this one that hold each run,
			// found once per run (as stepChecks: rows x files before)
			holders := map[string][]fileUpdates{}
			var cur []fileUpdates // those of curRun
			var curRun string
			var curSet bool
			return func(r *row) error {
				u := Update{
					Run:       r.name(c.run, true),
					Shard:     int(r.integer(c.shard, true, updateInts.shard)),
					Worker:    int(r.integer(c.worker, true, updateInts.worker)),
					Time:      r.clock(c.time, true),
					Version:   r.integer(c.version, true, updateInts.version),
					Staleness: int(r.integer(c.staleness, true, updateInts.staleness)),
					Apply:     r.duration(c.apply),
				}
				if r.err != nil {
					return r.err
				}
				if f := updateStalenessFault(&u); f != nil {
					return f
				}
				u.Run = in.intern(u.Run)
				if x != nil {
					if u.Run != lastRun {
						lastRun = u.Run
						last, lastFile = x.run(u.Run)
					}
					if st := last; st != nil {
						if f := updateRunFault(&u, st, lastFile); f != nil {
							return f
						}
					}
				}
				if len(prior) > 0 && (!curSet || u.Run != curRun) {
					run := u.Run
					cur, curRun, curSet = holdersOf(holders, prior, run, func(p fileUpdates) bool { return p.k.runs[run] != nil }), run, true
				}
				for _, p := range cur {
					if p.k.has(&u) {
						return r.fail(c.version, "version: (run %q, shard %d, version %d) is also in %s (an update is in one file only: the same trace given twice?)", u.Run, u.Shard, u.Version, p.file)
					}
				}
				if f := seen.check(&u); f != nil {
					if dup != nil {
						d := u
						*dup = &d
					}
					return f
				}
				return fn(u, r.c.line)
			}, nil
		})
}

// updateRunFault is the fault of an update of a run that the steps file
// from describes (st): a worker or shard outside the run's workers and ps.
func updateRunFault(u *Update, st *runState, from string) *rowFault {
	if u.Worker >= st.workers {
		return &rowFault{column: "worker", msg: fmt.Sprintf("worker: %d is out of range (expected 0..%d: run %q has workers=%d in %s line %d)", u.Worker, st.workers-1, u.Run, st.workers, from, st.line)}
	}
	if st.ps == 0 {
		return &rowFault{column: "shard", msg: fmt.Sprintf("shard: %d: run %q has ps=0 in %s line %d (no parameter server to apply an update)", u.Shard, u.Run, from, st.line)}
	}
	if u.Shard >= st.ps {
		return &rowFault{column: "shard", msg: fmt.Sprintf("shard: %d is out of range (expected 0..%d: run %q has ps=%d in %s line %d)", u.Shard, st.ps-1, u.Run, st.ps, from, st.line)}
	}
	return nil
}

// updateStalenessFault is the fault of an update whose staleness is above
// its version: staleness = version after apply - 1 - version read, so a
// worker would have read a version below -1 (below 0 even where versions
// are counted from 0). Such a row comes from a version counted per shard
// against a staleness counted across shards, or from swapped columns.
func updateStalenessFault(u *Update) *rowFault {
	if int64(u.Staleness) <= u.Version {
		return nil
	}
	return &rowFault{column: "staleness", msg: fmt.Sprintf("staleness: %d is above version %d (expected at most %d: staleness = version after apply - 1 - version the worker read, and no version below 0 was read; are version and staleness counted the same way, per shard or across shards?)", u.Staleness, u.Version, u.Version)}
}

// runModeFault is the fault of a runs.csv mode (not empty) that the run's
// ps in the steps file from (st) contradicts.
func runModeFault(ri *RunInfo, st *runState, from string) *rowFault {
	switch {
	case ri.Mode == "allreduce" && st.ps > 0:
		return &rowFault{column: "mode", msg: fmt.Sprintf("mode: allreduce, but run %q has ps=%d in %s line %d: all-reduce has no parameter servers (expected async or sync, or ps 0 there)", ri.Run, st.ps, from, st.line)}
	case ri.Mode != "allreduce" && st.ps == 0:
		return &rowFault{column: "mode", msg: fmt.Sprintf("mode: %s, but run %q has ps=0 in %s line %d: %s is a parameter-server mode and needs shards (expected allreduce, or ps >= 1 there)", ri.Mode, ri.Run, from, st.line, ri.Mode)}
	}
	return nil
}

// updateDupMsg is the error of a duplicate update whose first row is on line
// first.
func updateDupMsg(u *Update, first int) string {
	return fmt.Sprintf("version: duplicate (run %q, shard %d, version %d), first on line %d: a shard reaches each model version once", u.Run, u.Shard, u.Version, first)
}

// ReadRuns reads runs.csv. A run named twice is an error. An empty mode
// is left empty (the run's mode is then DefaultMode of its ps).
func ReadRuns(r io.Reader, file string, fn func(RunInfo) error) (warnings []error, err error) {
	return readRuns(r, file, fn, nil)
}

// readRuns is ReadRuns; with a non-nil x, a mode that a steps file read
// before contradicts is an error: async and sync with ps 0 there, allreduce
// with ps >= 1 (the rule of throughput.csv and of convert's --mode and --ps).
func readRuns(r io.Reader, file string, fn func(RunInfo) error, x *crossFiles) (warnings []error, err error) {
	return readRows(r, file, "run[,model,mode,param_bytes,nodes,bandwidth,dataset,epochs,framework,hardware,notes]",
		func(h *header) (func(*row) error, error) {
			var err error
			c := struct{ run, model, mode, paramBytes, nodes, bandwidth, dataset, epochs, framework, hardware, notes int }{
				h.col("run", true, &err), h.col("model", false, &err), h.col("mode", false, &err),
				h.col("param_bytes", false, &err), h.col("nodes", false, &err), h.col("bandwidth", false, &err),
				h.col("dataset", false, &err), h.col("epochs", false, &err), h.col("framework", false, &err),
				h.col("hardware", false, &err), h.col("notes", false, &err),
			}
			if err != nil {
				return nil, err
			}
			seen := runsSeen{}
			return func(r *row) error {
				ri := RunInfo{
					Run:        strings.Clone(r.name(c.run, true)),
					Model:      strings.Clone(r.name(c.model, false)),
					Mode:       r.mode(c.mode),
					ParamBytes: r.integer(c.paramBytes, false, runInts.paramBytes),
					Nodes:      int(r.integer(c.nodes, false, runInts.nodes)),
					Bandwidth:  r.bandwidth(c.bandwidth),
					Dataset:    r.integer(c.dataset, false, runInts.dataset),
					Epochs:     r.positive(c.epochs, epochsWhat),
					Framework:  r.str(c.framework, false),
					Hardware:   r.str(c.hardware, false),
					Notes:      r.str(c.notes, false),
					at:         throughputAt(file, r.c, c.mode),
				}
				if r.err != nil {
					return r.err
				}
				if r.field(c.mode) == "" {
					ri.Mode = ""
				} else if st, from := x.run(ri.Run); st != nil {
					if f := runModeFault(&ri, st, from); f != nil {
						return f
					}
				}
				if f := seen.check(ri.Run, r.c.line); f != nil {
					return f
				}
				return fn(ri)
			}, nil
		})
}

// runsSeen holds the line of each run of a runs.csv.
type runsSeen map[string]int

// check refuses a run described on an earlier line and keeps run's line.
func (seen runsSeen) check(run string, line int) *rowFault {
	if first, dup := seen[run]; dup {
		return &rowFault{column: "run", msg: fmt.Sprintf("run: %q is described twice (first on line %d)", run, first)}
	}
	seen[run] = line
	return nil
}

// ReadEvals reads evals.csv. Each row needs time or updates, and loss or
// accuracy; accuracy lies in [0, 1]. An evaluation is a run's (updates, time):
// a second row of a run with the same update count and time as an earlier row
// (or the same one of the two where the other is empty) is an error naming the
// earlier row's line, whether it repeats the row (the loss curve would count
// it twice) or contradicts it (which loss is it?). The same update count at
// another time is a new evaluation (a model evaluated again before it
// changed, as in testdata/asgd/cpu). The keys of the rows read are kept, one
// entry per row: evals.csv is one row per evaluation, not per step.
func ReadEvals(r io.Reader, file string, fn func(Eval) error) (warnings []error, err error) {
	return readRows(r, file, "run,time|updates,loss|accuracy",
		func(h *header) (func(*row) error, error) {
			var err error
			c := struct{ run, time, updates, loss, accuracy int }{
				h.col("run", true, &err), h.col("time", false, &err), h.col("updates", false, &err),
				h.col("loss", false, &err), h.col("accuracy", false, &err),
			}
			if err == nil && c.time < 0 && c.updates < 0 {
				err = &ParseError{File: file, Line: h.line, Msg: "missing column: expected \"time\" or \"updates\""}
			}
			if err == nil && c.loss < 0 && c.accuracy < 0 {
				err = &ParseError{File: file, Line: h.line, Msg: "missing column: expected \"loss\" or \"accuracy\""}
			}
			if err != nil {
				return nil, err
			}
			var in interner
			seen := evalsSeen{}
			return func(r *row) error {
				e := Eval{
					Run:      r.name(c.run, true),
					Time:     r.clock(c.time, false),
					Updates:  r.integer(c.updates, false, evalInts.updates),
					Loss:     r.number(c.loss, false, lossWhat),
					Accuracy: r.number(c.accuracy, false, accuracyWhat),
				}
				if r.err != nil {
					return r.err
				}
				if f := evalFault(&e); f != nil {
					return f
				}
				e.Run = in.intern(e.Run)
				if f := seen.check(&e, r.c.line); f != nil {
					return f
				}
				return fn(e)
			}, nil
		})
}

// evalFault is the fault of an eval row whatever the other rows: neither
// time nor updates, neither loss nor accuracy, an accuracy outside [0, 1].
func evalFault(e *Eval) *rowFault {
	if math.IsNaN(e.Time) && e.Updates < 0 {
		return &rowFault{column: "time", or: "updates", msg: "time, updates: both empty (expected at least one)"}
	}
	if math.IsNaN(e.Loss) && math.IsNaN(e.Accuracy) {
		return &rowFault{column: "loss", or: "accuracy", msg: "loss, accuracy: both empty (expected at least one)"}
	}
	if m := accuracyFault(e.Accuracy); m != "" {
		return &rowFault{column: "accuracy", msg: "accuracy: " + m}
	}
	return nil
}

// evalsSeen holds the evaluations of an evals.csv read so far.
type evalsSeen map[evalAt]evalRow

// check refuses an evaluation that an earlier line holds (the same row
// again, or another) and keeps e's, on line.
func (seen evalsSeen) check(e *Eval, line int) *rowFault {
	k := evalAtOf(e)
	if prev, dup := seen[k]; dup {
		col := "updates"
		if e.Updates < 0 {
			col = "time"
		}
		if prev.loss == math.Float64bits(e.Loss) && prev.accuracy == math.Float64bits(e.Accuracy) {
			return &rowFault{column: col, msg: fmt.Sprintf("%s: the evaluation of run %q %s is given twice (the same row as line %d: the loss curve would count it twice)", col, e.Run, evalWhere(e), prev.line)}
		}
		return &rowFault{column: col, msg: fmt.Sprintf("%s: the evaluation of run %q %s is given again, differently, after line %d (expected one row per evaluation, its loss and accuracy together)", col, e.Run, evalWhere(e), prev.line)}
	}
	seen[k] = evalRow{line: line, loss: math.Float64bits(e.Loss), accuracy: math.Float64bits(e.Accuracy)}
	return nil
}

// evalAt identifies an evaluation of evals.csv: its run, update count (-1
// when empty) and time (by its bits, NaN when empty; -0 as 0).
type evalAt struct {
	run     string
	updates int64
	time    uint64
}

func evalAtOf(e *Eval) evalAt {
	t := e.Time
	if t == 0 {
		t = 0 // -0
	}
	return evalAt{e.Run, e.Updates, math.Float64bits(t)}
}

// evalRow is what ReadEvals keeps of a row: its line and values.
type evalRow struct {
	line           int
	loss, accuracy uint64
}

// evalWhere says where in a run's training e was measured: "at 50 updates
// (time 5.9 s)", "at 50 updates", "at 5.9 s".
func evalWhere(e *Eval) string {
	switch {
	case e.Updates < 0:
		return fmt.Sprintf("at %s s", fmtFloat(e.Time))
	case math.IsNaN(e.Time):
		return fmt.Sprintf("at %d updates", e.Updates)
	}
	return fmt.Sprintf("at %d updates (time %s s)", e.Updates, fmtFloat(e.Time))
}

// ReadThroughput reads throughput.csv. Each row needs batch or global_batch,
// and steps_per_s or samples_per_s (rates > 0).
func ReadThroughput(r io.Reader, file string, fn func(Throughput) error) (warnings []error, err error) {
	return readRows(r, file, "workers,ps,batch|global_batch,steps_per_s|samples_per_s[,mode,nodes,model,run,repeats,std]",
		func(h *header) (func(*row) error, error) {
			var err error
			c := struct{ workers, ps, batch, globalBatch, steps, samples, mode, nodes, model, run, repeats, std int }{
				h.col("workers", true, &err), h.col("ps", true, &err), h.col("batch", false, &err),
				h.col("global_batch", false, &err), h.col("steps_per_s", false, &err),
				h.col("samples_per_s", false, &err), h.col("mode", false, &err), h.col("nodes", false, &err),
				h.col("model", false, &err), h.col("run", false, &err), h.col("repeats", false, &err),
				h.col("std", false, &err),
			}
			if err == nil && c.batch < 0 && c.globalBatch < 0 {
				err = &ParseError{File: file, Line: h.line, Msg: "missing column: expected \"batch\" or \"global_batch\""}
			}
			if err == nil && c.steps < 0 && c.samples < 0 {
				err = &ParseError{File: file, Line: h.line, Msg: "missing column: expected \"steps_per_s\" or \"samples_per_s\""}
			}
			if err != nil {
				return nil, err
			}
			return func(r *row) error {
				t := Throughput{
					Workers:     int(r.integer(c.workers, true, throughputInts.workers)),
					PS:          int(r.integer(c.ps, true, throughputInts.ps)),
					Batch:       int(r.integer(c.batch, false, throughputInts.batch)),
					GlobalBatch: int(r.integer(c.globalBatch, false, throughputInts.globalBatch)),
					StepsPerS:   r.rate(c.steps, stepsWhat),
					SamplesPerS: r.rate(c.samples, samplesWhat),
					Mode:        r.mode(c.mode),
					Nodes:       int(r.integer(c.nodes, false, throughputInts.nodes)),
					Model:       strings.Clone(r.name(c.model, false)),
					Run:         strings.Clone(r.name(c.run, false)),
					Repeats:     int(r.integer(c.repeats, false, throughputInts.repeats)),
					Std:         r.std(c.std),
					at:          throughputAt(file, r.c, c.mode),
				}
				if r.err != nil {
					return r.err
				}
				if f := throughputFault(&t, r.field(c.mode) == ""); f != nil {
					return f
				}
				return fn(t)
			}, nil
		})
}

// throughputRelTol is the relative tolerance of the products a throughput
// row states twice (samples_per_s = steps_per_s x samples per step).
const throughputRelTol = 1e-6

// throughputFault is the fault of a throughput row: neither batch nor
// global_batch, neither rate, or a row that contradicts itself: a mode that
// disagrees with ps (async and sync are parameter-server modes and need
// ps >= 1, allreduce has none; the rule of convert's --mode and --ps),
// global_batch other than workers x batch when both are given, a
// global_batch below workers or nodes above them, and
// samples_per_s other than steps_per_s x the samples of one step (the
// per-worker batch for async updates, the global batch for synchronous
// steps; as fit reads them) when both rates are given. modeEmpty: the mode
// field is empty (t.Mode is then async, the default).
func throughputFault(t *Throughput, modeEmpty bool) *rowFault {
	if t.Batch == 0 && t.GlobalBatch == 0 {
		return &rowFault{column: "batch", or: "global_batch", msg: "batch, global_batch: both empty (expected at least one)"}
	}
	if math.IsNaN(t.StepsPerS) && math.IsNaN(t.SamplesPerS) {
		return &rowFault{column: "steps_per_s", or: "samples_per_s", msg: "steps_per_s, samples_per_s: both empty (expected at least one)"}
	}
	switch {
	case t.Mode == "allreduce" && t.PS > 0:
		return &rowFault{column: "ps", msg: fmt.Sprintf("ps: %d with mode allreduce: all-reduce has no parameter servers (expected ps 0, or mode async or sync)", t.PS)}
	case t.Mode != "allreduce" && t.PS == 0:
		how := ""
		if modeEmpty {
			how = ", the default when mode is empty"
		}
		return &rowFault{column: "ps", msg: fmt.Sprintf("ps: 0 with mode %s%s: %s is a parameter-server mode and needs the shard count (expected ps >= 1; a run without parameter servers is mode allreduce)", t.Mode, how, t.Mode)}
	}
	if t.Batch > 0 && t.GlobalBatch > 0 && int64(t.Batch)*int64(t.Workers) != int64(t.GlobalBatch) {
		return &rowFault{column: "global_batch", msg: fmt.Sprintf("global_batch: %d contradicts batch %d x workers %d = %d (expected one of them, or values that agree)",
			t.GlobalBatch, t.Batch, t.Workers, int64(t.Batch)*int64(t.Workers))}
	}
	// (fit fitted such a row, and predict then refused the model at that
	// configuration: less than one sample per worker)
	if t.GlobalBatch > 0 && t.GlobalBatch < t.Workers {
		return &rowFault{column: "global_batch", msg: fmt.Sprintf("global_batch: %d is below workers %d: each worker takes at least one sample a step (expected global_batch >= %d, or fewer workers)",
			t.GlobalBatch, t.Workers, t.Workers)}
	}
	if t.Nodes > t.Workers {
		return &rowFault{column: "nodes", msg: fmt.Sprintf("nodes: %d is above workers %d: each machine runs at least one worker (expected nodes from 1 to %d, or empty: one machine per worker)",
			t.Nodes, t.Workers, t.Workers)}
	}
	if math.IsNaN(t.StepsPerS) || math.IsNaN(t.SamplesPerS) {
		return nil
	}
	if per, what, ok := ratesAgree(t); !ok {
		return &rowFault{column: "samples_per_s", msg: fmt.Sprintf("samples_per_s: %s contradicts steps_per_s %s x %s samples (%s) = %s (expected one of the rates, or rates that agree to 1e-6)",
			fmtFloat(t.SamplesPerS), fmtFloat(t.StepsPerS), fmtFloat(per), what, fmtFloat(t.StepsPerS*per))}
	}
	return nil
}

// throughputAt is the position of a throughput row read by c: the start of
// its mode field (column mode, 0-based; -1 when the file has none: the row's
// line, column 0).
func throughputAt(file string, c *csvReader, mode int) throughputPos {
	if mode < 0 {
		return throughputPos{file: file, line: c.line}
	}
	p := c.fieldPos(mode)
	return throughputPos{file: file, line: p.line, modeCol: p.col}
}

// ratesAgree reports whether t's samples_per_s is its steps_per_s times the
// samples of one step (per, described by what), to throughputRelTol: the
// per-worker batch for async updates, the global batch for synchronous
// steps, as fit reads them. An empty mode is the one the row is read with,
// DefaultMode of its ps (the synchronous rule it fell to refused a
// converted sync log's rates and dropped an async log's right ones).
func ratesAgree(t *Throughput) (per float64, what string, ok bool) {
	mode := t.Mode
	if mode == "" {
		mode = DefaultMode(t.PS)
	}
	switch {
	case mode == "async" && t.Batch > 0:
		per, what = float64(t.Batch), "batch, one worker's mini-batch per async update"
	case mode == "async":
		per, what = float64(t.GlobalBatch)/float64(t.Workers), "global_batch / workers, one worker's mini-batch per async update"
	case t.GlobalBatch > 0:
		per, what = float64(t.GlobalBatch), "global_batch per synchronous step"
	default:
		per, what = float64(t.Batch)*float64(t.Workers), "batch x workers per synchronous step"
	}
	want := t.StepsPerS * per
	return per, what, math.Abs(t.SamplesPerS-want) <= throughputRelTol*math.Max(math.Abs(t.SamplesPerS), math.Abs(want))
}

// readRows is the loop shared by the readers: header, then one call of the
// bound row function per record.
func readRows(rd io.Reader, file, expect string, bind func(*header) (func(*row) error, error)) (warnings []error, err error) {
	c, err := newCSVReader(rd, file)
	if err != nil {
		return nil, err
	}
	h, err := c.readHeader(expect)
	if err != nil {
		return nil, err
	}
	parse, err := bind(h)
	if err != nil {
		return nil, err
	}
	warnings = h.unknown()
	r := &row{c: c, h: h}
	n := 0
	for {
		f, err := c.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return warnings, err
		}
		if len(f) != len(h.names) {
			return warnings, fieldCountError(c, h, f)
		}
		r.f, r.err = f, nil
		if err := parse(r); err != nil {
			return warnings, rowError(c, h, err)
		}
		n++
	}
	if n == 0 {
		return warnings, &ParseError{File: file, Line: h.line, Msg: fmt.Sprintf("header only: no data rows after line %d", h.line)}
	}
	return warnings, nil
}

// rowFault is a fault of the current row found by a row handler (one that
// compares it with other files): readRows gives it the row's line and the
// named column's position.
type rowFault struct {
	column string // a column of the header
	or     string // another column: the fault is at the later of the two the header has
	msg    string
}

// at is the position (0-based) of the fault's column in h.
func (e *rowFault) at(h *header) int {
	i, ok := h.index[e.column]
	if j, ok2 := h.index[e.or]; e.or != "" && ok2 && (!ok || j > i) {
		i = j
	}
	return i
}

func (e *rowFault) Error() string { return e.msg }

// row parses the fields of one record. The first fault sticks in err, so a
// row's fields can be parsed in one expression and checked once.
type row struct {
	c   *csvReader
	h   *header
	f   []string
	err error
}

// fail records a fault at column col (0-based) and returns it.
func (r *row) fail(col int, format string, args ...any) error {
	if r.err == nil {
		r.err = r.c.errorf(col, format, args...)
	}
	return r.err
}

// field returns the value at col, trimmed, or "" when the column is absent.
func (r *row) field(col int) string {
	if col < 0 {
		return ""
	}
	return trimField(r.f[col])
}

// str returns a copy of the text at col (fields alias the read buffer).
func (r *row) str(col int, required bool) string {
	return strings.Clone(r.key(col, required))
}

// key returns the text at col without copying it: it must be copied (or
// interned) before the row is done.
func (r *row) key(col int, required bool) string {
	s := r.field(col)
	if s == "" && required && col >= 0 {
		r.fail(col, "%s: %s", r.h.names[col], missingMsg)
	}
	return s
}

// name is key for a name column (run, model): text that is no name (not UTF-8,
// a control character: words.NameFault) is a fault at its column.
func (r *row) name(col int, required bool) string {
	s := r.key(col, required)
	if f := words.NameFault(s); f != "" {
		r.fail(col, "%s: %q %s", r.h.names[col], s, f)
	}
	return s
}

// plainInt reports whether s is an optional sign and digits.
func plainInt(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// integer parses an integer within b. An empty optional value is b.absent.
func (r *row) integer(col int, required bool, b intBound) int64 {
	min, absent := b.min, b.absent
	s := r.field(col)
	if s == "" {
		if required && col >= 0 {
			r.fail(col, "%s: missing value (expected an integer >= %d)", r.h.names[col], min)
		}
		return absent
	}
	v, err := parseInt(s)
	if err != nil {
		f, ferr := parseFloat(s)
		// whole as written, not only as the float64 it rounds to
		whole := ferr == nil && !math.IsInf(f, 0) && f == math.Trunc(f) && wholeText(s)
		switch {
		case whole && math.Abs(f) < 1<<53:
			v = int64(f) // "4.0" and "1e3" are integers too
		case whole && f < 0, errors.Is(err, strconv.ErrRange) && plainInt(s) && strings.HasPrefix(s, "-"):
			r.fail(col, "%s: %s is below %d (expected an integer >= %d)", r.h.names[col], s, min, min)
			return absent
		case whole, errors.Is(err, strconv.ErrRange) && plainInt(s):
			r.fail(col, "%s: %s is too large (expected an integer >= %d, at most 2^53 written as a decimal, or an int64 in digits)", r.h.names[col], s, min)
			return absent
		default:
			r.fail(col, "%s: %q is not an integer (expected an integer >= %d)", r.h.names[col], s, min)
			return absent
		}
	}
	if v < min {
		r.fail(col, "%s: %s", r.h.names[col], b.belowMsg(v, false))
		return absent
	}
	if b.max > 0 && v > b.max {
		r.fail(col, "%s: %s", r.h.names[col], b.aboveMsg(v))
		return absent
	}
	return v
}

// wholeText reports whether the decimal s is exactly a whole number: the
// float64 it rounds to may be whole when s is not (1.0000000000000001,
// 4503599627370496.5).
// An exponent beyond ±400 is not whole here (a float64 ends near 1e308).
// It takes one pass over s, allocating nothing: big.Rat, used before, took
// time quadratic in the digits (2 s for a field of 1 MiB, "5." and zeros,
// each row of a file of them).
func wholeText(s string) bool {
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 400 || e < -400 {
			return false
		}
		s, exp = s[:i], e
	}
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" || !allDigits(whole) || !allDigits(frac) {
		return false
	}
	// the value is the digits whole+frac times 10^(exp-len(frac)): whole
	// when their trailing zeros make up for a negative power, or all are 0
	zeros := len(frac) - len(strings.TrimRight(frac, "0"))
	if zeros == len(frac) {
		zeros += len(whole) - len(strings.TrimRight(whole, "0"))
	}
	return zeros == len(whole)+len(frac) || exp-len(frac)+zeros >= 0
}

// allDigits reports whether s is ASCII digits only ("" is).
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// number parses a finite float; an empty optional value is NaN.
func (r *row) number(col int, required bool, what string) float64 {
	s := r.field(col)
	if s == "" {
		if required && col >= 0 {
			r.fail(col, "%s: missing value (expected %s)", r.h.names[col], what)
		}
		return math.NaN()
	}
	v, err := parseFloat(s)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			r.fail(col, "%s: %q is out of the float64 range", r.h.names[col], s)
		} else {
			r.fail(col, "%s: %q is not a number (expected %s)", r.h.names[col], s, what)
		}
		return math.NaN()
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		r.fail(col, "%s: %s", r.h.names[col], notFiniteMsg(s, what))
		return math.NaN()
	}
	return v
}

// clock parses a time in seconds within ±limits.MaxTime (NaN when an
// optional value is empty; see clockFault).
func (r *row) clock(col int, required bool) float64 {
	v := r.number(col, required, secondsWhat)
	if m := clockFault(v); m != "" {
		r.fail(col, "%s: %s", r.h.names[col], m)
	}
	return v
}

// duration parses an optional time span >= 0 and at most limits.MaxTime
// (NaN when empty).
func (r *row) duration(col int) float64 {
	v := r.number(col, false, durationWhat)
	if m := durationFault(v); m != "" {
		r.fail(col, "%s: %s", r.h.names[col], m)
	}
	return v
}

// std parses throughput.csv's optional std, the standard deviation of the
// rate (NaN when empty; see stdFault).
func (r *row) std(col int) float64 {
	v := r.number(col, false, stdWhat)
	if m := stdFault(v); m != "" {
		r.fail(col, "%s: %s", r.h.names[col], m)
	}
	return v
}

// positive parses an optional value > 0 (NaN when empty).
func (r *row) positive(col int, what string) float64 {
	v := r.number(col, false, positiveWhat(what))
	if m := positiveFault(v, what); m != "" {
		r.fail(col, "%s: %s", r.h.names[col], m)
	}
	return v
}

// rate parses a positive rate of at least one per limits.MaxTime seconds
// and at most limits.MaxTime per second (1e-12 to 1e12; see rateFault).
func (r *row) rate(col int, what string) float64 {
	v := r.positive(col, what)
	if m := rateFault(v, what); m != "" {
		r.fail(col, "%s: %s", r.h.names[col], m)
	}
	return v
}

// bandwidth parses runs.csv's optional bandwidth, > 0 and within
// MinBandwidth to MaxBandwidth (NaN when empty; see bandwidthFault).
func (r *row) bandwidth(col int) float64 {
	v := r.positive(col, bandwidthWhat)
	if m := bandwidthFault(v); m != "" {
		r.fail(col, "%s: %s", r.h.names[col], m)
	}
	return v
}

// mode parses the training mode; empty means async.
func (r *row) mode(col int) string {
	if m, ok := modeOf(strings.ToLower(r.field(col))); ok {
		return m
	}
	r.fail(col, "%s: %s", r.h.names[col], notModeMsg(r.field(col))) // as written
	return ""
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// interner returns one copy of repeated strings (run names), so that rows kept
// in memory do not each hold the line they were cut from.
type interner struct {
	last string
	m    map[string]string
}

// maxInterned bounds the interner's memory on files with many distinct runs.
const maxInterned = 4096

func (in *interner) intern(s string) string {
	if s == in.last {
		return in.last
	}
	if v, ok := in.m[s]; ok {
		in.last = v
		return v
	}
	v := strings.Clone(s)
	if in.m == nil {
		in.m = map[string]string{}
	}
	if len(in.m) < maxInterned {
		in.m[v] = v
	}
	in.last = v
	return v
}

// stepChecker holds the per-run state of ReadSteps.
type stepChecker struct {
	interner
	runs    map[string]*runState
	lastRun string
	lastSt  *runState
	dup     bool // check refused a duplicate
}

type runState struct {
	workers, ps, batch int
	line               int
	steps              map[int]*stepSet
}

func newStepChecker() *stepChecker { return &stepChecker{runs: map[string]*runState{}} }

// check refuses a row of s's run with other workers, ps or batch than the
// run's first row (keeping the first, on line), and a duplicate (run,
// worker, step).
func (k *stepChecker) check(line int, s *Step) *rowFault {
	st := k.lastSt
	if st == nil || s.Run != k.lastRun {
		st = k.runs[s.Run]
		if st == nil {
			st = &runState{workers: s.Workers, ps: s.PS, batch: s.Batch, line: line, steps: map[int]*stepSet{}}
			k.runs[s.Run] = st
		}
		k.lastRun, k.lastSt = s.Run, st
	}
	switch {
	case s.Workers != st.workers:
		return &rowFault{column: "workers", msg: fmt.Sprintf("workers: %d differs from %d on line %d for run %q (a run is one configuration)", s.Workers, st.workers, st.line, s.Run)}
	case s.PS != st.ps:
		return &rowFault{column: "ps", msg: fmt.Sprintf("ps: %d differs from %d on line %d for run %q (a run is one configuration)", s.PS, st.ps, st.line, s.Run)}
	case s.Batch != st.batch:
		return &rowFault{column: "batch", msg: fmt.Sprintf("batch: %d differs from %d on line %d for run %q (a run is one configuration)", s.Batch, st.batch, st.line, s.Run)}
	}
	set := st.steps[s.Worker]
	if set == nil {
		set = &stepSet{}
		st.steps[s.Worker] = set
	}
	if !set.add(s.Step) {
		k.dup = true
		return &rowFault{column: "step", msg: fmt.Sprintf("step: duplicate (run %q, worker %d, step %d)", s.Run, s.Worker, s.Step)}
	}
	return nil
}

// crossFiles holds the steps of the files read so far, to find a step (run,
// worker, step) that two files hold (a trace given twice, or a folder copied).
// A nil *crossFiles checks nothing. The updates of a run that steps.csv
// describes are checked against its workers and ps.
type crossFiles struct {
	files   []fileSteps
	frozen  bool // the steps files are all read: steps are not checked again, updates are
	updates []fileUpdates

	runs  map[string]runFrom // runs.csv rows by run, with their file
	evals map[evalAt]string  // evals.csv evaluations, with their file
	// evalFiles is the number of evals.csv files read: with one there is
	// nothing to compare, and no row is kept
	evalFiles int
}

// newCrossFiles is the cross-file check of files.
func newCrossFiles(files []File) *crossFiles {
	d := &crossFiles{}
	for _, f := range files {
		if f.Kind == KindEvals {
			d.evalFiles++
		}
	}
	return d
}

type runFrom struct {
	info RunInfo
	file string
}

// runHandler wraps fn for the runs.csv file: a run that an earlier runs.csv
// describes is skipped when the two rows agree (the same trace named twice)
// and an error when they differ (which one is the run?).
func (d *crossFiles) runHandler(file string, fn func(RunInfo) error) func(RunInfo) error {
	if d == nil {
		return fn
	}
	return func(r RunInfo) error {
		if d.runs == nil {
			d.runs = map[string]runFrom{}
		}
		if prev, ok := d.runs[r.Run]; ok && prev.file != file {
			a, b := prev.info, r
			if st, _ := d.run(r.Run); st != nil { // an empty mode is the run's default
				for _, x := range []*RunInfo{&a, &b} {
					if x.Mode == "" {
						x.Mode = DefaultMode(st.ps)
					}
				}
			}
			if sameRunInfo(a, b) {
				return nil
			}
			return &rowFault{column: "run", msg: fmt.Sprintf("run %q is described again, differently, after %s: describe each run once", r.Run, prev.file)}
		}
		d.runs[r.Run] = runFrom{r, file}
		return fn(r)
	}
}

// evalHandler wraps fn for the evals.csv file: an evaluation (run, updates,
// time) that an earlier evals.csv holds is an error, whether the rows agree
// (the loss curve would count it twice) or not (which is it?).
func (d *crossFiles) evalHandler(file string, fn func(Eval) error) func(Eval) error {
	if d == nil || d.evalFiles < 2 {
		return fn
	}
	return func(e Eval) error {
		if d.evals == nil {
			d.evals = map[evalAt]string{}
		}
		k := evalAtOf(&e)
		if prev, ok := d.evals[k]; ok && prev != file {
			return &rowFault{column: "run", msg: fmt.Sprintf("the evaluation of run %q %s is also in %s: is the trace named twice?", e.Run, evalWhere(&e), prev)}
		}
		d.evals[k] = file
		return fn(e)
	}
}

// sameRunInfo reports whether a and b say the same (NaN equal to NaN),
// notes aside: free text says nothing of the run (convert --from chrome
// notes the file each worker's trace came from, and the runs.csv of a
// run's workers, converted one by one, could not be read together).
func sameRunInfo(a, b RunInfo) bool {
	eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	fa, fb := a, b
	fa.Bandwidth, fb.Bandwidth, fa.Epochs, fb.Epochs = 0, 0, 0, 0
	fa.Notes, fb.Notes = "", ""
	fa.at, fb.at = throughputPos{}, throughputPos{} // where, not what
	return fa == fb && eq(a.Bandwidth, b.Bandwidth) && eq(a.Epochs, b.Epochs)
}

// updateChecker holds the (run, shard, version) of the updates read, as a
// set of versions per run and shard.
type updateChecker struct {
	runs    map[string]map[int]*stepSet
	lastRun string
	last    map[int]*stepSet
}

// add inserts u's (run, shard, version) and reports whether it was new.
func (k *updateChecker) add(u *Update) bool {
	if k.last == nil || u.Run != k.lastRun {
		k.last = k.runs[u.Run]
		if k.last == nil {
			k.last = map[int]*stepSet{}
			k.runs[u.Run] = k.last
		}
		k.lastRun = u.Run
	}
	set := k.last[u.Shard]
	if set == nil {
		set = &stepSet{}
		k.last[u.Shard] = set
	}
	return set.add(u.Version)
}

// check refuses a duplicate (run, shard, version) and keeps u's.
func (k *updateChecker) check(u *Update) *rowFault {
	if !k.add(u) {
		return &rowFault{column: "version", msg: fmt.Sprintf("version: duplicate (run %q, shard %d, version %d): a shard reaches each model version once", u.Run, u.Shard, u.Version)}
	}
	return nil
}

// has reports whether the checker holds u's (run, shard, version).
func (k *updateChecker) has(u *Update) bool {
	set := k.runs[u.Run][u.Shard]
	return set != nil && set.contains(u.Version)
}

type fileUpdates struct {
	file string
	k    *updateChecker
}

// addUpdates registers the checker of the updates file file and returns
// those of the updates files before it.
func (d *crossFiles) addUpdates(file string, k *updateChecker) []fileUpdates {
	if d == nil {
		return nil
	}
	prior := d.updates
	d.updates = append(d.updates[:len(d.updates):len(d.updates)], fileUpdates{file, k})
	return prior
}

type fileSteps struct {
	file string
	k    *stepChecker
}

// add registers the checker of file and returns those of the files before it.
func (d *crossFiles) add(file string, k *stepChecker) []fileSteps {
	if d == nil || d.frozen {
		return nil
	}
	prior := d.files
	d.files = append(d.files[:len(d.files):len(d.files)], fileSteps{file, k})
	return prior
}

// run returns the state of run in the first steps file that holds it.
func (d *crossFiles) run(run string) (*runState, string) {
	if d == nil {
		return nil, ""
	}
	for _, f := range d.files {
		if st := f.k.runs[run]; st != nil {
			return st, f.file
		}
	}
	return nil, ""
}

// has reports whether the checker has seen s's (run, worker, step).
func (k *stepChecker) has(s *Step) bool {
	st := k.runs[s.Run]
	if st == nil {
		return false
	}
	set := st.steps[s.Worker]
	return set != nil && set.contains(s.Step)
}
