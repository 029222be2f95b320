package traces

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// A folder with steps.csv (or updates.csv) and files named one a process
// or a shard beside it (steps-1.csv, steps_rank2.csv.gz) reads steps.csv
// alone, as before, and now says which files it left out and why: they
// were dropped without a word (the refusal fired only without steps.csv).
func TestFolderLeavesOutPerProcessFiles(t *testing.T) {
	steps := "run,workers,ps,batch,worker,step,start,end\nr,1,1,32,0,0,0,1\n"
	upd := "run,shard,worker,time,version,staleness\nr,0,0,1,1,0\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string // "" no warning
	}{
		{"rank files beside steps.csv", map[string]string{"steps.csv": steps, "steps-1.csv": steps, "steps_rank2.csv.gz": "x"},
			"traces: t: steps-1.csv, steps_rank2.csv.gz left out: the folder's steps.csv is read, and a folder's files are read by their names, so these are not (if they hold other processes' steps, write each process's file as steps.csv in a folder of its own"},
		{"beside Steps.csv, in another case", map[string]string{"Steps.csv": steps, "STEPS-1.csv": steps},
			"traces: t: STEPS-1.csv left out: the folder's Steps.csv is read"},
		{"beside updates.csv", map[string]string{"steps.csv": steps, "updates.csv": upd, "updates-0.csv": upd, "updates-1.csv": upd, "updates-2.csv": upd, "updates-3.csv": upd},
			"traces: t: updates-0.csv, updates-1.csv, updates-2.csv and 1 more left out: the folder's updates.csv is read, and a folder's files are read by their names, so these are not (if they hold other shards' updates, write each shard's file as updates.csv"},
		{"a backup beside it", map[string]string{"steps.csv": steps, "steps.old.csv": steps}, "traces: t: steps.old.csv left out"},
		{"none", map[string]string{"steps.csv": steps, "stepsize.csv": steps, "evals_2.csv": "x", "runs-w1.csv": "x"}, ""},
	} {
		fsys := fstest.MapFS{}
		for n, d := range c.files {
			fsys["t/"+n] = &fstest.MapFile{Data: []byte(d)}
		}
		_, lw, err := LoadFS(fsys, "t")
		if err != nil {
			t.Fatalf("%s: Load: %v", c.name, err)
		}
		_, sw, err := SummarizeFS(fsys, "t")
		if err != nil {
			t.Fatalf("%s: Summarize: %v", c.name, err)
		}
		for how, w := range map[string][]error{"Load": lw, "Summarize": sw} {
			n := 0
			for _, e := range w {
				if strings.Contains(e.Error(), "left out") {
					n++
					if c.want == "" || !strings.HasPrefix(e.Error(), c.want) {
						t.Errorf("%s: %s: warning %q, want %q", c.name, how, e, c.want)
					}
				}
			}
			if c.want != "" && n != 1 {
				t.Errorf("%s: %s: %d warnings that files are left out (%v), want 1", c.name, how, n, w)
			}
		}
	}
}

// FuzzFolderNames: for any folder of names (one a line), FilesFS does not
// panic, its error is a *ParseError naming the folder, and when it reads the
// folder, a steps.csv or updates.csv beside files named one a process or a
// shard carries the warning that they are left out (and no other does).
func FuzzFolderNames(f *testing.F) {
	for _, s := range []string{
		"steps.csv\nsteps-1.csv\nsteps_rank2.csv.gz",
		"Steps.csv\nSTEPS-1.csv",
		"steps.csv\nupdates.csv\nupdates-0.csv",
		"steps-0.csv\nsteps-1.csv",
		"steps.csv\nStepsize.csv\nevals_2.csv",
		"steps.csv.gz\nSteps.csv",
		"runs.csv\nruns-1.csv\nupdates9.csv",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fsys := fstest.MapFS{}
		for _, n := range strings.Split(s, "\n") {
			if n == "" || strings.Contains(n, "/") || !fs.ValidPath("t/"+n) {
				continue
			}
			fsys["t/"+n] = &fstest.MapFile{Data: []byte("x")}
		}
		if len(fsys) == 0 {
			return
		}
		files, err := FilesFS(fsys, "t")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "t" {
				t.Fatalf("error %T %v, want a *ParseError of t", err, err)
			}
			return
		}
		for _, fl := range files {
			like := false
			if fl.Kind == KindSteps || fl.Kind == KindUpdates {
				stem := strings.TrimSuffix(fl.Kind.FileName(), ".csv")
				for n := range fsys {
					l := strings.TrimSuffix(strings.ToLower(strings.TrimPrefix(n, "t/")), ".gz")
					if l != fl.Kind.FileName() && strings.HasPrefix(l, stem) && strings.HasSuffix(l, ".csv") && strings.ContainsRune("-_.0123456789", rune(l[len(stem)])) {
						like = true
					}
				}
			}
			if like != (fl.leftOut != nil) {
				t.Fatalf("%s: leftOut %v, want one: %v (folder %q)", fl.Path, fl.leftOut, like, s)
			}
			if fl.leftOut != nil && (fl.leftOut.File != "t" || !strings.Contains(fl.leftOut.Msg, "left out")) {
				t.Fatalf("%s: warning %v", fl.Path, fl.leftOut)
			}
		}
	})
}
