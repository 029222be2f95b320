package main

import (
	"strings"
	"testing"
)

// A "{{" in a YAML comment is no template the YAML library read: the
// fault beside it (an unclosed list on line 7, at the end of the stream)
// is told as the YAML error it is, not "render it first" (the file holds
// no template to render).
func TestManifestTemplateNotInComment(t *testing.T) {
	head := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n"
	for _, c := range []struct{ name, doc, want, not string }{
		{"braces in a comment", head + "      replicas: 2 # {{ a }}\n      x: [\n", "invalid YAML: did not find expected node content", "unrendered template"},
		{"a whole-line comment", head + "      replicas: 2\n# set by {{ .Values.n }}\n      x: [\n", "invalid YAML:", "unrendered template"},
		// '#' inside a word or quotes starts no comment: the template
		// after it is one (column 17, after "      replicas: ")
		{"a # in quotes", head + "      image: \"a#b\"\n      replicas: {{\n      template: y\n", "m.yaml:7:17: not a Kubeflow job manifest: an unrendered template", ""},
	} {
		_, err := parseManifest("m.yaml", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) || c.not != "" && strings.Contains(err.Error(), c.not) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
