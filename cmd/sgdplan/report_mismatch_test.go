package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The traces report finds for a model must be those it was fitted on: a
// folder of the stored relative name in the working folder, holding
// another run's traces, was drawn as the model's without a word.
func TestReportTracesOfAnotherRun(t *testing.T) {
	mp := asgdModel(t, t.TempDir())
	m, err := loadModel("report", mp)
	if err != nil {
		t.Fatal(err)
	}
	own := filepath.Join("..", "..", "testdata", "asgd")
	other := filepath.Join("..", "..", "testdata", "synthetic", "async-ps")
	tr, warn, note := reportTraces(mp, m, traceLookup{stored: m.Data.Paths, paths: []string{own}})
	if tr == nil || warn != "" || note != "" {
		t.Fatalf("its own traces: %v, %q, %q", tr != nil, warn, note)
	}
	tr, warn, _ = reportTraces(mp, m, traceLookup{stored: m.Data.Paths, paths: []string{other}})
	want := "the traces found at " + other + " are not those " + mp + " was fitted on: none of their runs is its run of 1 worker and 1 shard at "
	if tr != nil || !strings.HasPrefix(warn, want) || !strings.Contains(warn, "the phases and staleness figures are left out") {
		t.Errorf("another run's traces: read %v, warning %q; want none read and %q", tr != nil, warn, want)
	}
}
