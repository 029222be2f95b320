package main

import (
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/traces"
	"github.com/urfave/cli/v2"
)

// unfoundConfig's rule (its doc): each configuration of the model is a run
// of the same workers and shards at its rate within 0.5%. testdata/asgd's
// traces are the model's own; a configuration moved by hand is not found:
// rate x1.004 is within 0.5% (|c - 1.004c| = 0.004c <= 0.005 x 1.004c),
// x1.01 is not (0.01c > 0.00505c), and no run has 3 shards or 5 workers.
func TestUnfoundConfigTolerance(t *testing.T) {
	m, err := loadModel("report", asgdModel(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t0, _, err := traces.Load(filepath.Join("..", "..", "testdata", "asgd"))
	if err != nil {
		t.Fatal(err)
	}
	tr := &measuredTraces{t: t0}
	tr.stats, tr.err = fit.Stats(t0)
	if c, ok := unfoundConfig(m, tr); !ok {
		t.Fatalf("the model's own traces: %s not found", c)
	}
	orig := m.Data.Configurations[0]
	for _, c := range []struct {
		name  string
		edit  func(c *fit.ConfigData)
		found bool
	}{
		{"rate +0.4%", func(c *fit.ConfigData) { c.StepsPerS *= 1.004 }, true},
		{"rate -0.4%", func(c *fit.ConfigData) { c.StepsPerS *= 0.996 }, true},
		{"rate +1%", func(c *fit.ConfigData) { c.StepsPerS *= 1.01 }, false},
		{"rate -1%", func(c *fit.ConfigData) { c.StepsPerS *= 0.99 }, false},
		{"3 shards", func(c *fit.ConfigData) { c.PS = 3 }, false},
		{"5 workers", func(c *fit.ConfigData) { c.Workers = 5 }, false},
	} {
		m.Data.Configurations[0] = orig
		c.edit(&m.Data.Configurations[0])
		what, ok := unfoundConfig(m, tr)
		if ok != c.found {
			t.Errorf("%s: found %v (%q), want %v", c.name, ok, what, c.found)
		}
		if !ok && !strings.HasPrefix(what, "run of ") {
			t.Errorf("%s: %q", c.name, what)
		}
	}
	m.Data.Configurations[0] = orig
}

// The held-out points are the runs at worker counts the fit did not see,
// on the curve (the model's reference shards and link rate), with a rate;
// the curve is drawn to twice the largest count shown. Runs written by
// hand beside testdata/asgd's model (1 shard, 3e6 B/s, batch 32, fitted on
// 1 and 2 workers):
//
//	4 workers, 1 shard, 3e6: 10 steps/s   held out
//	4 workers, 2 shards, 3e6: 20          off the curve (shards)
//	4 workers, 1 shard, 6e6: 30           off the curve (link rate)
//	5 workers, rate 0                     no rate
//	1 worker, 99                          fitted count
//	200 workers, 12                       held out: the curve to 400
//
// so the held-out points are (4, 10) and (200, 12), and the curve ends at
// 400 (the knee's 1.5 x is drawn only for a knee under 256, <= 384).
func TestReportFitDataHeldOutByHand(t *testing.T) {
	m, err := loadModel("report", asgdModel(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if m.Reference.PS != 1 || m.Reference.Bandwidth != 3e6 || m.Reference.Batch != 32 {
		t.Fatalf("reference %+v: want 1 shard, 3e6 B/s, batch 32", m.Reference)
	}
	run := func(w, ps int, bw, rate float64) fit.RunStats {
		return fit.RunStats{Workers: w, PS: ps, Batch: 32, Bandwidth: bw, StepsPerS: rate}
	}
	stats := []fit.RunStats{run(4, 1, 3e6, 10), run(4, 2, 3e6, 20), run(4, 1, 6e6, 30), run(5, 1, 3e6, 0), run(1, 1, 3e6, 99), run(200, 1, 3e6, 12)}
	d, err := reportFitData(m, stats)
	if err != nil {
		t.Fatal(err)
	}
	var held [][2]float64
	for _, o := range d.Measured {
		if o.HeldOut {
			held = append(held, [2]float64{o.X, o.Y})
		}
	}
	if len(held) != 2 || held[0] != [2]float64{4, 10} || held[1] != [2]float64{200, 12} {
		t.Errorf("held out %v, want [4 10] [200 12]", held)
	}
	if last := d.Curve[len(d.Curve)-1].X; last != 400 {
		t.Errorf("curve drawn to %g workers, want 400 (twice the held-out 200)", last)
	}
}

// The "Made by" command gives --loads as written: 0.85 and 0.125 are not
// rounded to a digit.
func TestReportOptionsCommandLoads(t *testing.T) {
	o := defaultReportOptions()
	o.model, o.jobs, o.out, o.servers = "m.json", "j.csv", "r", 8
	o.loads = []float64{0.125, 0.85}
	if got, want := o.command(), "sgdplan report --model m.json --jobs j.csv --servers 8 --out r --loads 0.125,0.85"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// With report's default 4 loads (0.3, 0.5, 0.7, 0.85) the distribution
// panel is of load 0.7, as docs/figures.md shows it: "Response times at
// load 0.7 (5 seeds x 100 jobs)", and the caption names the same load.
func TestReportSimulateCDFTitleFourLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates every policy at 4 loads")
	}
	c := cli.NewContext(&cli.App{ErrWriter: io.Discard}, nil, nil)
	o := defaultReportOptions()
	o.servers = 16
	jobs, _, err := planReadJobsUsing(filepath.Join(jobsExample, "jobs.csv"), planReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, _, _, _, err := reportSimulate(c, o, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Response times at load 0.7 (5 seeds x 100 jobs)"; d.CDFTitle != want {
		t.Errorf("title %q, want %q", d.CDFTitle, want)
	}
	if cap := simulationCaption(o, nil, 0); !strings.Contains(cap, "distribution of response times at load 0.7 ") {
		t.Errorf("caption %q", cap)
	}
	for _, r := range d.Responses {
		// 5 seeds of 100 jobs, every one with a finite response time
		if len(r.Times) != 500 || math.IsNaN(r.Times[0]) {
			t.Errorf("%s: %d times", r.Policy, len(r.Times))
		}
	}
}
