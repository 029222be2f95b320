package main

// This file holds the YAML scanning check does itself: the documents of a
// stream, their directives, the one job document, a List's items, and the
// places of keys and values by key path in block and flow style.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

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
	text := string(b)
	// flowTo is the end of a flow collection ("{...}", "[...]") that a
	// line opened and left open: the lines up to it are inside it, no
	// block keys (flowPathPlace places what is there)
	flowTo, start := -1, 0
	// scalar is the indentation of the key (or list item) whose value is
	// a block scalar ("|", ">-"): the lines more indented than it are its
	// text, no keys, and no flow collection opens there ("{" or "[" at
	// the start of such a line hid the rest of the file: a review); -1
	// outside one
	scalar := -1
	blockScalar := func(v string) bool { return v != "" && (v[0] == '|' || v[0] == '>') }
	// A document that is one flow collection from column 0 (JSON,
	// kubectl's -o json) has its lines, a key each, read as keys, as
	// before the flow collections were skipped: skipped, a List's items
	// were placed at their braces and the List at 1:1 (a review).
	json := false
	if c := strings.TrimLeft(text, " \t\r\n\ufeff"); c != "" && (c[0] == '{' || c[0] == '[') {
		k := strings.Index(text, c)
		json = k == 0 || text[k-1] == '\n'
	}
	flowFrom := func(at int) {
		if json {
			return
		}
		if at < len(text) && (text[at] == '{' || text[at] == '[') {
			if flowTo = flowClose(text, at); flowTo < 0 {
				flowTo = len(text)
			}
		}
	}
	for i, raw := range strings.Split(text, "\n") {
		lineStart := start
		start += len(raw) + 1
		if lineStart <= flowTo {
			continue
		}
		line := strings.TrimRight(raw, " \t\r")
		t := strings.TrimLeft(line, " ")
		if scalar >= 0 {
			if t == "" || len(line)-len(t) > scalar {
				continue // the block scalar's text
			}
			scalar = -1
		}
		if strings.HasPrefix(t, "- ") {
			// a list item: a flow collection may open it, or a block
			// scalar
			item := strings.TrimLeft(t, "- ")
			if blockScalar(item) {
				scalar = len(line) - len(t)
				continue
			}
			flowFrom(lineStart + len(line) - len(item))
		}
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "- ") || isDirective([]byte(line)) {
			// (a directive, "%TAG !e! tag:example.com,2000:", is no
			// key: a List item below it was not placed)
			continue
		}
		indent := len(line) - len(t)
		if t[0] == '{' || t[0] == '[' {
			flowFrom(lineStart + indent)
			continue
		}
		if explicit.line > 0 {
			// ": value" at the key's indentation
			if v := strings.TrimLeft(t[1:], " "); t[0] == ':' && indent == stack[len(stack)-1].indent && v != "" && !strings.HasPrefix(v, "#") {
				return explicit, pos{i + 1, len(line) - len(v) + 1}
			}
			return explicit, explicit
		}
		// an anchor or a tag before the key ("&w Worker:", "!t a:") is
		// none of it
		pre := 0
		for pre < len(t) && (t[pre] == '&' || t[pre] == '!') {
			e := strings.IndexAny(t[pre:], " \t")
			if e < 0 {
				pre = len(t)
				break
			}
			pre += e
			for pre < len(t) && (t[pre] == ' ' || t[pre] == '\t') {
				pre++
			}
		}
		if pre == len(t) {
			continue
		}
		k, val, ok := blockKeyCut(t[pre:])
		q := "" // an explicit key's text: "? key", its value on a ": value" line
		isExplicit := t == "?" || strings.HasPrefix(t, "? ")
		if isExplicit {
			q = strings.TrimLeft(t[1:], " ")
			k, val, ok = strings.Split(q, " #")[0], "", true
		}
		// (a plain key may hold ",[]{}" in block style, "restartPolicy}"
		// a template's leftover; only flow style forbids them: they were
		// taken as flow style, the key at no place)
		if !ok || t[0] == ':' {
			continue
		}
		if v := strings.TrimLeft(val, " "); blockScalar(v) {
			scalar = indent
		} else if at := lineStart + indent + pre + len(k) + 1 + len(val) - len(v); v != "" && (v[0] == '"' || v[0] == '\'') {
			// a quoted scalar that goes on to the lines below: they are
			// its text ("[beta: see the wiki" opened a flow collection
			// that never closed and hid the rest of the file; a review);
			// one that never closes hides nothing
			if e := quoteEnd(text, at); e >= lineStart+len(raw) && e < len(text) {
				flowTo = e
			}
		} else if v != "" {
			flowFrom(at)
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, yamlLevel{indent, keyText(strings.TrimSpace(k), strings.Contains(t[:pre], "!"))})
		if !slices.EqualFunc(keysOf(stack), keys, eq) {
			continue
		}
		if isExplicit {
			explicit = pos{i + 1, len(line) - len(q) + 1}
			continue
		}
		key = pos{i + 1, indent + pre + 1}
		if v := strings.TrimLeft(val, " "); v != "" && !strings.HasPrefix(v, "#") {
			return key, pos{i + 1, indent + pre + len(k) + 1 + len(val) - len(v) + 1}
		}
		return key, key
	}
	return explicit, explicit
}

// blockKeyCut is the line t (from its first byte) cut about the ":" of
// its block mapping key, as the YAML library reads it: a ":" before white
// space or the line's end, after a quoted key's closing quote ("0:: 1" is
// the key "0:", which was read as "0" and not placed); false when there
// is none.
func blockKeyCut(t string) (key, value string, ok bool) {
	from := 0
	if t[0] == '"' || t[0] == '\'' {
		from = quoteEnd(t, 0)
	}
	for i := from; i < len(t); i++ {
		if t[i] == ':' && (i+1 == len(t) || strings.IndexByte(" \t\r", t[i+1]) >= 0) {
			return t[:i], t[i+1:], true
		}
		if t[i] == ' ' && i+1 < len(t) && t[i+1] == '#' {
			break // a comment
		}
	}
	return t, "", false
}

// keyText is the key written k as the JSON form of the document names
// it, as the key paths of faults do: a quoted key unquoted (a plain key
// may end in a quote, `00000000":`, which was taken off: the key was at no
// place); a plain key that YAML reads as a number or a boolean ("0000",
// "0x0", "1e0", "yes") by its value there ("0", "1", "true": a replica
// role "0000000:" was at no place), read by the YAML library; other plain
// keys as written.
func keyText(k string, tagged bool) string {
	if len(k) >= 2 && (k[0] == '"' || k[0] == '\'') && k[len(k)-1] == k[0] {
		if k[0] == '"' {
			if u, err := strconv.Unquote(k); err == nil {
				return u
			}
			return k[1 : len(k)-1]
		}
		return strings.ReplaceAll(k[1:len(k)-1], "''", "'")
	}
	if k == "" || tagged || !strings.ContainsRune("0123456789+-.yYnNtTfFoO", rune(k[0])) || len(k) > 64 {
		// (a tagged key, "!t 0:", is the tag's: a custom tag's a string)
		return k
	}
	js, err := yaml.YAMLToJSON([]byte("? " + k + "\n: 0\n"))
	var m map[string]json.RawMessage
	if err != nil || json.Unmarshal(js, &m) != nil || len(m) != 1 {
		return k
	}
	for key := range m {
		return key
	}
	return k
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

// docAlone is the document d (lines [from, to) of lines) alone, every
// line before it blank and its "---" turned to spaces, so that lines and
// columns stay those of the file; its directives dirs (prologue) and its
// "---" are kept where it has some (YAML takes directives before a "---"
// only). The lines after it are dropped: a parser's "end of file" is its
// end.
func docAlone(lines []string, d [2]int, dirs []int) []byte {
	out := make([]string, d[1])
	for i := d[0]; i < d[1]; i++ {
		out[i] = lines[i]
		if l := strings.TrimRight(out[i], " \t\r"); i == d[0] && len(dirs) == 0 && (l == "---" || strings.HasPrefix(l, "--- ")) {
			out[i] = "   " + out[i][3:]
		}
	}
	for _, i := range dirs {
		out[i] = lines[i]
	}
	return []byte(strings.Join(out, "\n"))
}

// jobDocument picks, among the documents docs of the stream b (the file
// path), the one Kubeflow job, as kubectl apply -f would send a Service
// beside it: b up to the job's end with every line before it blank and its
// "---" turned to spaces, so that lines and columns stay those of the file.
// A List (kubectl get -o yaml prints one) counts as its items, each one
// blanked around in the same way (listItems). None, two jobs, or a
// document that is not YAML are errors naming the documents or items.
func jobDocument(path string, b []byte, docs [][2]int) ([]byte, error) {
	lines := strings.Split(string(b), "\n")
	only := func(d [2]int, dirs []int) []byte { return docAlone(lines, d, dirs) }
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
			// (in flow style too: a JSON List was at no place)
			at := valuePos(doc, []string{"items"})
			if at.line == 0 {
				at = where
			}
			return nil, faultf(path, at, "not a Kubeflow job manifest: the items of a %s hold %s where a list was expected", kind, yamlKindOf(bytes.TrimSpace(items)))
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

// valuePos is the place of the value of the key path keys in b, in block
// style (yamlValuePos) or flow style (flowPathPlace); no place when not
// found.
func valuePos(b []byte, keys []string) pos {
	if p := yamlValuePos(b, keys); p.line > 0 {
		return p
	}
	_, v := flowPathPlace(b, keys)
	return v
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

// flowPathPlace is the places of the last key of the key path keys in b
// and of its value where the path enters a flow mapping ("Worker:
// {replicas: x}", "spec: {tfReplicaSpecs: ...}", a JSON document), an
// anchor or a tag before its "{" ("Worker: &w {...}", "!!map {...}"): the
// longest head of keys that yamlValuePos places in block style, or the
// document itself when it is a flow mapping, followed key by key through
// the flow mappings (flowKeyValue); no places when not found.
func flowPathPlace(b []byte, keys []string) (key, value pos) {
	text := string(b)
	for i := len(keys) - 1; i >= 0; i-- {
		open := -1
		if i == 0 {
			open = firstContent(b).offset(text)
		} else if k, p := yamlPlace(b, keys[:i]); p.line > 0 {
			open = p.offset(text)
			if p == k && open >= 0 {
				// the value on the lines below its key ("specs:\n  {a:
				// 1}"): the next content after the key's line (it was
				// looked for at the key, and not found)
				if nl := strings.IndexByte(text[open:], '\n'); nl >= 0 {
					open = flowSkip(text, open+nl+1)
				}
			}
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

// flowClose is the index of the bracket that closes the flow collection
// whose "{" or "[" is at open in text (quoted strings and comments
// skipped); -1 when it does not close. It is flowEnd's scan, resumed past
// every "," of the collection: the bracket at open reads as the "," that
// flowEnd starts after.
func flowClose(text string, open int) int {
	for i := open + 1; ; {
		e := flowEnd(text, i)
		if e >= len(text) {
			return -1
		}
		if text[e] != ',' {
			return e
		}
		i = e + 1
	}
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
		tagged := false
		for i < len(text) && (text[i] == '&' || text[i] == '!') {
			// an anchor or a tag before the key: none of it
			tagged = tagged || text[i] == '!'
			for i < len(text) && !strings.ContainsRune(" \t\r\n,[]{}", rune(text[i])) {
				i++
			}
			i = flowSkip(text, i)
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
			// a plain key ends at a ":" before white space or a flow
			// indicator, as the YAML library reads it ("{0:}" is the
			// key "0:", "{a:1}" the key "a:1": they were read to the
			// ":" and not found)
			j := i
			for j < len(text) && !strings.ContainsRune(",[]{}", rune(text[j])) &&
				!(text[j] == ':' && (j+1 == len(text) || strings.IndexByte(" \t\r\n", text[j+1]) >= 0)) {
				j++
			}
			k, i = keyText(strings.TrimSpace(text[i:j]), tagged), j
		}
		i = flowSkip(text, i)
		if i < len(text) && (text[i] == ',' || text[i] == '}') {
			// a key without a value ("{a, b: 1}": a is null): the key is
			// its place (it was not found)
			if eq(k, key) {
				return at, at
			}
			if text[i] == '}' {
				return -1, -1
			}
			i++
			continue
		}
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
