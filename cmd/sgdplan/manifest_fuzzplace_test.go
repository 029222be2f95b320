package main

import (
	"strings"
	"testing"
)

// An anchor on an empty key ("&a : x") is a null key, placed at the
// anchor (found by FuzzReadManifest once it required a place: it was at
// no place).
func TestManifestAnchoredNullKey(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: TFJob\n&000: 0\nspec: {}\n"))
	if want := "check: m.yaml:2:1: not a Kubeflow job manifest: a null key"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
}

// A key given twice in two spellings of one number ("0000" and "00000",
// both 0) is placed at the start of the line the YAML library names (found
// by FuzzReadManifest: it was the line alone, "m.yaml:2:").
func TestManifestDuplicateNumberKey(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("0000: 1\n00000: 2\n"))
	if want := `check: m.yaml:2:1: key "0" appears twice`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
}

// A plain key YAML reads as a number ("0000000", the key 0) is placed by
// its value, as the JSON form names it (found by FuzzReadManifest: the
// role "0" holding a list was at no place).
func TestManifestNumberKeyPlaced(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    0000000:\n    - 1\n"))
	if want := "check: m.yaml:4:5: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want it at %s", err, want)
	}
}

// A flow mapping's entry that is a mapping or a list with no value ("{
// {}}") is a collection used as a key, placed at it (found by
// FuzzReadManifest: it was at no place, as no ":" follows it).
func TestManifestFlowEntryKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"kind: TFJob\nspec: { {}}\n", "check: m.yaml:2:9: not a Kubeflow job manifest: a mapping used as a key"},
		{"kind: TFJob\n? ?\n", "check: m.yaml:2:3: not a Kubeflow job manifest: a mapping used as a key"},
		{" ?\r0", "check: m.yaml:1:2: not a Kubeflow job manifest: a null key"},
		{"kind: TFJob\n?  \"\": x\n", "check: m.yaml:2:4: not a Kubeflow job manifest: a mapping used as a key"},
		{"{0: {!,000 {}}}", "check: m.yaml:1:12: not a Kubeflow job manifest: a mapping used as a key"},
		{"{0: {a: 1,!t,u {}}}", "check: m.yaml:1:16: not a Kubeflow job manifest: a mapping used as a key"},
		{"kind: TFJob\nspec: {a: 1, &x}\n", "check: m.yaml:2:14: not a Kubeflow job manifest: a null key"},
		{"kind: TFJob\nspec: {a: 1, ~ }\n", "check: m.yaml:2:14: not a Kubeflow job manifest: a null key"},
		{"{kind: TFJob, !t &a {a: 1}}\n", "check: m.yaml:1:21: not a Kubeflow job manifest: a mapping used as a key"},
		{"kind: TFJob\nspec: {a: 1, [b] }\n", "check: m.yaml:2:14: not a Kubeflow job manifest: a list used as a key"},
	} {
		_, err := parseManifest("m.yaml", []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.in, err, c.want)
		}
	}
}

// A plain key that ends in a quote is placed as written (found by
// FuzzReadManifest: the quote was taken off, and the key not found).
func TestManifestKeyEndingInQuote(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Worker\": 2\n"))
	if want := "check: m.yaml:4:14: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want it at %s", err, want)
	}
}

// A bad tag on line 1 ("!00!", a tag handle without its suffix) is at
// line 1, as the YAML library's other scanner problems there (found by
// FuzzReadManifest: it was at no place).
func TestManifestBadTagOnLineOne(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("0: !00!"))
	if want := "check: m.yaml:1:1: not a Kubeflow job manifest: invalid YAML: did not find expected tag URI"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
}

// A plain key holding a ":" not before white space ("0:: 1", the key
// "0:") is placed: it was read to its first ":" and not found (found by
// FuzzReadManifest).
func TestManifestKeyWithColon(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: TFJob\nspec:\n  tfReplicaSpecs:\n    a:b: 1\n"))
	if want := "check: m.yaml:4:10: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want it at %s", err, want)
	}
}

// A key behind an anchor or a tag ("!t a:b:") is placed: the tag was read
// as part of the key, and the key not found (found by FuzzReadManifest).
func TestManifestTaggedKey(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: TFJob\nspec:\n  tfReplicaSpecs:\n    !t: &a a:b: 1\n"))
	if want := "check: m.yaml:4:17: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want it at %s", err, want)
	}
}

// A flow mapping's key without a value ("{0}", "{a, replicas: 1}") is
// placed (found by FuzzReadManifest: it was at no place).
func TestManifestFlowKeyWithoutValue(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Worker: {replicas: 2, bogus}\n"))
	if want := "check: m.yaml:4:27: spec.pytorchReplicaSpecs.Worker.bogus: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want it at %s", err, want)
	}
}

// A flow mapping's plain key holding a ":" not before white space ("{a:1}"
// is the key "a:1", null) is placed (found by FuzzReadManifest: it was
// read to the ":" and not found).
func TestManifestFlowKeyWithColon(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Worker: {replicas: 2, a:1}\n"))
	if want := "check: m.yaml:4:27: spec.pytorchReplicaSpecs.Worker.a:1: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want it at %s", err, want)
	}
}

// A key behind a tag or an anchor in a flow mapping is placed, a custom
// tag's number key as its text (found by FuzzReadManifest: no place).
func TestManifestFlowTaggedKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {replicas: 2, &a bogus: 1}}}\n", "check: m.yaml:2:50: spec.tfReplicaSpecs.Worker.bogus: "},
		{"kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {replicas: 2}, !t 000: {x: 1}}}\n", "check: m.yaml:2:57: spec.tfReplicaSpecs.000.x: "},
	} {
		_, err := parseManifest("m.yaml", []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.in, err, c.want)
		}
	}
}

// A List in flow style (JSON) whose items are no list is placed at them
// (found by FuzzReadManifest: no place).
func TestManifestFlowListItemsNotAList(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte(`{"kind": "List", "items": 0}`))
	if want := "check: m.yaml:1:27: not a Kubeflow job manifest: the items of a List hold"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
}

// An explicit key whose list stands below it at its own indentation
// ("?\n- a") is a list used as a key, at the "?" (found by
// FuzzReadManifest: no place).
func TestManifestIndentlessListKey(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: TFJob\n?\n- a\n"))
	if want := "check: m.yaml:2:1: not a Kubeflow job manifest: a list used as a key"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
}

// A quote inside a plain scalar ('0 ": 0') hid the rest of the file from
// the search of a mapping used as a key (found by FuzzReadManifest: no
// place).
func TestManifestPlainQuoteBeforeMappingKey(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("a \": 0\n!t {b} : 1\n"))
	if want := "check: m.yaml:2:4: not a Kubeflow job manifest: a mapping used as a key"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
}

// A flow mapping on the lines below its key is placed into (found by
// FuzzReadManifest: its keys were at no place).
func TestManifestFlowMappingBelowKey(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    # the roles\n    {Worker: 0}\n"))
	if want := "check: m.yaml:5:14: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
}
