// Package model predicts the throughput, staleness and convergence of
// distributed SGD jobs: closed queueing networks solved by Mean Value Analysis
// for asynchronous parameter servers, the alternative families it is compared
// with, statistical-efficiency laws, and the speedup curves the planner uses.
// It is pure: value types and functions, no I/O.
//
// # Overview of the central types
//
// Config is one deployment of a job (workers, parameter-server shards,
// machines, batch, bandwidth). A throughput model is anything with
// StepsPerSecond(Config) (the Throughput interface); a model may also
// predict staleness (Stalenesser) and know the samples of one step
// (StepSizer).
//
//   - Queueing: Network (a think time Z and Stations) is solved by MVA
//     (ExactMVA, CorrectedMVA, Schweitzer) into a Result; NetworkBounds and
//     NetworkKnee give the asymptotic bounds and the knee N*. AsyncPS builds
//     the network of asynchronous SGD on parameter servers from a two-node
//     profile and predicts throughput, staleness and bounds (Prediction).
//   - Other families, compared with AsyncPS by the fitter: SyncPS,
//     RingAllReduce, OptimusAsync, OptimusSync, Ernest, Pollux, PowerLaw and
//     Amdahl. They share the Family convention (Family, ParamNames, Params,
//     WithParams, Validate) so that fit can treat them alike.
//   - Statistical efficiency: LossCurve (Optimus's l(k) = 1/(B0 k + B1) +
//     B2), StalenessLaw (how staleness slows B0) and GNS (the gradient noise
//     scale's steps-versus-batch law).
//   - Time to target: a Goal (target loss or epochs) turns throughput into
//     updates and seconds to target; Evaluate gives the Point at one Config,
//     Sweep the Points over worker counts with speedup s(N) = T(1)/T(N) and
//     efficiency s(N)/N. Knee, MaxEfficient, BestTime and BestCost read a
//     sweep. SpeedupCurveOf tabulates s(k) as a SpeedupCurve, which is what
//     the planner consumes.
//
// # Invariants
//
//   - Units: times are seconds, rates per second (StepsPerSecond is job-wide
//     updates/s for asynchronous SGD, synchronous steps/s otherwise), model
//     and gradient sizes bytes, bandwidths bytes/s per shard link and
//     direction, batches samples, staleness a number of updates. Loss is in
//     the loss unit of the curve it was fitted on.
//   - Worker, shard and machine counts are integers (Config.Workers >= 1;
//     Config.PS = 0 means no shards, read as one by the families that have
//     shards; Config.Nodes = 0 means one machine per worker), and MVA's
//     customers are an integer N. Only SpeedupCurve.Speedup takes a real k,
//     interpolating between the integers for the planner's fractional shares.
//   - Models are value types with exported parameters; no method or function
//     modifies its receiver or arguments: Solve does not modify the Network,
//     WithParams returns a copy, Params a new slice, and Sweep, Knee and the
//     other readers of []Point leave the slice as it is.
//   - Everything is deterministic: no randomness, and no mutable global
//     state (the one package-level table, for ExpectedMaxNormal, is built
//     once under sync.OnceValue), so every function is safe for concurrent
//     use.
//
// # Errors
//
// Parameters outside their domain (a negative time, an exponent out of
// range) are reported by each type's Validate, naming the parameter, with the
// prefix "model: "; check a model with Validate before predicting with it.
// Evaluate, Sweep and SpeedupCurveOf return errors for a predicted rate that
// is not finite and positive, worker counts out of order, or a target that
// cannot be computed (Goal.Updates and Goal.Time return ErrNoTarget for a
// Goal with neither a loss nor epochs). Calls that break a documented precondition are
// programmer errors and panic, with a message saying which: Config.Workers
// below 1, an invalid AsyncPS, a parameter vector of the wrong length for
// WithParams, an invalid Network or N < 0 for MVA, station indices out of
// range for WindowStaleness.
package model
