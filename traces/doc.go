// Package traces reads every input format into the canonical trace of
// docs/trace-format.md, with errors that name file, line and column.
//
// # Overview of the central types
//
// The canonical trace is five CSV files, one row type each: steps.csv (Step,
// one worker iteration), updates.csv (Update, one update applied at a
// parameter-server shard), runs.csv (RunInfo, one run's metadata), evals.csv
// (Eval, one loss or accuracy measurement) and throughput.csv (Throughput, one
// run-level rate). Kind names the five files; Trace holds all their rows in
// memory.
//
// Reading, from the smallest memory footprint to the largest:
//
//   - ReadSteps, ReadUpdates, ReadRuns, ReadEvals and ReadThroughput stream
//     one file, calling a function per row; ForEach dispatches a File (found
//     by Files or FilesFS) to a Handlers of such functions.
//   - SummarizePaths and SummarizeFS stream the files into one RunSummary per
//     run (steady-state rate with an interval, phase Moments, Staleness, the
//     loss curve), without keeping the rows; Summarize does the same for a
//     Trace already in memory.
//   - Load and LoadFS read whole files into a Trace.
//
// Writing: WriteSteps and the other Write functions write one file in the
// canonical column order; WriteDir writes a Trace's non-empty parts to a
// folder. They refuse, before writing anything, a row the file's reader would
// refuse or that would not read back equal (a *RowError; Trace.Check says it
// without writing), with the readers' own bounds.
//
// Other formats: Convert turns a Chrome/PyTorch profiler trace
// (ReadChromeTrace), TensorBoard event files (ReadTFEvents, TFEventsTrace,
// over ReadTFRecords), a public measurement table (LoadDataset, one of
// Datasets) or a job trace (LoadJobTrace, one of JobFormats) into a
// canonical trace or a planner jobs.csv (Job, WriteJobsCSV, ReadJobsCSV).
// ConvertFormats lists every name Convert accepts.
//
// # Invariants
//
//   - Units: times and durations are seconds (Step.Start and Step.End on the
//     trace's own clock), rates are per second (StepsPerS, SamplesPerS),
//     model sizes are bytes, bandwidths bytes/s, batches samples.
//     A Job's Size is seconds of work on one worker and its Arrival seconds
//     after the trace's first arrival.
//   - Worker, shard and batch counts are integers; in the canonical rows a
//     worker index is 0..Workers-1.
//   - Absent optional values are NaN for floats, 0 for counts whose valid
//     range starts at 1, and -1 where 0 is valid (Step.Staleness,
//     Eval.Updates); types.go says which field is which.
//   - Row order is file order; readers never reorder, except LoadJobTrace,
//     which sorts jobs by arrival (stable).
//   - No function modifies its arguments: the Trace given to Summarize or
//     WriteDir is read only, and a RunSummary holds copies (Info is a copy of
//     the runs.csv row, not a pointer into the Trace).
//   - Memory of the streaming readers does not grow with the number of rows
//     (ReadSteps keeps a few intervals per run and worker for its duplicate
//     check); no line longer than MaxLineBytes and no TFRecord larger than
//     MaxTFRecordBytes is read into memory.
//   - Inputs may be gzip-compressed: the readers sniff the magic bytes.
//
// # Errors
//
// Bad content is a *ParseError with the file, the 1-based line and column
// (the byte column where the offending field starts, in every CSV reader,
// canonical or public, as encoding/csv counts it; 0 for the whole line or
// file; until 2026-12-05 the canonical readers gave the field number) and
// what was expected, and its text reads "traces:
// file:line:column: message". TFRecord files have no lines: Record is the
// record number, Offset the byte offset, and the text reads "traces: file:
// record N at byte B: message". A reader stops at
// the first error; an error returned by the caller's row function stops the
// read and comes back unchanged.
//
// Input that is usable but odd (an unknown column, a row skipped because a
// public table records 0 for "not measured", a run with no steady state) is
// not an error: it comes back in a warnings slice, as []error, positioned
// when it concerns a row. Nothing here panics on bad data.
package traces
