package main

// This file holds a PyTorchJob's processes per replica: nprocPerNode and
// elasticPolicy.nProcPerNode, the GPUs of its pods (gpu, auto) and the
// launch commands of its pod templates.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

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
			if x, ok := gpuQuantity(s); ok && x >= 1 && x <= maxCount {
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

// gpuQuantity is the whole number of GPUs a Kubernetes quantity s gives
// ("8", "4000m", "1k", "2Ki", "1e3", "2.01k": a decimal number, perhaps with
// an exponent, and a suffix, which must come to a whole count, exactly: in
// rationals, as 1.001k in floating point is not 1001); ok is false for
// anything else. ("4000m" and "1k", which Kubernetes reads as 4 and 1000,
// were refused.)
func gpuQuantity(s string) (n int, ok bool) {
	num, mul := s, big.NewRat(1, 1)
	for _, u := range []struct {
		suffix string
		num    int64
		den    int64
	}{{"Ki", 1 << 10, 1}, {"Mi", 1 << 20, 1}, {"Gi", 1 << 30, 1}, {"n", 1, 1e9}, {"u", 1, 1e6}, {"m", 1, 1e3}, {"k", 1e3, 1}, {"M", 1e6, 1}, {"G", 1e9, 1}} {
		if v, cut := strings.CutSuffix(s, u.suffix); cut {
			num, mul = v, big.NewRat(u.num, u.den)
			break
		}
	}
	// (big.Rat takes 0x10, 1/2 and _: a quantity is decimal digits)
	if !decimalFloatRE.MatchString(num) || len(num) > 64 {
		return 0, false
	}
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		// (big.Rat would build 10^999999999 of "1e999999999")
		if e, err := strconv.Atoi(num[i+1:]); err != nil || e < -30 || e > 30 {
			return 0, false
		}
	}
	v, good := new(big.Rat).SetString(num)
	if !good {
		return 0, false
	}
	v.Mul(v, mul)
	if !v.IsInt() || v.Sign() < 0 || v.Num().Cmp(big.NewInt(maxCount)) > 0 {
		return 0, false
	}
	return int(v.Num().Int64()), true
}
