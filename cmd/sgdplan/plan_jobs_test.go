package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/planner"
)

// The jobs file's faults found by the input audit, through the commands:
// each names the file, line and column (and the job), exits 2.
func TestPlanJobsFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return writeTestFile(t, dir, name, body) }
	long := write("long.csv", "job,arrival,size,p\na,0,100,0.5,9\n")
	short := write("short.csv", "job,arrival,size,p\na,0,100\n")
	under := write("under.csv", "job,arrival,size,p\na,0,1_000,0.5\n")
	hex := write("hex.csv", "job,arrival,size,p\na,0,0x1p4,0.5\n")
	rigid := write("rigid.csv", "job,arrival,size,p,rigid_workers\na,0,100,0.5,2\nb,0,100,0.5,1000\n")
	// A model whose every parameter is 0: its job and file are named.
	m := reportModel(t, dir)
	doc := readModelDoc(t, m)
	for _, p := range doc["parameters"].([]any) {
		for _, k := range []string{"value", "lo", "hi"} {
			p.(map[string]any)[k] = 0
		}
	}
	writeModelDoc(t, filepath.Join(dir, "zero.json"), doc)
	zero := write("zero.csv", "job,arrival,size,model\nfine,0,100,\nz,0,100,zero.json\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--jobs", long, "--servers", "4"}, long + ":2:13: row has 5 fields, more than the 4 columns of the header (job, arrival, size, p)"},
		{[]string{"simulate", "--jobs", short, "--servers", "4"}, short + `:2:8: row ends after 3 of 4 fields: want one per column of the header (job, arrival, size, p); the first missing is "p"`},
		{[]string{"plan", "--jobs", under, "--servers", "4"}, under + `:2:5: size: want a finite decimal number (such as 3600, 0.5 or 1.5e3), got "1_000"`},
		{[]string{"plan", "--jobs", hex, "--servers", "4"}, hex + `:2:5: size: want a finite decimal number`},
		// (under --policy all fcfs-rigid is left out instead: TestPlanAllLeavesRigidOut)
		{[]string{"plan", "--jobs", rigid, "--servers", "16", "--policy", "fcfs-rigid"}, rigid + `:3:13: rigid_workers: job "b" needs 1000 rigid workers, more than the 16 servers`},
		// report refuses such a job only when its plan is fcfs-rigid (it
		// leaves that policy out of its comparison otherwise)
		{[]string{"report", "--model", m, "--jobs", rigid, "--servers", "16", "--policy", "fcfs-rigid", "--out", filepath.Join(dir, "r")}, rigid + `:3:13: rigid_workers: job "b" needs 1000 rigid workers, more than the 16 servers`},
		{[]string{"plan", "--jobs", zero, "--servers", "4", "--p", "0.5"}, zero + `:3:9: model: job "z": ` + filepath.Join(dir, "zero.json") + ":"},
	} {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, stdout, stderr, exitBadInput, c.want)
		}
	}
	// plan alone does not run fcfs-rigid: the rigid workers do not matter.
	if code, _, stderr := runCmd(t, "plan", "--jobs", rigid, "--servers", "16"); code != 0 {
		t.Errorf("plan --policy hesrpt with rigid_workers above the servers: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "r")); err == nil {
		t.Errorf("report wrote its folder despite bad input")
	}
}

// A column the reader does not know is a warning on stderr (and in the
// report), naming the file, line and column; it was ignored silently.
func TestPlanReportWarnUnknownColumn(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,arrival,size,p,max_worker\na,0,100,0.5,2\nb,0,50,0.9,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := jobs + `:1:20: unknown column "max_worker" ignored (the columns: job, arrival, size, p, model, max_workers, weight, rigid_workers)`
	for _, cmd := range []string{"plan", "simulate"} {
		code, _, stderr := runCmd(t, cmd, "--jobs", jobs, "--servers", "4")
		if code != 0 || !strings.Contains(stderr, "sgdplan: warning: "+want+"\n") {
			t.Errorf("%s: exit %d, stderr %q; want 0 and the warning %q", cmd, code, stderr, want)
		}
	}
	m := reportModel(t, dir)
	out := filepath.Join(dir, "r")
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "4", "--out", out, "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5")
	if code != 0 || !strings.Contains(stderr, "sgdplan: warning: "+want+"\n") {
		t.Errorf("report: exit %d, stderr %q; want 0 and the warning", code, stderr)
	}
	if md, _ := os.ReadFile(filepath.Join(out, "summary.md")); !strings.Contains(string(md), `unknown column "max_worker" ignored`) {
		t.Errorf("summary.md lacks the warning:\n%s", md)
	}
}

type nanCurve struct{}

func (nanCurve) Speedup(k float64) float64 {
	if k <= 1 {
		return k
	}
	return math.NaN()
}

type zeroAt64 struct{}

func (zeroAt64) Speedup(k float64) float64 {
	if k >= 64 {
		return 0
	}
	return k
}

// A model's curve that is not finite and > 0 where the policies use it is
// refused when read, naming the model file.
func TestPlanCheckCurve(t *testing.T) {
	if err := fit.CheckSpeedup("m.json", nanCurve{}); err == nil || err.Error() != "fit: m.json: the model's speedup at 2 workers is NaN: want a finite speedup > 0 (are its parameters degenerate?)" {
		t.Errorf("NaN curve: %v", err)
	}
	if err := fit.CheckSpeedup("m.json", zeroAt64{}); err == nil || !strings.Contains(err.Error(), "m.json: the model's speedup at 64 workers is 0") {
		t.Errorf("zero at 64: %v", err)
	}
}

// A job on a fitted model that is fastest on one worker (the fit-async
// model: its time to target grows with the workers) gets one worker under
// every policy but fcfs-rigid, and finishes at its size; plan says why on
// stderr, and a lone job draws no heSRPT caveat. Before, every policy gave
// it all 8 workers, and it finished later than on one.
func TestPlanCapsAtFastestCount(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,model,rigid_workers\nm,0,1800,"+mp+",8\n")
	code, stdout, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "8", "--policy", "all", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "job m is fastest at 1 worker: past it the fitted speedup gains nothing or falls") || strings.Contains(stderr, "heSRPT is optimal only") {
		t.Errorf("stderr %q: want the cap named and no heSRPT caveat", stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	seen := 0
	for _, r := range rows[1:] {
		if r[col["job"]] != "m" {
			continue
		}
		seen++
		flow, err := strconv.ParseFloat(r[col["flow_time"]], 64)
		if err != nil {
			t.Fatal(err)
		}
		if pol := r[col["policy"]]; pol == "fcfs-rigid" {
			if flow <= 1800 {
				t.Errorf("fcfs-rigid: flow %g, want the 8 workers it asks for, slower than one", flow)
			}
		} else if math.Abs(flow-1800) > 1e-6 {
			t.Errorf("%s: flow %g, want 1800 (one worker)", pol, flow)
		}
	}
	if seen != len(planner.PolicyNames)+1 {
		t.Errorf("%d rows for job m, want one per policy and numeric", seen)
	}
}

// The cap is named only where it applies: not under fcfs-rigid alone, nor
// under simulate's energy accounting (every job a power law there).
func TestPeakWarningOnlyWhereCapped(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,model\nm,0,1800,"+mp+"\n")
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"simulate", "--policy", "equi"}, true},
		{[]string{"simulate", "--policy", "equi", "--energy-alpha", "2"}, false},
		{[]string{"simulate", "--policy", "fcfs-rigid"}, false},
		{[]string{"plan", "--policy", "fcfs-rigid"}, false},
	} {
		code, _, stderr := runCmd(t, append(c.args, "--jobs", jobs, "--servers", "8")...)
		if got := strings.Contains(stderr, "is fastest at"); code != 0 || got != c.want {
			t.Errorf("%v: exit %d, warned %v, want %v: %s", c.args, code, got, c.want, stderr)
		}
	}
}

// The cap's reason is the model's: the asynchronous model's staleness cost,
// a flat fitted table's form (it named "a saturated link, the staleness
// cost or a larger global batch" for every curve, the table too).
func TestPeakWarningCause(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	flat := filepath.Join(dir, "flat")
	os.MkdirAll(flat, 0o755)
	os.WriteFile(filepath.Join(flat, "throughput.csv"), []byte("workers,ps,batch,samples_per_s\n1,1,64,100\n2,1,64,100\n4,1,64,100\n"), 0o644)
	fp := filepath.Join(flat, "m.json")
	if code, _, stderr := runCmd(t, "fit", flat, "--out", fp); code != 0 {
		t.Fatalf("fit flat: %s", stderr)
	}
	// a staleness cost whose interval reaches 0: the cap is hedged (fit
	// said it "cannot tell it from 0", and this stated the cap as a fact)
	zp := filepath.Join(dir, "zero-lo.json")
	doc := readModelDoc(t, mp)
	eff := doc["efficiency"].(map[string]any)
	eff["lambda_lo"] = 0.0
	writeModelDoc(t, zp, doc)
	// and a throughput that peaks there too: no hedge (with no cost the
	// job would still stop there)
	async := filepath.Join(dir, "flat-async")
	os.MkdirAll(async, 0o755)
	os.WriteFile(filepath.Join(async, "throughput.csv"), []byte("workers,ps,batch,samples_per_s,mode\n1,1,64,100,async\n2,1,64,100,async\n4,1,64,100,async\n"), 0o644)
	ap := filepath.Join(async, "m.json")
	if code, _, stderr := runCmd(t, "fit", async, "--out", ap); code != 0 {
		t.Fatalf("fit flat async: %s", stderr)
	}
	adoc := readModelDoc(t, ap)
	adoc["efficiency"] = eff
	writeModelDoc(t, ap, adoc)
	for _, c := range []struct{ model, want, not string }{
		{mp, "job m is fastest at 1 worker: past it the fitted speedup gains nothing or falls (the staleness cost)", "global batch"},
		{zp, "(the staleness cost: lambda ", "global batch"},
		{zp, "interval [0, ", "global batch"},
		{ap, "its throughput peaks there in the fitted ", "reaches 0"},
		{fp, "job m is fastest at 1 worker: past it the fitted speedup gains nothing or falls (its throughput peaks there in the fitted ", "staleness"},
	} {
		jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,model\nm,0,1800,"+c.model+"\n")
		code, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "8", "--policy", "hesrpt")
		if code != 0 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, c.not) {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.model, code, stderr, c.want)
		}
	}
}

// spikeAt is linear but for more than k times one worker's speed at k =
// At: a curve superlinear at one worker count only.
type spikeAt struct{ At float64 }

func (s spikeAt) Speedup(k float64) float64 {
	if k == s.At {
		return 1.5 * k
	}
	return k
}

// superlinearJobs tries every count from 2 to 64 and doubles past it
// (nextCount), up to the servers: a curve superlinear at 3, 5 or 63
// workers alone is named (counts that doubling from 2 never tries); past
// 64 only 128, 256, ... are tried, so a spike at 96 goes unseen; a count
// above the servers is never tried.
func TestSuperlinearJobsCounts(t *testing.T) {
	for _, c := range []struct {
		at, servers float64
		named       bool
	}{
		{3, 8, true},
		{5, 8, true},
		{63, 64, true},
		{64, 64, true},
		{128, 256, true},
		{96, 256, false},
		{9, 8, false},
	} {
		got := superlinearJobs([]planner.Job{{ID: "s", Size: 1, Curve: spikeAt{c.at}}}, c.servers)
		if named := strings.HasPrefix(got, "job s's fitted speedup is superlinear"); named != c.named {
			t.Errorf("spike at %g workers, %g servers: %q, want named %v", c.at, c.servers, got, c.named)
		}
	}
	// the counts themselves: one at a time below 64, then doubling
	for _, c := range [][2]float64{{2, 3}, {3, 4}, {5, 6}, {63, 64}, {64, 128}, {100, 200}} {
		if got := nextCount(c[0]); got != c[1] {
			t.Errorf("nextCount(%g) = %g, want %g", c[0], got, c[1])
		}
	}
}

// A model.json given where a trace or a jobs file is wanted is named as
// one, at its line and column, with where it goes; exit 2. fit m1.json
// advised converting it as a Chrome trace; plan --jobs m1.json warned of an
// unknown column "{" and then missed the column job.
func TestModelGivenForTraceOrJobs(t *testing.T) {
	dir := t.TempDir()
	m := fitModel(t, dir, "--bootstrap", "0")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", m}, "sgdplan: traces: " + m + `:2:13: a model.json written by sgdplan fit (schema "sgdplan/model/v1"), not a trace: give it to predict, check or report with --model ` + m},
		{[]string{"inspect", m}, m + ":2:13: a model.json written by sgdplan fit"},
		{[]string{"plan", "--jobs", m, "--servers", "8"}, "sgdplan: planner: " + m + ":1:1: a JSON file, not a jobs.csv: want a CSV file with a header row (job, arrival, size, p or model); a model.json that sgdplan fit wrote goes in a job's model column, as its path"},
		{[]string{"simulate", "--jobs", m, "--servers", "8"}, m + ":1:1: a JSON file, not a jobs.csv"},
	} {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, stdout, stderr, exitBadInput, c.want)
		}
		if strings.Contains(stderr, "convert") || strings.Contains(stderr, "unknown column") {
			t.Errorf("%v: %s", c.args, stderr)
		}
	}
}

// A job name may hold a newline (a quoted CSV field keeps one). Printed raw
// in a warning it began a line of its own, which could read as another
// "sgdplan: warning:"; warnings quote such a name as the tables do.
func TestPlanWarningQuotesJobNames(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,arrival,size,p\n\"a\nsgdplan: warning: fake\",0,100,\nb,0,50,0.9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := `sgdplan: warning: --p 0.5 for 1 of 2 jobs, which have neither p nor model: "a\nsgdplan: warning: fake"` + "\n"
	for _, cmd := range []string{"plan", "simulate"} {
		code, _, stderr := runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--p", "0.5")
		if code != 0 || !strings.Contains(stderr, want) || strings.Contains(stderr, "\nsgdplan: warning: fake") {
			t.Errorf("%s: exit %d, stderr %q; want 0 and the warning %q", cmd, code, stderr, want)
		}
	}
	// a job on a fitted model, past its data: its one name was printed raw
	asgdModel(t, dir)
	onModel := filepath.Join(dir, "model-jobs.csv")
	if err := os.WriteFile(onModel, []byte("job,arrival,size,model\n\"x\nsgdplan: warning: forged\",0,1e5,asgd.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "plan", "--jobs", onModel, "--servers", "64")
	if code != 0 || !strings.Contains(stderr, `sgdplan: warning: job "x\nsgdplan: warning: forged" can get up to 64 workers`) || strings.Contains(stderr, "\nsgdplan: warning: forged") {
		t.Errorf("a job on a fitted model: exit %d, stderr %q", code, stderr)
	}
}

// An empty input path is named as such: it was "open : no such file or
// directory" (plan) or "stat : ..." (fit, inspect, convert); so is an
// empty flag.
func TestEmptyInputPath(t *testing.T) {
	m := fitModel(t, t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--jobs", "", "--servers", "2"}, "--jobs is empty: want the path of a jobs.csv"},
		// "-" is not standard input here ("open -: no such file", no flag)
		{[]string{"plan", "--jobs", "-", "--servers", "2"}, "plan: --jobs -: the jobs are read from a file, not standard input"},
		{[]string{"simulate", "--jobs", "-", "--servers", "2"}, "--jobs -: the jobs are read from a file, not standard input"},
		// a folder is said to be one ("read .: is a directory")
		{[]string{"plan", "--jobs", ".", "--servers", "2"}, "sgdplan: plan: --jobs .: a folder: want the path of a jobs.csv file"},
		{[]string{"simulate", "--jobs", "..", "--servers", "2"}, "sgdplan: simulate: --jobs ..: a folder: want the path of a jobs.csv file"},
		{[]string{"report", "--model", m, "--jobs", "..", "--servers", "2", "--out", filepath.Join(t.TempDir(), "r")}, "sgdplan: report: --jobs ..: a folder: want the path of a jobs.csv file"},
		{[]string{"fit", ""}, "traces: an empty path: expected a folder or steps.csv"},
		{[]string{"inspect", ""}, "traces: an empty path: expected a folder or steps.csv"},
		{[]string{"convert", "--from", "philly-pollux", "", "--out", filepath.Join(t.TempDir(), "jobs.csv")}, "convert: an empty input path"},
		// and flags given empty: report said "missing --out", predict took the model's shards
		{[]string{"report", "--model", "m.json", "--jobs", "jobs.csv", "--servers", "2", "--out", ""}, "report: --out is empty: want a folder path"},
		{[]string{"predict", "--model", m, "--workers", "2", "--ps", ""}, `predict: --ps: "": an empty list`},
		{[]string{"fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "", "--out", filepath.Join(t.TempDir(), "m.json")}, `fit: --train-workers: "": an empty list`},
		// an input flag given empty read as the flag left out
		{[]string{"predict", "--model=", "--workers", "2"}, "predict: --model is empty: want the path of a model.json"},
		{[]string{"check", "--model=", "--workers", "2"}, "check: --model is empty: want the path of a model.json"},
		{[]string{"simulate", "--jobs=", "--servers", "2"}, "simulate: --jobs is empty: want the path of a jobs.csv"},
		{[]string{"validate", "--data=", "--out", filepath.Join(t.TempDir(), "v.md")}, "validate: --data is empty: want the folder of the public datasets"},
	} {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, stdout, stderr, exitBadInput, c.want)
		}
	}
}

// The whole-workers warning's reason names a job whose share k < 1 runs at
// s(k) > k: under p = 1 a share runs at its size, and such a job (a) was
// named all the same.
func TestPlanIdealSharesReasonNamesSublinearJob(t *testing.T) {
	jobs := filepath.Join(t.TempDir(), "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,size,p\na,100,1\nb,100,1\nc,100,0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "1", "--policy", "numeric")
	if code != 0 || !strings.Contains(stderr, "whole workers change the mean flow time by") || !strings.Contains(stderr, "(job c starts on") {
		t.Errorf("exit %d, stderr %q; want the reason naming job c", code, stderr)
	}
}

// fcfs-rigid says which jobs hold 1 worker under it because they have
// neither rigid_workers nor max_workers (the default was in planner.md
// alone, and a large job on 1 worker read as the policy's fault); not on
// one server, where every job holds 1 anyway, nor without fcfs-rigid.
func TestFCFSRigidDefaultWarned(t *testing.T) {
	dir := t.TempDir()
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p,max_workers,rigid_workers\nbig,0,3600,0.9,,\nr,0,100,0.5,,2\nm,0,100,0.5,4,\nsmall,0,10,0.5,,\n")
	const want = "sgdplan: warning: fcfs-rigid: 2 jobs have neither rigid_workers nor max_workers, so each holds 1 worker under it (big, small)"
	for _, c := range []struct {
		args []string
		warn bool
	}{
		{[]string{"plan", "--servers", "8", "--policy", "fcfs-rigid"}, true},
		{[]string{"plan", "--servers", "8", "--policy", "all"}, true},
		{[]string{"simulate", "--servers", "8", "--policy", "fcfs-rigid"}, true},
		{[]string{"plan", "--servers", "8", "--policy", "equi,fcfs-rigid"}, true},
		{[]string{"plan", "--servers", "8", "--policy", "hesrpt"}, false},
		{[]string{"plan", "--servers", "1", "--policy", "all"}, false},
	} {
		code, _, stderr := runCmd(t, append(c.args, "--jobs", jobs)...)
		if code != 0 || strings.Contains(stderr, want) != c.warn {
			t.Errorf("%v: exit %d, stderr %q; want the warning: %v", c.args, code, stderr, c.warn)
		}
	}
	// under all, a job too wide for fcfs-rigid leaves it out: no warning
	wide := writeTestFile(t, dir, "wide.csv", "job,arrival,size,p,rigid_workers\nbig,0,3600,0.9,\nw,0,100,0.5,16\n")
	if code, _, stderr := runCmd(t, "plan", "--jobs", wide, "--servers", "8", "--policy", "all"); code != 0 || strings.Contains(stderr, "neither rigid_workers nor max_workers") || !strings.Contains(stderr, "policy fcfs-rigid left out") {
		t.Errorf("fcfs-rigid left out: exit %d, stderr %q", code, stderr)
	}
	// one such job is "it", not "each"
	one := writeTestFile(t, dir, "one.csv", "job,arrival,size,p,rigid_workers\nbig,0,3600,0.9,\nr,0,100,0.5,2\n")
	if code, _, stderr := runCmd(t, "plan", "--jobs", one, "--servers", "8", "--policy", "fcfs-rigid"); code != 0 || !strings.Contains(stderr, "fcfs-rigid: 1 job has neither rigid_workers nor max_workers, so it holds 1 worker under it (big)") {
		t.Errorf("one job: exit %d, stderr %q", code, stderr)
	}
	// report under fcfs-rigid, and simulate's generated jobs without
	// --max-workers, say it too
	mp := fitModel(t, dir)
	for _, pol := range []string{"fcfs-rigid", "hesrpt"} { // (its comparison and simulation show fcfs-rigid under any)
		code, _, stderr := runCmd(t, "report", "--model", mp, "--jobs", jobs, "--servers", "8", "--policy", pol, "--out", filepath.Join(dir, "r-"+pol), "--seeds", "2", "--sim-jobs", "4", "--loads", "0.5")
		if code != 0 || !strings.Contains(stderr, strings.TrimPrefix(want, "sgdplan: warning: ")) {
			t.Errorf("report --policy %s: exit %d, stderr %q", pol, code, stderr)
		}
	}
	code, _, stderr := runCmd(t, "simulate", "--servers", "8", "--policy", "fcfs-rigid", "--arrival-rate", "0.001", "--p", "0.8", "--count", "20")
	if code != 0 || !strings.Contains(stderr, "fcfs-rigid: the generated jobs have no max_workers (--max-workers), so each holds 1 worker under it") {
		t.Errorf("simulate, generated jobs: exit %d, stderr %q", code, stderr)
	}
	if _, _, stderr = runCmd(t, "simulate", "--servers", "8", "--policy", "fcfs-rigid", "--arrival-rate", "0.001", "--p", "0.8", "--count", "20", "--max-workers", "4"); strings.Contains(stderr, "each holds 1 worker") {
		t.Errorf("simulate with --max-workers: %q", stderr)
	}
}

// --policy takes a comma list: the policies compared as under all, in the
// order given, each row the one all prints (a list was refused as one
// unknown name, "hesrpt,equi"); a bad list is bad input.
func TestPolicyList(t *testing.T) {
	jobs := filepath.Join(jobsExample, "jobs.csv")
	_, all, _ := runCmd(t, "plan", "--jobs", jobs, "--servers", "16", "--policy", "all")
	rows := map[string]string{}
	row := func(l string) []string { // a policy's row: its name, then numbers
		f := strings.Fields(l)
		if len(f) < 2 {
			return nil
		}
		if _, err := strconv.ParseFloat(f[1], 64); err != nil {
			return nil
		}
		return f
	}
	for _, l := range strings.Split(all, "\n") {
		if f := row(l); f != nil {
			rows[f[0]] = strings.Join(f, " ")
		}
	}
	code, out, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "16", "--policy", "srpt, numeric,equi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []string
	for _, l := range strings.Split(out, "\n") {
		f := row(l)
		if f == nil {
			continue
		}
		got = append(got, f[0])
		if strings.Join(f, " ") != rows[f[0]] {
			t.Errorf("%s: %q, under all %q", f[0], strings.Join(f, " "), rows[f[0]])
		}
	}
	if strings.Join(got, ",") != "srpt,numeric,equi" {
		t.Errorf("rows %v, want srpt, numeric, equi in that order:\n%s", got, out)
	}
	code, out, stderr = runCmd(t, "simulate", "--jobs", jobs, "--servers", "16", "--policy", "equi,fifo", "--format", "json")
	if code != 0 || strings.Count(out, `"policy": `) != 2 {
		t.Errorf("simulate equi,fifo: exit %d, %s%s", code, out, stderr)
	}
	for _, c := range []struct{ cmd, policy, want string }{
		{"plan", "hesrpt,,equi", "an empty name in the list"},
		{"plan", "hesrpt,all", "all stands alone"},
		{"plan", "equi,equi", "equi is named twice"},
		{"plan", "equi,bogus", `unknown policy "bogus"`},
		{"simulate", "equi, numeric", `unknown policy "numeric" for simulate`},
	} {
		code, _, stderr := runCmd(t, c.cmd, "--jobs", jobs, "--servers", "16", "--policy", c.policy)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s --policy %q: exit %d, %q; want exit 2 and %q", c.cmd, c.policy, code, stderr, c.want)
		}
	}
	// report plans with one: a list, or all, is refused in words (it said
	// unknown policy "hesrpt,equi")
	if code, _, stderr := runCmd(t, "report", "--model", fitModel(t, t.TempDir()), "--jobs", jobs, "--servers", "16", "--policy", "all", "--out", t.TempDir()); code != exitBadInput || !strings.Contains(stderr, "report compares every policy already") {
		t.Errorf("report --policy all: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCmd(t, "report", "--model", fitModel(t, t.TempDir()), "--jobs", jobs, "--servers", "16", "--policy", "hesrpt,equi", "--out", t.TempDir()); code != exitBadInput || !strings.Contains(stderr, "report plans with one policy") {
		t.Errorf("report --policy hesrpt,equi: exit %d, %q", code, stderr)
	}
	// numeric is plan's alone, said as simulate says it (report said
	// "unknown policy" only)
	if code, _, stderr := runCmd(t, "report", "--model", fitModel(t, t.TempDir()), "--jobs", jobs, "--servers", "16", "--policy", "numeric", "--out", t.TempDir()); code != exitBadInput || !strings.Contains(stderr, "report: --policy numeric: numeric is a search over the jobs' priorities that plan runs (sgdplan plan --policy numeric)") {
		t.Errorf("report --policy numeric: exit %d, %q", code, stderr)
	}
	// a name with spaces about it is the name, as in a list (" equi" was
	// refused where "hesrpt, equi" was taken)
	for _, cmd := range []string{"plan", "simulate"} {
		if code, stdout, stderr := runCmd(t, cmd, "--jobs", jobs, "--servers", "16", "--policy", " equi "); code != 0 || !strings.Contains(stdout, "equi") {
			t.Errorf("%s --policy \" equi \": exit %d, %q", cmd, code, stderr)
		}
	}
	// --knee-alpha is used by a list with knee in it
	if _, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "16", "--policy", "equi,knee", "--knee-alpha", "0.1"); strings.Contains(stderr, "--knee-alpha") {
		t.Errorf("equi,knee warned of --knee-alpha: %s", stderr)
	}
	if _, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "16", "--policy", "equi,srpt", "--knee-alpha", "0.1"); !strings.Contains(stderr, "--knee-alpha 0.1: --policy equi,srpt does not use it") {
		t.Errorf("equi,srpt did not warn of --knee-alpha: %s", stderr)
	}
}
