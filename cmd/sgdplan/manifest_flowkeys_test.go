package main

import (
	"slices"
	"strings"
	"testing"
)

// A block-style plain key may hold YAML's flow indicators (",[]{}"; only
// flow style forbids them): such a key ("restartPolicy}", a template's
// leftover) is placed at its line and column (it was at no place), and a
// key that starts with "?" but is no explicit key ("?x", a plain scalar)
// at its own column (it was past the end of its line, 7:12). A flow
// mapping over several lines still hides its keys from the block scan.
func TestManifestKeyWithFlowIndicator(t *testing.T) {
	tf := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n"
	for _, k := range []string{"restartPolicy}", "res]tartPolicy", "a,b", "a{b", "x[0]", "?x"} {
		_, err := parseManifest("m.yaml", []byte(tf+"      "+k+": 1\n"))
		want := "check: m.yaml:7:7: spec.tfReplicaSpecs.Worker." + k + ": not a field of a replica role"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %s", k, err, want)
		}
	}
	// a flow mapping's keys on its own lines are no block keys: the
	// unknown key is in it, placed by the flow scan, not at "x, y"
	doc := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: {replicas: 2,\n      bogus: 1}\n    x, y:\n      bogus: 2\n"
	_, err := parseManifest("m.yaml", []byte(doc))
	if want := "check: m.yaml:6:7: spec.tfReplicaSpecs.Worker.bogus: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("flow mapping: %v, want %s", err, want)
	}
	// the warning of a role check does not count
	m, err := parseManifest("m.yaml", []byte("apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Work,er:\n      replicas: 2\n    Worker:\n      replicas: 2\n"))
	if err != nil || !slices.ContainsFunc(m.Warnings, func(w string) bool {
		return strings.HasPrefix(w, `m.yaml:5:5: TFJob replica role "Work,er" is not counted`)
	}) {
		t.Errorf("role Work,er: %v %q, want a warning at m.yaml:5:5", err, m.Warnings)
	}
}
