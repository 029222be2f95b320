package main

import (
	"strings"
	"testing"
)

// A PyTorchJob without nprocPerNode: Kubeflow's training operator (v1.7
// on) sets auto, and torchrun starts one process per GPU of each pod, so
// 2 replicas of 8 GPUs are 16 workers (they were judged as 2), with a
// warning that says how to judge one process a replica. Pods without GPU
// limits, or with 1, stay at one process a replica, with no warning.
func TestManifestNprocAbsentIsAuto(t *testing.T) {
	role := func(name string, gpus string) string {
		s := "    " + name + ":\n      replicas: 1\n      template:\n        spec:\n          containers:\n            - name: pytorch\n              image: x\n"
		if gpus != "" {
			s += "              resources:\n                limits:\n                  nvidia.com/gpu: " + gpus + "\n"
		}
		return s
	}
	head := "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n"
	cases := []struct {
		name, doc string
		workers   int
		warn      string
	}{
		{"8 GPUs a pod", head + role("Master", "8") + role("Worker", "8"), 16, "m.yaml:4:3: no nprocPerNode: Kubeflow's training operator (v1.7 on) sets it to auto, and torchrun then starts one process per GPU of each replica, 8 (the nvidia.com/gpu limit of the pytorch containers): judged at 16 workers; pods not started by torchrun, or an older operator, run one process a replica: check that with --workers 2"},
		{"no GPUs", head + role("Master", "") + role("Worker", ""), 2, ""},
		{"1 GPU a pod", head + role("Master", "1") + role("Worker", "1"), 2, ""},
		{"GPUs on one role only", head + role("Master", "8") + role("Worker", ""), 2, ""},
		{"nprocPerNode given", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  nprocPerNode: \"1\"\n  pytorchReplicaSpecs:\n" + role("Master", "8") + role("Worker", "8"), 2, ""},
	}
	for _, c := range cases {
		m, err := parseManifest("m.yaml", []byte(c.doc))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w := strings.Join(m.CountWarnings, "\n")
		if m.Workers != c.workers || (c.warn == "") != (w == "") || !strings.Contains(w, c.warn) {
			t.Errorf("%s: %d workers, warnings %q; want %d and %q", c.name, m.Workers, w, c.workers, c.warn)
		}
	}
}
