package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sgdplan/sgdplan/traces"
)

// input is a file a command reads, for notAnInput: no output of the
// command may replace it.
type input struct {
	path string // the file; with tree, a folder whose files are read
	what string // how an error names it: "--jobs j.csv", "steps.csv of tr"
	tree bool   // every existing file under path is read
}

// namedInput is the file path given as the flag (or argument) how, e.g.
// namedInput(p, "--jobs").
func namedInput(path, how string) input { return input{path: path, what: how + " " + path} }

// traceInputs lists the canonical trace files that paths name, as the
// trace reader resolves them (traces.Files): a folder's steps.csv (or
// steps.csv.gz), updates.csv, runs.csv, evals.csv and throughput.csv, a
// file as itself. A path the reader refuses adds nothing: the read fails
// before anything is written.
func traceInputs(paths ...string) []input {
	var ins []input
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		files, err := traces.Files(p)
		if err != nil {
			continue
		}
		for _, f := range files {
			what := "the trace " + f.Path
			if fi.IsDir() {
				what = filepath.Base(f.Path) + " of " + p
			}
			ins = append(ins, input{path: f.Path, what: what})
		}
	}
	return ins
}

// notAnInput refuses, as bad input, an output of the command cmd that is
// one of the files it reads (ins): the same path once cleaned and made
// absolute, or the same existing file (a hard or symbolic link to it).
// flag is the output's flag and val its value; files are the paths the
// flag makes the command write (none: val itself, a file), e.g. the files
// of an output folder. The write would replace the input, which the
// command has just read (fit --out tr/steps.csv replaced the trace with
// the model).
func notAnInput(cmd, flag, val string, files []string, ins []input) error {
	if len(files) == 0 {
		files = []string{val}
	}
	for _, f := range files {
		for _, in := range ins {
			if !isInput(f, in) {
				continue
			}
			head := fmt.Sprintf("%s: --%s %s", cmd, flag, val)
			if f != val {
				head += ": " + f
			}
			return badInput(fmt.Errorf("%s is also an input (%s): refusing to overwrite it", head, in.what))
		}
	}
	return nil
}

// isInput reports whether writing the file out would replace the input in.
func isInput(out string, in input) bool {
	if !in.tree {
		return sameFile(out, in.path)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.IsDir() {
		return false // a new file in the folder replaces nothing read
	}
	o, err1 := filepath.EvalSymlinks(out)
	d, err2 := filepath.EvalSymlinks(in.path)
	if err1 != nil || err2 != nil {
		return false
	}
	o, err1 = filepath.Abs(o)
	d, err2 = filepath.Abs(d)
	return err1 == nil && err2 == nil && strings.HasPrefix(o, d+string(filepath.Separator))
}

// inFolder lists the paths of names in the folder dir.
func inFolder(dir string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(dir, n)
	}
	return out
}
