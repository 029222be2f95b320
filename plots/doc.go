// Package plots draws sgdplan's results as PNG figures with gonum.org/v1/plot
// and puts them together in a report folder.
//
// Each figure has its own plain input type, so that this package depends on
// no result type of the others; the command layer converts fit, model and
// planner results into them:
//
//	FitFigure(FitData)                 throughput vs workers, band, bounds, knee, residuals
//	PhasesFigure(PhasesData)           stacked pull/compute/push, measured beside predicted
//	StalenessFigure(StalenessData)     staleness distribution per worker count
//	ConvergenceFigure(ConvergenceData) loss vs updates per worker count; time to target
//	ScalingFigure(ScalingData)         speedup and efficiency of several jobs
//	PlanFigure(PlanData)               workers per job over time, completions marked
//	SimulationFigure(SimulationData)   response-time CDF; mean response vs load
//
// Each returns a *Figure (or an error naming the figure, the element at
// fault and what was expected, for empty, NaN or inconsistent input; never a
// panic), which Figure.Save writes atomically and Figure.WritePNG writes to
// any io.Writer. WriteReport writes the figures, a self-contained index.html
// and summary.md into a folder.
//
// The numbers behind each figure are exported for tests and callers:
// FitData.Bound, FitData.Knee, FitData.Residuals, PhasesData.Bars,
// StalenessData.Summaries, ConvergenceData.Best, ScalingCurve.Efficiency,
// PlanData.Areas, CDF.
//
// # Style
//
// 300 dpi PNGs; the Okabe–Ito colour-blind-safe palette; a Palette maps a
// name (job, policy, worker count) to the same colour, dashes and glyph in
// every figure it is passed to; policies have fixed styles. Titles, axis
// labels with units, Liberation Sans; legends placed where they cover no data
// (or outside the panels when long).
//
// # Invariants
//
//   - Times are seconds, throughput updates (or steps) per second, worker
//     counts real numbers (fractional shares are drawn as they are).
//   - Input slices and maps are never modified.
//   - Intervals are optional: NaN at both ends means unknown, and the figure
//     draws no bar or band for them.
//   - Files are written through a temporary file and a rename.
package plots
