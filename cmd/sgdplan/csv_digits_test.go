package main

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
)

// plan's and simulate's csv give every digit of a time, as their json
// does: 10 significant digits printed an arrival of 123456789012.345 s
// and its completion 25 s later alike, 1.23456789e+11.
func TestPlanSimulateCSVKeepDigits(t *testing.T) {
	dir := t.TempDir()
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p\na,123456789012.345,100,0.8\nb,123456789013.5,50,0.8\n")
	for _, args := range [][]string{
		{"plan", "--jobs", jobs, "--servers", "4", "--policy", "equi", "--format", "csv"},
		{"simulate", "--jobs", jobs, "--servers", "4", "--policy", "equi", "--format", "csv"},
	} {
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
		if err != nil || len(rows) < 3 {
			t.Fatalf("%v: %v\n%s", args, err, stdout)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		for _, r := range rows[1:] {
			arr, _ := strconv.ParseFloat(r[col["arrival"]], 64)
			done, _ := strconv.ParseFloat(r[col["completion"]], 64)
			want := 123456789012.345
			if r[col["job"]] == "b" {
				want = 123456789013.5
			}
			if arr != want || !(done-arr > 1) {
				t.Errorf("%v: job %s arrival %s, completion %s", args, r[col["job"]], r[col["arrival"]], r[col["completion"]])
			}
		}
	}
}
