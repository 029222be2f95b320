package traces

import (
	"encoding/csv"
	"io"
	"math/rand"
	"strings"
	"testing"
)

// The canonical reader's positions are encoding/csv's: for every field of
// every record, the line and byte column where it starts (its opening quote
// when quoted), the byte-order mark counted; and one past the end of a
// record is the byte just past its last line's content.
func TestFieldPosAsEncodingCSV(t *testing.T) {
	inputs := []string{
		"a,b,c\n1,22,333\n",
		"\ufeffrun,x\nab,\"c,d\"\n",
		"\ufeff\"run\",x\nab,1\n",
		"a,b\r\n\"x\r\ny\",\"q\"\"r\",z\r\n",
		"a,b,c\n\"1\n22\n\",\"3\",  4\n\n\n5,,\n",
		"x\n\"\"\n,\n,\"\",\n",
	}
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "bc", " ", ",", ",", "\n", "\r\n", `"q,1"`, `"x""y"`, "\"m\nn\"", "\"\r\n\"", `""`}
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := rng.Intn(20); k >= 0; k-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		in := b.String()
		if n%4 == 0 && in != "" && in[0] != '\n' && in[0] != '\r' {
			in = "\ufeff" + in // not before a blank line, which the reader skips
		}
		inputs = append(inputs, in)
	}
	compared := 0
	for _, in := range inputs {
		want := csvPositions(in)
		if want == nil {
			continue // encoding/csv refuses it
		}
		c, err := newCSVReader(strings.NewReader(in), "f.csv")
		if err != nil {
			t.Fatal(err)
		}
		for r := 0; ; r++ {
			f, err := c.read()
			if err == io.EOF {
				if r != len(want) {
					t.Errorf("%q: %d records, encoding/csv %d", in, r, len(want))
				}
				break
			}
			if err != nil || c.loneCR(f) != nil {
				break // a lone CR: refused here, a byte of the field there
			}
			if r >= len(want) || len(f) != len(want[r])-1 {
				t.Errorf("%q: record %d: %q, encoding/csv differs", in, r, f)
				break
			}
			for i := range want[r] {
				if got := c.fieldPos(i); got != want[r][i] {
					t.Errorf("%q: record %d field %d: at %d:%d, encoding/csv %d:%d", in, r, i, got.line, got.col, want[r][i].line, want[r][i].col)
				}
			}
			compared++
		}
	}
	if compared < 1000 {
		t.Errorf("%d records compared", compared)
	}
}

// csvPositions is where encoding/csv finds each field of each record of in,
// then one more position per record: the byte just past the content of its
// last line (from the text: the record's last line, less its ending). nil
// when encoding/csv refuses in.
func csvPositions(in string) [][]filePos {
	lines := strings.Split(in, "\n")
	cr := csv.NewReader(strings.NewReader(in))
	cr.FieldsPerRecord = -1
	var out [][]filePos
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out
		}
		if err != nil {
			return nil
		}
		var ps []filePos
		for i := range rec {
			l, c := cr.FieldPos(i)
			ps = append(ps, filePos{l, c})
		}
		last := ps[len(ps)-1].line + strings.Count(rec[len(rec)-1], "\n")
		ps = append(ps, filePos{last, len(strings.TrimSuffix(lines[last-1], "\r")) + 1})
		out = append(out, ps)
	}
}
