package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// manifest is what check reads from a Kubeflow job.
type manifest struct {
	Workers int
	PS      int
	HasPS   bool
}

type replicaSpec struct {
	Replicas *int `json:"replicas"`
}

type kubeflowJob struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Spec       struct {
		TF      map[string]replicaSpec `json:"tfReplicaSpecs"`
		PyTorch map[string]replicaSpec `json:"pytorchReplicaSpecs"`
	} `json:"spec"`
}

// readManifest reads a TFJob or PyTorchJob and returns its training
// replicas (TFJob: Worker + Chief/Master, PS; PyTorchJob: Master + Worker).
func readManifest(path string) (manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return manifest{}, fmt.Errorf("check: %v", err)
	}
	return parseManifest(path, b)
}

// parseManifest is readManifest on the bytes of the file path.
func parseManifest(path string, b []byte) (manifest, error) {
	if n := yamlDocuments(b); n > 1 {
		return manifest{}, fmt.Errorf("check: %s: holds %d YAML documents: give one job manifest (check judges one job)", path, n)
	}
	var j kubeflowJob
	if err := yaml.Unmarshal(b, &j); err != nil {
		if where := badReplicas(b); where != "" && strings.Contains(err.Error(), "eplicas") {
			return manifest{}, fmt.Errorf("check: %s:%s", path, where)
		}
		return manifest{}, fmt.Errorf("check: %s: not a Kubeflow job manifest: %v", path, err)
	}
	count := func(specs map[string]replicaSpec, names ...string) (int, bool, error) {
		total, found := 0, false
		for _, n := range names {
			s, ok := specs[n]
			if !ok {
				continue
			}
			r := 1 // Kubeflow's default when replicas is absent
			if s.Replicas != nil {
				r = *s.Replicas
			}
			if r < 0 {
				return 0, false, fmt.Errorf("check: %s: %s.replicas = %d, want >= 0", path, n, r)
			}
			if r > maxCount {
				return 0, false, fmt.Errorf("check: %s: %s.replicas = %d: too large, want at most %d", path, n, r, maxCount)
			}
			total += r
			found = true
		}
		return total, found, nil
	}
	var mf manifest
	switch j.Kind {
	case "TFJob":
		w, ok, err := count(j.Spec.TF, "Worker", "Chief", "Master")
		if err != nil {
			return mf, err
		}
		if !ok || w == 0 {
			return mf, fmt.Errorf("check: %s: TFJob without worker replicas (expected spec.tfReplicaSpecs.Worker.replicas >= 1)", path)
		}
		mf.Workers = w
		if mf.PS, mf.HasPS, err = count(j.Spec.TF, "PS"); err != nil {
			return mf, err
		}
	case "PyTorchJob":
		w, ok, err := count(j.Spec.PyTorch, "Master", "Worker")
		if err != nil {
			return mf, err
		}
		if !ok || w == 0 {
			return mf, fmt.Errorf("check: %s: PyTorchJob without worker replicas (expected spec.pytorchReplicaSpecs.Worker or Master replicas)", path)
		}
		mf.Workers = w
	case "":
		return mf, fmt.Errorf("check: %s: no kind: expected a Kubeflow TFJob or PyTorchJob", path)
	default:
		return mf, fmt.Errorf("check: %s: kind %q: expected TFJob or PyTorchJob", path, j.Kind)
	}
	return mf, nil
}

// yamlDocuments counts the documents of a YAML stream that hold anything
// but comments: sigs.k8s.io/yaml reads the first alone, so a file of two
// jobs would be judged on the first without a word.
func yamlDocuments(b []byte) int {
	n, content := 0, false
	for _, line := range bytes.Split(b, []byte("\n")) {
		t := strings.TrimSpace(string(line))
		// a document marker stands at column 0 (an indented "---" is a
		// block scalar's text)
		if l := strings.TrimRight(string(line), " \t\r"); l == "---" || strings.HasPrefix(l, "--- ") {
			if content {
				n++
			}
			content = false
			continue
		}
		if t != "" && !strings.HasPrefix(t, "#") && t != "..." {
			content = true
		}
	}
	if content {
		n++
	}
	return n
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

// badReplicas finds, in a block-style manifest, a replicas value that is
// not a whole number and says where: "line:column: KEY.replicas: value
// "four": expected a whole number >= 0" ("" when there is none or the
// layout is not block style; the decoder's message then stands).
func badReplicas(b []byte) string {
	var stack []yamlLevel
	for i, raw := range strings.Split(string(b), "\n") {
		line := strings.TrimRight(raw, " \t\r")
		t := strings.TrimLeft(line, " ")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		indent := len(line) - len(t)
		key, val, ok := strings.Cut(t, ":")
		if !ok || strings.ContainsAny(key, "{}[],\"'") || strings.HasPrefix(t, "- ") {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, yamlLevel{indent, strings.TrimSpace(key)})
		if strings.TrimSpace(key) != "replicas" {
			continue
		}
		v := strings.TrimSpace(val)
		if c := strings.Index(v, " #"); c >= 0 {
			v = strings.TrimSpace(v[:c])
		}
		if e := countError(v, maxCount, "replicas"); e != nil {
			col := indent + len(key) + 1 + (len(val) - len(strings.TrimLeft(val, " "))) + 1
			return fmt.Sprintf("%d:%d: %s.replicas: %s: too large, want at most %d", i+1, col, strings.Join(keysOf(stack[:len(stack)-1]), "."), v, maxCount)
		}
		if _, err := strconv.Atoi(v); err == nil || v == "" || v == "null" || v == "~" || v == "Null" || v == "NULL" {
			continue // absent replicas are Kubeflow's default, 1
		}
		path := keysOf(stack)
		col := indent + len(key) + 1 + (len(val) - len(strings.TrimLeft(val, " "))) + 1
		return fmt.Sprintf("%d:%d: %s: %s: expected a whole number >= 0", i+1, col, strings.Join(path, "."), v)
	}
	return ""
}
