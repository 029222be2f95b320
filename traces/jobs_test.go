package traces

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

// pubTestdata is the repository's testdata/public folder.
func pubTestdata(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join("..", "testdata", "public", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("testdata excerpt missing: %v", err)
	}
	return p
}

func jobByName(jobs []Job, name string) (Job, bool) {
	for _, j := range jobs {
		if j.Name == name {
			return j, true
		}
	}
	return Job{}, false
}

// TestLoadJobTraceExcerpts reads the excerpts in testdata/public and checks
// counts and values worked by hand from the files.
func TestLoadJobTraceExcerpts(t *testing.T) {
	type want struct {
		name          string
		arrival, size float64
		rigid         int
	}
	cases := []struct {
		format, file string
		n            int
		first, last  string
		check        []want
	}{
		{
			// 150 data rows; earliest is line 4 "2017-09-29 07:58:32,860662.0,1"
			// (cluster 6c71a0), the latest line 2 "2017-10-09 07:01:55,66.0,1".
			format: "philly-pollux", file: "pollux-osdi21/traces/philly.csv", n: 150,
			first: "6c71a0-4", last: "11cb48-2",
			check: []want{
				{"6c71a0-4", 0, 860662, 1},
				// 2017-10-09 07:01:55 - 2017-09-29 07:58:32 = 10 d - 56 min 37 s
				// = 864000 - 3397 = 860603 s; size 66 x 1.
				{"11cb48-2", 860603, 66, 1},
				// line 55: "2017-10-07 01:11:39,193256.0,8": 193256 x 8 = 1546048 GPU-s;
				// arrival 7 d 17 h 13 min 7 s = 604800 + 61200 + 787 = 666787 s.
				{"ee9e8c-55", 666787, 1546048, 8},
			},
		},
		{
			// cluster10.csv: 260 jobs; line 2 is the earliest (2266647 s, 604 s
			// on 16 GPUs), line 261 the latest.
			format: "itp", file: "microsoft-itp-elasticflow-traces/raw/cluster10.csv", n: 260,
			first: "5dc7d9cd-c300-9a4f-c3cd-dc2cc0935548", last: "827822bc-4cf5-72f5-3f1e-f01352929ea1",
			check: []want{
				{"5dc7d9cd-c300-9a4f-c3cd-dc2cc0935548", 0, 604 * 16, 16},
				// line 3: 2371685 - 2266647 = 105038 s, 767 x 16 = 12272.
				{"ec42aa41-3a0d-71f3-62dc-31b28dfb54c4", 105038, 12272, 16},
				// last line: 5104565 - 2266647 = 2837918 s, 42698 x 2 = 85396.
				{"827822bc-4cf5-72f5-3f1e-f01352929ea1", 2837918, 85396, 2},
			},
		},
		{
			// vc_0e4a51.csv: first 150 jobs of the VC; line 2 arrives at 0.
			format: "gavel-vc", file: "gavel-osdi20/philly_vc_traces_seed0/vc_0e4a51.csv", n: 150,
			first: "vc_0e4a51-2 Transformer (batch size 128)",
			last:  "vc_0e4a51-151 LM (batch size 5)",
			check: []want{
				// 95121 steps / 5.44610521981264 steps/s (v100 1 GPU, excerpt line
				// 77 of simulation_throughputs_isolated.csv) = 17466 s.
				{"vc_0e4a51-2 Transformer (batch size 128)", 0, 95121 / 5.44610521981264, 1},
				// line 5: ResNet-18 bs32, 1104675 steps / 29.947157347732464 (line 33)
				// = 36887 s, arrival 6 s.
				{"vc_0e4a51-5 ResNet-18 (batch size 32)", 6, 1104675 / 29.947157347732464, 1},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.format, func(t *testing.T) {
			jobs, warns, err := LoadJobTrace(c.format, pubTestdata(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(warns) != 0 {
				t.Errorf("warnings: %v", warns)
			}
			if len(jobs) != c.n {
				t.Fatalf("%d jobs, want %d", len(jobs), c.n)
			}
			if jobs[0].Name != c.first || jobs[len(jobs)-1].Name != c.last {
				t.Errorf("first %q last %q, want %q and %q", jobs[0].Name, jobs[len(jobs)-1].Name, c.first, c.last)
			}
			names := map[string]bool{}
			for i, j := range jobs {
				if i > 0 && j.Arrival < jobs[i-1].Arrival {
					t.Fatalf("job %d arrives at %v, before job %d at %v", i, j.Arrival, i-1, jobs[i-1].Arrival)
				}
				if names[j.Name] {
					t.Errorf("duplicate job name %q", j.Name)
				}
				names[j.Name] = true
				if !(j.Size > 0) || j.RigidWorkers < 1 || !math.IsNaN(j.P) {
					t.Errorf("job %+v: want size > 0, rigid >= 1, p absent", j)
				}
			}
			for _, w := range c.check {
				j, ok := jobByName(jobs, w.name)
				if !ok {
					t.Errorf("no job %q", w.name)
					continue
				}
				if !pubClose(j.Arrival, w.arrival) && !(w.arrival == 0 && j.Arrival == 0) || !pubClose(j.Size, w.size) || j.RigidWorkers != w.rigid {
					t.Errorf("job %q: got arrival %v size %v rigid %d, want %v %v %d", w.name, j.Arrival, j.Size, j.RigidWorkers, w.arrival, w.size, w.rigid)
				}
			}
		})
	}
}

// TestLoadJobTraceShared reads the full traces when ../shared/data is there:
// counts from the dataset READMEs.
func TestLoadJobTraceShared(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 82k rows; skipped with -short")
	}
	data := testenv.DataDir(t)
	cases := []struct {
		format, file string
		n            int
	}{
		// README: 82,248 rows, counting the blank last line: 82249 lines =
		// header + 82247 jobs + an empty line.
		{"philly-pollux", "pollux-osdi21/traces/philly.csv", 82247},
		{"itp", "microsoft-itp-elasticflow-traces/raw/cluster04.csv", 15802},    // README: 04 15802
		{"gavel-vc", "gavel-osdi20/philly_vc_traces_seed0/vc_ee9e8c.csv", 2000}, // 2001 lines
	}
	for _, c := range cases {
		jobs, warns, err := LoadJobTrace(c.format, filepath.Join(data, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		// no row of these has a zero duration or step count (checked
		// with python's csv module): every one is a job, none warned of
		if len(jobs) != c.n || len(warns) != 0 {
			t.Errorf("%s: %d jobs, warnings %v: want %d jobs and no warning", c.format, len(jobs), warns, c.n)
		}
	}
}

func TestLoadJobTraceMalformed(t *testing.T) {
	cases := []struct {
		name, format, body, want string
	}{
		{"unknown format", "slurm", "x\n", "unknown job trace format"},
		{"empty", "itp", "", "empty file"},
		{"header only", "itp", "job_id,submission_time,duration,num_gpu\n", "header only: no data rows after line 1"},
		{"missing column", "itp", "job_id,submission_time,num_gpu\na,1,1\n", "t.csv:1: missing required column \"duration\""},
		{"text in number", "itp", "job_id,submission_time,duration,num_gpu\na,1,abc,1\n", "t.csv:2:5: column duration: expected a finite number, got \"abc\""},
		{"negative duration", "itp", "job_id,submission_time,duration,num_gpu\na,1,-5,1\n", "t.csv:2:5: column duration: negative duration"},
		{"zero gpus", "itp", "job_id,submission_time,duration,num_gpu\na,1,5,0\n", "t.csv:2:7: column num_gpu: expected an integer >= 1"},
		// a name plan refuses in the jobs.csv convert writes
		{"job_id control character", "itp", "job_id,submission_time,duration,num_gpu\nj\x1b1,0,100,2\n", `t.csv:2:1: column job_id: "j\x1b1" holds the control character U+001B`},
		{"job_id not UTF-8", "itp", "job_id,submission_time,duration,num_gpu\nj\xe92,0,100,2\n", `t.csv:2:1: column job_id: "j\xe92" is not valid UTF-8`},
		{"NaN arrival", "itp", "job_id,submission_time,duration,num_gpu\na,NaN,5,1\n", "t.csv:2:3: column submission_time: expected a finite number"},
		{"bad timestamp", "philly-pollux", "timestamp,duration,num_gpus\n2017-13-01 00:00:00,5,1\n", "t.csv:2:1: column timestamp: expected a time like"},
		{"bad quote", "philly-pollux", "timestamp,duration,num_gpus\n\"2017,5,1\n", "t.csv:2:"},
		// short rows: the column just past the last field. "abc" (cut after
		// job_id): 4; "a,1,5": the 5 starts at 5, so 6.
		{"cut after job_id", "itp", "job_id,submission_time,duration,num_gpu\nabc\n", "t.csv:2:4: row ends after 1 of the header's 4 fields: column \"submission_time\" missing"},
		{"short row", "itp", "job_id,submission_time,duration,num_gpu\na,1,5\n", "t.csv:2:6: row ends after 3 of the header's 4 fields: column \"num_gpu\" missing"},
		{"short row, quoted", "itp", "job_id,submission_time,duration,num_gpu\na,1,\"5\"\n", "t.csv:2:8: row ends after 3 of the header's 4 fields: column \"num_gpu\" missing"},
		{"empty field", "itp", "job_id,submission_time,duration,num_gpu\na,,5,1\n", "t.csv:2:3: column submission_time: expected a number, got an empty field"},
		// 2017-10-09 07:01:55 is 19 bytes; the 5 is at 21: 22.
		{"philly short row", "philly-pollux", "timestamp,duration,num_gpus\n2017-10-09 07:01:55,5\n", "t.csv:2:22: row ends after 2 of the header's 3 fields: column \"num_gpus\" missing"},
		{"philly binary", "philly-pollux", "\x00\x01\xff\xfe" + strings.Repeat("\x00", 100) + "\n", `t.csv:1: missing required column "timestamp" (line 1 is not text: not a CSV file? It starts "\x00\x01\xff\xfe\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"...)`},
		{"itp long header", "itp", strings.Repeat("x", 300) + "\n", `t.csv:1: missing required column "job_id" (header has "` + strings.Repeat("x", 200) + `"...)`},
		{"itp job twice", "itp", "job_id,submission_time,duration,num_gpu\na,1,5,1\nb,2,5,1\na,3,5,1\n", "t.csv:4:1: column job_id: job \"a\" repeats line 2 (expected each job once: jobs.csv names a job by it)"},
		// an empty job_id is named itp-LINE: a collision with a real id
		// says which line's name convert made up
		{"itp id taken by an empty one's name", "itp", "job_id,submission_time,duration,num_gpu\n,1,5,1\nitp-2,2,5,1\n", "t.csv:3:1: column job_id: job \"itp-2\" is the name convert gave line 2, whose job_id is empty (expected each job once: jobs.csv names a job by it; give line 2's job an id)"},
		{"itp empty id named like an earlier id", "itp", "job_id,submission_time,duration,num_gpu\nitp-3,1,5,1\n,2,5,1\n", "t.csv:3:1: column job_id: empty, and the name convert gives it, \"itp-3\", is line 2's job_id (expected each job once: jobs.csv names a job by it; give this job an id)"},
		{"gavel no throughputs", "gavel-vc", "job_type,total_steps,arrival_time_s,scale_factor\nA3C,5,0,1\n", "needs simulation_throughputs_isolated.csv"},
	}
	// a line of 2 MiB: refused at 1 MiB without reading the rest
	long := "job_id,submission_time,duration,num_gpu\na,1,5,1\n" + strings.Repeat("x", 2<<20) + "\n"
	cases = append(cases, struct{ name, format, body, want string }{"2 MiB line", "itp", long, "t.csv:3: line longer than 1048576 bytes"})
	// a quoted field that runs on over 2 MiB of short lines: refused as a
	// record at the line it opens (every line was short, and it was read)
	open := "job_id,submission_time,duration,num_gpu\na,1,5,1\n\"b" + strings.Repeat("xxxxxxx\n", 2<<20/8) + "\",2,5,1\n"
	cases = append(cases, struct{ name, format, body, want string }{"2 MiB quoted record", "itp", open, "t.csv:3: record longer than 1048576 bytes: a quoted field opened here runs on to line"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "t.csv")
			if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := LoadJobTrace(c.format, p)
			if err == nil || !strings.HasPrefix(err.Error(), "traces: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}

// TestLoadJobTraceFolder: a folder given for a job trace is an error that
// says a file was expected and names one (it said "read DIR: is a
// directory"), for gavel-vc too, whose rates file the folder's parent holds.
func TestLoadJobTraceFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "raw")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rates, err := os.ReadFile(pubTestdata(t, "gavel-osdi20/simulation_throughputs_isolated.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "simulation_throughputs_isolated.csv"), rates, 0o644); err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{
		"itp":           "traces: " + dir + ": a folder: expected one itp job-trace CSV file (microsoft-itp-elasticflow-traces/raw/cluster01.csv, one cluster a conversion)",
		"philly-pollux": "traces: " + dir + ": a folder: expected one philly-pollux job-trace CSV file (pollux-osdi21/traces/philly.csv)",
		"gavel-vc":      "traces: " + dir + ": a folder: expected one gavel-vc job-trace CSV file (gavel-osdi20/philly_vc_traces_seed0/vc_0e4a51.csv, one VC a conversion)",
	} {
		jobs, _, err := LoadJobTrace(format, dir)
		if err == nil || err.Error() != want || jobs != nil {
			t.Errorf("%s: %d jobs, error %v, want %s", format, len(jobs), err, want)
		}
	}
}

// TestLoadGavelVCShortRow: a gavel-vc row cut after total_steps is an error
// naming the missing column, not a job with an empty arrival.
func TestLoadGavelVCShortRow(t *testing.T) {
	// "A3C,5000": 5000 starts at 5, 4 bytes, so column 9.
	in := "job_type,total_steps,arrival_time_s,scale_factor\nA3C,5000,0,1\nA3C,5000\n"
	_, _, err := readJobTrace("gavel-vc", strings.NewReader(in), "vc.csv", map[string]float64{"A3C": 2})
	want := `traces: vc.csv:3:9: row ends after 2 of the header's 4 fields: column "arrival_time_s" missing`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestLoadJobTraceZeroDurationWarns: rows with a zero duration (zero steps)
// are skipped with one warning, at the first, that counts them against the
// rows read and names their lines (the first 10): convert prints 20
// warnings, and with one per row a trace with more said neither how many
// jobs were dropped nor why past the 20th.
func TestLoadJobTraceZeroDurationWarns(t *testing.T) {
	itp := func(zeros []int, n int) string {
		// n rows, job jK at line K+1, duration 0 at the lines in zeros
		var b strings.Builder
		b.WriteString("job_id,submission_time,duration,num_gpu\n")
		for k := 1; k <= n; k++ {
			d := "5"
			if slices.Contains(zeros, k+1) {
				d = "0"
			}
			fmt.Fprintf(&b, "j%d,%d,%s,2\n", k, 10*k, d)
		}
		return b.String()
	}
	var twelve []int // lines 3, 5, ..., 25
	for l := 3; l <= 25; l += 2 {
		twelve = append(twelve, l)
	}
	cases := []struct {
		name, format, body string
		kept               int
		want               string
	}{
		// "a,10,0,1": the 0 is at column 6
		{"one", "itp", "job_id,submission_time,duration,num_gpu\na,10,0,1\nb,20,5,2\n", 1,
			"traces: t.csv:2:6: column duration: zero duration: 1 of 2 rows skipped (line 2); 1 job kept"},
		// 25 rows, 12 zero: 13 kept; lines past the 10th counted
		{"twelve", "itp", itp(twelve, 25), 13,
			"traces: t.csv:3:7: column duration: zero duration: 12 of 25 rows skipped (lines 3, 5, 7, 9, 11, 13, 15, 17, 19, 21 and 2 more); 13 jobs kept"},
		{"philly", "philly-pollux", "timestamp,duration,num_gpus\n2017-10-09 07:01:55,0,1\n2017-10-09 07:01:56,0.0,1\n2017-10-09 07:01:57,3,1\n", 1,
			"traces: t.csv:2:21: column duration: zero duration: 2 of 3 rows skipped (lines 2 and 3); 1 job kept"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "t.csv")
			if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			jobs, warns, err := LoadJobTrace(c.format, p)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(c.want, "t.csv", p, 1)
			if len(jobs) != c.kept || len(warns) != 1 || warns[0].Error() != want {
				t.Errorf("%d jobs, warnings %q: want %d jobs and one warning %q", len(jobs), warns, c.kept, want)
			}
		})
	}
	// the kept job: b, arrival 0, size 5 x 2 = 10
	p := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(p, []byte(cases[0].body), 0o644); err != nil {
		t.Fatal(err)
	}
	jobs, _, _ := LoadJobTrace("itp", p)
	if len(jobs) != 1 || jobs[0].Name != "b" || jobs[0].Arrival != 0 || jobs[0].Size != 10 || jobs[0].RigidWorkers != 2 {
		t.Errorf("jobs %+v: want only b (arrival 0, size 5x2 = 10, 2 GPUs)", jobs)
	}
	// every row skipped: an error that says so, after the warning (it
	// said "expected at least one data row" of a file of two)
	if err := os.WriteFile(p, []byte("job_id,submission_time,duration,num_gpu\na,10,0,1\nb,11,0,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	jobs, warns, err := LoadJobTrace("itp", p)
	wantErr := "traces: " + p + ": no jobs: every data row was skipped (the warning says why): expected at least one job with a nonzero duration (step count)"
	wantWarn := "traces: " + p + ":2:6: column duration: zero duration: 2 of 2 rows skipped (lines 2 and 3); 0 jobs kept"
	if jobs != nil || err == nil || err.Error() != wantErr || len(warns) != 1 || warns[0].Error() != wantWarn {
		t.Errorf("all skipped: jobs %v warnings %q error %v\nwant warning %q, error %q", jobs, warns, err, wantWarn, wantErr)
	}
	// gavel-vc: zero steps, the same warning; "A3C,0": the 0 at column 5
	in := "job_type,total_steps,arrival_time_s,scale_factor\nA3C,0,0,1\nA3C,0,1,1\nA3C,10,2,1\n"
	jobs, warns, err = readJobTrace("gavel-vc", strings.NewReader(in), "vc.csv", map[string]float64{"A3C": 2})
	want := "traces: vc.csv:2:5: column total_steps: zero steps: 2 of 3 rows skipped (lines 2 and 3); 1 job kept"
	if err != nil || len(jobs) != 1 || jobs[0].Size != 5 || len(warns) != 1 || warns[0].Error() != want {
		t.Errorf("gavel-vc: jobs %+v warnings %q err %v: want one job of 10/2 = 5 s and %q", jobs, warns, err, want)
	}
}

// TestJobsCSVRoundTrip writes jobs and reads them back equal.
func TestJobsCSVRoundTrip(t *testing.T) {
	in := []Job{
		{Name: "a", Arrival: 0, Size: 1.5, P: math.NaN(), Weight: math.NaN(), RigidWorkers: 4},
		{Name: "b, with comma", Arrival: 0.1, Size: 1e7 / 3, P: 0.5, Model: "m.json", MaxWorkers: 8, Weight: 2, RigidWorkers: 0},
	}
	var buf bytes.Buffer
	if err := WriteJobsCSV(&buf, in); err != nil {
		t.Fatal(err)
	}
	want := "job,arrival,size,p,model,max_workers,weight,rigid_workers\n" +
		"a,0,1.5,,,,,4\n" +
		"\"b, with comma\",0.1,3.3333333333333335e+06,0.5,m.json,8,2,\n"
	if buf.String() != want {
		t.Errorf("WriteJobsCSV wrote\n%s\nwant\n%s", buf.String(), want)
	}
	out, err := ReadJobsCSV("jobs.csv", &buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("%d jobs back, want %d", len(out), len(in))
	}
	for i := range in {
		a, b := in[i], out[i]
		same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
		if a.Name != b.Name || a.Arrival != b.Arrival || a.Size != b.Size || !same(a.P, b.P) || a.Model != b.Model ||
			a.MaxWorkers != b.MaxWorkers || !same(a.Weight, b.Weight) || a.RigidWorkers != b.RigidWorkers {
			t.Errorf("job %d: wrote %+v, read %+v", i, a, b)
		}
	}
}

// FuzzJobTraces feeds arbitrary bytes to each job-trace reader: no panic,
// errors carry the package prefix, jobs come out sorted with finite
// non-negative arrivals and positive finite sizes.
func FuzzJobTraces(f *testing.F) {
	for _, seed := range []struct {
		which uint8
		file  string
	}{
		{0, "pollux-osdi21/traces/philly.csv"},
		{1, "microsoft-itp-elasticflow-traces/raw/cluster10.csv"},
		{2, "gavel-osdi20/philly_vc_traces_seed0/vc_0e4a51.csv"},
	} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "public", filepath.FromSlash(seed.file)))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 4000 {
			b = b[:bytes.LastIndexByte(b[:4000], '\n')+1]
		}
		f.Add(seed.which, b)
	}
	f.Add(uint8(1), []byte("job_id,submission_time,duration,num_gpu\na,1e308,1e308,64\nb,-1e308,1,1\n"))
	f.Add(uint8(1), []byte("job_id,submission_time,duration,num_gpu\na,1,5,1\nabc")) // cut mid-row
	f.Add(uint8(0), []byte("\x00\x01\xff\xfe\x1b[2J\n"))
	rates, err := gavelOneV100(filepath.Join("..", "testdata", "public", "gavel-osdi20", "simulation_throughputs_isolated.csv"))
	if err != nil {
		f.Fatal(err)
	}
	formats := JobFormats() // gavel-vc, itp, philly-pollux
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		format := formats[[]int{2, 1, 0}[int(which)%3]]
		jobs, warns, err := readJobTrace(format, bytes.NewReader(data), "trace.csv", rates)
		if err == nil {
			jobs, warns, err = sortJobs("trace.csv", jobs, warns)
		}
		for _, e := range append(warns, err) {
			if e != nil && !strings.HasPrefix(e.Error(), "traces: ") {
				t.Fatalf("error without prefix: %v", e)
			}
			requirePrintable(t, e)
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			return
		}
		for i, j := range jobs {
			if !(j.Arrival >= 0) || math.IsInf(j.Arrival, 0) || !(j.Size > 0) || math.IsInf(j.Size, 0) || j.RigidWorkers < 1 ||
				i > 0 && j.Arrival < jobs[i-1].Arrival {
				t.Fatalf("bad job %d: %+v", i, j)
			}
		}
		var buf bytes.Buffer
		if err := WriteJobsCSV(&buf, jobs); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJobsCSV("jobs.csv", &buf)
		if err != nil || len(back) != len(jobs) {
			t.Fatalf("round trip: %d jobs back of %d, %v", len(back), len(jobs), err)
		}
	})
}

// A public table's line of pubMaxLine bytes is read whether it ends in LF
// or CRLF (the CR was counted as a byte of the line); one byte more is not.
func TestPublicLineLimitCRLF(t *testing.T) {
	for _, end := range []string{"\n", "\r\n"} {
		row := func(n int) string { return strings.Repeat("j", n-len(",1,5,1")) + ",1,5,1" + end }
		for _, c := range []struct {
			n  int
			ok bool
		}{{pubMaxLine, true}, {pubMaxLine + 1, false}} {
			p := filepath.Join(t.TempDir(), "t.csv")
			if err := os.WriteFile(p, []byte("job_id,submission_time,duration,num_gpu"+end+row(c.n)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := LoadJobTrace("itp", p)
			if c.ok && err != nil || !c.ok && (err == nil || !strings.Contains(err.Error(), "line longer than")) {
				t.Errorf("a line of %d bytes ending %q: err %v", c.n, end, err)
			}
		}
	}
}

// TestJobTraceTimesPositioned: an arrival more than 1e12 s after the earliest
// and a size past 1e12 s are errors at their field (line and column), naming
// the column, the value as written and the bound; the arrival's error was
// `job "x1": arrival 9.999999999999774e+19 s or size 5 s out of range`, with
// no position, a float artifact, and which of the two left open.
func TestJobTraceTimesPositioned(t *testing.T) {
	const itp = "job_id,submission_time,duration,num_gpu\na,2266647,604,16\n"
	rates := map[string]float64{"ResNet-18": 0.5}
	for _, c := range []struct {
		format, in, want string
		line, col        int
	}{
		{"itp", itp + "x1,1e20,5,1\n",
			`traces: t.csv:3:4: column submission_time: job "x1" arrives at 1e20, more than 1e+12 s after the earliest job, "a" at 2266647 on line 2 (expected arrivals within 1e+12 s of the earliest, what plan and simulate read)`, 3, 4},
		// the earliest is the one far off: the first job in file order is blamed, the earliest named
		{"itp", itp + "x1,-1e20,5,1\n",
			`traces: t.csv:2:3: column submission_time: job "a" arrives at 2266647, more than 1e+12 s after the earliest job, "x1" at -1e20 on line 3`, 2, 3},
		{"itp", itp + "x1,5,1e12,2\n",
			`traces: t.csv:3:6: column duration: 1e12 s x 2 = 2e+12 GPU-seconds is beyond 1e+12 s (expected a job size, duration x GPUs, of at most 1e+12 s: what plan and simulate read)`, 3, 6},
		{"itp", itp + "x1,5,1e-7,2\n",
			`traces: t.csv:3:6: column duration: 1e-7 s x 2 = 2e-07 GPU-seconds is below 1e-06 s (expected a job size, duration x GPUs, of at least 1e-06 s: what plan and simulate read)`, 3, 6},
		// (a whole number of steps at 0.5 steps/s is 2 s or more: 1e-7
		// steps, once the size below the least, is no whole number)
		{"gavel-vc", "job_type,total_steps,arrival_time_s,scale_factor\nResNet-18,1e-7,0,1\n",
			`traces: t.csv:2:11: column total_steps: expected a whole number of steps, got "1e-7"`, 2, 11},
		{"philly-pollux", "timestamp,duration,num_gpus\n2017-10-09 07:01:55,6e11,2\n",
			`traces: t.csv:2:21: column duration: 6e11 s x 2 = 1.2e+12 GPU-seconds is beyond 1e+12 s`, 2, 21},
		{"gavel-vc", "job_type,total_steps,arrival_time_s,scale_factor\nResNet-18,1e12,0,1\n",
			`traces: t.csv:2:11: column total_steps: 1e12 steps at 0.5 steps/s (ResNet-18 alone on one V100) is 2e+12 s, beyond 1e+12 s`, 2, 11},
		{"gavel-vc", "job_type,total_steps,arrival_time_s,scale_factor\nResNet-18,10,0,1\nResNet-18,10,2e12,1\n",
			`traces: t.csv:3:14: column arrival_time_s: job "t-3 ResNet-18" arrives at 2e12, more than 1e+12 s after the earliest job, "t-2 ResNet-18" at 0 on line 2`, 3, 14},
	} {
		jobs, warns, err := readJobTrace(c.format, strings.NewReader(c.in), "t.csv", rates)
		if err == nil {
			_, _, err = sortJobs("t.csv", jobs, warns)
		}
		var pe *ParseError
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &pe) || pe.Line != c.line || pe.Column != c.col {
			t.Errorf("%s %q:\n got %v\nwant %s (at %d:%d)", c.format, c.in, err, c.want, c.line, c.col)
		}
	}
}

// TestLoadGavelVCTraceBeforeRates: a gavel-vc trace that is a folder, or
// that does not exist, is said to be so even with no rates file near it;
// the rates file was looked for first, and its absence was the error
// ("gavel-vc needs simulation_throughputs_isolated.csv beside the
// trace"), as if the trace were fine.
func TestLoadGavelVCTraceBeforeRates(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "gavel-osdi20")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	jobs, _, err := LoadJobTrace("gavel-vc", dir)
	if want := "traces: " + dir + ": a folder: expected one gavel-vc job-trace CSV file"; err == nil || !strings.HasPrefix(err.Error(), want) || jobs != nil {
		t.Errorf("folder: %d jobs, error %v, want %s...", len(jobs), err, want)
	}
	missing := filepath.Join(dir, "vc_0e4a51.csv")
	jobs, _, err = LoadJobTrace("gavel-vc", missing)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) || strings.Contains(err.Error(), "simulation_throughputs") || jobs != nil {
		t.Errorf("missing trace: %d jobs, error %v, want that %s does not exist", len(jobs), err, missing)
	}
	if _, _, err := LoadJobTrace("gavel", dir); err == nil || !strings.Contains(err.Error(), `unknown job trace format "gavel"`) {
		t.Errorf("unknown format: error %v", err)
	}
}

// ReadJobsCSV refuses values the planner cannot take, at their column: a
// speedup exponent outside (0, 1] (p = 1 is linear speedup, above it
// superlinear), a negative arrival.
func TestReadJobsCSVRefuses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"job,size,p\na,1,1.5\n", "jobs.csv:2:5: column p: expected a speedup exponent in (0, 1], got 1.5"},
		{"job,size,p\na,1,0\n", "jobs.csv:2:5: column p: expected a speedup exponent in (0, 1], got 0"},
		{"job,size,p\na,1,0e-400\n", "jobs.csv:2:5: column p: expected a speedup exponent in (0, 1], got 0"},
		{"job,size,p\na,1,1E-400\n", `jobs.csv:2:5: column p: expected a speedup exponent in (0, 1], got "1E-400", which underflows to 0`},
		{"job,size,arrival\na,1,-2\n", "jobs.csv:2:5: column arrival: expected seconds >= 0, got -2"},
		// weights outside what plan and simulate read (1e-6 to 1e6)
		{"job,size,weight\na,1,1e308\n", `jobs.csv:2:5: column weight: expected a weight from 1e-06 to 1e+06 (what plan and simulate read), got "1e308"`},
		{"job,size,weight\na,1,5e-324\n", `jobs.csv:2:5: column weight: expected a weight from 1e-06 to 1e+06 (what plan and simulate read), got "5e-324"`},
		{"job,size,weight\na,1,0\n", `jobs.csv:2:5: column weight: expected a weight from 1e-06 to 1e+06 (what plan and simulate read), got "0"`},
		{"job,size,weight\na,1,-1\n", `jobs.csv:2:5: column weight: expected a weight from 1e-06 to 1e+06 (what plan and simulate read), got "-1"`},
	} {
		_, err := ReadJobsCSV("jobs.csv", strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
	if jobs, err := ReadJobsCSV("jobs.csv", strings.NewReader("job,size,p\na,1,1\n")); err != nil || len(jobs) != 1 || jobs[0].P != 1 {
		t.Errorf("p = 1: %v %v", jobs, err)
	}
	// the bounds read; an arrival of -0 reads as 0 and is written back so
	// (it was written as "-0")
	jobs, err := ReadJobsCSV("jobs.csv", strings.NewReader("job,arrival,size,weight\na,-0,1,1e-6\nb,-0.0,1,1e6\n"))
	if err != nil || len(jobs) != 2 || jobs[0].Weight != 1e-6 || jobs[1].Weight != 1e6 || math.Signbit(jobs[0].Arrival) || math.Signbit(jobs[1].Arrival) {
		t.Fatalf("weights at the bounds, arrivals -0: %+v %v", jobs, err)
	}
	var buf bytes.Buffer
	if err := WriteJobsCSV(&buf, jobs); err != nil || strings.Contains(buf.String(), ",-0,") {
		t.Errorf("written back: %q %v, want no -0", buf.String(), err)
	}
}
