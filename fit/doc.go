// Package fit regresses traces onto the models of package model: estimators,
// bounded nonlinear least squares, bootstrap uncertainty and model choice.
//
// # Estimators
//
// FitStepsPaths (and FitSteps on a trace in memory) fits a step trace: each
// run's steady-state rate, the two-node profile of the closed queueing
// network (TwoNodeProfile), the loss curves with the staleness law fitted
// jointly over runs (FitStalenessLaw) or, for synchronous runs at 3 or more
// global batches, the batch law of the gradient noise scale (FitGNS). The profile's
// network is model.AsyncPS (the "mva" family, Queueing: exact MVA or the
// residual-service or flow correction with the measured SCVs, the link
// rate it was measured at, shared compute cores); a run's link rate
// (runs.csv bandwidth, model.Config.Bandwidth) is part of its
// configuration and scales the link demand as S/B. ProfileComparison
// predicts every run from a profile with each MVA variant.
// FitThroughput fits a throughput family (FamilyNames) to configurations, by
// LevenbergMarquardt in log space, with --family auto choosing by
// leave-one-configuration-out error (a family whose folds leave the
// prediction free is not scored) and the one-standard-error rule, and
// Bootstrap intervals, widened by the Rivals (fits the data cannot tell
// apart) and, beyond the data, the Extrapolation error. NewModel, WriteModel and LoadModel store and read
// model.json (Schema); a *Model predicts any configuration (Predict,
// StepsPerSecond) and gives the speedup curve (Speedup).
//
// # Validation
//
// ProtocolSeries, AsyncSeries, ScoreSeries, ScoreLossCurve and
// ScoreBatchSize implement the shared validation protocol; sgdplan validate
// runs them.
//
// # Invariants
//
//   - Times are seconds, sizes bytes, rates per second; a Point's StepsPerS
//     is job-wide (updates/s for asynchronous SGD, synchronous steps/s
//     otherwise) and its Config.Batch the per-worker batch in samples.
//   - Points at different link rates are different configurations; no
//     table family pools them (FitThroughput refuses mixed rates).
//   - Worker and shard counts are integers; Speedup takes a real k and
//     interpolates between whole counts.
//   - No function mutates its arguments: points, parameter vectors,
//     starting points and settings are copied where they are changed. A nil
//     *Settings or *LMSettings means the defaults.
//   - Bad data return an error prefixed "fit: " (with the file and position
//     where there is one); what the data cannot identify comes back as
//     warnings beside a usable result, never as a silent guess.
//   - Fits are deterministic: the bootstrap has a fixed default seed.
package fit
