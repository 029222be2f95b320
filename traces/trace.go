package traces

// Trace is a whole canonical trace in memory: the rows of its five files, in
// file order. Readers that must not keep every row use ReadSteps and the other
// streaming readers, or SummarizePaths.
type Trace struct {
	Steps      []Step
	Updates    []Update
	Runs       []RunInfo
	Evals      []Eval
	Throughput []Throughput
}

// Kind names one of the five canonical files.
type Kind int

// The canonical files, in the order Load and WriteDir handle them.
const (
	KindSteps Kind = iota
	KindUpdates
	KindRuns
	KindEvals
	KindThroughput
)

var kindFiles = [...]string{"steps.csv", "updates.csv", "runs.csv", "evals.csv", "throughput.csv"}

// FileNames lists the base names of the five canonical files, in Kind
// order.
func FileNames() []string { return append([]string(nil), kindFiles[:]...) }

// FileName is the base name of the kind's file, e.g. "steps.csv".
func (k Kind) FileName() string { return kindFiles[k] }

// KindOfName is the kind of a file named base (a canonical name, in any
// case, optionally .gz), as the readers find it in a folder; false for
// another name.
func KindOfName(base string) (Kind, bool) { return kindOf(base) }

// String returns the kind's file name.
func (k Kind) String() string { return k.FileName() }
