package fit

// This file holds the JSON position helpers of ParseModel's errors: the
// byte offset of every value by its path, duplicate and unknown keys, type
// and syntax errors placed at their value, and line:col of an offset.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// jsonPositions maps the path of every value in the JSON document b
// ("parameters[1].value", "efficiency.gns"; "" for the document) to the
// byte offset where the value starts, down to maxPathDepth levels (a
// deeper value takes its enclosing value's place: positionOf). A document
// that does not parse gives the paths read before the error.
//
// The path is kept in one buffer, each level appending its segment to its
// parent's: a path built at every level with Sprintf cost the square of
// the depth (arrays nested 16,000 deep: 8.6 s and 424 MB).
func jsonPositions(b []byte) map[string]int64 {
	pos := map[string]int64{}
	dec := json.NewDecoder(bytes.NewReader(b))
	var buf []byte // the path of the value read, its parent's a prefix
	// walk reads the value whose path is buf[:n], depth levels down
	var walk func(n, depth int) error
	walk = func(n, depth int) error {
		if depth <= maxPathDepth {
			pos[string(buf[:n])] = valueStart(b, dec.InputOffset())
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				buf = buf[:n]
				if depth < maxPathDepth {
					if n > 0 {
						buf = append(buf, '.')
					}
					buf = append(buf, k...)
				}
				if err := walk(len(buf), depth+1); err != nil {
					return err
				}
			}
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				buf = buf[:n]
				if depth < maxPathDepth {
					buf = append(strconv.AppendInt(append(buf, '['), int64(i), 10), ']')
				}
				if err := walk(len(buf), depth+1); err != nil {
					return err
				}
			}
		default:
			return nil
		}
		_, err = dec.Token() // the closing delimiter
		return err
	}
	_ = walk(0, 0)
	return pos
}

// maxPathDepth is how deep jsonPositions records values: model.json's
// deepest field is 4 levels down (efficiency.gns.samples[0][1]), and a
// value deeper than any field is placed at the one that holds it.
const maxPathDepth = 32

// maxJSONDepth is the deepest nesting of arrays and objects ParseModel
// reads, the document's own object counting 1: encoding/json's own limit
// (its scanner refuses the 10001st level), which badKey's and
// jsonPositions' token walks do not have.
const maxJSONDepth = 10000

// tooDeep is the offset of the first [ or { of b nested more than
// maxJSONDepth deep, ok false when there is none. It reads b as bytes
// (strings skipped with their escapes) and needs no valid JSON: a
// model.json with arrays nested 100,000 deep in an unknown field ran
// predict's token walks for over 14 minutes and 24 GB before
// json.Unmarshal could refuse it.
func tooDeep(b []byte) (off int64, ok bool) {
	depth, inString, escaped := 0, false, false
	for i, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > maxJSONDepth {
				return int64(i), true
			}
		case c == ']' || c == '}':
			depth = max(depth-1, 0)
		}
	}
	return 0, false
}

// jsonKind names the JSON a Go type decodes from, for people (it said
// "expected []fit.ParamValue").
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		// plural of the element's kind: "an array of arrays of numbers"
		e := strings.TrimPrefix(strings.TrimPrefix(jsonKind(t.Elem()), "an "), "a ")
		switch {
		case strings.HasPrefix(e, "array of "):
			e = "arrays of " + strings.TrimPrefix(e, "array of ")
		case e == "true or false":
			e = "true or false values"
		default:
			e += "s"
		}
		return "an array of " + e
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.String()
}

// badKey finds the first key of the JSON document b that repeats a key of
// its own object, in any case (encoding/json keeps the last silently, and
// matches field names case-insensitively), or, when t is not nil, that the
// Go type t has no field for at its place (encoding/json ignores it: a typo
// such as "lamda_hi" would pass unnoticed). It returns the key's path
// ("queueing.mode"), the offset where the key starts and, for an unknown
// key, the fields its object may have. ok is false when there is none, or
// when the document does not parse (Unmarshal then says where).
func badKey(b []byte, t reflect.Type) (path string, off int64, fields []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	// The path of the value read is kept as a stack of its segments (a
	// key, or an index when key is nil) and written out for the key found
	// alone: one built at every level with Sprintf cost the square of the
	// depth.
	type segment struct {
		key   *string
		index int
	}
	var stack []segment
	pathOf := func() string {
		var p []byte
		for _, s := range stack {
			if s.key == nil {
				p = append(strconv.AppendInt(append(p, '['), int64(s.index), 10), ']')
				continue
			}
			if len(p) > 0 {
				p = append(p, '.')
			}
			p = append(p, *s.key...)
		}
		return string(p)
	}
	// walk reads one value, of type vt (nil: not checked); it returns
	// true to stop: a key found (ok) or a token that does not parse (the
	// decoder's errors are not sticky: going on could loop).
	var walk func(vt reflect.Type) bool
	walk = func(vt reflect.Type) bool {
		for vt != nil && vt.Kind() == reflect.Pointer {
			vt = vt.Elem()
		}
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				start := valueStart(b, dec.InputOffset())
				kt, err := dec.Token()
				if err != nil {
					return true
				}
				k, _ := kt.(string)
				stack = append(stack, segment{key: &k})
				// encoding/json matches a field's name in any case:
				// "VALUE" after "value" overwrites it as well
				fold := strings.ToLower(k)
				if seen[fold] {
					path, off, ok = pathOf(), start, true
					return true
				}
				seen[fold] = true
				var ft reflect.Type
				if vt != nil && vt.Kind() == reflect.Struct {
					var known bool
					if ft, known = jsonField(vt, k); !known {
						path, off, fields, ok = pathOf(), start, jsonFields(vt), true
						return true
					}
				}
				if walk(ft) {
					return true
				}
				stack = stack[:len(stack)-1]
			}
		case json.Delim('['):
			var et reflect.Type
			if vt != nil && (vt.Kind() == reflect.Slice || vt.Kind() == reflect.Array) {
				et = vt.Elem()
			}
			for i := 0; dec.More(); i++ {
				stack = append(stack, segment{index: i})
				if walk(et) {
					return true
				}
				stack = stack[:len(stack)-1]
			}
		default:
			return false
		}
		_, err = dec.Token() // the closing delimiter
		return err != nil
	}
	walk(t)
	return path, off, fields, ok
}

// jsonField is the type of struct t's field that encoding/json fills
// from key (matched in any case, as it does), and whether there is one.
func jsonField(t reflect.Type, key string) (reflect.Type, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && strings.EqualFold(jsonName(f), key) {
			return f.Type, true
		}
	}
	return nil, false
}

// jsonFields lists the JSON names of struct t's fields.
func jsonFields(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && jsonName(f) != "-" {
			names = append(names, jsonName(f))
		}
	}
	return names
}

// jsonName is the name encoding/json gives field f.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// jsonKindOf is the kind of the JSON value raw as encoding/json's type
// errors name it (UnmarshalTypeError.Value): "string", "array", "object",
// "bool", "null" or "number".
func jsonKindOf(raw json.RawMessage) string {
	switch raw[0] {
	case '"':
		return "string"
	case '[':
		return "array"
	case '{':
		return "object"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// arrayIndexRE matches the indices of a JSON path ("[0]").
var arrayIndexRE = regexp.MustCompile(`\[\d+\]`)

// typeErrorAt finds the value te is about: the first value, in document
// order, whose path without its indices ("parameters[0].value" ->
// "parameters.value") is te.Field (less the names of embedded structs, such
// as "plain"), that is of the JSON kind te.Value names and that does not
// decode into te.Type. It returns its path and offset.
func typeErrorAt(b []byte, te *json.UnmarshalTypeError) (string, int64, bool) {
	if te.Type == nil {
		return "", 0, false
	}
	parts := strings.Split(te.Field, ".")
	first, last := parts[0], parts[len(parts)-1]
	pos := jsonPositions(b)
	type cand struct { // a value that fails to decode into te.Type
		path  string
		off   int64
		depth int // array indices in the path
	}
	var cands []cand
	okDepth := map[int]bool{} // depths at which some value decodes into te.Type
	for path, off := range pos {
		bare := strings.Split(arrayIndexRE.ReplaceAllString(path, ""), ".")
		if len(bare) < min(len(parts), 2) || !strings.EqualFold(bare[0], first) || !strings.EqualFold(bare[len(bare)-1], last) {
			continue
		}
		var raw json.RawMessage
		if json.NewDecoder(bytes.NewReader(b[off:])).Decode(&raw) != nil {
			continue
		}
		depth := len(arrayIndexRE.FindAllString(path, -1))
		if json.Unmarshal(raw, reflect.New(te.Type).Interface()) == nil {
			okDepth[depth] = true
			continue
		}
		// of the JSON kind the error names: an array whose element is
		// at fault fails as a whole too ("x" inside curve_samples'
		// [[1, "x"]] was placed at the outer [)
		if strings.HasPrefix(te.Value, jsonKindOf(raw)) {
			cands = append(cands, cand{path, off, depth})
		}
	}
	// At the depth where te.Type's values are (where its siblings decode):
	// a number where an inner array belongs (bootstrap_samples[3] = 1) is
	// of the kind the error names, and so is every number a level below
	// it, which fails to decode into an array too. Any depth when none
	// does.
	pick := func(atOK bool) (string, int64) {
		best, bestOff := "", int64(-1)
		for _, c := range cands {
			if atOK && !okDepth[c.depth] {
				continue
			}
			if bestOff < 0 || c.off < bestOff {
				best, bestOff = c.path, c.off
			}
		}
		return best, bestOff
	}
	best, bestOff := pick(true)
	if bestOff < 0 {
		best, bestOff = pick(false)
	}
	return best, bestOff, bestOff >= 0
}

// syntaxErrorOffset is the offset of the byte a syntax error of
// encoding/json is about, placed as the Chrome-trace reader places one
// (traces/chrome.go, jsonErr): se.Offset counts the bytes read, the
// offending one included ({"a": x} gave column 8 for the x at 7). Input
// that ends in the middle of a value is placed at its end.
func syntaxErrorOffset(b []byte, se *json.SyntaxError) int64 {
	if se.Error() == "unexpected end of JSON input" {
		return int64(len(b))
	}
	return min(max(se.Offset-1, 0), int64(len(b)))
}

// valueBefore is the offset where the last value of b that starts before
// off starts: the value a type error of encoding/json whose Offset is off
// is about (Offset is where a number, string or literal ends, or just past
// the [ or { of an array or object). b is a document that parses.
func valueBefore(b []byte, off int64) int64 {
	best := valueStart(b, 0)
	for _, at := range jsonPositions(b) {
		if at < off && at > best {
			best = at
		}
	}
	return best
}

// valueStart skips the white space, colon and comma after off.
func valueStart(b []byte, off int64) int64 {
	for off < int64(len(b)) {
		switch b[off] {
		case ' ', '\t', '\n', '\r', ':', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// positionOf is the offset of path in pos, or of its nearest enclosing
// value that is there (the document's start at worst).
func positionOf(pos map[string]int64, path string) int64 {
	for {
		if off, ok := pos[path]; ok {
			return off
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			return pos[""]
		}
		path = path[:i]
	}
}

func lineCol(b []byte, off int64) (line, col int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	pre := b[:off]
	line = bytes.Count(pre, []byte{'\n'}) + 1
	col = int(off) - bytes.LastIndexByte(pre, '\n')
	if bytes.LastIndexByte(pre, '\n') < 0 {
		col = int(off) + 1
	}
	return line, col
}

// placer places ParseModel's faults in the file: its name, its bytes and
// the offsets of its values by path (jsonPositions, found on first use).
type placer struct {
	name string
	b    []byte
	pos  map[string]int64
}

// offset is where the value at path starts, or the nearest enclosing
// value that is there (positionOf).
func (p *placer) offset(path string) int64 {
	if p.pos == nil {
		p.pos = jsonPositions(p.b)
	}
	return positionOf(p.pos, path)
}

// errorf is a *ModelError at the value at path (or at the object that
// lacks it).
func (p *placer) errorf(path, format string, args ...any) error {
	return p.errorAt(p.offset(path), format, args...)
}

// errorAt is a *ModelError at the byte offset off.
func (p *placer) errorAt(off int64, format string, args ...any) error {
	line, col := lineCol(p.b, off)
	return &ModelError{File: p.name, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}
