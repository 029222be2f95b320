package traces

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/internal/decimal"
)

// TestPlainDecimal: only plain decimal numbers are numbers; Go's other
// syntax (underscores, hexadecimal, base prefixes) is not.
func TestPlainDecimal(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-0": true, "+3": true, "1.5": true, ".5": true, "5.": true, "-.25": true,
		"1e3": true, "1E+3": true, "2.5e-7": true, "00012.3400": true,
		"": false, "-": false, ".": false, "e3": false, "1e": false, "1e+": false, "1..2": false,
		"1_0": false, "0.1e1_0": false, "0x1p4": false, "0x10": false, "1e3.5": false, "--1": false,
		"inf": false, "NaN": false, " 1": false, "1 ": false, "0b1": false, "1,5": false,
	} {
		if got := decimal.Plain(s); got != want {
			t.Errorf("decimal.Plain(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"1_0", "0.1e1_0", "0x1p4", "0x10", "1_000.5", "0X1P-2"} {
		if v, err := parseFloat(s); !errors.Is(err, strconv.ErrSyntax) {
			t.Errorf("parseFloat(%q) = %v, %v; want a syntax error", s, v, err)
		}
	}
	for _, s := range []string{"inf", "-Inf", "+infinity", "NaN"} {
		if _, err := parseFloat(s); err != nil {
			t.Errorf("parseFloat(%q): %v; want inf or nan, for the caller to refuse", s, err)
		}
	}
}

// TestGoNumberSyntaxRefused: in the canonical files and the public tables,
// "1_0" is not 10, "0x1p4" not 16, "1_6" not the integer 16.
func TestGoNumberSyntaxRefused(t *testing.T) {
	for _, c := range []struct{ kind, in, want string }{
		{"steps", stepsHeader + "a,1,1,32,0,0,0,1_0,,,,,\n", `traces: steps.csv:2:16: end: "1_0" is not a number (expected seconds)`},
		{"steps", stepsHeader + "a,1,1,32,0,0,0,0.1e1_0,,,,,\n", `traces: steps.csv:2:16: end: "0.1e1_0" is not a number (expected seconds)`},
		{"steps", stepsHeader + "a,1,1,32,0,0,0,0x1p4,,,,,\n", `traces: steps.csv:2:16: end: "0x1p4" is not a number (expected seconds)`},
		{"steps", stepsHeader + "a,1,1,1_6,0,0,0,1,,,,,\n", `traces: steps.csv:2:7: batch: "1_6" is not an integer (expected an integer >= 1)`},
		{"steps", stepsHeader + "a,1,1,32,0,1_0.0,0,1,,,,,\n", `traces: steps.csv:2:12: step: "1_0.0" is not an integer (expected an integer >= 0)`},
		{"throughput", "workers,ps,batch,steps_per_s\n1,1,32,0x1p1\n", `traces: throughput.csv:2:8: steps_per_s: "0x1p1" is not a number (expected steps per second > 0)`},
		{"updates", "run,shard,worker,time,version,staleness\na,0,0,1_5,1,0\n", `traces: updates.csv:2:7: time: "1_5" is not a number (expected seconds)`},
		// whole as float64, not as written
		{"steps", stepsHeader + "a,1.0000000000000001,1,32,0,0,0,1,,,,,\n", `traces: steps.csv:2:3: workers: "1.0000000000000001" is not an integer (expected an integer >= 1)`},
		{"steps", stepsHeader + "a,1,1,32,0,4503599627370496.5,0,1,,,,,\n", `traces: steps.csv:2:12: step: "4503599627370496.5" is not an integer (expected an integer >= 0)`},
		{"steps", stepsHeader + "a,1,1,32,0,1e-999999999,0,1,,,,,\n", `traces: steps.csv:2:12: step: "1e-999999999" is not an integer (expected an integer >= 0)`}, // at once
		// times beyond 1e12 s (end - start overflowed and inspect panicked)
		{"steps", stepsHeader + "a,1,1,32,0,0,-1.7e308,1.7e308,,,,,\n", `traces: steps.csv:2:14: start: -1.7e+308 s is beyond ±1e+12 s (expected seconds; are the times in seconds?)`},
		{"steps", stepsHeader + "a,1,1,32,0,0,0,1,2e12,,,,\n", `traces: steps.csv:2:18: pull: 2e+12 s is beyond 1e+12 s (expected a duration in seconds; are the times in seconds?)`},
		{"updates", "run,shard,worker,time,version,staleness\na,0,0,1e13,1,0\n", `traces: updates.csv:2:7: time: 1e+13 s is beyond ±1e+12 s (expected seconds; are the times in seconds?)`},
	} {
		if _, err := readKind(c.kind, c.in); err == nil || err.Error() != c.want {
			t.Errorf("%s %q:\n got %v\nwant %s", c.kind, c.in, err, c.want)
		}
	}
	// still numbers: a sign, a bare point, an exponent, 4.0 as an integer
	if n, err := readKind("steps", stepsHeader+"a,1,1,4.0,0,1e1,+0.5,.75,,,,,\n"); err != nil || n != 1 {
		t.Errorf("plain decimals refused: %v", err)
	}

	// public tables: pubTable.float and pubTable.integer (their column is
	// the byte position, as encoding/csv gives it)
	for _, c := range []struct{ col, val, want string }{
		{"x", "1_0", `traces: t.csv:2:1: column x: expected a finite number, got "1_0"`},
		{"x", "0x1p4", `traces: t.csv:2:1: column x: expected a finite number, got "0x1p4"`},
		{"n", "1_6", `traces: t.csv:2:5: column n: expected an integer, got "1_6"`},
		{"n", "0x10", `traces: t.csv:2:5: column n: expected an integer, got "0x10"`},
	} {
		var row string
		if c.col == "x" {
			row = c.val + ",2\n"
		} else {
			row = "1.5," + c.val + "\n"
		}
		_, err := readTableFrom("t.csv", strings.NewReader("x,n\n"+row), []string{"x", "n"}, func(t *pubTable) ([]int, error) {
			return nil, t.each(func() error {
				if _, err := t.float("x"); err != nil {
					return err
				}
				_, err := t.integer("n", 1)
				return err
			})
		})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s = %s:\n got %v\nwant %s", c.col, c.val, err, c.want)
		}
	}
}

// TestRowLengthAndLoneCR: a row short of fields names the column just past
// its last field and the first missing column, as the public tables do; a
// long one the first extra field; lines that end in a lone CR say so.
func TestRowLengthAndLoneCR(t *testing.T) {
	h := strings.TrimSuffix(stepsHeader, "\n")
	for _, c := range []struct{ in, want string }{
		{stepsHeader + "a,2,1,32,0,0,0,1\n", `traces: steps.csv:2:17: row ends after 8 of the header's 13 fields: column "pull" missing`},
		{stepsHeader + "a,2,1,32,0,0,0,1,,,,,,\n", "traces: steps.csv:2:23: 14 fields, expected 13 as in the header"},
		{h + "\ra,1,1,32,0,0,0,1,,,,,\r", "traces: steps.csv:1:72: " + loneCRMsg},
		{stepsHeader + "a,1,1,32,0,0,0,1,,,,,\ra,1,1,32,0,1,1,2,,,,,\r", "traces: steps.csv:2:22: " + loneCRMsg},
		{"run,updates,loss\ra,1,2\r", "traces: evals.csv:1:13: " + loneCRMsg},
	} {
		kind := "steps"
		if strings.HasPrefix(c.in, "run,updates") {
			kind = "evals"
		}
		if _, err := readKind(kind, c.in); err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	// CRLF is still a line end
	if n, err := readKind("steps", strings.ReplaceAll(stepsHeader+"a,1,1,32,0,0,0,1,,,,,\n", "\n", "\r\n")); err != nil || n != 1 {
		t.Errorf("CRLF: %v", err)
	}
	// a CR-only file longer than MaxLineBytes says so too
	var b strings.Builder
	b.WriteString(h + "\r")
	for b.Len() <= MaxLineBytes {
		b.WriteString("a,1,1,32,0,0,0,1,,,,,\r")
	}
	if _, err := readKind("steps", b.String()); err == nil || !strings.Contains(err.Error(), "line longer than") || !strings.Contains(err.Error(), "lone CR") {
		t.Errorf("long CR-only file: %v", err)
	}
	// public tables
	_, err := readTableFrom("t.csv", strings.NewReader("x,n\r1,2\r"), []string{"x"}, func(*pubTable) ([]int, error) { return nil, nil })
	if err == nil || err.Error() != "traces: t.csv:1:3: "+loneCRMsg {
		t.Errorf("public table: %v", err)
	}
}

// TestGzipTrailingBytes: bytes after a gzip stream that are no gzip member
// are named as such (not "truncated"); concatenated members are read.
func TestGzipTrailingBytes(t *testing.T) {
	rows := stepsHeader + "a,1,1,32,0,0,0,1,,,,,\na,1,1,32,0,1,1,2,,,,,\n"
	z := gzipString(rows)
	for _, tail := range []string{"x", "xyz", strings.Repeat("junk", 100)} {
		_, err := readKind("steps", z+tail)
		if err == nil || !strings.Contains(err.Error(), "bytes after the end of the gzip stream that are not gzip data") || strings.Contains(err.Error(), "truncated") {
			t.Errorf("%d trailing bytes: %v", len(tail), err)
		}
		_, _, err = ReadChromeTrace(strings.NewReader(gzipString(`[{"ph":"X","name":"step 1","pid":1,"tid":1,"ts":0,"dur":1}]`)+tail), "t.json.gz", ConvertOptions{})
		if err == nil || !strings.Contains(err.Error(), "bytes after the end of the gzip stream") {
			t.Errorf("chrome, %d trailing bytes: %v", len(tail), err)
		}
	}
	cut := len(stepsHeader) + 5
	if n, err := readKind("steps", gzipString(rows[:cut])+gzipString(rows[cut:])); err != nil || n != 2 {
		t.Errorf("two gzip members: %d rows, %v", n, err)
	}
}

// TestLargeIntegers: a whole number too large for the integer columns says
// so (it said "is not an integer" for 1e16 and for 2^63 in digits); text
// is still "not an integer".
func TestLargeIntegers(t *testing.T) {
	for _, c := range []struct{ step, want string }{
		{"1e16", `step: 1e16 is too large`},
		{"9223372036854775808", `step: 9223372036854775808 is too large`},
		{"1.5", `step: "1.5" is not an integer`},
		// not "too large": infinite, or negative
		{"inf", `step: "inf" is not an integer`},
		{"-1e20", `step: -1e20 is below 0`},
		{"-99999999999999999999", `step: -99999999999999999999 is below 0`},
		{"ten", `step: "ten" is not an integer`},
	} {
		in := stepsHeader + "a,1,1,32,0," + c.step + ",0,1,,,,,\n"
		_, _, err := readAllSteps(t, in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("step %s: %v, want %q", c.step, err, c.want)
		}
	}
	if _, _, err := readAllSteps(t, stepsHeader+"a,1,1,32,0,1e15,0,1,,,,,\n"); err != nil {
		t.Errorf("step 1e15: %v", err)
	}
}

// TestLoneCRRightFieldCount: a carriage return in an unquoted field of a
// row that has the header's field count is a lone CR too, named as such at
// the field that holds it (as a row of another count or the header is). It
// read as part of the value: "not a number" for a loss "2\r" (a CRLF file
// whose line ends were converted twice, CR CR LF), "not an integer" for
// updates, and a run named "a\rb" accepted as it is. A CR in a quoted
// field is data (the writers quote a text holding one), read as before.
func TestLoneCRRightFieldCount(t *testing.T) {
	const h = "run,updates,loss\n"
	cases := []struct{ name, in, want string }{
		// line 2 "a,1,2\r" (CR LF cut): loss starts at column 5
		{"loss, CR CR LF", h + "a,1,2\r\r\n", "traces: evals.csv:2:5: " + loneCRMsg},
		// "a,1\r,2": updates at column 3
		{"updates", h + "a,1\r,2\n", "traces: evals.csv:2:3: " + loneCRMsg},
		// the run name, at column 1
		{"run", h + "a\rb,1,2\n", "traces: evals.csv:2:1: " + loneCRMsg},
		// the last line of the file, without a line end (a CR that ends
		// it is a CR LF cut short, and cut off)
		{"last line", h + "a,1,2\n" + "a,2\r,1.5", "traces: evals.csv:3:3: " + loneCRMsg},
		// a record with quotes: an unquoted field ("1\r" at column 5) and
		// a CR just after a closing quote (the field "2" at column 7; it
		// was "unexpected '\r' after a closing quote")
		{"quoted record, unquoted field", h + "\"a\",1\r,2\n", "traces: evals.csv:2:5: " + loneCRMsg},
		{"after a closing quote", h + "\"a\",1,\"2\"\r\r\n", "traces: evals.csv:2:7: " + loneCRMsg},
		// lone-CR line ends where a line starts with a quote: the field
		// 2\r"b" (at column 5) was "bare quote in an unquoted field"
		{"lone CR before a quote", h + "a,1,2\r\"b\",1,2\n", "traces: evals.csv:2:5: " + loneCRMsg},
	}
	for _, c := range cases {
		if _, err := readKind("evals", c.in); err == nil || err.Error() != c.want {
			t.Errorf("%s: %q:\n got %v\nwant %s", c.name, c.in, err, c.want)
		}
	}
	// a CR inside quotes is data
	var runs []string
	_, err := ReadEvals(strings.NewReader(h+"\"a\rb\",1,2\n"), "evals.csv", func(e Eval) error { runs = append(runs, e.Run); return nil })
	if err != nil || len(runs) != 1 || runs[0] != "a\rb" {
		t.Errorf("quoted CR: runs %q, %v; want the run \"a\\rb\"", runs, err)
	}
}

// TestWholeText: wholeText agrees with big.Rat (what it used before, here
// the oracle) on the plain decimals the readers give it, and allocates
// nothing on a field of 1 MiB: big.Rat's time was quadratic in the digits,
// 2 s for "5." and a megabyte of zeros, each row of a file of them.
func TestWholeText(t *testing.T) {
	oracle := func(s string) bool {
		if i := strings.IndexAny(s, "eE"); i >= 0 {
			if e, err := strconv.Atoi(s[i+1:]); err != nil || e > 400 || e < -400 {
				return false
			}
		}
		r, ok := new(big.Rat).SetString(s)
		return ok && r.IsInt()
	}
	cases := []string{"0", "-0", "+7", "1.", ".5", ".0", "-.0", "1.e3", "+.5e1", "00", "1.50e1", "1.5e0", "1.5", "10e-1", "100e-3", "100e-2",
		"0e-400", "0e-401", "1e400", "1e401", "1000e-402", "4503599627370496.5", "1.0000000000000001", "12.3400e2", "12.3400e1"}
	rng := rand.New(rand.NewPCG(1, 2))
	digits := func() string {
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteByte("0015"[rng.IntN(4)])
		}
		return b.String()
	}
	for range 20000 {
		s := []string{"", "-", "+"}[rng.IntN(3)] + digits()
		if rng.IntN(2) == 0 {
			s += "." + digits()
		}
		if rng.IntN(2) == 0 {
			s += fmt.Sprintf("e%d", rng.IntN(13)-6)
		}
		if decimal.Plain(s) {
			cases = append(cases, s)
		}
	}
	for _, s := range cases {
		if got, want := wholeText(s), oracle(s); got != want {
			t.Errorf("wholeText(%q) = %v, big.Rat says %v", s, got, want)
		}
	}
	long := "5." + strings.Repeat("0", MaxLineBytes-8)
	if n := testing.AllocsPerRun(1, func() {
		if !wholeText(long) {
			t.Error("5.000... not whole")
		}
	}); n != 0 {
		t.Errorf("wholeText of %d bytes: %v allocations, want 0", len(long), n)
	}
}

// throughput.csv's std is the standard deviation of the row's rate, in its
// units (tfevents' converter writes the steady-state rate's): its errors
// called it "a duration in seconds" and asked whether the times were in
// seconds.
func TestThroughputStdMessages(t *testing.T) {
	const what = "(expected the standard deviation of the rate (steps_per_s, else samples_per_s), in its units, >= 0)"
	cases := []struct{ std, want string }{
		// "1,1,32,10," is 10 bytes: std starts at byte 11
		{"-1", "traces: throughput.csv:2:11: std: -1 is negative " + what},
		{"2e12", "traces: throughput.csv:2:11: std: 2e+12 is beyond 1e+12, the bound of the rates " + what},
		{"abc", `traces: throughput.csv:2:11: std: "abc" is not a number ` + what},
		{"inf", "traces: throughput.csv:2:11: std: inf is not allowed (expected a finite number: the standard deviation of the rate (steps_per_s, else samples_per_s), in its units, >= 0; leave the field empty when unknown)"},
		{"0", ""},
		{"1e12", ""},
	}
	for _, c := range cases {
		in := "workers,ps,batch,steps_per_s,std\n1,1,32,10," + c.std + "\n"
		_, err := ReadThroughput(strings.NewReader(in), "throughput.csv", func(Throughput) error { return nil })
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("std %s: %v\nwant %s", c.std, err, c.want)
		}
	}
}
