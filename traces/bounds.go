package traces

import (
	"fmt"
	"strings"

	"github.com/sgdplan/sgdplan/internal/limits"
)

// The bounds of the canonical columns, shared by the readers (reader.go)
// and the writers (writer.go): the reader refuses a value outside them, and
// the writer refuses to write it, with the same message. Each check returns
// the message without the column's name ("" when the value is within the
// bound); the reader prefixes the header's name and the position, the writer
// the file, row, line and run.

// intBound is the range of an integer column: values >= min. An empty field
// of an optional column reads as absent (0 for counts that start at 1, -1
// where 0 is a value; param_bytes reads an empty field as 0, a value).
type intBound struct {
	min, absent int64
	// max, when > 0, is the largest value, and why is why (a clause:
	// "no job has more workers...").
	max int64
	why string
}

// aboveMsg is the fault of v > b.max (b.max > 0).
func (b intBound) aboveMsg(v int64) string {
	return fmt.Sprintf("%d is above %d (expected an integer from %d to %d: %s)", v, b.max, b.min, b.max, b.why)
}

// maxCountWhy says why the worker and shard counts stop at limits.MaxCount.
const maxCountWhy = "predict stops there, and a figure's curve past it takes hours"

// belowMsg is the fault of v < b.min; orAbsent adds the absent value to what
// is expected (the writer's message, where a row holds the absent value
// rather than an empty field).
func (b intBound) belowMsg(v int64, orAbsent bool) string {
	if orAbsent {
		return fmt.Sprintf("%d is below %d (expected an integer >= %d, or %d when absent)", v, b.min, b.min, b.absent)
	}
	return fmt.Sprintf("%d is below %d (expected an integer >= %d)", v, b.min, b.min)
}

// workersBound and psBound are the worker and shard counts' bounds, alike
// in steps.csv and throughput.csv.
var (
	workersBound = intBound{min: 1, max: limits.MaxCount, why: maxCountWhy}
	psBound      = intBound{min: 0, max: limits.MaxCount, why: maxCountWhy}
)

// The integer columns of each file.
var (
	stepInts = struct{ workers, ps, batch, worker, step, staleness intBound }{
		workers: workersBound, ps: psBound, batch: intBound{min: 1},
		worker: intBound{min: 0}, step: intBound{min: 0}, staleness: intBound{min: 0, absent: -1},
	}
	updateInts = struct{ shard, worker, version, staleness intBound }{
		shard: intBound{min: 0, absent: 0}, worker: intBound{min: 0, absent: 0}, version: intBound{min: 0, absent: 0}, staleness: intBound{min: 0, absent: 0},
	}
	runInts = struct{ paramBytes, nodes, dataset intBound }{
		paramBytes: intBound{min: 0, absent: 0}, nodes: intBound{min: 1, absent: 0}, dataset: intBound{min: 1, absent: 0},
	}
	evalInts = struct{ updates intBound }{
		updates: intBound{min: 0, absent: -1},
	}
	throughputInts = struct{ workers, ps, batch, globalBatch, nodes, repeats intBound }{
		workers: workersBound, ps: psBound, batch: intBound{min: 1},
		globalBatch: intBound{min: 1}, nodes: intBound{min: 1}, repeats: intBound{min: 1},
	}
)

// What the float columns hold, as their messages say it.
const (
	secondsWhat   = "seconds"
	durationWhat  = "a duration in seconds >= 0"
	lossWhat      = "a loss"
	accuracyWhat  = "an accuracy in [0, 1]"
	bandwidthWhat = "bytes per second"
	epochsWhat    = "epochs"
	stepsWhat     = "steps per second"
	samplesWhat   = "samples per second"
	stdWhat       = "the standard deviation of the rate (steps_per_s, else samples_per_s), in its units, >= 0"
)

// notFiniteMsg is the fault of NaN or an infinity, text as written.
func notFiniteMsg(text, what string) string {
	return fmt.Sprintf("%s is not allowed (expected a finite number: %s; leave the field empty when unknown)", text, what)
}

// clockFault is the fault of a time beyond ±limits.MaxTime: a time past it is
// no trace's (1e12 s is some 30,000 years), and end - start of two such
// times overflowed (inspect panicked on -1.7e308 to 1.7e308).
// (Small enough to inline in the reader's loop; the message is clockMsg.)
func clockFault(v float64) string {
	if v > limits.MaxTime || v < -limits.MaxTime { // |v| > MaxTime; NaN is not
		return clockMsg(v)
	}
	return ""
}

func clockMsg(v float64) string {
	return fmt.Sprintf("%s s is beyond ±%g s (expected seconds; are the times in seconds?)", fmtFloat(v), limits.MaxTime)
}

// durationFault is the fault of a time span below 0 or above limits.MaxTime.
// (Small enough to inline in the reader's loop; the message is durationMsg.)
func durationFault(v float64) string {
	if v < 0 || v > limits.MaxTime {
		return durationMsg(v)
	}
	return ""
}

func durationMsg(v float64) string {
	switch {
	case v < 0:
		return fmt.Sprintf("%s is negative (expected %s)", fmtFloat(v), durationWhat)
	case v > limits.MaxTime:
		return fmt.Sprintf("%s s is beyond %g s (expected a duration in seconds; are the times in seconds?)", fmtFloat(v), limits.MaxTime)
	}
	return ""
}

// stdFault is the fault of throughput.csv's std, the standard deviation of
// the row's rate (steps_per_s, or samples_per_s without it), in its units:
// below 0, or above limits.MaxTime, the rates' bound. (It was read as a
// duration, and its errors asked for seconds.)
func stdFault(v float64) string {
	switch {
	case v < 0:
		return fmt.Sprintf("%s is negative (expected %s)", fmtFloat(v), stdWhat)
	case v > limits.MaxTime:
		return fmt.Sprintf("%s is beyond %g, the bound of the rates (expected %s)", fmtFloat(v), limits.MaxTime, stdWhat)
	}
	return ""
}

// positiveWhat is what a positive column expects.
func positiveWhat(what string) string { return what + " > 0" }

// positiveFault is the fault of a value that is not > 0.
func positiveFault(v float64, what string) string {
	if v <= 0 {
		return fmt.Sprintf("%s is not positive (expected %s > 0)", fmtFloat(v), what)
	}
	return ""
}

// rateFault is the fault of a positive rate below one per limits.MaxTime
// seconds or above limits.MaxTime per second (1e-12 to 1e12), the range of
// the times: 1e-300 steps/s was read, and the fit's logs and products
// underflowed to a power law "not identified" with intervals of no width.
func rateFault(v float64, what string) string {
	if v > 0 && (v < 1/limits.MaxTime || v > limits.MaxTime) {
		return fmt.Sprintf("%s is outside %g to %g (expected %s within the range of the times, one per %g s at least)", fmtFloat(v), 1/limits.MaxTime, limits.MaxTime, what, limits.MaxTime)
	}
	return ""
}

// MinBandwidth and MaxBandwidth bound runs.csv's bandwidth (and convert's
// --bandwidth), B/s per shard link and direction: a byte per second to a
// petabyte per second, far beyond any link at both ends. 5e-324 B/s was
// read, and fit's link demand S/B (then +Inf, or 0 from 1e308) dropped out
// of the fitted model without a word.
const (
	MinBandwidth = 1
	MaxBandwidth = 1e15
)

// bandwidthFault is the fault of a positive bandwidth outside MinBandwidth
// to MaxBandwidth.
func bandwidthFault(v float64) string {
	if v > 0 && (v < MinBandwidth || v > MaxBandwidth) {
		return fmt.Sprintf("%s is outside %g to %g (expected %s: a link's rate, 1 B/s to 1 PB/s)", fmtFloat(v), float64(MinBandwidth), float64(MaxBandwidth), bandwidthWhat)
	}
	return ""
}

// accuracyFault is the fault of an accuracy outside [0, 1].
func accuracyFault(v float64) string {
	if v < 0 || v > 1 {
		return fmt.Sprintf("%s is outside [0, 1]", fmtFloat(v))
	}
	return ""
}

// modeOf returns the mode a lower-case field names ("" is async), and false
// when it names none.
func modeOf(s string) (string, bool) {
	switch s { // constants: s may alias the read buffer
	case "", "async":
		return "async", true
	case "sync":
		return "sync", true
	case "allreduce":
		return "allreduce", true
	}
	return "", false
}

// notModeMsg is the fault of a field that names no mode, text as written.
func notModeMsg(text string) string {
	return fmt.Sprintf("%q is not a mode (expected async, sync or allreduce)", text)
}

// missingMsg is the fault of an empty required field.
const missingMsg = "missing value"

// trimField is a field as the readers see it: leading and trailing spaces
// and tabs trimmed, no other white space (until 2026-12-05 a field that
// began or ended with one lost every white space at its ends, so " 5\n"
// read as 5 while "5\n" was not a number).
func trimField(s string) string {
	if len(s) > 0 && (s[0] == ' ' || s[len(s)-1] == ' ' || s[0] == '\t' || s[len(s)-1] == '\t') {
		s = strings.Trim(s, " \t")
	}
	return s
}
