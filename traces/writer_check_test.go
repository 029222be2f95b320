package traces

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/sgdplan/sgdplan/internal/limits"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkTrace is a valid trace with two rows in each file, every optional
// value given.
func checkTrace() *Trace {
	return &Trace{
		Steps: []Step{
			{Run: "a", Workers: 2, PS: 1, Batch: 8, Worker: 0, Step: 0, Start: 0, End: 1, Pull: 0.1, Compute: 0.5, Push: 0.2, Staleness: 0, Loss: 2},
			{Run: "a", Workers: 2, PS: 1, Batch: 8, Worker: 1, Step: 0, Start: 0.5, End: 1.5, Pull: 0.1, Compute: 0.5, Push: 0.2, Staleness: 1, Loss: 1.5},
		},
		Updates: []Update{
			{Run: "a", Shard: 0, Worker: 0, Time: 1, Version: 1, Staleness: 0, Apply: 0.01},
			{Run: "a", Shard: 0, Worker: 1, Time: 1.5, Version: 2, Staleness: 1, Apply: 0.01},
		},
		Runs: []RunInfo{
			{Run: "a", Model: "m", Mode: "async", ParamBytes: 1000, Nodes: 2, Bandwidth: 1e9, Dataset: 100, Epochs: 1, Framework: "f", Hardware: "h", Notes: "n"},
			{Run: "b", Model: "m", Mode: "sync", ParamBytes: 1000, Nodes: 2, Bandwidth: 1e9, Dataset: 100, Epochs: 1, Framework: "f", Hardware: "h", Notes: "n"},
		},
		Evals: []Eval{
			{Run: "a", Time: 1, Updates: 1, Loss: 2, Accuracy: 0.5},
			{Run: "b", Time: 2, Updates: 2, Loss: 1.5, Accuracy: 0.6},
		},
		Throughput: []Throughput{
			{Workers: 2, PS: 1, Batch: 8, GlobalBatch: 16, StepsPerS: 10, SamplesPerS: 80, Mode: "async", Nodes: 2, Model: "m", Run: "t", Repeats: 3, Std: 0.1},
			{Workers: 2, PS: 1, Batch: 8, GlobalBatch: 16, StepsPerS: 20, SamplesPerS: 160, Mode: "async", Nodes: 2, Model: "m", Run: "u", Repeats: 3, Std: 0.1},
		},
	}
}

var (
	above1e12 = math.Nextafter(1e12, math.Inf(1)) // just past limits.MaxTime
	below0    = -math.SmallestNonzeroFloat64      // just below 0
	above1    = math.Nextafter(1, 2)              // just past an accuracy of 1
	below1e12 = math.Nextafter(1e-12, 0)          // just below the lowest rate
	aboveRate = math.Nextafter(1e12, math.Inf(1)) // just past the highest rate
)

// TestWritersRefuseOutsideBounds: for each bound of each file, a row just
// outside it is refused by the writer, naming the file, the row, its line,
// the run, the field and the value; WriteDir then makes no folder and no
// file. A row at the bound is written and reads back equal.
func TestWritersRefuseOutsideBounds(t *testing.T) {
	type tc struct {
		name  string
		file  Kind
		bad   func(*Trace) // makes row 2 of file fall outside the bound
		field string
		value string       // in the message
		at    func(*Trace) // row 2 at the bound; nil: none to check
	}
	s := func(f func(*Step)) func(*Trace) { return func(t *Trace) { f(&t.Steps[1]) } }
	u := func(f func(*Update)) func(*Trace) { return func(t *Trace) { f(&t.Updates[1]) } }
	r := func(f func(*RunInfo)) func(*Trace) { return func(t *Trace) { f(&t.Runs[1]) } }
	e := func(f func(*Eval)) func(*Trace) { return func(t *Trace) { f(&t.Evals[1]) } }
	p := func(f func(*Throughput)) func(*Trace) { return func(t *Trace) { f(&t.Throughput[1]) } }
	long := strings.Repeat("x", MaxLineBytes)
	cases := []tc{
		// steps.csv
		{"steps run empty", KindSteps, s(func(x *Step) { x.Run = "" }), "run", "missing value", nil},
		{"steps run spaces", KindSteps, s(func(x *Step) { x.Run = "a " }), "run", `"a "`, nil},
		{"steps run CRLF", KindSteps, s(func(x *Step) { x.Run = "a\r\nb" }), "run", `"a\r\nb"`, s(func(x *Step) { x.Run = "a\rb\nc" })},
		{"steps workers", KindSteps, s(func(x *Step) { x.Workers, x.Worker = 0, 0 }), "workers", "0 is below 1", func(t *Trace) {
			for i := range t.Steps {
				t.Steps[i].Workers, t.Steps[i].Worker, t.Steps[i].Step = 1, 0, int64(i)
			}
			t.Updates[1].Worker = 0
		}},
		{"steps ps", KindSteps, s(func(x *Step) { x.PS = -1 }), "ps", "-1 is below 0", func(t *Trace) {
			t.Steps[0].PS, t.Steps[1].PS, t.Updates, t.Runs[0].Mode = 0, 0, nil, "allreduce"
		}},
		{"steps batch", KindSteps, s(func(x *Step) { x.Batch = 0 }), "batch", "0 is below 1", func(t *Trace) { t.Steps[0].Batch, t.Steps[1].Batch = 1, 1 }},
		{"steps worker", KindSteps, s(func(x *Step) { x.Worker = -1 }), "worker", "-1 is below 0", s(func(x *Step) { x.Worker, x.Step = 0, 1 })},
		{"steps worker past workers", KindSteps, s(func(x *Step) { x.Worker = 2 }), "worker", "2 is out of range", nil},
		{"steps step", KindSteps, s(func(x *Step) { x.Step = -1 }), "step", "-1 is below 0", s(func(x *Step) { x.Step = 0 })},
		{"steps start", KindSteps, s(func(x *Step) { x.Start = -above1e12 }), "start", "-1.0000000000000001e+12 s is beyond", s(func(x *Step) { x.Start = -1e12 })},
		{"steps start NaN", KindSteps, s(func(x *Step) { x.Start = math.NaN() }), "start", "NaN is not allowed", nil},
		{"steps end", KindSteps, s(func(x *Step) { x.End = above1e12 }), "end", "1.0000000000000001e+12 s is beyond", s(func(x *Step) { x.End = 1e12 })},
		{"steps end before start", KindSteps, s(func(x *Step) { x.End = math.Nextafter(x.Start, -1) }), "end", "is before start 0.5", s(func(x *Step) { x.End = x.Start })},
		{"steps pull", KindSteps, s(func(x *Step) { x.Pull = below0 }), "pull", "-5e-324 is negative", s(func(x *Step) { x.Pull = 0 })},
		{"steps compute", KindSteps, s(func(x *Step) { x.Compute = above1e12 }), "compute", "1.0000000000000001e+12 s is beyond 1e+12 s", s(func(x *Step) { x.Compute = 1e12 })},
		{"steps push", KindSteps, s(func(x *Step) { x.Push = math.Inf(1) }), "push", "+Inf is not allowed", s(func(x *Step) { x.Push = math.NaN() })},
		{"steps workers above", KindSteps, s(func(x *Step) { x.Workers = limits.MaxCount + 1 }), "workers", "1000001 is above 1000000 (expected an integer from 1 to 1000000", nil},
		{"steps staleness", KindSteps, s(func(x *Step) { x.Staleness = -2 }), "staleness", "-2 is below 0 (expected an integer >= 0, or -1 when absent)", s(func(x *Step) { x.Staleness = -1 })},
		{"steps loss", KindSteps, s(func(x *Step) { x.Loss = math.Inf(-1) }), "loss", "-Inf is not allowed", s(func(x *Step) { x.Loss = -math.MaxFloat64 })},
		{"steps config", KindSteps, s(func(x *Step) { x.Batch = 9 }), "batch", "9 differs from 8 on line 2", nil},
		{"steps duplicate", KindSteps, s(func(x *Step) { x.Worker = 0 }), "step", "step: duplicate (run \"a\", worker 0, step 0), first on line 2", nil},
		{"steps line", KindSteps, s(func(x *Step) { x.Run = long }), "run", "longer than the readers' limit", s(func(x *Step) { x.Run = long[:MaxLineBytes-len(",2,1,8,1,0,0.5,1.5,0.1,0.5,0.2,1,1.5")] })},
		// updates.csv
		{"updates shard", KindUpdates, u(func(x *Update) { x.Shard = -1 }), "shard", "-1 is below 0", nil},
		{"updates worker", KindUpdates, u(func(x *Update) { x.Worker = -1 }), "worker", "-1 is below 0", u(func(x *Update) { x.Worker = 0 })},
		{"updates time", KindUpdates, u(func(x *Update) { x.Time = above1e12 }), "time", "s is beyond ±1e+12 s", u(func(x *Update) { x.Time = 1e12 })},
		{"updates version", KindUpdates, u(func(x *Update) { x.Version = -1 }), "version", "-1 is below 0", u(func(x *Update) { x.Version, x.Staleness = 0, 0 })},
		{"updates staleness", KindUpdates, u(func(x *Update) { x.Staleness = -1 }), "staleness", "-1 is below 0 (expected an integer >= 0)", u(func(x *Update) { x.Staleness = 0 })},
		{"updates staleness above version", KindUpdates, u(func(x *Update) { x.Staleness = 3 }), "staleness", "3 is above version 2 (expected at most 2", u(func(x *Update) { x.Staleness = 2 })},
		{"updates apply", KindUpdates, u(func(x *Update) { x.Apply = below0 }), "apply", "is negative", u(func(x *Update) { x.Apply = 0 })},
		{"updates duplicate", KindUpdates, u(func(x *Update) { x.Version = 1 }), "version", "duplicate (run \"a\", shard 0, version 1), first on line 2", nil},
		// runs.csv
		{"runs mode", KindRuns, r(func(x *RunInfo) { x.Mode = "asynch" }), "mode", `"asynch" is not a mode`, r(func(x *RunInfo) { x.Mode = "" })},
		{"runs mode case", KindRuns, r(func(x *RunInfo) { x.Mode = "Sync" }), "mode", `"Sync" reads back as sync`, r(func(x *RunInfo) { x.Mode = "allreduce" })},
		{"runs param_bytes", KindRuns, r(func(x *RunInfo) { x.ParamBytes = -1 }), "param_bytes", "-1 is below 0", r(func(x *RunInfo) { x.ParamBytes = 0 })},
		{"runs nodes", KindRuns, r(func(x *RunInfo) { x.Nodes = -1 }), "nodes", "-1 is below 1 (expected an integer >= 1, or 0 when absent)", r(func(x *RunInfo) { x.Nodes = 1 })},
		{"runs dataset", KindRuns, r(func(x *RunInfo) { x.Dataset = -1 }), "dataset", "-1 is below 1", r(func(x *RunInfo) { x.Dataset = 0 })},
		{"runs bandwidth", KindRuns, r(func(x *RunInfo) { x.Bandwidth = 0 }), "bandwidth", "0 is not positive", r(func(x *RunInfo) { x.Bandwidth = MinBandwidth })},
		// 5e-324 B/s was written, and fit dropped the link demand S/B
		{"runs bandwidth below", KindRuns, r(func(x *RunInfo) { x.Bandwidth = math.SmallestNonzeroFloat64 }), "bandwidth", "5e-324 is outside 1 to 1e+15 (expected bytes per second", r(func(x *RunInfo) { x.Bandwidth = MinBandwidth })},
		{"runs bandwidth above", KindRuns, r(func(x *RunInfo) { x.Bandwidth = math.Nextafter(MaxBandwidth, math.Inf(1)) }), "bandwidth", "1.0000000000000001e+15 is outside 1 to 1e+15", r(func(x *RunInfo) { x.Bandwidth = MaxBandwidth })},
		{"runs epochs", KindRuns, r(func(x *RunInfo) { x.Epochs = math.Inf(1) }), "epochs", "+Inf is not allowed (expected a finite number: epochs > 0", r(func(x *RunInfo) { x.Epochs = math.MaxFloat64 })},
		{"runs notes", KindRuns, r(func(x *RunInfo) { x.Notes = "\tn" }), "notes", `"\tn" has a space or tab`, r(func(x *RunInfo) { x.Notes = "n\n" })},
		{"runs duplicate", KindRuns, r(func(x *RunInfo) { x.Run = "a" }), "run", `"a" is described twice (first on line 2)`, nil},
		// evals.csv
		{"evals updates", KindEvals, e(func(x *Eval) { x.Updates = -2 }), "updates", "-2 is below 0 (expected an integer >= 0, or -1 when absent)", e(func(x *Eval) { x.Updates = -1 })},
		{"evals time", KindEvals, e(func(x *Eval) { x.Time = -above1e12 }), "time", "s is beyond", e(func(x *Eval) { x.Time = -1e12 })},
		{"evals accuracy", KindEvals, e(func(x *Eval) { x.Accuracy = above1 }), "accuracy", "1.0000000000000002 is outside [0, 1]", e(func(x *Eval) { x.Accuracy = 1 })},
		{"evals accuracy below", KindEvals, e(func(x *Eval) { x.Accuracy = below0 }), "accuracy", "-5e-324 is outside [0, 1]", e(func(x *Eval) { x.Accuracy = 0 })},
		{"evals no time", KindEvals, e(func(x *Eval) { x.Time, x.Updates = math.NaN(), -1 }), "time", "time, updates: both empty", e(func(x *Eval) { x.Time = math.NaN() })},
		{"evals no loss", KindEvals, e(func(x *Eval) { x.Loss, x.Accuracy = math.NaN(), math.NaN() }), "loss", "loss, accuracy: both empty", e(func(x *Eval) { x.Loss = math.NaN() })},
		{"evals duplicate", KindEvals, e(func(x *Eval) { x.Run, x.Time, x.Updates = "a", 1, 1 }), "updates", "given again, differently, after line 2", nil},
		// throughput.csv
		{"throughput workers", KindThroughput, p(func(x *Throughput) { x.Workers, x.GlobalBatch, x.SamplesPerS = 0, 0, math.NaN() }), "workers", "0 is below 1", p(func(x *Throughput) { x.Workers, x.GlobalBatch, x.SamplesPerS, x.Nodes = 1, 0, math.NaN(), 1 })},
		{"throughput ps", KindThroughput, p(func(x *Throughput) { x.PS = -1 }), "ps", "-1 is below 0", p(func(x *Throughput) { x.PS, x.Mode, x.SamplesPerS = 0, "allreduce", math.NaN() })},
		{"throughput batch", KindThroughput, p(func(x *Throughput) { x.Batch = -1 }), "batch", "-1 is below 1 (expected an integer >= 1, or 0 when absent)", p(func(x *Throughput) { x.Batch = 0 })},
		{"throughput global_batch", KindThroughput, p(func(x *Throughput) { x.GlobalBatch = -1 }), "global_batch", "-1 is below 1", p(func(x *Throughput) { x.GlobalBatch = 0 })},
		{"throughput nodes", KindThroughput, p(func(x *Throughput) { x.Nodes = -1 }), "nodes", "-1 is below 1", p(func(x *Throughput) { x.Nodes = 1 })},
		{"throughput repeats", KindThroughput, p(func(x *Throughput) { x.Repeats = -1 }), "repeats", "-1 is below 1", p(func(x *Throughput) { x.Repeats = 1 })},
		{"throughput std", KindThroughput, p(func(x *Throughput) { x.Std = below0 }), "std", "is negative (expected the standard deviation of the rate", p(func(x *Throughput) { x.Std = 0 })},
		{"throughput std above", KindThroughput, p(func(x *Throughput) { x.Std = aboveRate }), "std", "is beyond 1e+12, the bound of the rates (expected the standard deviation of the rate", p(func(x *Throughput) { x.Std = 1e12 })},
		{"throughput steps_per_s", KindThroughput, p(func(x *Throughput) { x.StepsPerS, x.SamplesPerS = below1e12, math.NaN() }), "steps_per_s", "is outside 1e-12 to 1e+12", p(func(x *Throughput) { x.StepsPerS, x.SamplesPerS = 1e-12, math.NaN() })},
		{"throughput samples_per_s", KindThroughput, p(func(x *Throughput) { x.StepsPerS, x.SamplesPerS = math.NaN(), aboveRate }), "samples_per_s", "is outside 1e-12 to 1e+12", p(func(x *Throughput) { x.StepsPerS, x.SamplesPerS = math.NaN(), 1e12 })},
		{"throughput rate 0", KindThroughput, p(func(x *Throughput) { x.StepsPerS = 0 }), "steps_per_s", "0 is not positive", nil},
		{"throughput mode", KindThroughput, p(func(x *Throughput) { x.Mode = "ASYNC" }), "mode", `"ASYNC" reads back as async`, p(func(x *Throughput) { x.Mode = "" })},
		{"throughput ps 0 by default", KindThroughput, p(func(x *Throughput) { x.PS, x.Mode = 0, "" }), "ps", "ps: 0 with mode async, the default when mode is empty", nil},
		{"throughput global_batch contradicts", KindThroughput, p(func(x *Throughput) { x.GlobalBatch = 17 }), "global_batch", "17 contradicts batch 8 x workers 2", nil},
		{"throughput global_batch below workers", KindThroughput, p(func(x *Throughput) { x.Batch, x.GlobalBatch, x.SamplesPerS = 0, 1, math.NaN() }), "global_batch", "1 is below workers 2", p(func(x *Throughput) { x.Batch, x.GlobalBatch, x.SamplesPerS = 0, 2, math.NaN() })},
		{"throughput nodes above workers", KindThroughput, p(func(x *Throughput) { x.Nodes = 3 }), "nodes", "3 is above workers 2", p(func(x *Throughput) { x.Nodes = 2 })},
		{"throughput rates contradict", KindThroughput, p(func(x *Throughput) { x.SamplesPerS = 161 }), "samples_per_s", "161 contradicts steps_per_s 20", p(func(x *Throughput) { x.SamplesPerS = 160 * (1 + 1e-7) })},
		{"throughput workers above", KindThroughput, p(func(x *Throughput) { x.Workers, x.GlobalBatch = limits.MaxCount+1, 0 }), "workers", "1000001 is above 1000000 (expected an integer from 1 to 1000000", p(func(x *Throughput) { x.Workers, x.GlobalBatch = limits.MaxCount, 0 })},
		{"throughput ps above", KindThroughput, p(func(x *Throughput) { x.PS = limits.MaxCount + 1 }), "ps", "1000001 is above 1000000 (expected an integer from 0 to 1000000", p(func(x *Throughput) { x.PS = limits.MaxCount })},
		{"throughput no batch", KindThroughput, p(func(x *Throughput) { x.Batch, x.GlobalBatch = 0, 0 }), "batch", "batch, global_batch: both empty", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := checkTrace()
			c.bad(tr)
			run := map[Kind]string{KindSteps: tr.Steps[1].Run, KindUpdates: tr.Updates[1].Run, KindRuns: tr.Runs[1].Run,
				KindEvals: tr.Evals[1].Run, KindThroughput: tr.Throughput[1].Run}[c.file]
			want := fmt.Sprintf("traces: %s row 2 (line 3, run %q): %s", c.file.FileName(), run, c.field)
			check := func(how string, err error) {
				t.Helper()
				var re *RowError
				if !errors.As(err, &re) || re.File != c.file.FileName() || re.Row != 2 || re.Field != c.field || re.Run != run ||
					!strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.value) {
					t.Fatalf("%s: error %v, want %q... with %q", how, err, want, c.value)
				}
			}
			// the file's own writer: an error, nothing written
			var buf bytes.Buffer
			check("writer", writeKind(&buf, tr, c.file))
			if buf.Len() != 0 {
				t.Errorf("the writer wrote %d bytes before the error", buf.Len())
			}
			check("Check", tr.Check())
			dir := filepath.Join(t.TempDir(), "out")
			check("WriteDir", WriteDir(dir, tr))
			if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("WriteDir made the folder: %v", err)
			}
			// into a folder that exists: no file
			dir = t.TempDir()
			check("WriteDir", WriteDir(dir, tr))
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("WriteDir left %d entries", len(ents))
			}
			if c.at == nil {
				return
			}
			tr = checkTrace()
			c.at(tr)
			dir = t.TempDir()
			if err := WriteDir(dir, tr); err != nil {
				t.Fatalf("at the bound: %v", err)
			}
			got, _, err := Load(dir)
			if err != nil {
				t.Fatalf("at the bound, read back: %v", err)
			}
			normalizeThroughput(got.Throughput)
			normalizeThroughput(tr.Throughput)
			diffRows(t, "steps", got.Steps, tr.Steps)
			diffRows(t, "updates", got.Updates, tr.Updates)
			diffRows(t, "runs", got.Runs, tr.Runs)
			diffRows(t, "evals", got.Evals, tr.Evals)
			diffRows(t, "throughput", got.Throughput, tr.Throughput)
		})
	}
}

// writeKind writes t's rows of kind k with that file's writer.
func writeKind(w io.Writer, t *Trace, k Kind) error {
	switch k {
	case KindSteps:
		return WriteSteps(w, t.Steps)
	case KindUpdates:
		return WriteUpdates(w, t.Updates)
	case KindRuns:
		return WriteRuns(w, t.Runs)
	case KindEvals:
		return WriteEvals(w, t.Evals)
	}
	return WriteThroughput(w, t.Throughput)
}

// normalizeThroughput drops where a row was read and gives an empty mode
// its value as read, async (the format's default).
func normalizeThroughput(rows []Throughput) {
	for i := range rows {
		rows[i].at = throughputPos{}
		if rows[i].Mode == "" {
			rows[i].Mode = "async"
		}
	}
}

// TestWriteDirRefusesWhatLoadRefuses: rows each file's writer writes (its
// reader reads them) but Load refuses beside the other files (an update's
// worker or shard outside its run's workers and ps in steps.csv, a runs.csv
// mode that the run's ps there contradicts): WriteDir refuses them and
// makes nothing.
func TestWriteDirRefusesWhatLoadRefuses(t *testing.T) {
	cases := []struct {
		name, want string
		bad        func(*Trace)
	}{
		{"update worker", `traces: updates.csv row 2 (line 3, run "a"): worker: 2 is out of range (expected 0..1: run "a" has workers=2 in steps.csv line 2)`,
			func(t *Trace) { t.Updates[1].Worker = 2 }},
		{"update shard", `traces: updates.csv row 2 (line 3, run "a"): shard: 1 is out of range (expected 0..0: run "a" has ps=1 in steps.csv line 2)`,
			func(t *Trace) { t.Updates[1].Shard = 1 }},
		{"runs mode", `traces: runs.csv row 1 (line 2, run "a"): mode: allreduce, but run "a" has ps=1 in steps.csv line 2`,
			func(t *Trace) { t.Runs[0].Mode = "allreduce" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := checkTrace()
			c.bad(tr)
			for _, k := range []Kind{KindUpdates, KindRuns} {
				if err := writeKind(io.Discard, tr, k); err != nil {
					t.Errorf("%s alone: %v", k.FileName(), err)
				}
			}
			dir := filepath.Join(t.TempDir(), "out")
			err := WriteDir(dir, tr)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("WriteDir: %v, want %q", err, c.want)
			}
			if err := tr.Check(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("Check: %v, want %q", err, c.want)
			}
			if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("WriteDir made the folder: %v", err)
			}
		})
	}
}
