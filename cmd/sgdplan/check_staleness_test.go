package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// An async model fitted on one worker count has its staleness cost taken
// as 0 (lambda_fixed): check's verdict then judges the speed alone, and it
// says so, as predict does, for any count past 1 worker; where the data
// measure lambda (two worker counts) it does not. Before, check said
// "fine" at 8 workers with no word of it, while predict warned.
func TestCheckStalenessUnknown(t *testing.T) {
	dir := t.TempDir()
	const want = "the staleness cost is not identified"
	one := filepath.Join(dir, "one.json")
	if code, _, stderr := runCmd(t, "fit", fitAsync, "--family", "mva", "--train-workers", "1", "--bootstrap", "20", "--out", one); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	if doc := readModelDoc(t, one); doc["efficiency"].(map[string]any)["lambda_fixed"] != true {
		t.Fatalf("the model of one worker count: lambda_fixed is %v, want true (the case under test)", doc["efficiency"].(map[string]any)["lambda_fixed"])
	}
	code, stdout, stderr := runCmd(t, "check", "--model", one, "--workers", "8", "--format", "json")
	var out checkJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("check exit %d: %v: %s", code, err, stderr)
	}
	if !strings.Contains(stderr, "sgdplan: warning: "+want) || !strings.Contains(strings.Join(out.Warnings, "\n"), want) {
		t.Errorf("check --workers 8 on a model without a staleness cost: want the warning on stderr and in json's warnings:\n%s\n%v", stderr, out.Warnings)
	}
	if _, _, stderr := runCmd(t, "check", "--model", one, "--workers", "1"); strings.Contains(stderr, want) {
		t.Errorf("check --workers 1: no staleness at 1 worker, want no warning:\n%s", stderr)
	}
	two := fitModel(t, dir, "--train-workers", "1,2", "--bootstrap", "20")
	if doc := readModelDoc(t, two); doc["efficiency"].(map[string]any)["lambda_fixed"] == true {
		t.Fatalf("the model of two worker counts: lambda_fixed, want it measured")
	}
	if _, _, stderr := runCmd(t, "check", "--model", two, "--workers", "8"); strings.Contains(stderr, want) {
		t.Errorf("check on a model whose staleness cost is measured: want no warning:\n%s", stderr)
	}
}

// A saturated PS link gives "add a shard"; when the count is also past
// the best time to target (the staleness cost), the reason says that too,
// with the fastest count and how much longer, as predict's time to target
// gives them: a shard would not undo the staleness. Before, the reason
// stopped at the shard (asgd at 64 workers on 8 shards takes 50% longer
// to the target than the fastest count).
func TestCheckSaturatedPastBestTime(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--bootstrap", "20", "--out", m); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	var ws []string
	for k := 1; k <= 64; k++ {
		ws = append(ws, strconv.Itoa(k))
	}
	code, stdout, stderr := runCmd(t, "predict", "--model", m, "--workers", strings.Join(ws, ","), "--ps", "8", "--format", "json")
	var rows []struct {
		Workers int     `json:"workers"`
		Time    float64 `json:"time_to_target_s"`
	}
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil || len(rows) != 64 {
		t.Fatalf("predict exit %d: %v: %s", code, err, stderr)
	}
	best := rows[0]
	for _, r := range rows {
		if !(r.Time > 0) {
			t.Fatalf("predict: time to target %g at %d workers", r.Time, r.Workers)
		}
		if r.Time < best.Time {
			best = r
		}
	}
	want := fmt.Sprintf("and past the best time to target with 8 shards: 64 workers take %s longer to the target than %s, the fastest", pctText(100*(rows[63].Time/best.Time-1)), workersWord(best.Workers))
	code, stdout, _ = runCmd(t, "check", "--model", m, "--workers", "64", "--ps", "8")
	if code != exitFail || !strings.HasPrefix(stdout, "fail: PS link saturated") || !strings.Contains(stdout, want) {
		t.Errorf("check --workers 64 --ps 8: exit %d, want %d, a saturated link and %q:\n%s", code, exitFail, want, stdout)
	}
	// at the fastest count itself the link may be saturated, but the time
	// to target is at its best: no such clause
	if _, stdout, _ = runCmd(t, "check", "--model", m, "--workers", strconv.Itoa(best.Workers), "--ps", "8"); strings.Contains(stdout, "past the best time") {
		t.Errorf("check at the fastest count %d: %s", best.Workers, stdout)
	}
}
