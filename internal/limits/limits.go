// Package limits holds the bounds that several packages must agree on.
package limits

// MaxTime bounds a job's size and arrival, s: 1e12 s is some 30,000
// years, far beyond any job, and keeps the planner's clock (sums of
// sizes and arrivals over a million jobs) finite and exact enough. The
// planner's jobs.csv reader (planner.MaxTime) and the job-trace
// converters (traces) refuse what lies beyond it.
const MaxTime = 1e12
