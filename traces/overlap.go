package traces

import (
	"fmt"
	"math"
)

// A worker runs its iterations one after another: an iteration of one
// worker that starts before the end of the worker's previous iteration (by
// step number) contradicts it (a clock that jumped, times in other units
// than seconds, a row edited by hand). Clock skew between workers is normal
// and is not looked at: only the rows of one worker are compared.
//
// The check is a warning, not an error: the times are used as written (the
// run's wall time, its steady-state window and rates), and the warning says
// which row to look at.

// Overlap tolerance: an iteration may start up to overlapAbs +
// overlapRel x |time| before the previous one ends. 1 ms passes the jitter
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
// before the end of its worker's previous iteration.
func overlapTolerance(end, start float64) float64 {
	return overlapAbs + overlapRel*math.Max(math.Abs(end), math.Abs(start))
}

// OverlapWarning is the warning of a run in which iterations of one worker
// start before the worker's previous iteration ends (beyond a tolerance of
// 1 ms plus 1e-12 of the times): how many, and the worst.
type OverlapWarning struct {
	Run   string
	Count int64 // iterations that start before their worker's previous one ends
	// The worst: iteration Step of Worker starts By seconds before the end
	// of the worker's iteration PrevStep; its row is at File:Line ("" and
	// 0 when the rows were not read from a file).
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
	at := ""
	if w.File != "" && w.Line > 0 {
		at = fmt.Sprintf(" (%s:%d)", w.File, w.Line)
	}
	return fmt.Sprintf("%s before the end of the worker's previous iteration (by more than 1 ms); worst: worker %d step %d starts %.4g s before step %d ends%s. A worker runs its iterations one after another: a clock that jumped, times in other units than seconds, or a row edited by hand? The run's wall time, steady-state window and rates take the times as written",
		what, w.Worker, w.Step, w.By, w.PrevStep, at)
}

// overlapRow is the last row of one worker seen.
type overlapRow struct {
	step       int64
	start, end float64
	file       string
	line       int
	counted    bool // the row was counted as overlapping its predecessor
}

// overlapRun checks the rows of one run. It keeps the last row of each
// worker, so memory does not grow with the rows.
type overlapRun struct {
	workers map[int]*overlapRow
	w       OverlapWarning // Count 0: none found
}

// add compares s with the row of its worker seen before it. Any two
// iterations of a worker must follow one another in the order of their
// steps, so the comparison is sound whatever the order of the rows; for
// rows in step order (as every writer of the project writes them) it
// compares each iteration with its predecessor. Rows out of order are each
// compared with their neighbour in the file only: an overlap with an
// iteration further away goes unseen, but memory stays one row per worker.
func (o *overlapRun) add(s *Step, file string, line int) {
	if o.workers == nil {
		o.workers = map[int]*overlapRow{}
	}
	p := o.workers[s.Worker]
	if p == nil {
		o.workers[s.Worker] = &overlapRow{step: s.Step, start: s.Start, end: s.End, file: file, line: line}
		return
	}
	counted := false
	switch {
	case s.Step > p.step: // s follows p
		counted = o.check(s.Worker, p.step, p.end, s.Step, s.Start, file, line, true)
	case s.Step < p.step: // p follows s
		// p, already counted against its predecessor, is not counted
		// twice; its overlap with s may still be the worst (it was left
		// out, and the worst under-reported)
		o.check(s.Worker, s.Step, s.End, p.step, p.start, p.file, p.line, !p.counted)
	}
	*p = overlapRow{step: s.Step, start: s.Start, end: s.End, file: file, line: line, counted: counted}
}

// check counts iteration step (starting at start, its row at file:line)
// when it starts before the end of the worker's earlier iteration prev;
// with count false it only keeps it as the worst when it is.
func (o *overlapRun) check(worker int, prev int64, prevEnd float64, step int64, start float64, file string, line int, count bool) bool {
	by := prevEnd - start
	if !(by > overlapTolerance(prevEnd, start)) {
		return false
	}
	if count {
		o.w.Count++
	}
	if o.w.Count == 1 && count || by > o.w.By {
		o.w.Worker, o.w.Step, o.w.PrevStep, o.w.By, o.w.File, o.w.Line = worker, step, prev, by, file, line
	}
	return true
}

// warning is the run's warning, nil when no iteration overlaps.
func (o *overlapRun) warning(run string) *OverlapWarning {
	if o.w.Count == 0 {
		return nil
	}
	w := o.w
	w.Run = run
	return &w
}

// OverlapCheck finds, per run and worker, the iterations that start before
// the end of the worker's previous iteration (see OverlapWarning). Rows are
// given with Add in the order they were read; the zero value is ready. It
// keeps one row per run and worker.
type OverlapCheck struct {
	runs map[string]*overlapRun
}

// Add checks one row against the row of its run and worker given before.
func (c *OverlapCheck) Add(s *Step) {
	if c.runs == nil {
		c.runs = map[string]*overlapRun{}
	}
	o := c.runs[s.Run]
	if o == nil {
		o = &overlapRun{}
		c.runs[s.Run] = o
	}
	o.add(s, "", 0)
}

// Warning is the warning of run, nil when none of its iterations overlaps.
func (c *OverlapCheck) Warning(run string) *OverlapWarning {
	if o := c.runs[run]; o != nil {
		return o.warning(run)
	}
	return nil
}
