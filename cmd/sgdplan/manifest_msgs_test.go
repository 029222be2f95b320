package main

import (
	"strings"
	"testing"
)

// An unrendered template, a tab in the indentation and an apiVersion of
// another group are told as what they are: they were "a mapping used as a
// key" at no place, "found character that cannot start any token" and
// nothing.
func TestManifestTemplateTabAndGroup(t *testing.T) {
	head := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n"
	for _, c := range []struct{ name, doc, want string }{
		{"helm", head + "      replicas: {{ .Values.workers }}\n", "m.yaml:6:17: not a Kubeflow job manifest: an unrendered template ({{ ... }}): render it first (helm template, or the tool that fills it)"},
		{"tab", head + "\treplicas: 2\n", "m.yaml:6:1: not a Kubeflow job manifest: invalid YAML: found character that cannot start any token: a tab in the indentation (YAML indents with spaces only)"},
		// a quoted "{{" is a string: the fault is the unclosed list
		{"quoted braces", head + "      replicas: 2\n      args: [\"{{x}}\"\n", "invalid YAML: did not find expected ',' or ']'"},
	} {
		_, err := parseManifest("m.yaml", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct{ api, want string }{
		{"batch/v1", "m.yaml:1:13: apiVersion batch/v1: a TFJob is Kubeflow's, kubeflow.org/v1: judged as one all the same"},
		{"kubeflow.org/v1", ""},
		{"kubeflow.org/v1beta2", ""},
		{"kubeflow.org/v2", "m.yaml:1:13: apiVersion kubeflow.org/v2: no Kubeflow release serves a TFJob at v2 (v1, v1beta2, v1beta1, v1alpha2, v1alpha1 do): judged as kubeflow.org/v1"},
	} {
		m, err := parseManifest("m.yaml", []byte("apiVersion: "+c.api+"\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n"))
		w := strings.Join(m.Warnings, "\n")
		if err != nil || m.Workers != 2 || (c.want == "") != (w == "") || !strings.Contains(w, c.want) {
			t.Errorf("apiVersion %s: %+v, %v; want 2 workers and the warning %q", c.api, m, err, c.want)
		}
	}
}
