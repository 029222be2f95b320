package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/planner"
	"github.com/sgdplan/sgdplan/traces"
)

func TestConvertWritesCanonicalFiles(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		files map[string]int // file -> data rows
	}{
		// pytorch_profiler.json.gz: 2 ProfilerSteps (traces/chrome_test.go).
		{"chrome", []string{"--from", "chrome", "--batch", "32", "../../traces/testdata/chrome/pytorch_profiler.json.gz"},
			map[string]int{"steps.csv": 2, "runs.csv": 1}},
		// the tfevents sample: 5 loss steps, one rate row.
		{"tfevents", []string{"--from", "tfevents", "--workers", "2", "../../traces/testdata/tfevents/events.out.tfevents.1000.sample"},
			map[string]int{"evals.csv": 5, "throughput.csv": 1, "runs.csv": 1}},
		// tf-cnn excerpt: 36 DGX-1 + 25 distributed rows.
		{"tf-cnn", []string{"--from", "tf-cnn-benchmarks-2017", "../../testdata/public/tf-cnn-benchmarks-2017"},
			map[string]int{"throughput.csv": 61}},
		// gavel excerpt: 166 v100 rows, less A3C and CycleGAN (no batch size)
		// on 1 GPU, consolidated and not: 166 - 4 = 162.
		{"gavel", []string{"--from", "gavel-osdi20", "../../testdata/public/gavel-osdi20"},
			map[string]int{"throughput.csv": 162}},
		// cluster10.csv: 260 jobs.
		{"itp", []string{"--from", "itp", "--p", "0.8", "../../testdata/public/microsoft-itp-elasticflow-traces/raw/cluster10.csv"},
			map[string]int{"jobs.csv": 260}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			// --out after IN, as the manual writes the command
			code, stdout, stderr := runCmd(t, append(append([]string{"convert"}, c.args...), "--out", out)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			ents, _ := os.ReadDir(out)
			if len(ents) != len(c.files) {
				t.Errorf("wrote %d files, want %d: %v", len(ents), len(c.files), ents)
			}
			for f, n := range c.files {
				p := filepath.Join(out, f)
				if !strings.Contains(stdout, "wrote "+p) {
					t.Errorf("stdout does not report %s:\n%s", p, stdout)
				}
				fh, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				got := 0
				count := func() error { got++; return nil }
				switch f {
				case "steps.csv":
					_, err = traces.ReadSteps(fh, p, func(traces.Step) error { return count() })
				case "evals.csv":
					_, err = traces.ReadEvals(fh, p, func(traces.Eval) error { return count() })
				case "throughput.csv":
					_, err = traces.ReadThroughput(fh, p, func(traces.Throughput) error { return count() })
				case "runs.csv":
					_, err = traces.ReadRuns(fh, p, func(traces.RunInfo) error { return count() })
				case "jobs.csv":
					// the planner's own reader accepts what convert writes
					var jobs []planner.Job
					jobs, err = planner.ReadJobs(fh, p, nil)
					got = len(jobs)
				}
				fh.Close()
				if err != nil {
					t.Errorf("%s does not read back: %v", f, err)
				}
				if got != n {
					t.Errorf("%s: %d rows, want %d", f, got, n)
				}
			}
		})
	}
}

func TestConvertBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("[\n{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"dur\": -2}]"), 0o644); err != nil {
		t.Fatal(err)
	}
	// a pollux-osdi21 folder whose placements.csv ends in a short row
	pollux := filepath.Join(dir, "pollux")
	if err := os.MkdirAll(filepath.Join(pollux, "traces", "bert"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"placements.csv":  "placement,local_bsz,step_time,sync_time\n1,64,0.5,0.01\n2,64,0.2\n",
		"scalability.csv": "num_nodes,num_replicas,local_bsz,step_time,sync_time\n2,4,8,0.5,0.01\n",
	} {
		if err := os.WriteFile(filepath.Join(pollux, "traces", "bert", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"short row", []string{"--from", "pollux-osdi21", pollux}, "placements.csv:3:9: row ends after 3 of the header's 4 fields: column \"sync_time\" missing"},
		{"async without ps", []string{"--from", "chrome", "--mode", "async", "../../traces/testdata/chrome/pytorch_profiler.json"}, "mode async with ps 0"},
		{"negative dur", []string{"--from", "chrome", bad}, "bad.json:2:1: complete event \"a\": negative dur -2"},
		{"unknown format", []string{"--from", "slurm", bad}, "unknown --from \"slurm\""},
		{"no input", []string{"--from", "chrome"}, "want exactly one input"},
		{"missing input", []string{"--from", "chrome", filepath.Join(dir, "none.json")}, "no such file"},
		{"bad p", []string{"--from", "itp", "--p", "1.5", "../../testdata/public/microsoft-itp-elasticflow-traces/raw/cluster10.csv"}, "convert: --p 1.5: want a speedup exponent in (0, 1]"},
		// --p 0 was read as no --p: the p column written empty, exit 0
		{"p 0", []string{"--from", "itp", "--p", "0", "../../testdata/public/microsoft-itp-elasticflow-traces/raw/cluster10.csv"}, "convert: --p 0: want a speedup exponent in (0, 1]"},
		{"p 0 after IN", []string{"--from", "philly-pollux", "../../testdata/public/pollux-osdi21/traces/philly.csv", "--p", "0"}, "convert: --p 0: want a speedup exponent in (0, 1]"},
		{"p NaN", []string{"--from", "gavel-vc", "--p", "NaN", "../../testdata/public/gavel-osdi20/philly_vc_traces_seed0/vc_0e4a51.csv"}, "convert: --p NaN: want a speedup exponent in (0, 1]"},
		{"bad mode", []string{"--from", "chrome", "--mode", "fast", bad}, "--mode \"fast\""},
		// a folder of job traces: it said "read DIR: is a directory"
		{"job trace folder", []string{"--from", "itp", "../../testdata/public/microsoft-itp-elasticflow-traces/raw"}, "sgdplan: traces: ../../testdata/public/microsoft-itp-elasticflow-traces/raw: a folder: expected one itp job-trace CSV file (microsoft-itp-elasticflow-traces/raw/cluster01.csv, one cluster a conversion)\n"},
		// Philly's file read as ITP: the header named, line 1
		{"job trace of another format", []string{"--from", "itp", "../../testdata/public/pollux-osdi21/traces/philly.csv"}, "sgdplan: traces: ../../testdata/public/pollux-osdi21/traces/philly.csv:1: missing required column \"job_id\" (header has timestamp,duration,num_gpus,gpu_time,cluster)\n"},
		{"no --from", []string{bad}, "from"},
		{"unknown flag after IN", []string{"--from", "chrome", bad, "--bogus", "1"}, "unknown flag --bogus"},
		{"flag after IN without value", []string{"--from", "chrome", bad, "--batch"}, "flag --batch needs a value"},
		{"two inputs", []string{"--from", "chrome", bad, bad}, "got 2 arguments"},
		{"batch 0", []string{"--from", "chrome", "--batch", "0", "../../traces/testdata/chrome/pytorch_profiler.json"}, "--batch 0: want a count >= 1"},
		{"workers 0 after IN", []string{"--from", "chrome", "../../traces/testdata/chrome/pytorch_profiler.json", "--workers", "0"}, "--workers 0: want a count >= 1"},
		{"negative ps", []string{"--from", "chrome", "--ps", "-1", "../../traces/testdata/chrome/pytorch_profiler.json"}, "--ps -1: want a count >= 0"},
		// the file's distributedInfo is rank 1 of world_size 2: a --workers
		// its rank exceeds is an error at its position (it had none), one
		// that world_size has too few ranks for an error (it was accepted
		// silently)
		{"rank past --workers", []string{"--from", "chrome", "--workers", "1", "../../traces/testdata/chrome/pytorch_profiler.json"}, "pytorch_profiler.json:3:3: distributedInfo: rank 1 is outside 0..0 for --workers 1"},
		{"workers past world_size", []string{"--from", "chrome", "--workers", "4", "../../traces/testdata/chrome/pytorch_profiler.json"}, "pytorch_profiler.json:3:3: distributedInfo: world_size 2 is less than --workers 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(c.name, " ", "-"))
			code, _, stderr := runCmd(t, append([]string{"convert", "--out", out}, c.args...)...)
			if code != exitBadInput {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitBadInput, stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q lacks %q", stderr, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("bad input left an output folder %s", out)
			}
		})
	}
}

// TestConvertJobSamples regenerates testdata/jobs/*.csv and checks them
// byte for byte (README there); the planner reads each.
func TestConvertJobSamples(t *testing.T) {
	cases := []struct{ sample, format, in string }{
		{"itp-cluster10.csv", "itp", "microsoft-itp-elasticflow-traces/raw/cluster10.csv"},
		{"philly-pollux-150.csv", "philly-pollux", "pollux-osdi21/traces/philly.csv"},
		{"gavel-vc_0e4a51-150.csv", "gavel-vc", "gavel-osdi20/philly_vc_traces_seed0/vc_0e4a51.csv"},
	}
	for _, c := range cases {
		out := t.TempDir()
		in := filepath.Join("..", "..", "testdata", "public", filepath.FromSlash(c.in))
		if code, _, stderr := runCmd(t, "convert", "--from", c.format, in, "--p", "0.8", "--out", out); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.sample, code, stderr)
		}
		got, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "jobs", c.sample))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from a fresh conversion (regenerate it: testdata/jobs/README.md)", c.sample)
		}
		jobs, err := planner.ReadJobs(bytes.NewReader(want), c.sample, nil)
		if err != nil || len(jobs) == 0 {
			t.Errorf("%s: planner.ReadJobs: %d jobs, %v", c.sample, len(jobs), err)
		}
	}
}

// TestConvertOutIsAFile: --out naming a file (or a path through one) is bad
// input, and the file is left as it was.
func TestConvertOutIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := "../../testdata/public/microsoft-itp-elasticflow-traces/raw/cluster10.csv"
	for _, out := range []string{file, filepath.Join(file, "sub")} {
		code, _, stderr := runCmd(t, "convert", "--from", "itp", in, "--out", out)
		if code != exitBadInput || !strings.Contains(stderr, "--out "+out) || !strings.Contains(stderr, "must be a folder") && !strings.Contains(stderr, file+" is not a folder") {
			t.Errorf("--out %s: exit %d, stderr %q; want %d and that --out must be a folder", out, code, stderr, exitBadInput)
		}
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "keep" {
		t.Errorf("the file was changed: %q, %v", b, err)
	}
}

// TestConvertRefusesAnUnwritableRow: a run name with a space at its end
// was written quoted and read back without it (another run); convert now
// refuses it, naming the file, row and field, before making --out.
func TestConvertRefusesAnUnwritableRow(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	in := "../../traces/testdata/tfevents/events.out.tfevents.1000.sample"
	code, stdout, stderr := runCmd(t, "convert", "--from", "tfevents", "--run", "r ", "--out", out, in)
	want := `convert: the converted trace cannot be written (nothing written): traces: runs.csv row 1 (line 2, run "r "): run: "r " has a space or tab at either end`
	if code != exitBadInput || !strings.Contains(stderr, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, stdout, stderr, exitBadInput, want)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("--out made: %v", err)
	}
	// an empty --run fell back to the input's name, silently
	for _, run := range []string{"", " "} {
		if code, _, stderr := runCmd(t, "convert", "--from", "tfevents", "--run", run, "--out", out, in); code != exitBadInput || !strings.Contains(stderr, "convert: --run is empty: want a run name") {
			t.Errorf("--run %q: exit %d, %s", run, code, stderr)
		}
	}
	// a run name with a control character: refused before the
	// conversion, naming the flag (the writer refused it after)
	if code, _, stderr := runCmd(t, "convert", "--from", "tfevents", "--run", "a\x1bb", "--out", out, in); code != exitBadInput || !strings.Contains(stderr, `convert: --run "a\x1bb" holds the control character U+001B`) {
		t.Errorf("--run with ESC: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCmd(t, "convert", "--from", "tfevents", "--run", "r", "--out", out, in); code != 0 {
		t.Errorf("--run r: exit %d, %s", code, stderr)
	}
}

// TestConvertHelpNamesEveryFormat: the description covers every --from
// value, not only the flag's list.
func TestConvertHelpNamesEveryFormat(t *testing.T) {
	desc := convertCommand().Description
	for _, f := range traces.ConvertFormats() {
		if !strings.Contains(desc, f) {
			t.Errorf("convert's description does not describe --from %s", f)
		}
	}
	// gavel-vc's sizes are steps over a one-V100 rate, not measured
	// GPU-seconds (which the description said of all three job traces)
	for _, w := range []string{"philly-pollux and itp duration x GPUs, measured\n", "gavel-vc total_steps / the job type's steps/s\n"} {
		if !strings.Contains(desc, w) {
			t.Errorf("convert's description lacks %q", w)
		}
	}
}

// TestConvertChromeWithoutPS: with neither --ps nor --mode the run is
// written as allreduce (ps 0 means no parameter server), with a warning, so
// fit does not build an async model with 0 parameter servers.
func TestConvertChromeWithoutPS(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCmd(t, "convert", "--from", "chrome", "--batch", "32", "../../traces/testdata/chrome/pytorch_profiler.json", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "written as mode allreduce") {
		t.Errorf("no warning about the mode: %q", stderr)
	}
	f, err := os.Open(filepath.Join(out, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var modes []string
	if _, err := traces.ReadRuns(f, "runs.csv", func(r traces.RunInfo) error { modes = append(modes, r.Mode); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(modes) != 1 || modes[0] != "allreduce" {
		t.Errorf("runs.csv modes %q, want [allreduce]", modes)
	}
}

// TestConvertOutputIsAFolder: a folder where one of convert's files goes
// (o/c/runs.csv) is bad input found before any file is written: no
// steps.csv is left beside it.
func TestConvertOutputIsAFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	if err := os.MkdirAll(filepath.Join(out, "runs.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "convert", "--from", "chrome", "../../traces/testdata/chrome/pytorch_profiler.json", "--out", out)
	want := filepath.Join(out, "runs.csv") + " is a folder: want the path of a file to write"
	if code != exitBadInput || !strings.Contains(stderr, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(out, "steps.csv")); err == nil {
		t.Error("steps.csv written although runs.csv could not be")
	}
}

// TestConvertIgnoredFlags: flags that do not apply to the format warn (a
// job trace's --workers and a table's --p were dropped without a word),
// and the flags that apply do not.
func TestConvertIgnoredFlags(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "public", "microsoft-itp-elasticflow-traces", "raw", "cluster10.csv")
	code, _, stderr := runCmd(t, "convert", "--from", "itp", in, "--p", "0.8", "--workers", "4", "--mode", "sync", "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"--workers is read for tfevents and chrome only: ignored for itp", "--mode is read for tfevents and chrome only"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q, want %q", stderr, want)
		}
	}
	if strings.Contains(stderr, "--p is read") {
		t.Errorf("--p applies to itp, but: %q", stderr)
	}
}

// TestConvertIgnoredPIsNotChecked: --p is warned about as ignored for a
// format other than a job trace, so a value out of its range does not stop
// the conversion either (it warned "ignored" and then exited 2 on the value).
func TestConvertIgnoredPIsNotChecked(t *testing.T) {
	out := t.TempDir()
	in := filepath.Join("..", "..", "traces", "testdata", "chrome", "pytorch_profiler.json")
	code, _, stderr := runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--p", "1.5", in, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q; want 0 (--p is ignored for chrome)", code, stderr)
	}
	if !strings.Contains(stderr, "--p is read for the job traces (gavel-vc, itp, philly-pollux) only: ignored for chrome") {
		t.Errorf("no warning that --p is ignored: %q", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "steps.csv")); err != nil {
		t.Errorf("steps.csv not written: %v", err)
	}
	// the run's flags likewise for a table, whose rows give them (--workers
	// 0 and --mode bogus exited 2 after the warning that they are ignored)
	out2 := t.TempDir()
	table := filepath.Join("..", "..", "testdata", "public", "tf-cnn-benchmarks-2017")
	code, _, stderr = runCmd(t, "convert", "--from", "tf-cnn-benchmarks-2017", "--workers", "0", "--mode", "bogus", "--ps", "-1", table, "--out", out2)
	if code != 0 || !strings.Contains(stderr, "--workers is read for tfevents and chrome only") || !strings.Contains(stderr, "--mode is read for tfevents and chrome only") {
		t.Errorf("table with ignored run flags: exit %d, stderr %q; want 0 and the warnings", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out2, "throughput.csv")); err != nil {
		t.Errorf("throughput.csv not written: %v", err)
	}
}

// Converting into a folder that holds canonical files of an earlier
// conversion warns that they are read with the new ones as one trace (they
// were kept without a word, and inspect mixed the two runs).
func TestConvertWarnsStaleFiles(t *testing.T) {
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "evals.csv"), []byte("run,updates,loss\nold,1,2\n"), 0o644)
	in := filepath.Join("..", "..", "traces", "testdata", "chrome", "pytorch_profiler.json")
	code, _, stderr := runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--mode", "allreduce", in, "--out", out)
	if code != 0 || !strings.Contains(stderr, "also holds evals.csv, which this conversion did not write") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	// a second conversion of the same input overwrites its own files: no
	// warning about them
	os.Remove(filepath.Join(out, "evals.csv"))
	code, _, stderr = runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--mode", "allreduce", in, "--out", out)
	if code != 0 || strings.Contains(stderr, "also holds") {
		t.Errorf("same files again: exit %d, stderr %q", code, stderr)
	}
}

// A folder holding steps.csv.gz would get a steps.csv beside it, which no
// reader accepts: convert refuses before writing anything (it wrote, warned
// and exited 0, leaving a folder inspect refused).
func TestConvertRefusesGzipTwin(t *testing.T) {
	out := t.TempDir()
	twin := filepath.Join(out, "steps.csv.gz")
	os.WriteFile(twin, []byte("old"), 0o644)
	in := filepath.Join("..", "..", "traces", "testdata", "chrome", "pytorch_profiler.json")
	code, stdout, stderr := runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--mode", "allreduce", in, "--out", out)
	if code != exitBadInput || !strings.Contains(stderr, "holds steps.csv.gz, from an earlier conversion: the steps.csv this one writes beside it") || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 1 {
		t.Errorf("%d files in --out, want only the old steps.csv.gz", len(ents))
	}
}

// TestConvertKerasLogFolder: convert --from tfevents on a Keras log folder
// (event files in train/ and validation/) said the folder held no event
// file; it names the subfolders to give, and writes nothing.
func TestConvertKerasLogFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run6")
	for _, sub := range []string{"train", "validation"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub, "events.out.tfevents.1.host"), tfeventsSample(t), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "o")
	code, stdout, stderr := runCmd(t, "convert", "--from", "tfevents", dir, "--out", out, "--batch", "32")
	want := "its subfolders " + filepath.Join(dir, "train") + " and " + filepath.Join(dir, "validation") + " hold event files: give one of them (one run per conversion)"
	if code != exitBadInput || !strings.Contains(stderr, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s created", out)
	}
}

func tfeventsSample(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../traces/testdata/tfevents/events.out.tfevents.1000.sample")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConvertJobTraceSkippedRows: convert of a job trace with more zero
// durations than the 20 warnings it prints says once how many rows it
// skipped, why, and where (with one warning per row, the 25th skip was
// "... and 5 more warnings" and no count of the jobs dropped), and writes the
// jobs kept; stdout counts them in the singular for one.
func TestConvertJobTraceSkippedRows(t *testing.T) {
	dir := t.TempDir()
	// 26 rows: lines 2..26 zero duration, line 27 job z (30 s x 4 GPUs)
	body := "job_id,submission_time,duration,num_gpu\n"
	for k := 0; k < 25; k++ {
		body += fmt.Sprintf("j%d,%d,0,1\n", k, k)
	}
	body += "z,100,30,4\n"
	in := filepath.Join(dir, "c.csv")
	if err := os.WriteFile(in, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCmd(t, "convert", "--from", "itp", in, "--p", "0.5", "--out", out)
	// "j0,0,0,1": the duration's 0 at column 6
	want := "sgdplan: warning: traces: " + in + ":2:6: column duration: zero duration: 25 of 26 rows skipped " +
		"(lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 15 more); 1 job kept\n"
	if code != 0 || stderr != want || stdout != "wrote "+filepath.Join(out, "jobs.csv")+" (1 job)\n" {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant exit 0, stderr %q", code, stdout, stderr, want)
	}
	got, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// the one job kept arrives first: arrival 0, size 30 x 4 = 120
	if w := "job,arrival,size,p,model,max_workers,weight,rigid_workers\nz,0,120,0.5,,,,4\n"; string(got) != w {
		t.Errorf("jobs.csv\n%s\nwant\n%s", got, w)
	}
}

// Converting into a folder that holds an earlier conversion's files says
// which it replaced (a run's workers converted one by one into one folder
// kept the last worker's steps alone, without a word); a fresh folder does
// not.
func TestConvertSaysWhatItReplaced(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	args := []string{"convert", "--from", "chrome", "--batch", "32", "--mode", "allreduce", "../../traces/testdata/chrome/pytorch_profiler.json", "--out", out}
	for i, want := range []bool{false, true} {
		code, _, stderr := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr)
		}
		if got := strings.Contains(stderr, "convert: replaced steps.csv, runs.csv in "+out+", written before"); got != want {
			t.Errorf("run %d: said %v, want %v: %s", i, got, want, stderr)
		}
	}
}

// convert --from chrome writes --param-bytes and --bandwidth into runs.csv,
// so that fit's two-node profile scales to other link rates (a converted
// trace had no way to carry them: runs.csv was edited by hand, or predict
// --bandwidth refused the model); bad values are refused, and other
// formats warn that they ignore them.
func TestConvertChromeLinkRate(t *testing.T) {
	in := filepath.Join("..", "..", "traces", "testdata", "chrome", "pytorch_profiler.json")
	out := t.TempDir()
	code, _, stderr := runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--ps", "1", "--mode", "async", "--param-bytes", "25000000", "--bandwidth", "5e8", in, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(out, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var runs []traces.RunInfo
	if _, err := traces.ReadRuns(f, "runs.csv", func(r traces.RunInfo) error { runs = append(runs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].ParamBytes != 25000000 || runs[0].Bandwidth != 5e8 {
		t.Errorf("runs.csv %+v, want param_bytes 25000000 and bandwidth 5e8", runs)
	}
	if strings.Contains(stderr, "without --") {
		t.Errorf("both given, yet: %q", stderr)
	}
	// without them the columns stay empty, as before
	out2 := t.TempDir()
	if code, _, stderr := runCmd(t, "convert", "--from", "chrome", "--batch", "32", in, "--out", out2); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(out2, "runs.csv")); strings.Contains(string(b), "param_bytes") || strings.Contains(string(b), "bandwidth") {
		t.Errorf("runs.csv without the flags:\n%s", b)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--param-bytes", "0"}, "--param-bytes 0: want the bytes sent per pull and per push, >= 1"},
		{[]string{"--bandwidth", "-1"}, "--bandwidth -1: want the link rate in bytes per second"},
		{[]string{"--bandwidth", "inf"}, "--bandwidth +Inf: want the link rate"},
		// 5e-324 B/s was written, and fit dropped the link demand
		{[]string{"--bandwidth", "5e-324"}, "--bandwidth 5e-324: want the link rate in bytes per second, from 1 to 1e+15"},
		{[]string{"--bandwidth", "0.5"}, "--bandwidth 0.5: want the link rate in bytes per second, from 1 to 1e+15"},
		{[]string{"--bandwidth", "2e15"}, "--bandwidth 2e+15: want the link rate in bytes per second, from 1 to 1e+15"},
	} {
		code, _, stderr := runCmd(t, append(append([]string{"convert", "--from", "chrome"}, c.args...), in, "--out", t.TempDir())...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	// one without the other is written, with a warning
	code, _, stderr = runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--bandwidth", "5e8", in, "--out", t.TempDir())
	if code != 0 || !strings.Contains(stderr, "--bandwidth without --param-bytes: fit scales the link demand with both") {
		t.Errorf("--bandwidth alone: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "convert", "--from", "chrome", "--batch", "32", "--param-bytes", "1000", in, "--out", t.TempDir())
	if code != 0 || !strings.Contains(stderr, "--param-bytes without --bandwidth") {
		t.Errorf("--param-bytes alone: exit %d, %q", code, stderr)
	}
	itp := filepath.Join("..", "..", "testdata", "public", "microsoft-itp-elasticflow-traces", "raw", "cluster10.csv")
	code, _, stderr = runCmd(t, "convert", "--from", "itp", itp, "--p", "0.8", "--bandwidth", "5e8", "--out", t.TempDir())
	if code != 0 || !strings.Contains(stderr, "--bandwidth is read for chrome only") {
		t.Errorf("itp with --bandwidth: exit %d, %q", code, stderr)
	}
}
