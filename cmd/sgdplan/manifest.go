package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/sgdplan/sgdplan/internal/words"
)

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
// replicas (TFJob: Worker + Chief/Master, PS; PyTorchJob: Master + Worker,
// times the processes each runs, nprocPerNode).
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
		w, ok, wAt := count(j.Spec.TF, "Worker", "Chief", "Master")
		mf.PS, mf.HasPS, mf.PSAt = count(j.Spec.TF, "PS")
		if err := firstFault(faults); err != nil {
			return mf, err
		}
		if !ok || w == 0 {
			return mf, faultf(path, specsAt(), "TFJob without worker replicas (expected spec.tfReplicaSpecs.Worker.replicas >= 1)%s%s", misspeltSpecs(head.Spec, "TFJob"), misspeltRole(j.Spec.TF, "tfReplicaSpecs", "Worker", "Chief", "Master", "PS", "Evaluator"))
		}
		mf.Workers, mf.WorkersAt, mf.Processes = w, wAt, 1
		mf.Warnings = append(mf.Warnings, otherRoles(path, j.Spec.TF, "TFJob", "Worker, Chief and Master train, PS are the shards", "Worker", "Chief", "Master", "PS", "Evaluator")...)
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
				if err := countFault(path, at("spec", "elasticPolicy", bound.key), "elasticPolicy."+bound.key, *bound.v, "a whole number of replicas >= 0"); err != nil {
					faults = append(faults, err)
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
				mf.CountWarnings = append(mf.CountWarnings, fmt.Sprintf("%s: an elastic PyTorchJob runs with %s: judged at the %s given (the verdicts at the bounds follow it, elastic_ends in json; the exit code is the worst of them and the given count's)", at("spec", "elasticPolicy").in(path), how, words.Count(w, "replica")))
			}
		}
		// the training operator's world size: every replica runs
		// nprocPerNode processes (WORLD_SIZE = replicas x nprocPerNode),
		// each a worker
		mf.Workers, mf.WorkersAt, mf.Processes, mf.ProcessesKey = w*nproc, wAt, nproc, "nprocPerNode"
		if e := j.Spec.ElasticPolicy; e != nil && e.NProcPerNode != nil {
			mf.ProcessesKey = "elasticPolicy.nProcPerNode"
		}
		mf.Warnings = append(mf.Warnings, otherRoles(path, j.Spec.PyTorch, "PyTorchJob", "Master and Worker train", "Master", "Worker")...)
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

// nprocPerNode is the processes each replica of a PyTorchJob runs, as the
// training operator reads them: spec.nprocPerNode, a string holding a whole
// number (a YAML number is refused, as Kubernetes refuses it), or else the
// deprecated spec.elasticPolicy.nProcPerNode; 1 when neither is given. With
// auto, cpu or gpu the count is torchrun's at launch (one per GPU or CPU):
// 1 then, and warn says why the manifest gives no count. at places a key
// path in the file b.
func nprocPerNode(path string, raw json.RawMessage, e *elasticPolicy, at func(...string) pos, b []byte) (n int, warn string, err error) {
	raw = bytes.TrimSpace(raw)
	given := given(raw)
	if e != nil && e.NProcPerNode != nil {
		if given {
			return 0, "", faultf(path, at("spec", "elasticPolicy", "nProcPerNode"), "PyTorchJob with both spec.nprocPerNode and spec.elasticPolicy.nProcPerNode: Kubeflow's training operator refuses the deprecated elasticPolicy.nProcPerNode beside nprocPerNode (want nprocPerNode alone)")
		}
		if v := *e.NProcPerNode; v < 1 || v > maxCount {
			return 0, "", faultf(path, at("spec", "elasticPolicy", "nProcPerNode"), "elasticPolicy.nProcPerNode = %d, want a whole number of processes per replica from 1 to %d", v, maxCount)
		}
		return *e.NProcPerNode, "", nil
	}
	if !given {
		return 1, "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		w := at("spec", "nprocPerNode")
		return 0, "", faultf(path, w, "nprocPerNode is %s, not a string: Kubeflow's PyTorchJob takes a quoted number (\"4\"), auto, cpu or gpu", yamlShown(b, w, raw))
	}
	switch s {
	case "auto", "cpu", "gpu":
		return 1, fmt.Sprintf("nprocPerNode %q: torchrun starts one process per %s of each replica at launch, a count the manifest does not give", s, map[string]string{"auto": "GPU (else CPU)", "cpu": "CPU", "gpu": "GPU"}[s]), nil
	}
	v, perr := strconv.Atoi(s)
	if perr != nil || v < 1 || v > maxCount {
		return 0, "", faultf(path, at("spec", "nprocPerNode"), "nprocPerNode %q: want a whole number of processes per replica from 1 to %d, or auto, cpu or gpu", s, maxCount)
	}
	return v, "", nil
}

// podGPUs is the processes per replica torchrun starts for a PyTorchJob
// whose nprocPerNode (raw) is gpu, or auto on pods given GPUs: one per GPU
// the pod sees (torch.distributed.run: torch.cuda.device_count()), which is
// the nvidia.com/gpu limit of the container the training operator runs,
// named pytorch, in the pod template of each training role (Master,
// Worker; role finds them in specs). ok is false for cpu, for auto without
// GPUs (torchrun counts the node's CPUs, which the manifest does not
// give), and when a role has no such limit or the roles' limits differ.
// how says where the count came from, or else why there is none ("" when
// the templates cannot be read). The templates are read leniently:
// check judges replica counts, and a template it cannot read leaves the
// count to --workers.
func podGPUs(path string, js []byte, specsKey string, specs map[string]replicaSpec, role func(map[string]replicaSpec, string) (replicaSpec, string, bool, error), raw json.RawMessage, at func(...string) pos) (n int, how string, ok bool) {
	var mode string
	if json.Unmarshal(raw, &mode) != nil || mode != "gpu" && mode != "auto" {
		return 0, "", false
	}
	roles, ok := readRoleTemplates(js, specsKey)
	if !ok {
		return 0, "", false
	}
	var keys []string
	for _, r := range []string{"Master", "Worker"} {
		_, key, found, err := role(specs, r)
		if err != nil {
			return 0, "", false
		}
		if !found {
			continue
		}
		keys = append(keys, key)
		g, why := 0, fmt.Sprintf("%s (%s) has no container named pytorch, the one the training operator runs", key, at("spec", specsKey, key).in(path))
		for _, c := range roles[key].Template.Spec.Containers {
			if c.Name != "pytorch" {
				continue
			}
			var s string
			switch v := c.Resources.Limits["nvidia.com/gpu"].(type) {
			case nil:
				why = fmt.Sprintf("the pytorch container of %s (%s) has no nvidia.com/gpu limit", key, at("spec", specsKey, key).in(path))
			case string:
				s = v
			case float64:
				s = strconv.FormatFloat(v, 'f', -1, 64)
			default:
				s = fmt.Sprint(v)
			}
			if x, err := strconv.Atoi(s); err == nil && x >= 1 && x <= maxCount {
				g = x
			} else if s != "" {
				why = fmt.Sprintf("the pytorch container of %s (%s) has nvidia.com/gpu %q, not a whole number of GPUs from 1 to %d", key, at("spec", specsKey, key).in(path), s, maxCount)
			}
		}
		switch {
		case g == 0 && mode == "auto":
			return 0, why + ": torchrun's auto then counts the node's CPUs", false
		case g == 0:
			return 0, why, false
		case n != 0 && g != n:
			return 0, fmt.Sprintf("the nvidia.com/gpu limits of the pytorch containers differ: %s %d, %s %d (%s)", keys[0], n, key, g, at("spec", specsKey, key).in(path)), false
		}
		n = g
	}
	if n == 0 {
		return 0, "", false
	}
	return n, fmt.Sprintf("nprocPerNode %q: torchrun starts one process per GPU of each replica, %d (the nvidia.com/gpu limit of the pytorch container of %s)", mode, n, strings.Join(keys, " and ")), true
}

// roleTemplates are what check reads of the pod templates of a job's
// replica roles: each container's name, command, args and limits.
type roleTemplates map[string]struct {
	Template struct {
		Spec struct {
			Containers []struct {
				Name      string   `json:"name"`
				Command   []string `json:"command"`
				Args      []string `json:"args"`
				Resources struct {
					Limits map[string]any `json:"limits"`
				} `json:"resources"`
			} `json:"containers"`
		} `json:"spec"`
	} `json:"template"`
}

// readRoleTemplates reads the templates of the replica roles under
// spec.specsKey of the job js; ok is false when they cannot be read
// (leniently: check judges replica counts, not templates).
func readRoleTemplates(js []byte, specsKey string) (roles roleTemplates, ok bool) {
	var doc struct {
		Spec map[string]json.RawMessage `json:"spec"`
	}
	if json.Unmarshal(js, &doc) != nil || json.Unmarshal(doc.Spec[specsKey], &roles) != nil {
		return nil, false
	}
	return roles, true
}

// pytorchLaunch reads the pytorch containers of a PyTorchJob's training
// roles (its replica specs under spec.specsKey in js): run is the first
// command line given (command then args) that names no torch launcher
// (torchrun, torch.distributed.run or torch.distributed.launch), "" when
// every one given names one or none is given (the image's own entry point,
// unknown here); gpus says whether any has an nvidia.com/gpu limit.
func pytorchLaunch(js []byte, specsKey string) (run string, gpus bool) {
	roles, ok := readRoleTemplates(js, specsKey)
	if !ok {
		return "", false
	}
	for _, k := range slices.Sorted(maps.Keys(roles)) {
		if !strings.EqualFold(k, "Master") && !strings.EqualFold(k, "Worker") {
			continue
		}
		for _, c := range roles[k].Template.Spec.Containers {
			if c.Name != "pytorch" {
				continue
			}
			if _, ok := c.Resources.Limits["nvidia.com/gpu"]; ok {
				gpus = true
			}
			line := strings.Join(append(slices.Clone(c.Command), c.Args...), " ")
			if line != "" && run == "" && !strings.Contains(line, "torchrun") && !strings.Contains(line, "torch.distributed.run") && !strings.Contains(line, "torch.distributed.launch") {
				run = line
			}
		}
	}
	return run, gpus
}

// specKeys are the fields of a TFJob's and a PyTorchJob's spec (Kubeflow's
// v1), each kind's own and the other's (which otherKindFields warns of),
// and the run policy's fields that older versions held in the spec itself.
var specKeys = map[string][]string{
	"TFJob":      {"runPolicy", "successPolicy", "tfReplicaSpecs", "enableDynamicWorker"},
	"PyTorchJob": {"runPolicy", "elasticPolicy", "pytorchReplicaSpecs", "nprocPerNode"},
	"legacy":     {"cleanPodPolicy", "ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit", "schedulingPolicy", "suspend", "managedBy"},
}

// unknownSpecKeys warns of the keys of a job's spec that no kind has (a
// spec.foo was read without a word), with the field each misspells.
func unknownSpecKeys(path string, spec map[string]json.RawMessage, at func(...string) pos, kind string) []string {
	all := slices.Concat(specKeys["TFJob"], specKeys["PyTorchJob"], specKeys["legacy"])
	var out []string
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		if slices.ContainsFunc(all, func(f string) bool { return strings.EqualFold(f, k) }) {
			continue
		}
		hint := ""
		if near := nearestKey(k, specKeys[kind]); near != "" {
			hint = fmt.Sprintf(": did you mean %s?", near)
		}
		out = append(out, fmt.Sprintf("%s: spec.%s: not a field of a %s's spec (it holds %s): not used; the API server drops or refuses a field it does not know%s", at("spec", k).in(path), k, kind, words.And(specKeys[kind]), hint))
	}
	return out
}

// misspeltRole is, for a job without worker replicas, the role of specs
// (under spec.specsKey) that misspells one of the kind's roles (" (Workers:
// did you mean Worker?)"), "" when none does.
func misspeltRole(specs map[string]replicaSpec, specsKey string, roles ...string) string {
	for _, k := range slices.Sorted(maps.Keys(specs)) {
		if slices.ContainsFunc(roles, func(r string) bool { return strings.EqualFold(r, k) }) {
			continue
		}
		if near := nearestKey(k, roles); near != "" {
			return fmt.Sprintf(" (spec.%s.%s: did you mean %s?)", specsKey, k, near)
		}
	}
	return ""
}

// misspeltSpecs is, for a job without worker replicas, the key of its spec
// that misspells the kind's replica specs (" (spec.tfReplicaSpec: did you
// mean tfReplicaSpecs?)"), "" when none does.
func misspeltSpecs(spec map[string]json.RawMessage, kind string) string {
	want := map[string]string{"TFJob": "tfReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs"}[kind]
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		if !strings.EqualFold(k, want) && nearestKey(k, []string{want}) != "" {
			return fmt.Sprintf(" (spec.%s: did you mean %s?)", k, want)
		}
	}
	return ""
}

// otherKindFields warns about the fields of the spec of a job of kind
// kind that are the other kind's (other; the kind's own spec holds
// fields): check does not read them, nor check their contents (a TFJob's
// elasticPolicy was type-checked, and a fault in it failed check). how
// maps each such field to what check does instead. Keys match in any
// case, as the decoder matches them; at places a key path in the file.
func otherKindFields(path string, spec map[string]json.RawMessage, at func(...string) pos, kind, other, fields string, how map[string]string) []string {
	type warning struct {
		at  pos
		msg string
	}
	var ws []warning
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		for _, f := range slices.Sorted(maps.Keys(how)) {
			if strings.EqualFold(k, f) && given(spec[k]) {
				w := at("spec", k)
				ws = append(ws, warning{w, fmt.Sprintf("%s: spec.%s: a %s has no such field (it is a %s's; a %s's spec holds %s): not used, %s; the API server drops or refuses a field it does not know", w.in(path), k, kind, other, kind, fields, how[f])})
			}
		}
	}
	// in file order, as the faults are told (sorted keys where a field
	// has no position)
	slices.SortStableFunc(ws, func(a, b warning) int {
		switch {
		case a.at.before(b.at):
			return -1
		case b.at.before(a.at):
			return 1
		}
		return 0
	})
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.msg
	}
	return out
}

// given reports whether a raw JSON field holds a value (not absent or
// null).
func given(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && string(raw) != "null"
}

// otherRoles warns about the replica roles of specs that check does not
// count (a PyTorchJob's PS, a typo such as "Workers"), naming each: before,
// they were ignored without a word. known are the roles it reads (an
// Evaluator, which does not train, is known and not counted).
func otherRoles(path string, specs map[string]replicaSpec, kind, how string, known ...string) []string {
	var out []string
	for _, r := range slices.Sorted(maps.Keys(specs)) {
		if !slices.ContainsFunc(known, func(k string) bool { return strings.EqualFold(k, r) }) {
			out = append(out, fmt.Sprintf("%s: %s replica role %q is not counted (%s)", path, kind, r, how))
		}
	}
	return out
}

// yamlMergeRE finds a YAML merge key ("<<:" as a key, in block or flow
// style), not any "<<" in the text (a heredoc in an annotation turned the
// duplicate-key check off).
var yamlMergeRE = regexp.MustCompile(`(?m)(^[ \t]*(-[ \t]+)?|[{,][ \t]*)(<<)[ \t]*:`)

// yamlBinaryRE finds a !!binary tag where a token starts.
var yamlBinaryRE = regexp.MustCompile(`(?m)(?:^|[\s\[{,])(!!binary)(?:$|[\s,\]}])`)

// yamlError says a YAML error of sigs.k8s.io/yaml in the project's words:
// "FILE:LINE:COLUMN: not a Kubeflow job manifest: invalid YAML: ..." (column
// 1 where the library names only the line), a key given
// twice as such, at its column in b. Every problem names its line: the
// library names none on line 1 (its count of a parser problem's line
// starts at 0, and a scanner problem's line 0 is left out), none for a
// byte it cannot read (named here at its line and column), and none for
// an alias to an unknown anchor (named at the alias). A block mapping's
// ':' where none may stand ("a: b: c") is named at its column too, where
// the library, read up to that ':', stops there.
func yamlError(path string, b []byte, err error) error {
	line, msg := yamlProblem(err)
	if i := templateAt(b, line); i >= 0 && (line > 0 || strings.HasPrefix(msg, "invalid map key: ")) {
		// a Helm or Go template not rendered: "{{ .Values.workers }}"
		// was "a mapping used as a key", at no place
		return faultf(path, posAt(string(b), i), "not a Kubeflow job manifest: an unrendered template ({{ ... }}): render it first (helm template, or the tool that fills it) and check what it writes")
	}
	if m := yamlDupRE.FindStringSubmatch(msg); m != nil {
		return faultf(path, keyAt(b, m[1], m[2]), "key %q appears twice in its mapping: want each key once (which one holds?)", m[2])
	}
	if kind, ok := strings.CutPrefix(msg, "invalid map key: "); ok {
		// a flow mapping or list, or a block one under "? ", as a key:
		// the library named no line, and the key in Go's syntax
		// ("map[interface {}]interface {}{\"a\":1}")
		kind = map[bool]string{true: "list", false: "mapping"}[strings.HasPrefix(kind, "[]")]
		return faultf(path, mapKeyAt(b, kind), "not a Kubeflow job manifest: a %s used as a key (expected a plain key such as replicas)", kind)
	}
	if strings.HasPrefix(msg, "unsupported map key of type: %!s(<nil>)") {
		// ~, null, !!null or an empty explicit key: the library's
		// message was broken ("%!s(<nil>)") and named no line
		return faultf(path, mapKeyAt(b, "null"), "not a Kubeflow job manifest: a null key (expected a plain key such as replicas; quote a key that is the word null)")
	}
	switch {
	case line > 0 && yamlParserProblem(msg):
		line++
	case line == 0 && (yamlParserProblem(msg) || yamlScannerProblem(msg)):
		line = 1
	}
	// (at most the last line: the end of the stream, where an unclosed
	// "[" is told, is the line after a final line break)
	line = min(line, lastLine(string(b)))
	var where pos
	switch {
	case line > 0:
		// The library's message names the line alone (go.yaml.in/yaml/v2
		// keeps the problem's column in its parser and prints only
		// "line N: "): column 1 of that line, so that every manifest
		// error reads FILE:LINE:COLUMN (a caret-less "m.yaml:2:" stood
		// out among them). The line is the library's.
		where.line, where.col = line, 1
		l := strings.Split(string(b), "\n")[line-1]
		if lead := l[:len(l)-len(strings.TrimLeft(l, " \t"))]; strings.Contains(lead, "\t") && strings.Contains(msg, "cannot start any token") {
			// "found character that cannot start any token" said
			// nothing of the tab it was
			where.col = strings.IndexByte(lead, '\t') + 1
			msg += ": a tab in the indentation (YAML indents with spaces only)"
		}
		if msg == "mapping values are not allowed in this context" {
			if c := yamlColonCol(b, line, msg); c > 0 {
				where.col = c
				if l := strings.Split(string(b), "\n")[line-1]; strings.Contains(l[:c-1], ": ") {
					// "a: b: c": a second value on the line
					msg += ": expected one key: value on a line (quote a value that holds \": \")"
				}
			}
		}
	case yamlReaderProblem(msg):
		where = badByteAt(b)
	case yamlAnchorRE.MatchString(msg):
		m := yamlAnchorRE.FindStringSubmatch(msg)
		where = aliasAt(b, m[1]+m[2])
	case strings.HasPrefix(msg, "!!binary "):
		where = onlyMatchAt(b, yamlBinaryRE)
	case strings.HasPrefix(msg, "map merge "):
		where = onlyMatchAt(b, yamlMergeRE)
	}
	return faultf(path, where, "not a Kubeflow job manifest: invalid YAML: %s", msg)
}

// templateAt is the offset in b of the first unquoted "{{" of a template
// (Helm's, Go's) on the lines about line, the YAML library's line of a fault (0:
// anywhere), -1 when none is there. A comment's "{{" is none: "replicas: 2
// # {{ a }}" above an unclosed "[" was told as a template to render.
func templateAt(b []byte, line int) int {
	unquoted := func(l string, i int) bool {
		return strings.Count(l[:i], `"`)%2 == 0 && strings.Count(l[:i], "'")%2 == 0
	}
	lines := strings.SplitAfter(string(b), "\n")
	starts := make([]int, len(lines))
	for n := 1; n < len(lines); n++ {
		starts[n] = starts[n-1] + len(lines[n-1])
	}
	// the fault's own line first, then the one before and after; any
	// line when the fault has none
	order := []int{line, line - 1, line + 1}
	if line == 0 {
		order = order[:0]
		for n := range lines {
			order = append(order, n+1)
		}
	}
	for _, n := range order {
		if n < 1 || n > len(lines) {
			continue
		}
		l := lines[n-1]
		code := l // the line up to its comment: a '#' first or after a space, unquoted
		for j := range len(l) {
			if l[j] == '#' && (j == 0 || l[j-1] == ' ' || l[j-1] == '\t') && unquoted(l, j) {
				code = l[:j]
				break
			}
		}
		// (not in quotes: a quoted "{{x}}" is a string YAML reads)
		if i := strings.Index(code, "{{"); i >= 0 && unquoted(l, i) {
			return starts[n-1] + i
		}
	}
	return -1
}

// mapKeyAt is the place of the first key in b that is of kind kind, as
// the YAML library refuses them: "mapping" or "list", a flow mapping or
// list used as a key ("{a: 1}: x", "[a]: x", behind an anchor or a tag
// too) or one under an explicit key ("? {a: 1}", "? - a", "? a: 1"), or
// "null", a null key ("~: x", "null: x", "!!null : x", "? ~", an empty
// "?"). Quoted strings and comments are skipped. Else the first complex
// key of either kind, else the first alias used as a key (it may stand for
// one); no place when there is none.
func mapKeyAt(b []byte, kind string) pos {
	text := string(b)
	found := map[string]int{}
	first := func(k string, at int) {
		if _, ok := found[k]; !ok {
			found[k] = at
		}
	}
	prev := byte('\n')
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case strings.IndexByte(",[{:?- \t\r\n", prev) < 0:
		case c == '"' || c == '\'':
			i = quoteEnd(text, i)
		case c == '#':
			for ; i < len(text) && text[i] != '\n'; i++ {
			}
		case c == '{' || c == '[':
			if e := flowClose(text, i); e > 0 && valueIndicatorAt(text, e+1, false) {
				first(map[byte]string{'{': "mapping", '[': "list"}[c], i)
			}
		case c == '?' && (i+1 == len(text) || strings.IndexByte(" \t\r\n", text[i+1]) >= 0):
			if k, at := explicitKeyKind(text, i); k != "" {
				first(k, at)
			}
		case c == '*':
			j := i
			for j < len(text) && strings.IndexByte(" \t\r\n,[]{}", text[j]) < 0 {
				j++
			}
			if valueIndicatorAt(text, j, true) {
				first("alias", i)
			}
		default:
			if j := nullWordEnd(text, i); j > 0 && valueIndicatorAt(text, j, true) {
				first("null", i)
			}
		}
		if i < len(text) {
			prev = text[i]
		}
	}
	order := []string{kind, "alias"}
	if kind != "null" {
		order = []string{kind, "mapping", "list", "alias"}
	}
	for _, k := range order {
		if at, ok := found[k]; ok {
			return posAt(text, at)
		}
	}
	return pos{}
}

// flowClose is the index of the bracket that closes the flow collection
// whose "{" or "[" is at open in text (quoted strings and comments
// skipped); -1 when it does not close.
func flowClose(text string, open int) int {
	depth := 0
	prev := byte(' ')
	for i := open; i < len(text); i++ {
		c := text[i]
		switch {
		case (c == '"' || c == '\'') && strings.IndexByte(",[{:? \t\r\n", prev) >= 0:
			i = quoteEnd(text, i)
		case c == '#' && strings.IndexByte(" \t\r\n", prev) >= 0:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			c = '\n'
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				return i
			}
		}
		if i < len(text) {
			prev = text[i]
		}
	}
	return -1
}

// valueIndicatorAt reports whether a key's ":" stands at i of text, after
// spaces on the line: after a plain key (plain) before white space, the
// end, or a flow indicator; after a flow collection anywhere.
func valueIndicatorAt(text string, i int, plain bool) bool {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i >= len(text) || text[i] != ':' {
		return false
	}
	return !plain || i+1 == len(text) || strings.IndexByte(" \t\r\n,]}", text[i+1]) >= 0
}

// nullWordEnd is the index after a null scalar starting at i of text (~,
// null, Null, NULL, or a !!null tag and the scalar after it on the line);
// -1 when none starts there.
func nullWordEnd(text string, i int) int {
	if strings.HasPrefix(text[i:], "!!null") {
		j := i + len("!!null")
		if j < len(text) && strings.IndexByte(" \t\r\n:", text[j]) < 0 {
			return -1
		}
		for j < len(text) && text[j] != ':' && text[j] != '\n' {
			j++
		}
		return j
	}
	for _, w := range []string{"~", "null", "Null", "NULL"} {
		if j := i + len(w); strings.HasPrefix(text[i:], w) && (j == len(text) || strings.IndexByte(" \t\r\n:", text[j]) >= 0) {
			return j
		}
	}
	return -1
}

// explicitKeyKind is the kind of the key of the explicit key whose "?" is
// at q of text ("mapping", "list" or "null"; "" for another scalar) and
// the index of the key (of the "?" when the key is empty or on the lines
// below).
func explicitKeyKind(text string, q int) (string, int) {
	eol := strings.IndexByte(text[q:], '\n')
	if eol < 0 {
		eol = len(text) - q
	}
	at := q + 1
	for at < q+eol && (text[at] == ' ' || text[at] == '\t') {
		at++
	}
	rest := strings.TrimRight(text[at:q+eol], " \t\r")
	if strings.HasPrefix(rest, "#") {
		rest = ""
	}
	nullTag := false
	for strings.HasPrefix(rest, "&") || strings.HasPrefix(rest, "!") {
		// an anchor or a tag before the key
		tag, after, _ := strings.Cut(rest, " ")
		nullTag = nullTag || tag == "!!null"
		rest = strings.TrimLeft(after, " \t")
	}
	switch {
	case nullTag:
		return "null", q
	case rest == "":
		// the key on the lines below, indented past the "?"; else none
		col := q - strings.LastIndexByte(text[:q], '\n') - 1
		for _, l := range strings.Split(text[min(q+eol+1, len(text)):], "\n") {
			t := strings.TrimLeft(l, " ")
			if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") {
				continue
			}
			switch {
			case len(l)-len(t) <= col:
				return "null", q
			case t == "-" || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "["):
				return "list", q
			case strings.HasPrefix(t, "{") || strings.Contains(t, ": ") || strings.HasSuffix(strings.TrimRight(t, " \t\r"), ":"):
				return "mapping", q
			}
			return "", q
		}
		return "null", q
	case rest[0] == ':' || rest == "~" || rest == "null" || rest == "Null" || rest == "NULL":
		return "null", q
	case rest[0] == '[' || rest == "-" || strings.HasPrefix(rest, "- "):
		return "list", q + strings.Index(text[q:], rest)
	case rest[0] == '{' || rest[0] != '"' && rest[0] != '\'' && (strings.Contains(rest, ": ") || strings.HasSuffix(rest, ":")):
		return "mapping", q + strings.Index(text[q:], rest)
	}
	return "", q
}

// yamlProblem is the problem of a YAML error of sigs.k8s.io/yaml, without
// the library's prefixes, and the line it names (0 when none).
func yamlProblem(err error) (line int, msg string) {
	msg = err.Error()
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.TrimSpace(strings.TrimPrefix(msg, "unmarshal errors:"))
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil && !yamlDupRE.MatchString(msg) {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n, strings.TrimSpace(m[2])
		}
	}
	return 0, msg
}

// yamlColonCol is the column of the ':' on line (1-based) of b where the
// YAML library stops with the problem msg ("mapping values are not
// allowed in this context"): the first ':' of the line such that b read up
// to it, the lines below left out, draws msg at that line (each try reads
// the lines above again: at most 16 are tried); 0 when none does.
func yamlColonCol(b []byte, line int, msg string) int {
	lines := strings.SplitAfter(string(b), "\n")
	if line < 1 || line > len(lines) {
		return 0
	}
	head, l := strings.Join(lines[:line-1], ""), lines[line-1]
	for i, tries := 0, 0; i < len(l) && tries < 16; i++ {
		// a value indicator: a ':' before white space or the line's
		// end, or after a quoted key ("a":b)
		if l[i] != ':' || i+1 < len(l) && !strings.ContainsRune(" \t\r\n", rune(l[i+1])) && (i == 0 || l[i-1] != '"' && l[i-1] != '\'') {
			continue
		}
		tries++
		_, err := yaml.YAMLToJSON([]byte(head + l[:i+1] + "\n"))
		if err == nil {
			continue
		}
		if n, m := yamlProblem(err); m == msg && max(n, 1) == line {
			return i + 1
		}
	}
	return 0
}

// yamlScannerProblem reports whether msg is one of the problems of the
// YAML library's scanner (go.yaml.in/yaml/v2, scannerc.go): it names
// their line from 1, and none on line 1.
func yamlScannerProblem(msg string) bool {
	switch msg {
	case "mapping values are not allowed in this context", "mapping keys are not allowed in this context",
		"block sequence entries are not allowed in this context",
		"found character that cannot start any token", "found unknown escape character",
		"found unknown directive name", "found unexpected non-alphabetical character",
		"found unexpected end of stream", "found unexpected document indicator",
		"found invalid Unicode character escape code", "found extremely long version number",
		"found a tab character where an indentation space is expected",
		"found a tab character that violates indentation", "found an indentation indicator equal to 0",
		"did not find the expected '>'", "did not find expected whitespace",
		"did not find expected whitespace or line break", "did not find expected comment or line break",
		"did not find expected version number", "did not find expected hexdecimal number",
		"did not find expected digit or '.' character", "did not find expected alphabetic or numeric character",
		"could not find expected directive name", "could not find expected ':'":
		return true
	}
	return strings.HasPrefix(msg, "exceeded max depth of ")
}

// yamlReaderProblem reports whether msg is one of the problems of the YAML
// library's reader (readerc.go), which names no line: a byte that is not
// UTF-8, or a character YAML does not allow.
func yamlReaderProblem(msg string) bool {
	switch msg {
	case "control characters are not allowed", "invalid Unicode character",
		"invalid leading UTF-8 octet", "invalid trailing UTF-8 octet",
		"incomplete UTF-8 octet sequence", "invalid length of a UTF-8 sequence":
		return true
	}
	return false
}

// badByteAt is the place of the first byte of b that the YAML library's
// reader refuses: one that is not UTF-8, or a character outside YAML's set
// (a control character other than tab and line breaks, a surrogate, U+FFFE
// or U+FFFF); no place when there is none.
func badByteAt(b []byte) pos {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		ok := r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7e || r == 0x85 ||
			r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff
		if r == utf8.RuneError && n == 1 || !ok {
			return posAt(string(b), i)
		}
		i += n
	}
	return pos{}
}

// onlyMatchAt is the place of the one match of re in b (of its last
// group): the place of a problem the YAML library names no line for, when
// only one thing in the file can be it; no place when re matches none or
// more than one.
func onlyMatchAt(b []byte, re *regexp.Regexp) pos {
	m := re.FindAllSubmatchIndex(b, 2)
	if len(m) != 1 {
		return pos{}
	}
	return posAt(string(b), m[0][len(m[0])-2])
}

// aliasAt is the place of the first alias to the anchor name in b ("*name"
// where a token starts: at a line's start, after white space or a flow
// indicator, and not before a name's byte), outside quoted strings and
// comments (a "*name" there was taken); no place when there is none.
func aliasAt(b []byte, name string) pos {
	text, alias := string(b), "*"+name
	prev := byte('\n')
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch end := i + len(alias); {
		case !strings.ContainsRune(",[{:?- \t\r\n", rune(prev)):
		case c == '"' || c == '\'':
			i = quoteEnd(text, i)
		case c == '#':
			for ; i < len(text) && text[i] != '\n'; i++ {
			}
		case strings.HasPrefix(text[i:], alias) && (end == len(text) || !strings.ContainsRune("_-0123456789", rune(text[end])) && !('a' <= text[end]|32 && text[end]|32 <= 'z')):
			return posAt(text, i)
		}
		if i < len(text) {
			prev = text[i]
		}
	}
	return pos{}
}

// yamlParserProblem reports whether msg is one of the problems of the YAML
// library's parser (go.yaml.in/yaml/v2, parserc.go), as against its
// scanner's: the library names a parser problem's line counted from 0
// (parser.fail adds 1 to a scanner problem's line alone), one above the
// line in fault ("found undefined tag handle" at line 8 for a tag at line
// 9), and no line for line 1, where that count is 0.
func yamlParserProblem(msg string) bool {
	switch strings.TrimSpace(msg) {
	case "did not find expected <stream-start>", "did not find expected <document start>",
		"found undefined tag handle", "did not find expected node content",
		"did not find expected '-' indicator", "did not find expected key",
		"did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"found duplicate %YAML directive", "found incompatible YAML document",
		"found duplicate %TAG directive":
		return true
	}
	return false
}

// keyAt is the place of key at the start of the line the YAML library
// named (1-based, as a string) or of the nearest line above it that is not
// blank or a comment (the library names the line of a nested mapping's
// first key, below its own key), quoted or not; the line alone when key is
// on neither.
func keyAt(b []byte, line, key string) pos {
	n, err := strconv.Atoi(line)
	if err != nil {
		return pos{}
	}
	// an explicit key ("? a") the library names on the line below it:
	// past the last line when it is there
	n = min(n, lastLine(string(b)))
	lines := strings.Split(string(b), "\n")
	if key == "" {
		return pos{n, 0}
	}
	// the named line, then the nearest line above it that is neither
	// blank nor a comment
	cands := []int{n}
	for l := n - 1; l >= 1 && l <= len(lines); l-- {
		if t := strings.TrimSpace(lines[l-1]); t != "" && !strings.HasPrefix(t, "#") {
			cands = append(cands, l)
			break
		}
	}
	for _, l := range cands {
		if l < 1 || l > len(lines) {
			continue
		}
		text := strings.TrimRight(lines[l-1], "\r")
		rest := strings.TrimLeft(text, " \t-")
		explicit := strings.HasPrefix(rest, "? ")
		if explicit {
			rest = strings.TrimLeft(rest[2:], " \t")
		}
		for _, k := range []string{key, `"` + key + `"`, "'" + key + "'"} {
			after := strings.TrimLeft(strings.TrimPrefix(rest, k), " \t")
			if strings.HasPrefix(rest, k) && (strings.HasPrefix(after, ":") || explicit && (after == "" || strings.HasPrefix(after, "#"))) {
				return pos{l, len(text) - len(rest) + 1}
			}
		}
	}
	return pos{n, 0}
}

var (
	yamlDupRE  = regexp.MustCompile(`line (\d+): key "?([^"]*?)"? already set in map`)
	yamlLineRE = regexp.MustCompile(`^line (\d+): (.*)`)
	// an alias to no anchor, or to the node it stands in
	yamlAnchorRE = regexp.MustCompile(`^(?:unknown anchor '(.*)' referenced|anchor '(.*)' value contains itself)$`)
)

// jsonKind names the kind of the JSON value v (trimmed, not null) in a
// manifest's words: list, mapping, string, true or false, or number.
func jsonKind(v []byte) string {
	switch v[0] {
	case '[':
		return "list"
	case '{':
		return "mapping"
	case '"':
		return "string"
	case 't', 'f':
		return "true or false"
	}
	return "number"
}

// yamlKindOf names the kind of the JSON value js (trimmed, not null), a
// scalar with its value: "a list", "a scalar 5".
func yamlKindOf(js []byte) string {
	switch k := jsonKind(js); k {
	case "list", "mapping", "string":
		return "a " + k
	}
	return "a scalar " + string(js)
}

// firstContent is the place of the first character of b that is not
// white space or a comment (1:1 when there is none).
func firstContent(b []byte) pos {
	for i, raw := range strings.Split(string(b), "\n") {
		t := strings.TrimLeft(raw, " \t")
		if t == "" || strings.HasPrefix(t, "#") || strings.TrimSpace(t) == "---" || strings.TrimSpace(t) == "" {
			continue
		}
		return pos{i + 1, len(raw) - len(t) + 1}
	}
	return pos{1, 1}
}

// yamlValuePos is the place of the value of the key path keys in a
// block-style YAML document (no place when it is not found there, as in
// flow style): the column of the value after "key:" (or on the ": value"
// line below an explicit key, "? key"), or of the key when the value is a
// nested block.
func yamlValuePos(b []byte, keys []string) pos {
	_, v := yamlPlace(b, keys)
	return v
}

// yamlKeyPos is the place of the last key of the key path keys in a
// block-style YAML document (after "? " for an explicit key); no place
// when it is not found there.
func yamlKeyPos(b []byte, keys []string) pos {
	k, _ := yamlPlace(b, keys)
	return k
}

// yamlPlace is the places of the last key of keys and of its value
// (yamlValuePos) in a block-style YAML document.
func yamlPlace(b []byte, keys []string) (key, value pos) {
	// the keys as written, else in any case, as encoding/json matches
	// them (a role given twice, "Worker" and "worker", is each at its own)
	if k, v := yamlPlaceBy(b, keys, func(a, b string) bool { return a == b }); v.line > 0 {
		return k, v
	}
	return yamlPlaceBy(b, keys, strings.EqualFold)
}

// yamlPlaceBy is yamlPlace with keys compared by eq.
func yamlPlaceBy(b []byte, keys []string, eq func(a, b string) bool) (key, value pos) {
	var stack []yamlLevel
	explicit := pos{} // keys' explicit key, its value on the line below
	for i, raw := range strings.Split(string(b), "\n") {
		line := strings.TrimRight(raw, " \t\r")
		t := strings.TrimLeft(line, " ")
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "- ") || isDirective([]byte(line)) {
			// (a directive, "%TAG !e! tag:example.com,2000:", is no
			// key: a List item below it was not placed)
			continue
		}
		indent := len(line) - len(t)
		if explicit.line > 0 {
			// ": value" at the key's indentation
			if v := strings.TrimLeft(t[1:], " "); t[0] == ':' && indent == stack[len(stack)-1].indent && v != "" && !strings.HasPrefix(v, "#") {
				return explicit, pos{i + 1, len(line) - len(v) + 1}
			}
			return explicit, explicit
		}
		k, val, ok := strings.Cut(t, ":")
		q := "" // an explicit key's text: "? key", its value on a ": value" line
		if t == "?" || strings.HasPrefix(t, "? ") {
			q = strings.TrimLeft(t[1:], " ")
			k, val, ok = strings.Split(q, " #")[0], "", true
		}
		if !ok || t[0] == ':' || strings.ContainsAny(k, "{}[],") {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, yamlLevel{indent, strings.Trim(strings.TrimSpace(k), `"'`)})
		if !slices.EqualFunc(keysOf(stack), keys, eq) {
			continue
		}
		if t[0] == '?' {
			explicit = pos{i + 1, len(line) - len(q) + 1}
			continue
		}
		key = pos{i + 1, indent + 1}
		if v := strings.TrimLeft(val, " "); v != "" && !strings.HasPrefix(v, "#") {
			return key, pos{i + 1, indent + len(k) + 1 + len(val) - len(v) + 1}
		}
		return key, key
	}
	return explicit, explicit
}

// yamlDocuments is the documents of a YAML stream that hold anything but
// comments, each as the lines [from, to) of b (a document's "---" line
// is its first, its "..." line its last; after a "..." a document may
// start bare): sigs.k8s.io/yaml reads the first alone, so a file of a
// Service and a job would be judged on the Service.
func yamlDocuments(b []byte) [][2]int {
	var docs [][2]int
	lines := bytes.Split(b, []byte("\n"))
	from, content := 0, false
	for i, line := range lines {
		t := strings.TrimSpace(string(line))
		// a document marker stands at column 0 (an indented "---" is a
		// block scalar's text)
		if l := strings.TrimRight(string(line), " \t\r"); l == "---" || strings.HasPrefix(l, "--- ") {
			if content {
				docs = append(docs, [2]int{from, i})
			}
			from, content = i, false
			if rest := strings.TrimSpace(l[3:]); rest != "" && !strings.HasPrefix(rest, "#") {
				content = true // "--- {kind: TFJob}"
			}
			continue
		}
		if l := strings.TrimRight(string(line), " \t\r"); l == "..." || strings.HasPrefix(l, "... ") {
			// a document's end: what follows is the next document, with
			// a "---" or bare (YAML 1.2: "kind: Service", "...", then
			// "kind: TFJob" are two documents; the job was read as part
			// of the Service's, and check judged the Service)
			if content {
				docs = append(docs, [2]int{from, i + 1})
			}
			from, content = i+1, false
			continue
		}
		if t != "" && !strings.HasPrefix(t, "#") && (content || !isDirective(line)) {
			content = true
		}
	}
	if content {
		docs = append(docs, [2]int{from, len(lines)})
	}
	return docs
}

// isDirective reports whether line is a YAML directive ("%YAML 1.2",
// "%TAG ! tag:example.com,2000:"): a "%" at column 0, where a document's
// content cannot start. Before a document it is the stream's prologue,
// no document of its own (a "%YAML 1.2" line was judged as one: "holds 2
// YAML documents").
func isDirective(line []byte) bool {
	return len(line) > 0 && line[0] == '%'
}

// yamlDirectives blanks the %YAML directive lines of the prologue of the
// documents in b (the YAML library refuses any version but 1.1: "found
// incompatible YAML document", though a Kubernetes manifest reads the same
// in YAML 1.2), keeping the lines, so that positions stay the file's. A
// version other than 1.x is refused at its line and column.
func yamlDirectives(path string, b []byte) ([]byte, error) {
	lines := bytes.Split(b, []byte("\n"))
	content, changed := false, false
	seen := 0 // the line of the prologue's %YAML directive, 0 none
	for i, line := range lines {
		l := strings.TrimRight(string(line), " \t\r")
		switch {
		case l == "---" || strings.HasPrefix(l, "--- ") || l == "..." || strings.HasPrefix(l, "... "):
			// a document starts (directives stand before it) or ends
			// (directives may follow)
			content = l[0] == '-'
			seen = 0
			continue
		case strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#"):
			continue
		case content || !isDirective(line):
			content = true
			continue
		}
		f := strings.Fields(l)
		if strings.HasPrefix(f[0], "%YAML") && f[0] != "%YAML" {
			return nil, faultf(path, pos{i + 1, 6}, "%%YAML directive %q: expected a space before the version (%%YAML 1.2)", f[0])
		}
		if f[0] != "%YAML" {
			continue // %TAG and reserved directives the library reads
		}
		if seen > 0 {
			// YAML: "more than one YAML directive for the same
			// document" is an error
			return nil, faultf(path, pos{i + 1, 1}, "a second %%YAML directive for one document (line %d has one): expected one", seen)
		}
		seen = i + 1
		if len(f) > 2 && !strings.HasPrefix(f[2], "#") {
			return nil, faultf(path, pos{i + 1, strings.Index(l, f[2]) + 1}, "%%YAML directive: %q after the version: expected the version alone (%%YAML 1.2)", f[2])
		}
		if len(f) < 2 || !yamlVersionRE.MatchString(f[1]) {
			col := len(f[0]) + 2
			what := "no version"
			if len(f) >= 2 {
				col = strings.Index(l, f[1]) + 1
				what = "version " + f[1]
			}
			return nil, faultf(path, pos{i + 1, col}, "%%YAML directive with %s: expected YAML 1.1 or 1.2 (%%YAML 1.2)", what)
		}
		lines[i] = bytes.Repeat([]byte(" "), len(line))
		changed = true
	}
	if !changed {
		return b, nil
	}
	return bytes.Join(lines, []byte("\n")), nil
}

var yamlVersionRE = regexp.MustCompile(`^1\.[0-9]+$`)

// jobDocument picks, among the documents docs of the stream b (the file
// path), the one Kubeflow job, as kubectl apply -f would send a Service
// beside it: b up to the job's end with every line before it blank and its
// "---" turned to spaces, so that lines and columns stay those of the file.
// A List (kubectl get -o yaml prints one) counts as its items, each one
// blanked around in the same way (listItems). None, two jobs, or a
// document that is not YAML are errors naming the documents or items.
func jobDocument(path string, b []byte, docs [][2]int) ([]byte, error) {
	lines := strings.Split(string(b), "\n")
	only := func(d [2]int, dirs []int) []byte {
		// the lines after it dropped: a parser's "end of file" is its end
		out := make([]string, d[1])
		for i := d[0]; i < d[1]; i++ {
			out[i] = lines[i]
			if l := strings.TrimRight(out[i], " \t\r"); i == d[0] && len(dirs) == 0 && (l == "---" || strings.HasPrefix(l, "--- ")) {
				out[i] = "   " + out[i][3:]
			}
		}
		// its directives, and its "---" kept above: YAML takes
		// directives before a "---" only
		for _, i := range dirs {
			out[i] = lines[i]
		}
		return []byte(strings.Join(out, "\n"))
	}
	var jobs, others []string
	var job []byte
	lists, objects := 0, 0
	// kindOf is the kind of the document or item doc and where it is
	kindOf := func(doc []byte) (kind string, where pos, items json.RawMessage, err error) {
		var k struct {
			Kind  any             `json:"kind"`
			Items json.RawMessage `json:"items"`
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return "", pos{}, nil, yamlError(path, doc, err) // at its line in the file
		}
		if json.Unmarshal(js, &k) != nil {
			// not a mapping: said at its line
			_, err := parseManifest(path, doc)
			if err == nil {
				err = faultf(path, firstContent(doc), "not a Kubeflow job manifest: expected a mapping of apiVersion, kind and spec")
			}
			return "", pos{}, nil, err
		}
		kind, _ = k.Kind.(string)
		if where = yamlValuePos(doc, []string{"kind"}); where.line == 0 {
			where = firstContent(doc)
		}
		return kind, where, k.Items, nil
	}
	add := func(kind string, where pos, doc []byte) {
		objects++
		switch {
		case kind == "TFJob" || kind == "PyTorchJob":
			jobs = append(jobs, fmt.Sprintf("%s at %s", kind, where))
			job = doc
		case kind == "":
			others = append(others, fmt.Sprintf("no kind at %s", where))
		default:
			others = append(others, fmt.Sprintf("%s at %s", kind, where))
		}
	}
	var listAt pos
	for _, d := range docs {
		dirs, err := prologue(path, lines, d[0])
		if err != nil {
			return nil, err
		}
		doc := only(d, dirs)
		kind, where, items, err := kindOf(doc)
		if err != nil {
			return nil, err
		}
		if !isListKind(kind, items) {
			add(kind, where, doc)
			continue
		}
		// a List, as kubectl get -o yaml prints: its items one by one
		lists++
		listAt = where
		var raw []json.RawMessage
		if given(items) && json.Unmarshal(items, &raw) != nil {
			return nil, faultf(path, yamlValuePos(doc, []string{"items"}), "not a Kubeflow job manifest: the items of a %s hold %s where a list was expected", kind, yamlKindOf(bytes.TrimSpace(items)))
		}
		if len(raw) == 0 {
			continue
		}
		ds, err := listItems(path, doc, len(raw))
		if err != nil {
			return nil, err
		}
		if l := strings.TrimSpace(lines[d[0]]); len(dirs) > 0 && (l == "---" || strings.HasPrefix(l, "--- #")) {
			// each item keeps the List's directives and its "---"
			// (bare: a "--- kind: List" line is the List's)
			for k, item := range ds {
				out := strings.Split(string(item), "\n")
				for _, i := range append(dirs, d[0]) {
					if i < len(out) {
						out[i] = lines[i]
					}
				}
				ds[k] = []byte(strings.Join(out, "\n"))
			}
		}
		for _, item := range ds {
			if _, err := yaml.YAMLToJSON(item); err != nil && strings.Contains(err.Error(), "unknown anchor") {
				return nil, faultf(path, firstContent(item), "a List item that refers to an anchor outside it (%s): check reads each item alone; give the job alone (kubectl get tfjob NAME -o yaml)", strings.TrimPrefix(strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "), "yaml: "))
			}
			kind, where, _, err := kindOf(item)
			if err != nil {
				return nil, err
			}
			add(kind, where, item)
		}
	}
	switch len(jobs) {
	case 1:
		return job, nil
	case 0:
		switch {
		case lists == 0:
			return nil, fmt.Errorf("check: %s: none of its %d YAML documents is a TFJob or PyTorchJob (%s): expected one Kubeflow job", path, len(docs), strings.Join(others, ", "))
		case objects == 0:
			return nil, faultf(path, listAt, "a List of no items: expected a Kubeflow TFJob or PyTorchJob among them")
		case len(docs) == 1:
			return nil, fmt.Errorf("check: %s: none of the %d items of its List (kind at %s) is a TFJob or PyTorchJob (%s): expected one Kubeflow job", path, objects, listAt, strings.Join(others, ", "))
		}
		return nil, fmt.Errorf("check: %s: none of the %d objects of its %d YAML documents (a List's items one by one) is a TFJob or PyTorchJob (%s): expected one Kubeflow job", path, objects, len(docs), strings.Join(others, ", "))
	}
	if lists > 0 && len(docs) == 1 {
		return nil, fmt.Errorf("check: %s: its List (kind at %s) holds %d Kubeflow jobs (%s): give a file with one (check judges one job)", path, listAt, len(jobs), strings.Join(jobs, ", "))
	}
	return nil, fmt.Errorf("check: %s: holds %d Kubeflow jobs (%s): give a file with one (check judges one job)", path, len(jobs), strings.Join(jobs, ", "))
}

// prologue is the lines (indexes into lines) of the directives of the
// document whose first line is first (its "---"), as YAML 1.2 reads them:
// the directive lines between the start of the stream, or a "..." that
// ends the document above, and the document's "---". They apply to that
// document alone: jobDocument kept the document from its "---" down, so a
// %TAG directive before a job that was not the first document was dropped
// ("found undefined tag handle" where the job used it). A directive with
// the content of the document above, or its "---", above it and no "..."
// between is in that document, where YAML 1.2 has no directive: an error
// at its line.
func prologue(path string, lines []string, first int) ([]int, error) {
	if l := strings.TrimRight(lines[first], " \t\r"); l != "---" && !strings.HasPrefix(l, "--- ") {
		return nil, nil // no "---": directives above would stand in it
	}
	var dirs []int
	for i := first - 1; i >= 0; i-- {
		l := strings.TrimRight(lines[i], " \t\r")
		switch t := strings.TrimSpace(l); {
		case t == "" || strings.HasPrefix(t, "#"):
			continue
		case isDirective([]byte(l)):
			dirs = append(dirs, i)
			continue
		case l == "..." || strings.HasPrefix(l, "... "):
			return dirs, nil
		}
		if len(dirs) > 0 {
			top := dirs[len(dirs)-1]
			return nil, faultf(path, pos{top + 1, 1}, "%s directive inside the document above it (line %d; no ... ends that document before the directive): YAML 1.2 takes a document's directives only at the start of the stream or after a ... line: expected a ... line above it", strings.Fields(lines[top])[0], i+1)
		}
		return nil, nil
	}
	return dirs, nil
}

// isList reports whether the one document b is a List (isListKind).
func isList(b []byte) bool {
	js, err := yaml.YAMLToJSON(b)
	if err != nil {
		return false
	}
	var k struct {
		Kind  any             `json:"kind"`
		Items json.RawMessage `json:"items"`
	}
	if json.Unmarshal(js, &k) != nil {
		return false
	}
	kind, _ := k.Kind.(string)
	return isListKind(kind, k.Items)
}

// yamlLevel is one key of a block-style YAML path and its indentation.
type yamlLevel struct {
	indent int
	key    string
}

// keysOf is the keys of a path of levels.
func keysOf(ls []yamlLevel) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.key)
	}
	return out
}

// manifestType names what a manifest field of Go type t holds, for
// people: a replica role is a mapping with replicas, spec a mapping.
func manifestType(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[replicaSpec]():
		return "a replica spec (a mapping with replicas and template)"
	case t == reflect.TypeFor[map[string]replicaSpec]():
		return "a mapping of replica roles (Worker, PS, ...) to their specs"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.Pointer:
		return manifestType(t.Elem())
	}
	return t.Kind().String()
}

// typeFaults appends to faults a fault for each value, in v (the JSON
// form of manifest b, at the key path keys), that a field of type t
// check reads cannot hold, said at its line and column in b: kind:
// [TFJob] is "kind holds a list where a string was expected". Keys match
// fields in any case, as the decoder matches them; fields check does not
// read are not looked at, nor the inside of a replica spec (badReplicas
// says what is wrong with its replicas). A YAML boolean word is told as
// written: "yes (read as a YAML boolean)".
func typeFaults(path string, b []byte, v json.RawMessage, t reflect.Type, keys []string, faults []error) []error {
	v = bytes.TrimSpace(v)
	if !given(v) || t == reflect.TypeFor[json.RawMessage]() {
		return faults
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	got := jsonKind(v)
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		if v[0] != '{' {
			break
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil || t == reflect.TypeFor[replicaSpec]() {
			return faults
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if ft, ok := fieldType(t, k); ok {
				faults = typeFaults(path, b, m[k], ft, append(slices.Clip(keys), k), faults)
			}
		}
		return faults
	case reflect.String:
		if v[0] == '"' {
			return faults
		}
	case reflect.Int:
		var n int
		if json.Unmarshal(v, &n) == nil {
			return faults
		}
		if got == "number" {
			got += " " + string(v) // 2.5, or beyond an int
		}
	default:
		return faults
	}
	p := valuePos(b, keys)
	field := strings.Join(keys, ".")
	if field == "" {
		field = "the document"
	}
	what := "a " + got
	if w := yamlShown(b, p, v); w != string(v) {
		what = w // "yes (read as a YAML boolean)"
	}
	return append(faults, faultf(path, p, "not a Kubeflow job manifest: %s holds %s where %s was expected", field, what, manifestType(t)))
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

// caseTwiceType is the one type caseTwiceFaults walks for a manifest of
// the kind whose fields (a pointer to tfFields or ptFields) check reads:
// manifestHead with the kind's spec in place of the mapping; manifestHead
// itself for another kind (fields nil). Walking the head and the fields
// apart told a key of both (spec) twice.
func caseTwiceType(fields any) reflect.Type {
	h := reflect.TypeFor[manifestHead]()
	if fields == nil {
		return h
	}
	spec, _ := reflect.TypeOf(fields).Elem().FieldByName("Spec")
	fs := make([]reflect.StructField, 0, h.NumField())
	for f := range h.Fields() {
		if f.Name == spec.Name {
			f = spec
		}
		f.Index, f.Offset = nil, 0
		fs = append(fs, f)
	}
	return reflect.StructOf(fs)
}

// caseTwiceFaults appends to faults a fault for each key of a mapping
// that check decodes into a struct (type t, at the key path keys of v,
// the JSON form of manifest b) given twice in different cases
// ("replicas: 2" and "Replicas: 3"): the decoder reads a struct's keys in
// any case, so it read whichever came last and dropped the other without
// a word. Each is told at the second in the file, naming every spelling
// in file order (the YAML library refuses a key given twice in one case).
// It walks the structs and maps (the replica roles) check reads; a map's
// own keys are exact (two spellings of a role are refused where the role
// is read).
func caseTwiceFaults(path string, b []byte, v json.RawMessage, t reflect.Type, keys []string, faults []error) []error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '{' || t.Kind() != reflect.Struct && t.Kind() != reflect.Map {
		return faults
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil {
		return faults
	}
	ks := slices.Sorted(maps.Keys(m))
	if t.Kind() == reflect.Struct {
		told := map[string]bool{}
		for i, k := range ks {
			name := fieldName(t, k)
			if told[k] || name == "" {
				continue
			}
			same := []string{k}
			for _, k2 := range ks[i+1:] {
				if strings.EqualFold(k, k2) {
					same, told[k2] = append(same, k2), true
				}
			}
			if len(same) < 2 {
				continue
			}
			// in file order, those at no place last
			type spelling struct {
				key string
				at  pos
			}
			sp := make([]spelling, len(same))
			for j, k := range same {
				sp[j] = spelling{k, keyPos(b, append(slices.Clip(keys), k))}
			}
			slices.SortStableFunc(sp, func(a, b spelling) int {
				switch {
				case a.at.before(b.at):
					return -1
				case b.at.before(a.at):
					return 1
				}
				return 0
			})
			at := sp[1].at
			if at.line < 1 {
				at = sp[0].at
			}
			field := strings.Join(append(slices.Clip(keys), name), ".")
			// every spelling named: three named the first two
			times, dropped, quoted := "twice", "one", make([]string, len(sp))
			if len(sp) > 2 {
				times, dropped = fmt.Sprintf("%d times", len(sp)), "all but one"
			}
			for j, x := range sp {
				quoted[j] = strconv.Quote(x.key)
			}
			faults = append(faults, faultf(path, at, "%s given %s, as %s: keys are read in any case, so %s would be dropped without a word; want it once", field, times, words.And(quoted), dropped))
		}
	}
	for _, k := range ks {
		if ft, ok := fieldType(t, k); ok {
			faults = caseTwiceFaults(path, b, m[k], ft, append(slices.Clip(keys), k), faults)
		}
	}
	return faults
}

// fieldName is the JSON name of the field of the struct type t that the
// decoder fills from the key k (fieldType); "" when none.
func fieldName(t reflect.Type, k string) string {
	var fold string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == k:
			return name
		case fold == "" && strings.EqualFold(name, k):
			fold = name
		}
	}
	return fold
}

// fieldType is the type of the field of the struct or map type t that
// the decoder fills from the key k: a struct's field by its JSON name, an
// exact match first, else one in any case; false when none.
func fieldType(t reflect.Type, k string) (reflect.Type, bool) {
	if t.Kind() == reflect.Map {
		return t.Elem(), true
	}
	var fold reflect.Type
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == k:
			return f.Type, true
		case fold == nil && strings.EqualFold(name, k):
			fold = f.Type
		}
	}
	return fold, fold != nil
}

// badReplicas finds, in the JSON form js of manifest b, the replica
// roles (of spec.specsKey, the job's kind's) whose replicas is not a
// whole number (typeFaults tells a spec that is not a mapping), and says
// so of each
// (parseManifest tells the first in the file: a user fixes a file from
// the top; it named the first by sorted role names) at its line and
// column (block style by yamlValuePos, flow style by flowPathPos), in
// one wording for both styles:
// "spec.tfReplicaSpecs.Worker.replicas is "four": want a whole number of
// replicas >= 0" (block style said "expected a whole number >= 0", flow
// style "want a whole number of replicas"); none when every role is a
// replicas a number.
func badReplicas(path string, b, js []byte, specsKey string) []error {
	var doc struct {
		Spec map[string]json.RawMessage `json:"spec"`
	}
	if json.Unmarshal(js, &doc) != nil {
		return nil
	}
	var faults []error
	for _, key := range slices.Sorted(maps.Keys(doc.Spec)) {
		// the key the decoder reads (in any case, as encoding/json
		// matches it)
		if !strings.EqualFold(key, specsKey) {
			continue
		}
		specsKey := key
		var roles map[string]json.RawMessage
		if json.Unmarshal(doc.Spec[specsKey], &roles) != nil {
			continue // not a mapping: the decoder's error says so
		}
		for _, role := range slices.Sorted(maps.Keys(roles)) {
			var spec map[string]json.RawMessage
			if json.Unmarshal(roles[role], &spec) != nil {
				continue
			}
			// "replicas" in any case, as the decoder reads it: each
			// (beside replicas: 2, a Replicas: [1] was the decoder's
			// error, told without the role or a place)
			for _, k := range slices.Sorted(maps.Keys(spec)) {
				raw := spec[k]
				var n int
				if !strings.EqualFold(k, "replicas") || json.Unmarshal(raw, &n) == nil || string(raw) == "null" {
					continue
				}
				p := valuePos(b, []string{"spec", specsKey, role, k})
				if p.line == 0 {
					p = valuePos(b, []string{"spec", specsKey, role})
				}
				if f, err := strconv.ParseFloat(string(raw), 64); err == nil && f == math.Trunc(f) && f > maxCount {
					// whole, beyond an int: too large, not "not whole"
					faults = append(faults, faultf(path, p, "spec.%s.%s.replicas is %s: too large, want at most %d", specsKey, role, raw, maxCount))
					continue
				}
				hint := ""
				var str string
				if json.Unmarshal(raw, &str) == nil {
					if v, err := strconv.Atoi(strings.TrimSpace(str)); err == nil && v >= 0 {
						// Kubernetes takes replicas as an integer: "4" is
						// refused there too
						hint = fmt.Sprintf(", not a string (write replicas: %d, without quotes)", v)
					}
				}
				faults = append(faults, faultf(path, p, "spec.%s.%s.replicas is %s: want a whole number of replicas >= 0%s", specsKey, role, yamlShown(b, p, raw), hint))
			}
		}
	}
	return faults
}

// replicaSpecKeys are the fields of Kubeflow's ReplicaSpec, the spec of
// one replica role.
var replicaSpecKeys = []string{"replicas", "template", "restartPolicy"}

// unknownReplicaKeys refuses a key of a replica role's spec (under
// spec.specsKey) that is not one of replicaSpecKeys as written: Kubernetes
// reads keys in their case and refuses an unknown field (kubectl's strict
// validation) or drops it, when the role runs its default of 1 replica. A
// "replica: 8" was read as no count, and a CI gate said fine at 1 worker.
// A key that is a field in another case (Replicas) is told by the faults
// of the field given twice, or else here.
func unknownReplicaKeys(path string, b, js []byte, specsKey string) []error {
	var doc struct {
		Spec map[string]json.RawMessage `json:"spec"`
	}
	if json.Unmarshal(js, &doc) != nil {
		return nil
	}
	var roles map[string]json.RawMessage
	if json.Unmarshal(doc.Spec[specsKey], &roles) != nil {
		return nil
	}
	var faults []error
	for _, role := range slices.Sorted(maps.Keys(roles)) {
		var spec map[string]json.RawMessage
		if json.Unmarshal(roles[role], &spec) != nil {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(spec)) {
			if slices.Contains(replicaSpecKeys, k) || slices.ContainsFunc(slices.Collect(maps.Keys(spec)), func(o string) bool { return o != k && strings.EqualFold(o, k) }) {
				// (a field given twice in two cases is told as such)
				continue
			}
			hint, drops := "", "drops it"
			near := nearestKey(k, replicaSpecKeys)
			if near != "" {
				hint = fmt.Sprintf(": did you mean %s?", near)
			}
			if _, given := spec["replicas"]; !given {
				// (said beside a replicas given too, of a restartpolicy)
				drops = "drops it, and the role runs 1 replica"
			}
			p := keyPos(b, []string{"spec", specsKey, role, k})
			faults = append(faults, faultf(path, p, "spec.%s.%s.%s: not a field of a replica role (Kubeflow's are replicas, template and restartPolicy, in that case; Kubernetes refuses another key or %s)%s", specsKey, role, k, drops, hint))
		}
	}
	return faults
}

// nearestKey is the key of keys that k is a misspelling of (the same in
// another case, or at most 2 edits away), "" when none is.
func nearestKey(k string, keys []string) string {
	best, bestD := "", 3
	for _, c := range keys {
		if strings.EqualFold(k, c) {
			return c
		}
		if d := editDistance(strings.ToLower(k), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// yamlShown is how a message shows the value raw (its JSON form) found at
// p in b: as written, where the YAML library read a word
// as a boolean (YAML 1.1: y, yes, on, n, no, off in any of their cases),
// "y (read as a YAML boolean)" (the JSON form said "true", which the file
// does not); else raw.
func yamlShown(b []byte, p pos, raw json.RawMessage) string {
	if r := string(bytes.TrimSpace(raw)); r != "true" && r != "false" {
		return string(raw)
	}
	text := string(b)
	i := p.offset(text)
	if i < 0 {
		return string(raw)
	}
	end := i
	for end < len(text) && !strings.ContainsRune("\n\r,]}#", rune(text[end])) {
		end++
	}
	w := strings.TrimRight(text[i:end], " \t")
	switch w {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return w + " (read as a YAML boolean)"
	}
	return string(raw)
}

// valuePos is the place of the value of the key path keys in b, in block
// style (yamlValuePos) or flow style (flowPathPos); no place when not found.
func valuePos(b []byte, keys []string) pos {
	if p := yamlValuePos(b, keys); p.line > 0 {
		return p
	}
	return flowPathPos(b, keys)
}

// keyPos is the place of the last key of the key path keys in b, in block
// style (yamlKeyPos) or flow style (flowPathPlace); no place when not
// found.
func keyPos(b []byte, keys []string) pos {
	if p := yamlKeyPos(b, keys); p.line > 0 {
		return p
	}
	k, _ := flowPathPlace(b, keys)
	return k
}

// flowPathPos is the place of the value of the key path keys in b where
// the path enters a flow mapping ("Worker: {replicas: x}", "spec:
// {tfReplicaSpecs: ...}", a JSON document), an anchor or a tag before its
// "{" ("Worker: &w {...}", "!!map {...}"): the longest head of keys that
// yamlValuePos places in block style, or the document itself when it is a
// flow mapping, followed key by key through the flow mappings
// (flowKeyValue); no place when not found.
func flowPathPos(b []byte, keys []string) pos {
	_, v := flowPathPlace(b, keys)
	return v
}

// flowPathPlace is the places of the last key of keys and of its value
// (flowPathPos) where the path enters a flow mapping.
func flowPathPlace(b []byte, keys []string) (key, value pos) {
	text := string(b)
	for i := len(keys) - 1; i >= 0; i-- {
		open := -1
		if i == 0 {
			open = firstContent(b).offset(text)
		} else if p := yamlValuePos(b, keys[:i]); p.line > 0 {
			open = p.offset(text)
		}
		if flowMapAt(text, open) < 0 {
			continue
		}
		k := -1
		for _, name := range keys[i:] {
			if open = flowMapAt(text, open); open < 0 {
				return pos{}, pos{}
			}
			k, open = flowKeyValue(text, open, name)
		}
		if open < 0 || open >= len(text) || k < 0 || k >= len(text) {
			return pos{}, pos{}
		}
		return posAt(text, k), posAt(text, open)
	}
	return pos{}, pos{}
}

// flowMapAt is the index of the "{" of the flow mapping of the node at i
// of text, past its anchor (&name) and tag (!tag, !!tag), in either order;
// -1 when it is no flow mapping.
func flowMapAt(text string, i int) int {
	for i >= 0 && i < len(text) && (text[i] == '&' || text[i] == '!') {
		for i < len(text) && !strings.ContainsRune(" \t\r\n,[]{}", rune(text[i])) {
			i++
		}
		i = flowSkip(text, i)
	}
	if i < 0 || i >= len(text) || text[i] != '{' {
		return -1
	}
	return i
}

// isListKind reports whether a document of kind kind and items items is a
// Kubernetes list, as "kubectl get -o yaml" prints one (kind: List; or
// TFJobList, the API's own list of a kind, which has items).
func isListKind(kind string, items json.RawMessage) bool {
	return kind == "List" || strings.HasSuffix(kind, "List") && given(items)
}

// listItems is the items of the List document doc (one document of the
// file path, its lines those of the file), each as the text of doc with
// every byte outside the item blanked (line breaks kept) and its "- " a
// space, so that the item's lines and columns stay the file's: in block
// style ("items:" then "- apiVersion: ..." lines, as kubectl prints) or in
// flow style ("items: [{...}]", or a JSON list as kubectl -o json
// prints). n is the number of items the YAML library reads; an item that
// cannot be placed (an alias, "items: *jobs") is an error at the List.
func listItems(path string, doc []byte, n int) ([][]byte, error) {
	text := string(doc)
	lines := strings.Split(text, "\n")
	cannot := func() error {
		return faultf(path, yamlValuePos(doc, []string{"items"}), "a List whose %d items check cannot place in the file (an alias, or an unusual layout): give the job alone (kubectl get tfjob NAME -o yaml)", n)
	}
	blank := func(from, to int) []byte {
		out := []byte(text)
		for i := range out {
			if (i < from || i >= to) && out[i] != '\n' {
				out[i] = ' '
			}
		}
		return out
	}
	// the value of the top-level key items: its byte offset
	val, block := -1, false
	topIndent := firstContent(doc).col - 1
	off := 0
	for li, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		t := strings.TrimLeft(line, " ")
		if t != "" && !strings.HasPrefix(t, "#") && len(line)-len(t) == topIndent && strings.HasPrefix(t, "{") {
			// a flow mapping: its key items at depth 1
			_, val = flowKeyValue(text, off+topIndent, "items")
			break
		}
		if len(line)-len(t) == topIndent {
			key, rest, ok := strings.Cut(t, ":")
			if ok && strings.Trim(strings.TrimSpace(key), `"'`) == "items" {
				r := strings.TrimLeft(rest, " \t")
				if r == "" || strings.HasPrefix(r, "#") {
					block, val = true, li+1
				} else {
					val = off + len(line) - len(r)
				}
				break
			}
		}
		off += len(raw) + 1
	}
	var items [][]byte
	switch {
	case val < 0:
		return nil, cannot()
	case block:
		// the sequence's "-" lines at the indentation of the first
		d, start := -1, -1
		end := func(to int) {
			if start >= 0 {
				out := make([]string, to)
				for i := start; i < to; i++ {
					out[i] = lines[i]
				}
				out[start] = out[start][:d] + " " + out[start][d+1:]
				items = append(items, []byte(strings.Join(out, "\n")))
			}
		}
		last := len(lines)
		for i := val; i < len(lines); i++ {
			line := strings.TrimRight(lines[i], "\r")
			t := strings.TrimLeft(line, " ")
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			ind := len(line) - len(t)
			isDash := t == "-" || strings.HasPrefix(t, "- ")
			if d < 0 {
				if !isDash || ind < topIndent {
					return nil, cannot()
				}
				d = ind
			}
			if ind < d || ind == d && !isDash {
				last = i
				break
			}
			if ind == d {
				end(i)
				start = i
			}
		}
		// the last item ends at the sequence's end, blank lines and
		// comments after it dropped
		for last > start+1 && start >= 0 {
			t := strings.TrimSpace(lines[last-1])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			last--
		}
		end(last)
	case text[val] == '[':
		spans, ok := flowElements(text, val)
		if !ok {
			return nil, cannot()
		}
		for _, s := range spans {
			items = append(items, blank(s[0], s[1]))
		}
	default:
		return nil, cannot()
	}
	if len(items) != n {
		return nil, cannot()
	}
	return items, nil
}

// flowSkip is the index of the first byte from i of text that is neither
// white space nor in a comment.
func flowSkip(text string, i int) int {
	for i < len(text) {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// quoteEnd is the index of the quote that closes the quoted string whose
// opening quote is at i in text (len(text) when it does not close): a
// backslash escapes the next byte in a double-quoted string, and two
// single quotes are one quote inside a single-quoted string (so "x: 'it",
// two quotes, "s *a'" is one string: three of the four scanners took the
// first of the two quotes as its end, and placed an alias or a key in it).
func quoteEnd(text string, i int) int {
	q := text[i]
	for i++; i < len(text); i++ {
		switch {
		case q == '"' && text[i] == '\\':
			i++
		case text[i] == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			i++
		case text[i] == q:
			return i
		}
	}
	return len(text)
}

// flowEnd is the index of the ',' or closing bracket that ends the flow
// value starting at i of text (len(text) when none): brackets nest, and
// quoted strings and comments are skipped.
func flowEnd(text string, i int) int {
	depth := 0
	prev := byte(',') // a quote after one of ",[{:" opens a string
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case (c == '"' || c == '\'') && strings.IndexByte(",[{:? \t\r\n", prev) >= 0:
			i = quoteEnd(text, i)
		case c == '#' && strings.IndexByte(" \t\r\n", prev) >= 0:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			c = '\n'
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			if depth == 0 {
				return i
			}
			depth--
		case c == ',' && depth == 0:
			return i
		}
		prev = c
	}
	return len(text)
}

// flowElements is the spans [from, to) of the elements of the flow
// sequence whose "[" is at open in text; false when it does not close.
func flowElements(text string, open int) ([][2]int, bool) {
	var spans [][2]int
	for i := open + 1; ; {
		i = flowSkip(text, i)
		if i >= len(text) {
			return nil, false
		}
		if text[i] == ']' {
			return spans, true
		}
		e := flowEnd(text, i)
		if e >= len(text) {
			return nil, false
		}
		spans = append(spans, [2]int{i, len(strings.TrimRight(text[:e], " \t\r\n"))})
		if text[e] == ']' {
			return spans, true
		}
		if text[e] != ',' {
			return nil, false
		}
		i = e + 1
	}
}

// flowKeyValue is the indexes in text of key (its first byte, a quote of
// a quoted key) and of its value in the flow mapping whose "{" is at open
// (-1, -1 when it has none).
func flowKeyValue(text string, open int, key string) (k, v int) {
	// the key as written, else in any case, as encoding/json matches it
	if k, v := flowKeyValueBy(text, open, key, func(a, b string) bool { return a == b }); v >= 0 {
		return k, v
	}
	return flowKeyValueBy(text, open, key, strings.EqualFold)
}

// flowKeyValueBy is flowKeyValue with keys compared by eq.
func flowKeyValueBy(text string, open int, key string, eq func(a, b string) bool) (int, int) {
	for i := open + 1; ; {
		i = flowSkip(text, i)
		if i+1 < len(text) && text[i] == '?' && strings.IndexByte(" \t\r\n", text[i+1]) >= 0 {
			i = flowSkip(text, i+1) // an explicit key, "? key: value"
		}
		if i >= len(text) || text[i] == '}' {
			return -1, -1
		}
		at := i // the key's first byte
		var k string
		if q := text[i]; q == '"' || q == '\'' {
			j := i + 1
			for j < len(text) && text[j] != q {
				if q == '"' && text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return -1, -1
			}
			k, i = text[i+1:j], j+1
		} else {
			j := i
			for j < len(text) && !strings.ContainsRune(":,}", rune(text[j])) {
				j++
			}
			k, i = strings.TrimSpace(text[i:j]), j
		}
		i = flowSkip(text, i)
		if i >= len(text) || text[i] != ':' {
			return -1, -1
		}
		v := flowSkip(text, i+1)
		if eq(k, key) {
			return at, v
		}
		e := flowEnd(text, v)
		if e >= len(text) || text[e] != ',' {
			return -1, -1
		}
		i = e + 1
	}
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
