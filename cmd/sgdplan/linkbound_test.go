package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A fitted form that does not model the links (the auto family of
// testdata/synthetic/async-ps, a mean of two table forms) may predict more
// updates per second than the links carry: P B / S, with S and B from
// runs.csv (4e6 B and 4e8 B/s: 100 updates/s on one shard). predict and
// check warn at the first count above it, quoting it; the mva family,
// whose network holds the bound, gets no such warning. Before, the form's
// 160.8 steps/s at 64 workers went without a word.
func TestLinkBoundWarning(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "synthetic", "async-ps")
	f, err := os.Open(filepath.Join(dir, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	s, err1 := strconv.ParseFloat(recs[1][col["param_bytes"]], 64)
	b, err2 := strconv.ParseFloat(recs[1][col["bandwidth"]], 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("runs.csv: param_bytes %v, bandwidth %v", err1, err2)
	}
	bound := b / s // one shard
	tmp := t.TempDir()
	auto, mva := filepath.Join(tmp, "auto.json"), filepath.Join(tmp, "mva.json")
	for _, c := range [][]string{{"--out", auto}, {"--family", "mva", "--out", mva}} {
		if code, _, stderr := runCmd(t, append([]string{"fit", dir, "--bootstrap", "20"}, c...)...); code != 0 {
			t.Fatalf("fit %v: %s", c, stderr)
		}
	}
	if fam := readModelDoc(t, auto)["family"]; fam == "mva" {
		t.Fatalf("the auto family is mva: the case under test needs a form without links")
	}
	ws := "2,4,8,16,24,32,64"
	code, stdout, stderr := runCmd(t, "predict", "--model", auto, "--workers", ws, "--ps", "1", "--format", "json")
	var rows []predictRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatalf("predict exit %d: %v: %s", code, err, stderr)
	}
	first := -1
	for i, r := range rows {
		if r.StepsPerS > bound {
			first = i
			break
		}
	}
	if first < 0 {
		t.Fatalf("no prediction above %g steps/s: the case under test is gone", bound)
	}
	want := fmt.Sprintf("at %d workers and 1 shard the %s form predicts %.4g steps/s, above the %.4g updates/s the links can carry", rows[first].Workers, readModelDoc(t, auto)["family"], rows[first].StepsPerS, bound)
	if !strings.Contains(stderr, want) {
		t.Errorf("predict: stderr lacks %q:\n%s", want, stderr)
	}
	last := rows[len(rows)-1]
	if code, stdout, stderr := runCmd(t, "check", "--model", auto, "--workers", "64", "--ps", "1", "--format", "json"); !strings.Contains(stderr, fmt.Sprintf("at 64 workers and 1 shard the %s form predicts %.4g steps/s", readModelDoc(t, auto)["family"], last.StepsPerS)) || !strings.Contains(stdout, "links can carry") {
		t.Errorf("check --workers 64: exit %d, want the warning on stderr and in json:\n%s\n%s", code, stderr, stdout)
	}
	// within the bound: no warning (2 workers, whose interval is under it)
	if rows[0].StepsPerSHi < bound {
		if _, _, stderr := runCmd(t, "predict", "--model", auto, "--workers", "2", "--ps", "1"); strings.Contains(stderr, "links can carry") {
			t.Errorf("predict at 2 workers (%g steps/s, up to %g): %s", rows[0].StepsPerS, rows[0].StepsPerSHi, stderr)
		}
	}
	if _, _, stderr := runCmd(t, "predict", "--model", mva, "--workers", ws, "--ps", "1"); strings.Contains(stderr, "links can carry") {
		t.Errorf("predict on the mva model: its network holds the bound, want no warning:\n%s", stderr)
	}
}
