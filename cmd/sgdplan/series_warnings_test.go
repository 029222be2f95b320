package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSeriesWarnings fits every series of the public tables one by one, as
// a user would (`convert`, then `fit --series`), and counts the fits that
// warn they miss their own data or are superlinear (docs/fitting.md). On
// the three datasets of the validation targets no series misses its data:
// the warning is for forms that cannot follow a table, not for the
// scatter of real measurements about a form that does. It takes minutes,
// so it runs only with SGDPLAN_SERIES_WARNINGS=1:
//
//	SGDPLAN_SERIES_WARNINGS=1 go test ./cmd/sgdplan -run TestSeriesWarnings -v -timeout 30m
func TestSeriesWarnings(t *testing.T) {
	if os.Getenv("SGDPLAN_SERIES_WARNINGS") != "1" {
		t.Skip("set SGDPLAN_SERIES_WARNINGS=1 to fit every public series (minutes)")
	}
	data := sharedData(t)
	for _, ds := range []string{"pollux-osdi21", "dl2-mxnet-ps-speed", "elasticflow-asplos23", "tf-cnn-benchmarks-2017", "gavel-osdi20"} {
		dir := filepath.Join(t.TempDir(), ds)
		if code, _, stderr := runCmd(t, "convert", "--from", ds, data, "--out", dir); code != 0 {
			t.Fatalf("%s: convert: exit %d: %s", ds, code, stderr)
		}
		f, err := os.Open(filepath.Join(dir, "throughput.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(rows[0], "model")
		var series []string
		for _, r := range rows[1:] {
			if !slices.Contains(series, r[col]) {
				series = append(series, r[col])
			}
		}
		misses, super, failed := []string{}, 0, 0
		for _, s := range series {
			code, _, stderr := runCmd(t, "fit", dir, "--series", s, "--out", filepath.Join(dir, "m.json"))
			if code != 0 {
				failed++
				continue
			}
			if strings.Contains(stderr, "the fit misses its own data") {
				misses = append(misses, s)
			}
			if strings.Contains(stderr, "the fitted throughput is superlinear") {
				super++
			}
		}
		t.Logf("%s: %d series, %d not fitted, %d miss their data %v, %d superlinear", ds, len(series), failed, len(misses), misses, super)
		if ds == "pollux-osdi21" || ds == "dl2-mxnet-ps-speed" || ds == "elasticflow-asplos23" {
			if len(misses) > 0 {
				t.Errorf("%s: the miss warning on %v", ds, misses)
			}
		}
	}
}
