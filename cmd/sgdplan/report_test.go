package main

import (
	"encoding/json"
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
	"github.com/sgdplan/sgdplan/planner"
	"github.com/sgdplan/sgdplan/plots"
	"github.com/urfave/cli/v2"
)

var reportJobs = filepath.Join("..", "..", "testdata", "jobs-example", "jobs.csv")

// reportModel fits the synthetic async traces with the closed-network
// family (whose bounds the fit figure draws) into a model.json in dir.
func reportModel(t *testing.T, dir string) string {
	t.Helper()
	m := filepath.Join(dir, "model.json")
	code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "synthetic", "async-ps"), "--family", "mva", "--out", m, "--bootstrap", "20")
	if code != 0 {
		t.Fatalf("fit exit %d:\n%s", code, stderr)
	}
	return m
}

func TestReport(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	out := filepath.Join(tmp, "report")
	code, stdout, stderr := runCmd(t, "report", "--model", m, "--jobs", reportJobs, "--servers", "16", "--out", out,
		"--seeds", "2", "--sim-jobs", "20", "--loads", "0.5,0.8")
	if code != 0 {
		t.Fatalf("report exit %d:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, filepath.Join(out, "index.html")) {
		t.Errorf("report does not say where it is: %q", stdout)
	}
	html, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	srcs := regexp.MustCompile(`<img src="([^"]*)"`).FindAllStringSubmatch(string(html), -1)
	var files []string
	for _, s := range srcs {
		files = append(files, s[1])
		f, err := os.Open(filepath.Join(out, s[1]))
		if err != nil {
			t.Errorf("<img src=%q> does not resolve: %v", s[1], err)
			continue
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s does not decode: %v", s[1], err)
		}
		f.Close()
	}
	// The synthetic traces have phases, staleness and a loss curve, so
	// every figure is there.
	if got := strings.Join(files, " "); got != "fit.png phases.png staleness.png convergence.png scaling.png plan.png simulation.png" {
		t.Errorf("figures %q, want fit phases staleness convergence scaling plan simulation", got)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	summary := string(md)
	for _, want := range []string{"## Fitted model: mva (async)", "| z0 |", "## Plan on 16 servers (hesrpt)", "| resnet50 |", "## Policy comparison", "| fcfs-rigid |", "load 0.8",
		// numeric starts from the best heuristic and improves on it: the
		// comparison holds it and names it (it named hesrpt without it)
		"| **numeric** |", "Least mean weighted flow time: **numeric**; the plan above is hesrpt's", // the jobs have weights
		"| policy | mean flow time (s) | mean weighted flow time (s) | mean slowdown |",
		// the jobs file does not name the model: the report says the plan leaves it out
		"No job of " + reportJobs + " names " + m} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}

	// Independent check: the policy comparison equals what plan prints.
	code, js, stderr := runCmd(t, "plan", "--jobs", reportJobs, "--servers", "16", "--policy", "equi", "--format", "json")
	if code != 0 {
		t.Fatalf("plan exit %d:\n%s", code, stderr)
	}
	var plan struct {
		MeanFlowTime float64 `json:"mean_flow_time"`
		MeanSlowdown float64 `json:"mean_slowdown"`
	}
	if err := json.Unmarshal([]byte(js), &plan); err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (?:\*\*)?equi(?:\*\*)? \| ([^|]+) \| [^|]+ \| ([^|]+) \|`).FindStringSubmatch(summary)
	if row == nil {
		t.Fatalf("no equi row in the policy comparison:\n%s", summary)
	}
	for i, want := range []float64{plan.MeanFlowTime, plan.MeanSlowdown} {
		got, err := strconv.ParseFloat(strings.TrimSpace(row[i+1]), 64)
		if err != nil || math.Abs(got-want) > 5e-4*want { // 4 significant digits
			t.Errorf("equi column %d: report %q, plan %g", i+1, row[i+1], want)
		}
	}
}

func TestReportBadInput(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	bad := filepath.Join(tmp, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "nope"`), 0o644)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no model", []string{"--jobs", reportJobs, "--servers", "4"}, "missing --model"},
		{"no servers", []string{"--model", m, "--jobs", reportJobs}, "missing --servers N"},
		{"zero servers", []string{"--model", m, "--jobs", reportJobs, "--servers", "0"}, "--servers 0"},
		{"loads", []string{"--model", m, "--jobs", reportJobs, "--servers", "4", "--loads", "0.5,1.2"}, `value 2 "1.2"`},
		{"loads twice", []string{"--model", m, "--jobs", reportJobs, "--servers", "4", "--loads", "0.5,0.50"}, `--loads: 0.5 given twice`},
		{"seeds", []string{"--model", m, "--jobs", reportJobs, "--servers", "4", "--seeds", "1"}, "--seeds 1"},
		{"policy", []string{"--model", m, "--jobs", reportJobs, "--servers", "4", "--policy", "best"}, `unknown policy "best"`},
		{"model file", []string{"--model", bad, "--jobs", reportJobs, "--servers", "4"}, "bad.json"},
		{"rigid", []string{"--model", m, "--jobs", reportJobs, "--servers", "4", "--policy", "fcfs-rigid"}, `needs 8 rigid workers`},
	} {
		out := filepath.Join(tmp, "out-"+strings.ReplaceAll(c.name, " ", "-"))
		code, _, stderr := runCmd(t, append([]string{"report", "--out", out}, c.args...)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.name, code, stderr, exitBadInput, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: wrote %s despite bad input", c.name, out)
		}
	}
}

func TestJobKnee(t *testing.T) {
	for _, c := range []struct {
		p     float64
		top   int
		alpha float64
		want  int
	}{
		// k^0.5: one more worker cuts the time by 1 - sqrt(k/(k+1)): at
		// k = 9 that is 1 - 0.9487 = 0.0513 >= 0.05, at k = 10
		// 1 - 0.9535 = 0.0465 < 0.05, so the knee is 10.
		{0.5, 64, 0.05, 10},
		// Linear: the cut is 1/(k+1) < 0.05 from k = 20 on; capped at 16.
		{1, 16, 0.05, 16},
		{1, 64, 0.05, 20},
		// k^0.2 at alpha 0.1: 1 - (k/(k+1))^0.2 is 0.1294 at k = 1 and
		// 0.0778 at k = 2: knee 2.
		{0.2, 64, 0.1, 2},
	} {
		if got := (planner.Knee{Alpha: c.alpha}).Workers(planner.PowerLaw{P: c.p}, c.top); got != c.want {
			t.Errorf("knee of k^%g (top %d, alpha %g) = %d, want %d", c.p, c.top, c.alpha, got, c.want)
		}
	}
}

func TestReportWorkloadLoad(t *testing.T) {
	// Two jobs of 100 s and 300 s: mean 200 s. At load 0.5 on 8 servers
	// the rate is 0.5 x 8 / 200 = 0.02 jobs/s, so 4000 jobs arrive over
	// about 200000 s and bring 0.5 x 8 x 200000 = 800000 s of work.
	jobs := []planner.Job{{ID: "a", Size: 100, Curve: planner.PowerLaw{P: 1}}, {ID: "b", Size: 300, Curve: planner.PowerLaw{P: 1}}}
	w := reportWorkload(jobs, 8, 0.5, 4000, 1)
	var work float64
	for i, j := range w {
		work += j.Size
		if i > 0 && j.Arrival < w[i-1].Arrival {
			t.Fatalf("arrivals decrease at %d", i)
		}
	}
	load := work / (w[len(w)-1].Arrival * 8)
	if math.Abs(load-0.5) > 0.05*0.5 {
		t.Errorf("offered load %.4g, want 0.5 within 5%%", load)
	}
}

// The defaults demo uses are the flags' defaults.
func TestReportDefaults(t *testing.T) {
	d := defaultReportOptions()
	for _, f := range reportCommand().Flags {
		switch f := f.(type) {
		case *cli.StringFlag:
			if f.Name == "policy" && f.Value != d.policy {
				t.Errorf("--policy default %q, defaultReportOptions %q", f.Value, d.policy)
			}
			if f.Name == "loads" {
				var parts []string
				for _, l := range d.loads {
					parts = append(parts, strconv.FormatFloat(l, 'g', -1, 64))
				}
				if got := strings.Join(parts, ","); got != f.Value {
					t.Errorf("--loads default %q, defaultReportOptions %q", f.Value, got)
				}
			}
		case *cli.IntFlag:
			if (f.Name == "seeds" && f.Value != d.seeds) || (f.Name == "sim-jobs" && f.Value != d.simJobs) {
				t.Errorf("--%s default %d differs from defaultReportOptions", f.Name, f.Value)
			}
		case *cli.Float64Flag:
			if f.Name == "knee-alpha" && f.Value != d.alpha {
				t.Errorf("--knee-alpha default %g, defaultReportOptions %g", f.Value, d.alpha)
			}
		}
	}
}

// The fit figure's measured points are those at the model's reference
// shards AND link rate: on the demo's traces (3 and 6 MB/s, fitted on 1-2
// workers, reference 3 MB/s and 1 shard) the points at 1 and 2 workers are
// the 3 MB/s runs alone, not an average with the 6 MB/s ones.
func TestReportFitDataOneLinkRate(t *testing.T) {
	tmp := t.TempDir()
	mp := filepath.Join(tmp, "model.json")
	code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--out", mp, "--bootstrap", "20")
	if code != 0 {
		t.Fatalf("fit exit %d:\n%s", code, stderr)
	}
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	if m.Reference.Bandwidth <= 0 {
		t.Skip("the traces carry no link rate")
	}
	want := map[float64]float64{}
	rates := map[float64]bool{}
	for _, c := range m.Data.Configurations {
		rates[c.Bandwidth] = true
		if c.PS == m.Reference.PS && c.Bandwidth == m.Reference.Bandwidth {
			want[float64(c.Workers)] = c.StepsPerS
		}
	}
	if len(rates) < 2 {
		t.Fatalf("model.json configurations record link rates %v, want the two of the traces", rates)
	}
	d, err := reportFitData(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Measured) != len(want) {
		t.Fatalf("%d measured points, want %d", len(d.Measured), len(want))
	}
	for _, o := range d.Measured {
		if w, ok := want[o.X]; !ok || math.Abs(o.Y-w) > 1e-12 {
			t.Errorf("measured point at %g workers: %g, want %g (the reference link rate's run)", o.X, o.Y, w)
		}
	}
}

// With several batches in the data, the fit figure shows only the points
// at the batch its curve is drawn at (the reference: the batch measured at
// the most worker counts, here the first row's), and
// says how many it leaves out: a point at another batch is not on the
// curve and would read as a misfit. Under strong scaling the batch is the
// global one.
func TestReportFitDataOneBatch(t *testing.T) {
	for _, strong := range []bool{false, true} {
		m, d := fitDataOf(t, fitMultiBatch(t, strong))
		if len(d.Measured) != 4 {
			t.Fatalf("strong %v: %d measured points, want the 4 of one batch", strong, len(d.Measured))
		}
		for _, o := range d.Measured {
			c := m.Config(model.Config{Workers: int(o.X)})
			if want := m.StepsPerSecond(c); math.Abs(o.Y-want)/want > 0.05 {
				t.Errorf("strong %v: point at %g workers %g, the curve %g: not at the curve's batch", strong, o.X, o.Y, want)
			}
		}
		if !strings.Contains(d.Title, "not shown: 4 points at other batches") {
			t.Errorf("strong %v: title %q does not say what it leaves out", strong, d.Title)
		}
	}
}

// fitMultiBatch fits (sgdplan fit, --bootstrap 20) a throughput table of 1,
// 2, 4 and 8 workers at two batches, 32 and 64 samples per worker (or, with
// strong, global batches of 32 and 64 split among the workers), from the
// step time 0.01 + 0.001 b + 0.002 (w-1) s, and returns the model's path.
func fitMultiBatch(t *testing.T, strong bool) string {
	t.Helper()
	tmp := t.TempDir()
	var b strings.Builder
	b.WriteString("workers,ps,batch,global_batch,steps_per_s,mode,nodes\n")
	for _, batch := range []int{32, 64} {
		for _, w := range []int{1, 2, 4, 8} {
			per := float64(batch)
			if strong {
				per = float64(batch) / float64(w)
			}
			rate := 1 / (0.01 + 0.001*per + 0.002*float64(w-1))
			if strong {
				fmt.Fprintf(&b, "%d,0,,%d,%g,allreduce,1\n", w, batch, rate)
			} else {
				fmt.Fprintf(&b, "%d,0,%d,%d,%g,allreduce,1\n", w, batch, batch*w, rate)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, "throughput.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(tmp, "model.json")
	if code, _, stderr := runCmd(t, "fit", tmp, "--out", mp, "--bootstrap", "20"); code != 0 {
		t.Fatalf("strong %v: fit exit %d:\n%s", strong, code, stderr)
	}
	return mp
}

func TestPredictedCounts(t *testing.T) {
	if got := predictedCounts([]int{1, 2, 3, 4, 6, 8}, 16); !slices.Equal(got, []int{1, 2, 3, 4, 6, 8, 16}) {
		t.Errorf("got %v, want the measured counts and 16", got)
	}
	if got := predictedCounts([]int{1}, 8); !slices.Equal(got, []int{1, 2, 4, 8}) {
		t.Errorf("got %v, want 1, 2, 4, 8", got)
	}
}

// saturatedFrom is the first count that check fails for a saturated shard
// station: check agrees at it and not one worker before.
func TestSaturatedFrom(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	k := saturatedFrom(m, 200, 1)
	if k < 2 {
		t.Fatalf("saturatedFrom = %d, want a count past 1 on the fixture's one shard", k)
	}
	at, before := verdict(m, k, 1), verdict(m, k-1, 1)
	if !strings.Contains(at.reason, "saturated") || strings.Contains(before.reason, "saturated") {
		t.Errorf("at %d: %q; at %d: %q", k, at.reason, k-1, before.reason)
	}
	if saturatedFrom(m, k-1, 1) != 0 {
		t.Errorf("saturatedFrom up to %d: want 0", k-1)
	}
}

// A rigid job wider than the cluster is fcfs-rigid's problem only: report
// leaves that policy out with a warning (it refused the whole report,
// where plan --policy hesrpt reads the file), numeric included; under
// --policy fcfs-rigid it is still refused at the job's line:col.
func TestReportRigidWiderThanCluster(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	jobs := filepath.Join("..", "..", "testdata", "jobs-example", "jobs.csv")
	out := filepath.Join(tmp, "r")
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "4", "--out", out, "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5")
	if code != 0 || !strings.Contains(stderr, `policy fcfs-rigid left out of the comparison and the simulation: job "resnet50" needs 8 rigid workers, more than the 4 servers`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "fcfs-rigid left out"); n != 1 {
		t.Errorf("fcfs-rigid left out said %d times (numeric's own warning repeated it):\n%s", n, stderr)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil || !strings.Contains(string(summary), "| **numeric**") && !strings.Contains(string(summary), "| numeric") {
		t.Errorf("numeric not in the comparison (%v):\n%s", err, summary)
	}
	code, _, stderr = runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "4", "--policy", "fcfs-rigid", "--out", filepath.Join(tmp, "r2"))
	if code != exitBadInput || !strings.Contains(stderr, "jobs.csv:2:26: rigid_workers") {
		t.Errorf("--policy fcfs-rigid: exit %d: %s", code, stderr)
	}
}

// On 1 server there is no speedup figure, and the report says why (it was
// left out without a word); "1 server", not "1 servers".
func TestReportOneServerNotes(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	out := filepath.Join(tmp, "r")
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", reportJobs, "--servers", "1", "--out", out, "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(md); !strings.Contains(s, "No speedup figure: on 1 server") || strings.Contains(s, "1 servers") || strings.Contains(s, "scaling.png") {
		t.Errorf("summary:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(out, "scaling.png")); err == nil {
		t.Errorf("scaling.png written on 1 server")
	}
}

// A job on a fitted model gets a note that ties its three counts together:
// the recommended workers if alone (the table's), the plan's start, and
// what check says at that start, word for word as check prints it.
func TestReportCountNotes(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	jobs := filepath.Join(tmp, "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,arrival,size,p,model,max_workers\nbig,0,20000,0.9,,\nfitted,0,5000,,"+filepath.Base(m)+",8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := quickReport(t, m, jobs, "16", filepath.Join(tmp, "r"))
	row := regexp.MustCompile(`(?m)^\| fitted \| [^|]+ \| ([0-9]+) \| [^|]+ \| ([0-9.]+) \|`).FindStringSubmatch(s)
	note := regexp.MustCompile(`(?m)^- fitted runs on a fitted model\. Recommended if alone: ([0-9]+) workers?, .* The plan starts it on ([0-9]+) workers?.*check --workers ([0-9]+)` + "`" + ` on its model says (.*) \(check's knee`).FindStringSubmatch(s)
	if row == nil || note == nil {
		t.Fatalf("no row or no note for the fitted job:\n%s", s)
	}
	if note[1] != row[1] || note[2] != note[3] {
		t.Errorf("note: recommended %s (table %s), plan start %s, check at %s", note[1], row[1], note[2], note[3])
	}
	if start, _ := strconv.ParseFloat(row[2], 64); math.Abs(start-mustAtof(t, note[2])) > 0.5 {
		t.Errorf("plan start %s in the table, %s in the note", row[2], note[2])
	}
	_, check, _ := runCmd(t, "check", "--model", m, "--workers", note[3])
	if first, _, _ := strings.Cut(check, "\n"); first != note[4] {
		t.Errorf("note quotes check as %q, check prints %q", note[4], first)
	}
}

// asgdReport is quickReport of the asgd model (asgdModel, asgd.json)
// with the jobs file jobsCSV on servers servers.
func asgdReport(t *testing.T, jobsCSV, servers string) string {
	t.Helper()
	tmp := t.TempDir()
	m := asgdModel(t, tmp)
	jobs := filepath.Join(tmp, "jobs.csv")
	if err := os.WriteFile(jobs, []byte(jobsCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	return quickReport(t, m, jobs, servers, filepath.Join(tmp, "r"))
}

// quickReport runs a small report (2 seeds, 10 simulated jobs, one load)
// of model m and jobs on servers into out and returns its summary.md.
func quickReport(t *testing.T, m, jobs, servers, out string) string {
	t.Helper()
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", servers, "--out", out, "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5")
	if code != 0 {
		t.Fatalf("report exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(md)
}

func mustAtof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Jobs with weights: the policy table has the weighted mean flow time
// (what numeric minimises), equal to plan's, and the best policy is named
// by it; without weights neither appears.
func TestReportWeightedFlow(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	jobs := filepath.Join(tmp, "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,arrival,size,p,weight\na,0,20000,0.9,1\nb,0,5000,0.5,4\nc,10,9000,0.7,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "r")
	s := quickReport(t, m, jobs, "8", out)
	if !strings.Contains(s, "| policy | mean flow time (s) | mean weighted flow time (s) |") || !strings.Contains(s, "Least mean weighted flow time: **") {
		t.Fatalf("no weighted column or best:\n%s", s)
	}
	_, js, _ := runCmd(t, "plan", "--jobs", jobs, "--servers", "8", "--policy", "equi", "--format", "json")
	var plan struct {
		W float64 `json:"mean_weighted_flow_time"`
	}
	if err := json.Unmarshal([]byte(js), &plan); err != nil || !(plan.W > 0) {
		t.Fatalf("plan json: %v %s", err, js)
	}
	row := regexp.MustCompile(`(?m)^\| (?:\*\*)?equi(?:\*\*)? \| [^|]+ \| ([^|]+) \|`).FindStringSubmatch(s)
	if row == nil || math.Abs(mustAtof(t, strings.TrimSpace(row[1]))-plan.W) > 5e-4*plan.W {
		t.Errorf("equi weighted flow: report %v, plan %g", row, plan.W)
	}
	// unweighted: the plain table
	os.WriteFile(jobs, []byte("job,arrival,size,p\na,0,20000,0.9\nb,0,5000,0.5\n"), 0o644)
	if s := quickReport(t, m, jobs, "8", out); strings.Contains(s, "weighted") || !strings.Contains(s, "Least mean flow time: **") {
		t.Errorf("unweighted jobs:\n%s", s)
	}
}

// Points measured at other shard counts are on the curve of a family that
// ignores the shards (a power law): the fit figure showed 2 of a
// tf-cnn-benchmarks series' 5 points (1, 1, 2, 4 and 4 shards), "3 other
// points not shown", and drew the curve to 16 workers where the data reach 64.
func TestReportFitDataFamilyIgnoresShards(t *testing.T) {
	tmp := t.TempDir()
	var b strings.Builder
	b.WriteString("workers,ps,batch,steps_per_s,mode,nodes\n")
	for i, w := range []int{1, 8, 16, 32, 64} {
		fmt.Fprintf(&b, "%d,%d,32,%g,sync,%d\n", w, []int{1, 1, 2, 4, 4}[i], 1.5*math.Pow(float64(w), -0.05), max(w/8, 1))
	}
	os.WriteFile(filepath.Join(tmp, "throughput.csv"), []byte(b.String()), 0o644)
	mp := filepath.Join(tmp, "model.json")
	if code, _, stderr := runCmd(t, "fit", tmp, "--family", "powerlaw", "--out", mp, "--bootstrap", "20"); code != 0 {
		t.Fatalf("fit exit %d:\n%s", code, stderr)
	}
	_, d := fitDataOf(t, mp)
	if len(d.Measured) != 5 || strings.Contains(d.Title, "not shown") || d.Curve[len(d.Curve)-1].X < 64 {
		t.Errorf("%d points, title %q, curve to %g: want all 5, to 64 workers or more", len(d.Measured), d.Title, d.Curve[len(d.Curve)-1].X)
	}
}

// A simulated run whose later jobs have a mean response time more than
// twice its earlier ones' is a growing queue (no steady state); a steady one is not.
// With one kind of job of speedup k^0.3 on 16 servers, srpt gives each job
// the whole cluster at a speedup of 2.3, so load 0.3 (counted at linear
// speedup) is 2.1 for it: the report marks and names it; equi, which
// shares the cluster, is stable.
func TestReportGrowingQueue(t *testing.T) {
	run := func(resp func(i int) float64) planner.Result {
		var r planner.Result
		for i := range 40 {
			r.Jobs = append(r.Jobs, planner.JobResult{Arrival: float64(i), Response: resp(i)})
		}
		return r
	}
	if !growingQueue(run(func(i int) float64 { return float64(10 * i) })) || growingQueue(run(func(i int) float64 { return 5 + float64(i%3) })) {
		t.Errorf("growingQueue: a linear growth not flagged, or a steady run flagged")
	}
	// srpt overloaded: the small jobs go at once, every 4th (large) waits
	// to the end: the mean response by half barely moves (248 and 243),
	// the jobs in the system at an arrival grow (2.5 then 7.5 on average)
	starve := func(i int) float64 {
		if i%4 == 0 {
			return 1000 - float64(i)
		}
		return 0.5
	}
	if !growingQueue(run(starve)) {
		t.Errorf("growingQueue: large jobs starving while the small go at once not flagged")
	}
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	jobs := filepath.Join(tmp, "one.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p\nsolo,0,3600,0.3\n"), 0o644)
	out := filepath.Join(tmp, "r")
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "16", "--out", out, "--seeds", "2", "--sim-jobs", "60", "--loads", "0.3")
	// srpt with one job type of speedup k^0.3 at load 0.3 is overloaded:
	// it still grows over 4 times the jobs
	// (named with the policies that grow at the same loads: "srpt, fifo
	// and sjf at load 0.3")
	if code != 0 || !regexp.MustCompile(`simulation: for (\w+, )*(\w+ and )?srpt( and \w+|, \w+)* at load 0\.3 \(`).MatchString(stderr) || !strings.Contains(stderr, "(marked * in the table) the queue grows through runs of 60 jobs and still through runs 4 times as long") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	if !regexp.MustCompile(`(?m)^\| srpt \| [^|]* \* \|`).Match(md) || regexp.MustCompile(`(?m)^\| equi \| [^|]* \* \|`).Match(md) {
		t.Errorf("srpt not marked, or equi marked:\n%s", md)
	}
	// the figure fades those cells, and its caption says so (it drew
	// them as ordinary means)
	if !strings.Contains(string(md), "marked * or † in the table), and the faded curves on the left (the policies so marked at its load), are no steady-state values") {
		t.Errorf("the simulation caption does not say which points are no steady state:\n%s", md)
	}
}

// The count note says what the recommended count is when it is not the
// knee: the job's max_workers below it, or the whole cluster when the knee
// lies beyond it (it called both "its knee", beside check's "the 3rd would
// add 28%").
func TestReportCountNotesCapped(t *testing.T) {
	tmp := t.TempDir()
	m := asgdModel(t, tmp)
	jobs := filepath.Join(tmp, "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p,model,max_workers\nbig,0,20000,0.9,,\ncapped,0,5000,,asgd.json,3\n"), 0o644)
	if s := quickReport(t, m, jobs, "16", filepath.Join(tmp, "r16")); !strings.Contains(s, "Recommended if alone: 3 workers, its max_workers (its knee on 16 servers is 5 workers).") {
		t.Errorf("capped job on 16 servers:\n%s", s)
	}
	if s := quickReport(t, m, jobs, "2", filepath.Join(tmp, "r2")); !strings.Contains(s, "Recommended if alone: all 2 servers (its knee lies beyond them") {
		t.Errorf("2 servers:\n%s", s)
	}
}

// On a cluster smaller than the fitted worker counts, the convergence
// caption names the best the cluster holds first, with the curve's own
// best beyond it named as such (it said "fastest at N = 2" on 1 server).
// On the asgd model the time to target falls all the way, so neither is
// called the fastest: both are the ends of what is drawn (it said
// "fastest at N = 1 on the cluster's 1 server ... fastest at N = 2").
func TestReportConvergenceFastestInCluster(t *testing.T) {
	s := asgdReport(t, "job,arrival,size,p\na,0,100,0.5\n", "1")
	if !strings.Contains(s, "still falling at N = 1, all the cluster's 1 server, ") || !strings.Contains(s, "drawn beyond it to the fitted worker counts, is still falling at N = 2, the largest drawn, ") || strings.Contains(s, "fastest at") {
		t.Errorf("caption:\n%s", s)
	}
}

// The convergence caption calls the least predicted time to target the
// fastest only when the curve rises past it (the fit-async model: fastest
// on one worker); when it is least at the largest worker count drawn (the
// asgd model on 16 servers) the time is still falling there (the caption
// called the end of the drawn range "fastest at N = 16").
func TestReportConvergenceStillFalling(t *testing.T) {
	tmp := t.TempDir()
	jobs := filepath.Join(tmp, "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p\na,0,100,0.5\n"), 0o644)
	if s := quickReport(t, fitModel(t, tmp), jobs, "8", filepath.Join(tmp, "r-async")); !strings.Contains(s, "fastest at N = 1, ") || strings.Contains(s, "still falling") {
		t.Errorf("fit-async model, fastest on 1 worker: caption:\n%s", s)
	}
	if s := quickReport(t, asgdModel(t, tmp), jobs, "16", filepath.Join(tmp, "r-asgd")); !strings.Contains(s, "still falling at N = 16, the largest drawn, ") || strings.Contains(s, "fastest at") {
		t.Errorf("asgd model, least at 16 of 1 to 16: caption:\n%s", s)
	}
}

// A model fitted on one configuration: the report's parameter table says
// its parameters are not identified and the note does not call the
// zero-width intervals bootstrap intervals (the warnings said there was no
// bootstrap).
func TestReportOneConfigurationModel(t *testing.T) {
	tmp := t.TempDir()
	os.WriteFile(filepath.Join(tmp, "throughput.csv"), []byte("workers,ps,batch,samples_per_s\n1,1,32,300\n"), 0o644)
	m := filepath.Join(tmp, "m.json")
	if code, _, stderr := runCmd(t, "fit", tmp, "--out", m); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	jobs := filepath.Join(tmp, "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p\na,0,100,0.5\n"), 0o644)
	s := quickReport(t, m, jobs, "4", filepath.Join(tmp, "r"))
	if strings.Count(s, "| not identified: more parameters than configurations |") != 2 || strings.Contains(s, "bootstrap percentile") || !strings.Contains(s, "no bootstrap to measure them") {
		t.Errorf("summary:\n%s", s)
	}
}

// asgdModel fits the demo's model (testdata/asgd, runs with at most 2
// workers, 20 bootstrap refits) into dir/asgd.json and returns its path.
func asgdModel(t *testing.T, dir string) string {
	t.Helper()
	m := filepath.Join(dir, "asgd.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--out", m, "--bootstrap", "20"); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	return m
}

// The simulation table's times: whole seconds up to seven digits, then 4
// significant digits with an exponent (it printed 333333333333 where the
// plan writes 3.333e+11).
func TestReportNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{12.345678, "12.35"}, {999.94, "999.9"}, {1234.5, "1234"}, {9999999.4, "9999999"}, {9999999.6, "1e+07"}, {1e7, "1e+07"}, {333333333333.3, "3.333e+11"}, {-2.5e9, "-2.5e+09"}, {0.000123456, "0.0001235"}} {
		if got := reportNum(c.v); got != c.want {
			t.Errorf("reportNum(%g) = %q, want %q", c.v, got, c.want)
		}
	}
}

// numeric's warning reaches the report when numeric is only compared
// (above 64 jobs it returns its best heuristic without a local search;
// the report dropped the warning and ranked it as the optimum).
func TestReportNumericWarning(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	var b strings.Builder
	b.WriteString("job,arrival,size,p\n")
	for i := range 70 {
		fmt.Fprintf(&b, "j%d,%d,%d,0.5\n", i, 10*i, 600+37*i)
	}
	jobs := filepath.Join(tmp, "jobs.csv")
	os.WriteFile(jobs, []byte(b.String()), 0o644)
	out := filepath.Join(tmp, "r")
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "16", "--out", out, "--seeds", "2", "--sim-jobs", "40", "--loads", "0.3")
	want := "policy numeric: 70 jobs > 64" // not "numeric: optimize:" (planWarning)
	if code != 0 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr lacks %q:\n%s", code, want, stderr)
	}
	if md, _ := os.ReadFile(filepath.Join(out, "summary.md")); !strings.Contains(string(md), want) {
		t.Errorf("summary.md lacks %q", want)
	}
}

// Past three fitted jobs the count notes name the others instead of
// leaving them unmentioned.
func TestReportCountNotesRest(t *testing.T) {
	s := asgdReport(t, "job,arrival,size,model\nf1,0,5000,asgd.json\nf2,0,6000,asgd.json\nf3,0,7000,asgd.json\nf4,0,8000,asgd.json\nf5,0,9000,asgd.json\n", "16")
	if n := strings.Count(s, "runs on a fitted model. Recommended if alone"); n != 3 {
		t.Errorf("%d full count notes, want 3", n)
	}
	if !strings.Contains(s, "No such note for 2 more jobs on fitted models (f4, f5): the notes above describe the first three") {
		t.Errorf("the other fitted jobs are not named:\n%s", s)
	}
	// one left over is one job, not "(three are described)" beside it
	s = asgdReport(t, "job,arrival,size,model\nf1,0,5000,asgd.json\nf2,0,6000,asgd.json\nf3,0,7000,asgd.json\nf4,0,8000,asgd.json\n", "16")
	if !strings.Contains(s, "No such note for job f4, also on a fitted model: the notes above") {
		t.Errorf("the one other fitted job is not named:\n%s", s)
	}
}

// A report on the synchronous traces of testdata/sync-gns (2-64 GPUs, no
// phase times) says why it has no phases or staleness figure (they were
// missing without a word), warns as predict does that one worker is
// extrapolated, and looks for the knee from the 2 workers fitted, as check
// does (it was 1 worker for every job: s(2) = 1.007 on the extrapolated
// base, while check said "past the knee at 2 workers").
func TestReportSyncGNS(t *testing.T) {
	tmp := t.TempDir()
	mp := filepath.Join(tmp, "m.json")
	if code, _, e := runCmd(t, "fit", syncGNS, "--out", mp); code != 0 {
		t.Fatal(e)
	}
	jobs := filepath.Join(tmp, "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,model\ncifar,0,5000,m.json\n"), 0o644)
	s := quickReport(t, mp, jobs, "16", filepath.Join(tmp, "r"))
	for _, want := range []string{"No phases figure: the traces record no phase times (pull, compute, push).", "No staleness figure: the traces record no staleness (allreduce updates have none).",
		"speedup: the model was fitted on 2 workers and more: one worker, the base of every speedup and efficiency, is extrapolated below the data",
		"past the knee at 2 workers (the fewest fitted"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "phases.png") || strings.Contains(s, "staleness.png") {
		t.Errorf("a phases or staleness figure is drawn")
	}
	if m := regexp.MustCompile(`(?m)^\| cifar \| 5000 \| (\d+) \| (\d+) \|`).FindStringSubmatch(s); m == nil || m[2] == "1" || m[1] == "1" {
		t.Errorf("knee of the job: %q, want from the 2 fitted workers on", m)
	}
}

// fitDataOf loads the model file mp and makes the report's fit figure
// input of it.
func fitDataOf(t *testing.T, mp string) (*fit.Model, plots.FitData) {
	t.Helper()
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := reportFitData(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, d
}

// fit --plot on testdata/asgd fitted on 1-2 workers draws the curve at the
// reference 1 shard and 3 MB/s: its title said "at batch 32 a worker; 6
// other points not shown", though every run is at batch 32 (they differ in
// shards and link rate), and the 12 held-out runs left out went uncounted
// (in report's figure until 2026-12-07).
func TestFitPlotTitleSaysWhatIsLeftOut(t *testing.T) {
	m, stats, pts, _, _, err := fitPaths([]string{filepath.Join("..", "..", "testdata", "asgd")}, "", fit.StepOptions{Family: "auto", Combine: "mean", TrainWorkers: []int{1, 2}, Bootstrap: 20, Queueing: "exact"})
	if err != nil {
		t.Fatal(err)
	}
	d := fitPlotData(m, pts, stats)
	want := "sgdplan fit: mva\nat 1 shard, 3 MB/s, batch 32 per worker\nnot shown: 6 fitted, 12 held-out points at other shards or link rates"
	if d.Title != want {
		t.Errorf("title\n%q\nwant\n%q", d.Title, want)
	}
	held := 0
	for _, o := range d.Measured {
		if o.HeldOut {
			held++
		}
	}
	if len(d.Measured) != 6 || held != 4 {
		t.Errorf("%d points drawn, %d held out; want 2 fitted and 4 held out at the reference", len(d.Measured), held)
	}
	// the report's figure of the same model counts them alike (it said
	// "not shown: 6 points", leaving the 12 held-out runs uncounted)
	r, err := reportFitData(m, stats)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Throughput fit: mva\nat 1 shard, 3 MB/s, batch 32 per worker\nnot shown: 6 fitted, 12 held-out points at other shards or link rates"; r.Title != want {
		t.Errorf("report's title\n%q\nwant\n%q", r.Title, want)
	}
}

// The simulated means' intervals are cut at 0 as simulate cuts them: a mean
// response time is never negative (2 jobs a run, 2 seeds gave
// 3.433 [-3.771, 10.64]).
func TestReportIntervalsCutAtZero(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	out := filepath.Join(tmp, "r")
	tab := reportSimTable(t, out, "--model", m, "--jobs", filepath.Join(jobsExample, "worked.csv"), "--servers", "1", "--seeds", "2", "--sim-jobs", "2", "--loads", "0.5")
	if !strings.Contains(tab, "[0, ") {
		t.Errorf("no interval cut at 0 in:\n%s", tab)
	}
	if strings.Contains(tab, "[-") {
		t.Errorf("a negative mean response time:\n%s", tab)
	}
}

// Every warning report prints has fit's and predict's prefix, "sgdplan:
// warning: ": the traces not found, the jobs file's unknown column and the
// model no job names (the last two began "sgdplan: report: ", as an error
// does, while the first began "sgdplan: warning: ").
func TestReportWarningPrefix(t *testing.T) {
	dir := t.TempDir()
	m := reportModel(t, dir)
	doc := readModelDoc(t, m)
	data := doc["data"].(map[string]any)
	data["paths"] = []string{filepath.Join(dir, "nowhere")}
	delete(data, "paths_from_model")
	writeModelDoc(t, m, doc)
	jobs := filepath.Join(dir, "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p,max_worker\na,0,100,0.5,2\nb,0,50,0.9,2\n"), 0o644)
	code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "4", "--out", filepath.Join(dir, "r"), "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	for _, l := range lines {
		if !strings.HasPrefix(l, "sgdplan: warning: ") {
			t.Errorf("stderr line %q: want the prefix %q", l, "sgdplan: warning: ")
		}
	}
	for _, want := range []string{"the traces " + m + " was fitted on are not found", `unknown column "max_worker" ignored`, "no job of " + jobs + " names the model"} {
		if !strings.Contains(stderr, "sgdplan: warning: "+want) && !strings.Contains(stderr, "sgdplan: warning: "+jobs+":1:20: "+want) {
			t.Errorf("stderr lacks the warning %q:\n%s", want, stderr)
		}
	}
}

// Worker counts whose predicted time to the target is infinite are not
// drawn, and the caption says so: the counts drawn end before the cluster's
// size because the time is infinite from there, not because the time still
// falls past the figure. On the asgd model with a staleness cost of 1e306
// the updates to the target are finite at N = 1 and 2 (104.8 (1 + 1e306 x
// 0.98 (N-1)), 1.03e308 at N = 2) and overflow from N = 3: the figure was
// left out (0 x infinity made the loss curves' first point NaN), its caption
// now says N = 3 on is not drawn. A time least at its last finite count is
// the fastest there, the largest with a finite time (it said "still
// falling", as if more workers would be faster, where they never finish).
func TestReportConvergenceInfiniteTimes(t *testing.T) {
	tmp := t.TempDir()
	m := asgdModel(t, tmp)
	doc := readModelDoc(t, m)
	eff := doc["efficiency"].(map[string]any)
	eff["lambda"], eff["lambda_hi"] = 1e306, 1e306
	writeModelDoc(t, m, doc)
	jobs := filepath.Join(tmp, "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p\na,0,100,0.5\n"), 0o644)
	s := quickReport(t, m, jobs, "16", filepath.Join(tmp, "r"))
	if !regexp.MustCompile(`against workers \(90% band\): fastest at N = 1, [0-9.]+ s\. The predicted time to the target is infinite from N = 3 on \(infinite updates to reach it\): those N are not drawn\.`).MatchString(s) || strings.Contains(s, "convergence figure left out") {
		t.Errorf("summary.md:\n%s", s)
	}

	// times 40, 30, 20, 10 s on 1 to 4 workers, infinite from 5
	d := plots.ConvergenceData{Target: 0.5, TimePredicted: []plots.Band{{X: 1, Y: 40}, {X: 2, Y: 30}, {X: 3, Y: 20}, {X: 4, Y: 10}}}
	const head = "Loss against global updates per worker count (points: evals.csv, when the traces have it; lines: the fitted curve), and the predicted time to the target loss 0.5 against workers (90% band): "
	for _, c := range []struct {
		never, servers int
		want           string
	}{
		{5, 8, head + "fastest at N = 4, the largest with a finite time, 10 s. The predicted time to the target is infinite from N = 5 on (infinite updates to reach it): those N are not drawn."},
		{0, 4, head + "still falling at N = 4, the largest drawn, 10 s."},
		{5, 2, head + "still falling at N = 2, all the cluster's 2 servers, 30 s (the curve, drawn to the fitted worker counts, is fastest at N = 4 beyond it, 10 s). The predicted time to the target is infinite from N = 5 on (infinite updates to reach it): those N are not drawn."},
	} {
		d.InfiniteFrom = float64(c.never)
		if got, _ := convergenceCaption(d, c.servers, 0.9); got != c.want {
			t.Errorf("never %d on %d servers: caption\n%s\nwant\n%s", c.never, c.servers, got, c.want)
		}
	}
}

// The captions write numbers as the report's tables and axes do
// (plots.Num: 4 significant digits, plainly below 10^6): a least time of
// 123456.7 s reads 123500 s, not %.4g's 1.235e+05 s; a target loss of
// 0.000123456 reads 0.0001235 either way.
func TestReportCaptionNumbers(t *testing.T) {
	d := plots.ConvergenceData{Target: 0.000123456, TimePredicted: []plots.Band{{X: 1, Y: 200000}, {X: 2, Y: 123456.7}, {X: 3, Y: 150000}}}
	const want = "Loss against global updates per worker count (points: evals.csv, when the traces have it; lines: the fitted curve), and the predicted time to the target loss 0.0001235 against workers (95% band): fastest at N = 2, 123500 s."
	if got, _ := convergenceCaption(d, 8, 0.95); got != want {
		t.Errorf("caption\n%s\nwant\n%s", got, want)
	}
	// past the cluster's 1 server: both times in the same form
	const past = "Loss against global updates per worker count (points: evals.csv, when the traces have it; lines: the fitted curve), and the predicted time to the target loss 0.0001235 against workers (95% band): still falling at N = 1, all the cluster's 1 server, 200000 s (the curve, drawn to the fitted worker counts, is fastest at N = 2 beyond it, 123500 s)."
	if got, _ := convergenceCaption(d, 1, 0.95); got != past {
		t.Errorf("caption on 1 server\n%s\nwant\n%s", got, past)
	}
}

// The report's simulation runs on whole workers: on one server with jobs of
// one size every policy serves one job at a time, and none can beat SRPT.
// With ideal shares EQUI's fractions of the one server ran at k^0.5 > k,
// 2.5 times faster than SRPT at load 0.85.
func TestReportSimulateWholeWorkers(t *testing.T) {
	c := cli.NewContext(&cli.App{ErrWriter: io.Discard}, nil, nil)
	o := reportOptions{servers: 1, seeds: 3, simJobs: 200, loads: []float64{0.85}, alpha: 0.05, seed: 1}
	jobs := []planner.Job{{ID: "solo", Size: 3600, Curve: planner.PowerLaw{P: 0.5}}}
	d, tab, _, _, err := reportSimulate(c, o, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tab.Title, "whole workers") {
		t.Errorf("table title %q does not say whole workers", tab.Title)
	}
	mean := map[string]float64{}
	for _, p := range d.Loads {
		mean[p.Policy] = p.Mean
	}
	srpt, ok := mean["srpt"]
	if !ok || !(srpt > 3600) {
		t.Fatalf("srpt mean %v, want above the job's 3600 s", srpt)
	}
	for name, m := range mean {
		if m < srpt*(1-1e-9) {
			t.Errorf("%s: mean response %.6g below srpt's %.6g on one server", name, m, srpt)
		}
	}
}

// The growing-queue warning tells the kinds apart: cells whose queue
// still grows over runs 4 times as long (an overload, "*"), cells whose
// longer runs settle ("†": runs too short), and cells not checked (runs
// too long to run 4 times over), each said once.
func TestGrowingWarning(t *testing.T) {
	cells := []growCell{{what: "srpt at load 0.7", longer: 400}, {what: "fifo at load 0.5", longer: 400, settles: true}, {what: "hell at load 0.85", longer: 400}}
	w := growingWarning(cells, 100, 5, "--sim-jobs", true)
	for _, want := range []string{
		"for srpt at load 0.7, hell at load 0.85 (marked * in the table) the queue grows through runs of 100 jobs and still through runs 4 times as long",
		"; for fifo at load 0.5 (marked † in the table) the queue grows through runs of 100 jobs but not through runs of 400 in most seeds",
		"(a larger --sim-jobs shows whether they settle",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("want %q in:\n%s", want, w)
		}
	}
	if w := growingWarning(cells[:1], 100, 5, "--sim-jobs", true); strings.Contains(w, "†") || strings.Contains(w, "settle") {
		t.Errorf("an overload alone: %s", w)
	}
	w = growingWarning([]growCell{{what: "srpt"}}, 20000, 1, "--count", false)
	if !strings.Contains(w, "for srpt the queue grows through runs of 20000 jobs, so those means are not steady-state values: either") || strings.Contains(w, "marked") {
		t.Errorf("unchecked, no table: %s", w)
	}
	// one seed is not "most seeds"
	if !strings.Contains(w, "(a growing queue: in its one seed the later half") || strings.Contains(w, "most seeds") {
		t.Errorf("one seed: %s", w)
	}
	// growingQueue compares the halves' response times, waiting plus
	// service: the warning said "waits more than twice as long"
	if !strings.Contains(w, "has a mean response time (waiting plus service) more than twice the earlier half's") || strings.Contains(w, "waits") {
		t.Errorf("what is measured: %s", w)
	}
	if longerRun(100) != 400 || longerRun(1000) != 4000 || longerRun(1001) != 0 {
		t.Errorf("longerRun: %d, %d, %d", longerRun(100), longerRun(10000), longerRun(10001))
	}
}

// The fit figure of a model fitted on 2 workers and more cuts the band
// extrapolated to one worker (529.8 steps/s, where the points reach 16.2)
// at its y axis, and the caption says so.
func TestReportFitBandOffAxis(t *testing.T) {
	tmp := t.TempDir()
	m := filepath.Join(tmp, "gns.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--out", m); code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	jobs := filepath.Join(tmp, "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p,model\nj,0,3600,,gns.json\n"), 0o644)
	md := quickReport(t, m, jobs, "8", filepath.Join(tmp, "r"))
	if !strings.Contains(md, "The band rises off the axis, to 529.8 at 1 worker (extrapolated away from the measured workers): the y axis ends at 1.5 times the highest drawn within them.") {
		t.Errorf("the fit caption does not say the band is cut:\n%s", md)
	}
}

// The simulation table's headers and the caption tell loads apart and
// never write a load below 1 as "1": --loads 0.5,0.50001 read "load 0.5 |
// load 0.5", and --loads 0.9999999 "load 1", the value --loads refuses.
func TestReportLoadLabels(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	jobs := filepath.Join(tmp, "one.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p\nsolo,0,3600,0.9\n"), 0o644)
	for i, c := range []struct{ loads, header, cdf string }{
		{"0.5,0.50001", "| policy | load 0.5 | load 0.50001 |", "at load 0.50001 ("},
		{"0.9999999", "| policy | load 0.9999999 |", "at load 0.9999999 ("},
	} {
		out := filepath.Join(tmp, strconv.Itoa(i))
		code, _, stderr := runCmd(t, "report", "--model", m, "--jobs", jobs, "--servers", "4", "--out", out, "--seeds", "2", "--sim-jobs", "10", "--loads", c.loads)
		if code != 0 {
			t.Fatalf("--loads %s: exit %d: %s", c.loads, code, stderr)
		}
		md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
		if !strings.Contains(string(md), c.header) || !strings.Contains(string(md), c.cdf) {
			t.Errorf("--loads %s: no %q or %q in\n%s", c.loads, c.header, c.cdf, md)
		}
	}
}

// The page's words match its order (tables, then figures, then notes):
// the notes said "the simulation below" after it, and the fit caption
// "the recommended workers below" under the plan's table; the notes' code
// spans are <code>, not backticks.
func TestReportPageOrder(t *testing.T) {
	tmp := t.TempDir()
	m := reportModel(t, tmp)
	jobs := filepath.Join(tmp, "jobs.csv")
	os.WriteFile(jobs, []byte("job,arrival,size,p,model\nbig,0,20000,0.9,\nfitted,0,5000,,model.json\n"), 0o644)
	out := filepath.Join(tmp, "r")
	quickReport(t, m, jobs, "8", out)
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	plan, sim, figs, notes := strings.Index(html, "<h2>Plan"), strings.Index(html, "<h2>Simulated"), strings.Index(html, "<h2>Figures"), strings.Index(html, "<h2>Notes")
	if !(plan >= 0 && plan < sim && sim < figs && figs < notes) {
		t.Fatalf("page order: plan %d, simulation %d, figures %d, notes %d", plan, sim, figs, notes)
	}
	for _, want := range []string{"The simulation (its table and figure above) repeats", "the recommended workers in the plan table above weigh", "<code>sgdplan check --workers "} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if n := html[notes:]; strings.Contains(n, "`") || strings.Contains(n, "simulation below") {
		t.Errorf("the notes show backticks or point below:\n%s", n)
	}
}

// The convergence caption says when the fitted lines of every worker count
// agree, by the figure's rule (one line, "fitted, every N alike"), and not
// when they differ.
func TestReportConvergenceCoincide(t *testing.T) {
	line := func(n int, b0 float64) plots.LossCurve {
		c := plots.LossCurve{Workers: n}
		for k := 0.0; k <= 1000; k += 100 {
			c.FitUpdates = append(c.FitUpdates, k)
			c.FitLoss = append(c.FitLoss, 1/(b0*k+0.5))
		}
		return c
	}
	d := plots.ConvergenceData{Target: 0.5, TimePredicted: []plots.Band{{X: 1, Y: 30}, {X: 2, Y: 20}, {X: 3, Y: 25}},
		Curves: []plots.LossCurve{line(1, 0.01), line(2, 0.01), line(16, 0.01)}}
	const want = " The fitted lines of every N agree within 0.5% of the longest (the fitted loss per update hardly depends on the workers: no staleness cost, or a small one), so one line stands for them all, \"fitted, every N alike\"."
	if got, _ := convergenceCaption(d, 8, 0.9); !strings.HasSuffix(got, want) {
		t.Errorf("caption\n%s\nwant it to end\n%s", got, want)
	}
	// within the figure's 0.5%, which draws one line for them all (the
	// caption named N = 16 hiding the others, a line the figure no longer
	// draws, and said nothing of lines 0.1% apart, drawn as one)
	d.Curves[1] = line(2, 0.01*1.001)
	if got, _ := convergenceCaption(d, 8, 0.9); !strings.HasSuffix(got, want) {
		t.Errorf("lines 0.1%% apart: caption\n%s\nwant it to end\n%s", got, want)
	}
	d.Curves[1] = line(2, 0.008)
	if got, _ := convergenceCaption(d, 8, 0.9); strings.Contains(got, "agree within") {
		t.Errorf("lines that differ: %s", got)
	}
}

// fit --plot and report label one model's fit figure alike: updates/s for
// asynchronous SGD, steps/s for synchronous (fit --plot said steps/s where
// report said updates/s), and the report's caption counts the same.
func TestFitFigureYLabel(t *testing.T) {
	tmp := t.TempDir()
	sync := filepath.Join(tmp, "gns.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--out", sync, "--bootstrap", "20"); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	for _, c := range []struct{ path, want string }{
		{asgdModel(t, tmp), "throughput (updates/s)"},
		{sync, "throughput (steps/s)"},
	} {
		m, err := fit.LoadModel(c.path)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := reportFitData(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fd := fitPlotData(m, nil, nil); fd.YLabel != c.want || rd.YLabel != c.want {
			t.Errorf("%s (%s): fit --plot %q, report %q, want %q", filepath.Base(c.path), m.Mode, fd.YLabel, rd.YLabel, c.want)
		}
	}
}

// A model fitted on its profile alone: the report says why there is no
// out-of-sample error, as fit does ("no training run besides the
// profile"), where it said "leave-one-configuration-out error not
// computed".
func TestReportCVWording(t *testing.T) {
	tmp := t.TempDir()
	one := filepath.Join(tmp, "one.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "synthetic", "async-ps"), "--family", "mva", "--train-workers", "1", "--out", one, "--bootstrap", "20"); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	m, err := fit.LoadModel(one)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reportCV(m), "no out-of-sample error: no training run besides the 1-worker profile"; got != want {
		t.Errorf("one configuration: %q, want %q", got, want)
	}
	// with other training runs: the profile's error on them, as before
	two, err := fit.LoadModel(reportModel(t, tmp))
	if err != nil {
		t.Fatal(err)
	}
	if got := reportCV(two); !strings.HasPrefix(got, "error ") || !strings.HasSuffix(got, "% on the training runs besides the 1-worker profile (out of sample: nothing is refitted)") {
		t.Errorf("three configurations: %q", got)
	}
}

// A job whose model (not --model) was fitted on 2 workers and more gets
// plan's warning in the report too: its completion times rest on one
// worker extrapolated below the data. The report named only its own
// --model's below-fit base, in the fit section.
func TestReportJobsBelowFit(t *testing.T) {
	tmp := t.TempDir()
	gns := filepath.Join(tmp, "gns.json")
	if code, _, e := runCmd(t, "fit", syncGNS, "--out", gns); code != 0 {
		t.Fatal(e)
	}
	own := asgdModel(t, tmp)
	jobs := writeTestFile(t, tmp, "jobs.csv", "job,arrival,size,model\ncifar,0,5000,gns.json\nmine,0,4000,"+filepath.Base(own)+"\n")
	code, _, planErr := runCmd(t, "plan", "--jobs", jobs, "--servers", "16")
	var want string
	for _, l := range strings.Split(planErr, "\n") {
		if strings.Contains(l, "on a model fitted on 2 workers and more") {
			want = strings.TrimPrefix(l, "sgdplan: warning: ")
		}
	}
	if code != 0 || !strings.HasPrefix(want, "job cifar runs on a model fitted on 2 workers and more") {
		t.Fatalf("plan: exit %d, no below-fit warning for cifar alone:\n%s", code, planErr)
	}
	out := filepath.Join(tmp, "r")
	code, _, stderr := runCmd(t, "report", "--model", own, "--jobs", jobs, "--servers", "16", "--out", out, "--seeds", "2", "--sim-jobs", "10", "--loads", "0.5")
	if code != 0 {
		t.Fatalf("report exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "sgdplan: warning: "+want+"\n") {
		t.Errorf("report's stderr lacks plan's warning %q:\n%s", want, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"summary.md": string(md), "index.html": string(page), "stderr": stderr} {
		if name != "stderr" && !strings.Contains(s, want) {
			t.Errorf("%s lacks plan's warning %q:\n%s", name, want, s)
		}
		if strings.Contains(s, "job mine runs on a model fitted on") {
			t.Errorf("%s warns of a job on a model fitted from 1 worker:\n%s", name, s)
		}
	}
}

// The plan figure's caption says when the figure draws the jobs past the
// legend's as one grey band (30 jobs: the legend's 22 and 8 in the band),
// and says nothing of a band for a few jobs.
func TestReportPlanCaptionBand(t *testing.T) {
	tmp := t.TempDir()
	var b strings.Builder
	b.WriteString("job,arrival,size,p\n")
	for i := range 30 {
		fmt.Fprintf(&b, "j%02d,0,%d,0.8\n", i, 1000+100*i)
	}
	jobs := writeTestFile(t, tmp, "jobs.csv", b.String())
	s := quickReport(t, asgdModel(t, tmp), jobs, "16", filepath.Join(tmp, "r"))
	if !strings.Contains(s, "The legend's 22 jobs are drawn each; the other 8 are one grey band at the bottom, without completion marks.") {
		t.Errorf("the caption does not say the plan figure's band:\n%s", s)
	}
	few := writeTestFile(t, tmp, "few.csv", "job,arrival,size,p\na,0,1000,0.8\nb,0,2000,0.8\n")
	if s := quickReport(t, asgdModel(t, tmp), few, "16", filepath.Join(tmp, "r2")); strings.Contains(s, "grey band") {
		t.Errorf("a caption speaks of a band for two jobs:\n%s", s)
	}
}

// report's growing-queue warning names each policy once with its loads,
// three or more consecutive ones as a range: it listed every policy x load
// pair (1,670 characters for 19 loads, a scaling review of 2026-12-07).
func TestGrowingWarningGroupsLoads(t *testing.T) {
	labels := []string{"0.5", "0.6", "0.7", "0.8", "0.9", "0.95"}
	cell := func(pol string, li int, settles bool) growCell {
		return growCell{what: pol + " at load " + labels[li], longer: 400, settles: settles, policy: pol, load: labels[li], li: li}
	}
	cells := []growCell{cell("srpt", 0, false), cell("srpt", 2, false), cell("srpt", 3, false), cell("srpt", 4, false), cell("srpt", 5, false),
		cell("fifo", 1, false), cell("fifo", 2, true), cell("fifo", 3, false), cell("fifo", 4, false)}
	w := growingWarning(cells, 100, 5, "--sim-jobs", true)
	for _, want := range []string{
		"for srpt at loads 0.5 and 0.7 to 0.95, fifo at loads 0.6, 0.8 and 0.9 (marked * in the table) the queue grows through runs of 100 jobs and still",
		"; for fifo at load 0.7 (marked † in the table) the queue grows",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("want %q in:\n%s", want, w)
		}
	}
	if strings.Contains(w, "srpt at load 0.8") {
		t.Errorf("srpt's loads listed one by one:\n%s", w)
	}
	// simulate's cells (a policy each) are named as they are
	if w := growingWarning([]growCell{{what: "srpt", longer: 400}, {what: "fifo", longer: 400}}, 100, 5, "--count", false); !strings.Contains(w, "for srpt, fifo the queue grows") {
		t.Errorf("simulate's cells: %s", w)
	}
}

// Policies whose queue grows at the same loads are named together, where
// their loads are first said (the day's review: "srpt at loads 0.7 and
// 0.85, fifo at loads 0.7 and 0.85, sjf at loads 0.7 and 0.85, ...").
func TestGrowingWarningGroupsPolicies(t *testing.T) {
	labels := []string{"0.5", "0.7", "0.85"}
	cell := func(pol string, li int) growCell {
		return growCell{what: pol + " at load " + labels[li], longer: 400, policy: pol, load: labels[li], li: li}
	}
	cells := []growCell{cell("srpt", 1), cell("srpt", 2), cell("fifo", 0), cell("fifo", 1), cell("fifo", 2), cell("sjf", 1), cell("sjf", 2), cell("hell", 2)}
	w := growingWarning(cells, 100, 5, "--sim-jobs", true)
	if want := "for srpt and sjf at loads 0.7 and 0.85, fifo at loads 0.5 to 0.85, hell at load 0.85 (marked * in the table)"; !strings.Contains(w, want) {
		t.Errorf("want %q in\n%s", want, w)
	}
}

// The report's policy table ranks on ideal shares; a policy whose whole
// workers differ much from them is named with plan's warning (equi ranked
// first at 4.256 on 1 server, 7.5 on whole workers, and only the plan's
// own policy's gap was said).
func TestReportWholeGapEveryPolicy(t *testing.T) {
	tmp := t.TempDir()
	m := asgdModel(t, tmp)
	md := quickReport(t, m, filepath.Join("..", "..", "testdata", "jobs-example", "worked.csv"), "1", filepath.Join(tmp, "r"))
	if !strings.Contains(md, "policy equi: whole workers change the mean flow time by +76.2%") {
		t.Errorf("no whole-worker gap for equi:\n%s", md)
	}
}
