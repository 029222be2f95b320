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
		// Kubernetes quantities, read as Kubernetes reads them ("4000m"
		// and "1k" were refused)
		{"4000m GPUs a pod", head + role("Master", "4000m") + role("Worker", "4000m"), 8, "one process per GPU of each replica, 4 (the nvidia.com/gpu limit"},
		{"1k GPUs a pod", head + role("Master", "1k") + role("Worker", "\"1k\""), 2000, "one process per GPU of each replica, 1000 (the nvidia.com/gpu limit"},
		{"1.5 GPUs a pod", head + role("Master", "1500m") + role("Worker", "1500m"), 2, ""},

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

// Without nprocPerNode, GPU limits that give no one count (a role without
// one, or limits that differ) are no count, as an explicit auto is: check
// asks for --workers (they were judged at one process a replica without a
// word); pods whose command runs python, not torchrun, are one process a
// replica, said in a warning.
func TestManifestNprocAbsentNoCount(t *testing.T) {
	role := func(name, gpus, command string) string {
		s := "    " + name + ":\n      replicas: 1\n      template:\n        spec:\n          containers:\n            - name: pytorch\n              image: x\n"
		if command != "" {
			s += "              command: " + command + "\n"
		}
		if gpus != "" {
			s += "              resources:\n                limits:\n                  nvidia.com/gpu: " + gpus + "\n"
		}
		return s
	}
	head := "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n"
	for _, c := range []struct{ name, doc, need string }{
		{"GPUs on one role only", head + role("Master", "8", "") + role("Worker", "", ""), "m.yaml:4:3: no nprocPerNode: Kubeflow's training operator (v1.7 on) sets it to auto, and torchrun starts one process per GPU a replica sees, a count the manifest does not give: the pytorch container of Worker"},
		{"limits differ", head + role("Master", "4", "") + role("Worker", "8", ""), "the nvidia.com/gpu limits of the pytorch containers differ: Master 4, Worker 8"},
	} {
		m, err := parseManifest("m.yaml", []byte(c.doc))
		if err != nil || !strings.Contains(m.NeedWorkers, c.need) || !strings.HasSuffix(m.NeedWorkers, "give --workers, the 2 replicas x the processes each runs") {
			t.Errorf("%s: need %q, %v; want %q", c.name, m.NeedWorkers, err, c.need)
		}
	}
	py := `["python", "train.py"]`
	m, err := parseManifest("m.yaml", []byte(head+role("Master", "8", py)+role("Worker", "8", py)))
	w := strings.Join(m.CountWarnings, "\n")
	if err != nil || m.Workers != 2 || m.NeedWorkers != "" || !strings.Contains(w, "m.yaml:4:3: no nprocPerNode, and the pytorch containers run \"python train.py\", not torchrun: judged at one process a replica, each with its 8 GPUs; if the program starts one process per GPU, check with --workers 16") {
		t.Errorf("python pods: %d workers, need %q, warnings %q, %v", m.Workers, m.NeedWorkers, w, err)
	}
	tr := `["torchrun", "--nnodes", "2", "train.py"]`
	if m, err := parseManifest("m.yaml", []byte(head+role("Master", "8", tr)+role("Worker", "8", tr))); err != nil || m.Workers != 16 {
		t.Errorf("torchrun pods: %d workers, %v; want 16", m.Workers, err)
	}
}

// gpuQuantity reads a Kubernetes quantity as a whole count of GPUs.
func TestGPUQuantity(t *testing.T) {
	for s, want := range map[string]int{"8": 8, "4000m": 4, "1k": 1000, "0.5k": 500, "2Ki": 2048, "+4": 4, "16.0": 16,
		// exactly, not in floating point (1.001k and 2.01k were refused)
		"1.001k": 1001, "2.01k": 2010, "1e3": 1000, "4e9n": 4, "3000000u": 3,
		"4001m": -1, "1.5": -1, "-4": -1, "0x10": -1, "1/2": -1, "1_0": -1, "": -1, "k": -1, "4 ": -1, "2Gi": -1, "1e400": -1, "1e999999999": -1, "5e-31k": -1} {
		n, ok := gpuQuantity(s)
		if !ok {
			n = -1
		}
		if n != want {
			t.Errorf("%q: %d %v, want %d", s, n, ok, want)
		}
	}
}
