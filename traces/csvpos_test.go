package traces

import (
	"encoding/csv"
	"errors"
	"io"
	"math/rand"
	"strings"
	"testing"
	"testing/fstest"
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

// A quoted field with commas before the bad field: the column is the byte
// where the bad field starts, not its field number (7) nor a count that
// takes the quoted commas for separators; a record that a quoted field runs
// on across lines has the fields after it at their own line and column.
func TestColumnAfterQuotedCommas(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// "x,y,z" is bytes 1-7; then 2 at 9, 1 at 11, 32 at 13, 0 at 16 and
		// 18, abc at 20
		{stepsHeader + "\"x,y,z\",2,1,32,0,0,abc,1,,,,,\n", `traces: steps.csv:2:20: start: "abc" is not a number (expected seconds)`},
		// line 3 is `""y",2,1,32,0,0,abc,...`: ""y" is bytes 1-4, abc at 17
		{stepsHeader + "\"x,\n\"\"y\",2,1,32,0,0,abc,1,,,,,\n", `traces: steps.csv:3:17: start: "abc" is not a number (expected seconds)`},
		// a quoted field is at its opening quote: "-1" at 14
		{stepsHeader + "\"a,b\",1,1,32,\"-1\",0,0,1,,,,,\n", `traces: steps.csv:2:14: worker: -1 is below 0 (expected an integer >= 0)`},
		// a short row, its last field quoted: just past the line's 18 bytes
		{stepsHeader + "a,1,1,32,0,0,0,\"1\"\n", `traces: steps.csv:2:19: row ends after 8 of the header's 13 fields: column "pull" missing`},
		// ... on the record's last line, `b",1,1,32,0,0,0,1` (17 bytes)
		{stepsHeader + "\"a\nb\",1,1,32,0,0,0,1\n", `traces: steps.csv:3:18: row ends after 8 of the header's 13 fields: column "pull" missing`},
		// a header's unknown-column warning is at its byte too (the warning is
		// not an error: a bad row after it shows the header was read)
		{"\ufeffrun,\"updates\",loss\na,x,1\n", `traces: evals.csv:2:3: updates: "x" is not an integer (expected an integer >= 0)`},
	} {
		kind := "steps"
		if strings.HasPrefix(c.in, "\ufeff") {
			kind = "evals"
		}
		if _, err := readKind(kind, c.in); err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	// the header's warning and errors: the byte-order mark is a part of the
	// first field, as encoding/csv reads it (run at 1, "x" at 8, loss at 12)
	w, err := ReadEvals(strings.NewReader("\ufeffrun,\"x\",loss,time\na,1,2,3\n"), "evals.csv", func(Eval) error { return nil })
	if err != nil || len(w) != 1 || w[0].Error() != `traces: evals.csv:1:8: unknown column "x" ignored` {
		t.Errorf("warnings %v, error %v; want x ignored at 1:8", w, err)
	}
	if _, err := readKind("evals", "\ufeffrun,\"x\",Run\n"); err == nil || err.Error() != `traces: evals.csv:1:12: column "run" repeats column 1` {
		t.Errorf("repeated column: %v; want it at 1:12", err)
	}
}

// The canonical readers and the public-table readers give a bad field the
// same line and column, whatever comes before it on the line.
func TestCanonicalAndPublicColumnsAgree(t *testing.T) {
	const header = "model,workers,ps,batch,steps_per_s\n"
	for _, row := range []string{
		"m,1,1,32,abc\n",
		"\"m,n\",1,1,32,abc\n",
		"\"m\"\"n\",1,1,  32  ,abc\n",
		"\"m\nn,o\",1,1,32,abc\n",
		"m,1,1,32,\"abc\"\n",
		"\"m,n\",1,1,32\n",           // short: just past the line's end
		"\"m\",1,1,\"3\n2\"\n",       // short, over two lines
		"m,1,1,32,1,\"x,y\",extra\n", // long: at the first extra field
	} {
		_, cerr := readKind("throughput", header+row)
		_, perr := readTableFrom("throughput.csv", strings.NewReader(header+row), []string{"steps_per_s"}, func(t *pubTable) ([]int, error) {
			return nil, t.each(func() error { _, err := t.positive("steps_per_s"); return err })
		})
		var c, p *ParseError
		if !errors.As(cerr, &c) || !errors.As(perr, &p) {
			t.Errorf("%q: errors %v and %v, want two *ParseError", row, cerr, perr)
			continue
		}
		if c.Line != p.Line || c.Column != p.Column || c.Column == 0 {
			t.Errorf("%q: canonical at %d:%d (%v), public table at %d:%d (%v)", row, c.Line, c.Column, cerr, p.Line, p.Column, perr)
		}
	}
}

// A public table's header after blank lines (encoding/csv skips them): its
// faults are at its own line, not line 1.
func TestPublicHeaderAfterBlankLines(t *testing.T) {
	none := func(*pubTable) ([]int, error) { return nil, nil }
	for _, c := range []struct {
		in   string
		cols []string
		want string
	}{
		{"\n\nx, x\n1,2\n", nil, `traces: t.csv:3:3: column "x" repeats field 1 of the header: expected each column once`},
		{"\n\nx,n\n1,2\n", []string{"y"}, `traces: t.csv:3: missing required column "y" (header has x,n)`},
		// a byte-order mark alone on the first line: a blank line (it read
		// as a header of one empty column)
		{"\xef\xbb\xbf\nx,n\n1,2\n", []string{"y"}, `traces: t.csv:2: missing required column "y" (header has x,n)`},
		{"\xef\xbb\xbf\r\nx, x\r\n1,2\r\n", nil, `traces: t.csv:2:3: column "x" repeats field 1 of the header: expected each column once`},
	} {
		if _, err := readTableFrom("t.csv", strings.NewReader(c.in), c.cols, none); err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	_, err := readTableFrom("t.csv", strings.NewReader("\n\nx\n"), nil, func(t *pubTable) ([]int, error) { return nil, t.each(func() error { return nil }) })
	if err == nil || err.Error() != "traces: t.csv: header only: no data rows after line 3" {
		t.Errorf("header only: %v", err)
	}
}

// A public table's rates lie in the range throughput.csv holds (rateFault,
// which WriteThroughput and ReadThroughput share): a rate outside it is an
// error at the cell it comes from, not rows that convert then fails to
// write (FuzzPublicTables found step_time 1e30 read as 1e-30 steps/s).
func TestPublicRatesInRange(t *testing.T) {
	for _, c := range []struct{ name, file, in, want string }{
		{"pollux-osdi21", "traces/bert/placements.csv", "placement,local_bsz,step_time\n1,1,1e30\n",
			`traces: fuzz/traces/bert/placements.csv:2:5: column step_time: 1e30 s gives steps_per_s 9.999999999999999e-31, which is outside 1e-12 to 1e+12`},
		{"dl2-mxnet-ps-speed", "ps_worker_speed.csv", "model,sync_mode,tot_batch_size,num_ps,num_workers,speed_sum\nvgg,dist_sync,32,1,2,1e13\n",
			`traces: fuzz/ps_worker_speed.csv:2:22: column speed_sum: 1e13 gives samples_per_s 1e+13, which is outside`},
		{"elasticflow-asplos23", "throughputs_A100_raw/bert.csv", "global_batch_size,1,2\n64,6.0,1e-13\n",
			`traces: fuzz/throughputs_A100_raw/bert.csv:2:8: column 2: 1e-13 gives steps_per_s 1e-13, which is outside`},
		{"tf-cnn-benchmarks-2017", "tf_cnn_benchmarks_may2017.csv", "platform,num_gpus,model,batch_size_per_gpu,data,variable_update,images_per_sec\np,1,m,64,synthetic,replicated,2e12\n",
			`traces: fuzz/tf_cnn_benchmarks_may2017.csv:2:31: column images_per_sec: 2e12 gives samples_per_s 2e+12, which is outside`},
		{"gavel-osdi20", "simulation_throughputs_isolated.csv", "gpu_type,consolidated,job_type,batch_size,scale_factor,isolated_steps_per_sec\nv100,1,A3C,,1,1e300\n",
			`traces: fuzz/simulation_throughputs_isolated.csv:2:15: column isolated_steps_per_sec: 1e300 gives steps_per_s 1e+300, which is outside`},
	} {
		fsys := fstest.MapFS{c.file: &fstest.MapFile{Data: []byte(c.in)}}
		if c.name == "pollux-osdi21" {
			fsys["traces/bert/scalability.csv"] = &fstest.MapFile{Data: []byte("num_nodes,num_replicas,local_bsz,step_time\n2,4,8,0.5\n")}
		}
		_, _, err := datasetLoaders[c.name](pubFiles{fsys: fsys, dir: "fuzz"})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s...", c.name, err, c.want)
		}
	}
}

// A byte-order mark alone on line 1, then a blank line's end (LF or CRLF),
// is a blank line, which the reader skips (the docs say so of both): it was
// a record of one empty field, "steps.csv:1:1: empty column name in the
// header". The header is then on line 2, and its positions count no mark.
func TestBOMThenBlankLine(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n"} {
		in := "\xef\xbb\xbf" + nl + "run,workers,ps,batch,worker,step,start,end" + nl + "a,1,1,1,0,0,0,1" + nl
		rows := 0
		w, err := ReadSteps(strings.NewReader(in), "steps.csv", func(Step) error { rows++; return nil })
		if err != nil || len(w) != 0 || rows != 1 {
			t.Errorf("%q: %d rows, warnings %v, error %v; want 1 row", nl, rows, w, err)
		}
		// an unknown column at byte 44 of line 2; end before start at
		// byte 15 of line 3 ("a,1,1,1,0,0,2," is 14 bytes)
		in = "\xef\xbb\xbf" + nl + "run,workers,ps,batch,worker,step,start,end,host" + nl + "a,1,1,1,0,0,2,1,x" + nl
		w, err = ReadSteps(strings.NewReader(in), "steps.csv", func(Step) error { return nil })
		if len(w) != 1 || w[0].Error() != `traces: steps.csv:2:44: unknown column "host" ignored` {
			t.Errorf("%q: warnings %v", nl, w)
		}
		if err == nil || err.Error() != "traces: steps.csv:3:15: end: 1 is before start 2" {
			t.Errorf("%q: error %v", nl, err)
		}
		_, err = ReadSteps(strings.NewReader("\xef\xbb\xbf"+nl+"run,workers,ps,batch,worker,step,start,end"+nl), "steps.csv", func(Step) error { return nil })
		if err == nil || err.Error() != "traces: steps.csv:2: header only: no data rows after line 2" {
			t.Errorf("%q: header only: %v", nl, err)
		}
	}
}

// The missing-column error describes the header: a tab-separated one is
// text (it was called "not text: not a CSV file?") and gets a question; a
// binary one is named by its line, which blank lines move (it always said
// line 1). The public tables' reader's are in TestLoadDatasetMalformed.
func TestHeaderTextTabsAndLine(t *testing.T) {
	read := func(in string) error {
		_, err := ReadSteps(strings.NewReader(in), "steps.csv", func(Step) error { return nil })
		return err
	}
	cases := []struct{ in, want string }{
		{"run\tworkers\tps\n", `traces: steps.csv:1: missing required column "run" (header has "run\tworkers\tps": tab-separated? expected columns separated by commas)`},
		{"run;workers;ps\n", `traces: steps.csv:1: missing required column "run" (header has "run;workers;ps": separated by semicolons? expected columns separated by commas)`},
		{"\n\nRun\tWorkers\n", `traces: steps.csv:3: missing required column "run" (header has "run\tworkers": tab-separated? expected columns separated by commas)`},
		{"\n\x00\x01,x\n", `traces: steps.csv:2: missing required column "run" (line 2 is not text: not a CSV file? It starts "\x00\x01,x")`},
		{"\x00\tx\n", `traces: steps.csv:1: missing required column "run" (line 1 is not text: not a CSV file? It starts "\x00\tx")`},
		{"a,b\n", `traces: steps.csv:1: missing required column "run" (header has a,b)`},
	}
	for _, c := range cases {
		if err := read(c.in); err == nil || err.Error() != c.want {
			t.Errorf("%q: %v\nwant %s", c.in, err, c.want)
		}
	}
}

// Column names that are not UTF-8 keep their bytes: strings.ToLower made
// each invalid byte U+FFFD, so "\xff" and "\xfe" were one name ("column
// "\ufffd" repeats column 9", a refusal) and the warnings named neither.
// Letters still match without regard to case, invalid bytes or not.
func TestHeaderNamesNotUTF8(t *testing.T) {
	const h = "run,workers,ps,batch,worker,step,start,end" // 42 bytes: a 9th column at byte 44
	read := func(header, row string) ([]error, error) {
		return ReadSteps(strings.NewReader(header+"\na,1,1,1,0,0,0,1"+row+"\n"), "steps.csv", func(Step) error { return nil })
	}
	w, err := read(h+",\xff,\xfe", ",x,y")
	if err != nil || len(w) != 2 || w[0].Error() != `traces: steps.csv:1:44: unknown column "\xff" ignored` || w[1].Error() != `traces: steps.csv:1:46: unknown column "\xfe" ignored` {
		t.Errorf("two invalid names: warnings %v, error %v", w, err)
	}
	_, err = read(h+",\xff,\xff", ",x,y")
	if err == nil || err.Error() != `traces: steps.csv:1:46: column "\xff" repeats column 9` {
		t.Errorf("a repeated invalid name: %v", err)
	}
	_, err = read(h+",HOST\xff,host\xff", ",x,y")
	if err == nil || err.Error() != `traces: steps.csv:1:50: column "host\xff" repeats column 9` {
		t.Errorf("names that differ in case: %v", err)
	}
	// a valid name lowercases as before
	w, err = read(h+",Ünit", ",x")
	if err != nil || len(w) != 1 || w[0].Error() != `traces: steps.csv:1:44: unknown column "ünit" ignored` {
		t.Errorf("valid UTF-8: warnings %v, error %v", w, err)
	}
}

// Spaces inside a quoted field's quotes are trimmed; outside them they are
// errors at the field, as in encoding/csv (trace-format.md's examples).
func TestSpacesAroundQuotes(t *testing.T) {
	const h = "run,workers,ps,batch,worker,step,start,end\n"
	var runs []string
	_, err := ReadSteps(strings.NewReader(h+`" a ",1,1,1,0,0,0,1`+"\n"), "steps.csv", func(s Step) error { runs = append(runs, s.Run); return nil })
	if err != nil || len(runs) != 1 || runs[0] != "a" {
		t.Errorf(`" a ": runs %q, %v; want "a"`, runs, err)
	}
	for in, want := range map[string]string{
		` "a",1,1,1,0,0,0,1`:    "traces: steps.csv:2:1: bare quote in an unquoted field; quote the whole field and double the quote",
		`"a" ,1,1,1,0,0,0,1`:    "traces: steps.csv:2:1: unexpected ' ' after a closing quote; expected ',' or the end of the line",
		`a,1,1,1,0, "0",0,1`:    "traces: steps.csv:2:11: bare quote in an unquoted field; quote the whole field and double the quote",
		`a,1,1,1,0,"0"  ,0,1`:   "traces: steps.csv:2:11: unexpected ' ' after a closing quote; expected ',' or the end of the line",
		"a,1,1,1,0,\"0\"\t,0,1": "traces: steps.csv:2:11: unexpected '\\t' after a closing quote; expected ',' or the end of the line",
	} {
		_, err := ReadSteps(strings.NewReader(h+in+"\n"), "steps.csv", func(Step) error { return nil })
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v\nwant %s", in, err, want)
		}
	}
}
