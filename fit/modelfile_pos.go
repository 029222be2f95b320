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
	"strings"
)

// jsonPositions maps the path of every value in the JSON document b
// ("parameters[1].value", "efficiency.gns"; "" for the document) to the
// byte offset where the value starts. A document that does not parse gives
// the paths read before the error.
func jsonPositions(b []byte) map[string]int64 {
	pos := map[string]int64{}
	dec := json.NewDecoder(bytes.NewReader(b))
	var walk func(path string) error
	walk = func(path string) error {
		pos[path] = valueStart(b, dec.InputOffset())
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
				if path != "" {
					k = path + "." + k
				}
				if err := walk(k); err != nil {
					return err
				}
			}
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		default:
			return nil
		}
		_, err = dec.Token() // the closing delimiter
		return err
	}
	_ = walk("")
	return pos
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
	// walk reads one value at path p, of type vt (nil: not checked); it
	// returns true to stop: a key found (ok) or a token that does not
	// parse (the decoder's errors are not sticky: going on could loop).
	var walk func(p string, vt reflect.Type) bool
	walk = func(p string, vt reflect.Type) bool {
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
				kp := k
				if p != "" {
					kp = p + "." + k
				}
				// encoding/json matches a field's name in any case:
				// "VALUE" after "value" overwrites it as well
				fold := strings.ToLower(k)
				if seen[fold] {
					path, off, ok = kp, start, true
					return true
				}
				seen[fold] = true
				var ft reflect.Type
				if vt != nil && vt.Kind() == reflect.Struct {
					var known bool
					if ft, known = jsonField(vt, k); !known {
						path, off, fields, ok = kp, start, jsonFields(vt), true
						return true
					}
				}
				if walk(kp, ft) {
					return true
				}
			}
		case json.Delim('['):
			var et reflect.Type
			if vt != nil && (vt.Kind() == reflect.Slice || vt.Kind() == reflect.Array) {
				et = vt.Elem()
			}
			for i := 0; dec.More(); i++ {
				if walk(fmt.Sprintf("%s[%d]", p, i), et) {
					return true
				}
			}
		default:
			return false
		}
		_, err = dec.Token() // the closing delimiter
		return err != nil
	}
	walk("", t)
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
