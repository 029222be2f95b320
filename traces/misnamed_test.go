package traces

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// A folder holding files named like a canonical file but not it, without
// the canonical one, is refused with what to do: a trace written one file
// a process (steps-0.csv, steps-1.csv, as docs/instrumenting.md's example
// once did) was read without its steps, and inspect printed dashes.
func TestFolderWithMisnamedFiles(t *testing.T) {
	row := "run,workers,ps,batch,worker,step,start,end\nr,1,1,32,0,0,0,1\n"
	// a canonical name in another case is read as that file, as a file
	// given by its own path is (Steps.csv was read as no steps, and
	// Runs.csv or Evals.csv as none of theirs)
	for _, c := range []struct {
		files []string
		kind  Kind
		want  string
	}{
		{[]string{"Steps.csv", "runs.csv"}, KindSteps, "o/Steps.csv"},
		{[]string{"steps.csv", "Runs.csv"}, KindRuns, "o/Runs.csv"},
		{[]string{"steps.csv", "EVALS.CSV.GZ"}, KindEvals, "o/EVALS.CSV.GZ"},
	} {
		fsys := fstest.MapFS{}
		for _, f := range c.files {
			fsys["o/"+f] = &fstest.MapFile{Data: []byte(row)}
		}
		files, err := FilesFS(fsys, "o")
		if err != nil {
			t.Errorf("%v: %v", c.files, err)
			continue
		}
		if !slices.ContainsFunc(files, func(f File) bool { return f.Kind == c.kind && f.Path == c.want }) || len(files) != len(c.files) {
			t.Errorf("%v: read %+v, want %s among %d", c.files, files, c.want, len(c.files))
		}
	}
	// a link to nothing named steps.csv: not "holds steps.csv but no
	// steps.csv"
	fsys := fstest.MapFS{"l/runs.csv": &fstest.MapFile{Data: []byte("run\nr\n")}, "l/steps.csv": &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte("/nowhere/steps.csv")}}
	if _, err := FilesFS(fsys, "l"); err == nil || !strings.Contains(err.Error(), "l: steps.csv cannot be read (a link to a file that does not exist?)") {
		t.Errorf("a link to nothing: %v", err)
	}
	// a link to nothing in another case, and a folder under the name: said
	// as they are (not "rename it", nor "a link to nothing")
	fsys = fstest.MapFS{"d/steps.csv": &fstest.MapFile{Data: []byte("run\nr\n")}, "d/Updates.csv": &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte("/nowhere/u.csv")}}
	if _, err := FilesFS(fsys, "d"); err == nil || !strings.Contains(err.Error(), "Updates.csv cannot be read (a link to a file that does not exist?)") {
		t.Errorf("a link to nothing in another case: %v", err)
	}
	fsys = fstest.MapFS{"f/runs.csv": &fstest.MapFile{Data: []byte("run\nr\n")}, "f/steps.csv/x": &fstest.MapFile{Data: []byte("x")}}
	if _, err := FilesFS(fsys, "f"); err == nil || !strings.Contains(err.Error(), "steps.csv is a folder (or a link to one): want the steps.csv file") {
		t.Errorf("a folder named steps.csv: %v", err)
	}
	for _, c := range []struct {
		name  string
		files []string
		want  string // "" reads
	}{
		{"one file a rank", []string{"steps-0.csv", "steps-1.csv", "runs.csv"}, "t: folder holds steps-0.csv, steps-1.csv but no steps.csv: a folder's files are read by their names"},
		{"underscore, gzip, case", []string{"Steps_rank1.csv.gz"}, "folder holds Steps_rank1.csv.gz but no steps.csv"},
		{"many", []string{"steps0.csv", "steps1.csv", "steps2.csv", "steps3.csv", "steps4.csv"}, "folder holds steps0.csv, steps1.csv, steps2.csv and 2 more but no steps.csv"},
		{"updates one file a shard", []string{"steps.csv", "updates-0.csv", "updates-1.csv"}, "folder holds updates-0.csv, updates-1.csv but no updates.csv: a folder's files are read by their names, so these would be left out; write each shard's file as updates.csv"},
		// one name in two cases: which to read?
		{"two cases", []string{"Steps.csv", "STEPS.csv", "runs.csv"}, "folder holds both STEPS.csv and Steps.csv, one name in two cases: keep one"},
		// beside the canonical name too (Steps.csv was left out unsaid)
		{"beside the canonical one", []string{"steps.csv.gz", "Steps.csv"}, "folder holds both steps.csv.gz and Steps.csv, one name in two cases: keep one"},
		{"beside runs.csv", []string{"steps.csv", "runs.csv", "RUNS.csv"}, "folder holds both runs.csv and RUNS.csv"},
		// the other kinds are not written one file a process: a file of
		// the user's beside the trace is left alone
		{"evals and tables of the user's", []string{"steps.csv", "evals_2.csv", "throughput_A100.csv", "runs-w1.csv"}, ""},
		// the canonical file is there: a copy beside it is not read, as before
		{"a backup beside it", []string{"steps.csv", "steps-old.csv"}, ""},
		// other names that begin alike
		{"other words", []string{"steps.csv", "stepsize.csv", "throughputs_A100.csv", "runs.txt"}, ""},
	} {
		fsys := fstest.MapFS{}
		for _, f := range c.files {
			fsys["t/"+f] = &fstest.MapFile{Data: []byte(row)}
		}
		_, err := FilesFS(fsys, "t")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
