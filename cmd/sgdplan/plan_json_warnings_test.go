package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// plan's and simulate's json carry the jobs file's warnings, as stderr
// says them (a script reading the json saw the policies' own alone): in
// every policy's object, before the policy's own.
func TestPlanJSONCarriesJobWarnings(t *testing.T) {
	// an unknown column (the reader's warning), --p on no job, and, for
	// hesrpt, exponents that differ
	jobs := writeTestFile(t, t.TempDir(), "jobs.csv", "job,arrival,size,p,bogus\na,0,100,0.5,1\nb,0,50,0.9,2\n")
	const want = "--p 0.7 applies to no job"
	for _, cmd := range []string{"plan", "simulate"} {
		code, stdout, stderr := runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--p", "0.7", "--policy", "hesrpt,equi", "--format", "json")
		if code != 0 || !strings.Contains(stderr, "sgdplan: warning: "+want) {
			t.Fatalf("%s: exit %d: %s", cmd, code, stderr)
		}
		// every stderr warning is in the first policy's json (hesrpt's),
		// once
		var said []string
		for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
			said = append(said, strings.TrimPrefix(l, "sgdplan: warning: "))
		}
		var out []struct {
			Policy   string   `json:"policy"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out) != 2 {
			t.Fatalf("%s: %v\n%s", cmd, err, stdout)
		}
		for _, p := range out {
			if len(p.Warnings) == 0 || !strings.Contains(strings.Join(p.Warnings, "\n"), want) {
				t.Errorf("%s, %s: warnings %q", cmd, p.Policy, p.Warnings)
			}
		}
		for _, w := range said {
			// (plan's policy warnings are said on stderr under the
			// policy's name, and in its own object without it)
			n := countOf(out[0].Warnings, w)
			if own, ok := strings.CutPrefix(w, "hesrpt: "); ok {
				n += countOf(out[0].Warnings, own)
			}
			if n != 1 {
				t.Errorf("%s: %q is %d times in hesrpt's json warnings %q", cmd, w, n, out[0].Warnings)
			}
		}
	}
}

// Under --policy all with a job too wide for fcfs-rigid, numeric's json
// said twice that fcfs-rigid was left out (the jobs file's warning and its
// search's own): each warning once per policy.
func TestPlanJSONWarningsOnce(t *testing.T) {
	jobs := writeTestFile(t, t.TempDir(), "jobs.csv", "job,arrival,size,p,rigid_workers\na,0,100,0.5,16\nb,0,50,0.9,\n")
	code, stdout, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "8", "--policy", "all", "--format", "json")
	if code != 0 || !strings.Contains(stderr, "policy fcfs-rigid left out") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out []struct {
		Policy   string   `json:"policy"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	for _, p := range out {
		seen := map[string]int{}
		for _, w := range p.Warnings {
			// the same warning in numeric's search's words
			w = strings.TrimPrefix(strings.TrimPrefix(w, "planner: optimize: "), "policy ")
			if seen[w]++; seen[w] == 2 {
				t.Errorf("%s: %q twice in %q", p.Policy, w, p.Warnings)
			}
		}
	}
}

func countOf(ws []string, w string) int {
	n := 0
	for _, x := range ws {
		if x == w {
			n++
		}
	}
	return n
}

// simulate's json carries the run's warnings too, each once in every
// policy's object: a queue that grows (the means are not steady-state
// values), an overload, one seed of a random workload, --seeds on a fixed
// jobs file. It said none of them, so a script read a growing mean as an
// answer.
func TestSimulateJSONCarriesRunWarnings(t *testing.T) {
	jobs := writeTestFile(t, t.TempDir(), "jobs.csv", "job,arrival,size,p\na,0,100,0.5\nb,0,50,0.9\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--servers", "32", "--arrival-rate", "0.005", "--count", "300", "--policy", "srpt,hesrpt", "--seeds", "3"}, "for srpt the queue grows"},
		{[]string{"--servers", "4", "--arrival-rate", "10", "--count", "50", "--policy", "equi,srpt"}, "overloaded: offered load"},
		{[]string{"--servers", "4", "--arrival-rate", "0.001", "--count", "50", "--policy", "equi,srpt"}, "one seed of a random workload"},
		{[]string{"--servers", "4", "--jobs", jobs, "--seeds", "3", "--policy", "equi,srpt"}, "--seeds 3: with --jobs and no --early-stop nothing is random"},
		// said in planParse, which plan shares (it was stderr's alone)
		{[]string{"--servers", "4", "--jobs", jobs, "--policy", "equi,srpt", "--knee-alpha", "0.1"}, "--knee-alpha 0.1: --policy equi,srpt does not use it"},
	} {
		code, stdout, stderr := runCmd(t, append([]string{"simulate", "--format", "json"}, c.args...)...)
		if code != 0 || !strings.Contains(stderr, "sgdplan: warning: "+c.want) {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		var out []struct {
			Policy   string   `json:"policy"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out) != 2 {
			t.Fatalf("%v: %v\n%s", c.args, err, stdout)
		}
		for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
			w, ok := strings.CutPrefix(l, "sgdplan: warning: ")
			if !ok {
				t.Errorf("%v: stderr line %q", c.args, l)
				continue
			}
			for _, p := range out {
				if n := countOf(p.Warnings, w); n != 1 {
					t.Errorf("%v: %q is %d times in %s's json warnings %q", c.args, w, n, p.Policy, p.Warnings)
				}
			}
		}
	}
}
