package main

import (
	"strings"
	"testing"
)

// A YAML float that is not finite (.nan, .inf, -.inf, in any of YAML's
// cases) is valid YAML that JSON, as which Kubernetes reads a manifest,
// cannot hold: it is refused at its line and column, saying why (it was
// "invalid YAML: json: unsupported value: NaN" at no place). A comment,
// a quoted string or a block scalar holding ".nan" is text, not placed.
func TestManifestNonFiniteFloat(t *testing.T) {
	const head = "apiVersion: kubeflow.org/v1\nkind: TFJob\n"
	for _, c := range []struct{ name, in, want string }{
		{"replicas", head + "spec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: .nan\n", "check: m.yaml:6:17: "},
		{"label", head + "metadata:\n  name: a\n  labels:\n    x: .inf\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n", "check: m.yaml:6:8: "},
		{"arg", head + "spec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers:\n          - name: tensorflow\n            args: [--lr, .NaN]\n", "check: m.yaml:11:26: "},
		{"negative", head + "spec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n      x: -.INF\n", "check: m.yaml:7:10: "},
		{"after text that looks like one", head + "# .nan\nmetadata:\n  annotations:\n    a: \".nan\"\n    b: |\n      .inf\n    c: '-.Inf'\n    d: x.nan\n    e: +.Inf\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n", "check: m.yaml:11:8: "},
		{"tagged", head + "spec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n      x: !!float \".nan\"\n", "check: m.yaml:7:19: "},
	} {
		_, err := parseManifest("m.yaml", []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !strings.Contains(err.Error(), "not finite") || !strings.Contains(err.Error(), "JSON") {
			t.Errorf("%s: %v, want it at %s saying JSON cannot hold a float that is not finite", c.name, err, c.want)
		}
	}
}

// A YAML alias bomb ("billion laughs") is refused at its first alias (it
// was "document contains excessive aliasing" at no place).
func TestManifestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x]\n")
	for i := 'b'; i <= 'i'; i++ {
		b.WriteString(string(i) + ": &" + string(i) + " [")
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*" + string(i-1))
		}
		b.WriteString("]\n")
	}
	b.WriteString("kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n")
	_, err := parseManifest("m.yaml", []byte(b.String()))
	if err == nil || !strings.HasPrefix(err.Error(), "check: m.yaml:2:8: ") || !strings.Contains(err.Error(), "aliasing") {
		t.Errorf("%v, want the excessive aliasing at the first alias, m.yaml:2:8", err)
	}
}
