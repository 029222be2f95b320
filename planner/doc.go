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
// # Overview of the central types
//
//   - Job: one training job (ID, Arrival, Size, Curve, MaxWorkers, Weight,
//     RigidWorkers). ReadJobs reads a jobs.csv; ReadJobsWith adds
//     ReadOptions: a Resolver for the model column and a default exponent
//     DefaultP for rows with neither p nor model.
//   - Speedup: the one-method interface the planner needs of a curve,
//     Speedup(k float64) float64. PowerLaw implements it; so do
//     model.SpeedupCurve and fitted models.
//   - Policy: Name and Allocate(servers, []View, alloc). NewPolicy builds
//     one of PolicyNames (HeSRPTPolicy, Equi, SRPT, FIFO, SJF, Knee, Hell,
//     Greedy, FCFSRigid); Priority is the policy Optimize tunes.
//   - Simulate(jobs, policy, Settings) returns a Result: per-job JobResult
//     (start, completion, response, slowdown, work), the means and
//     percentiles, utilization, reallocations, energy, and with
//     Settings.Record the allocation Segments.
//   - HeSRPT(x, w, p, n, Objective) returns the Offline closed form (order,
//     phase lengths, completions, optimal objective), for FlowTime or
//     Slowdown.
//   - Workloads: Poisson arrivals with sizes from a SizeDist (Exponential,
//     LogNormal, Empirical); MeanCI gives the interval over seeds.
//
// # Invariants
//
//   - Times and sizes are seconds; sizes are seconds on one worker. Worker
//     counts are real numbers (fractional shares) unless Settings.Integer,
//     which rounds every allocation to whole workers (largest remainder,
//     never above a job's MaxWorkers, never above the servers); the servers
//     themselves are a real number in Settings and HeSRPT.
//   - A job's cap (View.Cap) is its MaxWorkers, the servers and, but under
//     rigid policies, FastestWorkers of its curve: no policy gives a job a
//     worker that would slow it down.
//   - Slowdown is response time / work (seconds on one worker), as in the
//     heSRPT papers: it is below 1 for a job that ran faster than on one
//     worker.
//   - No function modifies the jobs or slices it is given (Simulate copies;
//     RoundWorkers writes only out); a Policy must not keep the views or the
//     allocation it is given.
//   - Policies see the requested size only (View.Remaining); under
//     Settings.EarlyStop jobs may end earlier.
//   - Simulations are deterministic for a given Settings.Seed; the seed
//     drives only the random early stops (Poisson.Jobs takes its own seed).
//
// # Errors
//
// Bad data returns an error with the package prefix ("planner: "): for
// jobs files a *ParseError with file, line and column and what was
// expected; errors.Is(err, ErrNoCurve) tells a job without a speedup curve
// (the command suggests --p). ErrNotOrdered says the heSRPT closed form does
// not apply to the given weights, ErrStuck that a policy left every job
// without a worker with no arrival due, ErrNoProgress that the clock
// cannot advance (a subnormal size, whose last work takes no time at its
// rate, made Simulate loop forever), and ErrLateArrival that a Poisson
// workload's arrivals pass MaxTime; a policy that breaks the allocation
// rules is reported as an error, not a wrong answer. Violated preconditions
// of the caller (an alloc shorter than the jobs given to a Policy's
// Allocate; to RoundWorkers, an out shorter than alloc or caps of another
// length; a DefaultP outside (0, 1]) are programmer errors and panic, a
// length's panic naming the function and both lengths; HeSRPT, which
// returns an error, returns one for weights of another length than the
// sizes.
package planner
