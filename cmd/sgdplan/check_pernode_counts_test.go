package main

import (
	"regexp"
	"strings"
	"testing"
)

// check's counts line is the model's as filed, with --per-node as with
// --bandwidth or --batch: --per-node 1 set the placement on the model the
// line was computed from (a pointer, where --bandwidth made a copy), and
// a Pollux model whose network is slow read a knee of 1 where the model as
// filed gives 4 (found by the 2026-12-07 review).
func TestCheckCountsIgnorePerNode(t *testing.T) {
	mp := fitPolluxPerNode4(t, t.TempDir())
	counts := regexp.MustCompile(`other counts for this model \(([^)]*)\): (.*); check's own knee`)
	var lines []string
	for _, pn := range []string{"", "1", "16"} {
		args := []string{"check", "--model", mp, "--workers", "8"}
		if pn != "" {
			args = append(args, "--per-node", pn)
		}
		_, out, stderr := runCmd(t, args...)
		g := counts.FindStringSubmatch(out)
		if g == nil {
			t.Fatalf("%v: no counts line:\n%s%s", args, out, stderr)
		}
		lines = append(lines, g[2])
		// labelled as the model's own where --per-node moves the verdict
		// off it, and only there
		if labelled := strings.HasSuffix(g[1], ", at the model's own placement"); labelled != (pn != "") {
			t.Errorf("%v: counts line labelled %v: (%s)", args, labelled, g[1])
		}
	}
	if lines[0] != lines[1] || lines[0] != lines[2] {
		t.Errorf("the counts moved with --per-node:\nnone: %s\n1:    %s\n16:   %s", lines[0], lines[1], lines[2])
	}
}

// A placement past the most workers a machine the model's data held is
// said to be extrapolated, from --per-node (predict, check) as from a
// manifest's processes per replica (check): a Pollux model fitted at 4 a
// machine was judged at 8 a machine without a word. At or below 4, and
// for a model that ignores placement, nothing.
func TestPlacementBeyondTheData(t *testing.T) {
	dir := t.TempDir()
	mp := fitPolluxPerNode4(t, dir)
	const say = "places 8 workers a machine, more than the 4 a machine the pollux model's data held"
	for _, c := range []struct {
		args []string
		warn bool
	}{
		{[]string{"predict", "--model", mp, "--workers", "16", "--per-node", "8"}, true},
		{[]string{"predict", "--model", mp, "--workers", "16", "--per-node", "4"}, false},
		{[]string{"check", "--model", mp, "--workers", "16", "--per-node", "8"}, true},
	} {
		_, _, stderr := runCmd(t, c.args...)
		if strings.Contains(stderr, say) != c.warn {
			t.Errorf("%v: want the warning %v:\n%s", c.args, c.warn, stderr)
		}
	}
	man := writeTestFile(t, dir, "pt.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: p\nspec:\n  nprocPerNode: \"8\"\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n")
	if _, _, stderr := runCmd(t, "check", "--model", mp, man); !strings.Contains(stderr, "the manifest (nprocPerNode at "+man+":6:17) "+say) {
		t.Errorf("manifest: %s", stderr)
	}
}
