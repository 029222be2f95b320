package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// Manifests the audit found misread: a key given twice was judged at its
// last value, roles check does not count were dropped without a word, and
// errors came without their line (or in the YAML library's words).
func TestManifestAuditErrors(t *testing.T) {
	dir := t.TempDir()
	tf, err := os.ReadFile(filepath.Join("..", "..", "testdata", "manifests", "tfjob.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	job := string(tf)
	cases := []struct{ name, doc, want string }{
		{"replicas twice", strings.Replace(job, "replicas: 4\n", "replicas: 4\n      replicas: 64\n", 1), `m.yaml:20:7: key "replicas" appears twice in its mapping`},
		{"quoted key twice", strings.Replace(job, "replicas: 4\n", "replicas: 4\n      \"replicas\": 64\n", 1), `m.yaml:20:7: key "replicas" appears twice in its mapping`},
		{"Worker twice", job + "    Worker:\n      replicas: 64\n", `m.yaml:26:5: key "Worker" appears twice`},
		// an explicit key ("? a"): the library named the line below it,
		// here line 3 of a file of two
		{"explicit key twice", "? a\n? a\n", `m.yaml:2:3: key "a" appears twice in its mapping`},
		{"explicit key twice, a value", "kind: TFJob\n? kind\n: TFJob\n", `m.yaml:2:3: key "kind" appears twice in its mapping`},
		// keys in another case, which the decoder reads (encoding/json
		// matches them in any case): told at their place, and the role
		// named (they had no line; the flow one came from the decoder,
		// without the role)
		// (Kubernetes reads keys in their case: Replicas is no field)
		{"Replicas capitalised", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      Replicas: -1\n", "m.yaml:5:7: spec.tfReplicaSpecs.Worker.Replicas: not a field of a replica role"},
		{"Replicas capitalised, flow", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: {Replicas: x}\n", `m.yaml:4:14: spec.tfReplicaSpecs.Worker.Replicas: not a field of a replica role`},
		// (a second replicas in another case: the decoder's error, of
		// "spec.tfReplicaSpecs.replicas" without the role, at no place;
		// now a key given twice, at the second, before its value)
		{"Replicas beside replicas", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n      Replicas: [1]\n", `m.yaml:6:7: spec.tfReplicaSpecs.Worker.replicas given twice, as "replicas" and "Replicas"`},
		{"MinReplicas capitalised", "kind: PyTorchJob\nspec:\n  elasticPolicy: {MinReplicas: -1}\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 2\n", "m.yaml:3:32: elasticPolicy.minReplicas = -1"},
		{"Worker twice, a comment below", job + "    Worker:\n      # the big one\n\n      replicas: 64\n", `m.yaml:26:5: key "Worker" appears twice`},
		{"negative", strings.Replace(job, "replicas: 4", "replicas: -4", 1), "m.yaml:19:17: Worker.replicas = -4, want >= 0"},
		{"kind", strings.Replace(job, "kind: TFJob", "kind: Deployment", 1), `m.yaml:5:7: kind "Deployment": expected TFJob or PyTorchJob`},
		{"no kind", strings.Replace(job, "kind: TFJob\n", "", 1), "m.yaml:4:1: no kind"},
		{"list", "- a\n- b\n", "m.yaml:1:1: not a Kubeflow job manifest: expected a mapping of apiVersion, kind and spec, got a list"},
		{"syntax", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n   bad: [\n", "m.yaml:6:1: not a Kubeflow job manifest: invalid YAML: did not find expected key"},
		// wrong types in the manifest's words at their values (they named Go
		// types: "of type main.replicaSpec")
		{"role a number", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    PS: {replicas: 1}\n    Worker: 3\n", "m.yaml:5:13: not a Kubeflow job manifest: spec.tfReplicaSpecs.Worker holds a number where a replica spec (a mapping with replicas and template) was expected"},
		{"spec a number", "kind: TFJob\nspec: 5\n", "m.yaml:2:7: not a Kubeflow job manifest: spec holds a number where a mapping was expected"},
		{"kind a list", "kind: [TFJob]\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n", "m.yaml:1:7: not a Kubeflow job manifest: kind holds a list where a string was expected"},
		// flow style: too large at its line:col, and a whole number beyond
		// an int is too large, not "not whole"
		{"flow too large", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    PS: {replicas: 3000000}\n    Worker: {replicas: 2}\n", "m.yaml:4:20: PS.replicas = 3000000: too large, want at most 1000000"},
		{"flow beyond int", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    PS: {replicas: 99999999999999999999}\n    Worker: {replicas: 2}\n", "m.yaml:4:20: spec.tfReplicaSpecs.PS.replicas is 100000000000000000000: too large, want at most 1000000"},
		{"roles a list", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    - Worker\n", "m.yaml:3:3: not a Kubeflow job manifest: spec.tfReplicaSpecs holds a list where a mapping of replica roles"},
		// Kubeflow's training operator refuses a Chief beside a Master
		// ("more than 1 chief/master found"); check judged it as 5 workers
		{"chief and master", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief:\n      replicas: 1\n    master:\n      replicas: 1\n    Worker:\n      replicas: 3\n", "m.yaml:6:5: TFJob with both Chief and master replicas: Kubeflow's training operator refuses more than one chief/master role"},
	}
	for _, c := range cases {
		_, err := parseManifest("m.yaml", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "error converting") || strings.Contains(err.Error(), "main.") {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// roles not counted are named in a warning; the job is still judged
	pt := "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Workers:\n      replicas: 3\n    PS:\n      replicas: 2\n"
	p := filepath.Join(dir, "pt.yaml")
	os.WriteFile(p, []byte(pt), 0o644)
	mf, err := parseManifest(p, []byte(pt))
	if err != nil || mf.Workers != 1 {
		t.Fatalf("PyTorchJob with a PS role: %+v, %v", mf, err)
	}
	mp := fitModel(t, dir)
	code, _, stderr := runCmd(t, "check", "--model", mp, p)
	// each at its key (it was told at no place)
	for _, role := range []string{`pt.yaml:8:5: PyTorchJob replica role "PS" is not counted`, `pt.yaml:6:5: PyTorchJob replica role "Workers" is not counted`} {
		if !strings.Contains(stderr, role) || code == exitBadInput {
			t.Errorf("check on a PyTorchJob with PS and Workers roles: exit %d, stderr %q; want a warning %q", code, stderr, role)
		}
	}
	// counts the manifest gives that check cannot judge name the manifest
	// and the line and column of the replicas (a flag's name is the flag's)
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, []byte(strings.Replace(job, "replicas: 4", "replicas: 20000", 1)), 0o644)
	code, _, stderr = runCmd(t, "check", "--model", mp, big)
	if want := "check: " + big + ":19:17: 20000 workers: too large"; code != exitBadInput || !strings.Contains(stderr, want) {
		t.Errorf("20000 replicas: exit %d, stderr %q, want %q", code, stderr, want)
	}
	// the shards: at their replicas, or at the role when replicas is absent
	// (Kubeflow's default of 1)
	q := filepath.Join(dir, "ps.yaml")
	os.WriteFile(q, []byte(strings.Replace(job, "replicas: 1\n", "replicas: 0\n", 1)), 0o644)
	code, _, stderr = runCmd(t, "check", "--model", mp, q)
	if want := "check: " + q + ":11:17: 0 PS shards: want >= 1"; code != exitBadInput || !strings.Contains(stderr, want) {
		t.Errorf("PS replicas 0: exit %d, stderr %q, want %q", code, stderr, want)
	}
	if mf, err := parseManifest("m.yaml", []byte(strings.Replace(job, "      replicas: 1\n", "", 1))); err != nil || mf.PS != 1 || mf.PSAt != "m.yaml:10:5" || mf.WorkersAt != "m.yaml:18:17" {
		t.Errorf("PS without replicas: %+v, %v; want 1 shard at m.yaml:10:5, the workers at m.yaml:18:17", mf, err)
	}
	code, _, stderr = runCmd(t, "check", "--model", mp, "--workers", "20000", big)
	if code != exitBadInput || strings.Contains(stderr, big) {
		t.Errorf("--workers 20000: exit %d, stderr %q: the flag is not the manifest", code, stderr)
	}
}

// A PyTorchJob (no PS role) judged on a model with parameter servers: the
// verdict is given at the model's shards, with a warning that asks whether
// the model is the job's (it was judged without a word).
func TestManifestWithoutPSOnPSModel(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	pt := filepath.Join("..", "..", "testdata", "manifests", "pytorchjob.yaml")
	_, stdout, stderr := runCmd(t, "check", "--model", mp, pt)
	if !strings.Contains(stderr, "has no PS replicas (a PyTorchJob trains without parameter servers), but the model (async) has them: judged at its 1 shard") || !strings.Contains(stdout, " 1 ps:") {
		t.Errorf("stdout %q stderr %q", stdout, stderr)
	}
	if _, _, stderr := runCmd(t, "check", "--model", mp, "--ps", "1", pt); strings.Contains(stderr, "no PS replicas") {
		t.Errorf("--ps given: %q, want no warning", stderr)
	}
}

// The manifest's own warnings (a role check does not count) are in
// check's JSON too, once on stderr; a TFJob without PS is named as one.
func TestManifestWarningsInJSON(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	q := writeTestFile(t, dir, "tf.yaml", "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 4\n    Workers:\n      replicas: 8\n")
	_, stdout, stderr := runCmd(t, "check", "--model", mp, q, "--format", "json")
	var out checkJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	joined := strings.Join(out.Warnings, "\n")
	for _, want := range []string{`replica role "Workers" is not counted`, "a TFJob without PS replicas trains by all-reduce"} {
		if !strings.Contains(joined, want) || strings.Count(stderr, want) != 1 {
			t.Errorf("want %q once in the JSON warnings and once on stderr: %q / %q", want, joined, stderr)
		}
	}
}

// Kubeflow's training operator reads role names in any case ("ps" is PS,
// "worker" Worker): a lower-case PS was left out (check then told a job
// with 2 shards to add one, exit 4) and all-lower-case roles were "without
// worker replicas". Two spellings of one role are refused.
func TestManifestRoleCase(t *testing.T) {
	cases := []struct {
		name, doc   string
		workers, ps int
	}{
		{"mixed", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 12\n    ps:\n      replicas: 2\n", 12, 2},
		{"lower", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    chief:\n      replicas: 1\n    worker:\n      replicas: 3\n    ps:\n      replicas: 2\n    evaluator:\n      replicas: 1\n", 3, 2}, // (the chief beside PS replicas coordinates: not counted)
		{"pytorch lower", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    master:\n      replicas: 1\n    WORKER:\n      replicas: 7\n", 8, 0},
	}
	for _, c := range cases {
		mf, err := parseManifest("m.yaml", []byte(c.doc))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if mf.Workers != c.workers || mf.PS != c.ps || len(mf.Warnings) != 0 {
			t.Errorf("%s: %d workers, %d ps, warnings %q; want %d and %d, none", c.name, mf.Workers, mf.PS, mf.Warnings, c.workers, c.ps)
		}
	}
	dup := "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n    worker:\n      replicas: 3\n"
	if _, err := parseManifest("m.yaml", []byte(dup)); err == nil || !strings.Contains(err.Error(), `m.yaml:6:5: replica role Worker given twice, as "Worker" and "worker"`) {
		t.Errorf("two spellings of Worker: %v", err)
	}
}

// A key check reads given twice in different cases ("replicas: 2" and
// "Replicas: 3", both numbers) was read as whichever the decoder took
// last, the other dropped without a word: it is refused as a role given
// twice is, at the second in the file, naming both, for every key of the
// structs check decodes (the decoder reads their keys in any case).
func TestManifestKeyCaseTwice(t *testing.T) {
	const tf = "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n"
	const pt = "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n"
	const tail = ": keys are read in any case, so one would be dropped without a word; want it once"
	checkManifestCases(t, []manifestCase{
		{"replicas, Replicas", tf + "      replicas: 2\n      Replicas: 3\n", 0, 0, `check: m.yaml:6:7: spec.tfReplicaSpecs.Worker.replicas given twice, as "replicas" and "Replicas"` + tail},
		// the second in the file, whatever the sorted order
		{"Replicas, replicas", tf + "      Replicas: 3\n      replicas: 2\n", 0, 0, `check: m.yaml:6:7: spec.tfReplicaSpecs.Worker.replicas given twice, as "Replicas" and "replicas"` + tail},
		{"flow", "kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {replicas: 2, REPLICAS: 3}}}\n", 0, 0, `check: m.yaml:2:47: spec.tfReplicaSpecs.Worker.replicas given twice, as "replicas" and "REPLICAS"` + tail},
		{"minReplicas", pt + "  elasticPolicy:\n    minReplicas: 1\n    MinReplicas: 2\n", 0, 0, `check: m.yaml:8:5: spec.elasticPolicy.minReplicas given twice, as "minReplicas" and "MinReplicas"` + tail},
		{"maxReplicas, flow", pt + "  elasticPolicy: {MaxReplicas: 4, maxreplicas: 3}\n", 0, 0, `check: m.yaml:6:35: spec.elasticPolicy.maxReplicas given twice, as "MaxReplicas" and "maxreplicas"` + tail},
		{"nProcPerNode", pt + "  elasticPolicy:\n    nProcPerNode: 1\n    nprocPerNode: 2\n", 0, 0, `check: m.yaml:8:5: spec.elasticPolicy.nProcPerNode given twice, as "nProcPerNode" and "nprocPerNode"` + tail},
		{"nprocPerNode", pt + "  nprocPerNode: \"2\"\n  NprocPerNode: \"4\"\n", 0, 0, `check: m.yaml:7:3: spec.nprocPerNode given twice, as "nprocPerNode" and "NprocPerNode"` + tail},
		{"kind", "Kind: PyTorchJob\n" + tf + "      replicas: 2\n", 0, 0, `check: m.yaml:2:1: kind given twice, as "Kind" and "kind"` + tail},
		{"spec", tf + "      replicas: 2\nSpec: {}\n", 0, 0, `check: m.yaml:6:1: spec given twice, as "spec" and "Spec"` + tail},
		{"tfReplicaSpecs", tf + "      replicas: 2\n  TFReplicaSpecs: {}\n", 0, 0, `check: m.yaml:6:3: spec.tfReplicaSpecs given twice, as "tfReplicaSpecs" and "TFReplicaSpecs"` + tail},
		// three spellings are all named, in file order, at the second
		{"three", tf + "      REPLICAS: 4\n      replicas: 2\n      Replicas: 3\n", 0, 0,
			`check: m.yaml:6:7: spec.tfReplicaSpecs.Worker.replicas given 3 times, as "REPLICAS", "replicas" and "Replicas": keys are read in any case, so all but one would be dropped without a word; want it once`},
		{"three, flow", "kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {replicas: 2, REPLICAS: 3, Replicas: 4}}}\n", 0, 0,
			`check: m.yaml:2:47: spec.tfReplicaSpecs.Worker.replicas given 3 times, as "replicas", "REPLICAS" and "Replicas": keys are read in any case, so all but one would be dropped without a word; want it once`},
		// keys check does not read are left alone, as are keys in one case
		{"other keys", tf + "      replicas: 2\n      Template: {}\n      template: {}\nmetadata: {Name: a, name: b}\n", 2, 0, ""},
	})
}

// The keys given in two cases are found in one walk of the manifest, the
// head (apiVersion, kind, spec) and the kind's fields together: a spec
// given twice was told once by the walk of the head and again by the walk
// of the kind's fields (the first shown, the second never).
func TestManifestCaseTwiceOnce(t *testing.T) {
	for _, c := range []struct {
		kind   string
		fields any
	}{{"TFJob", &tfFields{}}, {"PyTorchJob", &ptFields{}}, {"MXJob", nil}} {
		doc := "Kind: " + c.kind + "\nkind: " + c.kind + "\nspec: {}\nSpec: {}\napiVersion: v1\nAPIVersion: v1\n"
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		faults := caseTwiceFaults("m.yaml", []byte(doc), js, caseTwiceType(c.fields), nil, nil)
		var got []string
		for _, f := range faults {
			got = append(got, f.Error())
		}
		if len(got) != 3 || !strings.Contains(got[0]+got[1]+got[2], "m.yaml:4:1: spec given twice") {
			t.Errorf("%s: %d faults, want 3 (apiVersion, kind and spec, once each):\n%s", c.kind, len(got), strings.Join(got, "\n"))
		}
	}
}

// A flow mapping or list used as a key, or one under an explicit key,
// was the YAML library's "invalid map key: map[interface {}]interface
// {}{\"a\":1}", in Go's syntax and at no line; a null key its broken
// "unsupported map key of type: %!s(<nil>)": each is told at the key in
// the manifest's words.
func TestManifestComplexKeys(t *testing.T) {
	const mapping = ": not a Kubeflow job manifest: a mapping used as a key (expected a plain key such as replicas)"
	const list = ": not a Kubeflow job manifest: a list used as a key (expected a plain key such as replicas)"
	const null = ": not a Kubeflow job manifest: a null key (expected a plain key such as replicas; quote a key that is the word null)"
	const tf = "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n"
	checkManifestCases(t, []manifestCase{
		{"flow mapping", "{a: 1}: x\n", 0, 0, "check: m.yaml:1:1" + mapping},
		{"flow list", "kind: TFJob\nspec:\n  [a]: x\n", 0, 0, "check: m.yaml:3:3" + list},
		{"in a role", tf + "      replicas: 2\n      {x: 1}: y\n", 0, 0, "check: m.yaml:6:7" + mapping},
		{"in flow", "kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {[r]: 2}}}\n", 0, 0, "check: m.yaml:2:34" + list},
		{"an anchor before it", "kind: TFJob\nspec:\n  &a [x]: y\n", 0, 0, "check: m.yaml:3:6" + list},
		// a quoted one and a value are no keys: the key below them
		{"after a value and a string", "kind: TFJob\nmetadata: {labels: {a: '[b]: c'}, x: [y]}\nspec:\n  {a: 1} : x\n", 0, 0, "check: m.yaml:4:3" + mapping},
		{"explicit mapping", "kind: TFJob\n? {a: 1}\n: x\n", 0, 0, "check: m.yaml:2:3" + mapping},
		{"explicit block list", "kind: TFJob\n? - a\n: x\n", 0, 0, "check: m.yaml:2:3" + list},
		{"explicit block mapping", "kind: TFJob\n? a: 1\n: x\n", 0, 0, "check: m.yaml:2:3" + mapping},
		{"explicit, below", "kind: TFJob\n?\n  - a\n: x\n", 0, 0, "check: m.yaml:2:1" + list},
		{"tilde", "kind: TFJob\nspec:\n  ~: x\n", 0, 0, "check: m.yaml:3:3" + null},
		{"null", tf + "      null: 2\n", 0, 0, "check: m.yaml:5:7" + null},
		{"NULL in flow", "kind: TFJob\nspec: {tfReplicaSpecs: {NULL: 1}}\n", 0, 0, "check: m.yaml:2:25" + null},
		{"!!null", "kind: TFJob\n!!null '': x\n", 0, 0, "check: m.yaml:2:1" + null},
		{"empty explicit key", "kind: TFJob\nspec:\n  ?\n  : x\n", 0, 0, "check: m.yaml:3:3" + null},
		// a word that holds null is a key
		{"nullable", "kind: TFJob\nnullable: 1\nspec:\n  ? ~\n  : x\n", 0, 0, "check: m.yaml:4:3" + null},
	})
}

// A replicas that is not a number in flow style is named at its line and
// column in the project's words (it got encoding/json's, naming a Go
// struct, and no position).
func TestManifestFlowReplicasType(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{"kind": "TFJob", "spec": {"tfReplicaSpecs": {"Worker": {"replicas": 3}, "PS": {"replicas": "two"}}}}`, `m.yaml:1:93: spec.tfReplicaSpecs.PS.replicas is "two": want a whole number of replicas`},
		{"kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: {replicas: 3}\n    PS: {replicas: [2]}\n", "m.yaml:5:20: spec.tfReplicaSpecs.PS.replicas is [2]: want a whole number"},
	} {
		_, err := parseManifest("m.yaml", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "Go struct") {
			t.Errorf("%s: %v, want %q", c.doc, err, c.want)
		}
	}
}

// A role that merges another's spec (<<: *anchor) and overrides its
// replicas is read as YAML says, the explicit key first, with a warning
// that duplicate keys go unchecked there (the YAML library's strict check
// refused it as "replicas" given twice). Without "<<", a duplicate is
// still refused.
func TestManifestMergeKeys(t *testing.T) {
	doc := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: &w\n      replicas: 3\n    PS:\n      <<: *w\n      replicas: 2\n"
	mf, err := parseManifest("m.yaml", []byte(doc))
	if err != nil || mf.Workers != 3 || mf.PS != 2 || len(mf.Warnings) != 1 || !strings.Contains(mf.Warnings[0], "YAML merge keys (<<)") {
		t.Errorf("merge: %+v, %v", mf, err)
	}
	dup := strings.Replace(doc, "      <<: *w\n", "      replicas: 5\n", 1)
	if _, err := parseManifest("m.yaml", []byte(dup)); err == nil || !strings.Contains(err.Error(), `key "replicas" appears twice`) {
		t.Errorf("duplicate without a merge: %v", err)
	}
	// "<<" in a value is no merge key: the duplicate is still refused
	heredoc := "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata:\n  annotations: {note: \"cat <<EOF\"}\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n      replicas: 8\n"
	if _, err := parseManifest("m.yaml", []byte(heredoc)); err == nil || !strings.Contains(err.Error(), `key "replicas" appears twice`) {
		t.Errorf("<< in a value: %v", err)
	}
	// a flow-style merge is one
	flow := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: &w {replicas: 3}\n    PS: {<<: *w, replicas: 2}\n"
	if mf, err := parseManifest("m.yaml", []byte(flow)); err != nil || mf.PS != 2 || mf.Workers != 3 {
		t.Errorf("flow merge: %+v, %v", mf, err)
	}
}

// Kubeflow's training operator refuses a PyTorchJob whose Master is not one
// replica ("There must be only 1 master replica"; its webhook: Master
// replicas "must be 1"), and a TFJob's chief/master is one task (its schema:
// Chief.replicas at most 1; TensorFlow: at most one chief). check judged
// Master: {replicas: 2} as 2 workers. Refused at the replicas value; one
// replica (or replicas absent, Kubeflow's 1) is still read.
func TestManifestLeaderReplicas(t *testing.T) {
	bad := []struct{ name, doc, want string }{
		{"pytorch master 2", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 2\n    Worker:\n      replicas: 3\n",
			"check: m.yaml:5:17: Master.replicas = 2, want exactly 1: Kubeflow's training operator refuses a PyTorchJob whose Master is not one replica (put the other replicas under Worker)"},
		{"pytorch master 2 alone, flow", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    master: {replicas: 2}\n",
			"check: m.yaml:4:24: master.replicas = 2, want exactly 1:"},
		{"pytorch master 0", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 0\n    Worker:\n      replicas: 3\n",
			"check: m.yaml:5:17: Master.replicas = 0, want exactly 1:"},
		{"tf chief 2", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief:\n      replicas: 2\n    Worker:\n      replicas: 3\n    PS:\n      replicas: 1\n",
			"check: m.yaml:5:17: Chief.replicas = 2, want at most 1: a TFJob has one chief/master task (Kubeflow's TFJob schema bounds Chief.replicas to 1; TensorFlow allows at most one chief): put the other replicas under Worker"},
		{"tf master 2", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 3\n    Master:\n      replicas: 2\n",
			"check: m.yaml:7:17: Master.replicas = 2, want at most 1:"},
		{"tf chief 2, flow", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    chief: {replicas: 2}\n    Worker: {replicas: 3}\n",
			"check: m.yaml:4:23: chief.replicas = 2, want at most 1:"},
	}
	for _, c := range bad {
		mf, err := parseManifest("m.yaml", []byte(c.doc))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %+v, %v; want %q", c.name, mf, err, c.want)
		}
	}
	good := []struct {
		name, doc   string
		workers, ps int
	}{
		{"pytorch master 1", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 3\n", 4, 0},
		{"pytorch master default", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Master: {}\n    Worker:\n      replicas: 3\n", 4, 0},
		// (beside PS replicas the chief coordinates: not counted)
		{"tf chief 1", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief:\n      replicas: 1\n    Worker:\n      replicas: 3\n    PS:\n      replicas: 1\n", 3, 1},
		{"tf master 1", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Master: {replicas: 1}\n    Worker: {replicas: 3}\n", 4, 0},
		{"tf chief 0", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief:\n      replicas: 0\n    Worker:\n      replicas: 3\n", 3, 0},
	}
	for _, c := range good {
		mf, err := parseManifest("m.yaml", []byte(c.doc))
		if err != nil || mf.Workers != c.workers || mf.PS != c.ps {
			t.Errorf("%s: %d workers, %d ps, %v; want %d and %d", c.name, mf.Workers, mf.PS, err, c.workers, c.ps)
		}
	}
}

// A PyTorchJob's replicas each run nprocPerNode processes, and the training
// operator's world size is replicas x nprocPerNode (WORLD_SIZE): check
// judged a job of 1 Master + 3 Workers at "4" processes each as 4 workers,
// not 16, and said nothing of elasticPolicy's range of replicas.
func TestManifestNprocPerNode(t *testing.T) {
	job := func(spec string) string {
		return "kind: PyTorchJob\nspec:\n" + spec + "  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 3\n"
	}
	cases := []struct {
		name, spec string
		workers    int    // 0: an error
		want       string // the error, or the one warning ("" none)
	}{
		{"absent", "", 4, ""},
		// (1 + 3) replicas x 4
		{"string", "  nprocPerNode: \"4\"\n", 16, ""},
		// the deprecated form, read when nprocPerNode is absent: 4 x 2
		{"elastic nProcPerNode", "  elasticPolicy:\n    nProcPerNode: 2\n", 8, ""},
		{"elastic range", "  elasticPolicy:\n    minReplicas: 2\n    maxReplicas: 6\n", 4, "m.yaml:3:3: an elastic PyTorchJob runs with 2 to 6 replicas as nodes come and go: judged at the 4 replicas given (the verdicts at the bounds follow it, elastic_ends in json; the exit code is the worst of them and the given count's)"},
		// one bound given is both, as the operator defaults it (it said
		// "2 to ? replicas")
		// (since 2026-12-07 the replicas above it are named)
		{"elastic min alone", "  elasticPolicy:\n    minReplicas: 2\n", 4, "m.yaml:9:17: the 4 replicas given are above the elasticPolicy's bound of 2 replicas (minReplicas m.yaml:4:18, given alone: the training operator takes it for both bounds): torchrun's rendezvous (--nnodes 2:2) admits at most 2 nodes, and the others wait as spares, so the job never runs at 4 replicas; judged at the 4 replicas given all the same (the verdicts at the bounds follow it, elastic_ends in json; the exit code is the worst of them and the given count's)"},
		{"elastic bounds at the replicas", "  elasticPolicy:\n    maxReplicas: 4\n", 4, ""},
		{"a number", "  nprocPerNode: 4\n", 0, `check: m.yaml:3:17: nprocPerNode is 4, not a string: Kubeflow's PyTorchJob takes a quoted number ("4"), auto, cpu or gpu`},
		{"zero", "  nprocPerNode: \"0\"\n", 0, `check: m.yaml:3:17: nprocPerNode "0": want a whole number of processes per replica from 1 to 1000000, or auto, cpu or gpu`},
		{"a word", "  nprocPerNode: four\n", 0, `check: m.yaml:3:17: nprocPerNode "four": want a whole number of processes per replica from 1 to 1000000, or auto, cpu or gpu`},
		{"both", "  nprocPerNode: \"2\"\n  elasticPolicy:\n    nProcPerNode: 2\n", 0, "check: m.yaml:5:19: PyTorchJob with both spec.nprocPerNode and spec.elasticPolicy.nProcPerNode: Kubeflow's training operator refuses the deprecated elasticPolicy.nProcPerNode beside nprocPerNode (want nprocPerNode alone)"},
		{"elastic zero", "  elasticPolicy:\n    nProcPerNode: 0\n", 0, "check: m.yaml:4:19: elasticPolicy.nProcPerNode = 0, want a whole number of processes per replica from 1 to 1000000"},
		{"elastic min above max", "  elasticPolicy:\n    minReplicas: 6\n    maxReplicas: 2\n", 0, "check: m.yaml:4:18: elasticPolicy minReplicas 6 is above maxReplicas 2: want minReplicas <= maxReplicas"},
		{"elastic a word", "  elasticPolicy:\n    maxReplicas: six\n", 0, "check: m.yaml:4:18: not a Kubeflow job manifest: spec.elasticPolicy.maxReplicas holds a string where a whole number was expected"},
	}
	for _, c := range cases {
		mf, err := parseManifest("m.yaml", []byte(job(c.spec)))
		if c.workers == 0 {
			if err == nil || err.Error() != c.want {
				t.Errorf("%s: %+v, %v; want the error %q", c.name, mf, err, c.want)
			}
			continue
		}
		var warns []string
		if c.want != "" {
			warns = []string{c.want}
		}
		// the warnings of how the count was read are CountWarnings
		// (check drops them under --workers)
		if err != nil || mf.Workers != c.workers || strings.Join(mf.CountWarnings, "|") != strings.Join(warns, "|") || len(mf.Warnings) != 0 || mf.NeedWorkers != "" {
			t.Errorf("%s: %d workers, warnings %q and %q, %v; want %d workers, count warnings %q", c.name, mf.Workers, mf.CountWarnings, mf.Warnings, err, c.workers, warns)
		}
	}
	// auto, cpu and gpu: torchrun counts the processes at launch, so the
	// manifest gives no count (it was judged at one process per replica
	// with a warning, and passed): check needs --workers
	for word, per := range map[string]string{"auto": "GPU (else CPU)", "cpu": "CPU", "gpu": "GPU"} {
		mf, err := parseManifest("m.yaml", []byte(job("  nprocPerNode: "+word+"\n")))
		// gpu and auto say why the pods' GPUs give no count either
		why := map[string]string{"auto": "; Master (m.yaml:5:5) has no container named pytorch, the one the training operator runs: torchrun's auto then counts the node's CPUs",
			"gpu": "; Master (m.yaml:5:5) has no container named pytorch, the one the training operator runs"}[word]
		want := `m.yaml:3:17: nprocPerNode "` + word + `": torchrun starts one process per ` + per + ` of each replica at launch, a count the manifest does not give (the training operator leaves it to torchrun too)` + why + `: give --workers, the 4 replicas x the processes each runs`
		if err != nil || mf.NeedWorkers != want || len(mf.CountWarnings) != 0 {
			t.Errorf("%s: %+v, %v; want NeedWorkers %q", word, mf, err, want)
		}
	}
}

// nprocPerNode gpu, or auto on pods given GPUs: torchrun starts one process
// per GPU the pod sees, the nvidia.com/gpu limit of the pytorch container,
// so check counts replicas x GPUs (it needed --workers); without such a
// limit on every training role, with limits that differ, or with cpu, it
// still needs --workers.
func TestManifestNprocPerNodeGPUs(t *testing.T) {
	pod := func(name, gpus string) string {
		if gpus == "" {
			return "      template:\n        spec:\n          containers:\n          - name: " + name + "\n            image: x\n"
		}
		return "      template:\n        spec:\n          containers:\n          - name: sidecar\n            image: y\n          - name: " + name + "\n            image: x\n            resources:\n              limits:\n                nvidia.com/gpu: " + gpus + "\n"
	}
	job := func(nproc, master, worker string) string {
		return "kind: PyTorchJob\nspec:\n  nprocPerNode: " + nproc + "\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n" + master + "    Worker:\n      replicas: 3\n" + worker
	}
	const how = `m.yaml:3:17: nprocPerNode "%s": torchrun starts one process per GPU of each replica, 8 (the nvidia.com/gpu limit of the pytorch container of Master and Worker)`
	for _, c := range []struct {
		name, doc string
		workers   int    // 0: NeedWorkers
		note      string // the count warning's nprocPerNode word
	}{
		{"gpu, 8 a pod", job("gpu", pod("pytorch", "8"), pod("pytorch", `"8"`)), 32, "gpu"},
		{"auto, 8 a pod", job("auto", pod("pytorch", `"8"`), pod("pytorch", "8")), 32, "auto"},
		{"cpu", job("cpu", pod("pytorch", "8"), pod("pytorch", "8")), 0, "one process per CPU"},
		{"gpu, no limit on the workers", job("gpu", pod("pytorch", "8"), pod("pytorch", "")), 0, "; the pytorch container of Worker (m.yaml:17:5) has no nvidia.com/gpu limit: give --workers"},
		{"auto, no limits", job("auto", pod("pytorch", ""), pod("pytorch", "")), 0, "has no nvidia.com/gpu limit: torchrun's auto then counts the node's CPUs"},
		{"gpu, limits differ", job("gpu", pod("pytorch", "4"), pod("pytorch", "8")), 0, "; the nvidia.com/gpu limits of the pytorch containers differ: Master 4, Worker 8 (m.yaml:"},
		{"gpu, another container's limit", job("gpu", pod("trainer", "8"), pod("trainer", "8")), 0, "; Master (m.yaml:5:5) has no container named pytorch"},
		{"gpu, a fraction", job("gpu", pod("pytorch", "0.5"), pod("pytorch", "0.5")), 0, `; the pytorch container of Master (m.yaml:5:5) has nvidia.com/gpu "0.5", not a whole number of GPUs from 1 to 1000000`},
		{"gpu, no templates", job("gpu", "", ""), 0, "; Master (m.yaml:5:5) has no container named pytorch"},
	} {
		mf, err := parseManifest("m.yaml", []byte(c.doc))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if c.workers == 0 {
			if !strings.Contains(mf.NeedWorkers, c.note) || len(mf.CountWarnings) != 0 {
				t.Errorf("%s: %d workers, NeedWorkers %q, count warnings %q; want NeedWorkers saying %q", c.name, mf.Workers, mf.NeedWorkers, mf.CountWarnings, c.note)
			}
			continue
		}
		want := fmt.Sprintf(how, c.note)
		if mf.Workers != c.workers || mf.NeedWorkers != "" || strings.Join(mf.CountWarnings, "|") != want {
			t.Errorf("%s: %d workers, NeedWorkers %q, count warnings %q; want %d workers and %q", c.name, mf.Workers, mf.NeedWorkers, mf.CountWarnings, c.workers, want)
		}
	}
}

// A file of several YAML documents, as kubectl apply -f takes it: check
// judges the one Kubeflow job among them (a Service before the TFJob was
// refused as "holds 2 YAML documents"), with the job's errors at their
// lines in the file; no job, two jobs, or a document that is not YAML are
// errors naming the documents' kinds and lines.
func TestManifestDocuments(t *testing.T) {
	svc := "apiVersion: v1\nkind: Service\nmetadata:\n  name: ps\nspec:\n  ports:\n    - port: 2222\n"
	tf := "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    PS:\n      replicas: 2\n    Worker:\n      replicas: 6\n"
	pt := "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 3\n"
	cases := []manifestCase{
		{"service, job", svc + "---\n" + tf, 6, 2, ""},
		{"job, service, markers around", "---\n" + tf + "---\n" + svc + "---\n", 6, 2, ""},
		{"CRLF", strings.ReplaceAll(svc+"---\n"+tf, "\n", "\r\n"), 6, 2, ""},
		{"flow job on the marker line", "kind: Service\n--- {kind: TFJob, spec: {tfReplicaSpecs: {Worker: {replicas: 2}}}}\n", 2, 0, ""},
		// the job's fault at its line in the file: its line 8, the job
		// starting at line 9 (the Service's 7 lines and "---"): 16
		{"service, bad job", svc + "---\n" + strings.Replace(tf, "replicas: 6", "replicas: six", 1), 0, 0, "check: m.yaml:16:17: spec.tfReplicaSpecs.Worker.replicas is \"six\": want a whole number of replicas >= 0"},
		{"no job", svc + "---\nkind: ConfigMap\n", 0, 0, "check: m.yaml: none of its 2 YAML documents is a TFJob or PyTorchJob (Service at 2:7, ConfigMap at 9:7): expected one Kubeflow job"},
		{"two jobs", tf + "---\n" + svc + "---\n" + pt, 0, 0, "check: m.yaml: holds 2 Kubeflow jobs (TFJob at 2:7, PyTorchJob at 18:7): give a file with one (check judges one job)"},
		// a document that is not YAML, at its own line (the parser runs to
		// the end of the document: line 2, not the file's 11)
		{"service not YAML", "kind: Service\nspec: [\n---\n" + tf, 0, 0, "check: m.yaml:2:1: not a Kubeflow job manifest: invalid YAML: did not find expected node content"},
		{"a list", "- a\n---\n" + tf, 0, 0, "check: m.yaml:1:1: not a Kubeflow job manifest: expected a mapping of apiVersion, kind and spec, got a list"},
		// a "..." ends a document, and the next may start bare (YAML
		// 1.2): the job after the Service's "..." was read as part of
		// the Service's document, and check judged the Service (kind
		// "Service": expected TFJob or PyTorchJob)
		{"service ..., bare job", svc + "...\n" + tf, 6, 2, ""},
		{"job ..., bare service", tf + "... # end\n" + svc, 6, 2, ""},
		{"service ..., bare bad job", svc + "...\n" + strings.Replace(tf, "replicas: 6", "replicas: six", 1), 0, 0, "check: m.yaml:16:17: spec.tfReplicaSpecs.Worker.replicas is \"six\": want a whole number of replicas >= 0"},
		{"service ..., --- job ...", svc + "...\n---\n" + tf + "...\n", 6, 2, ""},
		{"two jobs apart by ...", tf + "...\n" + pt, 0, 0, "check: m.yaml: holds 2 Kubeflow jobs (TFJob at 2:7, PyTorchJob at 10:7): give a file with one (check judges one job)"},
	}
	checkManifestCases(t, cases)
}

// Files that are no manifest say what they are: a folder ("read d: is a
// directory"), an empty or comment-only file ("1:1: no kind"), and an
// endless one (/dev/zero was read until memory ran out).
func TestReadManifestNotAManifest(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty, blank, comments := write("e.yaml", ""), write("b.yaml", "\n  \r\n"), write("c.yaml", "# a job, later\n---\n")
	cases := map[string]string{
		dir:      "check: " + dir + " is a folder: want a TFJob or PyTorchJob manifest file",
		empty:    "check: " + empty + ": no YAML document (empty): expected a Kubeflow TFJob or PyTorchJob manifest",
		blank:    "check: " + blank + ": no YAML document (empty): expected a Kubeflow TFJob or PyTorchJob manifest",
		comments: "check: " + comments + ": no YAML document (only comments, directives or ---): expected a Kubeflow TFJob or PyTorchJob manifest",
	}
	if fi, err := os.Stat("/dev/zero"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		cases["/dev/zero"] = "check: /dev/zero: larger than 16 MiB: not a job manifest (Kubernetes stores an object of at most 1.5 MiB)"
	}
	for path, want := range cases {
		if mf, err := readManifest(path); err == nil || err.Error() != want {
			t.Errorf("%s: %+v, %v; want %q", path, mf, err, want)
		}
	}
}

// A manifest in UTF-16 (PowerShell's "kubectl get -o yaml > job.yaml")
// or with a UTF-8 byte order mark is read as its text: in UTF-16 the "---"
// lines went unseen, so a Service before the job was judged ("kind
// \"Service\""), and errors had no line; a UTF-8 mark hid line 1's key
// from the positions.
func TestManifestEncodings(t *testing.T) {
	text := "kind: Service\r\n---\r\nkind: TFJob\r\nspec:\r\n  tfReplicaSpecs:\r\n    Worker:\r\n      replicas: 3\r\n"
	utf16 := func(s string, big bool) []byte {
		b := []byte{0xff, 0xfe}
		if big {
			b = []byte{0xfe, 0xff}
		}
		for _, r := range s { // ASCII: one unit each
			if big {
				b = append(b, 0, byte(r))
			} else {
				b = append(b, byte(r), 0)
			}
		}
		return b
	}
	for name, b := range map[string][]byte{
		"UTF-16LE":  utf16(text, false),
		"UTF-16BE":  utf16(text, true),
		"UTF-8 BOM": append([]byte("\xef\xbb\xbf"), text...),
	} {
		if mf, err := parseManifest("m.yaml", b); err != nil || mf.Workers != 3 {
			t.Errorf("%s: %+v, %v; want 3 workers", name, mf, err)
		}
	}
	for name, c := range map[string]struct {
		b    []byte
		want string
	}{
		"UTF-16 fault at its line": {utf16(strings.Replace(text, "replicas: 3", "replicas: x", 1), false), "check: m.yaml:7:17: spec.tfReplicaSpecs.Worker.replicas is \"x\": want a whole number of replicas >= 0"},
		"UTF-8 BOM, line 1's key":  {[]byte("\xef\xbb\xbfkind: MPIJob\n"), `check: m.yaml:1:7: kind "MPIJob": expected TFJob or PyTorchJob`},
		"UTF-16 cut short":         {utf16(text, false)[:9], "check: m.yaml: UTF-16 (by its byte order mark) of an odd number of bytes: cut short? expected a Kubeflow job manifest"},
	} {
		if mf, err := parseManifest("m.yaml", c.b); err == nil || err.Error() != c.want {
			t.Errorf("%s: %+v, %v; want %q", name, mf, err, c.want)
		}
	}
}

// Too many workers from a PyTorchJob's replicas times nprocPerNode say
// both, placed at the Worker's replicas (8:17), the role giving the most:
// they were placed at the first role's, the Master's "replicas: 1" (6:17),
// which alone read as 1 replica making 20000 workers.
func TestCheckNprocTooLarge(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	p := filepath.Join(dir, "pt.yaml")
	os.WriteFile(p, []byte("kind: PyTorchJob\nspec:\n  nprocPerNode: \"5000\"\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 3\n"), 0o644)
	code, _, stderr := runCmd(t, "check", "--model", mp, p)
	want := "check: " + p + ":8:17: 20000 workers (4 replicas x nprocPerNode 5000): too large: at most 10000"
	if code != exitBadInput || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
	// the reviewer's case: testdata's PyTorchJob with 6000 Workers
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "manifests", "pytorchjob-nproc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "bigp.yaml")
	os.WriteFile(big, []byte(strings.Replace(string(b), "replicas: 7", "replicas: 6000", 1)), 0o644)
	code, _, stderr = runCmd(t, "check", "--model", mp, big)
	want = "check: " + big + ":19:17: 12002 workers (6001 replicas x nprocPerNode 2): too large"
	if code != exitBadInput || !strings.Contains(stderr, want) {
		t.Errorf("6000 Workers: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
	// a Master alone is placed at its own replicas
	os.WriteFile(p, []byte("kind: PyTorchJob\nspec:\n  nprocPerNode: \"20000\"\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n"), 0o644)
	code, _, stderr = runCmd(t, "check", "--model", mp, p)
	want = "check: " + p + ":6:17: 20000 workers"
	if code != exitBadInput || !strings.Contains(stderr, want) {
		t.Errorf("a Master alone: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
	// the deprecated key named as given (it said nprocPerNode of a file
	// without one)
	os.WriteFile(p, []byte("kind: PyTorchJob\nspec:\n  elasticPolicy:\n    nProcPerNode: 5000\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 3\n"), 0o644)
	code, _, stderr = runCmd(t, "check", "--model", mp, p)
	want = "check: " + p + ":9:17: 20000 workers (4 replicas x elasticPolicy.nProcPerNode 5000): too large: at most 10000"
	if code != exitBadInput || !strings.Contains(stderr, want) {
		t.Errorf("elasticPolicy.nProcPerNode: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}

// TestCheckWorkersFlagDropsCountWarnings: the warnings that say how a
// PyTorchJob's worker count was judged (an elasticPolicy range: "judged at
// the 4 replicas given; check the others with --workers") are left out when
// --workers gives the count: they were printed beside a verdict at the
// --workers given, naming a count it was not judged at. Without --workers
// they stay.
func TestCheckWorkersFlagDropsCountWarnings(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	p := filepath.Join(dir, "pt.yaml")
	os.WriteFile(p, []byte("kind: PyTorchJob\nspec:\n  elasticPolicy:\n    minReplicas: 2\n    maxReplicas: 6\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 3\n"), 0o644)
	const elastic = "judged at the 4 replicas given (the verdicts at the bounds follow it, elastic_ends in json; the exit code is the worst of them and the given count's)"
	_, stdout, stderr := runCmd(t, "check", "--model", mp, p)
	if !strings.Contains(stderr, elastic) || !strings.Contains(stdout, "at 4 workers") {
		t.Errorf("without --workers: stdout %q, stderr %q; want the verdict at 4 workers and the warning", stdout, stderr)
	}
	_, stdout, stderr = runCmd(t, "check", "--model", mp, "--workers", "8", p)
	if strings.Contains(stderr, elastic) || !strings.Contains(stdout, "at 8 workers") {
		t.Errorf("with --workers 8: stdout %q, stderr %q; want the verdict at 8 workers and no warning", stdout, stderr)
	}
}

// nprocPerNode auto (cpu, gpu) leaves the processes per replica to torchrun
// at launch: check judged the job at one process per replica with a
// warning, and passed it (exit 0) at a fraction of its workers, say an
// eighth on nodes of 8 GPUs. It now refuses to judge (exit 2, at the
// field, naming --workers), still naming the roles it does not count, and
// judges the --workers given without a word of the guess.
func TestCheckNprocAutoNeedsWorkers(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	p := writeTestFile(t, dir, "pt.yaml", "kind: PyTorchJob\nspec:\n  nprocPerNode: auto\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 3\n    Workers:\n      replicas: 2\n")
	code, stdout, stderr := runCmd(t, "check", "--model", mp, p)
	want := "sgdplan: check: " + p + `:3:17: nprocPerNode "auto": torchrun starts one process per GPU (else CPU) of each replica at launch, a count the manifest does not give (the training operator leaves it to torchrun too); Master (` + p + `:5:5) has no container named pytorch, the one the training operator runs: torchrun's auto then counts the node's CPUs: give --workers, the 4 replicas x the processes each runs`
	if code != exitBadInput || stdout != "" || !strings.Contains(stderr, want) || !strings.Contains(stderr, `replica role "Workers" is not counted`) {
		t.Errorf("without --workers: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
	code, stdout, stderr = runCmd(t, "check", "--model", mp, "--workers", "8", p)
	if code == exitBadInput || !strings.Contains(stdout, "at 8 workers") || strings.Contains(stderr, "nprocPerNode") {
		t.Errorf("--workers 8: exit %d, stdout %q, stderr %q; want the verdict at 8 workers, nothing of nprocPerNode", code, stdout, stderr)
	}
}

// A %YAML directive before "---" is the stream's prologue, not a document:
// "%YAML 1.2" was judged as one (a file of it and a TFJob "holds 2 YAML
// documents", and the library refused version 1.2 as "incompatible"). The
// job's errors stay at their lines; a version other than 1.x is refused at
// its column.
func TestManifestYAMLDirective(t *testing.T) {
	job := "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    PS:\n      replicas: 2\n    Worker:\n      replicas: 6\n"
	for name, doc := range map[string]string{
		"1.2":                  "%YAML 1.2\n---\n" + job,
		"1.1, a comment":       "# made by hand\n%YAML 1.1\n---\n" + job,
		"CRLF":                 strings.ReplaceAll("%YAML 1.2\n---\n"+job, "\n", "\r\n"),
		"after a document end": "kind: Service\n...\n%YAML 1.2\n---\n" + job,
		"a comment after":      "%YAML 1.2 # the version\n---\n" + job,
		"one per document":     "%YAML 1.2\n---\nkind: Service\n...\n%YAML 1.2\n---\n" + job,
	} {
		if mf, err := parseManifest("m.yaml", []byte(doc)); err != nil || mf.Workers != 6 || mf.PS != 2 {
			t.Errorf("%s: %+v, %v; want 6 workers, 2 PS", name, mf, err)
		}
	}
	for name, c := range map[string]struct{ doc, want string }{
		"fault at its line": {"%YAML 1.2\n---\n" + strings.Replace(job, "replicas: 6", "replicas: -6", 1), "check: m.yaml:9:17: Worker.replicas = -6, want >= 0"},
		"version 2":         {"%YAML 2.0\n---\n" + job, "check: m.yaml:1:7: %YAML directive with version 2.0: expected YAML 1.1 or 1.2 (%YAML 1.2)"},
		"directive alone":   {"%YAML 1.2\n", "check: m.yaml: no YAML document (only comments, directives or ---): expected a Kubeflow TFJob or PyTorchJob manifest"},
		// YAML forbids two %YAML directives for one document, and
		// takes the version alone; without its space the library's
		// message had no position
		"two directives": {"%YAML 1.2\n%YAML 1.1\n---\n" + job, "check: m.yaml:2:1: a second %YAML directive for one document (line 1 has one): expected one"},
		"a word after":   {"%YAML 1.2 extra\n---\n" + job, `check: m.yaml:1:11: %YAML directive: "extra" after the version: expected the version alone (%YAML 1.2)`},
		"no space":       {"%YAML1.2\n---\n" + job, `check: m.yaml:1:6: %YAML directive "%YAML1.2": expected a space before the version (%YAML 1.2)`},
	} {
		if mf, err := parseManifest("m.yaml", []byte(c.doc)); err == nil || err.Error() != c.want {
			t.Errorf("%s: %+v, %v; want %q", name, mf, err, c.want)
		}
	}
}

// A %TAG directive before a job that is not the first document of the
// stream (after the ... that ends the one above, as YAML 1.2 has it) was
// dropped with the lines above the job: a tag of its handle in the job
// ("!e!int", the handle e naming YAML's own tags) failed ("found undefined
// tag handle"), as it did for a job that was the first of several
// documents, or in a List. The directive applies to its document alone,
// and a directive inside the document above (no ... before it) is an error
// at its line: YAML 1.2 has none there.
func TestManifestTagDirective(t *testing.T) {
	const tag = "%TAG !e! tag:yaml.org,2002:\n"
	job := "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: !e!int 4\n"
	list := "apiVersion: v1\nkind: List\nitems:\n- kind: TFJob\n  spec:\n    tfReplicaSpecs:\n      Worker:\n        replicas: !e!int 4\n"
	for _, c := range []struct{ name, doc, at string }{
		{"first, alone", tag + "---\n" + job, "m.yaml:7:17"},
		{"first of two", tag + "---\n" + job + "---\nkind: Service\n", "m.yaml:7:17"},
		{"second", "kind: Service\n...\n" + tag + "---\n" + job, "m.yaml:9:17"},
		{"second, %YAML and a comment", "kind: Service\n...\n# the job\n%YAML 1.2\n" + tag + "---\n" + job, "m.yaml:11:17"},
		{"second, CRLF", strings.ReplaceAll("kind: Service\n...\n"+tag+"---\n"+job, "\n", "\r\n"), "m.yaml:9:17"},
		{"a List", tag + "---\n" + list, "m.yaml:10:19"},
		{"a List, second", "kind: Service\n... # end\n" + tag + "--- # the jobs\n" + list, "m.yaml:12:19"},
	} {
		mf, err := parseManifest("m.yaml", []byte(c.doc))
		if err != nil || mf.Workers != 4 || mf.WorkersAt != c.at {
			t.Errorf("%s: %+v, %v; want 4 workers at %s", c.name, mf, err, c.at)
		}
	}
	checkManifestCases(t, []manifestCase{
		// the job's faults at their lines, as when it is first
		{"a fault, second", "kind: Service\n...\n" + tag + "---\n" + strings.Replace(job, "int 4", "int -4", 1), 0, 0, "check: m.yaml:9:17: Worker.replicas = -4, want >= 0"},
		{"a fault, first", tag + "---\n" + strings.Replace(job, "int 4", "int -4", 1) + "---\nkind: Service\n", 0, 0, "check: m.yaml:7:17: Worker.replicas = -4, want >= 0"},
		// the directive is the Service's, not the job's (at the tag's
		// line: the YAML library names the one above)
		{"the document above's", tag + "---\nkind: Service\n---\n" + job, 0, 0, "check: m.yaml:9:1: not a Kubeflow job manifest: invalid YAML: found undefined tag handle"},
		{"inside the document above", "kind: Service\n" + tag + "---\n" + job, 0, 0, "check: m.yaml:2:1: %TAG directive inside the document above it (line 1; no ... ends that document before the directive): YAML 1.2 takes a document's directives only at the start of the stream or after a ... line: expected a ... line above it"},
		{"after ---", "kind: Service\n---\n# tags\n" + tag + "---\n" + job, 0, 0, "check: m.yaml:4:1: %TAG directive inside the document above it (line 2; no ... ends that document before the directive): YAML 1.2 takes a document's directives only at the start of the stream or after a ... line: expected a ... line above it"},
	})
}

// A replicas that is not a whole number gets one wording in block and flow
// style, at its line and column (block style said "...replicas: "4":
// expected a whole number >= 0", flow style "...replicas is "4": want a
// whole number of replicas"); a quoted number says to drop the quotes
// (Kubernetes takes replicas as an integer and refuses the string too).
func TestManifestReplicasStringOneWording(t *testing.T) {
	const quoted = `spec.tfReplicaSpecs.Worker.replicas is "4": want a whole number of replicas >= 0, not a string (write replicas: 4, without quotes)`
	cases := []struct{ name, doc, want string }{
		{"block", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: \"4\"\n", "check: m.yaml:5:17: " + quoted},
		{"flow", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: {replicas: \"4\"}\n", "check: m.yaml:4:24: " + quoted},
		{"JSON", `{"kind": "TFJob", "spec": {"tfReplicaSpecs": {"Worker": {"replicas": "4"}}}}`, "check: m.yaml:1:70: " + quoted},
		{"block, a word", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: four # planned\n", `check: m.yaml:5:17: spec.tfReplicaSpecs.Worker.replicas is "four": want a whole number of replicas >= 0`},
		{"flow, a word", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: {replicas: four}\n", `check: m.yaml:4:24: spec.tfReplicaSpecs.Worker.replicas is "four": want a whole number of replicas >= 0`},
		{"block, a fraction", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2.5\n", `check: m.yaml:5:17: spec.tfReplicaSpecs.Worker.replicas is 2.5: want a whole number of replicas >= 0`},
	}
	for _, c := range cases {
		if mf, err := parseManifest("m.yaml", []byte(c.doc)); err == nil || err.Error() != c.want {
			t.Errorf("%s: %+v, %v; want %q", c.name, mf, err, c.want)
		}
	}
}

// With several roles in fault (a replicas not a whole number, a role that
// is not a mapping), the error names the first in the file, at its line
// and column: it named the first by sorted role names (PS before Worker),
// so a user fixing the file from the top was sent below.
func TestManifestFirstFaultInFileOrder(t *testing.T) {
	const head = "kind: TFJob\nspec:\n  tfReplicaSpecs:\n"
	cases := []manifestCase{
		{"two fractions", head + "    Worker:\n      replicas: 2.5\n    PS:\n      replicas: 1.5\n", 0, 0, "check: m.yaml:5:17: spec.tfReplicaSpecs.Worker.replicas is 2.5: want a whole number of replicas >= 0"},
		{"two words", head + "    Worker:\n      replicas: x\n    PS:\n      replicas: \"y\"\n", 0, 0, `check: m.yaml:5:17: spec.tfReplicaSpecs.Worker.replicas is "x": want a whole number of replicas >= 0`},
		{"the first in the file is PS", head + "    PS:\n      replicas: z\n    Worker:\n      replicas: 2.5\n", 0, 0, `check: m.yaml:5:17: spec.tfReplicaSpecs.PS.replicas is "z": want a whole number of replicas >= 0`},
		{"flow", "{kind: TFJob, spec: {tfReplicaSpecs: {Worker: {replicas: 2.5}, PS: {replicas: x}}}}\n", 0, 0, "check: m.yaml:1:58: spec.tfReplicaSpecs.Worker.replicas is 2.5: want a whole number of replicas >= 0"},
		{"JSON", "{\"kind\": \"TFJob\", \"spec\": {\"tfReplicaSpecs\": {\n  \"Worker\": {\"replicas\": \"x\"},\n  \"PS\": {\"replicas\": 0.5}}}}\n", 0, 0, `check: m.yaml:2:26: spec.tfReplicaSpecs.Worker.replicas is "x": want a whole number of replicas >= 0`},
		{"roles not mappings", head + "    Worker: 3\n    PS: [1]\n", 0, 0, "check: m.yaml:4:13: not a Kubeflow job manifest: spec.tfReplicaSpecs.Worker holds a number where a replica spec (a mapping with replicas and template) was expected"},
		// a role that is not a mapping above a replicas that is not a
		// number: the role (the replicas came first, whatever the order)
		{"a role, then a replicas", head + "    Worker: \"3\"\n    PS:\n      replicas: 1.5\n", 0, 0, "check: m.yaml:4:13: not a Kubeflow job manifest: spec.tfReplicaSpecs.Worker holds a string where a replica spec (a mapping with replicas and template) was expected"},
		{"a replicas, then a role", head + "    Worker:\n      replicas: 1.5\n    PS: true\n", 0, 0, "check: m.yaml:5:17: spec.tfReplicaSpecs.Worker.replicas is 1.5: want a whole number of replicas >= 0"},
		{"flow roles", "{kind: TFJob, spec: {tfReplicaSpecs: {Worker: 3, PS: [1]}}}\n", 0, 0, "check: m.yaml:1:47: not a Kubeflow job manifest: spec.tfReplicaSpecs.Worker holds a number where a replica spec (a mapping with replicas and template) was expected"},
	}
	checkManifestCases(t, cases)
}

// A replica count check refuses (negative, too large, a leader above 1)
// is told at the first in the file too: they came in a fixed order of
// roles (Chief/Master, then Worker, Chief and Master, then PS), so a PS
// at line 5 was told after a Worker at line 7.
func TestManifestFirstCountFaultInFileOrder(t *testing.T) {
	const tf, pt = "kind: TFJob\nspec:\n  tfReplicaSpecs:\n", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n"
	checkManifestCases(t, []manifestCase{
		// (it said "m.yaml:7:17: Worker.replicas = 100000000: too large")
		{"PS negative, then Worker too large", tf + "    PS:\n      replicas: -1\n    Worker:\n      replicas: 100000000\n", 0, 0, "check: m.yaml:5:17: PS.replicas = -1, want >= 0"},
		{"Worker too large, then PS negative", tf + "    Worker:\n      replicas: 100000000\n    PS:\n      replicas: -1\n", 0, 0, "check: m.yaml:5:17: Worker.replicas = 100000000: too large, want at most 1000000"},
		// (it said the Chief's, at line 7)
		{"Worker negative, then Chief 2", tf + "    Worker:\n      replicas: -3\n    Chief:\n      replicas: 2\n", 0, 0, "check: m.yaml:5:17: Worker.replicas = -3, want >= 0"},
		{"flow, PS then Master", tf + "    PS: {replicas: -2}\n    Master: {replicas: 3}\n    Worker: {replicas: 1}\n", 0, 0, "check: m.yaml:4:20: PS.replicas = -2, want >= 0"},
		// a role given twice below a bad count: the count
		{"PS negative, then Worker twice", tf + "    PS:\n      replicas: -1\n    Worker:\n      replicas: 2\n    worker:\n      replicas: 2\n", 0, 0, "check: m.yaml:5:17: PS.replicas = -1, want >= 0"},
		{"PyTorchJob Worker negative, then Master 2", pt + "    Worker:\n      replicas: -1\n    Master:\n      replicas: 2\n", 0, 0, "check: m.yaml:5:17: Worker.replicas = -1, want >= 0"},
		{"PyTorchJob Master 2, then Worker negative", pt + "    Master:\n      replicas: 2\n    Worker:\n      replicas: -1\n", 0, 0, "check: m.yaml:5:17: Master.replicas = 2, want exactly 1: Kubeflow's training operator refuses a PyTorchJob whose Master is not one replica (put the other replicas under Worker)"},
	})
}

// A field check reads that holds the wrong type is told at the first in
// the file too, beside a replicas that is not a whole number and the
// faults of the values read (nprocPerNode, a negative replicas): the
// decoder named the first in the sorted keys of the JSON form (kind
// before spec, maxReplicas before minReplicas), and a bad replicas came
// before any other.
func TestManifestFirstTypeFaultInFileOrder(t *testing.T) {
	const pt = "kind: PyTorchJob\nspec:\n"
	const roles = "  pytorchReplicaSpecs:\n    Worker:\n      replicas: %s\n"
	elastic := "  elasticPolicy:\n    minReplicas: x\n"
	const roleMapping = "a mapping of replica roles (Worker, PS, ...) to their specs"
	checkManifestCases(t, []manifestCase{
		// (it said "m.yaml:2:7: ... kind holds a list")
		{"spec, then kind", "spec: 5\nkind: [TFJob]\n", 0, 0, "check: m.yaml:1:7: not a Kubeflow job manifest: spec holds a number where a mapping was expected"},
		{"kind, then apiVersion", "kind: [TFJob]\napiVersion: [v1]\n", 0, 0, "check: m.yaml:1:7: not a Kubeflow job manifest: kind holds a list where a string was expected"},
		// (it said the Worker's replicas, at line 7)
		{"elasticPolicy, then replicas", pt + elastic + fmt.Sprintf(roles, "z"), 0, 0, "check: m.yaml:4:18: not a Kubeflow job manifest: spec.elasticPolicy.minReplicas holds a string where a whole number was expected"},
		{"replicas, then elasticPolicy", pt + fmt.Sprintf(roles, "z") + elastic, 0, 0, `check: m.yaml:5:17: spec.pytorchReplicaSpecs.Worker.replicas is "z": want a whole number of replicas >= 0`},
		// (it said maxReplicas, at line 5)
		{"minReplicas, then maxReplicas", pt + "  elasticPolicy:\n    minReplicas: [1]\n    maxReplicas: 2.5\n" + fmt.Sprintf(roles, "1"), 0, 0, "check: m.yaml:4:18: not a Kubeflow job manifest: spec.elasticPolicy.minReplicas holds a list where a whole number was expected"},
		// (as the decoder said it)
		{"maxReplicas beyond an int", pt + "  elasticPolicy:\n    maxReplicas: 1e30\n" + fmt.Sprintf(roles, "1"), 0, 0, "check: m.yaml:4:18: not a Kubeflow job manifest: spec.elasticPolicy.maxReplicas holds a number 1e+30 where a whole number was expected"},
		// a fault of a value read above a type fault (it said the
		// replicas, at line 6), and a negative replicas above a fault
		// of either kind (it said the elasticPolicy, at line 7; the
		// nprocPerNode came after the replicas already)
		{"nprocPerNode, then replicas", pt + "  nprocPerNode: \"0\"\n" + fmt.Sprintf(roles, "z"), 0, 0, `check: m.yaml:3:17: nprocPerNode "0": want a whole number of processes per replica from 1 to 1000000, or auto, cpu or gpu`},
		{"replicas negative, then nprocPerNode", pt + fmt.Sprintf(roles, "-1") + "  nprocPerNode: \"0\"\n", 0, 0, "check: m.yaml:5:17: Worker.replicas = -1, want >= 0"},
		{"replicas negative, then elasticPolicy", pt + fmt.Sprintf(roles, "-1") + elastic, 0, 0, "check: m.yaml:5:17: Worker.replicas = -1, want >= 0"},
		{"elasticPolicy bounds, then replicas", pt + "  elasticPolicy:\n    minReplicas: 4\n    maxReplicas: 2\n" + fmt.Sprintf(roles, "-1"), 0, 0, "check: m.yaml:4:18: elasticPolicy minReplicas 4 is above maxReplicas 2: want minReplicas <= maxReplicas"},
		// flow style, at its column (it said apiVersion, without one)
		{"flow", "{spec: {tfReplicaSpecs: 5}, kind: TFJob, apiVersion: 3}\n", 0, 0, "check: m.yaml:1:25: not a Kubeflow job manifest: spec.tfReplicaSpecs holds a number where " + roleMapping + " was expected"},
	})
}

// The YAML library names a parser problem's line counted from 0, one
// above the line in fault, and none on line 1 (a scanner problem's line is
// right): check names the line in fault, at column 1 (the library names no
// column; every other manifest error has one).
func TestManifestYAMLParserErrorLine(t *testing.T) {
	const bad = ": not a Kubeflow job manifest: invalid YAML: "
	checkManifestCases(t, []manifestCase{
		// (it said line 1)
		{"a tag", "kind: TFJob\nspec: !e!int 4\n", 0, 0, "check: m.yaml:2:1" + bad + "found undefined tag handle"},
		// (it said no line)
		{"a tag on line 1", "kind: !e!int 4\n", 0, 0, "check: m.yaml:1:1" + bad + "found undefined tag handle"},
		// (it said line 3)
		{"a key in a list", "kind: TFJob\nspec:\n  - 1\n  x: 2\n", 0, 0, "check: m.yaml:4:1" + bad + "did not find expected '-' indicator"},
		// the end of the stream, past the final line break: the last line
		{"an unclosed list", "kind: TFJob\nspec: [\n", 0, 0, "check: m.yaml:2:1" + bad + "did not find expected node content"},
		// a scanner's problem, as the library says it
		{"a tab", "kind: TFJob\n\tspec: 1\n", 0, 0, "check: m.yaml:2:1" + bad + "found a tab character that violates indentation"},
	})
}

// Every YAML problem names its line: the library names none for a scanner
// problem on line 1, a byte it cannot read, or an alias to no anchor. A
// ':' where a block mapping allows none is named at its column (the first
// ':' of the line that, read up to it, draws the problem).
func TestManifestYAMLErrorAlwaysLine(t *testing.T) {
	const bad = ": not a Kubeflow job manifest: invalid YAML: "
	const values = "mapping values are not allowed in this context"
	const twice = values + ": expected one key: value on a line (quote a value that holds \": \")"
	checkManifestCases(t, []manifestCase{
		// (they said no line)
		{"a: b: c", "a: b: c\n", 0, 0, "check: m.yaml:1:5" + bad + twice},
		{"a quoted key", "\"a\": b: c\nkind: TFJob\n", 0, 0, "check: m.yaml:1:7" + bad + twice},
		{"a ': ' in quotes", "x: \"a: b\": c\n", 0, 0, "check: m.yaml:1:10" + bad + twice},
		{"a token", "@kind: TFJob\n", 0, 0, "check: m.yaml:1:1" + bad + "found character that cannot start any token"},
		{"an escape", "kind: \"TF\\qJob\"\n", 0, 0, "check: m.yaml:1:1" + bad + "found unknown escape character"},
		{"a control character", "kind: TFJob\nspec:\n  \x01x: 1\n", 0, 0, "check: m.yaml:3:3" + bad + "control characters are not allowed"},
		{"not UTF-8", "kind: TFJob\nspec:\n  x: \xff\n", 0, 0, "check: m.yaml:3:6" + bad + "invalid leading UTF-8 octet"},
		{"an unknown anchor", "kind: TFJob\nspec:\n  tfReplicaSpecs: *specs\n", 0, 0, "check: m.yaml:3:19" + bad + "unknown anchor 'specs' referenced"},
		// (it said 2:12, in a quoted string; a comment too could be taken)
		{"an alias's name quoted", "kind: TFJob\nx: \"see 'a *specs' below\"\ny: 'a *specs'\n# *specs\nspec: {tfReplicaSpecs: *specs}\n", 0, 0, "check: m.yaml:5:24" + bad + "unknown anchor 'specs' referenced"},
		{"an anchor in itself", "kind: TFJob\nspec: &s\n  x: [*s]\n", 0, 0, "check: m.yaml:3:7" + bad + "anchor 's' value contains itself"},
		{"a merge of a number", "kind: TFJob\nspec:\n  <<: 1\n", 0, 0, "check: m.yaml:3:3" + bad + "map merge requires map or sequence of maps as the value"},
		{"binary", "kind: TFJob\nspec:\n  x: !!binary '@@'\n", 0, 0, "check: m.yaml:3:6" + bad + "!!binary value contains invalid base64 data"},
		// (line 2: it said the line after the last line break)
		{"an unclosed quote", "kind: 'TFJob\n", 0, 0, "check: m.yaml:1:1" + bad + "found unexpected end of stream"},
		// on a later line the line was right: now the column too
		{"on line 5", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2: 3\n", 0, 0, "check: m.yaml:5:18" + bad + twice},
		// an indentation fault: the ':' at its column, without the hint
		{"indented", "kind: TFJob\nspec: x\n  tfReplicaSpecs: 1\n", 0, 0, "check: m.yaml:3:17" + bad + values},
		// a job after a Service: its line in the file
		{"second document", "kind: Service\n---\nkind: TFJob\nspec: a: b\n", 0, 0, "check: m.yaml:4:8" + bad + twice},
	})
}

// In flow style a role given twice, a TFJob's Chief beside a Master, and
// the nprocPerNode and elasticPolicy faults had no place (found in block
// style alone), and were told after the faults that had one, below them
// in the file: each is told at its place, the first in the file first. A
// role given twice and a Chief beside a Master are told at the key, as in
// block style (they were told at the role's value, its "{").
func TestManifestFlowFaultsPlaced(t *testing.T) {
	pt := func(spec string) string { return "kind: PyTorchJob\nspec: {" + spec + "}\n" }
	checkManifestCases(t, []manifestCase{
		{"role twice", "kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {replicas: 2}, worker: {replicas: 1}}}\n", 0, 0,
			`check: m.yaml:2:48: replica role Worker given twice, as "Worker" and "worker": Kubeflow reads role names in any case; want it once`},
		{"chief and master", "kind: TFJob\nspec: {tfReplicaSpecs: {Chief: {}, Master: {}, Worker: {}}}\n", 0, 0,
			"check: m.yaml:2:36: TFJob with both Chief and Master replicas: Kubeflow's training operator refuses more than one chief/master role (want one of them)"},
		{"nprocPerNode", pt(`nprocPerNode: "0", pytorchReplicaSpecs: {Worker: {replicas: 2}}`), 0, 0,
			`check: m.yaml:2:22: nprocPerNode "0": want a whole number of processes per replica from 1 to 1000000, or auto, cpu or gpu`},
		{"nprocPerNode a number", pt(`nprocPerNode: 4, pytorchReplicaSpecs: {Worker: {replicas: 2}}`), 0, 0,
			`check: m.yaml:2:22: nprocPerNode is 4, not a string: Kubeflow's PyTorchJob takes a quoted number ("4"), auto, cpu or gpu`},
		{"elastic nProcPerNode", pt(`elasticPolicy: {nProcPerNode: 0}, pytorchReplicaSpecs: {Worker: {replicas: 2}}`), 0, 0,
			"check: m.yaml:2:38: elasticPolicy.nProcPerNode = 0, want a whole number of processes per replica from 1 to 1000000"},
		{"both nproc keys", pt(`nprocPerNode: "2", elasticPolicy: {nProcPerNode: 2}, pytorchReplicaSpecs: {Worker: {}}`), 0, 0,
			"check: m.yaml:2:57: PyTorchJob with both spec.nprocPerNode and spec.elasticPolicy.nProcPerNode: Kubeflow's training operator refuses the deprecated elasticPolicy.nProcPerNode beside nprocPerNode (want nprocPerNode alone)"},
		{"elastic bounds", pt(`elasticPolicy: {minReplicas: 3, maxReplicas: 2}, pytorchReplicaSpecs: {Worker: {replicas: 2}}`), 0, 0,
			"check: m.yaml:2:37: elasticPolicy minReplicas 3 is above maxReplicas 2: want minReplicas <= maxReplicas"},
		// above a block-style fault: told first (the Worker's was)
		{"flow above block", "kind: PyTorchJob\nspec:\n  elasticPolicy: {minReplicas: 3, maxReplicas: 2}\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: -1\n", 0, 0,
			"check: m.yaml:3:32: elasticPolicy minReplicas 3 is above maxReplicas 2: want minReplicas <= maxReplicas"},
		{"twice above block", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs: {Worker: {}, worker: {}}\n  nprocPerNode: \"0\"\n", 0, 0,
			`check: m.yaml:3:37: replica role Worker given twice, as "Worker" and "worker": Kubeflow reads role names in any case; want it once`},
		// block style, a role's value in flow style: at the key too
		{"twice, block keys", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: {replicas: 2}\n    worker: {replicas: 1}\n", 0, 0,
			`check: m.yaml:5:5: replica role Worker given twice, as "Worker" and "worker": Kubeflow reads role names in any case; want it once`},
		{"chief and master, block keys", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Chief: {}\n    Master: {replicas: 1}\n    Worker: {}\n", 0, 0,
			"check: m.yaml:5:5: TFJob with both Chief and Master replicas: Kubeflow's training operator refuses more than one chief/master role (want one of them)"},
	})
}

// Replicas behind an anchor or a tag (a flow mapping's "&w {", "!!map {")
// or under an explicit "? replicas" key are placed by the structure, as
// any other: they were found by their value after the first mention of
// the role's name anywhere in the text (a comment, a label), which could
// be another place: a bad count (replicasAt), a value that is no whole
// number (badReplicas), and an accepted job's worker count (WorkersAt,
// which was the role's key).
func TestManifestReplicasPlacedByValue(t *testing.T) {
	tf := "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: %s\n"
	checkManifestCases(t, []manifestCase{
		{"anchor, negative", fmt.Sprintf(tf, "&w {replicas: -3}"), 0, 0, "check: m.yaml:4:27: Worker.replicas = -3, want >= 0"},
		{"tag, too large", fmt.Sprintf(tf, "!!map {replicas: 2000000}"), 0, 0, "check: m.yaml:4:30: Worker.replicas = 2000000: too large, want at most 1000000"},
		{"anchor, a word", fmt.Sprintf(tf, "&w {replicas: 'x'}"), 0, 0, `check: m.yaml:4:27: spec.tfReplicaSpecs.Worker.replicas is "x": want a whole number of replicas >= 0`},
		{"tag and anchor", fmt.Sprintf(tf, "!!map &w {replicas: -3}"), 0, 0, "check: m.yaml:4:33: Worker.replicas = -3, want >= 0"},
		{"explicit key", fmt.Sprintf(tf, "\n      ? replicas\n      : -3"), 0, 0, "check: m.yaml:6:9: Worker.replicas = -3, want >= 0"},
		{"explicit key, flow", fmt.Sprintf(tf, "{? replicas : -3}"), 0, 0, "check: m.yaml:4:27: Worker.replicas = -3, want >= 0"},
		// (it said 1:20, the comment's "replicas: 4")
		{"the role in a comment", "# Worker replicas: 4 for a small run\n" + fmt.Sprintf(tf, "&w {replicas: 99999999999999999999}"), 0, 0, "check: m.yaml:5:27: spec.tfReplicaSpecs.Worker.replicas is 100000000000000000000: too large, want at most 1000000"},
		// (it said the Worker's -3 at the PS's, after the label)
		{"the role in a label", "kind: TFJob\nmetadata:\n  labels: {role: Worker}\nspec:\n  tfReplicaSpecs:\n    PS: {replicas: -3}\n    Worker: &w {replicas: -3}\n", 0, 0, "check: m.yaml:6:20: PS.replicas = -3, want >= 0"},
	})
	if mf, err := parseManifest("m.yaml", []byte(fmt.Sprintf(tf, "&w {replicas: 3}"))); err != nil || mf.Workers != 3 || mf.WorkersAt != "m.yaml:4:27" {
		t.Errorf("anchored Worker: %+v, %v; want 3 workers at m.yaml:4:27", mf, err)
	}
}

// A job without workers was told at the file alone: it is told at its
// replica specs, else at its spec, else at the document's start.
func TestManifestNoWorkersPlaced(t *testing.T) {
	nw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "manifests", "no-workers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const tf, pt = "TFJob without worker replicas (expected spec.tfReplicaSpecs.Worker.replicas >= 1)", "PyTorchJob without worker replicas (expected spec.pytorchReplicaSpecs.Worker or Master replicas)"
	checkManifestCases(t, []manifestCase{
		{"only PS", string(nw), 0, 0, "check: m.yaml:7:3: " + tf},
		{"Worker replicas 0", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 0\n", 0, 0, "check: m.yaml:3:3: " + tf},
		{"flow, in any case", "kind: PyTorchJob\nspec: {PyTorchReplicaSpecs: {}}\n", 0, 0, "check: m.yaml:2:29: " + pt},
		{"no replica specs", "kind: PyTorchJob\nspec:\n  nprocPerNode: \"2\"\n", 0, 0, "check: m.yaml:2:1: " + pt},
		{"no spec", "# a job\n\n  kind: TFJob\n", 0, 0, "check: m.yaml:3:3: " + tf},
	})
}

// The YAML 1.1 library reads y, yes, on, n, no and off (in any of their
// cases) as booleans: replicas: y was told as "is true", which the file
// does not say. The value is told as written, and what was expected.
func TestManifestYAMLBooleanWords(t *testing.T) {
	tf := "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: %s\n"
	pt := "kind: PyTorchJob\nspec:\n  %s\n  pytorchReplicaSpecs:\n    Worker: {replicas: 2}\n"
	checkManifestCases(t, []manifestCase{
		{"y", fmt.Sprintf(tf, "y"), 0, 0, "check: m.yaml:5:17: spec.tfReplicaSpecs.Worker.replicas is y (read as a YAML boolean): want a whole number of replicas >= 0"},
		{"yes, a comment", fmt.Sprintf(tf, "yes  # all"), 0, 0, "check: m.yaml:5:17: spec.tfReplicaSpecs.Worker.replicas is yes (read as a YAML boolean): want a whole number of replicas >= 0"},
		{"Off in flow", "kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {replicas: Off}}}\n", 0, 0, "check: m.yaml:2:44: spec.tfReplicaSpecs.Worker.replicas is Off (read as a YAML boolean): want a whole number of replicas >= 0"},
		// true is as written
		{"true", fmt.Sprintf(tf, "true"), 0, 0, "check: m.yaml:5:17: spec.tfReplicaSpecs.Worker.replicas is true: want a whole number of replicas >= 0"},
		{"nprocPerNode", fmt.Sprintf(pt, "nprocPerNode: on"), 0, 0, `check: m.yaml:3:17: nprocPerNode is on (read as a YAML boolean), not a string: Kubeflow's PyTorchJob takes a quoted number ("4"), auto, cpu or gpu`},
		{"minReplicas", fmt.Sprintf(pt, "elasticPolicy: {minReplicas: N}"), 0, 0, "check: m.yaml:3:32: not a Kubeflow job manifest: spec.elasticPolicy.minReplicas holds N (read as a YAML boolean) where a whole number was expected"},
		{"kind", "kind: no\n", 0, 0, "check: m.yaml:1:7: not a Kubeflow job manifest: kind holds no (read as a YAML boolean) where a string was expected"},
		// a role too (it said "a true or false")
		{"role", "kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: yes\n", 0, 0, "check: m.yaml:4:13: not a Kubeflow job manifest: spec.tfReplicaSpecs.Worker holds yes (read as a YAML boolean) where a replica spec (a mapping with replicas and template) was expected"},
	})
}

// An elasticPolicy's minReplicas and maxReplicas were not checked: a
// negative or too large bound passed (and was told as the count's
// range). They are bounded as the replicas are, and told in file order
// with the other faults.
func TestManifestElasticBounds(t *testing.T) {
	pt := "kind: PyTorchJob\nspec:\n  elasticPolicy:\n%s  pytorchReplicaSpecs:\n    Worker:\n      replicas: %s\n"
	checkManifestCases(t, []manifestCase{
		{"min negative", fmt.Sprintf(pt, "    minReplicas: -1\n    maxReplicas: 4\n", "2"), 0, 0, "check: m.yaml:4:18: elasticPolicy.minReplicas = -1, want a whole number of replicas >= 1"},
		{"max negative", fmt.Sprintf(pt, "    maxReplicas: -4\n", "2"), 0, 0, "check: m.yaml:4:18: elasticPolicy.maxReplicas = -4, want a whole number of replicas >= 1"},
		{"max too large", fmt.Sprintf(pt, "    minReplicas: 1\n    maxReplicas: 1000001\n", "2"), 0, 0, "check: m.yaml:5:18: elasticPolicy.maxReplicas = 1000001: too large, want at most 1000000"},
		{"min too large, flow", "kind: PyTorchJob\nspec: {elasticPolicy: {minReplicas: 2000000}, pytorchReplicaSpecs: {Worker: {}}}\n", 0, 0, "check: m.yaml:2:37: elasticPolicy.minReplicas = 2000000: too large, want at most 1000000"},
		// a bound out of range is told, not "above maxReplicas"
		{"min above a negative max", fmt.Sprintf(pt, "    minReplicas: 2\n    maxReplicas: -1\n", "2"), 0, 0, "check: m.yaml:5:18: elasticPolicy.maxReplicas = -1, want a whole number of replicas >= 1"},
		// in file order: above the replicas' fault, and below it
		{"above replicas", fmt.Sprintf(pt, "    maxReplicas: -1\n", "-2"), 0, 0, "check: m.yaml:4:18: elasticPolicy.maxReplicas = -1, want a whole number of replicas >= 1"},
		{"below replicas", "kind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: -2\n  elasticPolicy:\n    maxReplicas: -1\n", 0, 0, "check: m.yaml:5:17: Worker.replicas = -2, want >= 0"},
		{"above nprocPerNode", fmt.Sprintf(pt, "    minReplicas: -1\n", "2") + "  nprocPerNode: \"0\"\n", 0, 0, "check: m.yaml:4:18: elasticPolicy.minReplicas = -1, want a whole number of replicas >= 1"},
		// in range: as before
		{"in range", fmt.Sprintf(pt, "    minReplicas: 1\n    maxReplicas: 1000000\n", "2"), 2, 0, ""},
		// 0: torchrun refuses it, and the job never starts (it was
		// judged as a bound of "no verdict")
		{"min zero", fmt.Sprintf(pt, "    minReplicas: 0\n    maxReplicas: 4\n", "2"), 0, 0, "check: m.yaml:4:18: elasticPolicy.minReplicas = 0, want a whole number of replicas >= 1: torchrun's rendezvous refuses fewer than one node (\"The minimum number of rendezvous nodes (0) must be greater than zero\"), so the job would not start"},
		{"max zero alone, flow", "kind: PyTorchJob\nspec: {elasticPolicy: {maxReplicas: 0}, pytorchReplicaSpecs: {Worker: {}}}\n", 0, 0, "check: m.yaml:2:37: elasticPolicy.maxReplicas = 0, want a whole number of replicas >= 1: torchrun's rendezvous refuses fewer than one node (\"The minimum number of rendezvous nodes (0) must be greater than zero\"), so the job would not start"},
	})
}

// A TFJob with a PyTorchJob's nprocPerNode, elasticPolicy or
// pytorchReplicaSpecs (Kubeflow's TFJobSpec has none: runPolicy,
// successPolicy, tfReplicaSpecs, enableDynamicWorker) was judged without a
// word: each replica is one worker, and a warning at the field says it is
// not used. Its contents are not checked (a malformed elasticPolicy failed
// check), nor those of a TFJob's field in a PyTorchJob.
func TestManifestTFJobPyTorchFields(t *testing.T) {
	job := "kind: TFJob\nspec:\n%s  tfReplicaSpecs:\n    Worker:\n      replicas: 3\n"
	cases := []struct{ name, spec, want string }{
		{"nprocPerNode", "  nprocPerNode: \"4\"\n", `m.yaml:3:17: spec.nprocPerNode: a TFJob has no such field (it is a PyTorchJob's; a TFJob's spec holds runPolicy, successPolicy, tfReplicaSpecs and enableDynamicWorker): not used, each TFJob replica is one worker; the API server drops or refuses a field it does not know`},
		{"elasticPolicy", "  elasticPolicy:\n    nProcPerNode: 4\n", `m.yaml:3:3: spec.elasticPolicy: a TFJob has no such field`},
		// (it had no place in flow style)
		{"flow", "", `m.yaml:1:36: spec.nprocPerNode: a TFJob has no such field`},
		// its contents are not read: a malformed elasticPolicy failed
		// check ("spec.elasticPolicy.maxReplicas holds a string where a
		// whole number was expected")
		{"elasticPolicy malformed", "  elasticPolicy:\n    maxReplicas: six\n    minReplicas: [1]\n", `m.yaml:3:3: spec.elasticPolicy: a TFJob has no such field (it is a PyTorchJob's; a TFJob's spec holds runPolicy, successPolicy, tfReplicaSpecs and enableDynamicWorker): not used, each TFJob replica is one worker; the API server drops or refuses a field it does not know`},
		{"elasticPolicy a number", "  elasticPolicy: 5\n", `m.yaml:3:18: spec.elasticPolicy: a TFJob has no such field`},
		{"pytorchReplicaSpecs", "  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2.5\n", `m.yaml:3:3: spec.pytorchReplicaSpecs: a TFJob has no such field (it is a PyTorchJob's; a TFJob's spec holds runPolicy, successPolicy, tfReplicaSpecs and enableDynamicWorker): not used, check counts the roles of tfReplicaSpecs;`},
	}
	for _, c := range cases {
		doc := fmt.Sprintf(job, c.spec)
		if c.name == "flow" {
			doc = `{kind: TFJob, spec: {nprocPerNode: auto, tfReplicaSpecs: {Worker: {replicas: 3}}}}`
		}
		mf, err := parseManifest("m.yaml", []byte(doc))
		if err != nil || mf.Workers != 3 || len(mf.Warnings) != 1 || !strings.HasPrefix(mf.Warnings[0], c.want) || len(mf.CountWarnings) != 0 {
			t.Errorf("%s: %+v, %v; want 3 workers and the warning %q", c.name, mf, err, c.want)
		}
	}
	// and a TFJob's fields in a PyTorchJob, its tfReplicaSpecs malformed
	pt := "kind: PyTorchJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: x\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 3\n"
	want := `m.yaml:3:3: spec.tfReplicaSpecs: a PyTorchJob has no such field (it is a TFJob's; a PyTorchJob's spec holds runPolicy, elasticPolicy, pytorchReplicaSpecs and nprocPerNode): not used, check counts the roles of pytorchReplicaSpecs; the API server drops or refuses a field it does not know`
	if mf, err := parseManifest("m.yaml", []byte(pt)); err != nil || mf.Workers != 3 || len(mf.Warnings) != 1 || mf.Warnings[0] != want {
		t.Errorf("PyTorchJob with tfReplicaSpecs: %+v, %v; want 3 workers and the warning %q", mf, err, want)
	}
	// several such fields are warned of in file order (they came in the
	// keys' sorted order: successPolicy at line 4 before tfReplicaSpecs
	// at line 3)
	pt2 := "kind: PyTorchJob\nspec:\n  tfReplicaSpecs: {}\n  successPolicy: AllWorkers\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 3\n"
	if mf, err := parseManifest("m.yaml", []byte(pt2)); err != nil || len(mf.Warnings) != 2 || !strings.HasPrefix(mf.Warnings[0], "m.yaml:3:") || !strings.HasPrefix(mf.Warnings[1], "m.yaml:4:") {
		t.Errorf("PyTorchJob with tfReplicaSpecs and successPolicy: %q, %v; want the warnings at lines 3 then 4", mf.Warnings, err)
	}
}

// A List, as "kubectl get tfjobs,services -o yaml" prints one (apiVersion
// v1, kind List, items), was refused as kind "List": check judges the one
// job among its items, as among a file's YAML documents, with the job's
// errors at their lines and columns in the file; no job or two jobs name
// the items' kinds and positions. Block style, flow style and JSON
// (kubectl -o json).
func TestManifestList(t *testing.T) {
	svc := "- apiVersion: v1\n  kind: Service\n  metadata:\n    name: ps\n  spec:\n    ports:\n    - port: 2222\n"
	tf := "- apiVersion: kubeflow.org/v1\n  kind: TFJob\n  spec:\n    tfReplicaSpecs:\n      PS:\n        replicas: 2\n        template:\n          spec:\n            containers:\n            - name: tensorflow\n      Worker:\n        replicas: 6\n"
	list := func(items string) string {
		return "apiVersion: v1\nitems:\n" + items + "kind: List\nmetadata:\n  resourceVersion: \"\"\n"
	}
	json := `{
    "apiVersion": "v1",
    "items": [
        {"apiVersion": "v1", "kind": "Service", "spec": {"ports": [{"port": 2222}]}},
        {
            "kind": "TFJob",
            "spec": {"tfReplicaSpecs": {"PS": {"replicas": 2}, "Worker": {"replicas": 6}}}
        }
    ],
    "kind": "List"
}
`
	cases := []manifestCase{
		{"service, job", list(svc + tf), 6, 2, ""},
		{"job alone, indented items", "apiVersion: v1\nkind: List\nitems:\n  - kind: TFJob\n    spec:\n      tfReplicaSpecs:\n        Worker:\n          replicas: 3\n", 3, 0, ""},
		{"CRLF, a comment", strings.ReplaceAll("# kubectl get\n"+list(svc+"\n# the job\n"+tf), "\n", "\r\n"), 6, 2, ""},
		{"a TFJobList", strings.Replace(list(tf), "kind: List", "kind: TFJobList", 1), 6, 2, ""},
		{"flow", "kind: List\nitems: [{kind: Service}, {kind: TFJob, spec: {tfReplicaSpecs: {Worker: {replicas: 3}}}}]\n", 3, 0, ""},
		{"JSON", json, 6, 2, ""},
		{"a List among documents", "kind: ConfigMap\n---\n" + list(tf), 6, 2, ""},
		// the job's fault at its line and column in the file
		{"bad job", list(svc + strings.Replace(tf, "replicas: 6", "replicas: six", 1)), 0, 0, `check: m.yaml:21:19: spec.tfReplicaSpecs.Worker.replicas is "six": want a whole number of replicas >= 0`},
		{"negative", list(svc + strings.Replace(tf, "replicas: 6", "replicas: -6", 1)), 0, 0, "check: m.yaml:21:19: Worker.replicas = -6, want >= 0"},
		{"JSON, bad job", strings.Replace(json, `"replicas": 6`, `"replicas": "6"`, 1), 0, 0, `check: m.yaml:7:87: spec.tfReplicaSpecs.Worker.replicas is "6": want a whole number of replicas >= 0, not a string (write replicas: 6, without quotes)`},
		{"flow, bad job", "kind: List\nitems: [{kind: Service}, {kind: TFJob, spec: {tfReplicaSpecs: {Worker: {replicas: -3}}}}]\n", 0, 0, "check: m.yaml:2:83: Worker.replicas = -3, want >= 0"},
		{"no job", list(svc + strings.Replace(tf, "kind: TFJob", "kind: ConfigMap", 1)), 0, 0, "check: m.yaml: none of the 2 items of its List (kind at 22:7) is a TFJob or PyTorchJob (Service at 4:9, ConfigMap at 11:9): expected one Kubeflow job"},
		{"two jobs", list(tf + strings.Replace(svc, "kind: Service", "kind: PyTorchJob", 1)), 0, 0, "check: m.yaml: its List (kind at 22:7) holds 2 Kubeflow jobs (TFJob at 4:9, PyTorchJob at 16:9): give a file with one (check judges one job)"},
		{"no items", "apiVersion: v1\nkind: List\nitems: []\n", 0, 0, "check: m.yaml:2:7: a List of no items: expected a Kubeflow TFJob or PyTorchJob among them"},
		{"items absent", "apiVersion: v1\nkind: List\n", 0, 0, "check: m.yaml:2:7: a List of no items: expected a Kubeflow TFJob or PyTorchJob among them"},
		{"items a mapping", "kind: List\nitems:\n  kind: TFJob\n", 0, 0, "check: m.yaml:2:1: not a Kubeflow job manifest: the items of a List hold a mapping where a list was expected"},
		{"an alias", "kind: List\nx: &j {kind: TFJob}\nitems: [*j]\n", 0, 0, "check: m.yaml:3:9: a List item that refers to an anchor outside it (unknown anchor 'j' referenced): check reads each item alone; give the job alone (kubectl get tfjob NAME -o yaml)"},
	}
	checkManifestCases(t, cases)
}

// manifestCase is a manifest text and what parseManifest makes of it.
type manifestCase struct {
	name, doc   string
	workers, ps int    // 0 workers: an error
	err         string // the whole error
}

// checkManifestCases parses each case's doc as m.yaml and checks its
// counts, or its whole error.
func checkManifestCases(t *testing.T, cases []manifestCase) {
	t.Helper()
	for _, c := range cases {
		mf, err := parseManifest("m.yaml", []byte(c.doc))
		if c.workers == 0 {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: %+v, %v; want the error %q", c.name, mf, err, c.err)
			}
			continue
		}
		if err != nil || mf.Workers != c.workers || mf.PS != c.ps {
			t.Errorf("%s: %d workers, %d ps, %v; want %d and %d", c.name, mf.Workers, mf.PS, err, c.workers, c.ps)
		}
	}
}

// FuzzReadManifest: every error of parseManifest names the file first
// ("check: m.yaml"), and the place it names after it is in the input: a
// line from 1 to the last line with a byte in it (the number of line
// breaks, one more for a final line without one; the YAML library names
// the end of the stream, where an unclosed quote or "[" is told, on the
// line after a final line break, and yamlError names the last line), a
// column from 1, the same place a fault carries; an accepted manifest has
// a worker and names where its count is in the same bounds.
func FuzzReadManifest(f *testing.F) {
	for _, n := range []string{"tfjob.yaml", "pytorchjob.yaml", "no-workers.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "manifests", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"? a\n? a\n", "a: b: c\n", "kind: 'TFJob\n", "kind: TFJob\nspec:\n  \x01x: \xff\n", "a: [\n\r",
		"kind: TFJob\nspec: &s\n  tfReplicaSpecs: [*s, *t]\n  x: !!binary '@@'\n",
		"%YAML 1.2\n---\nkind: PyTorchJob\nspec:\n  nprocPerNode: auto\n  pytorchReplicaSpecs:\n    Worker: {replicas: 2}\n",
		"kind: List\nitems: [{kind: Service}, {kind: TFJob, spec: {tfReplicaSpecs: {Worker: {replicas: 3}}}}]\n",
		"kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {replicas: 2}, worker: {replicas: y}, Chief: {}, Master: {}}}\n",
		"kind: PyTorchJob\nspec: {nprocPerNode: on, elasticPolicy: {minReplicas: -1, maxReplicas: 2000000, nProcPerNode: 0}, pytorchReplicaSpecs: {Worker: &w {replicas: Off}}}\n",
		"kind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker: {}\n",
		"kind: Service\n---\nkind: TFJob\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n---\n",
		"kind: PyTorchJob\nspec:\n  nprocPerNode: \"4\"\n  elasticPolicy: {minReplicas: 1, maxReplicas: 4}\n  pytorchReplicaSpecs:\n    Worker: {replicas: 2}\n",
		"apiVersion: v1\nitems:\n- kind: Service\n  spec:\n    ports:\n    - port: 1\n- kind: TFJob\n  spec:\n    tfReplicaSpecs:\n      Worker:\n        replicas: 2\nkind: List\n",
		`{"kind": "List", "items": [{"kind": "PyTorchJob", "spec": {"pytorchReplicaSpecs": {"Worker": {"replicas": "2"}}}}]}`,
		"kind: TFJob\nspec:\n  x: \"a: b\": c\n",
		"kind: TFJob\nspec: {tfReplicaSpecs: {Worker: {[r]: 2, replicas: 1, Replicas: 2}}}\n? - a\n: x\n",
		"kind: TFJob\nspec:\n  ?\n  : x\n  null: y\n  &a {b: 1} : c\n",
		"kind: PyTorchJob\nspec: {nprocPerNode: on, elasticPolicy: {minReplicas: -1, maxReplicas: 2000000, nProcPerNode: 0}, pytorchReplicaSpecs: {Worker: {replicas: Off}}}\n",
		"kind: TFJob\nmetadata:\n  labels: {x: .inf}\nspec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: .NaN\n      restartPolicy}: 1\n      ?x: 2\n",
	} {
		f.Add([]byte(s))
	}
	place := regexp.MustCompile(`^check: m\.yaml(?::(\d+):(\d+))?: `)
	// the errors that name no place in the input, as they should: a file
	// with no document in it has no place to name (every other error was
	// allowed to go without a line and column, and F1's .nan and F1b's
	// "restartPolicy}" key went so unnoticed)
	unplaced := []string{
		"check: m.yaml: no YAML document (",
		"check: m.yaml: UTF-16 (by its byte order mark) of an odd number of bytes",
		// several documents or List items: the message names each one's place
		"check: m.yaml: none of its ", "check: m.yaml: none of the ",
		"check: m.yaml: its List (kind at ", "check: m.yaml: holds ",
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text, err := manifestText("m.yaml", b) // (UTF-16 decoded)
		if err != nil {
			text = b
		}
		lines := bytes.Count(text, []byte("\n"))
		if !bytes.HasSuffix(text, []byte("\n")) {
			lines++
		}
		inBounds := func(what, msg string) (line, col int) {
			m := place.FindStringSubmatch(msg)
			if m == nil {
				t.Fatalf("%s %q does not start with the file and a place", what, msg)
			}
			if m[1] == "" && what == "error" && !slices.ContainsFunc(unplaced, func(u string) bool { return strings.HasPrefix(msg, u) }) {
				t.Fatalf("%s %q names no line and column", what, msg)
			}
			line, _ = strconv.Atoi(m[1])
			col, _ = strconv.Atoi(m[2])
			if m[1] != "" && (line < 1 || line > lines || col < 1) {
				t.Fatalf("%s %q: line %s, column %s outside the input of %d lines", what, msg, m[1], m[2], lines)
			}
			return line, col
		}
		m, err := parseManifest("m.yaml", b)
		if err == nil {
			if m.Workers < 1 {
				t.Errorf("accepted a manifest with %d workers", m.Workers)
			}
			inBounds("the workers' place", "check: "+m.WorkersAt+": ")
			return
		}
		line, col := inBounds("error", err.Error())
		var ft *fault
		if errors.As(err, &ft) && (ft.at.line != line || ft.at.line > 0 && ft.at.col != col) {
			t.Fatalf("error %q: its fault is at %v", err, ft.at)
		}
	})
}

// Two single quotes are one quote inside a single-quoted string: an alias
// or a complex key written inside such a string is no alias or key, and
// the fault is placed at the real one below (1:11, inside the string,
// before quoteEnd).
func TestManifestDoubledSingleQuote(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"alias", "x: 'it''s *a'\ny: *a\n", "check: m.yaml:2:4"},
		{"mapping key", "x: 'it''s {a: 1}: z'\n{b: 1}: y\n", "check: m.yaml:2:1"},
	} {
		_, err := parseManifest("m.yaml", []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want+":") {
			t.Errorf("%s: %v, want it at %s", c.name, err, c.want)
		}
	}
}
