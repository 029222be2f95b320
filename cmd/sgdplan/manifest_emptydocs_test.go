package main

import (
	"fmt"
	"strings"
	"testing"
)

// Empty documents before the job ("---", "---", then the job; a comment
// between) are skipped as kubectl skips them: the YAML library read the
// first, empty, and the job was refused with "no kind" at its own
// apiVersion line (a review). Positions stay the file's.
func TestManifestLeadingEmptyDocuments(t *testing.T) {
	job := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 3\n"
	for _, pre := range []string{"---\n---\n", "---\n# only a comment\n---\n", "--- # c\n---\n"} {
		mf, err := parseManifest("m.yaml", []byte(pre+job))
		if err != nil || mf.Workers != 3 {
			t.Errorf("%q before the job: %+v, %v; want 3 workers", pre, mf, err)
		}
	}
	// a flow job on its own "---" line after an empty document
	mf, err := parseManifest("m.yaml", []byte("---\n--- {kind: TFJob, spec: {tfReplicaSpecs: {Worker: {replicas: 5}}}}\n"))
	if err != nil || mf.Workers != 5 {
		t.Errorf("flow job after an empty document: %+v, %v", mf, err)
	}
	// positions are the file's: the bad value on line 8
	bad := strings.Replace(job, "replicas: 3", "replicas: three", 1)
	if _, err := parseManifest("m.yaml", []byte("---\n---\n"+bad)); err == nil || !strings.Contains(err.Error(), "m.yaml:8:17: spec.tfReplicaSpecs.Worker.replicas is \"three\"") {
		t.Errorf("bad replicas after empty documents: %v", err)
	}
}

// A block scalar's text ("|", ">-", also a list item's) and a quoted
// scalar's continuation lines are no keys, and a "{" or "[" there opens no
// flow collection: one that never closed hid the rest of the file, and
// every later error lost its place (a review of the key locator's change).
func TestManifestScalarTextHidesNothing(t *testing.T) {
	tail := "spec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: three\n"
	for _, c := range []struct{ name, head string }{
		{"block scalar", "metadata:\n  annotations:\n    description: |\n      {\n      more text\n"},
		{"folded, chomped", "metadata:\n  annotations:\n    description: >-\n      [see\n\n      below\n"},
		{"list item", "metadata:\n  finalizers:\n  - |\n    {x\n"},
		{"quoted", "metadata:\n  annotations:\n    description: \"Trains ResNet-50\n      [beta: see the wiki\n      for details\"\n"},
	} {
		doc := "apiVersion: kubeflow.org/v1\nkind: TFJob\n" + c.head + tail
		line := strings.Count(doc, "\n") // the last line, replicas'
		_, err := parseManifest("m.yaml", []byte(doc))
		want := fmt.Sprintf("m.yaml:%d:17: spec.tfReplicaSpecs.Worker.replicas is \"three\"", line)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", c.name, err, want)
		}
	}
}

// kubectl's -o json: a pretty-printed JSON List keeps its List's kind at
// its own place (the key locator's skipping of flow collections put it at
// the first brace, 1:1; a review). (Its items are placed at their braces
// since then: known.)
func TestManifestJSONListPlaced(t *testing.T) {
	doc := `{
  "apiVersion": "v1",
  "kind": "List",
  "items": [
    {
      "apiVersion": "kubeflow.org/v1",
      "kind": "PyTorchJo",
      "spec": {"pytorchReplicaSpecs": {"Worker": {"replicas": 2}}}
    }
  ]
}
`
	_, err := parseManifest("m.json", []byte(doc))
	if err == nil || !strings.Contains(err.Error(), "(kind at 3:11)") {
		t.Errorf("error %v, want the List's kind at 3:11", err)
	}
}

// JSON values one after another (kubectl reads each as an object) are
// refused at the second, as two YAML documents holding jobs are: the first
// was judged without a word of the other. One value with space after it
// is one.
func TestManifestJSONStream(t *testing.T) {
	one := `{"kind": "TFJob", "spec": {"tfReplicaSpecs": {"Worker": {"replicas": 2}}}}`
	_, err := parseManifest("m.json", []byte(one+"\n"+one+"\n"))
	if err == nil || !strings.Contains(err.Error(), "m.json:2:1: a second JSON value after the first (which ends at 1:") {
		t.Errorf("two values: %v", err)
	}
	if mf, err := parseManifest("m.json", []byte(one+"\n\n")); err != nil || mf.Workers != 2 {
		t.Errorf("one value: %+v, %v", mf, err)
	}
}
