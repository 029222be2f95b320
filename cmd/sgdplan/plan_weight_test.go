package main

import (
	"strings"
	"testing"
)

// Weights outside 1e-6..1e6 are refused at their cell, exit 2 (the review's
// inputs): 5e-324 panicked simulate --policy hesrpt-slowdown (slice bounds
// out of range in roundWorkers, exit 2 as for bad input), 1e308 gave "NaN
// workers" (exit 1, no file or line), and 1e300 on a size of 1e12 printed a
// weighted flow time of +Inf as the optimum (exit 0; json failed). An
// arrival of -0 is printed as 0, not -0, in the table, csv and json.
func TestPlanSimulateWeightOutOfRange(t *testing.T) {
	dir := t.TempDir()
	w3 := writeTestFile(t, dir, "w3.csv", "job,arrival,size,p,weight\na,0,10,0.5,5e-324\nb,0,20,0.5,1\n")
	w1 := writeTestFile(t, dir, "w1.csv", "job,arrival,size,p,weight\na,0,10,0.5,1e308\nb,0,20,0.5,1e308\n")
	inf := writeTestFile(t, dir, "inf.csv", "job,arrival,size,p,weight\na,0,1e12,0.5,1e300\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--jobs", w3, "--servers", "4", "--policy", "hesrpt-slowdown"}, w3 + ":2:12: weight: want a weight from 1e-06 to 1e+06, got 5e-324"},
		{[]string{"plan", "--jobs", w3, "--servers", "4"}, w3 + ":2:12: weight: want a weight from 1e-06 to 1e+06, got 5e-324"},
		{[]string{"plan", "--jobs", w1, "--servers", "4"}, w1 + ":2:12: weight: want a weight from 1e-06 to 1e+06, got 1e+308"},
		{[]string{"simulate", "--jobs", w1, "--servers", "4"}, w1 + ":2:12: weight: want a weight from 1e-06 to 1e+06, got 1e+308"},
		{[]string{"plan", "--jobs", inf, "--servers", "4", "--format", "json"}, inf + ":2:14: weight: want a weight from 1e-06 to 1e+06, got 1e+300"},
	} {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	negzero := writeTestFile(t, dir, "negzero.csv", "job,arrival,size,p\na,-0,10,0.5\n")
	for _, format := range []string{"table", "csv", "json"} {
		code, stdout, stderr := runCmd(t, "plan", "--jobs", negzero, "--servers", "4", "--format", format)
		if code != 0 || strings.Contains(stdout, "-0") {
			t.Errorf("arrival -0, --format %s: exit %d, stderr %q, stdout has -0:\n%s", format, code, stderr, stdout)
		}
	}
}
