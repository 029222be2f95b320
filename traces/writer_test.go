package traces

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// randomTrace builds a valid trace with every optional value sometimes absent
// and floats that need all 17 digits.
func randomTrace(seed uint64) *Trace {
	rng := rand.New(rand.NewPCG(seed, 1))
	opt := func(v float64) float64 {
		if rng.IntN(4) == 0 {
			return math.NaN()
		}
		return v
	}
	t := &Trace{}
	for r, run := range []string{"w1", "run, \"two\"", "spaced out"} {
		workers := r + 1
		ps := []int{1, 2, 0}[r] // as the modes below: async, sync, allreduce
		for w := range workers {
			at := rng.Float64()
			for s := range 20 {
				d := rng.ExpFloat64()
				st := Step{Run: run, Workers: workers, PS: ps, Batch: 32 << r, Worker: w, Step: int64(s),
					Start: at, End: at + d, Pull: opt(d / 3), Compute: opt(d / 2), Push: opt(d / 7),
					Staleness: -1, Loss: opt(rng.NormFloat64())}
				if rng.IntN(3) > 0 {
					st.Staleness = rng.IntN(5)
				}
				t.Steps = append(t.Steps, st)
				at += d
			}
		}
		if ps > 0 { // updates are applied at a parameter-server shard, 0..ps-1
			t.Updates = append(t.Updates, Update{Run: run, Shard: ps - 1, Worker: 0, Time: rng.Float64(), Version: int64(r), Staleness: r, Apply: opt(1e-3)})
		}
		t.Runs = append(t.Runs, RunInfo{Run: run, Model: "m\n2", Mode: []string{"async", "sync", "allreduce"}[r],
			ParamBytes: int64(r) * 1000, Nodes: r, Bandwidth: opt(1.25e9), Dataset: int64(r) * 50000, Epochs: opt(0.1 * float64(r+1)),
			Framework: "tf", Notes: "x,y"})
		t.Evals = append(t.Evals, Eval{Run: run, Time: opt(rng.Float64()), Updates: int64(r), Loss: opt(rng.Float64()), Accuracy: rng.Float64()})
	}
	t.Throughput = []Throughput{
		{Workers: 1, PS: 1, Batch: 32, StepsPerS: 10.1, SamplesPerS: math.NaN(), Mode: "async", Std: math.NaN()},
		{Workers: 4, PS: 0, GlobalBatch: 256, StepsPerS: math.NaN(), SamplesPerS: 1e4 / 3, Mode: "allreduce", Nodes: 2,
			Model: "bert", Run: "r", Repeats: 5, Std: 1.0 / 3},
	}
	return t
}

// TestRoundTrip: WriteDir then Load gives back equal rows (NaN equal to NaN).
func TestRoundTrip(t *testing.T) {
	want := randomTrace(1)
	dir := t.TempDir()
	if err := WriteDir(dir, want); err != nil {
		t.Fatal(err)
	}
	got, warnings, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	diffRows(t, "steps", got.Steps, want.Steps)
	diffRows(t, "updates", got.Updates, want.Updates)
	diffRows(t, "runs", got.Runs, want.Runs)
	diffRows(t, "evals", got.Evals, want.Evals)
	for i := range got.Throughput {
		// where the row was read: the reader's, not the data's
		if file, line, _ := got.Throughput[i].Pos(); file != filepath.Join(dir, "throughput.csv") || line != i+2 {
			t.Errorf("throughput row %d read at %s:%d, want line %d of %s", i, file, line, i+2, filepath.Join(dir, "throughput.csv"))
		}
		got.Throughput[i].at = throughputPos{}
	}
	diffRows(t, "throughput", got.Throughput, want.Throughput)
	// no temporary file is left behind
	ents, _ := os.ReadDir(dir)
	if len(ents) != 5 {
		t.Errorf("%d files in %s, want 5", len(ents), dir)
	}
}

// diffRows reports the first row that differs, NaN equal to NaN (rows are
// compared through their %+v form, where every NaN prints alike).
func diffRows[T any](t *testing.T, name string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", name, len(got), len(want))
		return
	}
	for i := range got {
		if g, w := rowText(got[i]), rowText(want[i]); g != w {
			t.Errorf("%s row %d:\n got %s\nwant %s", name, i, g, w)
			return
		}
	}
}

// rowText is row as %+v prints it, less where a runs.csv row was read
// (RunInfo.ModePos: the reader's, not the data's).
func rowText(row any) string {
	if r, ok := row.(RunInfo); ok {
		r.at = throughputPos{}
		row = r
	}
	return fmt.Sprintf("%+v", row)
}

func TestWriteOmitsAbsentColumns(t *testing.T) {
	var b bytes.Buffer
	rows := []Step{{Run: "a", Workers: 1, PS: 1, Batch: 8, Step: 3, Start: 0.1, End: 0.30000000000000004,
		Pull: math.NaN(), Compute: 0.2, Push: math.NaN(), Staleness: -1, Loss: math.NaN()}}
	if err := WriteSteps(&b, rows); err != nil {
		t.Fatal(err)
	}
	want := "run,workers,ps,batch,worker,step,start,end,compute\na,1,1,8,0,3,0.1,0.30000000000000004,0.2\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// An update count below -1 (the absent value) was written as an empty
// field, as if absent: WriteEvals and WriteDir refuse it, naming the row, and
// write nothing; -1 is written empty.
func TestWriteEvalsNegativeUpdates(t *testing.T) {
	nan := math.NaN()
	rows := []Eval{
		{Run: "a", Time: 1, Updates: 10, Loss: 2, Accuracy: nan},
		{Run: "a", Time: 2, Updates: -1, Loss: 1.5, Accuracy: nan},
		{Run: "b", Time: 3, Updates: -5, Loss: 1, Accuracy: nan},
	}
	var b bytes.Buffer
	const want = `traces: evals.csv row 3 (line 4, run "b"): updates: -5 is below 0 (expected an integer >= 0, or -1 when absent)`
	if err := WriteEvals(&b, rows); err == nil || err.Error() != want {
		t.Errorf("WriteEvals: error %v, want %q", err, want)
	}
	if b.Len() != 0 {
		t.Errorf("WriteEvals wrote %q before the error", b.String())
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteDir(dir, &Trace{Evals: rows}); err == nil || err.Error() != want {
		t.Errorf("WriteDir: error %v, want %q", err, want)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("WriteDir made the folder: %v", err)
	}
	b.Reset()
	if err := WriteEvals(&b, rows[:2]); err != nil {
		t.Fatal(err)
	}
	if want := "run,time,updates,loss\na,1,10,2\na,2,,1.5\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestWriteDirSkipsEmptyAndFilesLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	tr := &Trace{Evals: []Eval{{Run: "a", Time: 1, Updates: -1, Loss: 2, Accuracy: math.NaN()}}}
	if err := WriteDir(dir, tr); err != nil {
		t.Fatal(err)
	}
	files, err := Files(dir)
	if err != nil || len(files) != 1 || files[0].Kind != KindEvals {
		t.Fatalf("files %v, %v; want only evals.csv", files, err)
	}
	// a file named twice (directly and through its folder) is read once
	if files, err := Files(dir, files[0].Path); err != nil || len(files) != 1 {
		t.Errorf("folder and its file: %v, %v; want one file", files, err)
	}
	// a file path works too, and a wrong name is refused
	if _, _, err := Load(files[0].Path); err != nil {
		t.Error(err)
	}
	bad := filepath.Join(dir, "steps.txt")
	os.WriteFile(bad, []byte("x"), 0o644)
	if _, _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "not a canonical trace file") {
		t.Errorf("steps.txt: %v", err)
	}
	if _, _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "folder holds no canonical trace file") {
		t.Errorf("empty folder: %v", err)
	}
}

// TestLoadGzipFile: a steps.csv.gz in a folder or named directly is read.
func TestLoadGzipFile(t *testing.T) {
	dir := t.TempDir()
	in := stepsHeader + "a,1,1,1,0,0,0,1,,,,,\na,1,1,1,0,1,1,2,,,,,\n"
	path := filepath.Join(dir, "steps.csv.gz")
	if err := os.WriteFile(path, []byte(gzipString(in)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, path} {
		tr, _, err := Load(p)
		if err != nil || len(tr.Steps) != 2 || tr.Steps[1].End != 2 {
			t.Errorf("Load(%s): %v, %+v", p, err, tr)
		}
	}
	// cut in half: a positioned truncated-gzip error naming the file
	var b strings.Builder
	b.WriteString(stepsHeader)
	for k := range 5000 {
		fmt.Fprintf(&b, "a,1,1,1,0,%d,%d,%d,,,,,\n", k, k, k+1)
	}
	z := gzipString(b.String())
	os.WriteFile(path, []byte(z[:len(z)/2]), 0o644)
	_, _, err := Load(path)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != path || pe.Line < 2 || !strings.Contains(err.Error(), "truncated gzip stream") {
		t.Errorf("truncated: %v, want a truncated gzip stream in %s at a line > 1", err, path)
	}
}

// TestWriteDirRefusesAFolderFirst: a folder where a file goes is an error
// before any file is written.
func TestWriteDirRefusesAFolderFirst(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "runs.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteDir(dir, randomTrace(2))
	if err == nil || !strings.Contains(err.Error(), "runs.csv is a folder") {
		t.Fatalf("error %v, want runs.csv is a folder", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "steps.csv")); err == nil {
		t.Error("steps.csv written before the error")
	}
}
