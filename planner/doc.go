// Package planner allocates workers among many training jobs (heSRPT and the
// policies it is compared with) and simulates a cluster with arrivals.
//
// # Model
//
// A job of size x (seconds of work on one worker) that holds k workers runs
// at rate s(k), its speedup curve (Speedup; PowerLaw is s(k) = k^p), so it
// ends when the integral of s(k(t)) dt reaches x. A Policy decides, at every
// arrival and departure, how many workers each job present holds; Simulate
// replays any policy event by event (Result), with fractional shares or with
// whole workers (RoundWorkers). HeSRPT is the closed form of the optimal
// schedule of jobs all present at time 0 sharing one power law; Optimize
// searches an allocation for jobs with different curves.
//
// # Invariants
//
//   - Times and sizes are seconds; sizes are seconds on one worker. Worker
//     counts are real numbers (fractional shares) unless Settings.Integer.
//   - Slowdown is response time / work (seconds on one worker), as in the
//     heSRPT papers: it is below 1 for a job that ran faster than on one
//     worker.
//   - No function modifies the jobs or slices it is given (Simulate copies).
//   - Policies see the requested size only (View.Remaining); under
//     Settings.EarlyStop jobs may end earlier.
//   - Bad data returns an error with the package prefix ("planner: "), and
//     for files a position (ParseError); a policy that breaks the
//     allocation rules is reported as an error, not a wrong answer.
package planner
