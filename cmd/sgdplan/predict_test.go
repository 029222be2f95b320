package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestPredictGolden(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"predict-table.golden", []string{"--workers", "1-4,8,16", "--ps", "1,2"}},
		{"predict-csv.golden", []string{"--workers", "1,2,4", "--format", "csv", "--target-loss", "1.5"}},
		{"predict-bandwidth.golden", []string{"--workers", "1,8,32", "--bandwidth", "1e8", "--epochs", "1", "--format", "json"}},
	} {
		code, stdout, stderr := runCmd(t, append([]string{"predict", "--model", mp}, c.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.golden, code, stderr)
		}
		fitGolden(t, c.golden, dir, stdout+"--- stderr\n"+stderr)
	}
}

// A lower bandwidth makes the link demand larger: fewer steps/s at 32
// workers, where the link matters, and nearly the same at 1.
func TestPredictBandwidthScales(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	get := func(bw string) float64 {
		code, out, stderr := runCmd(t, "predict", "--model", mp, "--workers", "32", "--format", "csv", "--bandwidth", bw)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		v, err := strconv.ParseFloat(strings.Split(strings.Split(out, "\n")[1], ",")[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// The fixture's link: 4e6 B at 4e8 B/s = 0.01 s; at 4e7 B/s, 0.1 s:
	// with one shard at most 1/0.1 = 10 steps/s.
	slow := get("4e7")
	if slow > 10 {
		t.Errorf("32 workers at 4e7 B/s: %g steps/s, want under 10", slow)
	}
	if fast := get("4e8"); fast < 2*slow {
		t.Errorf("32 workers: %g steps/s at 4e8 B/s, %g at 4e7: want at least twice", fast, slow)
	}
}

func TestPredictBadInput(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "sgdplan/model/v9"}`), 0o644)
	garbage := filepath.Join(dir, "garbage.json")
	os.WriteFile(garbage, []byte("{\n  \"schema\": ,\n}"), 0o644)
	table := filepath.Join(dir, "table.json")
	if code, _, e := runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", table); code != 0 {
		t.Fatal(e)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unreadable", []string{"--model", filepath.Join(dir, "none.json")}, "none.json: no such file"},
		{"version", []string{"--model", bad}, `unknown schema version "sgdplan/model/v9"`},
		{"syntax", []string{"--model", garbage}, "garbage.json:2:"},
		{"workers", []string{"--model", mp, "--workers", "0-4"}, "want counts >= 1"},
		{"both targets", []string{"--model", mp, "--target-loss", "1", "--epochs", "2"}, "exclude each other"},
		{"floor", []string{"--model", mp, "--target-loss", "-1"}, "never reached"},
		{"bandwidth family", []string{"--model", table, "--bandwidth", "1e9"}, "--bandwidth needs a queueing-network model"},
		{"no loss curve", []string{"--model", table, "--target-loss", "1"}, "has no loss curve"},
		{"format", []string{"--model", mp, "--format", "xml"}, `--format "xml"`},
	}
	for _, c := range cases {
		code, _, stderr := runCmd(t, append([]string{"predict"}, c.args...)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
	}
}
