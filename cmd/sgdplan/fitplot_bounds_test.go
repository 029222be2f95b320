package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/plots"
)

// With shared cores the compute is a station only once the workers
// outnumber the cores (model.AsyncPS.Network): the fit figure's bounds and
// check's N* were read at 1 worker, where the bound 1/max D was the link's
// (14.2 updates/s, N* 4.98 on testdata/asgd/cpu at 2 cores), while the
// model levels off at the cores' 2/z0 (9.56, N* 3.35). They are now the
// network's past the cores, and the fitted curve meets its bound; predict's
// busiest station, check's words and the report's phases bars say the
// cores too (predict said "link" at 67% where they were 100% busy).
func TestFitBoundsSharedCores(t *testing.T) {
	dir := t.TempDir()
	mp := filepath.Join(dir, "cpu.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd", "cpu"), "--train-workers", "1", "--shared-cores", "2", "--bootstrap", "20", "--out", mp); code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	m, err := loadModel("test", mp)
	if err != nil {
		t.Fatal(err)
	}
	d := fitPlotData(m, nil, nil)
	if !(d.MaxD > 0) {
		t.Fatalf("no bounds: %+v", d)
	}
	// the curve's value far past the cores is what they carry
	far := m.StepsPerSecond(model.Config{Workers: 4096})
	if bound := 1 / d.MaxD; math.Abs(bound-far)/far > 0.01 {
		t.Errorf("bound 1/max D %.4g, the model at 4096 workers %.4g: want them within 1%%", bound, far)
	}
	for _, p := range d.Curve {
		if p.Y > 1.0001/d.MaxD {
			t.Errorf("curve %.4g at %g workers above the bound %.4g", p.Y, p.X, 1/d.MaxD)
		}
	}
	nstar := (d.Z + d.SumD) / d.MaxD
	_, out, _ := runCmd(t, "check", "--model", mp, "--workers", "16")
	if want := fmt.Sprintf("N* = %.3g in the fit figure", nstar); !strings.Contains(out, want) || nstar > 4 {
		t.Errorf("check says %q; want %q, N* below 4 (past the cores)", out, want)
	}
	// predict names the cores as the busiest station, check says they are
	// busy, and the phases figure puts their queue into compute
	_, csv, _ := runCmd(t, "predict", "--model", mp, "--workers", "64", "--format", "csv")
	if rows := strings.Split(strings.TrimSpace(csv), "\n"); len(rows) != 2 || !strings.HasSuffix(rows[1], ",cores") {
		t.Errorf("predict at 64 workers: %q, want the busiest station cores", csv)
	}
	if _, out, _ := runCmd(t, "check", "--model", mp, "--workers", "64"); !strings.Contains(out, "the workers' shared cores (2 cores a machine on 1 machine) are 100% busy at 64 workers") {
		t.Errorf("check at 64 workers: %q, want the cores named", out)
	}
	if _, out, _ := runCmd(t, "check", "--model", mp, "--workers", "3"); strings.Contains(out, "shared cores") {
		t.Errorf("check at 3 workers, cores %q: not saturated", out)
	}
	net1, _ := m.Network(model.Config{Workers: 1})
	cycle8 := 8 / m.StepsPerSecond(model.Config{Workers: 8})
	if z8 := computeTime(m, 8, net1.Z, cycle8); !(z8 > 2*net1.Z && z8 < cycle8) {
		t.Errorf("phases at 8 workers: compute %.4g s of a %.4g s cycle, z %.4g: want the cores' wait in it", z8, cycle8, net1.Z)
	}
	if z1 := computeTime(m, 1, net1.Z, 1/m.StepsPerSecond(model.Config{Workers: 1})); z1 != net1.Z {
		t.Errorf("phases at 1 worker: compute %g, want z %g (no queue for 2 cores)", z1, net1.Z)
	}
	// with workers placed per_node a machine, the machines grow with the
	// workers and the cores bound nothing: the link's N*
	pm := *m
	pm.Reference.PerNode = 2
	if pd := fitPlotData(&pm, nil, nil); math.Abs((pd.Z+pd.SumD)/pd.MaxD-4.98) > 0.01 {
		t.Errorf("per_node 2: N* %.4g, want the link's 4.98", (pd.Z+pd.SumD)/pd.MaxD)
	}
	// the simplest profile's title names its whole reference, as a title
	// with points left off does
	if !strings.HasSuffix(d.Title, fmt.Sprintf("\nat 1 shard, 3 MB/s, batch %.4g per worker", m.Reference.Batch)) || strings.Contains(d.Title, "e+06") {
		t.Errorf("title %q", d.Title)
	}
}

// Under strong scaling a worker past the global batch would get less than
// one sample, which predict and check refuse: the fit figure, the report's
// fit figure and its convergence figure stop there (they drew a global
// batch of 64 on to 128 workers; the convergence figure, which needs a
// loss curve, is held by the same drawnTop).
func TestFitFigureStopsAtGlobalBatch(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("workers,ps,global_batch,steps_per_s,mode,nodes\n")
	for _, w := range []int{1, 2, 4, 8, 16, 32, 64} {
		fmt.Fprintf(&b, "%d,0,64,%.6g,allreduce,1\n", w, 1/(0.1+0.4/float64(w)))
	}
	writeTestFile(t, dir, "throughput.csv", b.String())
	mp := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", dir, "--family", "amdahl", "--bootstrap", "20", "--out", mp); code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	m, err := loadModel("test", mp)
	if err != nil {
		t.Fatal(err)
	}
	if m.Reference.GlobalBatch != 64 {
		t.Fatalf("reference %+v: want global batch 64", m.Reference)
	}
	// a point at 64 workers: the figures draw to twice the most measured
	d := fitPlotData(m, []fit.Point{{Config: model.Config{Workers: 64}, StepsPerS: 9}}, nil)
	r, err := reportFitData(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string][]float64{"fit": bandXs(d.Curve), "report's fit": bandXs(r.Curve)} {
		if last := c[len(c)-1]; last != 64 {
			t.Errorf("%s figure's curve ends at %g workers, want 64 (the global batch)", name, last)
		}
	}
}

func bandXs(bs []plots.Band) []float64 {
	out := make([]float64, len(bs))
	for i, b := range bs {
		out[i] = b.X
	}
	return out
}

// On 2 machines of 2 cores the compute station has 4 servers: the bound is
// the link's (14.2 updates/s, N* 4.98), where BoundsNetwork took one
// machine's cores (Config holds the machines to the workers, 1) and drew
// the bound at 9.56, under the model's own curve.
func TestFitBoundsSharedCoresTwoMachines(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "asgd", "cpu")
	for _, f := range []string{"evals.csv", "steps.csv.gz", "updates.csv.gz", "runs.csv"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "runs.csv" {
			// the nodes column (the 5th) to 2
			lines := strings.Split(string(b), "\n")
			for i := 1; i < len(lines); i++ {
				if c := strings.SplitN(lines[i], ",", 6); len(c) == 6 {
					c[4] = "2"
					lines[i] = strings.Join(c, ",")
				}
			}
			b = []byte(strings.Join(lines, "\n"))
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mp := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", dir, "--train-workers", "1", "--shared-cores", "2", "--bootstrap", "20", "--out", mp); code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	m, err := loadModel("test", mp)
	if err != nil {
		t.Fatal(err)
	}
	if m.Reference.Nodes != 2 {
		t.Fatalf("reference %+v: want 2 machines", m.Reference)
	}
	d := fitPlotData(m, nil, nil)
	far := m.StepsPerSecond(model.Config{Workers: 4096})
	if bound := 1 / d.MaxD; math.Abs(bound-far)/far > 0.01 {
		t.Errorf("bound 1/max D %.4g, the model at 4096 workers %.4g: want them within 1%%", bound, far)
	}
	if _, out, _ := runCmd(t, "check", "--model", mp, "--workers", "16"); !strings.Contains(out, "N* = 4.98 in the fit figure") {
		t.Errorf("check: %q, want N* 4.98 (the link's)", out)
	}
	// 5 workers on 8 shards: at the knee, "fine", with the 4 cores over
	// 90% busy: the reason says so (it did only past the knee)
	_, csv, _ := runCmd(t, "predict", "--model", mp, "--workers", "5", "--ps", "8", "--format", "csv")
	if !strings.HasSuffix(strings.TrimSpace(csv), ",cores") {
		t.Fatalf("predict at 5 workers, 8 shards: %q, want the cores busiest (the test's premise)", csv)
	}
	if _, out, _ := runCmd(t, "check", "--model", mp, "--workers", "5", "--ps", "8"); !strings.HasPrefix(out, "fine: ") || !strings.Contains(out, "the workers' shared cores (2 cores a machine on 2 machines) are") {
		t.Errorf("check at 5 workers, 8 shards: %q, want fine with the cores named", out)
	}
}
