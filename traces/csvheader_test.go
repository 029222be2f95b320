package traces

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// wideHeader is steps.csv's 8 required columns and n unknown ones u0, u1,
// ..., with one row of empty unknown fields.
func wideHeader(n int) string {
	var b strings.Builder
	b.WriteString("run,workers,ps,batch,worker,step,start,end")
	for i := range n {
		fmt.Fprintf(&b, ",u%d", i)
	}
	b.WriteString("\na,1,1,32,0,0,0,1")
	b.WriteString(strings.Repeat(",", n))
	b.WriteString("\n")
	return b.String()
}

// Many unknown columns are one warning, at the first, naming five and
// counting the rest (they were a warning each: 160,000 lines of stderr for
// a 0.96 MB steps.csv); up to 10 are a warning each, as before.
func TestHeaderManyUnknownColumns(t *testing.T) {
	read := func(in string) ([]string, error) {
		w, err := ReadSteps(strings.NewReader(in), "steps.csv", func(Step) error { return nil })
		var s []string
		for _, e := range w {
			s = append(s, e.Error())
		}
		return s, err
	}
	w, err := read(wideHeader(20000))
	want := `traces: steps.csv:1:44: 20000 unknown columns ignored: "u0", "u1", "u2", "u3", "u4" and 19995 more`
	if err != nil || len(w) != 1 || w[0] != want {
		t.Errorf("20,000 unknown columns: %d warnings (first %.200q), error %v; want one: %s", len(w), w, err, want)
	}
	w, err = read(wideHeader(11))
	if err != nil || len(w) != 1 || w[0] != `traces: steps.csv:1:44: 11 unknown columns ignored: "u0", "u1", "u2", "u3", "u4" and 6 more` {
		t.Errorf("11 unknown columns: warnings %q, error %v", w, err)
	}
	w, err = read(wideHeader(10))
	if err != nil || len(w) != 10 || w[0] != `traces: steps.csv:1:44: unknown column "u0" ignored` || w[9] != `traces: steps.csv:1:71: unknown column "u9" ignored` {
		t.Errorf("10 unknown columns: warnings %q, error %v; want one each", w, err)
	}
}

// The header's positions, computed in one pass (fieldPositions), are
// fieldPos's, field by field, on an unquoted line, a quoted one, line 1 with
// a byte-order mark and a header after blank lines; and an error at the
// 20,009th column of a header is at its byte.
func TestHeaderPositionsOnePass(t *testing.T) {
	for _, in := range []string{
		"a,bb,,ccc\n",
		"\ufeffa,bb,,ccc\n",
		"\ufeff\"a\",bb,\"\",ccc\n",
		"\n\n\ufeffa,bb,ccc\n",
		"\n\"a\nb\",c,\"d\",e\n",
		"x\n",
		"\ufeffx\n",
	} {
		c, err := newCSVReader(strings.NewReader(in), "f.csv")
		if err != nil {
			t.Fatal(err)
		}
		rec, err := c.read()
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		got := c.fieldPositions(len(rec))
		for i := range rec {
			if want := c.fieldPos(i); got[i] != want {
				t.Errorf("%q field %d: at %v, fieldPos says %v", in, i, got[i], want)
			}
		}
		if _, err := c.read(); err != io.EOF {
			t.Errorf("%q: one record, then %v", in, err)
		}
	}
	// u0 again after u0..u19999: "run,...,end" is 42 bytes, then ",uN"
	in := wideHeader(20000)
	head, rest, _ := strings.Cut(in, "\n")
	col := len(head) + 2 // the comma, then the name
	_, err := ReadSteps(strings.NewReader(head+",u0\n"+rest), "steps.csv", func(Step) error { return nil })
	if want := fmt.Sprintf(`traces: steps.csv:1:%d: column "u0" repeats column 9`, col); err == nil || err.Error() != want {
		t.Errorf("a repeated column at the end: %v; want %s", err, want)
	}
	// quoted: the same byte
	_, err = ReadSteps(strings.NewReader(`"run"`+head[3:]+",u0\n"+rest), "steps.csv", func(Step) error { return nil })
	if want := fmt.Sprintf(`traces: steps.csv:1:%d: column "u0" repeats column 9`, col+2); err == nil || err.Error() != want {
		t.Errorf("a repeated column at the end, quoted header: %v; want %s", err, want)
	}
}

// BenchmarkReadHeaderWide reads a steps.csv of one row under a header of
// 20,000 unknown columns: its positions cost O(columns²) until they were
// computed in one pass.
func BenchmarkReadHeaderWide(b *testing.B) {
	in := wideHeader(20000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := ReadSteps(strings.NewReader(in), "steps.csv", func(Step) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
