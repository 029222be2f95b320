package planner

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadJobs(t *testing.T) {
	in := "job,arrival,size,p,max_workers,weight,rigid_workers,extra\n" +
		"a,0,4,0.5,,,,x\n" +
		"b,1.5,3,1,8,2,4,y\n" +
		"c,,2,0.25,,,,\n" // arrival defaults to the previous one
	jobs, err := ReadJobs(strings.NewReader(in), "jobs.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("%d jobs, want 3", len(jobs))
	}
	b := jobs[1]
	if b.ID != "b" || b.Arrival != 1.5 || b.Size != 3 || b.MaxWorkers != 8 || b.Weight != 2 || b.RigidWorkers != 4 || b.Curve != (PowerLaw{1}) {
		t.Errorf("job b = %+v", b)
	}
	if jobs[2].Arrival != 1.5 || jobs[2].Curve != (PowerLaw{0.25}) {
		t.Errorf("job c = %+v", jobs[2])
	}
	if jobs[0].weight() != 1 || jobs[0].rigid(16) != 1 || b.rigid(16) != 4 || (&Job{MaxWorkers: 64}).rigid(10) != 10 {
		t.Errorf("defaults: weight %g rigid %d", jobs[0].weight(), jobs[0].rigid(16))
	}
}

func TestReadJobsModel(t *testing.T) {
	in := "job,size,model\na,10,m.json\nb,5,missing.json\n"
	resolve := func(path string) (Speedup, error) {
		if path == "m.json" {
			return PowerLaw{0.4}, nil
		}
		return nil, errors.New("open " + path + ": no such file or directory")
	}
	_, err := ReadJobs(strings.NewReader(in), "jobs.csv", resolve)
	if err == nil || !strings.Contains(err.Error(), "jobs.csv:3:5: model: job \"b\": open missing.json") {
		t.Fatalf("error %v, want one at jobs.csv:3:5 naming the missing model", err)
	}
	jobs, err := ReadJobs(strings.NewReader("job,size,model\na,10,m.json\n"), "jobs.csv", resolve)
	if err != nil || jobs[0].Curve != (PowerLaw{0.4}) {
		t.Fatalf("jobs %+v, err %v", jobs, err)
	}
}

// Every error names the file, line and column and what was expected.
func TestReadJobsErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"empty", "", "jobs.csv: empty file"},
		// encoding/csv ends lines at LF only: lone CRs read as one line
		// with a column "p\ra" (an unknown column, then a puzzling error)
		{"lone CR", "job,size,p\ra,100,0.5\r", "jobs.csv:1:10: a carriage return inside the header: the file's lines end in lone CRs"},
		{"no size", "job,p\na,0.5\n", "jobs.csv:1: missing column \"size\""},
		{"no curve", "job,size\na,1\n", "missing column \"p\" or \"model\""},
		// blank lines before the header: the header's line, as the other
		// header faults and the public tables' missing columns
		{"no size, blank lines first", "\n\njob,p\na,0.5\n", "jobs.csv:3: missing column \"size\""},
		{"no curve, a blank line first", "\njob,size\na,1\n", "jobs.csv:2: missing column \"p\" or \"model\""},
		{"negative size", "job,size,p\na,-1,0.5\n", "jobs.csv:2:3: size: want seconds on one worker from 1e-06 to 1e+12, got \"-1\""},
		{"gzip", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03job,size\n", "jobs.csv:1:1: a gzip file: plan and simulate read plain CSV"},
		{"huge size", "job,size,p\na,1e308,0.5\nb,1e308,0.5\n", "jobs.csv:2:3: size: want seconds on one worker from 1e-06 to 1e+12, got \"1e308\""},
		{"tiny size", "job,size,p\na,1,0.5\nb,1e-300,0.5\n", "jobs.csv:3:3: size: want seconds on one worker from 1e-06 to 1e+12, got \"1e-300\""},
		{"huge arrival", "job,arrival,size,p\na,1.7e308,1,0.5\n", "jobs.csv:2:3: arrival: want a time from 0 to 1e+12 s, got 1.7e+308"},
		{"zero size", "job,size,p\na,0,0.5\n", "jobs.csv:2:3: size"},
		{"size text", "job,size,p\na,big,0.5\n", "jobs.csv:2:3: size: want a finite decimal number (such as 3600, 0.5 or 1.5e3), got \"big\""},
		{"p zero", "job,size,p\na,1,0\n", "jobs.csv:2:5: p: want a speedup exponent in (0, 1], got 0"},
		{"p above 1", "job,size,p\na,1,1.5\n", "jobs.csv:2:5: p: want a speedup exponent in (0, 1]"},
		{"p NaN", "job,size,p\na,1,NaN\n", "jobs.csv:2:5: p: want a finite decimal number"},
		{"p inf", "job,size,p\na,1,-Inf\n", "jobs.csv:2:5: p: want a finite decimal number"},
		// Go's syntax beyond plain decimals read as numbers before.
		{"underscore", "job,arrival,size,p\na,0,1_000,0.5\n", `jobs.csv:2:5: size: want a finite decimal number (such as 3600, 0.5 or 1.5e3), got "1_000"`},
		{"hex float", "job,arrival,size,p\na,0x1p4,100,0.5\n", `jobs.csv:2:3: arrival: want a finite decimal number (such as 3600, 0.5 or 1.5e3), got "0x1p4"`},
		{"hex weight", "job,size,p,weight\na,100,0.5,0x10\n", `jobs.csv:2:11: weight: want a finite decimal number`},
		{"bare exponent", "job,size,p\na,1e,0.5\n", `jobs.csv:2:3: size: want a finite decimal number`},
		// A row longer than the header was read as if it were not.
		{"long row", "job,arrival,size,p\na,0,100,0.5,9\n", "jobs.csv:2:13: row has 5 fields, more than the 4 columns of the header (job, arrival, size, p)"},
		// A short row said "want a speedup exponent p".
		{"short row", "job,arrival,size,p\na,0,100\n", `jobs.csv:2:8: row ends after 3 of 4 fields: want one per column of the header (job, arrival, size, p); the first missing is "p"`},
		{"short row, optional column", "job,size,p,max_workers\na,100,0.5\n", `jobs.csv:2:10: row ends after 3 of 4 fields`},
		// its last field quoted: just past the line's 11 bytes, not past the
		// field's text
		{"short row, quoted", "job,size,p,max_workers\na,100,\"0.5\"\n", `jobs.csv:2:12: row ends after 3 of 4 fields`},
		// a field of a record that a quoted field runs on across lines: at
		// the line where the field starts and its column there, not the
		// record's first line
		{"after a quoted line break", "job,size,p\n\"a\nb\",100,2\n", "jobs.csv:3:8: p: want a speedup exponent in (0, 1], got 2"},
		{"size after a quoted line break", "job,size,p\n\"a\nb\",x,0.5\n", "jobs.csv:3:4: size: want a finite decimal number"},
		{"out of order", "job,arrival,size,p\na,5,1,0.5\nb,3,1,0.5\n", "jobs.csv:3:3: arrival: 3 s is before the previous job's 5 s"},
		{"negative arrival", "job,arrival,size,p\na,-5,1,0.5\n", "jobs.csv:2:3: arrival: want a time from 0 to 1e+12 s, got -5"},
		{"duplicate job", "job,size,p\na,1,0.5\na,2,0.5\n", "jobs.csv:3:1: job: \"a\" already defined on line 2"},
		{"both p and model", "job,size,p,model\na,1,0.5,m.json\n", "jobs.csv:2:9: model: give p or model, not both"},
		{"model without loader", "job,size,model\na,1,m.json\n", "jobs.csv:2:5: model: m.json: no model loader"},
		{"no curve in row", "job,size,p\na,1,\n", "jobs.csv:2:5: p, model: both empty: want a speedup exponent p or a model path"},
		{"max workers", "job,size,p,max_workers\na,1,0.5,1.5\n", "jobs.csv:2:9: max_workers: want a whole number >= 1, got \"1.5\""},
		{"max workers too large", "job,size,p,max_workers\na,1,0.5,99999999999999999999\n", "jobs.csv:2:9: max_workers: 99999999999999999999 is too large: want a whole number >= 1 (at most 9223372036854775807)"},
		{"rigid above max", "job,size,p,max_workers,rigid_workers\na,1,0.5,2,4\n", "jobs.csv:2:11: rigid_workers: 4 is above max_workers 2"},
		{"weight", "job,size,p,weight\na,1,0.5,-2\n", "jobs.csv:2:9: weight: want a weight from 1e-06 to 1e+06, got -2"},
		// weights outside 1e-6..1e6 overflowed or underflowed heSRPT's sum
		// of the weights: NaN workers (a panic on whole workers), or a
		// weighted flow time of +Inf printed as the optimum
		{"weight zero", "job,size,p,weight\na,1,0.5,0\n", "jobs.csv:2:9: weight: want a weight from 1e-06 to 1e+06, got 0"},
		{"weight huge", "job,size,p,weight\na,10,0.5,1e308\nb,20,0.5,1e308\n", "jobs.csv:2:10: weight: want a weight from 1e-06 to 1e+06, got 1e+308"},
		{"weight 1e300", "job,size,p,weight\na,1e12,0.5,1e300\n", "jobs.csv:2:12: weight: want a weight from 1e-06 to 1e+06, got 1e+300"},
		{"weight subnormal", "job,size,p,weight\na,10,0.5,5e-324\nb,20,0.5,1\n", "jobs.csv:2:10: weight: want a weight from 1e-06 to 1e+06, got 5e-324"},
		{"weight above the bound", "job,size,p,weight\na,1,0.5,1000000.5\n", "jobs.csv:2:9: weight: want a weight from 1e-06 to 1e+06, got 1.0000005e+06"},
		{"weight below the bound", "job,size,p,weight\na,1,0.5,9.9e-7\n", "jobs.csv:2:9: weight: want a weight from 1e-06 to 1e+06, got 9.9e-07"},
		// a value that underflows to 0 is quoted as written ("got 0" hid it)
		{"p underflows", "job,size,p\na,1,1e-400\n", `jobs.csv:2:5: p: want a speedup exponent in (0, 1], got "1e-400", which underflows to 0`},
		{"weight underflows", "job,size,p,weight\na,1,0.5,0.1e-399\n", `jobs.csv:2:9: weight: want a weight from 1e-06 to 1e+06, got "0.1e-399", which underflows to 0`},
		{"p zero in an exponent form", "job,size,p\na,1,0.0e-400\n", "jobs.csv:2:5: p: want a speedup exponent in (0, 1], got 0"},
		{"quote", "job,size,p\n\"a,1,0.5\n", "jobs.csv:2:"},
		{"header only", "job,size,p\n", "jobs.csv: no jobs"},
		{"dup column", "job,size,size,p\n", "jobs.csv:1:10: column \"size\" appears twice"},
		// another separator: the missing column was all it said
		// (named as the trace readers name it: internal/csvtext.OtherSeparator)
		{"semicolons", "job;arrival;size;p\na;0;10;0.5\n", `jobs.csv:1: missing column "job" (columns: job, arrival, size, p, model, max_workers, weight, rigid_workers); the header reads "job;arrival;size;p": separated by semicolons? expected commas`},
		{"tabs", "job\tarrival\tsize\n", `; the header reads "job\tarrival\tsize": separated by tabs? expected commas`},
		// a tab in one field of several (a header typed by hand) said nothing
		{"a tab among commas", "job\tarrival,size,p\n", `; the header reads "job\tarrival,size,p": separated by tabs? expected commas`},
	}
	for _, c := range cases {
		_, err := ReadJobs(strings.NewReader(c.in), "jobs.csv", nil)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "planner: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want it to contain %q", c.name, err, c.want)
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %T is not a *ParseError", c.name, err)
		}
	}
}

// Plain decimals in every form still read: a sign, a point at either end, an
// exponent.
func TestReadJobsDecimals(t *testing.T) {
	in := "job,arrival,size,p,weight\na,+0,1.5e3,.5,2.\nb,1E1,100,1,0.25e+1\n"
	jobs, err := ReadJobs(strings.NewReader(in), "jobs.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := jobs[0], jobs[1]; a.Size != 1500 || a.Curve != (PowerLaw{0.5}) || a.Weight != 2 || b.Arrival != 10 || b.Weight != 2.5 {
		t.Errorf("jobs %+v", jobs)
	}
}

// A column ReadJobs does not know is a warning at its header cell, as the
// trace reader words it; the read goes on.
func TestReadJobsWarnsUnknownColumn(t *testing.T) {
	var warns []string
	in := "job,size,p,max_worker,note\na,1,0.5,4,x\n"
	jobs, _, err := ReadJobsWith(strings.NewReader(in), "jobs.csv", &ReadOptions{Warn: func(e error) { warns = append(warns, e.Error()) }})
	if err != nil || len(jobs) != 1 || jobs[0].MaxWorkers != 0 {
		t.Fatalf("jobs %+v, err %v", jobs, err)
	}
	want := []string{
		`planner: jobs.csv:1:12: unknown column "max_worker" ignored (the columns: job, arrival, size, p, model, max_workers, weight, rigid_workers)`,
		`planner: jobs.csv:1:23: unknown column "note" ignored (the columns: job, arrival, size, p, model, max_workers, weight, rigid_workers)`,
	}
	if strings.Join(warns, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(warns, "\n"), strings.Join(want, "\n"))
	}
}

// ReadOptions.Servers makes a rigid_workers above it an error at its cell.
func TestReadJobsRigidAboveServers(t *testing.T) {
	in := "job,size,p,rigid_workers\na,1,0.5,4\nb,1,0.5,1000\n"
	_, _, err := ReadJobsWith(strings.NewReader(in), "jobs.csv", &ReadOptions{Servers: 16})
	want := `planner: jobs.csv:3:9: rigid_workers: job "b" needs 1000 rigid workers, more than the 16 servers`
	if err == nil || err.Error() != want {
		t.Errorf("err %v, want %s", err, want)
	}
	if _, _, err := ReadJobsWith(strings.NewReader(in), "jobs.csv", &ReadOptions{Servers: 1000}); err != nil {
		t.Errorf("1000 servers: %v", err)
	}
	_, _, err = ReadJobsWith(strings.NewReader(in), "jobs.csv", &ReadOptions{Servers: 1})
	if want := `planner: jobs.csv:2:9: rigid_workers: job "a" needs 4 rigid workers, more than the 1 server`; err == nil || err.Error() != want {
		t.Errorf("1 server: err %v, want %s", err, want)
	}
}

func exampleDir(t testing.TB) string {
	return filepath.Join("..", "testdata", "jobs-example")
}

func TestReadJobsExample(t *testing.T) {
	f, err := os.Open(filepath.Join(exampleDir(t), "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	jobs, err := ReadJobs(f, "jobs.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 8 || jobs[3].ID != "gpt-tiny" || jobs[3].MaxWorkers != 0 || jobs[3].Weight != 2 {
		t.Errorf("jobs %+v", jobs)
	}
}

func FuzzReadJobs(f *testing.F) {
	for _, name := range []string{"jobs.csv", "worked.csv"} {
		b, err := os.ReadFile(filepath.Join(exampleDir(f), name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("job,size,model\na,1,m.json\n"))
	f.Add([]byte("job,arrival,size,p\na,5,1,0.5\nb,3,1,0.5\n"))
	f.Add([]byte("job,arrival,size,p,weight\na,-0,10,0.5,1e-6\nb,0,20,0.5,1e6\n"))
	resolve := func(path string) (Speedup, error) {
		if strings.HasPrefix(path, "ok") {
			return PowerLaw{0.5}, nil
		}
		return nil, errors.New("no such model")
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		jobs, err := ReadJobs(strings.NewReader(string(b)), "f.csv", resolve)
		// With a default exponent: a file that reads without one reads the
		// same and defaults nothing; the rows defaulted get exactly it.
		withP, def, errP := ReadJobsWith(strings.NewReader(string(b)), "f.csv", &ReadOptions{Resolve: resolve, DefaultP: 0.6})
		if err == nil && (errP != nil || len(def) != 0 || len(withP) != len(jobs)) {
			t.Fatalf("DefaultP changed a file that needs none: %d jobs, defaulted %v, err %v", len(withP), def, errP)
		}
		if errP == nil {
			got := map[string]bool{}
			for _, id := range def {
				got[id] = true
			}
			for _, j := range withP {
				if got[j.ID] && j.Curve != (PowerLaw{0.6}) {
					t.Fatalf("defaulted job %s has curve %v", j.ID, j.Curve)
				}
			}
		} else if errors.Is(errP, ErrNoCurve) {
			t.Fatalf("ErrNoCurve with a default exponent: %v", errP)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "planner: f.csv") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		prev := 0.0
		for _, j := range jobs {
			if !(j.Size > 0) || j.Arrival < prev || j.Curve == nil || j.Weight < 0 ||
				j.Weight != 0 && !(j.Weight >= MinWeight && j.Weight <= MaxWeight) || math.Signbit(j.Arrival) {
				t.Fatalf("accepted an invalid job %+v", j)
			}
			prev = j.Arrival
		}
		// whatever is accepted simulates without error or panic, under
		// either objective (slowdown divides the weights by the sizes)
		if len(jobs) <= 50 {
			for _, obj := range []Objective{FlowTime, Slowdown} {
				if _, err := Simulate(jobs, HeSRPTPolicy{obj}, Settings{Servers: 4, Integer: true}); err != nil && !strings.Contains(err.Error(), "rigid") {
					t.Fatalf("accepted jobs fail to simulate (%v): %v", obj, err)
				}
			}
		}
	})
}

// Weights at the bounds read, the slowdown replay of the most extreme
// in-range file is finite, and an arrival of -0 reads as 0: plan printed it
// back as "-0" in its table, csv and json.
func TestReadJobsWeightBoundsAndNegativeZero(t *testing.T) {
	in := "job,arrival,size,p,weight\na,-0,1e12,0.5,1e6\nb,-0.0e5,1e-6,0.9,1e-6\nc,,10,0.5,1\n"
	jobs, err := ReadJobs(strings.NewReader(in), "jobs.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.Arrival != 0 || math.Signbit(j.Arrival) {
			t.Errorf("job %s: arrival %g, want 0 (not -0)", j.ID, j.Arrival)
		}
	}
	if jobs[0].Weight != MaxWeight || jobs[1].Weight != MinWeight {
		t.Errorf("weights %g, %g, want %g and %g", jobs[0].Weight, jobs[1].Weight, MaxWeight, MinWeight)
	}
	for _, obj := range []Objective{FlowTime, Slowdown} {
		for _, integer := range []bool{false, true} {
			r, err := Simulate(jobs, HeSRPTPolicy{obj}, Settings{Servers: 4, Integer: integer})
			if err != nil {
				t.Fatalf("%v, whole workers %v: %v", obj, integer, err)
			}
			if math.IsInf(r.WeightedFlow, 0) || math.IsNaN(r.WeightedFlow) || !(r.WeightedFlow > 0) {
				t.Errorf("%v, whole workers %v: weighted flow %g", obj, integer, r.WeightedFlow)
			}
		}
	}
}

// ReadJobsWith's DefaultP goes to the rows with neither p nor model, and only
// to them; without it those rows are ErrNoCurve errors, as before.
func TestReadJobsDefaultP(t *testing.T) {
	resolve := func(path string) (Speedup, error) { return PowerLaw{0.4}, nil }
	// a: empty p and model -> 0.5 (the default); b keeps its 0.9; c keeps
	// its model's 0.4.
	in := "job,size,p,model\na,4,,\nb,3,0.9,\nc,2,,m.json\n"
	jobs, def, err := ReadJobsWith(strings.NewReader(in), "jobs.csv", &ReadOptions{Resolve: resolve, DefaultP: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	want := []Speedup{PowerLaw{0.5}, PowerLaw{0.9}, PowerLaw{0.4}}
	for i, j := range jobs {
		if j.Curve != want[i] {
			t.Errorf("job %s: curve %v, want %v", j.ID, j.Curve, want[i])
		}
	}
	if len(def) != 1 || def[0] != "a" {
		t.Errorf("defaulted %v, want [a]", def)
	}
	// a file with neither column: every row defaulted
	jobs, def, err = ReadJobsWith(strings.NewReader("job,size\nx,1\ny,2\n"), "jobs.csv", &ReadOptions{DefaultP: 0.7})
	if err != nil || len(jobs) != 2 || jobs[1].Curve != (PowerLaw{0.7}) || len(def) != 2 {
		t.Errorf("no p column: jobs %+v, defaulted %v, err %v", jobs, def, err)
	}
	// no default: the row and the header are ErrNoCurve, message unchanged
	for _, c := range []struct{ in, want string }{
		{in, "planner: jobs.csv:2:5: p, model: both empty: want a speedup exponent p or a model path"},
		{"job,size\nx,1\n", `planner: jobs.csv:1: missing column "p" or "model"`},
	} {
		_, _, err = ReadJobsWith(strings.NewReader(c.in), "jobs.csv", nil)
		if !errors.Is(err, ErrNoCurve) || err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q without DefaultP: error %v, want ErrNoCurve starting %q", c.in, err, c.want)
		}
	}
	// other errors are not ErrNoCurve
	if _, _, err := ReadJobsWith(strings.NewReader("job,size,p\na,-1,0.5\n"), "jobs.csv", nil); err == nil || errors.Is(err, ErrNoCurve) {
		t.Errorf("negative size: %v, want an error that is not ErrNoCurve", err)
	}
}

// A DefaultP outside (0, 1] is a programmer error.
func TestReadJobsDefaultPPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("DefaultP 1.5 did not panic")
		}
	}()
	ReadJobsWith(strings.NewReader("job,size\nx,1\n"), "jobs.csv", &ReadOptions{DefaultP: 1.5})
}

func TestReadJobsLineTooLong(t *testing.T) {
	// Line 2 is a job whose name runs past MaxLineBytes: the reader stops
	// there with the position instead of reading the whole line.
	long := "job,size,p\na,1,0.5\n" + strings.Repeat("x", MaxLineBytes+10) + ",1,0.5\n"
	_, err := ReadJobs(strings.NewReader(long), "jobs.csv", nil)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(pe.Msg, "longer than") {
		t.Fatalf("err = %v, want a ParseError at line 3 saying the line is too long", err)
	}
	// A quoted field that runs on over short lines is bounded as a record,
	// at the line where it opens (each line was short, and it was read).
	open := "job,size,p\na,1,0.5\n\"b" + strings.Repeat("xxxxxxx\n", 2*MaxLineBytes/8) + "\",1,0.5\n"
	_, err = ReadJobs(strings.NewReader(open), "jobs.csv", nil)
	if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(pe.Msg, "record longer than 1048576 bytes: a quoted field opened here runs on to line") {
		t.Fatalf("quoted record: err = %v, want a ParseError at line 3 saying the record is too long", err)
	}
	// A line of MaxLineBytes is read whether it ends in LF or CRLF (the
	// CR was counted as one byte of the line); one byte more is not.
	for _, end := range []string{"\n", "\r\n"} {
		row := func(n int) string { return strings.Repeat("z", n-len(",1,0.5")) + ",1,0.5" + end }
		if jobs, err := ReadJobs(strings.NewReader("job,size,p"+end+row(MaxLineBytes)), "jobs.csv", nil); err != nil || len(jobs) != 1 {
			t.Errorf("a line of MaxLineBytes ending %q: %d jobs, err %v", end, len(jobs), err)
		}
		if _, err := ReadJobs(strings.NewReader("job,size,p"+end+row(MaxLineBytes+1)), "jobs.csv", nil); err == nil || !strings.Contains(err.Error(), "line longer than") {
			t.Errorf("a line of MaxLineBytes+1 ending %q: err %v", end, err)
		}
	}
	// A file just under the limit is read, and a quoted field across lines.
	if jobs, err := ReadJobs(strings.NewReader("job,size,p\n\"a\nb\",1,0.5\nc,2,0.5\n"), "jobs.csv", nil); err != nil || len(jobs) != 2 {
		t.Fatalf("short quoted record: %d jobs, err %v", len(jobs), err)
	}
	ok := "job,size,p\n" + strings.Repeat("y", 1000) + ",1,0.5\n"
	jobs, err := ReadJobs(strings.NewReader(ok), "jobs.csv", nil)
	if err != nil || len(jobs) != 1 {
		t.Fatalf("ordinary file: %d jobs, err %v", len(jobs), err)
	}
}

// A job whose name starts with '#' is a job: jobs.csv has no comments (the
// reader dropped such rows without a word, and plan left the job out).
func TestReadJobsHashName(t *testing.T) {
	jobs, err := ReadJobs(strings.NewReader("job,size,p\n#A,1,0.5\nB,2,0.5\n"), "jobs.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || jobs[0].ID != "#A" || jobs[0].Size != 1 {
		t.Errorf("jobs %+v, want #A and B", jobs)
	}
}

// A byte-order mark alone on the first line is a blank line (it read as a
// header of one empty column: "missing column job"), and column names that
// are not UTF-8 keep their bytes (strings.ToLower made both U+FFFD: a
// repeated column, and warnings that named neither).
func TestReadJobsBOMLineAndBytes(t *testing.T) {
	// and before a quoted header, as R's write.csv writes it ("bare \"
	// in non-quoted field" at 1:4)
	for _, in := range []string{"\xef\xbb\xbf\njob,size,p\na,10,0.5\n", "\xef\xbb\xbf\r\njob,size,p\r\na,10,0.5\r\n", "\xef\xbb\xbf\"job\",\"size\",\"p\"\n\"a\",10,0.5\n"} {
		var warns []string
		jobs, _, err := ReadJobsWith(strings.NewReader(in), "jobs.csv", &ReadOptions{Warn: func(e error) { warns = append(warns, e.Error()) }})
		if err != nil || len(jobs) != 1 || jobs[0].ID != "a" || len(warns) > 0 {
			t.Errorf("%q: %v, %v, warnings %q", in, jobs, err, warns)
		}
	}
	// the mark alone is an empty file (it read as a header of one
	// unknown column "", then "missing column job")
	if _, _, err := ReadJobsWith(strings.NewReader("\xef\xbb\xbf"), "jobs.csv", nil); err == nil || !strings.Contains(err.Error(), "jobs.csv: empty file") {
		t.Errorf("the mark alone: %v", err)
	}
	var warns []string
	_, _, err := ReadJobsWith(strings.NewReader("job,size,p,\xff,\xfe\na,10,0.5,1,2\n"), "jobs.csv", &ReadOptions{Warn: func(e error) { warns = append(warns, e.Error()) }})
	want := []string{
		`planner: jobs.csv:1:12: unknown column "\xff" ignored (the columns: job, arrival, size, p, model, max_workers, weight, rigid_workers)`,
		`planner: jobs.csv:1:14: unknown column "\xfe" ignored (the columns: job, arrival, size, p, model, max_workers, weight, rigid_workers)`,
	}
	if err != nil || !slices.Equal(warns, want) {
		t.Errorf("%v, warnings %q, want %q", err, warns, want)
	}
}

// A JSON file given as the jobs file (a model.json, most likely) is named
// as one at its first byte, with where a model.json goes: it read as a
// header of unknown columns ("{") and then missed the column job.
func TestReadJobsJSONFile(t *testing.T) {
	const rest = ": a JSON file, not a jobs.csv: want a CSV file with a header row (job, arrival, size, p or model); a model.json that sgdplan fit wrote goes in a job's model column, as its path (a header job,arrival,size,model and rows such as a,0,3600,model.json)"
	for _, c := range []struct{ in, at string }{
		{"{\n  \"schema\": \"sgdplan/model/v1\"\n}\n", "1:1"},
		{"\xef\xbb\xbf\n  [1, 2]", "2:3"},
	} {
		var warns []string
		_, _, err := ReadJobsWith(strings.NewReader(c.in), "m1.json", &ReadOptions{Warn: func(e error) { warns = append(warns, e.Error()) }})
		var pe *ParseError
		if want := "planner: m1.json:" + c.at + rest; err == nil || err.Error() != want || !errors.As(err, &pe) {
			t.Errorf("%q: %v, want %q", c.in, err, want)
		}
		if len(warns) > 0 {
			t.Errorf("%q: warnings %q, want none", c.in, warns)
		}
	}
	// a CSV whose values hold braces still reads
	if jobs, err := ReadJobs(strings.NewReader("job,size,p\n{a},1,0.5\n"), "jobs.csv", nil); err != nil || len(jobs) != 1 {
		t.Errorf("braces in a row: %v, %v", jobs, err)
	}
}

// TestReadJobsRigidAtItsBounds: rigid_workers may equal max_workers and the
// server count (a job that holds all it may hold, or the whole cluster);
// only one more is refused. Job a holds 4 of at most 4, on 4 servers; on
// 3 the error is at rigid_workers, line 2, column 14 (after "a,3600,0.5,4,",
// 13 characters).
func TestReadJobsRigidAtItsBounds(t *testing.T) {
	in := "job,size,p,max_workers,rigid_workers\na,3600,0.5,4,4\n"
	jobs, _, err := ReadJobsWith(strings.NewReader(in), "jobs.csv", &ReadOptions{Servers: 4})
	if err != nil {
		t.Fatalf("rigid_workers 4 with max_workers 4 on 4 servers: %v", err)
	}
	if j := jobs[0]; j.RigidWorkers != 4 || j.MaxWorkers != 4 || j.rigid(4) != 4 {
		t.Errorf("job a: %+v, want 4 rigid workers of at most 4", j)
	}
	_, _, err = ReadJobsWith(strings.NewReader(in), "jobs.csv", &ReadOptions{Servers: 3})
	if want := `planner: jobs.csv:2:14: rigid_workers: job "a" needs 4 rigid workers, more than the 3 servers`; err == nil || err.Error() != want {
		t.Errorf("4 rigid workers on 3 servers: %v, want %s", err, want)
	}
}
