package csvtext

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestDropBOM(t *testing.T) {
	for in, want := range map[string]string{
		"\xef\xbb\xbf\na,b\n":     "\na,b\n",
		"\xef\xbb\xbf\r\na,b\n":   "\r\na,b\n",
		"\xef\xbb\xbfa,b\n":       "\xef\xbb\xbfa,b\n", // before text: kept
		"\xef\xbb\xbf":            "",                  // the mark alone: an empty file
		"\xef\xbb\xbf\"job\",a\n": "\"job\",a\n",       // before a quoted field (R's write.csv)
		"\xef\xbb\xbf\r":          "\xef\xbb\xbf\r",    // a lone CR is not a line end here
		"a,b\n":                   "a,b\n",
		"":                        "",
	} {
		br := bufio.NewReader(strings.NewReader(in))
		DropBOM(br)
		got, _ := io.ReadAll(br)
		if string(got) != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestLowerName(t *testing.T) {
	for in, want := range map[string]string{
		"Job":         "job",
		"\xff":        "\xff",
		"\xfe":        "\xfe",
		"A\xffÉ":      "a\xffé",
		"Size_GPU":    "size_gpu",
		"":            "",
		"ÀRRIVAL\xc3": "àrrival\xc3", // a cut sequence kept as it is
	} {
		if got := LowerName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestOtherSeparator(t *testing.T) {
	for _, c := range []struct {
		header []string
		want   string
	}{
		{[]string{"run;workers;ps"}, "semicolons"},
		{[]string{"run\tworkers"}, "tabs"},
		{[]string{"run\tworkers;ps"}, "tabs"},
		{[]string{"run", "workers\tps"}, "tabs"},
		{[]string{"run;x", "workers"}, ""}, // commas do separate it
		{[]string{"run"}, ""},
		{[]string{"run", "workers"}, ""},
		{nil, ""},
	} {
		if got := OtherSeparator(c.header); got != c.want {
			t.Errorf("%q: %q, want %q", c.header, got, c.want)
		}
	}
}
