// Package jsontext writes sgdplan's JSON outputs as encoding/json does,
// byte for byte, except that <, > and & are written as themselves:
// json.Marshal escapes them (for HTML pages) as \u003c, \u003e and
// \u0026, so that a verdict's ">= 4 workers" or a warning's "R² < 0.9"
// read "\u003e= 4 workers" in the file a person opens. Decoders read both
// spellings alike.
package jsontext

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without the HTML escapes.
func Marshal(v any) ([]byte, error) {
	return encode(v, false, "", "")
}

// MarshalIndent is json.MarshalIndent without the HTML escapes. A type's
// own MarshalJSON must use Marshal too: the encoder keeps the escapes a
// marshaler wrote.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	return encode(v, true, prefix, indent)
}

func encode(v any, indented bool, prefix, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := b.Bytes()
	out = out[:len(out)-1] // Encode ends the value with a newline
	if !indented {
		return out, nil
	}
	// as json.MarshalIndent: the compact text, indented (an Encoder's
	// SetIndent("", "") would write it compact)
	var ind bytes.Buffer
	ind.Grow(2 * len(out))
	if err := json.Indent(&ind, out, prefix, indent); err != nil {
		return nil, err
	}
	return ind.Bytes(), nil
}
