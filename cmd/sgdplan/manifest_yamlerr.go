package main

// This file holds yamlError and its helpers: the errors of the YAML library
// (sigs.k8s.io/yaml) said in the project's words, at the line and column
// of the fault.

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/yaml"
)

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
	if v, ok := strings.CutPrefix(msg, "json: unsupported value: "); ok {
		// .nan or .inf: valid YAML, but sigs.k8s.io/yaml converts the
		// manifest to JSON (as Kubernetes reads it), which has no NaN or
		// infinity; the library said "invalid YAML" at no place
		at, what := nonFiniteAt(b), "a value"
		if o := at.offset(string(b)); o >= 0 {
			what = string(yamlNonFiniteRE.Find(b[o:]))
		}
		return faultf(path, at, "not a Kubeflow job manifest: %s is a YAML float that is not finite (%s): Kubernetes reads a manifest as JSON, which cannot hold NaN or infinity: want a finite number (quote it for text)", what, v)
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
	case msg == "document contains excessive aliasing":
		// an alias bomb ("billion laughs"): named at its first alias
		where = aliasAt(b, "")
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
	// flow is the open flow collections' brackets, last the innermost:
	// a collection that starts an entry of a flow mapping (after its "{"
	// or a ",", and an anchor or a tag) is a key though no ":" follows
	// it, "{ {a: 1} }"
	var flow []byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		if len(flow) > 0 && (c == '}' || c == ']') {
			flow = flow[:len(flow)-1]
		}
		switch {
		case strings.IndexByte(",[{:?- \t\r\n", prev) < 0:
		case (c == '"' || c == '\'') && quoteEnd(text, i) < len(text):
			// (a quote that closes nowhere is a plain scalar's, "0 \": 0",
			// in a document the YAML library read: it hid the rest)
			i = quoteEnd(text, i)
		case c == '#':
			for ; i < len(text) && text[i] != '\n'; i++ {
			}
		case c == '{' || c == '[':
			e := flowClose(text, i)
			if e > 0 && (valueIndicatorAt(text, e+1, false) || flowEntryKeyOnly(text, flow, i, e+1)) {
				first(map[byte]string{'{': "mapping", '[': "list"}[c], i)
			}
			flow = append(flow, c)
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
			// (or a flow mapping's entry without a value: "{~}", "{&a}")
			if j := nullWordEnd(text, i); j > 0 && (valueIndicatorAt(text, j, true) || flowEntryKeyOnly(text, flow, i, j)) {
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

// flowEntryKeyOnly reports whether the node from i to end of text is an
// entry of a flow mapping without a value (flow is the open flow
// collections' brackets, last the innermost): a key, null its value.
func flowEntryKeyOnly(text string, flow []byte, i, end int) bool {
	if len(flow) == 0 || flow[len(flow)-1] != '{' || !flowEntryAt(text, i) {
		return false
	}
	j := flowSkip(text, end)
	return j < len(text) && (text[j] == ',' || text[j] == '}')
}

// flowEntryAt reports whether the node at i of text starts an entry of
// a flow collection: before it, past white space and any anchors and tags,
// stands the collection's "{" or "[" or a ",".
func flowEntryAt(text string, i int) bool {
	for {
		for i > 0 && strings.IndexByte(" \t\r\n", text[i-1]) >= 0 {
			i--
		}
		j := i
		for j > 0 && strings.IndexByte(" \t\r\n,[]{}", text[j-1]) < 0 {
			j--
		}
		if j < i && (text[j] == '!' || text[j] == '&') {
			i = j
			continue
		}
		// a tag may hold ",": "{!,0 {}}", "{a: 1,!t,u {}}" (the tag
		// "!t,u" after the "," that ends the entry "a: 1"), taken from
		// the "!" at the token's start or after its first ","
		for j = i; j > 0 && strings.IndexByte(" \t\r\n[]{}", text[j-1]) < 0; j-- {
		}
		if t := text[j:i]; strings.HasPrefix(t, "!") {
			i = j
			continue
		} else if c := strings.Index(t, ",!"); c >= 0 && !strings.Contains(t[:c], "!") {
			i = j + c + 1
			continue
		}
		return i > 0 && strings.IndexByte("{[,", text[i-1]) >= 0
	}
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
// null, Null, NULL, a !!null tag and the scalar after it on the line, or
// an anchor, which a ":" after it leaves on an empty scalar); -1 when none
// starts there.
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
	if text[i] == '&' {
		// an anchor on an empty key ("&a : x"), a null one: the anchor's
		// name is the YAML library's (letters, digits, "-" and "_")
		j := i + 1
		for j < len(text) && (strings.IndexByte("_-0123456789", text[j]) >= 0 || 'a' <= text[j]|32 && text[j]|32 <= 'z') {
			j++
		}
		if j > i+1 {
			return j
		}
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
	// (a carriage return alone ends a line too: " ?\r0" is an empty key)
	eol := strings.IndexAny(text[q:], "\r\n")
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
			case len(l)-len(t) == col && (t == "-" || strings.HasPrefix(t, "- ")):
				// a list at the "?"'s own indentation is its key (YAML's
				// indentless sequence): "?\n-" was no place
				return "list", q
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
	case rest[0] == '{' || rest[0] != '"' && rest[0] != '\'' && (strings.Contains(rest, ": ") || strings.HasSuffix(rest, ":")) ||
		// a quoted key of a mapping: `? "": x` (not `? "a: b"`)
		(rest[0] == '"' || rest[0] == '\'') && quoteEnd(rest, 0) < len(rest) && valueIndicatorAt(rest, quoteEnd(rest, 0)+1, true) ||
		rest == "?" || strings.HasPrefix(rest, "? "):
		// (a "?" in it opens an explicit key of a mapping: "? ?", found
		// past the first)
		return "mapping", q + 1 + strings.Index(text[q+1:], rest)
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
		"could not find expected directive name", "could not find expected ':'",
		"did not find expected tag URI", "did not find expected '!'", "did not find URI escaped octet",
		"found an incorrect leading UTF-8 octet", "found an incorrect trailing UTF-8 octet":
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
// comments (a "*name" there was taken); no place when there is none. An
// empty name is any alias: "*" before a name's byte.
func aliasAt(b []byte, name string) pos {
	text, alias := string(b), "*"+name
	nameByte := func(c byte) bool {
		return strings.ContainsRune("_-0123456789", rune(c)) || 'a' <= c|32 && c|32 <= 'z'
	}
	prev := byte('\n')
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch end := i + len(alias); {
		case !strings.ContainsRune(",[{:?- \t\r\n", rune(prev)):
		case (c == '"' || c == '\'') && quoteEnd(text, i) < len(text):
			// (a quote that closes nowhere is a plain scalar's, "0 \": 0",
			// in a document the YAML library read: it hid the rest)
			i = quoteEnd(text, i)
		case c == '#':
			for ; i < len(text) && text[i] != '\n'; i++ {
			}
		case strings.HasPrefix(text[i:], alias) && (name != "" && (end == len(text) || !nameByte(text[end])) || name == "" && end < len(text) && nameByte(text[end])):
			return posAt(text, i)
		}
		if i < len(text) {
			prev = text[i]
		}
	}
	return pos{}
}

// yamlNonFiniteRE finds the plain YAML floats that are not finite
// (go.yaml.in/yaml/v2, resolve.go: .nan, .inf, -.inf in three cases),
// and text that looks like one (in a comment, a quoted string): nonFiniteAt
// tells them apart.
var yamlNonFiniteRE = regexp.MustCompile(`[-+]?\.(?:nan|NaN|NAN|inf|Inf|INF)\b`)

// nonFiniteAt is the place of the first NaN or infinite float in b, the
// one that the JSON conversion of the YAML library cannot write; no place
// when none is found. Which match of yamlNonFiniteRE is one is the YAML
// library's to say (not one in a comment, a block scalar or a quoted
// string; one under a !!float tag, quoted, is): the document with the
// matches after the first k turned to 0 fails to convert for the
// smallest k whose k-th match is the first float (a binary search: the
// document is read about log2 of the matches times).
func nonFiniteAt(b []byte) pos {
	m := yamlNonFiniteRE.FindAllIndex(b, -1)
	fails := func(k int) bool {
		var t []byte
		last := 0
		for _, r := range m[k:] {
			t = append(append(t, b[last:r[0]]...), '0')
			last = r[1]
		}
		t = append(t, b[last:]...)
		_, err := yaml.YAMLToJSON(t)
		return err != nil && strings.Contains(err.Error(), "json: unsupported value: ")
	}
	if len(m) == 0 || fails(0) || !fails(len(m)) {
		return pos{}
	}
	lo, hi := 0, len(m) // fails(lo) is false, fails(hi) true
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return posAt(string(b), m[hi-1][0])
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
// first key, below its own key), quoted or not; the start of the named
// line when key is on neither.
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
	// a key written otherwise than the library names it ("00000", the
	// key 0, given as "0000" too): the start of the named line, past a
	// list item's "- ", as yamlError names a line alone at column 1
	if n >= 1 && n <= len(lines) {
		l := strings.TrimRight(lines[n-1], "\r")
		if t := strings.TrimLeft(l, " \t-"); t != "" {
			return pos{n, len(l) - len(t) + 1}
		}
	}
	return pos{n, 1}
}

var (
	yamlDupRE  = regexp.MustCompile(`line (\d+): key "?([^"]*?)"? already set in map`)
	yamlLineRE = regexp.MustCompile(`^line (\d+): (.*)`)
	// an alias to no anchor, or to the node it stands in
	yamlAnchorRE = regexp.MustCompile(`^(?:unknown anchor '(.*)' referenced|anchor '(.*)' value contains itself)$`)
)
