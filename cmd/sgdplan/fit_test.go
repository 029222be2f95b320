package main

import (
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
)

func init() {
	// -update rewrites the goldens; another test file may define it first.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

// fitGolden compares got (with dir replaced by $TMP) with testdata/name, or
// rewrites it under -update.
func fitGolden(t *testing.T, name, dir, got string) {
	t.Helper()
	if dir != "" {
		got = strings.ReplaceAll(got, dir, "$TMP")
	}
	path := filepath.Join("testdata", name)
	if flag.Lookup("update").Value.String() == "true" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/sgdplan -run 'Fit|Predict|Check' -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test ./cmd/sgdplan -run 'Fit|Predict|Check' -update, then review the diff)\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

var fitAsync = filepath.Join("testdata", "fit-async")

// fitModel fits the async fixture's queueing network (--family mva: the
// model whose link and shards predict, check and --bandwidth exercise) into
// dir/model.json and returns its path.
func fitModel(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	out := filepath.Join(dir, "model.json")
	code, _, stderr := runCmd(t, append([]string{"fit", fitAsync, "--family", "mva", "--out", out}, extra...)...)
	if code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	return out
}

func TestFitGolden(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCmd(t, "fit", fitAsync, "--out", filepath.Join(dir, "model.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fitGolden(t, "fit-async.golden", dir, stdout+"--- stderr\n"+stderr)
	code, stdout, stderr = runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", filepath.Join(dir, "t.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fitGolden(t, "fit-table.golden", dir, stdout+"--- stderr\n"+stderr)
}

// One worker count: the fit works (the two-node profile) and says what it
// cannot know.
func TestFitOneWorkerCountWarns(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "fit", fitAsync, "--train-workers", "1", "--out", filepath.Join(dir, "m.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"only one worker count", "lambda) is not identified"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestFitBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"nan loss", []string{filepath.Join("testdata", "fit-nanloss")}, "steps.csv:2:62: loss: NaN is not allowed"},
		{"no steady steps", []string{filepath.Join("testdata", "fit-nosteady")}, filepath.Join("testdata", "fit-nosteady", "steps.csv") + ": run w1: no steps end in the steady window [1, 9.5] s"},
		{"no path", nil, "no trace given"},
		{"absent", []string{filepath.Join(dir, "absent")}, "absent"},
		{"family", []string{fitAsync, "--family", "nope"}, `--family "nope"`},
		{"train", []string{fitAsync, "--train-workers", "x"}, `--train-workers: "x"`},
		{"train none", []string{fitAsync, "--train-workers", "7"}, "no run has a worker count in --train-workers [7]: the runs have 1, 2 or 4 workers"},
		{"train none, table", []string{filepath.Join("testdata", "fit-table"), "--train-workers", "3"}, "no throughput row has a worker count in --train-workers [3]: the rows have 1, 8, 16, 32 or 64 workers"},
		{"format", []string{fitAsync, "--format", "xml"}, `--format "xml"`},
		{"queueing", []string{fitAsync, "--queueing", "magic"}, `--queueing "magic"`},
		{"shared cores", []string{fitAsync, "--shared-cores", "-1"}, "--shared-cores -1"},
		{"bootstrap", []string{fitAsync, "--bootstrap", "-1"}, "--bootstrap -1: want 0 (no intervals) or 10 to 100000"},
		{"family for other data", []string{fitAsync, "--family", "optimus-sync"}, "does not apply to these data (asynchronous updates"},
		{"combine", []string{fitAsync, "--combine", "median"}, `--combine "median": want mean, one or all`},
		{"mean of one", []string{fitAsync, "--family", "mean(overhead-async)"}, "a mean family needs at least two members, got 1"}, // (its reason, not the list of families: TestFitMeanFamilyReasons)
	}
	for _, c := range cases {
		out := filepath.Join(dir, "m.json")
		code, _, stderr := runCmd(t, append(append([]string{"fit"}, c.args...), "--out", out)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: a model was written despite the error", c.name)
		}
		if m, _ := filepath.Glob(filepath.Join(dir, ".m.json.tmp*")); len(m) > 0 {
			t.Errorf("%s: temporary files left: %v", c.name, m)
		}
	}
}

func TestFitJSONAndPlot(t *testing.T) {
	dir := t.TempDir()
	png1 := filepath.Join(dir, "fit.png")
	out := filepath.Join(dir, "m.json")
	code, stdout, stderr := runCmd(t, "fit", fitAsync, "--out", out, "--plot", png1, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// the model went to --out as well as stdout: said on stderr, as the
	// table says it (it was silent, overwriting ./model.json by default)
	if note := "sgdplan: note: model written to " + out + "\n"; !strings.Contains(stderr, note) {
		t.Errorf("stderr %q, want %q", stderr, note)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("--out: %v", err)
	}
	var m struct {
		Schema     string `json:"schema"`
		Family     string `json:"family"`
		Parameters []struct {
			Name          string
			Value, Lo, Hi float64
		} `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatal(err)
	}
	if m.Schema != "sgdplan/model/v1" || m.Family == "" || len(m.Parameters) == 0 {
		t.Errorf("model json %+v", m)
	}
	for _, p := range m.Parameters {
		if !(p.Lo <= p.Value && p.Value <= p.Hi) {
			t.Errorf("parameter %s: %g outside [%g, %g]", p.Name, p.Value, p.Lo, p.Hi)
		}
	}
	f, err := os.Open(png1)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 200 {
		t.Errorf("figure %v too small", b)
	}
}

// fit -> predict round trip: the predicted steps/s at the fitted worker
// counts match the simulator's long-run rate within 5%.
func TestFitPredictRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,2,4", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var raw []map[string]any
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]float64
	for _, r := range raw {
		row := map[string]float64{}
		for k, v := range r {
			if f, ok := v.(float64); ok {
				row[k] = f
			}
		}
		rows = append(rows, row)
	}
	// The fixture's simulator has no contention: W workers whose
	// iterations last 2.1 p + apply + c + e (p = 10 ms, apply 2 ms, compute
	// 50 ms + Exp(50 ms)) make W / 0.123 updates/s in the long run. Its
	// short runs measure 8.489, 16.55 and 30.54 (fit-async.golden), a few
	// % off by the noise of 96 steps; the profile's network (which adds
	// a little queueing) is held to the long-run rate within 5%.
	for _, r := range rows {
		want := r["workers"] / (2.1*0.01 + 0.002 + 0.05 + 0.05)
		if e := math.Abs(r["steps_per_s"]-want) / want; e > 0.05 {
			t.Errorf("workers %g: predicted %.4g, the simulator's rate %.4g (%.1f%%)", r["workers"], r["steps_per_s"], want, 100*e)
		}
		for _, f := range []string{"steps_per_s", "samples_per_s", "speedup", "efficiency"} {
			if !(r[f+"_lo"] <= r[f] && r[f] <= r[f+"_hi"]) {
				t.Errorf("workers %g: %s %g outside [%g, %g]", r["workers"], f, r[f], r[f+"_lo"], r[f+"_hi"])
			}
		}
		if r["workers"] == 1 && r["speedup"] != 1 {
			t.Errorf("speedup at 1 worker %g", r["speedup"])
		}
		if _, ok := r["time_to_target_s"]; !ok {
			t.Errorf("no time to target though the model has a loss curve: %v", r)
		}
	}
}

// The real link-bound sweep: runs at 3 and 6 MB/s are different
// configurations (8 fitted from 1-2 workers), the runs table predicts each
// run at its own rate (r6000k-p1-n1: 1/(0.1018 + 2 x 0.0345) = 5.85
// updates/s, measured 5.72; the apply, 0.1 ms, is inside the push), mva is the only family (the table families
// are not applicable to two rates, and the fit says so); check at 8
// workers on 1 shard warns past the knee at 3 MB/s and, at 6 MB/s, later.
func TestFitASGDRates(t *testing.T) {
	asgd := filepath.Join("..", "..", "testdata", "asgd")
	if _, err := os.Stat(filepath.Join(asgd, "runs.csv")); err != nil {
		t.Skipf("no testdata/asgd: %v", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	code, stdout, stderr := runCmd(t, "fit", asgd, "--train-workers", "1,2", "--out", out, "--bootstrap", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, s := range []string{"fitted on 8 configurations", "link demand measured at 3e+06 B/s"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("fit output lacks %q:\n%s", s, stdout)
		}
	}
	if !regexp.MustCompile(`r6000k-p1-n1\s+1\s+1\s+6e\+06\s+5\.718\s+5\.853\s+fitted\n`).MatchString(stdout) {
		t.Errorf("no row r6000k-p1-n1 at 6e+06 B/s, measured 5.718, fitted 5.853:\n%s", stdout)
	}
	if !strings.Contains(stderr, "different link rates") || strings.Count(stdout, "  mva ") > 1 {
		t.Errorf("stderr %q\nstdout %s", stderr, stdout)
	}
	code, out3, _ := runCmd(t, "check", "--model", out, "--workers", "8", "--ps", "1")
	code6, out6, _ := runCmd(t, "check", "--model", out, "--workers", "8", "--ps", "1", "--bandwidth", "6e6")
	if code != exitWarn || code6 != exitWarn || !strings.Contains(out3, "knee at 2 workers") || !strings.Contains(out6, "knee at 4 workers") {
		t.Errorf("check: exit %d %q; at 6 MB/s exit %d %q", code, out3, code6, out6)
	}
	if code, _, stderr := runCmd(t, "check", "--model", out, "--workers", "8", "--bandwidth", "-1"); code != exitBadInput || !strings.Contains(stderr, "bandwidth -1") {
		t.Errorf("check --bandwidth -1: exit %d %q", code, stderr)
	}
	// a rate so low that the link demand is not finite (a panic before),
	// or below runs.csv's 1 B/s (1e-5 predicted): refused as bad input,
	// naming the rates taken; a low one within them still predicts, with
	// its warning
	const tooLow = "bandwidth 1e-310 B/s: want a link rate from 1 to 1e+15 B/s"
	for _, cmd := range [][]string{{"check", "--model", out, "--workers", "8"}, {"predict", "--model", out, "--workers", "1-2"}} {
		if code, _, stderr := runCmd(t, append(cmd, "--bandwidth", "1e-310")...); code != exitBadInput || !strings.Contains(stderr, tooLow) {
			t.Errorf("%s --bandwidth 1e-310: exit %d %q", cmd[0], code, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "predict", "--model", out, "--workers", "1-2", "--bandwidth", "1e-5"); code != exitBadInput || !strings.Contains(stderr, "bandwidth 1e-05 B/s: want a link rate from 1 to 1e+15 B/s") {
		t.Errorf("predict --bandwidth 1e-5: exit %d %q", code, stderr)
	}
	if code, _, stderr := runCmd(t, "predict", "--model", out, "--workers", "1-2", "--bandwidth", "10"); code != 0 || !strings.Contains(stderr, "outside the rates fitted") {
		t.Errorf("predict --bandwidth 10: exit %d %q", code, stderr)
	}
}

// --combine one keeps a single family where auto keeps a mean, on the
// same traces (the fit-async golden keeps mean(overhead-async,
// shardlink-async)).
func TestFitCombineOne(t *testing.T) {
	dir := t.TempDir()
	family := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runCmd(t, append([]string{"fit", fitAsync, "--bootstrap", "0", "--out", filepath.Join(dir, "m.json")}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		first, _, _ := strings.Cut(stdout, "\n")
		return first
	}
	if got := family(); !strings.HasPrefix(got, "family mean(") {
		t.Fatalf("auto: %q, want a mean", got)
	}
	if got := family("--combine", "one"); !strings.HasPrefix(got, "family ") || strings.Contains(got, "mean(") {
		t.Errorf("--combine one: %q, want one family", got)
	}
}

// A throughput.csv of several models (as convert writes the public tables)
// is refused unless --series picks one, which fits that model's rows only.
func TestFitSeries(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("workers,ps,batch,steps_per_s,mode,model\n")
	for _, w := range []int{1, 2, 4, 8} {
		fmt.Fprintf(&b, "%d,0,32,%g,allreduce,a\n", w, 1/(0.1+0.01*float64(w)))
		fmt.Fprintf(&b, "%d,0,32,%g,allreduce,b\n", w, 1/(0.2+0.03*float64(w)))
	}
	if err := os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.json")
	code, _, stderr := runCmd(t, "fit", dir, "--out", out)
	if code != exitBadInput || !strings.Contains(stderr, `holds 2 models ("a", "b")`) || !strings.Contains(stderr, "--series NAME") {
		t.Errorf("two models: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "fit", dir, "--series", "c", "--out", out)
	if code != exitBadInput || !strings.Contains(stderr, `--series "c": throughput.csv has no such model`) {
		t.Errorf("unknown series: exit %d, %q", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "fit", dir, "--series", "b", "--family", "overhead", "--bootstrap", "0", "--out", out, "--format", "json")
	if code != 0 {
		t.Fatalf("--series b: exit %d: %s", code, stderr)
	}
	var m struct {
		Data struct {
			Configurations []struct {
				StepsPerS float64 `json:"steps_per_s"`
			} `json:"configurations"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Data.Configurations); n != 4 || math.Abs(m.Data.Configurations[0].StepsPerS-1/0.23) > 1e-9 {
		t.Errorf("fitted %d configurations %+v, want model b's 4 (the first at %g steps/s)", n, m.Data.Configurations, 1/0.23)
	}
}

// The reference batch is the one measured at the most worker counts (the
// first in the data on a tie), not simply the first row's.
func TestMostMeasuredBatch(t *testing.T) {
	pt := func(w int, b float64) fit.Point { return fit.Point{Config: model.Config{Workers: w, Batch: b}} }
	per := func(p fit.Point) float64 { return p.Config.Batch }
	for _, c := range []struct {
		pts  []fit.Point
		want float64
	}{
		{[]fit.Point{pt(1, 16), pt(1, 32), pt(2, 32), pt(4, 32)}, 32},
		{[]fit.Point{pt(1, 16), pt(2, 16), pt(1, 32), pt(2, 32)}, 16},
		{[]fit.Point{pt(1, 0), pt(2, 0)}, 7},
	} {
		if got := fit.MostMeasured(c.pts, 7, per); got != c.want {
			t.Errorf("%v: %g, want %g", c.pts, got, c.want)
		}
	}
}

// fit names the reference batch only when the data hold several: under
// strong scaling one global batch is one batch, though its per-worker
// batch changes with the workers.
func TestReferenceBatchLine(t *testing.T) {
	one := &fit.Model{Reference: fit.Reference{GlobalBatch: 64}}
	for _, w := range []int{1, 2, 4, 8} {
		one.Data.Configurations = append(one.Data.Configurations, fit.ConfigData{Workers: w, Batch: 64 / float64(w)})
	}
	if line := referenceBatchLine(one); line != "" {
		t.Errorf("one global batch: %q, want no line", line)
	}
	two := *one
	two.Data.Configurations = append(slices.Clone(one.Data.Configurations), fit.ConfigData{Workers: 2, Batch: 64})
	if line := referenceBatchLine(&two); !strings.Contains(line, "the data hold 2 global batches") || !strings.Contains(line, "a global batch of 64 samples") {
		t.Errorf("two global batches: %q", line)
	}
	weak := &fit.Model{Reference: fit.Reference{Batch: 32}}
	for _, b := range []float64{32, 64, 32} {
		weak.Data.Configurations = append(weak.Data.Configurations, fit.ConfigData{Workers: 1, Batch: b})
	}
	if line := referenceBatchLine(weak); !strings.Contains(line, "the data hold 2 per-worker batches") || !strings.Contains(line, "use 32 samples per worker") {
		t.Errorf("two per-worker batches: %q", line)
	}
}

// fit --nnls lists the NNLS variants among the families tried (and not
// the forms that are not linear); --family takes a variant by name, and
// predict reads the model it writes.
func TestFitNNLS(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join("testdata", "fit-table")
	code, stdout, stderr := runCmd(t, "fit", table, "--nnls", "--out", filepath.Join(dir, "a.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"ernest/nnls", "optimus-sync/nnls"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("fit --nnls: no %q among the families tried:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "powerlaw/nnls") || strings.Contains(stdout, "pollux/nnls") {
		t.Errorf("fit --nnls tried a form that is not linear:\n%s", stdout)
	}
	code, stdout, _ = runCmd(t, "fit", table, "--out", filepath.Join(dir, "b.json"))
	if code != 0 || strings.Contains(stdout, "/nnls") {
		t.Errorf("fit without --nnls (exit %d) tried an NNLS variant:\n%s", code, stdout)
	}
	mp := filepath.Join(dir, "e.json")
	code, stdout, stderr = runCmd(t, "fit", table, "--family", "ernest/nnls", "--out", mp)
	if code != 0 || !strings.Contains(stdout, "family ernest/nnls") {
		t.Fatalf("fit --family ernest/nnls: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr = runCmd(t, "predict", "--model", mp, "--workers", "64"); code != 0 || !strings.Contains(stdout, "64") {
		t.Errorf("predict on an ernest/nnls model: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr = runCmd(t, "fit", table, "--family", "nope/nnls", "--out", filepath.Join(dir, "x.json")); code == 0 || !strings.Contains(stderr, "/nnls") {
		t.Errorf("fit --family nope/nnls: exit %d, %s", code, stderr)
	}
}

// The queueing network is measured on the 1-worker profile alone, so its
// error on the other training runs is out of sample without a refit: fit
// says so instead of calling it leave-one-configuration-out.
func TestFitProfileErrorWording(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCmd(t, "fit", fitAsync, "--family", "mva", "--out", filepath.Join(dir, "m.json"))
	if code != 0 || !strings.Contains(stdout, "% on the training runs besides the profile (out of sample") || strings.Contains(strings.SplitN(stdout, "\n\n", 2)[0], "leave-one-configuration-out") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// A run missing from runs.csv has no link rate: the runs table says it is
// predicted at the model's (it printed NaN).
func TestFitRunWithoutRate(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"steps.csv", "updates.csv", "evals.csv", "runs.csv"} {
		b, err := os.ReadFile(filepath.Join(fitAsync, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "runs.csv" {
			var keep []string
			for _, l := range strings.Split(string(b), "\n") {
				if !strings.HasPrefix(l, "w4,") {
					keep = append(keep, l)
				}
			}
			b = []byte(strings.Join(keep, "\n"))
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runCmd(t, "fit", dir, "--family", "mva", "--out", filepath.Join(dir, "m.json"), "--bootstrap", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "NaN") || !regexp.MustCompile(`w4\s+4\s+1\s+4e\+08 \(none: the model's\)`).MatchString(stdout) {
		t.Errorf("runs table:\n%s", stdout)
	}
}

// The reference batch follows what the table measures, not the column it
// is written in: weak scaling written as global_batch (32 samples a worker,
// global 32 to 256) is predicted at 32 a worker (it was a global batch of
// 32 split among the workers, and check failed 4 workers the table shows
// faster), and strong scaling written as batch (global 256) at a global
// batch of 256 (it was 256 a worker). Every row's nodes count: an empty
// first one left per_node unset. A table that mixes modes is bad input at
// the rows that differ (it failed after the fit, exit 1).
func TestFitTableReference(t *testing.T) {
	dir := t.TempDir()
	table := func(name, body string) (string, map[string]any) {
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "throughput.csv"), []byte(body), 0o644)
		mp := filepath.Join(d, "m.json")
		code, _, stderr := runCmd(t, "fit", d, "--out", mp, "--bootstrap", "20")
		if code != 0 {
			return stderr, nil
		}
		b, _ := os.ReadFile(mp)
		var m map[string]any
		json.Unmarshal(b, &m)
		return mp, m["reference"].(map[string]any)
	}
	var b strings.Builder
	b.WriteString("workers,ps,global_batch,steps_per_s,mode\n")
	for _, w := range []int{1, 2, 4, 8} {
		fmt.Fprintf(&b, "%d,0,%d,%.10g,allreduce\n", w, 32*w, 1/(0.05+0.002*32+0.01*float64(w-1)))
	}
	mp, ref := table("weak", b.String())
	if ref == nil || ref["batch"] != 32.0 || ref["global_batch"] != nil {
		t.Fatalf("weak scaling written as global_batch: reference %v (%s)", ref, mp)
	}
	if code, out, _ := runCmd(t, "check", "--model", mp, "--workers", "4"); code != 0 {
		t.Errorf("check 4 workers of a table 2.7x faster there: exit %d: %s", code, out)
	}
	b.Reset()
	b.WriteString("workers,ps,batch,steps_per_s,mode,nodes\n")
	for _, w := range []int{1, 2, 4, 8, 16} {
		per := 256 / float64(w)
		nodes := ""
		if w > 1 {
			nodes = fmt.Sprint(max(w/4, 1))
		}
		fmt.Fprintf(&b, "%d,0,%g,%.10g,allreduce,%s\n", w, per, 1/(0.01+0.001*per+0.004*float64(w-1)), nodes)
	}
	mp, ref = table("strong", b.String())
	if ref == nil || ref["global_batch"] != 256.0 || ref["per_node"] != 4.0 {
		t.Fatalf("strong scaling written as batch, first row without nodes: reference %v (%s)", ref, mp)
	}
	// the error names the first row of the other mode, file:line:column
	// (it named the run and the worker count only)
	msg, ref := table("mixed", "workers,ps,batch,steps_per_s,mode\n1,1,32,10,sync\n2,1,32,17,sync\n4,1,32,18,async\n8,1,32,19,sync\n")
	at := filepath.Join(dir, "mixed", "throughput.csv")
	if want := "fit: " + at + ":4:11: mode: async at 4 workers, but the first row (" + at + ":2:11) is sync: want one mode per model (give each mode its own model name in a model column"; ref != nil || !strings.Contains(msg, want) {
		t.Errorf("mixed modes: %s\nwant %s", msg, want)
	}
	// a file without a mode column after a sync one: its rows are async
	// by default, named at file:line
	syncRows, more := filepath.Join(dir, "sync", "throughput.csv"), filepath.Join(dir, "more", "throughput.csv")
	os.MkdirAll(filepath.Dir(syncRows), 0o755)
	os.MkdirAll(filepath.Dir(more), 0o755)
	os.WriteFile(syncRows, []byte("workers,ps,batch,steps_per_s,mode\n1,1,32,10,sync\n"), 0o644)
	os.WriteFile(more, []byte("workers,ps,batch,steps_per_s\n16,1,32,20\n"), 0o644)
	code, _, stderr := runCmd(t, "fit", syncRows, more, "--out", filepath.Join(dir, "more", "m.json"))
	if want := "fit: " + more + ":2: mode: async at 16 workers"; code != exitBadInput || !strings.Contains(stderr, want) {
		t.Errorf("mixed modes in two files: exit %d, %s\nwant exit 2 and %s", code, stderr, want)
	}
}

// Four parameters on three configurations: the bootstrap's intervals have
// no width, which read as certainty; the table says "not identified", and
// the CV error is "not scored" with the reason, not "fewer than 3
// configurations" of 3. An exact fit of 3 parameters on 3 single
// measurements says no uncertainty was measured.
func TestFitTableUnidentified(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("workers,ps,batch,steps_per_s,mode\n")
	for _, w := range []int{4, 8, 16} {
		tm := 0.01 + 0.002*32 + 0.005*math.Log2(float64(w)) + 0.002*float64(w)
		fmt.Fprintf(&b, "%d,0,32,%.10g,allreduce\n", w, 1/tm)
	}
	os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte(b.String()), 0o644)
	code, out, stderr := runCmd(t, "fit", dir, "--family", "ernest", "--out", filepath.Join(dir, "m.json"), "--bootstrap", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(out, "] not identified"); n != 4 || !strings.Contains(out, "MAPE n/a (not scored: without w=") || strings.Contains(out, "fewer than 3") {
		t.Errorf("%d parameters marked not identified, want 4:\n%s", n, out)
	}
	b.Reset()
	b.WriteString("workers,ps,batch,steps_per_s,mode\n")
	for _, w := range []int{4, 8, 16} { // the overhead form exactly
		fmt.Fprintf(&b, "%d,0,32,%.10g,allreduce\n", w, 1/(0.01+0.002*32+0.003*float64(w)))
	}
	os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte(b.String()), 0o644)
	code, out, stderr = runCmd(t, "fit", dir, "--family", "overhead", "--out", filepath.Join(dir, "m2.json"), "--bootstrap", "20")
	if code != 0 || strings.Contains(out, "] not identified") || strings.Count(out, "(exact fit: no measurement to spare") != 3 {
		t.Errorf("overhead, 3 on 3: exit %d:\n%s%s", code, out, stderr)
	}
}

// A table no form can follow (the rate falls with the workers) was fitted
// with two parameters at 0 in every refit and 3 on 3 configurations: the
// table called them an exact fit, with an RMSLE of 0.49, and the intervals
// that left out 2 of the 3 measurements went unremarked. The parameters are
// now at the form's bound, the fit is not exact, and a warning says it
// misses its own data.
func TestFitTableMissesItsData(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte("workers,ps,batch,samples_per_s\n1,1,64,100\n2,1,64,60\n4,1,64,30\n"), 0o644)
	code, out, stderr := runCmd(t, "fit", dir, "--out", filepath.Join(dir, "m.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// (the refits of this table leave the bound 0 since the solver holds a
	// bound the gradient points past and solves for the others: before,
	// they stopped where they started, and every interval read [0, 0])
	if strings.Contains(out, "exact fit") || !strings.Contains(out, "powerlaw-async.exponent                0      [0, 0.09602]") {
		t.Errorf("an exact fit claimed, or the exponent at 0 without its refits' interval:\n%s", out)
	}
	if !strings.Contains(stderr, "the fit misses its own data by 64% typically (RMSLE 0.493), and 2 of the 3 configurations it was fitted on") {
		t.Errorf("no warning that the fit misses its data:\n%s", stderr)
	}
	// a rate that halves with each doubling holds the power law's exponent
	// at its bound 0 in every refit: marked so, not an exact fit
	halves := filepath.Join(dir, "halves")
	os.MkdirAll(halves, 0o755)
	os.WriteFile(filepath.Join(halves, "throughput.csv"), []byte("workers,ps,batch,samples_per_s\n1,1,64,100\n2,1,64,50\n4,1,64,25\n"), 0o644)
	if code, hout, hstderr := runCmd(t, "fit", halves, "--out", filepath.Join(halves, "m.json")); code != 0 ||
		strings.Contains(hout, "exact fit") || !strings.Contains(hout, "powerlaw-async.exponent                0      [0, 0] (at the form's bound 0 in every refit: no uncertainty measured)") {
		t.Errorf("halving rate: exit %d, the exponent not marked at its bound:\n%s%s", code, hout, hstderr)
	}
	// series that differ in nodes are named by their nodes (the warning
	// named shards and batch alone, the same for both series)
	nodes := filepath.Join(dir, "nodes")
	os.MkdirAll(nodes, 0o755)
	os.WriteFile(filepath.Join(nodes, "throughput.csv"), []byte("workers,ps,batch,samples_per_s,nodes\n1,1,64,100,1\n2,1,64,110,1\n4,1,64,120,1\n2,1,64,55,2\n4,1,64,28,2\n8,1,64,14,2\n"), 0o644)
	if code, _, nstderr := runCmd(t, "fit", nodes, "--out", filepath.Join(nodes, "m.json")); code != 0 ||
		!strings.Contains(nstderr, "worst 8 workers, 1 shard, batch 64, 2 nodes: measured") ||
		!strings.Contains(nstderr, "(at 1 shard, batch 64, 2 nodes the data's samples/s fall from 55 at 2 workers to 28 at 4 workers") {
		t.Errorf("series by nodes: exit %d:\n%s", code, nstderr)
	}
	if !strings.Contains(stderr, "pin down 1 direction per member on average") || strings.Contains(stderr, "1 directions") {
		t.Errorf("want one direction, in the singular:\n%s", stderr)
	}
	// and one machine in the singular
	_, out, stderr = runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd", "cpu"), "--train-workers", "1", "--shared-cores", "2", "--out", filepath.Join(dir, "cpu.json"))
	if !strings.Contains(out, "compute shares 2 cores per machine, 1 machine\n") {
		t.Errorf("shared cores on one machine:\n%s%s", out, stderr)
	}
}

// When a warning says the fit is flat along a combination of parameters,
// the table marks those parameters' intervals "**" with a footnote (their
// narrow bootstrap intervals went unmarked), and the json lists them in
// diagnostics.flat_parameters: a mean family's members each (member.name),
// one family's by name, and none where no warning says so.
func TestFitFlatParametersMarked(t *testing.T) {
	dir := t.TempDir()
	const foot = "** not identified separately: the fit is flat along a combination of them"
	code, out, stderr := runCmd(t, "fit", fitAsync, "--out", filepath.Join(dir, "m.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, p := range []string{"overhead-async.fixed", "overhead-async.per_sample", "shardlink-async.fixed", "shardlink-async.per_sample"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(p) + ` .*\] \*\* `).MatchString(out) {
			t.Errorf("%s is not marked:\n%s", p, out)
		}
	}
	if n := strings.Count(out, "] **"); n != 4 || !strings.Contains(out, foot) {
		t.Errorf("%d intervals marked, want 4, and the footnote:\n%s", n, out)
	}
	code, js, stderr := runCmd(t, "fit", fitAsync, "--out", filepath.Join(dir, "m.json"), "--format", "json")
	var m struct {
		Diagnostics struct {
			Flat *[]string `json:"flat_parameters"`
		} `json:"diagnostics"`
	}
	if code != 0 || json.Unmarshal([]byte(js), &m) != nil || m.Diagnostics.Flat == nil ||
		!slices.Equal(*m.Diagnostics.Flat, []string{"overhead-async.fixed", "overhead-async.per_sample", "shardlink-async.fixed", "shardlink-async.per_sample"}) {
		t.Errorf("exit %d, %s: flat_parameters %v", code, stderr, m.Diagnostics.Flat)
	}
	// one family: the overhead form exactly, at one per-worker batch,
	// where fixed and per_sample trade one for the other
	var b strings.Builder
	b.WriteString("workers,ps,batch,steps_per_s,mode\n")
	for _, w := range []int{4, 8, 16} {
		fmt.Fprintf(&b, "%d,0,32,%.10g,allreduce\n", w, 1/(0.01+0.002*32+0.003*float64(w)))
	}
	os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte(b.String()), 0o644)
	code, js, stderr = runCmd(t, "fit", dir, "--family", "overhead", "--out", filepath.Join(dir, "m2.json"), "--bootstrap", "20", "--format", "json")
	m.Diagnostics.Flat = nil
	if code != 0 || json.Unmarshal([]byte(js), &m) != nil || m.Diagnostics.Flat == nil || !slices.Equal(*m.Diagnostics.Flat, []string{"fixed", "per_sample"}) {
		t.Errorf("overhead: exit %d, %s: flat_parameters %v, want fixed and per_sample", code, stderr, m.Diagnostics.Flat)
	}
	// no flat combination: no marks, no list
	code, out, _ = runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", filepath.Join(dir, "t.json"))
	_, js, _ = runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", filepath.Join(dir, "t.json"), "--format", "json")
	if code != 0 || strings.Contains(out, "**") || strings.Contains(js, "flat_parameters") {
		t.Errorf("fit-table: exit %d, marks or a list where no warning says the fit is flat:\n%s\n%s", code, out, js)
	}
}

// A file that is not a model.json, given as --model or in a jobs file's
// model column, is placed at its offending byte: a jobs.csv's j at 1:1 (it
// was 1:2, one column past it).
func TestModelSyntaxErrorColumn(t *testing.T) {
	dir := t.TempDir()
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p\na,0,100,0.5\n")
	outer := writeTestFile(t, dir, "outer.csv", "job,arrival,size,model\nb,0,100,jobs.csv\n")
	bad := writeTestFile(t, dir, "bad.json", "{\n  \"schema\": \"sgdplan/model/v1\",\n  \"family\": 12345\n}\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "--model", jobs, "--workers", "4"}, jobs + ":1:1: not a model.json: invalid character 'j' looking for beginning of value"},
		{[]string{"plan", "--jobs", outer, "--servers", "4"}, outer + `:2:9: model: job "b": ` + jobs + ":1:1: not a model.json: invalid character 'j' looking for beginning of value"},
		{[]string{"predict", "--model", bad, "--workers", "4"}, bad + ":3:13: field family: expected a string, got JSON number"},
	} {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, stdout, stderr, exitBadInput, c.want)
		}
	}
}

// fit's refusal of two link rates advised "fit each rate on its own",
// which fit has no flag for: it now says how, and both ways it names work
// on testdata/asgd (a folder of one rate's runs; --train-workers with 1).
func TestFitLinkRatesHow(t *testing.T) {
	asgd := filepath.Join("..", "..", "testdata", "asgd")
	if _, err := os.Stat(filepath.Join(asgd, "runs.csv")); err != nil {
		t.Skipf("no testdata/asgd: %v", err)
	}
	dir := t.TempDir()
	code, stdout, stderr := runCmd(t, "fit", asgd, "--train-workers", "3,4", "--out", filepath.Join(dir, "x.json"), "--bootstrap", "0")
	for _, want := range []string{
		"measured at 2 link rates (runs.csv bandwidth)",
		"; to fit one rate on its own, give fit a folder that holds its runs alone: their rows of steps.csv (and of runs.csv, updates.csv and evals.csv), found by the run column, each file with its header (the runs at 3e+06 B/s: r3000k-p1-n1, r3000k-p1-n2, r3000k-p1-n3 and 9 more; at 6e+06 B/s: r6000k-p1-n1, r6000k-p1-n2, r6000k-p1-n3 and 9 more)",
		"; or keep the 1-worker runs: --train-workers 1,3,4 (r3000k-p1-n1, r3000k-p2-n1, r6000k-p1-n1 and 1 more)\n",
	} {
		if code != exitBadInput || stdout != "" || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitBadInput, want)
		}
	}
	// the folder of the 3 MB/s runs: every file's rows of r3000k-*
	// (the run column comes first in each)
	one := filepath.Join(dir, "r3000k")
	if err := os.Mkdir(one, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"steps.csv.gz", "updates.csv.gz", "runs.csv", "evals.csv"} {
		f, err := os.Open(filepath.Join(asgd, name))
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = f
		if strings.HasSuffix(name, ".gz") {
			if r, err = gzip.NewReader(f); err != nil {
				t.Fatal(err)
			}
		}
		b, err := io.ReadAll(r)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		keep := lines[:1]
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, "r3000k-") {
				keep = append(keep, l)
			}
		}
		writeTestFile(t, one, strings.TrimSuffix(name, ".gz"), strings.Join(keep, ""))
	}
	if code, stdout, stderr := runCmd(t, "fit", one, "--train-workers", "3,4", "--out", filepath.Join(dir, "r3.json"), "--bootstrap", "0"); code != 0 || !strings.Contains(stdout, "fitted on 4 configurations") {
		t.Errorf("fit of the 3 MB/s folder: exit %d, %s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCmd(t, "fit", asgd, "--train-workers", "1,3,4", "--out", filepath.Join(dir, "a.json"), "--bootstrap", "0"); code != 0 || !strings.Contains(stdout, "family mva (async), fitted on 12 configurations") {
		t.Errorf("fit --train-workers 1,3,4: exit %d, %s%s", code, stdout, stderr)
	}
}

// fit --train-workers marks each run of its table fitted or held out and
// says how far off the fit is on the held-out ones (all 24 runs were
// listed alike, measured beside fitted, with no word of which the fit
// saw); without --train-workers no column.
func TestFitTableHeldOut(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--bootstrap", "20", "--out", filepath.Join(dir, "m.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n, h := strings.Count(out, " fitted\n"), strings.Count(out, " held out\n"); n != 8 || h != 16 {
		t.Errorf("%d runs marked fitted (want 8), %d held out (want 16):\n%s", n, h, out)
	}
	if !regexp.MustCompile(`held out by --train-workers: 16 runs, predicted [0-9.]+% off on average \(worst [0-9.]+%\), out of sample`).MatchString(out) {
		t.Errorf("no held-out summary:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^  r3000k-p1-n4 +4 +1 .* held out$`).MatchString(out) || !regexp.MustCompile(`(?m)^  r3000k-p1-n2 +2 +1 .* fitted$`).MatchString(out) {
		t.Errorf("runs marked wrong:\n%s", out)
	}
	_, out, _ = runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--bootstrap", "20", "--out", filepath.Join(dir, "m2.json"))
	if strings.Contains(out, "in the fit") || strings.Contains(out, "held out") {
		t.Errorf("without --train-workers:\n%s", out)
	}
}

// Under the held-out error of an mva fit, the same profile's error on those
// runs under the other --queueing variants: each the error a refit with
// that variant prints as its own (a user whose links suit another variant
// had to refit with each to find out).
func TestFitHeldOutOtherVariants(t *testing.T) {
	dir := t.TempDir()
	own := regexp.MustCompile(`held out by --train-workers: 16 runs, predicted ([0-9.]+% off on average \(worst [0-9.]+%\))`)
	other := regexp.MustCompile(`the same profile under the other --queueing variants, on these runs: (\w+) ([0-9.]+%) \(worst ([0-9.]+%)\), (\w+) ([0-9.]+%) \(worst ([0-9.]+%)\)`)
	said := map[string]map[string]string{} // variant -> what each other fit said of it
	for _, v := range []string{"exact", "correction", "flow"} {
		code, out, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--bootstrap", "0", "--queueing", v, "--out", filepath.Join(dir, v+".json"))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", v, code, stderr)
		}
		m, o := own.FindStringSubmatch(out), other.FindStringSubmatch(out)
		if m == nil || o == nil {
			t.Fatalf("%s: no held-out lines:\n%s", v, out)
		}
		if said[v] == nil {
			said[v] = map[string]string{}
		}
		said[v][v] = strings.Replace(m[1], "% off on average (worst ", "% (worst ", 1)
		for _, i := range []int{1, 4} {
			if o[i] == v {
				t.Errorf("%s lists itself among the others: %s", v, o[0])
			}
			if said[o[i]] == nil {
				said[o[i]] = map[string]string{}
			}
			said[o[i]][v] = o[i+1] + " (worst " + o[i+2] + ")"
		}
	}
	for v, by := range said {
		if len(by) != 3 {
			t.Errorf("%s: said by %d fits, want 3: %v", v, len(by), by)
		}
		for from, s := range by {
			if s != by[v] {
				t.Errorf("%s: the %s fit says %s, its own fit %s", v, from, s, by[v])
			}
		}
	}
}

// A throughput.csv beside steps.csv is not read by fit (the step fit reads
// the step traces): it was ignored without a word, even a broken one. fit
// now warns, on stderr and in model.json, and fits the same model.
func TestFitWarnsThroughputIgnored(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "mix")
	if err := os.CopyFS(trace, os.DirFS(fitAsync)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.json")
	fitJSON := func() (string, string) {
		t.Helper()
		code, stdout, stderr := runCmd(t, "fit", trace, "--bootstrap", "0", "--out", out, "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stdout, stderr
	}
	before, _ := fitJSON()
	tp := filepath.Join(trace, "throughput.csv")
	// broken: "abc" is not a number (inspect refuses it; fit does not read it)
	if err := os.WriteFile(tp, []byte("workers,ps,batch,steps_per_s\n1,1,32,abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, stderr := fitJSON()
	want := tp + " is ignored, not read: the trace has steps.csv, and fit reads the step traces (throughput.csv is fitted in a trace without them: give it alone to fit its rows)"
	if strings.Count(stderr, "sgdplan: warning: "+want+"\n") != 1 {
		t.Errorf("stderr lacks the warning %q once:\n%s", want, stderr)
	}
	var m struct {
		Diagnostics struct {
			Warnings []string `json:"warnings"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(after), &m); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Diagnostics.Warnings, want) {
		t.Errorf("model.json's warnings %q lack %q", m.Diagnostics.Warnings, want)
	}
	// the same fit: the model differs by the warning alone (before the
	// warning of --bootstrap 0, which fit adds after the step fit's)
	q, _ := json.Marshal(want)
	if got := strings.Replace(after, "      "+string(q)+",\n", "", 1); got != before {
		t.Errorf("the model changed beyond the warning:\n%s\nwant:\n%s", got, before)
	}
}

// fit --plot refuses a path that does not end in .png, before the fit, as
// it refuses an empty one: the figure is a PNG whatever the name, and
// p.svg (or .pdf) was written as one with exit 0. .PNG is a PNG's name.
func TestFitPlotNotPNG(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join("testdata", "fit-table")
	for _, name := range []string{"p.svg", "p.pdf", "p"} {
		out, plot := filepath.Join(dir, name+".json"), filepath.Join(dir, name)
		code, _, stderr := runCmd(t, "fit", table, "--out", out, "--plot", plot)
		if code != exitBadInput || !strings.Contains(stderr, "fit: --plot "+plot+": want a path ending in .png") {
			t.Errorf("--plot %s: exit %d, stderr %q", name, code, stderr)
		}
		for _, p := range []string{out, plot} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("--plot %s: %s was written", name, p)
			}
		}
	}
	plot := filepath.Join(dir, "p.PNG")
	if code, _, stderr := runCmd(t, "fit", table, "--out", filepath.Join(dir, "m.json"), "--plot", plot); code != 0 || strings.Contains(stderr, "--plot") {
		t.Errorf("--plot p.PNG: exit %d, stderr %q", code, stderr)
	}
	checkPNG(t, plot)
}

// A loss curve that cannot be fitted leaves the model without one, not
// without a model: fit refused its own model.json (exit 1, nothing
// written) when the fitted rate b0 was 0 (a loss that does not fall
// measurably beside its noise: fit-flatloss), when no run had 3 losses
// (the staleness law alone: fit-fewlosses), and when one of the curve's
// bootstrap resamples had b0 = 0 (fit-flatsample: a falling, noisy loss).
func TestFitUnfittableCurve(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		data, warn string
		curve      bool
	}{
		{"fit-flatloss", "loss curves: the fitted rate b0 is 0", false},
		{"fit-fewlosses", "no run has 3 or more finite losses: no loss curve", false},
		{"fit-flatsample", "", true},
	} {
		out := filepath.Join(dir, c.data+".json")
		code, _, stderr := runCmd(t, "fit", filepath.Join("testdata", c.data), "--out", out)
		if code != 0 || !strings.Contains(stderr, c.warn) {
			t.Errorf("%s: exit %d, stderr %q; want exit 0 and %q", c.data, code, stderr, c.warn)
			continue
		}
		m, err := fit.LoadModel(out)
		if err != nil {
			t.Fatalf("%s: %v", c.data, err)
		}
		e := m.Efficiency
		if e == nil || (e.B0 > 0) != c.curve {
			t.Errorf("%s: efficiency %+v, want a loss curve: %v", c.data, e, c.curve)
			continue
		}
		code, stdout, stderr := runCmd(t, "predict", "--model", out, "--workers", "1,2", "--target-loss", "0.6")
		if !c.curve {
			if code != exitBadInput || !strings.Contains(stderr, "the model has no loss curve") {
				t.Errorf("%s: predict --target-loss: exit %d, stderr %q; want exit 2, no loss curve", c.data, code, stderr)
			}
			continue
		}
		zero := 0
		for _, s := range e.CurveSamples {
			if s[0] == 0 {
				zero++
			}
		}
		if zero == 0 || code != 0 || !strings.Contains(stdout, "updates to target") {
			t.Errorf("%s: %d curve samples with b0 = 0 (want some: the case under test); predict exit %d, stdout %q", c.data, zero, code, stdout)
		}
	}
}

// --bootstrap 0 drops the resamples only: the widening beyond the data
// (one refit, or the profile's prior drift) and the rival forms resample
// nothing and are kept. They were dropped, while fit still warned that
// the intervals widen per doubling, so predict gave 12.59 [12.59, 12.59]
// at 8 workers of a profile fitted on 1-2.
func TestFitNoBootstrapKeepsExtrapolation(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		at   []string
	}{
		{"table", []string{filepath.Join("testdata", "fit-table")}, []string{"--workers", "512"}},
		{"profile", []string{filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2"}, []string{"--workers", "8", "--ps", "1", "--bandwidth", "3e6"}},
	} {
		out := filepath.Join(dir, c.name+".json")
		code, _, stderr := runCmd(t, append(append([]string{"fit"}, c.args...), "--bootstrap", "0", "--out", out)...)
		if code != 0 || !strings.Contains(stderr, "intervals widen by") {
			t.Fatalf("%s: exit %d, stderr %q; want exit 0 and the widening's warning", c.name, code, stderr)
		}
		m, err := fit.LoadModel(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Extrapolation == nil || len(m.Samples) > 0 {
			t.Errorf("%s: extrapolation %v, %d samples; want a widening and no samples", c.name, m.Extrapolation, len(m.Samples))
		}
		code, stdout, stderr := runCmd(t, append([]string{"predict", "--model", out, "--format", "json"}, c.at...)...)
		if code != 0 {
			t.Fatalf("%s: predict exit %d: %s", c.name, code, stderr)
		}
		var rows []struct {
			Value float64 `json:"steps_per_s"`
			Lo    float64 `json:"steps_per_s_lo"`
			Hi    float64 `json:"steps_per_s_hi"`
		}
		if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 1 {
			t.Fatalf("%s: %v: %s", c.name, err, stdout)
		}
		if r := rows[0]; !(r.Lo < 0.9*r.Value && r.Hi > 1.05*r.Value) {
			t.Errorf("%s: steps/s %+v beyond the data: want an interval widened past the point", c.name, r)
		}
	}
}

// A converted TensorBoard log (evals.csv and throughput.csv) feeds the
// loss-curve fit, as docs/instrumenting.md says: fit ignored its losses
// without a word, and predict then refused --target-loss for "no loss
// curve" beside the evals.csv it had.
func TestFitTableWithEvals(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	if code, _, stderr := runCmd(t, "convert", "--from", "tfevents", "--workers", "2", "--ps", "1", "--batch", "32", "--out", out, "../../traces/testdata/tfevents/events.out.tfevents.1000.sample"); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	mp := filepath.Join(dir, "model.json")
	code, _, stderr := runCmd(t, "fit", out, "--out", mp, "--bootstrap", "20")
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Efficiency *struct {
			B0, B1, B2 float64
			TargetLoss float64 `json:"target_loss"`
			Assumed    bool    `json:"staleness_assumed"`
		} `json:"efficiency"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Efficiency == nil || !(m.Efficiency.B0 > 0) || !m.Efficiency.Assumed {
		t.Fatalf("model.json efficiency %+v: want a loss curve, staleness assumed; fit said:\n%s", m.Efficiency, stderr)
	}
	if !strings.Contains(stderr, "taken as N - 1") {
		t.Errorf("fit: want the assumed staleness said:\n%s", stderr)
	}
	start := 1/m.Efficiency.B1 + m.Efficiency.B2
	target := strconv.FormatFloat((start+m.Efficiency.TargetLoss)/2, 'g', -1, 64)
	code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "2", "--target-loss", target, "--format", "json")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &rows) != nil || len(rows) != 1 {
		t.Fatalf("predict: exit %d: %s\n%s", code, stderr, stdout)
	}
	if u, _ := rows[0]["updates_to_target"].(float64); !(u > 0) {
		t.Errorf("predict --target-loss %s: updates_to_target %v, want > 0", target, rows[0]["updates_to_target"])
	}
}

// A table fit reads the dataset size from runs.csv for the runs its rows
// name, as a step fit does: predict --epochs refused it ("needs the
// dataset size") beside a runs.csv that gave it. By hand: one epoch of
// 50,000 samples at 32 samples an update is 1,562.5 updates; the table
// follows 10 k^0.7 updates/s exactly, so 2 workers take 1,562.5/(10 x
// 2^0.7) s.
func TestFitTableDataset(t *testing.T) {
	dir := t.TempDir()
	var tab strings.Builder
	tab.WriteString("workers,ps,batch,steps_per_s,mode,run\n")
	for _, k := range []int{1, 2, 4, 8} {
		fmt.Fprintf(&tab, "%d,1,32,%s,async,r%d\n", k, strconv.FormatFloat(10*math.Pow(float64(k), 0.7), 'g', -1, 64), k)
	}
	os.WriteFile(filepath.Join(dir, "throughput.csv"), []byte(tab.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "runs.csv"), []byte("run,dataset\nr1,50000\nr2,50000\n"), 0o644)
	mp := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", dir, "--family", "powerlaw-async", "--out", mp); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "predict", "--model", mp, "--workers", "2", "--epochs", "1", "--format", "json")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &rows) != nil || len(rows) != 1 {
		t.Fatalf("predict --epochs 1: exit %d: %s\n%s", code, stderr, stdout)
	}
	u, _ := rows[0]["updates_to_target"].(float64)
	tt, _ := rows[0]["time_to_target_s"].(float64)
	want := 1562.5 / (10 * math.Pow(2, 0.7))
	if math.Abs(u-1562.5) > 1e-9 || math.Abs(tt/want-1) > 1e-9 {
		t.Errorf("updates %v, time %v s: want 1562.5 and %g", rows[0]["updates_to_target"], rows[0]["time_to_target_s"], want)
	}
}

// fit says when an mva model has no link rate to scale from (runs.csv
// without bandwidth and param_bytes): predict --bandwidth refused it later,
// the first word of it; with them, it says the demand scales as S/B.
func TestFitSaysNoLinkRate(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "synthetic", "async-ps")
	dir := t.TempDir()
	steps, err := os.ReadFile(filepath.Join(src, "steps.csv"))
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, dir, "steps.csv", string(steps))
	writeTestFile(t, dir, "runs.csv", "run,mode\nw1,async\nw2,async\n")
	const note = "no link rate (runs.csv bandwidth and param_bytes; convert --bandwidth, --param-bytes)"
	code, out, stderr := runCmd(t, "fit", dir, "--family", "mva", "--out", filepath.Join(dir, "m.json"))
	if code != 0 || !strings.Contains(out, note) {
		t.Errorf("without a link rate: exit %d, %s%s", code, out, stderr)
	}
	code, out, stderr = runCmd(t, "fit", src, "--family", "mva", "--out", filepath.Join(dir, "m2.json"))
	if code != 0 || strings.Contains(out, "no link rate") || !strings.Contains(out, "scaled as S/B to other rates") {
		t.Errorf("with a link rate: exit %d, %s%s", code, out, stderr)
	}
}
