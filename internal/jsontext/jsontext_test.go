package jsontext

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

type inner struct {
	A string  `json:"a"`
	B float64 `json:"b,omitempty"`
}

type outer struct {
	Name  string            `json:"name"`
	List  []inner           `json:"list"`
	Map   map[string]int    `json:"map"`
	Raw   json.RawMessage   `json:"raw"`
	Ptr   *float64          `json:"ptr"`
	Empty []int             `json:"empty"`
	Any   map[string]any    `json:"any"`
	Tags  map[string]string `json:"tags,omitempty"`
}

// Without <, > or &, the bytes are encoding/json's, for every indent.
func TestSameBytesAsEncodingJSON(t *testing.T) {
	x := 2.5e-7
	v := outer{
		Name:  "run \"a\"\n\t\u2028é",
		List:  []inner{{A: "x", B: 1e21}, {A: "", B: 0}},
		Map:   map[string]int{"b": 2, "a": 1},
		Raw:   json.RawMessage(`{"k": [1, 2]}`),
		Ptr:   &x,
		Empty: []int{},
		Any:   map[string]any{"n": nil, "f": 1.0, "s": []any{"q", true}},
	}
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Marshal: got\n%s\nwant\n%s", got, want)
	}
	for _, ind := range [][2]string{{"", ""}, {"", "  "}, {"  ", "  "}, {"\t", " "}} {
		want, err := json.MarshalIndent(v, ind[0], ind[1])
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarshalIndent(v, ind[0], ind[1])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("indent %q: got\n%s\nwant\n%s", ind, got, want)
		}
	}
}

// <, > and & are written as themselves, in strings, keys and a marshaler's
// raw text, and the text decodes to the same value.
func TestNoHTMLEscapes(t *testing.T) {
	v := outer{
		Name: "workers >= 4 & < 8",
		Map:  map[string]int{"<k>": 1},
		Raw:  json.RawMessage(`"a>b"`),
		List: []inner{},
	}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(got); strings.Contains(s, `\u00`) || !strings.Contains(s, `"workers >= 4 & < 8"`) ||
		!strings.Contains(s, `"<k>"`) || !strings.Contains(s, `"a>b"`) {
		t.Errorf("escaped or lost: %s", got)
	}
	var back outer
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if back.Name != v.Name || back.Map["<k>"] != 1 {
		t.Errorf("decoded %+v", back)
	}
	if bytes.HasSuffix(got, []byte("\n")) {
		t.Error("a trailing newline: json.Marshal writes none")
	}
}

// A value json cannot write is an error, as from encoding/json.
func TestErrorsAsEncodingJSON(t *testing.T) {
	_, want := json.Marshal(math.NaN())
	_, got := Marshal(math.NaN())
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Errorf("got %v, want %v", got, want)
	}
}
