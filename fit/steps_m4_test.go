package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/traces"
)

// Tests from mutation round 4 of the step-trace estimators.

// A phase's SCV is the sample variance (n - 1) over the mean squared. Run
// a: one worker, steps end at 1..10 s, window [1, 9.5]: steps i = 0..8
// count, their pulls 0.2 (i even, 5 of them) and 0.4 (i odd, 4).
//
//	mean = (5 x 0.2 + 4 x 0.4) / 9 = 2.6/9
//	squares about it: 5 (0.8/9)^2 + 4 (1/9)^2 = (3.2 + 4)/81 = 7.2/81
//	sample variance = 7.2/81 / 8 = 0.9/81
//	SCV = (0.9/81) / (2.6/9)^2 = 0.9/6.76 = 0.133136
//
// (dividing by n = 9 gives 0.8/6.76 = 0.118343).
func TestStatsSCVIsTheSampleVariance(t *testing.T) {
	tr := &traces.Trace{}
	for i := 0; i < 10; i++ {
		pull := 0.2
		if i%2 == 1 {
			pull = 0.4
		}
		tr.Steps = append(tr.Steps, traces.Step{Run: "a", Workers: 1, PS: 1, Batch: 8, Step: int64(i), Start: float64(i), End: float64(i + 1), Pull: pull, Compute: 0.5, Push: 0.3, Staleness: 0, Loss: math.NaN()})
	}
	st, err := Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	if p := st[0].Pull; p.N != 9 || relErr(p.SCV, 0.9/6.76) > 1e-9 {
		t.Errorf("pull %+v: want 9 values of SCV 0.9/6.76 = %.6g", p, 0.9/6.76)
	}
	// one value: no variance (NaN), as Moments documents
	one := acc{}
	one.add(0.3)
	if m := one.moments(); m.N != 1 || m.Mean != 0.3 || !math.IsNaN(m.SCV) {
		t.Errorf("one value: %+v, want mean 0.3 and SCV NaN", m)
	}
}

// TwoNodeProfile takes the first run with one worker and at most one
// shard, and only without one the first with one worker and several
// (its documented order): a 2-shard run before a 1-shard run does not
// win. The 2-shard run alone gives the whole model's transfer, P times
// the mean of its pull and push: 2 x (0.01 + 0.01)/2 = 0.02 s.
func TestTwoNodeProfilePrefersOneShard(t *testing.T) {
	run := func(name string, ps int, link float64) RunStats {
		return RunStats{Run: name, Workers: 1, PS: ps, Batch: 8, HasPhases: true,
			Pull: Moments{N: 100, Mean: link, SCV: 0.1}, Push: Moments{N: 100, Mean: link, SCV: 0.1},
			Compute: Moments{N: 100, Mean: 0.05, SCV: 0.2}, Apply: Moments{Mean: math.NaN(), SCV: math.NaN()},
			Bandwidth: math.NaN()}
	}
	two, one := run("p2", 2, 0.01), run("p1", 1, 0.03)
	p, _, err := TwoNodeProfile([]RunStats{two, one})
	if err != nil {
		t.Fatal(err)
	}
	if p.FromRun != "p1" || p.PS != 1 || relErr(p.Link, 0.03) > 1e-12 {
		t.Errorf("profile from %s (ps %d, link %g), want p1, the 1-shard run (link 0.03)", p.FromRun, p.PS, p.Link)
	}
	p, _, err = TwoNodeProfile([]RunStats{two})
	if err != nil {
		t.Fatal(err)
	}
	if p.FromRun != "p2" || relErr(p.Link, 0.02) > 1e-12 {
		t.Errorf("2-shard run alone: profile from %s, link %g; want p2, 0.02", p.FromRun, p.Link)
	}
}

// profileCV is a MAPE: each error over the measured rate, not the
// predicted one. The profile's own configuration (1 worker, its shards) is
// left out. With measured rates set to 2 and 1.25 times the network's
// prediction at 4 and 8 workers:
//
//	|p - 2p| / 2p = 0.5, |p - 1.25p| / 1.25p = 0.2: MAPE (50 + 20)/2 = 35%
//
// (over the prediction: (100 + 25)/2 = 62.5%).
func TestProfileCVOverTheMeasuredRate(t *testing.T) {
	r := RunStats{Run: "p1", Workers: 1, PS: 1, Batch: 8, HasPhases: true,
		Pull: Moments{N: 100, Mean: 0.01, SCV: 1}, Push: Moments{N: 100, Mean: 0.012, SCV: 1},
		Compute: Moments{N: 100, Mean: 0.05, SCV: 1}, Apply: Moments{N: 100, Mean: 0.002, SCV: 1}, Bandwidth: math.NaN()}
	prof, _, err := TwoNodeProfile([]RunStats{r})
	if err != nil {
		t.Fatal(err)
	}
	// the network's predictions, the reference the errors are taken from
	f := mvaFamily(prof.Queueing(""))
	at := func(w int) model.Config { return model.Config{Workers: w, PS: 1, Batch: 8} }
	pts := []Point{
		{Config: at(1), StepsPerS: 1, Async: true}, // the profile's own: not scored
		{Config: at(4), StepsPerS: 2 * f.Predict(prof.Theta(), at(4)), Async: true},
		{Config: at(8), StepsPerS: 1.25 * f.Predict(prof.Theta(), at(8)), Async: true},
	}
	s := (&Settings{}).withDefaults()
	if got := profileCV(prof, pts, []RunStats{r}, s, ""); relErr(got, 35) > 1e-9 {
		t.Errorf("profile CV %g%%, want 35%%", got)
	}
	// the profile's configuration alone: nothing out of sample
	if got := profileCV(prof, pts[:1], []RunStats{r}, s, ""); !math.IsNaN(got) {
		t.Errorf("profile CV on its own run %g, want NaN", got)
	}
}

// computeSplit keeps a line z0 + z1 b through two 1-worker compute means
// only with z1 > 0 and z0 >= 0 (its doc), and takes the first such run in
// stats. The profile computes 0.1 s at batch 32.
//
//	batch 64, 0.25 s: z1 = 0.15/32 = 0.0046875, z0 = 0.1 - 0.15 = -0.05 < 0: no
//	batch 128, 0.2 s: z1 = 0.1/96, z0 = 0.1 - 32 x 0.1/96 = 0.0667: yes
func TestComputeSplitNeedsZ0NotNegative(t *testing.T) {
	prof := Profile{Z: 0.1, Batch: 32, PS: 1, FromRun: "b32"}
	run := func(name string, batch int, compute float64) RunStats {
		return RunStats{Run: name, Workers: 1, PS: 1, Batch: batch, HasPhases: true, Compute: Moments{N: 50, Mean: compute, SCV: 0.1}, Bandwidth: math.NaN()}
	}
	pt := func(batch float64) Point {
		return Point{Config: model.Config{Workers: 1, PS: 1, Batch: batch}, StepsPerS: 1, Async: true}
	}
	neg, good := run("b64", 64, 0.25), run("b128", 128, 0.2)
	pts := []Point{pt(32), pt(64), pt(128)}
	second, split, warn := computeSplit(prof, pts, []RunStats{neg})
	if split || !strings.Contains(warn, "compute time per sample not identified") {
		t.Errorf("z0 = -0.05: split %v with %s, warning %q; want no split and the warning", split, second.Run, warn)
	}
	second, split, warn = computeSplit(prof, pts, []RunStats{neg, good})
	if !split || second.Run != "b128" || warn != "" {
		t.Errorf("then batch 128: split %v with %q, warning %q; want the split with b128", split, second.Run, warn)
	}
	z0, z1 := computeLine(32, 0.1, 128, 0.2)
	if relErr(z1, 0.1/96) > 1e-12 || relErr(z0, 0.1-32*0.1/96) > 1e-12 {
		t.Errorf("line z0 %g z1 %g, want %g and %g", z0, z1, 0.1-32*0.1/96, 0.1/96)
	}
}

// The profile's queueing holds the link rate only with the model size too:
// a link demand scales as S/B (Profile's doc), which needs both. With
// both, a link of 0.01 s at 1e8 B/s is 0.005 s at 2e8 B/s; with the rate
// alone, the rate is not kept and the demand stays 0.01 s.
func TestProfileQueueingNeedsSizeAndRate(t *testing.T) {
	both := Profile{Z: 0.05, Link: 0.01, ParamBytes: 1e6, Bandwidth: 1e8}
	rate := Profile{Z: 0.05, Link: 0.01, Bandwidth: 1e8}
	c := model.Config{Workers: 1, PS: 1, Bandwidth: 2e8}
	if q := both.Queueing(""); q.Bandwidth != 1e8 || q.Variant != "exact" || relErr(q.LinkDemand(both.Theta(), c), 0.005) > 1e-12 {
		t.Errorf("size and rate: queueing %+v, link at 2e8 B/s %g; want rate 1e8, exact, 0.005 s", q, q.LinkDemand(both.Theta(), c))
	}
	if q := rate.Queueing(""); q.Bandwidth != 0 || relErr(q.LinkDemand(rate.Theta(), c), 0.01) > 1e-12 {
		t.Errorf("rate alone: queueing %+v, link at 2e8 B/s %g; want no rate, 0.01 s", q, q.LinkDemand(rate.Theta(), c))
	}
}

// The streamed fit, like Stats, reads the shards' apply times in each
// run's steady window only. One worker, steps ending at 1..10 s (window
// [1, 9.5]), an update at each end with apply 0.01 s, and two outside the
// window, at 0.5 s and 10 s, of 1 s each: 9 applies of 0.01 s (with the
// two: 2.09/11 = 0.19 s).
func TestFitStepsPathsAppliesInTheWindow(t *testing.T) {
	tr := &traces.Trace{}
	for i := 0; i < 10; i++ {
		tr.Steps = append(tr.Steps, traces.Step{Run: "a", Workers: 1, PS: 1, Batch: 8, Worker: 0, Step: int64(i), Start: float64(i), End: float64(i + 1), Pull: 0.01, Compute: 0.5, Push: 0.02, Staleness: 0, Loss: math.NaN()})
		tr.Updates = append(tr.Updates, traces.Update{Run: "a", Worker: 0, Time: float64(i + 1), Version: int64(i + 1), Staleness: 0, Apply: 0.01})
		if i == 9 {
			tr.Updates[i].Apply = 1
		}
	}
	tr.Updates = append([]traces.Update{{Run: "a", Worker: 0, Time: 0.5, Version: 0, Staleness: 0, Apply: 1}}, tr.Updates...)
	dir := t.TempDir()
	if err := traces.WriteDir(dir, tr); err != nil {
		t.Fatal(err)
	}
	sf, _, err := FitStepsPaths([]string{dir}, StepOptions{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	mem, err := Stats(tr)
	if err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]Moments{"streamed": sf.Stats[0].Apply, "in memory": mem[0].Apply} {
		if a.N != 9 || relErr(a.Mean, 0.01) > 1e-12 {
			t.Errorf("%s: apply %+v, want 9 of 0.01 s", name, a)
		}
	}
}
