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
	jobs := writeTestFile(t, t.TempDir(), "jobs.csv", "job,arrival,size,p\na,0,100,0.5\nb,0,50,0.9\n")
	const want = "--p 0.7 applies to no job"
	for _, cmd := range []string{"plan", "simulate"} {
		code, stdout, stderr := runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--p", "0.7", "--policy", "hesrpt,equi", "--format", "json")
		if code != 0 || !strings.Contains(stderr, "sgdplan: warning: "+want) {
			t.Fatalf("%s: exit %d: %s", cmd, code, stderr)
		}
		var out []struct {
			Policy   string   `json:"policy"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out) != 2 {
			t.Fatalf("%s: %v\n%s", cmd, err, stdout)
		}
		for _, p := range out {
			if len(p.Warnings) == 0 || !strings.HasPrefix(p.Warnings[0], want) {
				t.Errorf("%s, %s: warnings %q", cmd, p.Policy, p.Warnings)
			}
		}
	}
}
