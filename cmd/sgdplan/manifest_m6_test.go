package main

import (
	"strings"
	"testing"
)

// nearestKey's doc: a misspelling is the same key in another case or "at
// most 2 edits away". By hand (insertions needed, no substitutions help):
// "templa" is 2 from "template" (+t, +e), "templ" is 3 (+a, +t, +e),
// "replicasxyz" is 3 from "replicas" (-x, -y, -z), "replicax" is 1 (x->s).
func TestNearestKeyTwoEditsAtMost(t *testing.T) {
	keys := []string{"replicas", "template", "restartPolicy"}
	for k, want := range map[string]string{"templa": "template", "templ": "", "replicasxyz": "", "replicax": "replicas"} {
		if got := nearestKey(k, keys); got != want {
			t.Errorf("nearestKey(%q) = %q, want %q", k, got, want)
		}
	}
	// Levenshtein distances worked by hand: "" to "abc" is 3 insertions;
	// "flaw" to "lawn" is 2 (-f, +n); "abc" to itself 0
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"abc", "", 3}, {"flaw", "lawn", 2}, {"abc", "abc", 0}, {"templ", "template", 3}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// templateAt looks for "{{" on the lines about the library's line (one
// before, one after) and not inside quotes of either kind, and a tab
// after spaces is named at its own column.
func TestManifestTemplateWindowQuotesAndTabColumn(t *testing.T) {
	head := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n"
	tmpl := "not a Kubeflow job manifest: an unrendered template ({{ ... }})"
	for _, c := range []struct{ name, doc, want string }{
		// an unclosed "{{" at the end of line 6: the library stops on
		// line 7 ("did not find expected ',' or '}'"), the line after
		// the template; column 17 is the first '{' ("      replicas: "
		// is 16 characters)
		{"unclosed, fault on the next line", head + "      replicas: {{\n      template: y\n", "m.yaml:6:17: " + tmpl},
		// a Helm control line "      {{- if ... }}" (line 6, column 7)
		// where the library names the line before it
		{"control line", head + "      {{- if .Values.x }}\n      replicas: 2\n      {{- end }}\n", "m.yaml:6:7: " + tmpl},
		// single quotes make "{{x}}" a string as double quotes do: the
		// fault is the unclosed list
		{"single-quoted braces", head + "      replicas: 2\n      args: ['{{x}}'\n", "invalid YAML: did not find expected ',' or ']'"},
		// two spaces, then the tab: column 3
		{"tab after spaces", head + "  \treplicas: 2\n", "m.yaml:6:3: not a Kubeflow job manifest: invalid YAML: found character that cannot start any token: a tab in the indentation"},
	} {
		_, err := parseManifest("m.yaml", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// An elasticPolicy that gives no nProcPerNode leaves the processes unset
// as much as no elasticPolicy does: the operator's auto, one process per
// GPU, 2 replicas of 8 GPUs = 16 workers. With elasticPolicy.nProcPerNode
// 4 given, 2 x 4 = 8 and no auto warning.
func TestManifestNprocAutoBesideElasticPolicy(t *testing.T) {
	role := func(name string) string {
		return "    " + name + ":\n      replicas: 1\n      template:\n        spec:\n          containers:\n            - name: pytorch\n              image: x\n              resources:\n                limits:\n                  nvidia.com/gpu: 8\n"
	}
	for _, c := range []struct {
		name, elastic string
		workers       int
		auto          bool
	}{
		{"elasticPolicy without nProcPerNode", "  elasticPolicy:\n    rdzvBackend: c10d\n", 16, true},
		{"elasticPolicy.nProcPerNode 4", "  elasticPolicy:\n    nProcPerNode: 4\n", 8, false},
	} {
		doc := "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n" + c.elastic + "  pytorchReplicaSpecs:\n" + role("Master") + role("Worker")
		m, err := parseManifest("m.yaml", []byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w := strings.Join(m.CountWarnings, "\n")
		if m.Workers != c.workers || strings.Contains(w, "no nprocPerNode: Kubeflow's training operator (v1.7 on) sets it to auto") != c.auto {
			t.Errorf("%s: %d workers, warnings %q; want %d, auto warning %v", c.name, m.Workers, w, c.workers, c.auto)
		}
	}
}
