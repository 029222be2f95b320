package fit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A model.json fault with a place is a *ModelError a library caller can
// errors.As (file, line, column, message), with the same text as before;
// a missing file wraps fs.ErrNotExist; a fault with no place is no
// ModelError.
func TestModelErrorPlaced(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		doc       string
		line, col int
		msg, text string
	}{
		{"{\n  \"schema\": \"sgdplan/model/v1\",\n  \"family\": \"nope\"\n}\n", 3, 13, `unknown family "nope"`, ""},
		{"{\n  \"schema\": 7\n}\n", 2, 13, "field schema: expected", ""},
		{"{\"a\": 1, \"a\": 2}", 1, 10, `field "a" appears twice`, ""},
	} {
		p := filepath.Join(dir, "m.json")
		if err := os.WriteFile(p, []byte(c.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadModel(p)
		var me *ModelError
		if !errors.As(err, &me) {
			t.Errorf("%q: %v: not a *ModelError", c.doc, err)
			continue
		}
		if me.File != p || me.Line != c.line || me.Column != c.col || len(me.Msg) < len(c.msg) || me.Msg[:len(c.msg)] != c.msg {
			t.Errorf("%q: %+v, want %s:%d:%d and a message starting %q", c.doc, me, p, c.line, c.col, c.msg)
		}
		if want := "fit: " + p + ":" + strconv.Itoa(c.line) + ":" + strconv.Itoa(c.col) + ": " + me.Msg; err.Error() != want {
			t.Errorf("text %q, want %q", err.Error(), want)
		}
	}
	_, err := LoadModel(filepath.Join(dir, "none.json"))
	var me *ModelError
	if !errors.Is(err, fs.ErrNotExist) || errors.As(err, &me) {
		t.Errorf("missing file: %v: want fs.ErrNotExist and no ModelError", err)
	}
}
