package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// predict's csv gives the busiest shard station as its json does (it was
// json only: a script reading the csv could not tell check's saturation
// from predict's numbers), the same value on every row.
func TestPredictCSVBusiest(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	args := []string{"predict", "--model", mp, "--workers", "1,4,16,64"}
	_, js, stderr := runCmd(t, append(args, "--format", "json")...)
	var rows []predictRow
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 4 {
		t.Fatalf("json: %v: %s", err, stderr)
	}
	_, cs, _ := runCmd(t, append(args, "--format", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(cs)).ReadAll()
	if err != nil || len(recs) != 5 {
		t.Fatalf("csv: %v\n%s", err, cs)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, r := range rows {
		u, err := strconv.ParseFloat(recs[i+1][col["busiest_utilization"]], 64)
		if err != nil || r.Busiest <= 0 || relDiff(u, r.Busiest) > 1e-9 || recs[i+1][col["busiest_station"]] != r.BusiestStation {
			t.Errorf("%d workers: csv %q %q, json %g %q", r.Workers, recs[i+1][col["busiest_utilization"]], recs[i+1][col["busiest_station"]], r.Busiest, r.BusiestStation)
		}
	}
}

// A model without the network leaves the two columns empty.
func TestPredictCSVBusiestEmptyWithoutNetwork(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s,mode\n1,0,32,100,allreduce\n2,0,32,190,allreduce\n4,0,32,350,allreduce\n")
	mp := dir + "/m.json"
	if code, _, stderr := runCmd(t, "fit", dir, "--family", "powerlaw", "--out", mp); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	_, cs, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,8", "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(cs)).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("csv: %v\n%s%s", err, cs, stderr)
	}
	n := len(recs[0])
	if recs[0][n-2] != "busiest_utilization" || recs[0][n-1] != "busiest_station" {
		t.Fatalf("header %q", recs[0])
	}
	for _, r := range recs[1:] {
		if r[n-2] != "" || r[n-1] != "" {
			t.Errorf("row %q: want the busiest columns empty", r)
		}
	}
}

func relDiff(a, b float64) float64 {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d / b
}
