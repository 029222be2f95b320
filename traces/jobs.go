package traces

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sgdplan/sgdplan/internal/decimal"
	"github.com/sgdplan/sgdplan/internal/limits"
	"github.com/sgdplan/sgdplan/internal/words"
)

// Job is one row of the planner's jobs.csv (shared docs/design.md, "Command
// line"): a job arriving at Arrival seconds after the first job of its trace,
// needing Size seconds of work on one worker.
type Job struct {
	Name         string
	Arrival      float64 // s after the trace's first arrival, >= 0
	Size         float64 // s on one worker, > 0
	P            float64 // speedup exponent in (0, 1]; 0 or NaN when absent (written empty)
	Model        string  // path to a fitted model.json; "" when absent
	MaxWorkers   int     // 0 when absent
	Weight       float64 // 0 or NaN when absent (the planner's default is 1)
	RigidWorkers int     // workers the job holds for its whole life (fcfs-rigid); 0 when absent

	at jobAt // where a job-trace reader read the arrival, for sortJobs' errors
}

// jobAt is where a job's arrival was read: the line and column of its field,
// the column's name and the text as written (line 0: not read from a file).
type jobAt struct {
	line, col  int
	name, text string
}

// arrivalAt records where t's current row holds the arrival (column name).
func (j *Job) arrivalAt(t *pubTable, name string) {
	l, c := t.pos(name)
	j.at = jobAt{l, c, name, t.str(name)}
}

// JobFormats lists the job-trace formats LoadJobTrace accepts:
//
//   - philly-pollux: pollux-osdi21/traces/philly.csv (Philly as processed by
//     the Pollux authors): timestamp (UTC wall clock "2006-01-02 15:04:05"),
//     duration (s), num_gpus. Name = "<cluster>-<line>".
//   - itp: microsoft-itp-elasticflow-traces raw/clusterNN.csv (or the
//     elasticflow/ files, which add synthetic columns that are ignored):
//     job_id, submission_time (s), duration (s), num_gpu. Name = job_id.
//   - gavel-vc: gavel-osdi20/philly_vc_traces_seed0/vc_<id>.csv: job_type,
//     total_steps, arrival_time_s, scale_factor. Gavel gives steps, not
//     durations, so Size = total_steps / (steps/s of job_type alone on one
//     V100, consolidated, from simulation_throughputs_isolated.csv found in
//     the trace's folder or its parent): seconds on one worker, measured.
//     Name = "<vc>-<line> <job_type>".
//
// For philly-pollux and itp, Size = duration x GPUs: measured GPU-seconds,
// which is the work on one worker only if the job scaled linearly at the
// allocation it ran with (an upper bound on the true one-worker time when it
// did not). In every format RigidWorkers = the GPUs the job ran with,
// Arrival is relative to the earliest job, rows are sorted by arrival (file
// order among ties), and P, Model, MaxWorkers and Weight are left absent.
// Rows with a zero duration or step count are skipped with one warning, at
// the first, that counts them and names their lines.
func JobFormats() []string { return []string{"gavel-vc", "itp", "philly-pollux"} }

// LoadJobTrace reads a job trace of format (one of JobFormats) from the file
// path. It returns the jobs sorted by arrival, warnings for skipped rows, and
// a *ParseError naming file, line and column for bad content.
func LoadJobTrace(format, path string) ([]Job, []error, error) {
	var jobs []Job
	var warns []error
	var err error
	var rates map[string]float64
	if !slices.Contains(JobFormats(), format) {
		return nil, nil, fmt.Errorf("traces: unknown job trace format %q (known: %s)", format, strings.Join(JobFormats(), ", "))
	}
	// the trace itself first: a missing file or a folder was said to need
	// gavel-vc's rates file when none was near it
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("traces: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		// reading it said "read DIR: is a directory", not what to give
		return nil, nil, &ParseError{File: path, Msg: fmt.Sprintf("a folder: expected one %s job-trace CSV file (%s)", format, jobTraceExample[format])}
	}
	if format == "gavel-vc" {
		const thr = "simulation_throughputs_isolated.csv"
		tp := filepath.Join(filepath.Dir(path), thr)
		if _, err := os.Stat(tp); err != nil {
			tp = filepath.Join(filepath.Dir(filepath.Dir(path)), thr)
		}
		if _, serr := os.Stat(tp); serr != nil {
			return nil, nil, fmt.Errorf("traces: gavel-vc needs %s beside the trace or in its parent folder: %w", thr, serr)
		}
		if rates, err = gavelOneV100(tp); err != nil {
			return nil, nil, err // the rates file's own error, at its line and column
		}
	}
	jobs, warns, err = readJobTrace(format, f, path, rates)
	if err != nil {
		return nil, nil, err
	}
	return sortJobs(path, jobs, warns)
}

// jobTraceExample names a file of each job-trace format, for the error
// that a folder was given.
var jobTraceExample = map[string]string{
	"philly-pollux": "pollux-osdi21/traces/philly.csv",
	"itp":           "microsoft-itp-elasticflow-traces/raw/cluster01.csv, one cluster a conversion",
	"gavel-vc":      "gavel-osdi20/philly_vc_traces_seed0/vc_0e4a51.csv, one VC a conversion",
}

// readJobTrace reads one job-trace file of format from r; file names it in
// errors; rates are the 1-GPU steps/s of each job type (gavel-vc).
func readJobTrace(format string, r io.Reader, file string, rates map[string]float64) ([]Job, []error, error) {
	switch format {
	case "philly-pollux":
		return loadPhilly(r, file)
	case "itp":
		return loadITP(r, file)
	default:
		return loadGavelVC(r, file, rates)
	}
}

// sortJobs checks there are jobs, sorts them by arrival and makes arrivals
// relative to the first.
// maxJobTime bounds a converted job's size and arrival, s: planner.MaxTime,
// the most jobs.csv may hold (a Gavel rate of 1e-12 steps/s gave sizes of
// 1e18 s that convert wrote and plan refused).
const maxJobTime = limits.MaxTime

// An arrival more than maxJobTime after the earliest is an error at the
// first such job in file order, with the text of both as written (the
// difference had float artifacts: 9.999999999999774e+19 for 1e20). The
// readers refuse a size past maxJobTime at its row; here it is checked for
// jobs not read from a file.
func sortJobs(path string, jobs []Job, warns []error) ([]Job, []error, error) {
	if len(jobs) == 0 {
		if len(warns) > 0 {
			// "expected at least one data row" of a file of rows, every one skipped
			return nil, warns, &ParseError{File: path, Msg: "no jobs: every data row was skipped (the warning says why): expected at least one job with a nonzero duration (step count)"}
		}
		return nil, warns, &ParseError{File: path, Msg: "no jobs: expected at least one data row"}
	}
	earliest := 0
	for i := range jobs {
		if jobs[i].Arrival < jobs[earliest].Arrival {
			earliest = i
		}
	}
	e := &jobs[earliest]
	for i := range jobs {
		j := &jobs[i]
		if !(j.Size <= maxJobTime) {
			return nil, warns, &ParseError{File: path, Msg: fmt.Sprintf("job %q: size %v s is beyond %g s (expected a size at most %g s, what plan and simulate read)", j.Name, j.Size, maxJobTime, maxJobTime)}
		}
		if j.Size < limits.MinSize {
			return nil, warns, &ParseError{File: path, Msg: fmt.Sprintf("job %q: size %v s is below %g s (expected a size of at least %g s, what plan and simulate read)", j.Name, j.Size, limits.MinSize, limits.MinSize)}
		}
		if !(j.Arrival-e.Arrival <= maxJobTime) {
			if j.at.line == 0 {
				return nil, warns, &ParseError{File: path, Msg: fmt.Sprintf("job %q: arrival %v s is more than %g s after the earliest job's, %q at %v s (expected arrivals within %g s of the earliest, what plan and simulate read)", j.Name, j.Arrival, maxJobTime, e.Name, e.Arrival, maxJobTime)}
			}
			return nil, warns, &ParseError{File: path, Line: j.at.line, Column: j.at.col, Msg: fmt.Sprintf("column %s: job %q arrives at %s, more than %g s after the earliest job, %q at %s on line %d (expected arrivals within %g s of the earliest, what plan and simulate read)", j.at.name, j.Name, j.at.text, maxJobTime, e.Name, e.at.text, e.at.line, maxJobTime)}
		}
	}
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].Arrival < jobs[j].Arrival })
	first := jobs[0].Arrival
	for i := range jobs {
		jobs[i].Arrival -= first
	}
	return jobs, warns, nil
}

func newJob() Job { return Job{P: math.NaN(), Weight: math.NaN()} }

func loadPhilly(r io.Reader, file string) ([]Job, []error, error) {
	t, err := pubOpenReader(file, r, "timestamp", "duration", "num_gpus")
	if err != nil {
		return nil, nil, err
	}
	return readGPUJobs(t, "timestamp", "duration", "num_gpus", func() (string, float64, error) {
		ts, err := time.Parse(time.DateTime, t.str("timestamp"))
		if err != nil {
			return "", 0, t.errAt("timestamp", "column timestamp: expected a time like 2017-10-09 07:01:55, got %q", t.str("timestamp"))
		}
		name := fmt.Sprintf("%s-%d", t.str("cluster"), t.line())
		if t.str("cluster") == "" {
			name = fmt.Sprintf("philly-%d", t.line())
		}
		return name, float64(ts.Unix()), nil
	})
}

// readGPUJobs reads the rows of a trace of jobs that each ran on a fixed
// number of GPUs (column gcol) for a duration (column dcol, s): Size =
// duration x GPUs, RigidWorkers = GPUs. start gives the current row's name
// and arrival (s). Rows with a zero duration are skipped with one warning
// (skipSummary).
//
// acol names the arrival's column, for sortJobs' errors. A size past
// maxJobTime is an error at the duration.
func readGPUJobs(t *pubTable, acol, dcol, gcol string, start func() (name string, arrival float64, err error)) ([]Job, []error, error) {
	var jobs []Job
	var warns []error
	err := t.each(func() error {
		name, arrival, err := start()
		if err != nil {
			return err
		}
		d, g, skip, err := jobDurationGPUs(t, dcol, gcol)
		if err != nil || skip != nil {
			warns = appendNonNil(warns, skip)
			return err
		}
		j := newJob()
		j.Name = name
		j.Arrival = arrival
		j.Size = d * float64(g)
		j.RigidWorkers = g
		if !(j.Size <= maxJobTime) {
			return t.errAt(dcol, "column %s: %s s x %s = %s GPU-seconds is beyond %g s (expected a job size, duration x GPUs, of at most %g s: what plan and simulate read)", dcol, t.str(dcol), t.str(gcol), fmtFloat(j.Size), maxJobTime, maxJobTime)
		}
		if j.Size < limits.MinSize {
			return t.errAt(dcol, "column %s: %s s x %s = %s GPU-seconds is below %g s (expected a job size, duration x GPUs, of at least %g s: what plan and simulate read)", dcol, t.str(dcol), t.str(gcol), fmtFloat(j.Size), limits.MinSize, limits.MinSize)
		}
		j.arrivalAt(t, acol)
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return jobs, skipSummary(warns, len(jobs)), nil
}

// skipSummary folds the warnings of the rows a job-trace reader skipped for
// its one reason (each a *ParseError from errAt at the row's cell) into one,
// at the first such cell, that counts them against the rows read and names
// their lines (the first maxSkipLines): convert prints 20 warnings, so a
// trace with hundreds of zero durations said neither how many jobs were
// dropped nor, past the 20th, why. kept is the number of jobs read.
func skipSummary(skips []error, kept int) []error {
	if len(skips) == 0 {
		return nil
	}
	var first *ParseError
	if !errors.As(skips[0], &first) {
		return skips // not errAt's: left as they are, one each
	}
	var lines []string
	for _, w := range skips[:min(len(skips), maxSkipLines)] {
		var pe *ParseError
		if errors.As(w, &pe) {
			lines = append(lines, strconv.Itoa(pe.Line))
		}
	}
	at := "line " + lines[0]
	if len(skips) > 1 {
		if more := len(skips) - len(lines); more > 0 {
			at = "lines " + strings.Join(lines, ", ") + fmt.Sprintf(" and %d more", more)
		} else {
			at = "lines " + strings.Join(lines[:len(lines)-1], ", ") + " and " + lines[len(lines)-1]
		}
	}
	sum := *first
	sum.Msg = fmt.Sprintf("%s: %d of %d rows skipped (%s); %s kept", first.Msg, len(skips), len(skips)+kept, at, words.Count(kept, "job"))
	return []error{&sum}
}

// maxSkipLines caps the lines a skipped-rows warning names.
const maxSkipLines = 10

// jobDurationGPUs reads a duration (s, >= 0) and a GPU count (>= 1); a zero
// duration comes back as a warning to skip the row.
func jobDurationGPUs(t *pubTable, dcol, gcol string) (float64, int, error, error) {
	d, err := t.float(dcol)
	if err != nil {
		return 0, 0, nil, err
	}
	if d < 0 {
		return 0, 0, nil, t.errAt(dcol, "column %s: negative duration %v", dcol, d)
	}
	g, err := t.integer(gcol, 1)
	if err != nil {
		return 0, 0, nil, err
	}
	if d == 0 {
		return 0, 0, t.errAt(dcol, "column %s: zero duration", dcol), nil
	}
	return d, g, nil, nil
}

func loadITP(r io.Reader, file string) ([]Job, []error, error) {
	t, err := pubOpenReader(file, r, "job_id", "submission_time", "duration", "num_gpu")
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]int{}   // job -> line: jobs.csv holds each job once
	named := map[string]bool{} // names given to empty job_ids
	return readGPUJobs(t, "submission_time", "duration", "num_gpu", func() (string, float64, error) {
		sub, err := t.float("submission_time")
		if err != nil {
			return "", 0, err
		}
		name := t.str("job_id")
		if err := t.names("job_id"); err != nil {
			return "", 0, err // (plan refuses it in the jobs.csv written)
		}
		given := name == ""
		if given {
			name = fmt.Sprintf("itp-%d", t.line())
		}
		if l, dup := seen[name]; dup {
			// say when one of the two is a name convert gave an empty
			// job_id: "job "itp-7" repeats line 7", where line 7's
			// job_id is empty, left the user looking for "itp-7"
			switch {
			case given:
				return "", 0, t.errAt("job_id", "column job_id: empty, and the name convert gives it, %q, is line %d's job_id (expected each job once: jobs.csv names a job by it; give this job an id)", name, l)
			case named[name]:
				return "", 0, t.errAt("job_id", "column job_id: job %q is the name convert gave line %d, whose job_id is empty (expected each job once: jobs.csv names a job by it; give line %d's job an id)", name, l, l)
			}
			return "", 0, t.errAt("job_id", "column job_id: job %q repeats line %d (expected each job once: jobs.csv names a job by it)", name, l)
		}
		seen[name] = t.line()
		named[name] = given
		return name, sub, nil
	})
}

// gavelOneV100 reads the steps/s of each job type alone on one consolidated
// V100 from Gavel's simulation_throughputs_isolated.csv.
func gavelOneV100(path string) (map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("traces: %w", err)
	}
	defer f.Close()
	return gavelRates(path, f)
}

// gavelRates is gavelOneV100 on the file's bytes in r (file names it in
// errors).
func gavelRates(file string, r io.Reader) (map[string]float64, error) {
	t, err := pubOpenReader(file, r, "gpu_type", "consolidated", "job_type", "scale_factor", "isolated_steps_per_sec")
	if err != nil {
		return nil, err
	}
	rate := map[string]float64{}
	line := map[string]int{} // job type -> the line of its rate
	err = t.each(func() error {
		if t.str("gpu_type") != "v100" || t.str("consolidated") != "1" || t.str("scale_factor") != "1" {
			return nil
		}
		// a job type given twice took the last rate without a word
		// (its jobs' sizes follow it): which one holds?
		jt := t.str("job_type")
		if l, dup := line[jt]; dup {
			return t.errAt("job_type", "column job_type: %q alone on one consolidated V100 (gpu_type v100, consolidated 1, scale_factor 1) given twice, first on line %d (expected each job type once: which rate holds?)", jt, l)
		}
		line[jt] = t.line()
		v, err := t.positive("isolated_steps_per_sec")
		if err != nil {
			return err
		}
		if v < 1e-12 { // a job's size is its steps over this rate: 1e-320 made it +Inf
			return t.errAt("isolated_steps_per_sec", "column isolated_steps_per_sec: %g steps/s: expected a rate of at least 1e-12 steps/s", v)
		}
		rate[jt] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rate, nil
}

func loadGavelVC(r io.Reader, file string, rate map[string]float64) ([]Job, []error, error) {
	t, err := pubOpenReader(file, r, "job_type", "total_steps", "arrival_time_s", "scale_factor")
	if err != nil {
		return nil, nil, err
	}
	vc := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	var jobs []Job
	var warns []error
	err = t.each(func() error {
		jt := t.str("job_type")
		if err := t.names("job_type"); err != nil { // (in the job's name)
			return err
		}
		r, known := rate[jt]
		if !known {
			return t.errAt("job_type", "column job_type: %q has no 1-GPU V100 throughput in simulation_throughputs_isolated.csv", jt)
		}
		steps, err := t.float("total_steps")
		if err != nil {
			return err
		}
		if steps < 0 {
			return t.errAt("total_steps", "column total_steps: negative step count %v", steps)
		}
		if steps != math.Trunc(steps) {
			// (1.5 steps was a job of 1.5/rate s without a word, where
			// philly's num_gpus 1.5 is refused)
			return t.errAt("total_steps", "column total_steps: expected a whole number of steps, got %q", t.str("total_steps"))
		}
		arr, err := t.float("arrival_time_s")
		if err != nil {
			return err
		}
		g, err := t.integer("scale_factor", 1)
		if err != nil {
			return err
		}
		if steps == 0 {
			warns = append(warns, t.errAt("total_steps", "column total_steps: zero steps"))
			return nil
		}
		j := newJob()
		j.Name = fmt.Sprintf("%s-%d %s", vc, t.line(), jt)
		j.Arrival = arr
		j.Size = steps / r
		j.RigidWorkers = g
		if !(j.Size <= maxJobTime) {
			return t.errAt("total_steps", "column total_steps: %s steps at %g steps/s (%s alone on one V100) is %s s, beyond %g s (expected a job size of at most %g s: what plan and simulate read)", t.str("total_steps"), r, jt, fmtFloat(j.Size), maxJobTime, maxJobTime)
		}
		if j.Size < limits.MinSize {
			return t.errAt("total_steps", "column total_steps: %s steps at %g steps/s (%s alone on one V100) is %s s, below %g s (expected a job size of at least %g s: what plan and simulate read)", t.str("total_steps"), r, jt, fmtFloat(j.Size), limits.MinSize, limits.MinSize)
		}
		j.arrivalAt(t, "arrival_time_s")
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return jobs, skipSummary(warns, len(jobs)), nil
}

// jobsHeader is the column order WriteJobsCSV writes.
var jobsHeader = []string{"job", "arrival", "size", "p", "model", "max_workers", "weight", "rigid_workers"}

// WriteJobsCSV writes jobs as the planner's jobs.csv, absent values as empty
// fields, floats in the shortest form that reads back exactly.
func WriteJobsCSV(w io.Writer, jobs []Job) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(jobsHeader); err != nil {
		return err
	}
	fl := func(v float64) string {
		if math.IsNaN(v) || v == 0 {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	in := func(v int) string {
		if v == 0 {
			return ""
		}
		return strconv.Itoa(v)
	}
	rec := make([]string, len(jobsHeader))
	for _, j := range jobs {
		rec[0] = j.Name
		rec[1] = strconv.FormatFloat(j.Arrival, 'g', -1, 64)
		rec[2] = strconv.FormatFloat(j.Size, 'g', -1, 64)
		rec[3] = fl(j.P)
		rec[4] = j.Model
		rec[5] = in(j.MaxWorkers)
		rec[6] = fl(j.Weight)
		rec[7] = in(j.RigidWorkers)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadJobsCSV reads a jobs.csv as WriteJobsCSV writes it (columns by name;
// job and size required; absent values as in Job). file names the input in
// errors.
func ReadJobsCSV(file string, r io.Reader) ([]Job, error) {
	t, err := pubOpenReader(file, r, "job", "size")
	if err != nil {
		return nil, err
	}
	var jobs []Job
	optF := func(col string, v *float64) error {
		if t.str(col) == "" {
			return nil
		}
		x, err := t.float(col)
		*v = x
		return err
	}
	optI := func(col string, v *int) error {
		if t.str(col) == "" {
			return nil
		}
		x, err := t.integer(col, 1)
		*v = x
		return err
	}
	err = t.each(func() error {
		var err error
		j := newJob()
		j.Name = t.str("job")
		if err := t.names("job"); err != nil {
			return err
		}
		j.Model = t.str("model")
		if j.Size, err = t.positive("size"); err != nil {
			return err
		}
		for _, e := range []error{optF("arrival", &j.Arrival), optF("p", &j.P), optF("weight", &j.Weight),
			optI("max_workers", &j.MaxWorkers), optI("rigid_workers", &j.RigidWorkers)} {
			if e != nil {
				return e
			}
		}
		if j.Arrival < 0 {
			return t.errAt("arrival", "column arrival: expected seconds >= 0, got %v", j.Arrival)
		}
		if j.Arrival == 0 {
			j.Arrival = 0 // -0 is read as 0 (WriteJobsCSV wrote it back as "-0")
		}
		if !math.IsNaN(j.Weight) && !(j.Weight >= limits.MinWeight && j.Weight <= limits.MaxWeight) {
			return t.errAt("weight", "column weight: expected a weight from %g to %g (what plan and simulate read), got %q", limits.MinWeight, limits.MaxWeight, t.str("weight"))
		}
		if j.P <= 0 || j.P > 1 {
			got := fmt.Sprint(j.P)
			if s := t.str("p"); decimal.Underflows(s, j.P) {
				got = fmt.Sprintf("%q, which underflows to 0", s) // 1e-400 said "got 0"
			}
			return t.errAt("p", "column p: expected a speedup exponent in (0, 1], got %s", got)
		}
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return jobs, nil
}
