package fit

import (
	"bytes"
	"slices"
	"testing"
)

// model.json writes <, > and & as themselves (encoding/json wrote a
// warning's "R² < 0.5" as "R² \u003c 0.5" in the file a person opens), and
// reads them back.
func TestModelJSONNoHTMLEscapes(t *testing.T) {
	m := fittedModel(t)
	w := "staleness > 4 & R² < 0.5"
	m.Diagnostics.Warnings = append(m.Diagnostics.Warnings, w)
	doc, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte(`"`+w+`"`)) || bytes.Contains(doc, []byte(`\u00`)) {
		t.Fatalf("warning not written as itself:\n%s", doc)
	}
	back, err := ParseModel("m.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(back.Diagnostics.Warnings, w) {
		t.Errorf("read back %q", back.Diagnostics.Warnings)
	}
}
