package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fit --out under a trace file's name (any case, .gz too) is refused
// before the fit: model.json written as a folder's Runs.csv was then read
// as its runs.csv ("header has {").
func TestFitOutTraceName(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "synthetic", "async-ps")
	for _, name := range []string{"Runs.csv", "steps.csv.gz", "EVALS.CSV"} {
		out := filepath.Join(dir, name)
		code, _, stderr := runCmd(t, "fit", src, "--out", out)
		if code != exitBadInput || !strings.Contains(stderr, "a trace file's name") || !strings.Contains(stderr, "such as model.json") {
			t.Errorf("--out %s: exit %d: %s", name, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--out %s was written", name)
		}
	}
	if code, _, stderr := runCmd(t, "fit", src, "--out", filepath.Join(dir, "runs.json")); code != 0 {
		t.Errorf("--out runs.json: exit %d: %s", code, stderr)
	}
}

// --queueing and --shared-cores shape only the mva family's network: when
// the model kept is another family, fit says so (they were dropped
// without a word); when mva is kept, nothing.
func TestFitSaysNetworkFlagsUnused(t *testing.T) {
	dir := t.TempDir()
	cpu := filepath.Join("..", "..", "testdata", "asgd", "cpu")
	const say = "modelled only by the two-node profile's network (family mva)"
	code, _, stderr := runCmd(t, "fit", cpu, "--shared-cores", "2", "--queueing", "flow", "--bootstrap", "20", "--out", filepath.Join(dir, "a.json"))
	if code != 0 || !strings.Contains(stderr, "--queueing flow and --shared-cores 2 are "+say) {
		t.Errorf("auto on cpu: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCmd(t, "fit", cpu, "--shared-cores", "2", "--family", "mva", "--bootstrap", "20", "--out", filepath.Join(dir, "m.json"))
	if code != 0 || strings.Contains(stderr, say) {
		t.Errorf("--family mva: exit %d: %s", code, stderr)
	}
	// on synchronous data it does not send the user to --family mva,
	// which refuses them
	code, _, stderr = runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--shared-cores", "4", "--bootstrap", "20", "--out", filepath.Join(dir, "s.json"))
	if code != 0 || !strings.Contains(stderr, say) || strings.Contains(stderr, "--family mva keeps") || !strings.Contains(stderr, "the network is asynchronous SGD's, and these data are") {
		t.Errorf("sync data: exit %d: %s", code, stderr)
	}
}
