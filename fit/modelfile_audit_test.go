package fit

import (
	"fmt"
	"strings"
	"testing"
)

// A key given twice in any object of model.json is refused at the repeat
// (encoding/json kept the last: "mode": "async", "mode": "sync" turned a
// failing check into a fine one); a UTF-8 byte-order mark before the JSON
// is read past, as the CSV readers do.
func TestParseModelDuplicateKeysAndBOM(t *testing.T) {
	good, err := fittedModel(t).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g := string(good)
	for _, c := range []struct{ name, doc, want string }{
		{"top", strings.Replace(g, `"mode": "sync",`, `"mode": "sync", "mode": "async",`, 1), `m.json:` + posAfter(strings.Replace(g, `"mode": "sync",`, `"mode": "sync", "mode": "async",`, 1), `"mode": "sync", `) + `: field "mode" appears twice`},
		{"nested", strings.Replace(g, `"ps": 2,`, `"ps": 2, "ps": 1,`, 1), `field "reference.ps" appears twice`},
		{"in a list", strings.Replace(g, `"unit": "s"`, `"unit": "s", "unit": "ms"`, 1), `field "parameters[0].unit" appears twice`},
	} {
		if _, err := ParseModel("m.json", []byte(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	m, err := ParseModel("m.json", append([]byte("\xef\xbb\xbf"), good...))
	if err != nil || m.Family != "optimus-sync" {
		t.Errorf("with a byte-order mark: %v", err)
	}
	// positions after a mark are those an editor shows
	bad := "\xef\xbb\xbf{\n  \"schema\": 3}"
	if _, err := ParseModel("m.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "m.json:2:") {
		t.Errorf("error after a byte-order mark: %v", err)
	}
}

// posAfter is "line:col" of the text just after the first occurrence of
// key in doc.
func posAfter(doc, key string) string {
	i := strings.Index(doc, key) + len(key)
	line, col := lineCol([]byte(doc), int64(i))
	return fmt.Sprintf("%d:%d", line, col)
}
