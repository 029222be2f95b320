package traces

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/sgdplan/sgdplan/internal/words"
)

// A worker runs its iterations one after another: an iteration of one
// worker that starts before the end of an earlier iteration of the worker
// (by step number: the previous one, or one further back that ends later)
// contradicts it (a clock that jumped, times in other units than seconds, a
// row edited by hand). Clock skew between workers is normal and is not
// looked at: only the rows of one worker are compared.
//
// The check is a warning, not an error: the times are used as written (the
// run's wall time, its steady-state window and rates), and the warning says
// which row to look at.

// Overlap tolerance: an iteration may start up to overlapAbs +
// overlapRel x |time| before an earlier one ends. 1 ms passes the jitter
// of timestamps taken in different threads (the acknowledgement of a push
// and the next pull) and a duration rounded to the millisecond; rounding both
// times the same way (to ms, to float32, to a few significant digits) keeps
// their order and needs no tolerance. The relative term passes float64
// arithmetic (end computed as start + duration: about 1e-16 x |time|) with a
// margin of 1e4, and stays small at epoch timestamps (1.7 ms at 1.7e9 s),
// where a relative 1e-6 would pass overlaps of half an hour.
const (
	overlapAbs = 1e-3
	overlapRel = 1e-12
)

// overlapTolerance is how far an iteration starting at start may begin
// before end, the latest end of its worker's iterations of smaller steps.
func overlapTolerance(end, start float64) float64 {
	return overlapAbs + overlapRel*math.Max(math.Abs(end), math.Abs(start))
}

// OverlapWarning is the warning of a run in which iterations of one worker
// start before an earlier iteration of the worker (by step) ends, beyond a
// tolerance of 1 ms plus 1e-12 of the times: how many, and the worst.
type OverlapWarning struct {
	Run string
	// Count is the number of iterations that start before the end of an
	// earlier iteration of their worker, each counted once.
	Count int64
	// The worst: iteration Step of Worker starts By seconds before the end
	// of the worker's iteration PrevStep, of the iterations with a smaller
	// step the one that ends last; its row is at File:Line ("" and 0 when
	// the rows were not read from a file).
	Worker         int
	Step, PrevStep int64
	By             float64 // s
	File           string
	Line           int
}

func (w *OverlapWarning) Error() string {
	return fmt.Sprintf("traces: run %q: %s", w.Run, w.Detail())
}

// Detail is the warning without the run: how many iterations, the worst,
// and what may cause it.
func (w *OverlapWarning) Detail() string {
	what := "1 iteration starts"
	if w.Count != 1 {
		what = fmt.Sprintf("%d iterations start", w.Count)
	}
	return fmt.Sprintf("%s before the end of an earlier iteration of the worker (by more than 1 ms); worst: worker %d step %d starts %.4g s before step %d ends%s. A worker runs its iterations one after another: a clock that jumped, times in other units than seconds, or a row edited by hand? The run's wall time, steady-state window and rates take the times as written",
		what, w.Worker, w.Step, w.By, w.PrevStep, w.at())
}

// at is where the worst iteration's row is, " (file:line)", or "" when it
// was not read from a file.
func (w *OverlapWarning) at() string {
	if w.File == "" || w.Line <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%s:%d)", w.File, w.Line)
}

// OverlapsShown is how many runs' overlap warnings GroupOverlaps gives in
// full before it sums the rest up in one.
const OverlapsShown = 3

// GroupOverlaps gives the warnings of runs ws in their order: the first
// OverlapsShown each in full (Error), then one for the rest, with how many
// runs and iterations, the worst of them and the runs' names (the first
// 8). 300 runs of a clock that drifted the same way gave 300 lines of 424
// characters on stderr, and as many warnings in model.json.
func GroupOverlaps(ws []*OverlapWarning) []string {
	var out []string
	for i, w := range ws {
		if i == OverlapsShown {
			break
		}
		out = append(out, w.Error())
	}
	rest := ws[min(len(ws), OverlapsShown):]
	if len(rest) == 0 {
		return out
	}
	worst := rest[0]
	var count int64
	names := make([]string, len(rest))
	for i, w := range rest {
		count += w.Count
		if w.By > worst.By {
			worst = w
		}
		names[i] = strconv.Quote(w.Run)
	}
	runs, have := "1 more run", "has"
	if len(rest) > 1 {
		runs, have = words.Thousands(len(rest))+" more runs", "have"
	}
	what := "1 iteration"
	if count != 1 {
		what = words.Thousands(int(count)) + " iterations"
	}
	return append(out, fmt.Sprintf("traces: %s %s iterations that start before the end of an earlier iteration of their worker (by more than 1 ms), as said above of run %q: %s in all; worst: run %q, worker %d step %d starts %.4g s before step %d ends%s; runs %s",
		runs, have, ws[0].Run, what, worst.Run, worst.Worker, worst.Step, worst.By, worst.PrevStep, worst.at(), words.FirstOf(names, 8)))
}

// overlapHit is an iteration that starts before the end of an earlier
// iteration of its worker: step starts by seconds before the end of prev,
// the earlier step that ends last; its row is at file:line ("" and 0 when
// unknown).
type overlapHit struct {
	step, prev int64
	by         float64
	file       string
	line       int
}

// overlapRow is a row kept for the sweep: its step, times and position
// (file indexes overlapRun.files; line 0: unknown).
type overlapRow struct {
	step       int64
	start, end float64
	file, line int32
}

// overlapWorker is the state of one worker of a run.
type overlapWorker struct {
	// While the worker's rows come in increasing step order (ordered),
	// each is compared as it comes with the latest end of the rows before
	// it (maxEnd, of step maxStep; last is the step of the last row), and
	// n and worst are its result.
	ordered bool
	last    int64
	maxEnd  float64
	maxStep int64
	n       int64
	worst   overlapHit
	// rows, when the worker's rows are not in step order: swept in step
	// order at the end in place of n and worst
	rows []overlapRow
	// first and lastEnd are the least start and the greatest end of the
	// worker's rows, in any order (disjointWorkers)
	first, lastEnd float64
}

// overlapRun checks the rows of one run.
//
// Any iteration of a worker must start after every iteration of the worker
// with a smaller step has ended: an iteration is compared with the latest
// end of the worker's iterations of smaller steps, whatever the order of
// the rows. Rows in step order (as every writer of the project writes them)
// are compared as they come, one record per worker. A worker with a row out
// of step order has its rows kept in a second pass over the rows (again):
// they are sorted by step and swept at the end.
type overlapRun struct {
	workers    map[int]*overlapWorker
	disordered bool     // a worker's rows are out of step order
	files      []string // the files of the kept rows
}

// disjoint returns two workers of the run between which its steps stop:
// every worker's rows end before b's first starts or start after a's last
// ends, a (the last to end before the gap) wholly before b (the first to
// start after it), and their spans; ok is false when the workers' spans,
// joined, leave no gap. One clock per run is trace-format.md's rule:
// workers on separate clocks, or two runs under one name, spread the run's
// steps over the two spans, and its rate, the steps in a window of its
// whole wall time, came out too low by up to the workers' factor without a
// word (two workers offset by 6 s: 8.22 updates/s for 16.55). A worker
// that replaced another while a third ran on is no gap (a review: it was
// called one). Workers without a finite span are left out.
func (o *overlapRun) disjoint() (a, b int, aSpan, bSpan [2]float64, ok bool) {
	type span struct {
		k           int
		first, last float64
	}
	var spans []span
	for k, w := range o.workers {
		if !math.IsInf(w.first, 0) && !math.IsNaN(w.first) && !math.IsInf(w.lastEnd, 0) && !math.IsNaN(w.lastEnd) {
			spans = append(spans, span{k, w.first, w.lastEnd})
		}
	}
	slices.SortFunc(spans, func(x, y span) int {
		if c := cmp.Compare(x.first, y.first); c != 0 {
			return c
		}
		return cmp.Compare(x.k, y.k)
	})
	if len(spans) < 2 {
		return 0, 0, aSpan, bSpan, false
	}
	end := spans[0] // of the spans so far, the one that ends last
	for _, sp := range spans[1:] {
		if sp.first > end.last {
			return end.k, sp.k, [2]float64{end.first, end.last}, [2]float64{sp.first, sp.last}, true
		}
		if sp.last > end.last {
			end = sp
		}
	}
	return 0, 0, aSpan, bSpan, false
}

// add is the first pass over the rows: s was read at file:line ("" and 0
// when unknown).
func (o *overlapRun) add(s *Step, file string, line int) {
	if o.workers == nil {
		o.workers = map[int]*overlapWorker{}
	}
	w := o.workers[s.Worker]
	if w == nil {
		end := s.End
		if math.IsNaN(end) { // a row built in memory without an end: no end to compare with
			end = math.Inf(-1)
		}
		o.workers[s.Worker] = &overlapWorker{ordered: true, last: s.Step, maxEnd: end, maxStep: s.Step, first: s.Start, lastEnd: end}
		return
	}
	w.first = math.Min(w.first, s.Start)
	w.lastEnd = math.Max(w.lastEnd, s.End)
	if !w.ordered {
		return
	}
	if s.Step <= w.last { // out of order: kept in the second pass
		w.ordered, o.disordered = false, true
		return
	}
	w.last = s.Step
	if by := w.maxEnd - s.Start; by > overlapTolerance(w.maxEnd, s.Start) {
		w.n++
		if w.n == 1 || by > w.worst.by {
			w.worst = overlapHit{step: s.Step, prev: w.maxStep, by: by, file: file, line: line}
		}
	}
	if s.End >= w.maxEnd { // ties: the later step, the nearer predecessor
		w.maxEnd, w.maxStep = s.End, s.Step
	}
}

// again is the second pass over the same rows: it keeps the rows of the
// workers whose rows are out of step order.
func (o *overlapRun) again(s *Step, file string, line int) {
	if !o.disordered {
		return
	}
	if w := o.workers[s.Worker]; w != nil && !w.ordered {
		o.keepRow(w, s, file, line)
	}
}

func (o *overlapRun) keepRow(w *overlapWorker, s *Step, file string, line int) {
	f := len(o.files) - 1
	if f < 0 || o.files[f] != file {
		f = slices.Index(o.files, file)
		if f < 0 {
			f = len(o.files)
			o.files = append(o.files, file)
		}
	}
	if line < 0 || line > math.MaxInt32 {
		line = 0 // not kept: the warning gives no position
	}
	w.rows = append(w.rows, overlapRow{step: s.Step, start: s.Start, end: s.End, file: int32(f), line: int32(line)})
}

// sweep is n and worst of kept rows: sorted by step, each compared with
// the latest end of the rows of smaller steps.
func (o *overlapRun) sweep(rows []overlapRow) (n int64, worst overlapHit) {
	slices.SortStableFunc(rows, func(a, b overlapRow) int { return cmp.Compare(a.step, b.step) })
	maxEnd, maxStep := math.Inf(-1), int64(0)
	for i := 0; i < len(rows); {
		j := i
		for j < len(rows) && rows[j].step == rows[i].step {
			j++
		}
		// rows of one step (in a trace built in memory) are not compared
		// with each other
		for _, r := range rows[i:j] {
			if by := maxEnd - r.start; by > overlapTolerance(maxEnd, r.start) {
				n++
				if n == 1 || by > worst.by {
					worst = overlapHit{step: r.step, prev: maxStep, by: by, file: o.files[r.file], line: int(r.line)}
				}
			}
		}
		for _, r := range rows[i:j] {
			if r.end >= maxEnd {
				maxEnd, maxStep = r.end, r.step
			}
		}
		i = j
	}
	return n, worst
}

// warning is the run's warning, nil when no iteration overlaps: the count
// over the workers and the worst (of equal ones, that of the smallest
// worker, then step).
func (o *overlapRun) warning(run string) *OverlapWarning {
	var w OverlapWarning
	for _, k := range slices.Sorted(maps.Keys(o.workers)) {
		wk := o.workers[k]
		n, worst := wk.n, wk.worst
		if !wk.ordered {
			n, worst = o.sweep(wk.rows)
		}
		if n == 0 {
			continue
		}
		if w.Count == 0 || worst.by > w.By {
			w.Worker, w.Step, w.PrevStep, w.By, w.File, w.Line = k, worst.step, worst.prev, worst.by, worst.file, worst.line
		}
		w.Count += n
	}
	if w.Count == 0 {
		return nil
	}
	w.Run = run
	return &w
}

// Overlaps finds, per run and worker, the iterations of steps that start
// before the end of an earlier iteration of the worker (see
// OverlapWarning), whatever the order of the rows: the warning of each run
// that has one, by run. Rows in step order are compared as they come (one
// record per worker); only a worker whose rows are out of step order has
// its rows kept (32 bytes a row), in a second pass over steps, and sorted by
// step.
func Overlaps(steps []Step) map[string]*OverlapWarning {
	runs := map[string]*overlapRun{}
	for i := range steps {
		s := &steps[i]
		o := runs[s.Run]
		if o == nil {
			o = &overlapRun{}
			runs[s.Run] = o
		}
		o.add(s, "", 0)
	}
	for i := range steps {
		s := &steps[i]
		runs[s.Run].again(s, "", 0)
	}
	out := map[string]*OverlapWarning{}
	for run, o := range runs {
		if w := o.warning(run); w != nil {
			out[run] = w
		}
	}
	return out
}
