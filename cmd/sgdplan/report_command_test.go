package main

import (
	"testing"
)

// The report's "Made by" line is a command that makes the same report:
// every option not at report's default, paths quoted for a shell.
func TestReportOptionsCommand(t *testing.T) {
	o := defaultReportOptions()
	o.model, o.jobs, o.out, o.servers = "m/model.json", "jobs.csv", "r", 16
	if got, want := o.command(), "sgdplan report --model m/model.json --jobs jobs.csv --servers 16 --out r"; got != want {
		t.Errorf("defaults: %q, want %q", got, want)
	}
	o.out, o.model = "sp ace/r x", "it's.json"
	o.policy, o.alpha, o.loads, o.seeds, o.simJobs = "equi", 0.1, []float64{0.4, 0.6}, 3, 50
	want := `sgdplan report --model 'it'\''s.json' --jobs jobs.csv --servers 16 --out 'sp ace/r x' --policy equi --knee-alpha 0.1 --loads 0.4,0.6 --seeds 3 --sim-jobs 50`
	if got := o.command(); got != want {
		t.Errorf("every option: %q, want %q", got, want)
	}
	for s, q := range map[string]string{"": "''", "a$b": "'a$b'", "x;rm": "'x;rm'", "a/b-c_d.e": "a/b-c_d.e", "~/x": "'~/x'"} {
		if got := shellQuote(s); got != q {
			t.Errorf("shellQuote(%q) = %s, want %s", s, got, q)
		}
	}
}
