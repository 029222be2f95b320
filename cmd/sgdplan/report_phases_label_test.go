package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The phases figure's caption says the model's pull and push are equal
// by its symmetric links, so that only the bars' totals compare.
func TestReportPhasesSymmetricLinks(t *testing.T) {
	dir := t.TempDir()
	md := quickReport(t, asgdModel(t, dir), filepath.Join(jobsExample, "jobs.csv"), "16", filepath.Join(dir, "r"))
	if !strings.Contains(md, "the model's links are symmetric, one demand each way, so where the measured pull and push differ the model does not split them, and only the bars' totals compare") {
		t.Errorf("no symmetric-links sentence in the phases caption:\n%s", md)
	}
}
