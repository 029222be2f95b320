package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// The response-time panel says which load and runs it is of, and fades
// the curves of policies whose queue still grew at that load (marked * or
// † in the table): they are a run's length, not the policy's.
func TestReportSimulateCDFTitleAndFaded(t *testing.T) {
	c := cli.NewContext(&cli.App{ErrWriter: io.Discard}, nil, nil)
	o := reportOptions{servers: 16, seeds: 3, simJobs: 100, loads: []float64{0.3, 0.7, 0.85}, alpha: 0.05, seed: 1}
	jobs, _, err := planReadJobsUsing(filepath.Join(jobsExample, "jobs.csv"), planReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, tab, _, _, err := reportSimulate(c, o, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Response times at load 0.7 (3 seeds x 100 jobs)"; d.CDFTitle != want {
		t.Errorf("title %q, want %q", d.CDFTitle, want)
	}
	col := -1
	for i, h := range tab.Columns {
		if h == "load 0.7" {
			col = i
		}
	}
	faded, kept := 0, 0
	for i, r := range d.Responses {
		cell := tab.Rows[i][col]
		if tab.Rows[i][0] != r.Policy {
			t.Fatalf("row %d is %s, response %s", i, tab.Rows[i][0], r.Policy)
		}
		marked := strings.HasSuffix(cell, "*") || strings.HasSuffix(cell, "†")
		if r.NotSteady != marked {
			t.Errorf("%s: faded %v, cell at 0.7 %q", r.Policy, r.NotSteady, cell)
		}
		if r.NotSteady {
			faded++
		} else {
			kept++
		}
	}
	if faded == 0 || kept == 0 {
		t.Errorf("%d faded, %d not: want some of each at load 0.7 on this workload", faded, kept)
	}
}
