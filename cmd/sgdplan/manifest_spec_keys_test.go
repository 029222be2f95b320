package main

import (
	"strings"
	"testing"
)

// A key of a job's spec that no kind has is warned of, with the field it
// misspells (spec.foo was read without a word); a job without workers
// names the replica specs or the role a key misspells.
func TestManifestSpecKeysAndMisspelledRoles(t *testing.T) {
	m, err := parseManifest("m.yaml", []byte("apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  foo: 1\n  runPolcy: {}\n  cleanPodPolicy: None\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n"))
	w := strings.Join(m.Warnings, "\n")
	if err != nil || m.Workers != 2 ||
		!strings.Contains(w, "m.yaml:4:8: spec.foo: not a field of a TFJob's spec (it holds runPolicy, successPolicy, tfReplicaSpecs and enableDynamicWorker): not used; the API server drops or refuses a field it does not know\n") ||
		!strings.Contains(w, "m.yaml:5:13: spec.runPolcy: not a field of a TFJob's spec") || !strings.Contains(w, "does not know: did you mean runPolicy?") ||
		strings.Contains(w, "cleanPodPolicy") {
		t.Errorf("%d workers, %v, warnings:\n%s", m.Workers, err, w)
	}
	for _, c := range []struct{ doc, want string }{
		{"kind: TFJob\nspec:\n  tfReplicaSpec:\n    Worker:\n      replicas: 2\n", "TFJob without worker replicas (expected spec.tfReplicaSpecs.Worker.replicas >= 1) (spec.tfReplicaSpec: did you mean tfReplicaSpecs?)"},
		{"kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Workers:\n      replicas: 2\n", "(spec.tfReplicaSpecs.Workers: did you mean Worker?)"},
		{"kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Mastr:\n      replicas: 1\n", "(spec.pytorchReplicaSpecs.Mastr: did you mean Master?)"},
	} {
		if _, err := parseManifest("m.yaml", []byte(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.doc, err, c.want)
		}
	}
}
