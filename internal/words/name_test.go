package words

import (
	"strings"
	"testing"
)

func TestNameFault(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"w1", ""},
		{"resnet-50 (batch 32)", ""},
		{"réseau-ü", ""}, // UTF-8 letters are names
		{"a\nb", ""},     // a quoted CSV field's line break, read back
		{"a\tb\r", ""},
		{"a\x1bb", "holds the control character U+001B at byte 2"},
		{"a\x00", "holds the control character U+0000 at byte 2"},
		{"a\x7f", "holds the control character U+007F at byte 2"},
		{"é\u0085", "holds the control character U+0085 at byte 3"}, // NEL, a C1 control
		{"w\xff1", "is not valid UTF-8"},
	} {
		got := NameFault(c.s)
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("NameFault(%q) = %q, want %q...", c.s, got, c.want)
		}
	}
}
