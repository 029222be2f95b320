package traces

import (
	"strings"
	"testing"
)

// A field loses the spaces and tabs at its ends, as docs/trace-format.md
// says, and no other white space: a quoted bandwidth "6e6\n" is not a
// number, and " 6e6\n" is not one either (it read as 6e6, the newline
// trimmed because the field began with a space).
func TestTrimSpacesAndTabsOnly(t *testing.T) {
	for _, c := range []struct {
		field string
		ok    bool
	}{
		{" 6e6\t", true},
		{"\"\t6e6 \"", true},
		{"\"6e6\n\"", false},
		{"\" 6e6\n\"", false},
		{"\"\n6e6 \"", false},
	} {
		var got []RunInfo
		_, err := ReadRuns(strings.NewReader("run,bandwidth\nr,"+c.field+"\n"), "runs.csv", func(r RunInfo) error {
			got = append(got, r)
			return nil
		})
		switch {
		case c.ok && (err != nil || len(got) != 1 || got[0].Bandwidth != 6e6):
			t.Errorf("%q: %v, %+v: want bandwidth 6e6", c.field, err, got)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "runs.csv:2:3: bandwidth:")):
			t.Errorf("%q: %v: want an error at the bandwidth field", c.field, err)
		}
	}
}
