package main

// This file holds the checks of a manifest's keys and values: unknown and
// misspelt keys (did you mean), the other kind's fields and roles, values
// of the wrong type, keys given twice in different cases, replicas that are
// not whole numbers, and how messages name and show a value.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/internal/words"
)

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
	slices.SortStableFunc(ws, func(a, b warning) int { return a.at.cmp(b.at) })
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
// Evaluator, which does not train, is known and not counted); at is where
// a role's key is (it was told at no place).
func otherRoles(path string, at func(role string) pos, specs map[string]replicaSpec, kind, how string, known ...string) []string {
	var out []string
	for _, r := range slices.Sorted(maps.Keys(specs)) {
		if !slices.ContainsFunc(known, func(k string) bool { return strings.EqualFold(k, r) }) {
			out = append(out, fmt.Sprintf("%s: %s replica role %q is not counted (%s)", at(r).in(path), kind, r, how))
		}
	}
	return out
}

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
			slices.SortStableFunc(sp, func(a, b spelling) int { return a.at.cmp(b.at) })
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
// column (block style by yamlValuePos, flow style by flowPathPlace), in
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
