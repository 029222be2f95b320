package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/plots"
)

// check's warnings hold the model's words predict prints beside the same
// configuration: past the batch law's fitted global batches, at samples
// per update the loss curve was not measured at, and the staleness law
// beyond the fitted workers. A gate reading check's exit code and
// warnings saw exit 4 on an extrapolated batch law with no word of it
// (the review of 2026-12-07).
func TestCheckWarnsAsPredict(t *testing.T) {
	dir := t.TempDir()
	gns := filepath.Join(dir, "gns.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--bootstrap", "20", "--out", gns); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	asgd := asgdModel(t, dir)
	for _, c := range []struct {
		args []string
		word string // a warning predict prints, which check must print too
	}{
		{[]string{"--model", gns, "--workers", "100"}, "the batch law (gradient noise scale"},
		{[]string{"--model", asgd, "--workers", "2", "--batch", "64"}, "the loss curve counts updates of"},
		{[]string{"--model", asgd, "--workers", "40"}, "staleness is predicted as"},
	} {
		_, _, pe := runCmd(t, append([]string{"predict"}, c.args...)...)
		var want string
		for _, l := range strings.Split(pe, "\n") {
			if w, ok := strings.CutPrefix(l, "sgdplan: warning: "); ok && strings.HasPrefix(w, c.word) {
				want = w
			}
		}
		if want == "" {
			t.Fatalf("predict %v prints no warning %q: the case under test is gone:\n%s", c.args, c.word, pe)
		}
		code, stdout, stderr := runCmd(t, append([]string{"check", "--format", "json"}, c.args...)...)
		var out checkJSON
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("check %v exit %d: %v: %s", c.args, code, err, stderr)
		}
		if !slices.Contains(out.Warnings, want) {
			t.Errorf("check %v: warnings %q lack predict's %q", c.args, out.Warnings, want)
		}
		if !strings.Contains(stderr, "sgdplan: warning: "+want+"\n") {
			t.Errorf("check %v: stderr lacks predict's warning %q:\n%s", c.args, want, stderr)
		}
	}
}

// plan and simulate say when a job's model was fitted above one worker:
// the job's size is on one worker, and the speedups that divide it are
// over one worker, which the model extrapolates (predict warned; plan and
// simulate did not). Once per model, naming its jobs; a model fitted from
// one worker gets no such line.
func TestPlanWarnsBelowFit(t *testing.T) {
	dir := t.TempDir()
	gns := filepath.Join(dir, "gns.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--bootstrap", "20", "--out", gns); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	asgdModel(t, dir) // asgd.json, fitted on 1 and 2 workers
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,model\na,0,1000,gns.json\nb,0,2000,gns.json\nc,0,500,asgd.json\n")
	want := "sgdplan: warning: 2 jobs (a, b) run on a model fitted on 2 workers and more: its size is its time on one worker, and the speedups that divide it are over one worker, which the model extrapolates below its data (predict warns the same), so the completion times rest on that extrapolation\n"
	for _, cmd := range [][]string{
		{"plan", "--jobs", jobs, "--servers", "3"},
		{"simulate", "--jobs", jobs, "--servers", "3"},
	} {
		code, _, stderr := runCmd(t, cmd...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", cmd, code, stderr)
		}
		if strings.Count(stderr, want) != 1 {
			t.Errorf("%v: stderr lacks (once) %q:\n%s", cmd, want, stderr)
		}
		if strings.Contains(stderr, "job c runs on a model") {
			t.Errorf("%v: the model fitted from one worker is named:\n%s", cmd, stderr)
		}
	}
	if _, _, pe := runCmd(t, "predict", "--model", gns, "--workers", "2"); !strings.Contains(pe, "one worker, the base of every speedup and efficiency, is extrapolated below the data") {
		t.Errorf("predict no longer warns of the base: the claim in plan's line is gone:\n%s", pe)
	}
}

// check's json names the counts its reason gives in words, so a gate need
// not parse them: knee_workers of a warn is the first count k whose next
// worker adds less than half a worker of speedup (predict's speedup
// column, the progress to the target), fastest_workers of a fail past the
// best time to target the count of predict's highest speedup; and the
// batch and link rate the verdict is at, as predict's rows give them.
func TestCheckJSONNamesTheCounts(t *testing.T) {
	m := filepath.Join(t.TempDir(), "asgd.json") // all of testdata/asgd: 1-8 workers
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--bootstrap", "20", "--out", m); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	_, stdout, stderr := runCmd(t, "predict", "--model", m, "--workers", "1-40", "--ps", "1", "--format", "json")
	var rows []predictRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 40 {
		t.Fatalf("predict: %v (%d rows): %s", err, len(rows), stderr)
	}
	sp := func(k int) float64 { return rows[k-1].Speedup }
	knee := 0
	for k := 1; k < 4 && knee == 0; k++ {
		if sp(k+1)-sp(k) < 0.5 {
			knee = k
		}
	}
	best := 1
	for k := 1; k <= 40; k++ {
		if sp(k) > sp(best) {
			best = k
		}
	}
	for _, c := range []struct {
		workers, knee, fastest int
		verdict                string
	}{{4, knee, 0, "warn"}, {40, 0, best, "fail"}} {
		_, stdout, stderr := runCmd(t, "check", "--model", m, "--workers", strconv.Itoa(c.workers), "--ps", "1", "--format", "json")
		var out checkJSON
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("check %d: %v: %s", c.workers, err, stderr)
		}
		if out.Verdict != c.verdict || out.KneeWorkers != c.knee || out.FastestWorkers != c.fastest {
			t.Errorf("check %d workers: %s, knee_workers %d, fastest_workers %d; want %s, %d, %d (from predict's speedups)\n%s", c.workers, out.Verdict, out.KneeWorkers, out.FastestWorkers, c.verdict, c.knee, c.fastest, out.Reason)
		}
		if r := rows[c.workers-1]; out.Batch != r.Batch || out.Bandwidth != r.Bandwidth || r.Bandwidth == 0 {
			t.Errorf("check %d workers at batch %g, %g B/s; predict's row at %g, %g B/s", c.workers, out.Batch, out.Bandwidth, r.Batch, r.Bandwidth)
		}
	}
	if knee == 0 || best == 40 {
		t.Fatalf("knee %d, fastest %d: the cases under test are gone", knee, best)
	}
}

// report takes --p as plan does: a jobs file with a row of neither p nor
// model, which plan --p plans, was refused by report naming no flag; with
// --p it is planned, the jobs that got it named on stderr and the page,
// and the "Made by" command carries it.
func TestReportTakesP(t *testing.T) {
	dir := t.TempDir()
	m := asgdModel(t, dir)
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p,model\na,0,1000,,\nb,0,2000,0.5,\nc,0,500,,asgd.json\n")
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "4", "--out", filepath.Join(dir, "r0"), "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5")
	if code != 2 || !strings.Contains(stderr, "jobs.csv:2:") || !strings.Contains(stderr, "(or give --p P") {
		t.Errorf("no --p: exit %d, want 2 naming the row and --p:\n%s", code, stderr)
	}
	out := filepath.Join(dir, "r1")
	code, _, stderr = runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "4", "--out", out, "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5", "--p", "0.7")
	if code != 0 {
		t.Fatalf("--p 0.7: exit %d: %s", code, stderr)
	}
	want := "--p 0.7 for 1 of 3 jobs, which have neither p nor model: a"
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "sgdplan: warning: "+want+"\n") || !strings.Contains(string(md), want) {
		t.Errorf("--p 0.7: stderr or summary.md lacks %q:\n%s", want, stderr)
	}
	if !strings.Contains(string(md), "--p 0.7`") {
		t.Errorf("the Made by command lacks --p 0.7:\n%.600s", md)
	}
	// plan gives job a the same completion with --p 0.7 as with p = 0.7 in its row
	_, withP, _ := runCmd(t, "plan", "--jobs", jobs, "--servers", "4", "--p", "0.7", "--format", "csv")
	inRow := writeTestFile(t, dir, "jobs2.csv", "job,arrival,size,p,model\na,0,1000,0.7,\nb,0,2000,0.5,\nc,0,500,,asgd.json\n")
	if _, got, _ := runCmd(t, "plan", "--jobs", inRow, "--servers", "4", "--format", "csv"); got != withP || got == "" {
		t.Errorf("plan --p 0.7:\n%s\nwith p 0.7 in the row:\n%s", withP, got)
	}
}

// simulate says, as plan does, that heSRPT is a heuristic on jobs whose
// curves are not one power law; on one power law it says nothing.
func TestSimulateSaysHeSRPTHeuristic(t *testing.T) {
	dir := t.TempDir()
	differ := writeTestFile(t, dir, "differ.csv", "job,arrival,size,p\na,0,1000,0.5\nb,10,2000,0.9\n")
	same := writeTestFile(t, dir, "same.csv", "job,arrival,size,p\na,0,1000,0.5\nb,10,2000,0.5\n")
	want := "sgdplan: warning: hesrpt: heSRPT is optimal only when every job has the same power-law curve k^p; here the exponents differ, so it allocates at the median exponent"
	if _, _, stderr := runCmd(t, "simulate", "--jobs", differ, "--servers", "4"); !strings.Contains(stderr, want) {
		t.Errorf("exponents 0.5 and 0.9: stderr lacks %q:\n%s", want, stderr)
	}
	if _, _, stderr := runCmd(t, "plan", "--jobs", differ, "--servers", "4"); !strings.Contains(stderr, "heSRPT is optimal only when every job has the same power-law curve; here the exponents differ") {
		t.Errorf("plan no longer says it: the claim of simulate's line is gone:\n%s", stderr)
	}
	for _, args := range [][]string{{"--jobs", same}, {"--jobs", differ, "--policy", "equi"}} {
		if _, _, stderr := runCmd(t, append([]string{"simulate", "--servers", "4"}, args...)...); strings.Contains(stderr, "heSRPT is optimal only") {
			t.Errorf("%v: a heSRPT note:\n%s", args, stderr)
		}
	}
}

// predict's json gives the busiest shard station's utilisation of a
// queueing-network model, so that check's "PS link saturated" (at 90% or
// more) follows from predict's numbers: the same station and percentage,
// and no saturation verdict below 0.9.
func TestPredictJSONGivesTheBusiestStation(t *testing.T) {
	m := asgdModel(t, t.TempDir())
	_, stdout, stderr := runCmd(t, "predict", "--model", m, "--workers", "2,8,12,40", "--ps", "1", "--format", "json")
	var rows []predictRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 4 {
		t.Fatalf("predict: %v: %s", err, stderr)
	}
	seen := map[bool]bool{}
	for _, r := range rows {
		if r.BusiestStation == "" || !(r.Busiest > 0 && r.Busiest <= 1) {
			t.Errorf("%d workers: busiest %q at %g: want a station and a utilisation in (0, 1]", r.Workers, r.BusiestStation, r.Busiest)
			continue
		}
		_, cs, _ := runCmd(t, "check", "--model", m, "--workers", strconv.Itoa(r.Workers), "--ps", "1", "--format", "json")
		var out checkJSON
		if err := json.Unmarshal([]byte(cs), &out); err != nil {
			t.Fatal(err)
		}
		sat := r.Busiest >= 0.9
		seen[sat] = true
		said := fmt.Sprintf("PS %s saturated: %.0f%% busy", r.BusiestStation, 100*r.Busiest)
		if strings.Contains(out.Reason, said) != sat || strings.Contains(out.Reason, "saturated") != sat {
			t.Errorf("%d workers: predict's busiest %s at %.3f; check: %s", r.Workers, r.BusiestStation, r.Busiest, out.Reason)
		}
	}
	if !seen[true] || !seen[false] {
		t.Errorf("saturated %v: the counts no longer span both sides of 0.9", seen)
	}
	// a table family has no network: no field
	table := filepath.Join(t.TempDir(), "table.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", table); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	_, stdout, _ = runCmd(t, "predict", "--model", table, "--workers", "2", "--format", "json")
	if !strings.Contains(stdout, `"workers": 2`) || strings.Contains(stdout, "busiest") {
		t.Errorf("a model without a network: %s", stdout)
	}
}

// The report's caption of the simulation figure writes the times of the
// means above the load axis as the figure's legend does (plots.Seconds):
// below 1,000 s with a decimal and from 10^6 s with an exponent, where
// it wrote "842 s" and "1,234,567 s" beside the legend's "842.3 s" and
// "1.235e+06 s".
func TestSimulationAboveNoteWritesTheLegendsSeconds(t *testing.T) {
	for _, c := range []struct {
		steady, faded float64
		want          string
	}{
		{50, 842.3, "fifo 842.3 s at load 0.5"},
		{1000, 1234567, "fifo 1.235e+06 s at load 0.5"},
		{1000, 15687, "fifo 15,687 s at load 0.5"},
	} {
		sim := plots.SimulationData{Loads: []plots.LoadPoint{
			{Policy: "equi", Load: 0.5, Mean: c.steady, Lo: c.steady, Hi: c.steady},
			{Policy: "fifo", Load: 0.5, Mean: c.faded, Lo: c.faded, Hi: c.faded, NotSteady: "*"},
		}}
		top, above := sim.LoadAxis()
		if len(above) != 1 {
			t.Fatalf("steady %g, faded %g: %d means above the axis, want 1: the case under test is gone", c.steady, c.faded, len(above))
		}
		note := simulationAboveNote(sim, []float64{0.5})
		if !strings.Contains(note, c.want) || !strings.Contains(note, "axis ends at "+plots.Seconds(top)+",") {
			t.Errorf("faded %g: %q lacks %q or the axis top %s", c.faded, note, c.want, plots.Seconds(top))
		}
	}
}

// check takes --per-node as predict does: the verdict's interval is
// predict's at the same placement (the cpu traces' model, fitted on one
// machine, widens when 4 workers are spread over 4), and --per-node 0 is
// refused naming the command.
func TestCheckPerNodeAsPredict(t *testing.T) {
	m := filepath.Join(t.TempDir(), "cpu.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd", "cpu"), "--shared-cores", "2", "--out", m); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	var widths []float64
	for _, pn := range []string{"1", "4"} {
		_, ps, _ := runCmd(t, "predict", "--model", m, "--workers", "4", "--per-node", pn, "--format", "json")
		var rows []predictRow
		if err := json.Unmarshal([]byte(ps), &rows); err != nil || len(rows) != 1 {
			t.Fatalf("predict --per-node %s: %v", pn, err)
		}
		_, cs, stderr := runCmd(t, "check", "--model", m, "--workers", "4", "--per-node", pn, "--format", "json")
		var out checkJSON
		if err := json.Unmarshal([]byte(cs), &out); err != nil {
			t.Fatalf("check --per-node %s: %v: %s", pn, err, stderr)
		}
		if out.StepsPerSLo != rows[0].StepsPerSLo || out.StepsPerSHi != rows[0].StepsPerSHi {
			t.Errorf("--per-node %s: check [%g, %g], predict [%g, %g]", pn, out.StepsPerSLo, out.StepsPerSHi, rows[0].StepsPerSLo, rows[0].StepsPerSHi)
		}
		widths = append(widths, out.StepsPerSHi-out.StepsPerSLo)
	}
	if !(widths[0] > widths[1]) {
		t.Errorf("interval widths %v: 4 machines (per-node 1) no wider than 1 (per-node 4): the case under test is gone", widths)
	}
	if code, _, stderr := runCmd(t, "check", "--model", m, "--workers", "4", "--per-node", "0"); code != 2 || !strings.Contains(stderr, "check: --per-node 0: want >= 1") {
		t.Errorf("--per-node 0: exit %d: %s", code, stderr)
	}
}

// predict's json marks a row extrapolated when only its speedup's
// 1-worker base is outside the fitted batches (--global-batch: 2 workers
// at 64 run 32 each, inside the data; one worker takes all 64, outside),
// since the speedup's interval widens for it; and an n/a verdict carries
// no knee or fastest count.
func TestExtrapolatedBaseAndNoCountsOnNA(t *testing.T) {
	m := asgdModel(t, t.TempDir())
	_, stdout, stderr := runCmd(t, "predict", "--model", m, "--workers", "2", "--ps", "1", "--global-batch", "64", "--format", "json")
	var rows []predictRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("predict: %v: %s", err, stderr)
	}
	if !rows[0].BeyondFittedWorker || rows[0].Batch != 32 {
		t.Errorf("2 workers at global batch 64 (32 each, the fitted batch): extrapolated %v at batch %g, want true (the base is at 64)", rows[0].BeyondFittedWorker, rows[0].Batch)
	}
	_, stdout, _ = runCmd(t, "predict", "--model", m, "--workers", "2", "--ps", "1", "--format", "json")
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil || rows[0].BeyondFittedWorker {
		t.Errorf("2 workers at the fitted batch: extrapolated %v (%v)", rows[0].BeyondFittedWorker, err)
	}
	if v := badVerdict(checkVerdict{knee: 3, fastest: 5}, "NaN steps/s"); v.knee != 0 || v.fastest != 0 || v.word != "n/a" {
		t.Errorf("n/a verdict: %+v", v)
	}
}
