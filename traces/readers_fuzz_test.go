package traces

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sgdplan/sgdplan/internal/limits"
)

// The readers the other fuzz targets reach only with valid files: jobs.csv
// as convert writes it, Gavel's rates table and Pollux's scalability.csv.
// Arbitrary bytes give jobs/rows with finite values or a *ParseError with
// the "traces: " prefix and printable text; nothing panics.

func FuzzReadJobsCSV(f *testing.F) {
	f.Add([]byte("job,arrival,size,p,max_workers,rigid_workers\na,0,10,0.5,4,2\nb,1.5,20,,,\n"))
	f.Add([]byte("job,size\na,1e308\nb,-1\n"))
	f.Add([]byte("\xef\xbb\xbfjob,size\r\n\"a\nb\",1\r\n"))
	f.Add([]byte("job,arrival,size,weight\na,-0,1,1e-6\nb,1,2,1e308\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := ReadJobsCSV("jobs.csv", bytes.NewReader(data))
		if err != nil {
			checkFuzzErr(t, err)
			return
		}
		for i, j := range jobs {
			if !(j.Size > 0) || math.IsInf(j.Size, 0) || math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0) || math.Signbit(j.Arrival) ||
				!math.IsNaN(j.Weight) && !(j.Weight >= limits.MinWeight && j.Weight <= limits.MaxWeight) {
				t.Fatalf("job %d: %+v", i, j)
			}
		}
	})
}

func FuzzGavelRates(f *testing.F) {
	f.Add([]byte("gpu_type,consolidated,job_type,scale_factor,isolated_steps_per_sec\nv100,1,ResNet-18 (batch size 32),1,12.5\nk80,1,x,1,3\n"))
	f.Add([]byte("gpu_type,consolidated,job_type,scale_factor,isolated_steps_per_sec\nv100,1,a,1,1e-320\nv100,1,b,1,-3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rates, err := gavelRates("rates.csv", bytes.NewReader(data))
		if err != nil {
			checkFuzzErr(t, err)
			return
		}
		for k, v := range rates {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Fatalf("rate %q = %g", k, v)
			}
		}
	})
}

func FuzzPolluxScalability(f *testing.F) {
	f.Add([]byte("num_nodes,num_replicas,local_bsz,step_time\n1,1,32,0.1\n2,4,64,0.3\n"))
	f.Add([]byte("num_nodes,num_replicas,local_bsz,step_time\n4,2,32,0.1\n1,1,0,1e400\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"cifar10/scalability.csv": {Data: data}}
		rows, err := readPolluxScalability(pubFiles{fsys: fsys, dir: "traces"}, "cifar10/scalability.csv", "cifar10")
		if err != nil {
			checkFuzzErr(t, err)
			return
		}
		for i, r := range rows {
			if !(r.StepsPerS > 0) || math.IsInf(r.StepsPerS, 0) || r.Workers < 1 {
				t.Fatalf("row %d: %+v", i, r)
			}
		}
	})
}

// checkFuzzErr requires a *ParseError (file, line, column) with the
// package's prefix and printable text.
func checkFuzzErr(t *testing.T, err error) {
	t.Helper()
	if !strings.HasPrefix(err.Error(), "traces: ") {
		t.Fatalf("error without prefix: %v", err)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T is not a *ParseError: %v", err, err)
	}
	requirePrintable(t, err)
}

// A Gavel rate too small to divide by is refused at its cell, in the rates
// file (1e-320 steps/s made every job of that type +Inf, blamed on the
// trace file).
func TestGavelRateTooSmall(t *testing.T) {
	in := "gpu_type,consolidated,job_type,scale_factor,isolated_steps_per_sec\nv100,1,a,1,1e-320\n"
	_, err := gavelRates("rates.csv", strings.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "rates.csv:2:") || !strings.Contains(err.Error(), "expected a rate of at least 1e-12 steps/s") {
		t.Errorf("err %v", err)
	}
}

// A job type given twice alone on one consolidated V100 is refused at the
// second row, naming the first's line: the last rate was taken without a
// word (100 steps at 5 and 7 steps/s: a size of 14.3 s, not 20). Rows of
// other GPU types, spread jobs or more GPUs are not read, and may repeat it.
func TestGavelRateTwice(t *testing.T) {
	const head = "gpu_type,consolidated,job_type,model,batch_size,scale_factor,isolated_steps_per_sec\n"
	_, err := gavelRates("rates.csv", strings.NewReader(head+"v100,1,X,X,1,1,5\nk80,1,X,X,1,1,2\nv100,1,X,X,1,1,7\n"))
	want := `traces: rates.csv:4:8: column job_type: "X" alone on one consolidated V100 (gpu_type v100, consolidated 1, scale_factor 1) given twice, first on line 2 (expected each job type once: which rate holds?)`
	if err == nil || err.Error() != want {
		t.Errorf("a job type twice: %v\nwant %s", err, want)
	}
	rates, err := gavelRates("rates.csv", strings.NewReader(head+"v100,1,X,X,1,1,5\nv100,0,X,X,1,1,4\nv100,1,X,X,1,2,9\nk80,1,X,X,1,1,2\nv100,1,Y,Y,1,1,7\n"))
	if err != nil || len(rates) != 2 || rates["X"] != 5 || rates["Y"] != 7 {
		t.Errorf("one rate each: %v, error %v; want X 5, Y 7", rates, err)
	}
}

// A converted job longer than jobs.csv may hold (1e12 s) is refused by
// convert, not written for plan to refuse.
func TestSortJobsBound(t *testing.T) {
	j := newJob()
	j.Name, j.Size = "big", 1e18
	if _, _, err := sortJobs("trace.csv", []Job{j}, nil); err == nil || !strings.Contains(err.Error(), "at most 1e+12 s") {
		t.Errorf("err %v", err)
	}
}

// A gavel-vc job of 1.5 steps is refused at its cell, as philly's 1.5
// GPUs are: it was a job of 1.5/rate s without a word.
func TestGavelVCWholeSteps(t *testing.T) {
	const head = "job_type,model,batch_size,total_steps,arrival_time_s,scale_factor\n"
	rate := map[string]float64{"X": 5}
	_, _, err := loadGavelVC(strings.NewReader(head+"X,X,1,1.5,0,1\n"), "v.csv", rate)
	if err == nil || !strings.Contains(err.Error(), `v.csv:2:7: column total_steps: expected a whole number of steps, got "1.5"`) {
		t.Errorf("1.5 steps: %v", err)
	}
	jobs, _, err := loadGavelVC(strings.NewReader(head+"X,X,1,100,0,1\nX,X,1,1e3,5,1\n"), "v.csv", rate)
	if err != nil || len(jobs) != 2 || jobs[0].Size != 20 || jobs[1].Size != 200 {
		t.Errorf("whole steps: %v, %v", jobs, err)
	}
}
