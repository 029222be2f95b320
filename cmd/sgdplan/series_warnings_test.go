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
// warn they miss their own data or are superlinear (docs/fitting.md). No
// series misses its data: the warning is for forms that cannot follow a
// table, not for the scatter of real measurements about a form that does. It takes minutes,
// so it runs only with SGDPLAN_SERIES_WARNINGS=1:
//
//	SGDPLAN_SERIES_WARNINGS=1 go test ./cmd/sgdplan -run TestSeriesWarnings -v -timeout 30m
func TestSeriesWarnings(t *testing.T) {
	if os.Getenv("SGDPLAN_SERIES_WARNINGS") != "1" {
		t.Skip("set SGDPLAN_SERIES_WARNINGS=1 to fit every public series (minutes)")
	}
	data := sharedData(t)
	for _, ds := range []string{"pollux-osdi21", "dl2-mxnet-ps-speed", "elasticflow-asplos23", "tf-cnn-benchmarks-2017", "gavel-osdi20", "shockwave-nsdi23"} {
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
		misses, super, failed := []string{}, []string{}, 0
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
				super = append(super, s)
			}
		}
		t.Logf("%s: %d series, %d not fitted, %d miss their data %v, %d superlinear %v", ds, len(series), failed, len(misses), misses, len(super), super)
		// no series misses its data; none is superlinear but a few of
		// Gavel's, whose data are (5 of its 56 jobs measured at 1 and 8
		// GPUs do more than 8 times one GPU's samples at 8:
		// fit.GavelReading, docs/validation.md)
		most := map[string]int{"gavel-osdi20": 3, "shockwave-nsdi23": 1}[ds] // as docs/fitting.md says
		if failed > 0 || len(misses) > 0 || len(super) > most {
			t.Errorf("%s: %d not fitted, the miss warning on %v, superlinear %v (want at most %d)", ds, failed, misses, super, most)
		}
	}
}
