package traces

// The row types of the canonical trace (docs/trace-format.md, shared
// ../shared/docs/trace-format.md). Optional values that are absent are NaN for
// floats, 0 for integers whose valid range starts at 1, and -1 for integers
// where 0 is a valid value (Staleness).

// Step is one worker iteration of steps.csv.
type Step struct {
	Run       string
	Workers   int // >= 1
	PS        int // >= 0
	Batch     int // >= 1
	Worker    int // 0 .. Workers-1
	Step      int64
	Start     float64 // s
	End       float64 // s, >= Start
	Pull      float64 // s, NaN when absent
	Compute   float64 // s, NaN when absent
	Push      float64 // s, NaN when absent
	Staleness int     // -1 when absent
	Loss      float64 // NaN when absent
}

// Update is one update applied at a parameter-server shard (updates.csv).
type Update struct {
	Run       string
	Shard     int
	Worker    int
	Time      float64 // s
	Version   int64
	Staleness int     // >= 0
	Apply     float64 // s, NaN when absent
}

// DefaultMode is the mode of a run whose runs.csv row names none (or that
// has no row): async when it has parameter servers, allreduce when ps is 0
// (a run without parameter servers; convert reads --ps 0 the same way).
func DefaultMode(ps int) string {
	if ps == 0 {
		return "allreduce"
	}
	return "async"
}

// RunInfo is one row of runs.csv.
type RunInfo struct {
	Run        string
	Model      string
	Mode       string  // async, sync or allreduce; "" when absent (see DefaultMode)
	ParamBytes int64   // bytes, 0 when absent
	Nodes      int     // 0 when absent
	Bandwidth  float64 // B/s per shard link and direction, NaN when absent
	Dataset    int64   // samples per epoch, 0 when absent
	Epochs     float64 // NaN when absent
	Framework  string
	Hardware   string
	Notes      string

	// at is where ReadRuns read the row's mode field; zero for a row made
	// otherwise (convert, tfevents, chrome). ModePos returns it.
	at throughputPos
}

// ModePos is where ReadRuns read r's mode: its file, its line and the byte
// column (from 1) where the mode field starts, as in a ParseError (0 when
// the file has no mode column: the mode is then the default of the run's
// ps). line is 0 for a row not read from a runs.csv.
func (r RunInfo) ModePos() (file string, line, modeColumn int) {
	return r.at.file, r.at.line, r.at.modeCol
}

// Eval is one convergence measurement (evals.csv).
type Eval struct {
	Run      string
	Time     float64 // s, NaN when absent
	Updates  int64   // global updates so far, -1 when absent
	Loss     float64 // NaN when absent
	Accuracy float64 // in [0, 1], NaN when absent
}

// Throughput is one run-level measurement (throughput.csv).
type Throughput struct {
	Workers     int     // >= 1
	PS          int     // >= 0
	Batch       int     // per-worker mini-batch, 0 when absent
	GlobalBatch int     // samples per synchronous step, 0 when absent
	StepsPerS   float64 // NaN when absent
	SamplesPerS float64 // NaN when absent
	Mode        string  // async (default), sync or allreduce
	Nodes       int     // 0 when absent
	Model       string
	Run         string
	Repeats     int     // 0 when absent
	Std         float64 // NaN when absent

	// at is where ReadThroughput read the row; zero for a row made
	// otherwise (a converted dataset, tfevents). Pos returns it.
	at throughputPos
}

type throughputPos struct {
	file    string
	line    int
	modeCol int // 1-based byte column; 0 when the file has no mode column
}

// Pos is where ReadThroughput read r: its file, its line and the byte
// column (from 1) where its mode field starts, as in a ParseError (0 when
// the file has no mode column, and the mode is the default; the line is
// the mode field's, which differs from the row's first line only in a row
// that a quoted field runs on across lines). line is 0 for a row not read
// from a throughput.csv.
func (r Throughput) Pos() (file string, line, modeColumn int) {
	return r.at.file, r.at.line, r.at.modeCol
}
