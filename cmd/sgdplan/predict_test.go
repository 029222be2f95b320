package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

func TestPredictGolden(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"predict-table.golden", []string{"--workers", "1-4,8,16", "--ps", "1,2"}},
		{"predict-csv.golden", []string{"--workers", "1,2,4", "--format", "csv", "--target-loss", "1.5"}},
		{"predict-bandwidth.golden", []string{"--workers", "1,8,32", "--bandwidth", "1e8", "--epochs", "1", "--format", "json"}},
	} {
		code, stdout, stderr := runCmd(t, append([]string{"predict", "--model", mp}, c.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.golden, code, stderr)
		}
		fitGolden(t, c.golden, dir, stdout+"--- stderr\n"+stderr)
	}
}

// A lower bandwidth makes the link demand larger: fewer steps/s at 32
// workers, where the link matters, and nearly the same at 1.
func TestPredictBandwidthScales(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	get := func(bw string) float64 {
		code, out, stderr := runCmd(t, "predict", "--model", mp, "--workers", "32", "--format", "csv", "--bandwidth", bw)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		v, err := strconv.ParseFloat(strings.Split(strings.Split(out, "\n")[1], ",")[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// The fixture's link: 4e6 B at 4e8 B/s = 0.01 s; at 4e7 B/s, 0.1 s:
	// with one shard at most 1/0.1 = 10 steps/s.
	slow := get("4e7")
	if slow > 10 {
		t.Errorf("32 workers at 4e7 B/s: %g steps/s, want under 10", slow)
	}
	if fast := get("4e8"); fast < 2*slow {
		t.Errorf("32 workers: %g steps/s at 4e8 B/s, %g at 4e7: want at least twice", fast, slow)
	}
}

func TestPredictBadInput(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "sgdplan/model/v9"}`), 0o644)
	garbage := filepath.Join(dir, "garbage.json")
	os.WriteFile(garbage, []byte("{\n  \"schema\": ,\n}"), 0o644)
	table := filepath.Join(dir, "table.json")
	if code, _, e := runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", table); code != 0 {
		t.Fatal(e)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unreadable", []string{"--model", filepath.Join(dir, "none.json")}, "none.json: no such file"},
		{"version", []string{"--model", bad}, `unknown schema version "sgdplan/model/v9"`},
		{"syntax", []string{"--model", garbage}, "garbage.json:2:"},
		{"workers", []string{"--model", mp, "--workers", "0-4"}, `--workers: "0-4": want numbers >= 1`},
		{"negative workers", []string{"--model", mp, "--workers", "-1"}, "no negative counts"},
		{"open range", []string{"--model", mp, "--workers", "1-"}, "a whole number at each end"},
		{"backward range", []string{"--model", mp, "--workers", "5-1"}, "from low to high"},
		{"ps 0", []string{"--model", mp, "--ps", "0"}, `--ps: "0": want numbers >= 1`},
		{"fractional batch", []string{"--model", mp, "--batch", "0.5"}, "--batch 0.5: want a whole number of samples, at least 1"},
		{"global batch below the workers", []string{"--model", mp, "--workers", "1-8", "--global-batch", "3"}, "among 4 workers leaves each 0.75 samples"},
		{"both targets", []string{"--model", mp, "--target-loss", "1", "--epochs", "2"}, "exclude each other"},
		{"floor", []string{"--model", mp, "--target-loss", "-1"}, "never reached"},
		{"above the start", []string{"--model", mp, "--target-loss", "50"}, "at or above the fitted loss at the start"},
		{"bandwidth family", []string{"--model", table, "--bandwidth", "1e9"}, "--bandwidth needs a queueing-network model"},
		{"no loss curve", []string{"--model", table, "--target-loss", "1"}, "has no loss curve"},
		{"format", []string{"--model", mp, "--format", "xml"}, `--format "xml"`},
	}
	for _, c := range cases {
		code, _, stderr := runCmd(t, append([]string{"predict"}, c.args...)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
	}
}

// --per-node places the workers: for the pollux family a job on one
// machine synchronises over the local link, on several over the network.
// Data from T = 0.1 + 0.001 b + sync, sync = 0.01 + 0.002 (w-2) on one node
// and 0.05 + 0.01 (w-2) across nodes (gamma 1).
func TestPredictPerNode(t *testing.T) {
	dir := t.TempDir()
	var rows strings.Builder
	rows.WriteString("workers,ps,batch,steps_per_s,mode,nodes\n")
	for _, c := range []struct{ w, nodes int }{{1, 1}, {2, 1}, {4, 1}, {8, 1}, {2, 2}, {4, 2}, {8, 2}, {8, 4}} {
		sync := 0.0
		switch {
		case c.w == 1:
		case c.nodes == 1:
			sync = 0.01 + 0.002*float64(c.w-2)
		default:
			sync = 0.05 + 0.01*float64(c.w-2)
		}
		fmt.Fprintf(&rows, "%d,0,32,%g,allreduce,%d\n", c.w, 1/(0.1+0.001*32+sync), c.nodes)
	}
	os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte(rows.String()), 0o644)
	mp := filepath.Join(dir, "m.json")
	if code, _, e := runCmd(t, "fit", filepath.Join(dir, "throughput.csv"), "--family", "pollux", "--out", mp, "--bootstrap", "0"); code != 0 {
		t.Fatal(e)
	}
	get := func(perNode string) float64 {
		code, out, e := runCmd(t, "predict", "--model", mp, "--workers", "8", "--per-node", perNode, "--format", "csv")
		if code != 0 {
			t.Fatal(e)
		}
		v, _ := strconv.ParseFloat(strings.Split(strings.Split(out, "\n")[1], ",")[2], 64)
		return v
	}
	// 8 workers on one node: T = 0.132 + 0.022 = 0.154 s (6.494 steps/s);
	// over 8 nodes: T = 0.132 + 0.11 = 0.242 s (4.132 steps/s).
	one, spread := get("8"), get("1")
	if math.Abs(one-6.494)/6.494 > 0.02 || math.Abs(spread-4.132)/4.132 > 0.02 {
		t.Errorf("8 workers: %g steps/s on one node (want 6.494), %g over 8 (want 4.132)", one, spread)
	}
}

// A table fitted on one machine (8 workers per machine): predicting 16
// workers puts them on 2 machines, which predict and check say on stderr;
// 8 workers stay on one and draw no such warning.
func TestPredictWarnsBeyondFittedNodes(t *testing.T) {
	dir := t.TempDir()
	var rows strings.Builder
	rows.WriteString("workers,ps,batch,steps_per_s,mode,nodes\n")
	for _, w := range []int{1, 2, 4, 8} {
		fmt.Fprintf(&rows, "%d,0,32,%g,allreduce,1\n", w, 1/(0.132+0.003*float64(w-1)))
	}
	os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte(rows.String()), 0o644)
	mp := filepath.Join(dir, "m.json")
	if code, _, e := runCmd(t, "fit", filepath.Join(dir, "throughput.csv"), "--out", mp); code != 0 {
		t.Fatal(e)
	}
	const warn = "the network between machines is not in the data"
	_, _, e := runCmd(t, "predict", "--model", mp, "--workers", "4,16")
	if !strings.Contains(e, "16 workers run on 2 machines, the data on at most 1") || !strings.Contains(e, warn) || !strings.Contains(e, "a profile run on 2 machines would measure it") {
		t.Errorf("predict 16 workers: stderr %q", e)
	}
	if _, _, e := runCmd(t, "predict", "--model", mp, "--workers", "8"); strings.Contains(e, warn) {
		t.Errorf("predict 8 workers warns: %q", e)
	}
	if _, _, e := runCmd(t, "check", "--model", mp, "--workers", "16"); !strings.Contains(e, warn) {
		t.Errorf("check 16 workers: stderr %q", e)
	}
}

// predict --batch B asks at B samples per worker and --global-batch G at G
// split among the workers: each printed rate is the model's own at that
// batch (fit.Model.StepsPerSecond with the batch given), outside the fitted
// batches a warning says so, and check reads the same flags.
func TestPredictBatch(t *testing.T) {
	for _, strong := range []bool{false, true} {
		mp := fitMultiBatch(t, strong)
		m, err := fit.LoadModel(mp)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			flag string
			v    float64
			warn bool
		}{{"--batch", 48, false}, {"--global-batch", 96, true}, {"--batch", 512, true}} {
			code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,2,4", c.flag, strconv.FormatFloat(c.v, 'g', -1, 64), "--format", "json")
			if code != 0 {
				t.Fatalf("%s %g: exit %d: %s", c.flag, c.v, code, stderr)
			}
			var rows []predictRow
			if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				b := c.v
				if c.flag == "--global-batch" {
					b = c.v / float64(r.Workers)
				}
				want := m.StepsPerSecond(model.Config{Workers: r.Workers, Batch: b})
				if math.Abs(r.StepsPerS-want) > 1e-9*want {
					t.Errorf("strong %v, %s %g, %d workers: %g steps/s, the model at batch %g: %g", strong, c.flag, c.v, r.Workers, r.StepsPerS, b, want)
				}
				// extrapolated: a count outside the fitted, or a worker's
				// batch outside the fitted batches,
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, d := range m.Data.Configurations {
					lo, hi = min(lo, d.Batch), max(hi, d.Batch)
				}
				// the row says the batch it is at (rows of several
				// queries could not be told apart)
				if math.Abs(r.Batch-b) > 1e-9*b {
					t.Errorf("strong %v, %s %g, %d workers: batch %g in the row, want %g", strong, c.flag, c.v, r.Workers, r.Batch, b)
				}
				beyond := r.Workers > m.Reference.MaxWorkers || r.Workers < m.FewestWorkers() || b < lo || b > hi
				// or the speedup's 1-worker base, which takes the whole
				// global batch (since 2026-12-07: its interval widens for it)
				if c.flag == "--global-batch" && r.Workers > 1 && (c.v < lo || c.v > hi) {
					beyond = true
				}
				if r.BeyondFittedWorker != beyond {
					t.Errorf("strong %v, %s %g, %d workers (batch %g, fitted %g to %g): extrapolated %v, want %v", strong, c.flag, c.v, r.Workers, b, lo, hi, r.BeyondFittedWorker, beyond)
				}
			}
			if got := strings.Contains(stderr, "outside them"); got != c.warn {
				t.Errorf("strong %v, %s %g: batch warning %v, want %v:\n%s", strong, c.flag, c.v, got, c.warn, stderr)
			}
		}
	}
	mp := fitMultiBatch(t, false)
	// fit says which batch the queries default to
	code, stdout, _ := runCmd(t, "fit", filepath.Dir(mp), "--out", filepath.Join(t.TempDir(), "m.json"), "--bootstrap", "10")
	if code != 0 || !strings.Contains(stdout, "use 32 samples per worker (the one measured at the most worker counts) unless --batch") {
		t.Errorf("fit: exit %d, no line naming the reference batch:\n%s", code, stdout)
	}
	// a Pollux fit on one machine: its network terms are the prior's, and
	// the parameter table and model.json say so
	pp := filepath.Join(t.TempDir(), "pollux.json")
	code, stdout, _ = runCmd(t, "fit", filepath.Dir(mp), "--family", "pollux", "--out", pp, "--bootstrap", "10")
	if code != 0 || !regexp.MustCompile(`(?m)^alpha_n .* s \*$`).MatchString(stdout) || !strings.Contains(stdout, "* set by the form's prior, not by the data") {
		t.Errorf("fit --family pollux: exit %d, alpha_n not marked as the prior's:\n%s", code, stdout)
	}
	if pm, err := fit.LoadModel(pp); err != nil || !pm.Parameters[4].Prior || pm.Parameters[0].Prior {
		t.Errorf("model.json parameters do not keep set_by_prior: %v", err)
	}
	for _, args := range [][]string{
		{"predict", "--model", mp, "--batch", "8", "--global-batch", "64"},
		{"predict", "--model", mp, "--batch", "0"},
		{"predict", "--model", mp, "--global-batch", "-4"},
		{"check", "--model", mp, "--workers", "2", "--batch", "-1"},
	} {
		if code, _, stderr := runCmd(t, args...); code != exitBadInput || !strings.Contains(stderr, "batch") {
			t.Errorf("%v: exit %d, %q: want 2 and a message about the batch", args, code, stderr)
		}
	}
	code, stdout, _ = runCmd(t, "check", "--model", mp, "--workers", "4", "--batch", "64")
	if code == exitBadInput || !strings.Contains(stdout, "at 4 workers") {
		t.Errorf("check --batch 64: exit %d:\n%s", code, stdout)
	}
}

// Beyond the fitted shards: a warning, and the speedup stays a ratio over
// one worker at the same shards: 1 at one worker (the shards' drift is
// shared and cancels) and, for the queueing network, at most the workers
// (X(n) <= n X(1) in a closed network). Before 2026-12-04 one worker at
// 100 shards printed speedup 1 [0.22, 4.6] and four workers [0.54, 29].
func TestPredictBeyondShards(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--out", mp, "--bootstrap", "40"); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,4,16", "--ps", "100", "--format", "json")
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "100 PS shards is beyond the 2 fitted") {
		t.Errorf("no warning beyond the fitted shards:\n%s", stderr)
	}
	// several counts beyond: the warning spans them (it named the first
	// alone, 3, for --ps 3,1000)
	if _, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "2", "--ps", "1,1000,3"); !strings.Contains(stderr, "3 and 1000 PS shards are beyond the 2 fitted") {
		t.Errorf("--ps 1,1000,3: want the counts beyond:\n%s", stderr)
	}
	if _, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "2", "--ps", "1-8"); !strings.Contains(stderr, "3 to 8 PS shards (6 counts) are beyond the 2 fitted") {
		t.Errorf("--ps 1-8: want the span of the counts beyond:\n%s", stderr)
	}
	var rows []predictRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Workers == 1 && (r.SpeedupLo != 1 || r.SpeedupHi != 1) {
			t.Errorf("1 worker: speedup interval [%g, %g], want [1, 1]", r.SpeedupLo, r.SpeedupHi)
		}
		if n := float64(r.Workers); r.SpeedupHi > n*(1+1e-12) || !(r.SpeedupLo <= r.Speedup && r.Speedup <= r.SpeedupHi) {
			t.Errorf("%d workers: speedup %g [%g, %g]: want inside and at most %g", r.Workers, r.Speedup, r.SpeedupLo, r.SpeedupHi, n)
		}
		if r.Workers > 1 && !(r.SpeedupHi > r.SpeedupLo) {
			t.Errorf("%d workers: beyond the fitted workers the interval [%g, %g] should have width", r.Workers, r.SpeedupLo, r.SpeedupHi)
		}
	}
	if code, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "4", "--ps", "2"); code != 0 || strings.Contains(stderr, "PS shards is beyond") {
		t.Errorf("2 shards (fitted): exit %d, %s", code, stderr)
	}
	// the queueing network has no term for the machines: --per-node says so
	if code, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "8", "--per-node", "4"); code != 0 || !strings.Contains(stderr, "--per-node: the mva model predicts alike however the workers are placed") {
		t.Errorf("--per-node on mva: exit %d, %s", code, stderr)
	}
}

// A batch so large that the target falls within one update is warned about
// (it printed 3.3e-15 updates with no word on what that means); a batch
// inside the data is not. (2^53 is the largest batch taken: 1e18 is
// refused.)
func TestPredictWarnsUnderOneUpdate(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	code, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "2", "--batch", "9007199254740992")
	if code != 0 || !strings.Contains(stderr, "less than one: the batch is so far beyond") {
		t.Errorf("batch 2^53: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "predict", "--model", mp, "--workers", "2")
	if code != 0 || strings.Contains(stderr, "less than one") {
		t.Errorf("the fitted batch: exit %d, stderr %q", code, stderr)
	}
	// the cause is named: it blamed the batch whatever it was
	code, _, stderr = runCmd(t, "predict", "--model", mp, "--workers", "2", "--epochs", "1e-9")
	if code != 0 || !strings.Contains(stderr, "less than one: --epochs 1e-09 is less than one update's samples") || strings.Contains(stderr, "the batch is") {
		t.Errorf("--epochs 1e-9: exit %d, stderr %q", code, stderr)
	}
}

// extrapolated (json, csv) is also true for more shards than fitted, not
// only for worker counts outside the data.
func TestPredictExtrapolatedShards(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	code, out, stderr := runCmd(t, "predict", "--model", mp, "--workers", "2", "--ps", "1,2", "--format", "json")
	var rows []predictRow
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 2 {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, stderr)
	}
	if rows[0].BeyondFittedWorker || !rows[1].BeyondFittedWorker {
		t.Errorf("extrapolated at 1 shard %v, at 2 %v; want false, true", rows[0].BeyondFittedWorker, rows[1].BeyondFittedWorker)
	}
}

// One run (testdata/asgd's 1-worker 1-shard profile) has loss curves at one
// staleness level: lambda is not identified. model.json says so, fit prints
// it instead of an interval [0, 0], and predict warns that the updates to
// target past one worker leave staleness out.
func TestLambdaNotIdentified(t *testing.T) {
	tr, _, err := traces.Load(filepath.Join("..", "..", "testdata", "asgd"))
	if err != nil {
		t.Fatal(err)
	}
	const run = "r3000k-p1-n1"
	one := &traces.Trace{
		Steps:   slices.DeleteFunc(tr.Steps, func(s traces.Step) bool { return s.Run != run }),
		Updates: slices.DeleteFunc(tr.Updates, func(u traces.Update) bool { return u.Run != run }),
		Evals:   slices.DeleteFunc(tr.Evals, func(e traces.Eval) bool { return e.Run != run }),
		Runs:    slices.DeleteFunc(tr.Runs, func(r traces.RunInfo) bool { return r.Run != run }),
	}
	dir := t.TempDir()
	if err := traces.WriteDir(filepath.Join(dir, "trace"), one); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(dir, "m.json")
	code, stdout, stderr := runCmd(t, "fit", filepath.Join(dir, "trace"), "--out", mp)
	if code != 0 || !strings.Contains(stdout, "staleness cost lambda 0 (not identified") {
		t.Fatalf("fit: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	m, err := fit.LoadModel(mp)
	if err != nil || m.Efficiency == nil || !m.Efficiency.LambdaFixed {
		t.Fatalf("model.json: %v %+v, want lambda_fixed", err, m.Efficiency)
	}
	_, _, stderr = runCmd(t, "predict", "--model", mp, "--workers", "1,4")
	if !strings.Contains(stderr, "the staleness cost is not identified") {
		t.Errorf("predict stderr %q: want the warning", stderr)
	}
}

// With --epochs the time is of the passes over the data, while the speedup
// column counts the staleness cost: predict says their ratios differ.
func TestPredictEpochsWarns(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	m, err := fit.LoadModel(mp)
	if err != nil || !m.EfficiencyVaries() || m.Reference.Dataset == 0 {
		t.Skipf("the fixture's model has no staleness cost or no dataset size: %v", err)
	}
	_, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,4", "--epochs", "2")
	if !strings.Contains(stderr, "--epochs 2: the time is for that many passes over the data") {
		t.Errorf("stderr %q: want the warning", stderr)
	}
	if _, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,4"); strings.Contains(stderr, "passes over the data") {
		t.Errorf("without --epochs: %q", stderr)
	}
}

// A link rate outside the fitted ones is an extrapolation: predict and
// check say so, and predict marks the rows (at 200 times the fitted
// rates, 1 worker's interval was ±0.4% without a word).
func TestBandwidthOutsideFittedWarns(t *testing.T) {
	asgd := filepath.Join("..", "..", "testdata", "asgd")
	if _, err := os.Stat(filepath.Join(asgd, "runs.csv")); err != nil {
		t.Skipf("no testdata/asgd: %v", err)
	}
	out := filepath.Join(t.TempDir(), "m.json")
	if code, _, stderr := runCmd(t, "fit", asgd, "--train-workers", "1,2", "--out", out, "--bootstrap", "20"); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	const warn = "link rate 1.25e+09 B/s is outside the rates fitted (3e+06 to 6e+06 B/s)"
	code, stdout, stderr := runCmd(t, "predict", "--model", out, "--workers", "1,2", "--bandwidth", "1.25e9", "--format", "json")
	if code != 0 || !strings.Contains(stderr, warn) || strings.Count(stdout, `"extrapolated": true`) != 2 {
		t.Errorf("predict at 1.25e9 B/s: exit %d, stderr %q, stdout %s", code, stderr, stdout)
	}
	if code, _, stderr := runCmd(t, "check", "--model", out, "--workers", "2", "--bandwidth", "1.25e9"); code == exitBadInput || !strings.Contains(stderr, warn) {
		t.Errorf("check at 1.25e9 B/s: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr = runCmd(t, "predict", "--model", out, "--workers", "1,2", "--bandwidth", "4e6", "--format", "json")
	if code != 0 || strings.Contains(stderr, "outside the rates") || strings.Contains(stdout, `"extrapolated": true`) {
		t.Errorf("predict at 4e6 B/s, between the fitted rates: exit %d, stderr %q, stdout %s", code, stderr, stdout)
	}
}

// A target loss below the lowest loss the fitted curve gives at the end of
// a fitted run extrapolates the loss curve: predict warns and marks the
// rows target_extrapolated (1e-9 gave 8.3e10 updates [8.3e10, 8.3e10] with
// no word and extrapolated: false). A target inside the data does not. A
// row with no target has no target_extrapolated (JSON) and an empty field
// (CSV), as it has no updates_to_target.
func TestPredictTargetBelowData(t *testing.T) {
	m := asgdModel(t, t.TempDir())
	b, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	var mf struct {
		Efficiency struct {
			LowestLoss float64 `json:"lowest_loss"`
			TargetLoss float64 `json:"target_loss"`
		} `json:"efficiency"`
	}
	if err := json.Unmarshal(b, &mf); err != nil {
		t.Fatal(err)
	}
	low := mf.Efficiency.LowestLoss
	if !(low > 0 && low <= mf.Efficiency.TargetLoss) {
		t.Fatalf("lowest_loss %g, target_loss %g: want 0 < lowest <= target", low, mf.Efficiency.TargetLoss)
	}
	for _, c := range []struct {
		target float64
		beyond bool
	}{{low * 0.9, true}, {low * 1.01, false}} {
		tl := strconv.FormatFloat(c.target, 'g', -1, 64)
		code, stdout, stderr := runCmd(t, "predict", "--model", m, "--workers", "1,2", "--target-loss", tl, "--format", "json")
		if code != 0 {
			t.Fatalf("target %s: exit %d: %s", tl, code, stderr)
		}
		if got := strings.Contains(stderr, ", the lowest loss the fitted curve gives at the end of a fitted run"); got != c.beyond {
			t.Errorf("target %s: warned %v, want %v: %s", tl, got, c.beyond, stderr)
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 2 {
			t.Fatalf("target %s: %v\n%s", tl, err, stdout)
		}
		for _, r := range rows {
			if r["target_extrapolated"] != c.beyond || r["updates_to_target"] == nil {
				t.Errorf("target %s: row %v: want target_extrapolated %v", tl, r, c.beyond)
			}
		}
		code, stdout, _ = runCmd(t, "predict", "--model", m, "--workers", "1", "--target-loss", tl, "--format", "csv")
		recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
		if code != 0 || err != nil || len(recs) != 2 {
			t.Fatalf("target %s: csv: exit %d, %v:\n%s", tl, code, err, stdout)
		}
		if col := slices.Index(recs[0], "target_extrapolated"); col < 0 || recs[1][col] != strconv.FormatBool(c.beyond) {
			t.Errorf("target %s: csv:\n%s", tl, stdout)
		}
	}
	// no target: a model without a loss curve
	tm := filepath.Join(t.TempDir(), "table.json")
	if code, _, e := runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", tm); code != 0 {
		t.Fatal(e)
	}
	code, stdout, stderr := runCmd(t, "predict", "--model", tm, "--workers", "1,2", "--format", "json")
	if code != 0 || strings.Contains(stdout, "target_extrapolated") || strings.Contains(stdout, "updates_to_target") {
		t.Errorf("no target: exit %d, %s\n%s", code, stderr, stdout)
	}
	code, stdout, _ = runCmd(t, "predict", "--model", tm, "--workers", "1", "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(recs) != 2 {
		t.Fatalf("no target: csv: exit %d, %v:\n%s", code, err, stdout)
	}
	if col := slices.Index(recs[0], "target_extrapolated"); col < 0 || recs[1][col] != "" {
		t.Errorf("no target: csv: target_extrapolated not empty:\n%s", stdout)
	}
}

// The JSON and CSV rows carry the fit's RMSLE, the figure the table's first
// line states (as "the fitted data lie about it by 3%, RMSLE 0.03"): a
// program reading them had the curve's intervals and no word that a single
// run scatters about the curve by more. Every row has model.json's
// diagnostics.rmsle, the CSV to its 10 digits.
func TestPredictFitRMSLE(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	b, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	var mf struct {
		Diagnostics struct {
			RMSLE float64 `json:"rmsle"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(b, &mf); err != nil {
		t.Fatal(err)
	}
	want := mf.Diagnostics.RMSLE
	if !(want > 0.005) {
		t.Fatalf("fixture's rmsle %g: want one the table states (above 0.005)", want)
	}
	code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,2", "--ps", "1,2", "--format", "json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(stdout), &rows); code != 0 || err != nil || len(rows) != 4 {
		t.Fatalf("json: exit %d, %v:\n%s%s", code, err, stdout, stderr)
	}
	for _, r := range rows {
		if got, ok := r["fit_rmsle"].(float64); !ok || got != want {
			t.Errorf("json row %v: fit_rmsle %v, want %g", r, r["fit_rmsle"], want)
		}
	}
	code, stdout, stderr = runCmd(t, "predict", "--model", mp, "--workers", "1,2", "--ps", "1,2", "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(recs) != 5 {
		t.Fatalf("csv: exit %d, %v:\n%s%s", code, err, stdout, stderr)
	}
	col := slices.Index(recs[0], "fit_rmsle")
	if col < 0 {
		t.Fatalf("csv header %v: no fit_rmsle", recs[0])
	}
	for _, r := range recs[1:] {
		if got, err := strconv.ParseFloat(r[col], 64); err != nil || math.Abs(got-want) > 1e-9*want {
			t.Errorf("csv row %v: fit_rmsle %q, want %g", r, r[col], want)
		}
	}
}

// The updates to target carry the loss curve's own uncertainty (its
// bootstrap samples in model.json) and one run's scatter about it
// (run_scatter, a factor e^(z s) each way): at 1 worker, where the
// staleness cost moves nothing, the interval has a width; a model without
// either has none there and is warned of; where the samples' floors reach the
// target often enough, the upper ends are unbounded: "inf" in the table
// and the CSV, null in JSON with target_may_never_be_reached, and a
// warning (+Inf made predict refuse the model as "not all finite").
func TestPredictUpdatesCurveUncertainty(t *testing.T) {
	dir := t.TempDir()
	mp := asgdModel(t, dir)
	raw := readModelDoc(t, mp)
	eff := raw["efficiency"].(map[string]any)
	samples, _ := eff["curve_samples"].([]any)
	if len(samples) < 10 {
		t.Fatalf("%d curve samples in the model", len(samples))
	}
	row := func(model string, args ...string) (map[string]any, string) {
		t.Helper()
		code, stdout, stderr := runCmd(t, append([]string{"predict", "--model", model, "--workers", "1", "--format", "json"}, args...)...)
		var rows []map[string]any
		if code != 0 || json.Unmarshal([]byte(stdout), &rows) != nil || len(rows) != 1 {
			t.Fatalf("predict: exit %d: %s\n%s", code, stderr, stdout)
		}
		return rows[0], stderr
	}
	const flat = "the updates to target at 1 worker, 1 shard have an interval of no width"
	r, stderr := row(mp)
	if !(r["updates_to_target_lo"].(float64) < r["updates_to_target_hi"].(float64)) || strings.Contains(stderr, flat) {
		t.Errorf("with the curve's samples, 1 worker: [%v, %v]; %s", r["updates_to_target_lo"], r["updates_to_target_hi"], stderr)
	}
	value := r["updates_to_target"].(float64)
	write := func(name string) string {
		t.Helper()
		out, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// the run scatter alone: u e^(-z s) to u e^(z s), z at 90%
	scatter, _ := eff["run_scatter"].(float64)
	if !(scatter > 0.01 && scatter < 1) {
		t.Fatalf("run_scatter %v", eff["run_scatter"])
	}
	delete(eff, "curve_samples")
	r, _ = row(write("scatter.json"))
	if w := math.Exp(1.6448536269514722 * scatter); math.Abs(r["updates_to_target_lo"].(float64)*w/value-1) > 1e-9 || math.Abs(r["updates_to_target_hi"].(float64)/w/value-1) > 1e-9 {
		t.Errorf("run scatter %g alone, 1 worker: %v [%v, %v], want %g times e^(-+1.645 s)", scatter, value, r["updates_to_target_lo"], r["updates_to_target_hi"], value)
	}
	delete(eff, "run_scatter")
	r, stderr = row(write("bare.json"))
	if r["updates_to_target_lo"] != r["updates_to_target_hi"] || r["updates_to_target"] != value || !strings.Contains(stderr, flat) || !strings.Contains(stderr, "the model holds no bootstrap samples of the curve") {
		t.Errorf("without the curve's samples, 1 worker: %v [%v, %v]; %s", r["updates_to_target"], r["updates_to_target_lo"], r["updates_to_target_hi"], stderr)
	}
	// a fifth of the samples with their floor at the target
	target := eff["target_loss"].(float64)
	for i, s := range samples {
		if i%5 == 0 {
			s.([]any)[2] = target
		}
	}
	eff["curve_samples"] = samples
	eff["run_scatter"] = scatter
	never := write("never.json")
	r, stderr = row(never)
	const warn = "have no upper end (inf): in 5% or more of the loss curve's bootstrap resamples its floor is at or above the target loss"
	if r["target_may_never_be_reached"] != true || r["updates_to_target_hi"] != nil || r["time_to_target_s_hi"] != nil || r["updates_to_target"] != value || !strings.Contains(stderr, warn) {
		t.Errorf("floors at the target: %v; %s", r, stderr)
	}
	// the keys are there, null (design.md's <field>_hi beside <field>_lo;
	// they were left out, a KeyError for a script)
	for _, k := range []string{"updates_to_target_hi", "time_to_target_s_hi"} {
		if v, ok := r[k]; !ok || v != nil {
			t.Errorf("%s: %v (present %v), want null", k, v, ok)
		}
	}
	code, stdout, _ := runCmd(t, "predict", "--model", never, "--workers", "1")
	if code != 0 || !regexp.MustCompile(`\[[0-9.e+]+, inf\]\s+\S+\s+\[[0-9.e+]+, inf\]`).MatchString(stdout) {
		t.Errorf("table: exit %d:\n%s", code, stdout)
	}
	code, stdout, _ = runCmd(t, "predict", "--model", never, "--workers", "1", "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(recs) != 2 {
		t.Fatalf("csv: exit %d, %v:\n%s", code, err, stdout)
	}
	for _, col := range []string{"updates_to_target_hi", "time_to_target_s_hi"} {
		if i := slices.Index(recs[0], col); i < 0 || recs[1][i] != "inf" {
			t.Errorf("csv %s:\n%s", col, stdout)
		}
	}
}

// A model fitted on runs that measured no staleness (1 worker only) takes
// staleness as N - 1 by assumption: model.json says so and predict's
// warning says it is assumed, where it said "predicted as ... on the
// project's real traces this law was 8.3% off" as for a fitted law.
func TestPredictStalenessAssumed(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		train, want string
		assumed     bool
	}{
		{"1", "staleness is taken as 1 x (N-1), an assumption: no fitted run with 2 or more workers measured it", true},
		{"1,2", "staleness is predicted as 0.9157 x (N-1), linear in N", false},
	} {
		mp := filepath.Join(dir, "m"+c.train+".json")
		code, out, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "synthetic", "async-ps"), "--train-workers", c.train, "--bootstrap", "20", "--out", mp)
		if code != 0 {
			t.Fatalf("fit: %s", stderr)
		}
		if strings.Contains(out, "x (N-1) (assumed: no fitted run with 2 or more workers measured it)") != c.assumed {
			t.Errorf("--train-workers %s: fit's table, want assumed %v:\n%s", c.train, c.assumed, out)
		}
		// one run of 3 evaluations: an exact fit of the curve's 3
		// parameters (lambda held), as the interval counts it
		const exact = "loss curve through 3 points (3 parameters: b0, b1 and b2, lambda held at 0): an exact fit"
		if strings.Contains(stderr, exact) != c.assumed {
			t.Errorf("--train-workers %s: exact-fit warning %v, want %v:\n%s", c.train, !c.assumed, c.assumed, stderr)
		}
		m, err := fit.LoadModel(mp)
		if err != nil {
			t.Fatal(err)
		}
		if m.Efficiency == nil || m.Efficiency.StalenessAssumed != c.assumed {
			t.Errorf("--train-workers %s: efficiency %+v, want staleness_assumed %v", c.train, m.Efficiency, c.assumed)
		}
		code, _, stderr = runCmd(t, "predict", "--model", mp, "--workers", "4")
		if code != 0 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "an assumption") != c.assumed {
			t.Errorf("--train-workers %s: exit %d, want %q:\n%s", c.train, code, c.want, stderr)
		}
	}
}

// --global-batch at the fitted per-worker batch: the rows are inside the
// data, but their speedup's base, 1 worker taking the whole global batch,
// is not; a warning says the speedups rest on the form's guess there
// (speedup 0.377 at 8 workers and 256 came with no word). With 1 worker
// in the list, or a global batch 1 worker was fitted at, none.
func TestPredictSpeedupBaseBatch(t *testing.T) {
	mp := asgdModel(t, t.TempDir())
	const warn = "the speedup and efficiency compare each row with 1 worker at the same global batch, outside the fitted batches"
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--workers", "8", "--global-batch", "256"}, true},
		{[]string{"--workers", "1", "--global-batch", "32"}, false},
		{[]string{"--workers", "8", "--batch", "32"}, false},
	} {
		code, _, stderr := runCmd(t, append([]string{"predict", "--model", mp}, c.args...)...)
		if code != 0 || strings.Contains(stderr, warn) != c.want {
			t.Errorf("%v: exit %d, warned %v, want %v:\n%s", c.args, code, !c.want, c.want, stderr)
		}
	}
}

// predict's staleness warning says what the interval holds: the queueing
// network's staleness for an mva model (and the 16 of 16 real runs it held,
// which were its check), the law's alone for a family with no network.
func TestPredictStalenessIntervalWarning(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		family string
		net    bool
	}{{"mva", true}, {"overhead-async", false}} {
		mp := filepath.Join(dir, c.family+".json")
		code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "synthetic", "async-ps"), "--family", c.family, "--bootstrap", "20", "--out", mp)
		if code != 0 {
			t.Fatalf("fit --family %s: %s", c.family, stderr)
		}
		code, _, stderr = runCmd(t, "predict", "--model", mp, "--workers", "8")
		if code != 0 {
			t.Fatalf("predict: %s", stderr)
		}
		if got := strings.Contains(stderr, "stretched to hold the queueing network's own staleness") && strings.Contains(stderr, "held all 16 of those runs"); got != c.net {
			t.Errorf("%s: the network's part and the 16 runs said %v, want %v:\n%s", c.family, got, c.net, stderr)
		}
		if !c.net && !strings.Contains(stderr, "knows nothing of the links' queueing") {
			t.Errorf("%s: no word that the interval is the law's alone:\n%s", c.family, stderr)
		}
	}
}

// Rows at one worker count and several batches are one configuration to
// the bootstrap (fit.Point.Key): fit says so, and predict names that
// cause, not --bootstrap 0 (the model was fitted with 200).
func TestPredictOneConfigurationManyBatches(t *testing.T) {
	dir := t.TempDir()
	tab := "workers,ps,batch,steps_per_s,mode\n4,0,32,10,allreduce\n4,0,64,6,allreduce\n4,0,128,3.4,allreduce\n4,0,256,1.8,allreduce\n"
	if err := os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte(tab), 0o644); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, "m.json")
	code, _, stderr := runCmd(t, "fit", dir, "--out", m)
	if code != 0 || !strings.Contains(stderr, "one configuration of workers and shards only (4 rows") {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCmd(t, "predict", "--model", m, "--workers", "4")
	if code != 0 || !strings.Contains(stderr, "one configuration of workers and shards (at 4 batches") || strings.Contains(stderr, "--bootstrap 0") {
		t.Errorf("predict: exit %d: %s", code, stderr)
	}
}

// A model whose own target loss is at or above its loss curve's start
// (efficiency.b1 large: the curve starts below the target) has 0 updates
// to target: predict printed no time to target and said nothing.
func TestPredictModelTargetAtCurveStart(t *testing.T) {
	dir := t.TempDir()
	mp := asgdModel(t, dir)
	raw := readModelDoc(t, mp)
	eff := raw["efficiency"].(map[string]any)
	target, b2 := eff["target_loss"].(float64), eff["b2"].(float64)
	const warn = "is at or above its loss curve's start"
	var speedup2 any
	for _, c := range []struct {
		b1   float64 // 0: the fitted one
		warn bool
	}{{0, false}, {2 / (target - b2), true}, {1e308, true}} {
		mc := mp
		if c.b1 > 0 {
			eff["b1"] = c.b1
			mc = filepath.Join(dir, "edited.json")
			writeModelDoc(t, mc, raw)
		}
		code, stdout, stderr := runCmd(t, "predict", "--model", mc, "--workers", "1,2", "--format", "json")
		var rows []map[string]any
		if code != 0 || json.Unmarshal([]byte(stdout), &rows) != nil || len(rows) != 2 {
			t.Fatalf("b1 %g: exit %d: %s\n%s", c.b1, code, stderr, stdout)
		}
		if got := strings.Contains(stderr, warn); got != c.warn {
			t.Errorf("b1 %g: warned %v, want %v: %s", c.b1, got, c.warn, stderr)
		}
		if _, has := rows[0]["updates_to_target"]; has == c.warn {
			t.Errorf("b1 %g: updates_to_target present %v, want %v", c.b1, has, !c.warn)
		}
		// the speedup is the ratio of times to any target the curve
		// reaches: (1 + lambda s) scales every target's updates, so the
		// edited target leaves it as the fitted model's
		if c.b1 == 0 {
			if speedup2 = rows[1]["speedup"]; speedup2 == nil {
				t.Fatalf("no speedup at 2 workers: %s", stdout)
			}
		} else if !reflect.DeepEqual(rows[1]["speedup"], speedup2) {
			t.Errorf("b1 %g: speedup at 2 workers %v, want the fitted model's %v", c.b1, rows[1]["speedup"], speedup2)
		}
	}
}
