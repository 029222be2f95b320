package main

import (
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/planner"
)

// reportLoadsFit keeps the longest runs' arrivals under the simulator's
// 1e12 s at 4 standard deviations, counting the jobs those runs draw
// (4 x --sim-jobs up to 4,000, else --sim-jobs): jobs of 1e9 s on one
// server take 400 jobs x 1e9 s / load, 480 with the margin, so a load of
// 0.5 is taken and 0.4 refused; at --sim-jobs 2000 there is no longer run.
// (It counted 4 x --sim-jobs, twice, always: loads that ran were refused.)
func TestReportLoadsFit(t *testing.T) {
	jobs := []planner.Job{{ID: "a", Size: 1e9}}
	if err := reportLoadsFit(jobs, 1, []float64{0.5, 0.85}, 100); err != nil {
		t.Errorf("load 0.5: %v", err)
	}
	if err := reportLoadsFit(jobs, 1, []float64{0.4, 0.85}, 100); err == nil || !strings.Contains(err.Error(), "the 400 jobs of the longest runs") || !strings.Contains(err.Error(), "want loads of at least 0.48") {
		t.Errorf("load 0.4: %v", err)
	}
	// 2,000 jobs, no longer run: 2000 + 4 sqrt(2000) = 2178.9 gaps
	if err := reportLoadsFit(jobs, 1000, []float64{0.003}, 2000); err != nil {
		t.Errorf("2000 jobs at 0.003 on 1000 servers: %v", err)
	}
	if err := reportLoadsFit(jobs, 1000, []float64{0.003}, 1000); err == nil || !strings.Contains(err.Error(), "the 4000 jobs") {
		t.Errorf("1000 jobs (4000 in the longer runs) at 0.003 on 1000 servers: %v", err)
	}
}
