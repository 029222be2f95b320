package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// 100, 400 and 1800 samples/s at 1, 2 and 4 workers fit a power law of
// exponent 1.5 (the form's bound), and fit warns that the form does not
// follow the data and that the throughput is superlinear. check passed 16
// workers, "fine", exit 0, with no word of either (its json had no
// warnings). It now repeats both (table on stderr, json), as predict does
// on stderr, and a "fine" beyond the 4 fitted workers is a warn, exit 3;
// within them the verdict is the form's, with the warnings.
func TestCheckCarriesTrustWarnings(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,400\n4,1,32,1800\n")
	mp := filepath.Join(dir, "p.json")
	if code, _, e := runCmd(t, "fit", dir, "--out", mp); code != 0 {
		t.Fatal(e)
	}
	const miss, super = "the fit misses its own data by", "the fitted throughput is superlinear:"
	code, out, stderr := runCmd(t, "check", "--model", mp, "--workers", "16")
	if code != exitWarn || !strings.HasPrefix(out, "warn: 16 workers is beyond the 4 fitted, and the fitted throughput is superlinear") ||
		!strings.Contains(out, `the form alone says "fine: 16 workers is before the knee`) ||
		!strings.Contains(stderr, miss) || !strings.Contains(stderr, super) {
		t.Errorf("16 workers: exit %d:\n%s%s", code, out, stderr)
	}
	for _, n := range []string{"16", "4"} {
		_, out, _ = runCmd(t, "check", "--model", mp, "--workers", n, "--format", "json")
		var j checkJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		ws := strings.Join(j.Warnings, "\n")
		want := map[string]string{"16": "warn", "4": "fine"}[n]
		if j.Verdict != want || !strings.Contains(ws, miss) || !strings.Contains(ws, super) {
			t.Errorf("%s workers json: %s (want %s), warnings %q", n, j.Verdict, want, j.Warnings)
		}
	}
	if _, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "4"); !strings.Contains(stderr, miss) || !strings.Contains(stderr, super) {
		t.Errorf("predict without the fit's warnings:\n%s", stderr)
	}
}

// The superlinear downgrade is the judged form's own: a rival that cannot
// grow faster than its workers took the main fit's warning with its
// copy, and every rival of a superlinear mean read "warn" beyond the data
// (overhead-async, fitted alone, says fine at 32 workers). A rival that is
// superlinear itself is still downgraded.
func TestCheckRivalsSuperlinearTheirOwn(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,206\n4,1,32,405\n8,1,32,830\n")
	mp := filepath.Join(dir, "m.json")
	if code, _, e := runCmd(t, "fit", dir, "--out", mp); code != 0 {
		t.Fatal(e)
	}
	_, out, stderr := runCmd(t, "check", "--model", mp, "--workers", "32", "--format", "json")
	var j checkJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %s%s", err, out, stderr)
	}
	got := map[string]string{}
	for _, r := range j.Rivals {
		if !r.Start {
			got[r.Family] = r.Verdict
		}
	}
	if j.Verdict != "warn" || got["overhead-async"] != "fine" || got["powerlaw-async"] != "warn" {
		t.Errorf("verdict %s, rivals %v: want warn, overhead-async fine, powerlaw-async warn", j.Verdict, got)
	}
}

// A hand-written model without max_workers or data.configurations (the
// fitted counts not recorded) is not "beyond the 0 fitted": the downgrade
// says the counts are not recorded.
func TestCheckSuperlinearWithoutMaxWorkers(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,400\n4,1,32,1800\n")
	mp := filepath.Join(dir, "p.json")
	if code, _, e := runCmd(t, "fit", dir, "--out", mp); code != 0 {
		t.Fatal(e)
	}
	b, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc["data"].(map[string]any), "configurations")
	delete(doc["reference"].(map[string]any), "max_workers")
	b, _ = json.Marshal(doc)
	os.WriteFile(mp, b, 0o644)
	code, out, stderr := runCmd(t, "check", "--model", mp, "--workers", "16")
	if code != exitWarn || !strings.HasPrefix(out, "warn: the model does not record the fitted worker counts, and the fitted throughput is superlinear") || strings.Contains(out, "beyond the 0 fitted") {
		t.Errorf("exit %d:\n%s%s", code, out, stderr)
	}
}
