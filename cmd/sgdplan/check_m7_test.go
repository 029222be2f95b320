package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The exit code is raised by a bound only where the bound's verdict is
// worse than the count given's: 4 replicas given at warn (check --workers
// 4 exits 3), in a range 1 to 4 whose top is that same warn, keeps exit 3
// with no exit_from and no exit line (the worst of the range is the count
// given, not the bound).
func TestCheckElasticGivenAsBadM7(t *testing.T) {
	dir := t.TempDir()
	mp := asgdModel(t, dir)
	at := func(w int) int {
		c, _, _ := runCmd(t, "check", "--model", mp, "--workers", strconv.Itoa(w), "--ps", "1")
		return c
	}
	if at(1) != exitOK || at(4) != exitWarn {
		t.Fatalf("check at 1 and 4 workers: exit %d and %d, want 0 and 3 for this test", at(1), at(4))
	}
	pt := writeTestFile(t, dir, "pt.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  elasticPolicy:\n    minReplicas: 1\n    maxReplicas: 4\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 4\n")
	code, out, _ := runCmd(t, "check", "--model", mp, pt, "--format", "json")
	var j checkJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if code != exitWarn || j.ExitCode != exitWarn || j.ExitFrom != "" || len(j.ElasticEnds) != 2 {
		t.Errorf("4 replicas given, range 1 to 4: exit %d, exit_code %d, exit_from %q, %d ends; want 3, 3, none, 2", code, j.ExitCode, j.ExitFrom, len(j.ElasticEnds))
	}
	if _, out, _ = runCmd(t, "check", "--model", mp, pt); strings.Contains(out, "the worst of the job's range") {
		t.Errorf("4 replicas given, range 1 to 4: an exit line in %q", out)
	}
}

// storedPaths cleans a name with two dots inside an element ("v1..v2" is
// a folder name, not the parent ".."), and keeps "" as "" (Clean would
// make it ".", the current folder, a path the caller did not give).
func TestStoredPathsM7(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"./v1..v2/", "v1..v2"},
		{"runs/..x/./a", "runs/..x/a"},
		{"a/b../", "a/b.."},
		{"", ""},
	} {
		if got := storedPaths([]string{filepath.FromSlash(c.in)})[0]; got != filepath.FromSlash(c.want) {
			t.Errorf("storedPaths(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
