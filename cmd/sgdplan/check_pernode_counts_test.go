package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// check's counts line is the model's as filed, with --per-node as with
// --bandwidth or --batch: --per-node 1 set the placement on the model the
// line was computed from (a pointer, where --bandwidth made a copy), and
// a Pollux model whose network is slow read a knee of 1 where the model as
// filed gives 4 (found by the 2026-12-07 review).
func TestCheckCountsIgnorePerNode(t *testing.T) {
	dir := t.TempDir()
	truth := model.Pollux{AlphaGrad: 0.02, BetaGrad: 4e-4, AlphaLocal: 0.002, BetaLocal: 5e-4, AlphaNode: 0.03, BetaNode: 4e-3, Gamma: 2}
	var tab strings.Builder
	tab.WriteString("workers,ps,batch,steps_per_s,mode,nodes\n")
	for _, w := range []int{1, 2, 4, 8, 16} {
		for _, b := range []int{64, 256} {
			for _, nodes := range []int{(w + 3) / 4, w} {
				if nodes == w && w <= 4 && w > 1 {
					continue // spread only past one machine's 4
				}
				fmt.Fprintf(&tab, "%d,0,%d,%.6g,allreduce,%d\n", w, b, truth.StepsPerSecond(model.Config{Workers: w, Batch: float64(b), Nodes: nodes}), nodes)
			}
		}
	}
	writeTestFile(t, dir, "throughput.csv", tab.String())
	mp := filepath.Join(dir, "m.json")
	if code, _, stderr := runCmd(t, "fit", dir, "--family", "pollux", "--bootstrap", "20", "--out", mp); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
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
		if labelled := strings.HasSuffix(g[1], ", at the model's own batch, link rate and placement"); labelled != (pn != "") {
			t.Errorf("%v: counts line labelled %v: (%s)", args, labelled, g[1])
		}
	}
	if lines[0] != lines[1] || lines[0] != lines[2] {
		t.Errorf("the counts moved with --per-node:\nnone: %s\n1:    %s\n16:   %s", lines[0], lines[1], lines[2])
	}
}
