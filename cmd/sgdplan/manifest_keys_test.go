package main

import (
	"strings"
	"testing"
)

// A key of a replica role that Kubeflow's ReplicaSpec has not (replicas,
// template, restartPolicy, in that case) is refused at its place, with the
// field it misspells: "replica: 8" was read as no count, and check said
// fine at 1 worker (Kubernetes refuses the key, or drops it and runs 1).
func TestManifestUnknownReplicaKeys(t *testing.T) {
	tf := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    PS:\n      replicas: 1\n    Worker:\n"
	cases := []struct{ name, doc, want string }{
		{"replica", tf + "      replica: 8\n", `m.yaml:8:7: spec.tfReplicaSpecs.Worker.replica: not a field of a replica role (Kubeflow's are replicas, template and restartPolicy, in that case; Kubernetes refuses another key or drops it, and the role runs 1 replica): did you mean replicas?`},
		{"replicaz", tf + "      replicas: 2\n      replicaz: 9\n", "m.yaml:9:7: spec.tfReplicaSpecs.Worker.replicaz: not a field of a replica role"},
		{"restartpolicy", tf + "      replicas: 2\n      restartpolicy: Never\n", "did you mean restartPolicy?"},
		{"far from any", tf + "      replicas: 2\n      bogus: {a: 1}\n", "Worker.bogus: not a field of a replica role (Kubeflow's are replicas, template and restartPolicy, in that case; Kubernetes refuses another key or drops it)\n"},
		{"flow", "kind: PyTorchJob\nspec: {pytorchReplicaSpecs: {Master: {replicas: 1}, Worker: {replcas: 4}}}\n", "m.yaml:2:62: spec.pytorchReplicaSpecs.Worker.replcas: not a field of a replica role"},
	}
	for _, c := range cases {
		_, err := parseManifest("m.yaml", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error()+"\n", c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// the three fields, as written in real manifests, are read
	m, err := parseManifest("m.yaml", []byte(tf+"      replicas: 3\n      restartPolicy: OnFailure\n      template:\n        spec:\n          containers:\n            - name: tensorflow\n              image: x\n"))
	if err != nil || m.Workers != 3 || m.PS != 1 {
		t.Errorf("replicas, restartPolicy, template: %+v, %v; want 3 workers, 1 PS", m, err)
	}
}

func TestNearestKey(t *testing.T) {
	keys := []string{"replicas", "template", "restartPolicy"}
	for k, want := range map[string]string{"replica": "replicas", "Replicas": "replicas", "REPLICAS": "replicas", "replcias": "replicas", "templat": "template", "restartPolcy": "restartPolicy", "bogus": "", "replicaCount": ""} {
		if got := nearestKey(k, keys); got != want {
			t.Errorf("nearestKey(%q) = %q, want %q", k, got, want)
		}
	}
	if d := editDistance("kitten", "sitting"); d != 3 {
		t.Errorf("editDistance(kitten, sitting) = %d, want 3", d)
	}
}
