package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Counts and floats past what plan, simulate and report can do are bad
// input with a clear message (exit 2) before any work: a --servers near 2^63
// panicked in planner.RoundWorkers, --count and --sim-jobs of 2^63-1 in
// make, --size-sigma 50 drew sizes forever, --mean-size Inf or 1e308 failed
// inside the run (exit 1), and --energy-alpha Inf was accepted. Extra
// positional arguments were ignored.
func TestPlanSimulateReportBounds(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(jobsExample, "jobs.csv")
	out := filepath.Join(dir, "report")
	plot := filepath.Join(dir, "p.png")
	rep := []string{"report", "--model", filepath.Join(dir, "model.json"), "--jobs", jobs, "--out", out}
	poisson := []string{"simulate", "--servers", "4", "--arrival-rate", "0.001", "--count", "3"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--jobs", jobs, "--servers", "9223372036854775296"}, "plan: --servers 9223372036854775296: want at most 1,000,000 workers"},
		{[]string{"plan", "--jobs", jobs, "--servers", "1000000000", "--policy", "greedy"}, "plan: --servers 1000000000: want at most 1,000,000 workers"},
		{[]string{"simulate", "--jobs", jobs, "--servers", "9223372036854775807", "--plot", plot}, "simulate: --servers 9223372036854775807: want at most 1,000,000"},
		{append(rep, "--servers", "1000001"), "report: --servers 1000001: want at most 10,000 workers"},
		// the report simulates every policy at every load and seed: 322 s
		// at a million workers, over a minute at 100,000
		{append(rep, "--servers", "10001"), "report: --servers 10001: want at most 10,000 workers: the report simulates every policy"},
		// the loads and seeds in effect, not the defaults whatever was
		// given: 4 loads and 5 seeds by default, else --loads' and
		// --seeds'; a bad --seeds is told first
		{append(rep, "--servers", "10001"), "simulates every policy at 4 loads (--loads) with 5 seeds each (--seeds), which past that takes minutes"},
		{append(rep, "--servers", "10001", "--seeds", "3", "--loads", "0.5,0.7"), "simulates every policy at 2 loads (--loads) with 3 seeds each (--seeds), which"},
		{append(rep, "--servers", "10001", "--seeds", "2", "--loads", "0.5"), "simulates every policy at 1 load (--loads) with 2 seeds each (--seeds), which"},
		{append(rep, "--servers", "10001", "--seeds", "1"), "report: --seeds 1: want 2 to 10000"},
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "0.001", "--count", "9223372036854775807"}, "simulate: --count 9223372036854775807: want at most 10,000,000 jobs"},
		{append(rep, "--servers", "16", "--sim-jobs", "9223372036854775807"), "report: --sim-jobs 9223372036854775807: want at most 10,000,000 jobs"},
		{append(poisson, "--size-sigma", "50"), "simulate: --size-sigma 50: want at most 5: a lognormal's median"},
		{append(poisson, "--mean-size", "Inf"), "simulate: --mean-size +Inf: want a finite number"},
		{append(poisson, "--mean-size", "1e308"), "simulate: --mean-size 1e+308: want at most 1e+12 s"},
		// subnormal sizes stalled the clock: simulate never returned
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "1", "--count", "50", "--mean-size", "1e-310", "--policy", "equi"}, "simulate: --mean-size 1e-310: want at least 1e-06 s"},
		{append(poisson, "--mean-size", "9e-7"), "simulate: --mean-size 9e-07: want at least 1e-06 s"},
		{append(poisson, "--mean-size", "0"), "simulate: --mean-size 0: want at least 1e-06 s"},
		{append(poisson, "--energy-alpha", "Inf"), "simulate: --energy-alpha +Inf: want a finite number"},
		{append(poisson, "--arrival-rate", "Inf"), "simulate: --arrival-rate +Inf: want a finite number"},
		// --count arrivals past 1e12 s, jobs.csv's latest: at 1e-308
		// jobs/s they were +Inf ("planner: job \"j1\": arrival +Inf, want
		// >= 0", exit 1); at 1e-300 they ran (utilization 1.6e-297)
		{[]string{"simulate", "--arrival-rate", "1e-308", "--servers", "2", "--count", "10"}, "simulate: --arrival-rate 1e-308: want at least --count / 1e+12 s = 1e-11 jobs/s"},
		{[]string{"simulate", "--arrival-rate", "1e-300", "--servers", "2", "--count", "10"}, "simulate: --arrival-rate 1e-300: want at least --count / 1e+12 s = 1e-11 jobs/s"},
		{append(poisson, "--arrival-rate", "2.9e-12"), "simulate: --arrival-rate 2.9e-12: want at least --count / 1e+12 s = 3e-12 jobs/s"},
		// above --count / 1e12 s the arrivals pass 1e12 s in some seeds:
		// seed 1's 8th of 10 arrives at 1.14e12 s at 1.1e-11 jobs/s
		{[]string{"simulate", "--arrival-rate", "1.1e-11", "--servers", "2", "--count", "10"}, `simulate: --arrival-rate 1.1e-11, --count 10, seed 1: planner: poisson workload: an arrival past MaxTime (1e+12 s): job "j7" (8 of 10) arrives at 1.1398937487166677e+12 s`},
		{append(poisson, "--early-stop", "NaN"), "simulate: --early-stop NaN: want a finite number"},
		{[]string{"plan", "--jobs", jobs, "--servers", "4", "--p", "Inf"}, "plan: --p +Inf: want a finite number"},
		{append(rep, "--servers", "16", "--knee-alpha", "-Inf"), "report: --knee-alpha -Inf: want a finite number"},
		{[]string{"plan", "--jobs", jobs, "--servers", "4", "extra.csv"}, `plan: unexpected argument "extra.csv": plan reads flags only`},
		{[]string{"simulate", "--jobs", jobs, "--servers", "4", "a", "b"}, `simulate: unexpected argument "a" (and 1 more)`},
		{[]string{"simulate", "--jobs", jobs, "--servers", "4", "--policy", "numeric", "x"}, `simulate: unexpected argument "x"`},
		{append(rep, "--servers", "16", "extra.csv"), `report: unexpected argument "extra.csv"`},
		{[]string{"simulate", "--jobs", jobs, "--servers", "4", "--seeds", "100000"}, "--seeds 100000: want 1 to 10000"},
		{append(rep, "--servers", "16", "--seeds", "20000"), "report: --seeds 20000: want 2 to 10000"},
		{[]string{"simulate", "--jobs", jobs, "--servers", "4", "--plot", dir}, "simulate: --plot " + dir + " is a folder"},
		{[]string{"simulate", "--jobs", jobs, "--servers", "4", "--plot", filepath.Join(dir, "no", "s.png")}, "simulate: --plot " + filepath.Join(dir, "no", "s.png") + ": folder"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitBadInput, c.want)
		}
		if stdout != "" || strings.Contains(stderr, "panic") {
			t.Errorf("%v: stdout %q, stderr %q", c.args, stdout, stderr)
		}
	}
	for _, p := range []string{out, plot} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written despite bad input", p)
		}
	}
}

// The largest cluster allowed runs, and quickly (greedy hands out a million
// workers one at a time).
func TestPlanMaxServers(t *testing.T) {
	code, stdout, stderr := runCmd(t, "plan", "--jobs", filepath.Join(jobsExample, "jobs.csv"), "--servers", "1000000", "--policy", "greedy", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// every job placed, each held to its max_workers (the cluster is no
	// limit), so resnet50 gets its 16 workers
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(rows) != 9 || !strings.HasPrefix(rows[1], "greedy,resnet50,0,7200,16,") {
		t.Errorf("plan at a million workers:\n%s", stdout)
	}
}

// The figures of a report draw a curve at every worker count up to 512 and
// at steps of 1% beyond, up to the cluster: at a million workers every count
// took minutes (each prediction of exact MVA costs O(N)).
func TestReportWorkers(t *testing.T) {
	for _, top := range []int{1, 2, 16, 512, 513, 1000, 1000000} {
		ws := reportWorkers(top)
		if ws[0] != 1 || ws[len(ws)-1] != top {
			t.Errorf("top %d: from %d to %d, want 1 to %d", top, ws[0], ws[len(ws)-1], top)
		}
		for i := 1; i < len(ws); i++ {
			if ws[i] <= ws[i-1] || (ws[i] <= 512 && ws[i] != ws[i-1]+1) || float64(ws[i]) > 1.0101*float64(ws[i-1])+1 {
				t.Errorf("top %d: %d after %d", top, ws[i], ws[i-1])
			}
		}
		if top <= 512 && len(ws) != top {
			t.Errorf("top %d: %d counts, want every one", top, len(ws))
		}
		if len(ws) > 1300 {
			t.Errorf("top %d: %d counts, want at most 1300", top, len(ws))
		}
	}
}
