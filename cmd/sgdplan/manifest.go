package main

// This file holds what check reads of a Kubeflow TFJob or PyTorchJob (the
// manifest and job types), the entry points that read a manifest from a
// file or standard input, and parseManifest, which counts its replicas.
// The PyTorchJob's processes per replica are in manifest_pytorch.go, the
// checks of its keys and values in manifest_fields.go, the YAML library's
// errors in manifest_yamlerr.go and the YAML scanning in manifest_yaml.go.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"unicode/utf16"

	"sigs.k8s.io/yaml"

	"github.com/sgdplan/sgdplan/internal/words"
)

// kubeflowVersions are the versions of kubeflow.org under which Kubeflow's
// operators have served TFJob and PyTorchJob: a manifest at another is
// warned about (check reads every version by v1's fields).
var kubeflowVersions = []string{"v1", "v1beta2", "v1beta1", "v1alpha2", "v1alpha1"}

// manifest is what check reads from a Kubeflow job.
type manifest struct {
	Kind    string // TFJob or PyTorchJob
	Workers int
	PS      int
	HasPS   bool
	// WorkersAt and PSAt are where the counts come from: the file and the
	// line and column of the replicas of the role that gives the most
	// (the worker role's on a tie; the role's own place when replicas is
	// absent: Kubeflow's default of 1), for check's messages.
	WorkersAt, PSAt string
	// Processes is a PyTorchJob's processes per replica (nprocPerNode;
	// 1 otherwise): Workers is its replicas times Processes. ProcessesKey
	// is the key that gave it: nprocPerNode or elasticPolicy.nProcPerNode.
	Processes    int
	ProcessesKey string
	// Warnings name what check leaves out (replica roles it does not
	// count).
	Warnings []string
	// CountWarnings say how Workers was judged where the manifest leaves
	// it open (an elasticPolicy range): moot when --workers gives the
	// count.
	CountWarnings []string
	// ElasticLo and ElasticHi are an elastic PyTorchJob's bounds of
	// replicas (elasticPolicy minReplicas and maxReplicas, one given
	// being both, as the operator defaults it), where they differ from
	// the replicas given; 0 and 0 otherwise.
	ElasticLo, ElasticHi int
	// PerNode is the workers a machine that the manifest gives, a
	// PyTorchJob's processes per replica where a key or the pods' GPUs
	// give them (torchrun's node is the replica's pod): check places the
	// workers so unless --per-node is given. 0 where the manifest says
	// nothing of the placement (a TFJob; a PyTorchJob without
	// nprocPerNode or GPU limits). PerNodeFrom says what gave it and where
	// ("nprocPerNode at job.yaml:4:17").
	PerNode     int
	PerNodeFrom string
	// NeedWorkers, when not "", says why the manifest gives no worker
	// count (nprocPerNode auto, cpu or gpu: torchrun counts the processes
	// at launch): check refuses to judge it unless --workers gives the
	// count. Workers is then the replicas alone, a lower bound.
	NeedWorkers string
}

type replicaSpec struct {
	Replicas *int `json:"replicas"`
}

// kubeflowJob is what check reads of a job. parseManifest fills it by kind
// (a TFJob's spec fields only for a TFJob, a PyTorchJob's for a
// PyTorchJob), not by decoding into it: the tags name the fields read.
type kubeflowJob struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Spec       struct {
		TF      map[string]replicaSpec `json:"tfReplicaSpecs"`
		PyTorch map[string]replicaSpec `json:"pytorchReplicaSpecs"`
		// a PyTorchJob's processes per replica: a string, a whole
		// number or auto, cpu or gpu (kept raw to say what is wrong)
		NprocPerNode  json.RawMessage `json:"nprocPerNode"`
		ElasticPolicy *elasticPolicy  `json:"elasticPolicy"`
	} `json:"spec"`
}

// elasticPolicy is what check reads of a PyTorchJob's elastic policy: the
// range of replicas it may run with, and the deprecated processes per
// replica.
type elasticPolicy struct {
	MinReplicas  *int `json:"minReplicas"`
	MaxReplicas  *int `json:"maxReplicas"`
	NProcPerNode *int `json:"nProcPerNode"`
}

// readManifest reads a TFJob or PyTorchJob and returns its training
// replicas (TFJob: Worker, + Chief/Master without PS replicas, PS;
// PyTorchJob: Master + Worker, times the processes each runs,
// nprocPerNode).
func readManifest(path string) (manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return manifest{}, fmt.Errorf("check: %v", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return manifest{}, fmt.Errorf("check: %s is a folder: want a TFJob or PyTorchJob manifest file", path)
	}
	return readManifestFrom(path, f)
}

// stdinName names standard input, the manifest "-", in check's messages
// ("check: standard input:19:17: ...").
const stdinName = "standard input"

// manifestName is the name of check's manifest argument arg in messages.
func manifestName(arg string) string {
	if arg == "-" {
		return stdinName
	}
	return arg
}

// readManifestArg is readManifest of check's argument arg: "-" is the
// manifest on stdin ("kubectl get tfjob NAME -o yaml | sgdplan check
// --model model.json -"), read with the same bound and errors.
func readManifestArg(arg string, stdin io.Reader) (manifest, error) {
	if arg != "-" {
		return readManifest(arg)
	}
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	return readManifestFrom(stdinName, stdin)
}

// readManifestFrom is readManifest of the reader r, named name.
func readManifestFrom(name string, r io.Reader) (manifest, error) {
	// bounded: /dev/zero was read until memory ran out
	b, err := io.ReadAll(io.LimitReader(r, maxManifestBytes+1))
	if err != nil {
		return manifest{}, fmt.Errorf("check: %s: %v", name, unwrapPathErr(err))
	}
	if len(b) > maxManifestBytes {
		return manifest{}, fmt.Errorf("check: %s: larger than %d MiB: not a job manifest (Kubernetes stores an object of at most 1.5 MiB)", name, maxManifestBytes>>20)
	}
	return parseManifest(name, b)
}

// manifestText is the text of a manifest file as UTF-8 without a byte
// order mark: a UTF-16 file (PowerShell's "kubectl get -o yaml > job.yaml"
// writes one) was parsed by the YAML library, but its "---" lines were not
// seen, so a Service before the job was judged, and no error had a line;
// a UTF-8 mark put line 1's columns 3 bytes to the right, where no editor
// shows them, and hid its key from the positions.
func manifestText(path string, b []byte) ([]byte, error) {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}):
		return b[3:], nil
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
		order = binary.LittleEndian
	case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		order = binary.BigEndian
	default:
		return b, nil
	}
	if len(b)%2 != 0 {
		return nil, fmt.Errorf("check: %s: UTF-16 (by its byte order mark) of an odd number of bytes: cut short? expected a Kubeflow job manifest", path)
	}
	u := make([]uint16, 0, len(b)/2-1)
	for i := 2; i < len(b); i += 2 {
		u = append(u, order.Uint16(b[i:]))
	}
	return []byte(string(utf16.Decode(u))), nil
}

// maxManifestBytes bounds the manifest check reads: Kubernetes refuses an
// object above 1.5 MiB (etcd's request limit), and a file of many
// documents may hold more than one.
const maxManifestBytes = 16 << 20

// unwrapPathErr drops the path from a read error that a message names
// already.
func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// jsonStream refuses a file of JSON values one after another ("{...}
// {...}", as kubectl reads a stream of objects), at the second: the YAML
// library read the first alone and the job was judged without a word of
// the other (a review), where two YAML documents holding jobs are
// refused. nil for a file that is not JSON, or one value.
func jsonStream(path string, b []byte) error {
	off := len(b) - len(bytes.TrimLeft(b, " \t\r\n"))
	if off == len(b) || (b[off] != '{' && b[off] != '[') {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b[off:]))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return nil // not JSON: the YAML reader says what is wrong
	}
	end := off + int(dec.InputOffset())
	rest := bytes.TrimLeft(b[end:], " \t\r\n")
	if len(rest) == 0 || (rest[0] != '{' && rest[0] != '[') {
		return nil
	}
	at := len(b) - len(rest)
	return faultf(path, posAt(string(b), at), "a second JSON value after the first (which ends at %s): kubectl reads such a stream as one object each; give a file with one (check judges one job)", posAt(string(b), end-1).String())
}

// parseManifest is readManifest on the bytes of the file path.
func parseManifest(path string, b []byte) (manifest, error) {
	b, err := manifestText(path, b)
	if err != nil {
		return manifest{}, err
	}
	text := b
	if b, err = yamlDirectives(path, b); err != nil {
		return manifest{}, err
	}
	docs := yamlDocuments(b)
	if len(docs) == 0 {
		what := "empty"
		if len(bytes.TrimSpace(text)) > 0 {
			what = "only comments, directives or ---"
		}
		return manifest{}, fmt.Errorf("check: %s: no YAML document (%s): expected a Kubeflow TFJob or PyTorchJob manifest", path, what)
	}
	if err := jsonStream(path, b); err != nil {
		return manifest{}, err
	}
	if len(docs) == 1 && docs[0][0] > 0 {
		// empty documents, or comments, before the one ("---", "---",
		// then the job): the YAML library reads the first, empty, and
		// the job had "no kind"; kubectl skips them. The document alone,
		// as jobDocument takes a job among others, its directives kept.
		lines := strings.Split(string(b), "\n")
		dirs, err := prologue(path, lines, docs[0][0])
		if err != nil {
			return manifest{}, err
		}
		b = docAlone(lines, docs[0], dirs)
	}
	if len(docs) > 1 || isList(b) {
		doc, err := jobDocument(path, b, docs)
		if err != nil {
			return manifest{}, err
		}
		b = doc
	}
	var j kubeflowJob
	js, err := yaml.YAMLToJSONStrict(b)
	merged := false
	if err != nil && yamlDupRE.MatchString(err.Error()) && yamlMergeRE.Match(b) {
		// The strict check reads a key that overrides one merged in by
		// "<<: *anchor" as given twice (a known fault of the YAML
		// library); YAML's merge gives the explicit key precedence.
		if js2, err2 := yaml.YAMLToJSON(b); err2 == nil {
			js, err, merged = js2, nil, true
		}
	}
	if err != nil {
		return manifest{}, yamlError(path, b, err)
	}
	if t := bytes.TrimSpace(js); len(t) > 0 && t[0] != '{' && string(t) != "null" {
		return manifest{}, faultf(path, firstContent(b), "not a Kubeflow job manifest: expected a mapping of apiVersion, kind and spec, got %s", yamlKindOf(t))
	}
	// the kind first, then the fields of its spec alone: a TFJob's
	// elasticPolicy (a PyTorchJob's field, which the TFJob has not) made
	// check fail on its contents
	var head manifestHead
	var tf tfFields
	var pt ptFields
	// The decoder reads what it can and names one field it cannot, the
	// first in the sorted keys of the JSON form (kind: [TFJob] was told
	// before a spec: 5 above it): typeFaults and badReplicas find each
	// such field, and faults gathers them with the faults of the values
	// read (below), so that the error names the first in the file.
	err = json.Unmarshal(js, &head)
	j.APIVersion, j.Kind = head.APIVersion, head.Kind
	faults := typeFaults(path, b, js, reflect.TypeOf(head), nil, nil)
	var fields any // the kind's fields, nil for another kind
	switch j.Kind {
	case "TFJob":
		fields = &tf
	case "PyTorchJob":
		fields = &pt
	}
	// one walk of the head and the kind's fields together (two walks
	// told a spec given twice twice)
	faults = caseTwiceFaults(path, b, js, caseTwiceType(fields), nil, faults)
	if fields != nil {
		if e := json.Unmarshal(js, fields); err == nil {
			err = e
		}
		if head.Spec != nil {
			// (a spec that is not a mapping is told once, above)
			faults = typeFaults(path, b, js, reflect.TypeOf(fields).Elem(), nil, faults)
		}
		faults = append(faults, badReplicas(path, b, js, map[string]string{"TFJob": "tfReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs"}[j.Kind])...)
		faults = append(faults, unknownReplicaKeys(path, b, js, map[string]string{"TFJob": "tfReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs"}[j.Kind])...)
		j.Spec.TF = tf.Spec.TF
		j.Spec.PyTorch, j.Spec.NprocPerNode, j.Spec.ElasticPolicy = pt.Spec.PyTorch, pt.Spec.NprocPerNode, pt.Spec.ElasticPolicy
	}
	if err != nil && len(faults) == 0 {
		// (no input is known to come here: typeFaults and badReplicas
		// find each field the decoder cannot read; a panic probe here
		// was reached by none of the tests nor 375k fuzzed inputs, so
		// the rewording of the decoder's type error is gone: should a
		// field be missed, the decoder's own words)
		return manifest{}, fmt.Errorf("check: %s: not a Kubeflow job manifest: %v", path, err)
	}
	if fields == nil && len(faults) > 0 {
		// (kind: [TFJob] is no kind, and no other kind: its fault)
		return manifest{}, firstFault(faults)
	}
	// at is where the key path keys is in the file: in block style, or
	// in flow style ("spec: {tfReplicaSpecs: {...}}"), where the faults
	// found by it (a role given twice, nprocPerNode, elasticPolicy) had
	// no place, and were told after those that had
	at := func(keys ...string) pos { return valuePos(b, keys) }
	// atKey is where the last key of keys is: a role given twice, or a
	// Chief beside a Master, is told at its key in both styles (in flow
	// style it was told at its value)
	atKey := func(keys ...string) pos { return keyPos(b, keys) }
	specsKey := "tfReplicaSpecs"
	if j.Kind == "PyTorchJob" {
		specsKey = "pytorchReplicaSpecs"
	}
	// specsAt is where the job's replica roles are, or would be: its
	// replica specs, else its spec, else the document's start (a job
	// without workers named the file alone)
	specsAt := func() pos {
		for _, keys := range [][]string{{"spec", specsKey}, {"spec"}} {
			if p := at(keys...); p.line > 0 {
				return p
			}
		}
		return firstContent(b)
	}
	// Kubeflow's training operator reads role names in any case ("ps"
	// is PS, "worker" Worker: setTypeNamesToCamelCase), so a role is found
	// under any spelling of its name (n is the canonical name, key the
	// manifest's); two spellings of one role are refused.
	role := func(specs map[string]replicaSpec, n string) (replicaSpec, string, bool, error) {
		var key string
		for _, k := range slices.Sorted(maps.Keys(specs)) {
			if !strings.EqualFold(k, n) {
				continue
			}
			if key != "" {
				return replicaSpec{}, "", false, faultf(path, atKey("spec", specsKey, k), "replica role %s given twice, as %q and %q: Kubeflow reads role names in any case; want it once", n, key, k)
			}
			key = k
		}
		return specs[key], key, key != "", nil
	}
	// replicasAt is where role key n's replicas is, in block or flow
	// style, also behind an anchor or a tag or under an explicit key;
	// else the role (absent replicas: Kubeflow's default of 1)
	replicasAt := func(n string) pos {
		if p := at("spec", specsKey, n, "replicas"); p.line > 0 {
			return p
		}
		return at("spec", specsKey, n)
	}
	// leader refuses a leader role (key n of specs, "" when absent) whose
	// replicas the training operator refuses: above 1, or, when exact,
	// other than 1 (absent replicas default to 1). A negative count is
	// left to count's message.
	leader := func(specs map[string]replicaSpec, n string, exact bool, why string) error {
		if n == "" || specs[n].Replicas == nil {
			return nil
		}
		r := *specs[n].Replicas
		switch {
		case exact && r >= 0 && r != 1:
			return faultf(path, replicasAt(n), "%s.replicas = %d, want exactly 1: %s", n, r, why)
		case r > 1:
			return faultf(path, replicasAt(n), "%s.replicas = %d, want at most 1: %s", n, r, why)
		}
		return nil
	}
	// the faults of the replica counts (and of the other values check
	// reads) join faults, each said at its place, so that the error
	// names the first in the file: they came in a fixed order of roles
	// (the leaders, then Worker, Chief and Master, then PS), so a PS
	// above a Worker was told after it
	// count is the replicas of the roles names of specs (found: any
	// given) and where those of the role giving the most are (ties: the
	// first of names, the worker role: the first given was a
	// PyTorchJob's Master, one replica, named for 6001 replicas too
	// many); a role given twice or a count check refuses goes to faults
	count := func(specs map[string]replicaSpec, names ...string) (int, bool, string) {
		total, found, where, most := 0, false, pos{}, -1
		for _, cn := range names {
			s, n, ok, err := role(specs, cn)
			if err != nil {
				faults = append(faults, err)
				continue
			}
			if !ok {
				continue
			}
			r := 1 // Kubeflow's default when replicas is absent
			if s.Replicas != nil {
				r = *s.Replicas
			}
			if r > most {
				where, most = replicasAt(n), r
			}
			if err := countFault(path, replicasAt(n), n+".replicas", r, ">= 0"); err != nil {
				faults = append(faults, err)
				continue
			}
			total += r
			found = true
		}
		return total, found, where.in(path)
	}
	mf := manifest{Kind: j.Kind}
	if merged {
		mf.Warnings = append(mf.Warnings, fmt.Sprintf("%s: YAML merge keys (<<) override merged keys as YAML says; a key given twice in one mapping is not detected in this file", path))
	}
	if g, _, _ := strings.Cut(j.APIVersion, "/"); (j.Kind == "TFJob" || j.Kind == "PyTorchJob") && j.APIVersion != "" && g != "kubeflow.org" {
		// (apiVersion: batch/v1 beside kind: TFJob was read without a
		// word: no Kubeflow operator would run it)
		mf.Warnings = append(mf.Warnings, fmt.Sprintf("%s: apiVersion %s: a %s is Kubeflow's, kubeflow.org/v1: judged as one all the same; is this file the job Kubeflow will run?", at("apiVersion").in(path), j.APIVersion, j.Kind))
	} else if g, v, _ := strings.Cut(j.APIVersion, "/"); (j.Kind == "TFJob" || j.Kind == "PyTorchJob") && g == "kubeflow.org" && !slices.Contains(kubeflowVersions, v) {
		// (kubeflow.org/v2 was read without a word)
		mf.Warnings = append(mf.Warnings, fmt.Sprintf("%s: apiVersion %s: no Kubeflow release serves a %s at %s (%s do): judged as kubeflow.org/v1; is this file the job Kubeflow will run?", at("apiVersion").in(path), j.APIVersion, j.Kind, v, strings.Join(kubeflowVersions, ", ")))
	}
	switch j.Kind {
	case "TFJob":
		// Kubeflow's training operator refuses a TFJob with both a Chief
		// and a Master ("more than 1 chief/master found"): the job would
		// never run.
		_, chief, hasChief, err := role(j.Spec.TF, "Chief")
		if err != nil {
			faults = append(faults, err)
		}
		_, master, hasMaster, err := role(j.Spec.TF, "Master")
		if err != nil {
			faults = append(faults, err)
		}
		if hasChief && hasMaster {
			faults = append(faults, faultf(path, atKey("spec", specsKey, master), "TFJob with both %s and %s replicas: Kubeflow's training operator refuses more than one chief/master role (want one of them)", chief, master))
		}
		// The chief/master is one task: Kubeflow's TFJob schema bounds
		// Chief.replicas to 1 and TensorFlow refuses a cluster with more
		// than one chief; replicas 0 leaves the chief to worker 0.
		for _, n := range []string{chief, master} {
			if err := leader(j.Spec.TF, n, false, "a TFJob has one chief/master task (Kubeflow's TFJob schema bounds Chief.replicas to 1; TensorFlow allows at most one chief): put the other replicas under Worker"); err != nil {
				faults = append(faults, err)
			}
		}
		wk, okW, wkAt := count(j.Spec.TF, "Worker")
		ch, okC, chAt := count(j.Spec.TF, "Chief", "Master")
		mf.PS, mf.HasPS, mf.PSAt = count(j.Spec.TF, "PS")
		if err := firstFault(faults); err != nil {
			return mf, err
		}
		// the count's place: the role that gives the most (the Worker
		// on a tie)
		w, ok, wAt := wk+ch, okW || okC, wkAt
		if !okW || ch > wk {
			wAt = chAt
		}
		lead := chief
		if lead == "" {
			lead = master
		}
		if ch > 0 && mf.PS > 0 && wk > 0 {
			// TensorFlow 2's ParameterServerStrategy, the one
			// docs/instrumenting.md (section 3) times, runs the chief as
			// its coordinator: it sends the steps to the workers and
			// takes none (1 Chief + 7 Workers were judged at 8 workers)
			w, wAt = wk, wkAt
			mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: %s (1 replica) is not counted as a worker: beside PS replicas, TensorFlow 2's ParameterServerStrategy runs the chief as the coordinator, which sends the steps to the workers and trains none: judged at the %s; under TensorFlow 1's between-graph replication or an Estimator, where the chief trains too, check with --workers %d", replicasAt(lead).in(path), lead, words.Count(wk, "Worker replica"), wk+ch))
		} else if ch > 0 && wk > 0 {
			mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: %s (1 replica) is counted as a worker beside the %s, %s: without PS replicas the job trains by all-reduce (MultiWorkerMirroredStrategy), where the chief is a worker that trains; if it only coordinates, check with --workers %d", replicasAt(lead).in(path), lead, words.Count(wk, "Worker replica"), words.Count(w, "worker"), wk))
		} else if ch > 0 && mf.PS > 0 {
			mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: %s (1 replica) is counted as the one worker: the TFJob has no Worker replicas, and the chief trains under TensorFlow 1's between-graph replication (under TensorFlow 2's ParameterServerStrategy it only coordinates, and nothing would train)", replicasAt(lead).in(path), lead))
		}
		if !ok || w == 0 {
			return mf, faultf(path, specsAt(), "TFJob without worker replicas (expected spec.tfReplicaSpecs.Worker.replicas >= 1)%s%s", misspeltSpecs(head.Spec, "TFJob"), misspeltRole(j.Spec.TF, "tfReplicaSpecs", "Worker", "Chief", "Master", "PS", "Evaluator"))
		}
		mf.Workers, mf.WorkersAt, mf.Processes = w, wAt, 1
		mf.Warnings = append(mf.Warnings, otherRoles(path, func(r string) pos { return atKey("spec", specsKey, r) }, j.Spec.TF, "TFJob", "Worker trains, a Chief or Master too without PS replicas, PS are the shards", "Worker", "Chief", "Master", "PS", "Evaluator")...)
		// a PyTorchJob's fields in a TFJob were read without a word
		// (Kubeflow's TFJobSpec: runPolicy, successPolicy,
		// tfReplicaSpecs, enableDynamicWorker), and an elasticPolicy's
		// contents were type-checked: they are not read
		mf.Warnings = append(mf.Warnings, unknownSpecKeys(path, head.Spec, at, "TFJob")...)
		mf.Warnings = append(mf.Warnings, otherKindFields(path, head.Spec, at, "TFJob", "PyTorchJob", "runPolicy, successPolicy, tfReplicaSpecs and enableDynamicWorker", map[string]string{
			"nprocPerNode":        "each TFJob replica is one worker",
			"elasticPolicy":       "each TFJob replica is one worker",
			"pytorchReplicaSpecs": "check counts the roles of tfReplicaSpecs",
		})...)
	case "PyTorchJob":
		// Kubeflow's training operator refuses a Master whose replicas is
		// not 1 ("There must be only 1 master replica"; its webhook:
		// Master.replicas "must be 1").
		_, master, _, err := role(j.Spec.PyTorch, "Master")
		if err != nil {
			faults = append(faults, err)
		}
		if err := leader(j.Spec.PyTorch, master, true, "Kubeflow's training operator refuses a PyTorchJob whose Master is not one replica (put the other replicas under Worker)"); err != nil {
			faults = append(faults, err)
		}
		w, ok, wAt := count(j.Spec.PyTorch, "Worker", "Master")
		nproc, warn, err := nprocPerNode(path, j.Spec.NprocPerNode, j.Spec.ElasticPolicy, at, b)
		if err != nil {
			faults = append(faults, err)
		}
		// placedBy says what gave the processes per replica, which is the
		// placement: torchrun's node is the replica's pod ("" where the
		// manifest gives none, and the model's placement stands)
		placedBy := ""
		if e := j.Spec.ElasticPolicy; err == nil && warn == "" && e != nil && e.NProcPerNode != nil {
			placedBy = "elasticPolicy.nProcPerNode at " + at("spec", "elasticPolicy", "nProcPerNode").in(path)
		} else if err == nil && warn == "" && given(bytes.TrimSpace(j.Spec.NprocPerNode)) {
			placedBy = "nprocPerNode at " + at("spec", "nprocPerNode").in(path)
		}
		// the bounds of an elasticPolicy, as the replicas are bounded:
		// they were not checked (minReplicas: -1 passed, and was told
		// as the count's range)
		inRange := true
		if e := j.Spec.ElasticPolicy; e != nil {
			for _, bound := range []struct {
				key string
				v   *int
			}{{"minReplicas", e.MinReplicas}, {"maxReplicas", e.MaxReplicas}} {
				if bound.v == nil {
					continue
				}
				if err := countFault(path, at("spec", "elasticPolicy", bound.key), "elasticPolicy."+bound.key, *bound.v, "a whole number of replicas >= 1"); err != nil {
					faults = append(faults, err)
					inRange = false
				} else if *bound.v == 0 {
					// (0 was judged as a bound of "no verdict": torchrun's
					// rendezvous refuses it, and the job never starts)
					faults = append(faults, faultf(path, at("spec", "elasticPolicy", bound.key), "elasticPolicy.%s = 0, want a whole number of replicas >= 1: torchrun's rendezvous refuses fewer than one node (\"The minimum number of rendezvous nodes (0) must be greater than zero\"), so the job would not start", bound.key))
					inRange = false
				}
			}
		}
		// (one bound given is both, as the operator defaults it)
		if e := j.Spec.ElasticPolicy; inRange && e != nil && e.MinReplicas != nil && e.MaxReplicas != nil && *e.MinReplicas > *e.MaxReplicas {
			faults = append(faults, faultf(path, at("spec", "elasticPolicy", "minReplicas"), "elasticPolicy minReplicas %d is above maxReplicas %d: want minReplicas <= maxReplicas", *e.MinReplicas, *e.MaxReplicas))
		}
		if err := firstFault(faults); err != nil {
			return mf, err
		}
		if !ok || w == 0 {
			return mf, faultf(path, specsAt(), "PyTorchJob without worker replicas (expected spec.pytorchReplicaSpecs.Worker or Master replicas)%s%s", misspeltSpecs(head.Spec, "PyTorchJob"), misspeltRole(j.Spec.PyTorch, "pytorchReplicaSpecs", "Worker", "Master"))
		}
		noGPUs := "" // why the pods' GPU limits give no count
		if warn != "" {
			// gpu, or auto on a pod given GPUs: torchrun starts one
			// process per GPU the pod sees, which the pytorch
			// containers' nvidia.com/gpu limits give
			if g, how, ok := podGPUs(path, js, specsKey, j.Spec.PyTorch, role, j.Spec.NprocPerNode, at); ok {
				nproc, warn = g, ""
				placedBy = fmt.Sprintf("nprocPerNode %s at %s, the pytorch containers' nvidia.com/gpu limit", bytes.TrimSpace(j.Spec.NprocPerNode), at("spec", "nprocPerNode").in(path))
				mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: %s", at("spec", "nprocPerNode").in(path), how))
			} else if how != "" {
				noGPUs = "; " + how
			}
		}
		if e := j.Spec.ElasticPolicy; !given(bytes.TrimSpace(j.Spec.NprocPerNode)) && (e == nil || e.NProcPerNode == nil) {
			// no nprocPerNode: Kubeflow's training operator (v1.7 on)
			// sets auto, and torchrun then starts one process per GPU a
			// pod sees: a PyTorchJob of 2 replicas of 8 GPUs was judged
			// at 2 workers, not 16. Without GPU limits, one a replica,
			// as before (auto would count the node's CPUs, and a plain
			// "python train.py" pod is one process).
			g, how, ok := podGPUs(path, js, specsKey, j.Spec.PyTorch, role, json.RawMessage(`"auto"`), at)
			run, gpus := pytorchLaunch(js, specsKey)
			switch {
			case ok && g > 1 && run != "":
				// a pod that runs "python train.py" is one process, with
				// its GPUs (the operator's WORLD_SIZE counts auto as 1)
				mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: no nprocPerNode, and the pytorch containers run %q, not torchrun: judged at one process a replica, each with its %d GPUs; if the program starts one process per GPU, check with --workers %d", specsAt().in(path), run, g, w*g))
			case ok && g > 1:
				nproc = g
				placedBy = fmt.Sprintf("the pytorch containers' nvidia.com/gpu limit, torchrun's auto (%s)", specsAt().in(path))
				mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: no nprocPerNode: Kubeflow's training operator (v1.7 on) sets it to auto, and torchrun then starts one process per GPU of each replica, %d (the nvidia.com/gpu limit of the pytorch containers): judged at %d workers; pods not started by torchrun, or an older operator, run one process a replica: check that with --workers %d", specsAt().in(path), g, w*g, w))
			case !ok && gpus && run == "":
				// GPU limits that give no one count (they differ, or a
				// role has none): as an explicit auto, no count (it was
				// judged at one process a replica without a word)
				mf.NeedWorkers = fmt.Sprintf("%s: no nprocPerNode: Kubeflow's training operator (v1.7 on) sets it to auto, and torchrun starts one process per GPU a replica sees, a count the manifest does not give: %s: give --workers, the %s x the processes each runs", specsAt().in(path), how, words.Count(w, "replica"))
			}
		}
		if warn != "" {
			// a guess of one process per replica judged a job of 8
			// GPUs a node at an eighth of its workers, and passed it
			// (exit 0) with a warning a script does not read
			mf.NeedWorkers = fmt.Sprintf("%s: %s (the training operator leaves it to torchrun too)%s: give --workers, the %s x the processes each runs", at("spec", "nprocPerNode").in(path), warn, noGPUs, words.Count(w, "replica"))
		}
		if e := j.Spec.ElasticPolicy; e != nil && (e.MinReplicas != nil || e.MaxReplicas != nil) {
			// the operator's defaults: one bound given is both
			lo, hi := e.MinReplicas, e.MaxReplicas
			if lo == nil {
				lo = hi
			}
			if hi == nil {
				hi = lo
			}
			how := fmt.Sprintf("%d to %d replicas as nodes come and go", *lo, *hi)
			if *lo == *hi {
				how = fmt.Sprintf("%d replicas (its elasticPolicy's bounds)", *lo)
			}
			if *lo != *hi || *lo != w {
				mf.ElasticLo, mf.ElasticHi = *lo, *hi
			}
			if w < *lo || w > *hi {
				// replicas outside the bounds were judged without a
				// word of it (8 replicas under maxReplicas 4): the job
				// never runs at the count given
				key, side, v, why := "maxReplicas", "above", *hi, fmt.Sprintf("torchrun's rendezvous (--nnodes %d:%d) admits at most %s, and the others wait as spares, so the job never runs at %s", *lo, *hi, words.Count(*hi, "node"), words.Count(w, "replica"))
				if e.MaxReplicas == nil {
					key = "minReplicas"
				}
				if w < *lo {
					key, side, v, why = "minReplicas", "below", *lo, fmt.Sprintf("torchrun's rendezvous (--nnodes %d:%d) waits for %s before the first step, so the job never runs at %s", *lo, *hi, words.Count(*lo, "node"), words.Count(w, "replica"))
					if e.MinReplicas == nil {
						key = "maxReplicas"
					}
				}
				bound := fmt.Sprintf("%s %d (%s)", key, v, at("spec", "elasticPolicy", key).in(path))
				if e.MinReplicas == nil || e.MaxReplicas == nil {
					bound = fmt.Sprintf("bound of %d replicas (%s %s, given alone: the training operator takes it for both bounds)", v, key, at("spec", "elasticPolicy", key).in(path))
				}
				mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: the %s given %s %s the elasticPolicy's %s: %s; judged at the %s given all the same (the verdicts at the bounds follow it, elastic_ends in json; the exit code is the worst of them and the given count's)", wAt, words.Count(w, "replica"), map[bool]string{true: "is", false: "are"}[w == 1], side, bound, why, words.Count(w, "replica")))
			} else if *lo != *hi || *lo != w {
				mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: an elastic PyTorchJob runs with %s: judged at the %s given (the verdicts at the bounds follow it, elastic_ends in json; the exit code is the worst of them and the given count's)", at("spec", "elasticPolicy").in(path), how, words.Count(w, "replica")))
			}
		}
		// the training operator's world size: every replica runs
		// nprocPerNode processes (WORLD_SIZE = replicas x nprocPerNode),
		// each a worker
		mf.Workers, mf.WorkersAt, mf.Processes, mf.ProcessesKey = w*nproc, wAt, nproc, "nprocPerNode"
		if placedBy != "" && mf.NeedWorkers == "" {
			mf.PerNode, mf.PerNodeFrom = nproc, placedBy
		}
		if e := j.Spec.ElasticPolicy; e != nil && e.NProcPerNode != nil {
			mf.ProcessesKey = "elasticPolicy.nProcPerNode"
		}
		mf.Warnings = append(mf.Warnings, otherRoles(path, func(r string) pos { return atKey("spec", specsKey, r) }, j.Spec.PyTorch, "PyTorchJob", "Master and Worker train", "Master", "Worker")...)
		// and a TFJob's fields in a PyTorchJob (Kubeflow's
		// PyTorchJobSpec: runPolicy, elasticPolicy, pytorchReplicaSpecs,
		// nprocPerNode)
		mf.Warnings = append(mf.Warnings, unknownSpecKeys(path, head.Spec, at, "PyTorchJob")...)
		mf.Warnings = append(mf.Warnings, otherKindFields(path, head.Spec, at, "PyTorchJob", "TFJob", "runPolicy, elasticPolicy, pytorchReplicaSpecs and nprocPerNode", map[string]string{
			"tfReplicaSpecs":      "check counts the roles of pytorchReplicaSpecs",
			"successPolicy":       "the job ends as its runPolicy says",
			"enableDynamicWorker": "the workers are pytorchReplicaSpecs' replicas",
		})...)
	case "":
		return mf, faultf(path, firstContent(b), "no kind: expected a Kubeflow TFJob or PyTorchJob (kind: TFJob)")
	default:
		return mf, faultf(path, at("kind"), "kind %q: expected TFJob or PyTorchJob", j.Kind)
	}
	return mf, nil
}

// countFault is the fault of a count of replicas v, of the field name at
// p, that is negative (the fault says it wants neg) or above maxCount; nil
// when in range.
func countFault(path string, p pos, name string, v int, neg string) error {
	switch {
	case v < 0:
		return faultf(path, p, "%s = %d, want %s", name, v, neg)
	case v > maxCount:
		return faultf(path, p, "%s = %d: too large, want at most %d", name, v, maxCount)
	}
	return nil
}

// manifestHead is what check reads of every manifest first: the kind, and
// its spec as a mapping of anything; then the kind's fields alone
// (tfFields, ptFields: parseManifest).
type manifestHead struct {
	APIVersion string                     `json:"apiVersion"`
	Kind       string                     `json:"kind"`
	Spec       map[string]json.RawMessage `json:"spec"`
}

// tfFields are the fields check reads of a TFJob.
type tfFields struct {
	Spec struct {
		TF map[string]replicaSpec `json:"tfReplicaSpecs"`
	} `json:"spec"`
}

// ptFields are the fields check reads of a PyTorchJob.
type ptFields struct {
	Spec struct {
		PyTorch       map[string]replicaSpec `json:"pytorchReplicaSpecs"`
		NprocPerNode  json.RawMessage        `json:"nprocPerNode"`
		ElasticPolicy *elasticPolicy         `json:"elasticPolicy"`
	} `json:"spec"`
}

// isTerminal reports whether r is a terminal: a file that is a character
// device and, where the system can tell (isTTY), one that takes terminal
// settings; /dev/null, a character device too, got the hint.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	tty, known := isTTY(f)
	return tty || !known
}
