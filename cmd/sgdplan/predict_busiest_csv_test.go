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

func relDiff(a, b float64) float64 {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d / b
}
