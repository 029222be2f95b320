// Package limits holds the bounds that several packages must agree on.
package limits

// MaxTime bounds a job's size and arrival, s: 1e12 s is some 30,000
// years, far beyond any job, and keeps the planner's clock (sums of
// sizes and arrivals over a million jobs) finite and exact enough. The
// planner's jobs.csv reader (planner.MaxTime) and the job-trace
// converters (traces) refuse what lies beyond it.
const MaxTime = 1e12

// MinSize bounds a job's size below, s: a microsecond of work on one
// worker, far below any training job's. A size of 1e-300 made the job's
// slowdown (response / size) +Inf, which plan and simulate could not write
// as JSON. The planner's jobs.csv reader (planner.MinSize) and the
// job-trace converters refuse what lies below it.
const MinSize = 1e-6

// MaxCount bounds a worker or shard count in the trace files (steps.csv,
// throughput.csv) and on predict's command line: no job has a million
// workers, and a figure that draws a fitted curve past the data walks the
// counts (a table of 1e8 workers made fit --plot run for hours).
const MaxCount = 1_000_000

// MinWeight and MaxWeight bound a job's weight (jobs.csv's weight column,
// planner.Job.Weight when set): a millionth to a million, a range of 1e12
// that no priority scheme needs more of. heSRPT sums the weights (divided by
// the sizes for mean slowdown) and raises their ratios to a power: weights
// of 1e308 overflowed that sum to +Inf, and one of 5e-324 over a size of 10
// underflowed to 0, and both gave a job NaN workers (a panic when rounded
// to whole workers); a weight of 1e300 made the weighted flow time +Inf. In
// the range, weight / size lies within 1e-18 to 1e12 and the sums over a
// million jobs stay finite. The planner's jobs.csv reader, its job
// validation (Simulate, HeSRPT) and traces' jobs.csv reader refuse what
// lies outside it.
const (
	MinWeight = 1e-6
	MaxWeight = 1e6
)
