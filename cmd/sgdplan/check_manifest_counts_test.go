package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// fitPolluxPerNode4 fits a Pollux model on runs placed 4 workers a
// machine (and spread one a machine past 4): its placement is 4 a
// machine, and its network between machines is slow.
func fitPolluxPerNode4(t *testing.T, dir string) string {
	t.Helper()
	truth := model.Pollux{AlphaGrad: 0.02, BetaGrad: 4e-4, AlphaLocal: 0.002, BetaLocal: 5e-4, AlphaNode: 0.03, BetaNode: 4e-3, Gamma: 2}
	var tab strings.Builder
	tab.WriteString("workers,ps,batch,steps_per_s,mode,nodes\n")
	for _, w := range []int{1, 2, 4, 8, 16} {
		for _, b := range []int{64, 256} {
			for _, nodes := range []int{(w + 3) / 4, w} {
				if nodes == w && w <= 4 && w > 1 {
					continue
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
	return mp
}

// A PyTorchJob's nprocPerNode is the processes of each replica, a pod that
// torchrun takes as one node: check judged 2 replicas x nprocPerNode "8" at
// the model's 4 workers a machine (found by the 2026-12-07 review: warn,
// exit 3, where --per-node 8 gives fail, exit 4). The manifest's processes
// a replica are the placement unless --per-node is given, said in a note
// (or a warning where --per-node overrides it); where the model ignores
// the placement nothing changes, and nothing is said.
func TestCheckManifestNprocIsPlacement(t *testing.T) {
	dir := t.TempDir()
	mp := fitPolluxPerNode4(t, dir)
	pt := writeTestFile(t, dir, "pt.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  nprocPerNode: \"8\"\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n")
	first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

	_, want, _ := runCmd(t, "check", "--model", mp, "--workers", "16", "--per-node", "8")
	_, want4, _ := runCmd(t, "check", "--model", mp, "--workers", "16", "--per-node", "4")
	if first(want) == first(want4) {
		t.Fatalf("the fixture does not tell the placements apart: %q", first(want))
	}
	code, out, stderr := runCmd(t, "check", "--model", mp, pt)
	note := "placed at 8 workers a machine, the manifest's processes per replica (nprocPerNode at " + pt + ":4:17), not the model's 4 a machine; --per-node sets another"
	if first(out) != first(want) || !strings.Contains(out, note) {
		t.Errorf("manifest alone: exit %d, %q (stderr %q); want the verdict at --per-node 8, %q, and the note %q", code, out, stderr, first(want), note)
	}
	// the replicas line is at the same placement as the verdict
	line := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "the job scales by whole replicas") {
				return l
			}
		}
		return ""
	}
	_, at8, _ := runCmd(t, "check", "--model", mp, "--per-node", "8", pt)
	_, at4, _ := runCmd(t, "check", "--model", mp, "--per-node", "4", pt)
	if line(out) == "" || line(out) != line(at8) || line(out) == line(at4) {
		t.Errorf("the replicas line %q; want that of --per-node 8, %q", line(out), line(at8))
	}

	// --per-node wins, and says it overrides the manifest's
	code, out, stderr = runCmd(t, "check", "--model", mp, "--per-node", "4", pt)
	over := "--per-node 4 overrides the manifest's 8 processes a replica (nprocPerNode at " + pt + ":4:17) as the workers a machine: placed at 4"
	if first(out) != first(want4) || strings.Contains(out, "placed at 8") || !strings.Contains(stderr, over) {
		t.Errorf("--per-node 4: exit %d, %q, stderr %q; want %q and the warning %q", code, out, stderr, first(want4), over)
	}
	// (the same count: no word)
	if _, out, stderr = runCmd(t, "check", "--model", mp, "--per-node", "8", pt); first(out) != first(want) || strings.Contains(stderr, "overrides") || strings.Contains(out, "placed at") {
		t.Errorf("--per-node 8: %q, stderr %q; want %q without a note or an override", out, stderr, first(want))
	}

	// a model without a term for the placement: nothing changes
	mva := fitModel(t, t.TempDir())
	pt2 := writeTestFile(t, dir, "pt2.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  nprocPerNode: \"2\"\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n")
	_, out, stderr = runCmd(t, "check", "--model", mva, pt2)
	_, plain, _ := runCmd(t, "check", "--model", mva, "--workers", "4")
	if strings.Contains(out, "placed at") || strings.Contains(stderr, "per-node") || first(out) != first(plain) {
		t.Errorf("mva: %q, stderr %q; want the verdict of --workers 4, %q, without a word of the placement", out, stderr, first(plain))
	}
}

// The manifest gives the placement where it gives the processes a
// replica: nprocPerNode, elasticPolicy.nProcPerNode or the pods' GPUs; not
// where it leaves them to the default, nor for a TFJob.
func TestManifestPerNode(t *testing.T) {
	pt := "kind: PyTorchJob\nspec:\n%s  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n%s"
	gpu := "      template:\n        spec:\n          containers:\n            - name: pytorch\n              resources:\n                limits:\n                  nvidia.com/gpu: 4\n"
	for _, c := range []struct {
		name, doc string
		per       int
		from      string
	}{
		{"nprocPerNode", fmt.Sprintf(pt, "  nprocPerNode: \"8\"\n", ""), 8, "nprocPerNode at m.yaml:3:17"},
		{"nprocPerNode 1", fmt.Sprintf(pt, "  nprocPerNode: \"1\"\n", ""), 1, "nprocPerNode at m.yaml:3:17"},
		{"elastic nProcPerNode", fmt.Sprintf(pt, "  elasticPolicy:\n    nProcPerNode: 3\n", ""), 3, "elasticPolicy.nProcPerNode at m.yaml:4:19"},
		{"gpu", fmt.Sprintf(pt, "  nprocPerNode: gpu\n", gpu), 4, `nprocPerNode "gpu" at m.yaml:3:17, the pytorch containers' nvidia.com/gpu limit`},
		{"absent, GPUs", fmt.Sprintf(pt, "", gpu), 4, "the pytorch containers' nvidia.com/gpu limit, torchrun's auto (m.yaml:3:3)"},
		{"absent", fmt.Sprintf(pt, "", ""), 0, ""},
		{"auto without GPUs", fmt.Sprintf(pt, "  nprocPerNode: auto\n", ""), 0, ""},
		{"tfjob", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 4\n", 0, ""},
	} {
		mf, err := parseManifest("m.yaml", []byte(c.doc))
		if err != nil || mf.PerNode != c.per || mf.PerNodeFrom != c.from {
			t.Errorf("%s: per node %d from %q, %v; want %d from %q", c.name, mf.PerNode, mf.PerNodeFrom, err, c.per, c.from)
		}
	}
}

// Replicas outside an elasticPolicy's bounds were judged without a word
// of them (8 replicas under maxReplicas 4, a count the job never runs
// at): a warning at the replicas names the bound. A bound of 0 was judged
// as "no verdict"; torchrun refuses it: exit 2 at the bound.
func TestCheckElasticReplicasOutside(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	out8 := writeTestFile(t, dir, "out.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  elasticPolicy:\n    minReplicas: 2\n    maxReplicas: 4\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 8\n")
	code, stdout, stderr := runCmd(t, "check", "--model", mp, out8)
	want := out8 + ":9:17: the 8 replicas given are above the elasticPolicy's maxReplicas 4 (" + out8 + ":6:18): torchrun's rendezvous (--nnodes 2:4) admits at most 4 nodes, and the others wait as spares, so the job never runs at 8 replicas; judged at the 8 replicas given all the same"
	if !strings.Contains(stderr, "sgdplan: warning: "+want) || !strings.Contains(stdout, "at 8 workers") || !strings.Contains(stdout, "maxReplicas 4 (4 workers)") {
		t.Errorf("above: exit %d, stdout %q, stderr %q; want the verdict at 8 and its bounds, and the warning %q", code, stdout, stderr, want)
	}
	// (moot under --workers, as the range's warning)
	if _, _, stderr = runCmd(t, "check", "--model", mp, "--workers", "3", out8); strings.Contains(stderr, "never runs") {
		t.Errorf("--workers 3: stderr %q; want no word of the replicas given", stderr)
	}
	below := writeTestFile(t, dir, "below.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  elasticPolicy:\n    minReplicas: 3\n    maxReplicas: 6\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 1\n")
	_, _, stderr = runCmd(t, "check", "--model", mp, below)
	want = below + ":9:17: the 1 replica given is below the elasticPolicy's minReplicas 3 (" + below + ":5:18): torchrun's rendezvous (--nnodes 3:6) waits for 3 nodes before the first step, so the job never runs at 1 replica"
	if !strings.Contains(stderr, want) {
		t.Errorf("below: stderr %q; want %q", stderr, want)
	}
	zero := writeTestFile(t, dir, "zero.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  elasticPolicy:\n    minReplicas: 0\n    maxReplicas: 3\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n")
	code, stdout, stderr = runCmd(t, "check", "--model", mp, zero)
	want = "sgdplan: check: " + zero + ":5:18: elasticPolicy.minReplicas = 0, want a whole number of replicas >= 1"
	if code != exitBadInput || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("minReplicas 0: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
}

// A TFJob's Chief was counted as a worker (1 Chief + 7 Workers = 8). Beside
// PS replicas the job is TensorFlow 2's ParameterServerStrategy, the one
// docs/instrumenting.md times, whose chief coordinates and trains none: it
// is left out, with a warning naming it and the --workers of TensorFlow
// 1's chief that trains. Without PS replicas (all-reduce) the chief is a
// worker: counted, with a warning naming it.
func TestManifestTFJobChief(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		workers   int
		warn      string
	}{
		{"chief and PS", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief:\n      replicas: 1\n    Worker:\n      replicas: 7\n    PS:\n      replicas: 2\n", 7,
			"m.yaml:5:17: Chief (1 replica) is not counted as a worker: beside PS replicas, TensorFlow 2's ParameterServerStrategy runs the chief as the coordinator, which sends the steps to the workers and trains none: judged at the 7 Worker replicas; under TensorFlow 1's between-graph replication or an Estimator, where the chief trains too, check with --workers 8"},
		{"master and PS, flow", "kind: TFJob\nspec: {tfReplicaSpecs: {Master: {}, Worker: {replicas: 3}, PS: {replicas: 1}}}\n", 3,
			"m.yaml:2:33: Master (1 replica) is not counted as a worker"},
		{"chief, all-reduce", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief:\n      replicas: 1\n    Worker:\n      replicas: 7\n", 8,
			"m.yaml:5:17: Chief (1 replica) is counted as a worker beside the 7 Worker replicas, 8 workers: without PS replicas the job trains by all-reduce (MultiWorkerMirroredStrategy), where the chief is a worker that trains; if it only coordinates, check with --workers 7"},
		{"chief alone with PS", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief:\n      replicas: 1\n    PS:\n      replicas: 1\n", 1,
			"m.yaml:5:17: Chief (1 replica) is counted as the one worker: the TFJob has no Worker replicas"},
		{"chief 0", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief:\n      replicas: 0\n    Worker:\n      replicas: 3\n    PS:\n      replicas: 1\n", 3, ""},
		{"no chief", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 3\n    PS:\n      replicas: 1\n", 3, ""},
	} {
		mf, err := parseManifest("m.yaml", []byte(c.doc))
		got := strings.Join(mf.CountWarnings, "|")
		if err != nil || mf.Workers != c.workers || (c.warn == "") != (got == "") || !strings.HasPrefix(got, c.warn) {
			t.Errorf("%s: %d workers, count warnings %q, %v; want %d and %q", c.name, mf.Workers, got, err, c.workers, c.warn)
		}
	}
}
