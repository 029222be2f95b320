package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// File is one canonical file of a trace: its kind and where it is.
type File struct {
	Kind Kind
	Path string
	fsys fs.FS // nil: the operating system's files
	// leftOut, when set, is the warning that reading this file (a folder's
	// steps.csv or updates.csv) gives: the folder also holds files named
	// as one a process or a shard, which are not read (see underOtherNames).
	leftOut *ParseError
}

// Files resolves paths into the canonical files they name. A path is a
// folder, which contributes each of steps.csv, updates.csv, runs.csv,
// evals.csv and throughput.csv (or the same names with .gz) it holds, or a
// file recognised by that base name. A folder with none of them, or a file of
// another name, is an error. A file named twice is listed once.
func Files(paths ...string) ([]File, error) { return FilesFS(nil, paths...) }

// FilesFS is Files on the file system fsys (paths as fs.FS names, e.g. the
// embedded testdata); a nil fsys means the operating system's files.
func FilesFS(fsys fs.FS, paths ...string) ([]File, error) {
	if len(paths) == 0 {
		return nil, errors.New("traces: no trace given (expected a folder or steps.csv, updates.csv, runs.csv, evals.csv, throughput.csv)")
	}
	stat, join, base := os.Stat, filepath.Join, filepath.Base
	if fsys != nil {
		stat = func(name string) (fs.FileInfo, error) { return fs.Stat(fsys, name) }
		join, base = path.Join, path.Base
	}
	var files []File
	for _, p := range paths {
		if p == "" { // (stat said "stat : no such file or directory")
			return nil, errors.New("traces: an empty path: expected a folder or steps.csv, updates.csv, runs.csv, evals.csv, throughput.csv")
		}
		fi, err := stat(p)
		if err != nil {
			return nil, fmt.Errorf("traces: %w", err)
		}
		if !fi.IsDir() {
			k, ok := kindOf(base(p))
			if !ok {
				if e := modelFileError(fsys, p); e != nil {
					return nil, e
				}
				return nil, &ParseError{File: p, Msg: "not a canonical trace file (expected a folder, or a file named " + strings.Join(kindFiles[:], ", ") + ", optionally .gz)" + fileConvertHint(p, base(p))}
			}
			files = append(files, File{Kind: k, Path: p, fsys: fsys})
			continue
		}
		n := len(files)
		for k, name := range kindFiles {
			found := ""
			for _, cand := range []string{name, name + ".gz"} {
				q := join(p, cand)
				if st, err := stat(q); err == nil && !st.IsDir() {
					if found != "" {
						// the same file twice (compressed and not): its rows would count twice
						return nil, &ParseError{File: p, Msg: fmt.Sprintf("folder holds both %s and %s: keep one (a folder holds each canonical file once, plain or .gz)", found, q)}
					}
					found = q
					files = append(files, File{Kind: Kind(k), Path: q, fsys: fsys})
				} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return nil, fmt.Errorf("traces: %w", err)
				}
			}
		}
		more, e := underOtherNames(fsys, p, files[n:])
		if e != nil {
			return nil, e
		}
		files = append(files, more...)
		if len(files) == n {
			return nil, &ParseError{File: p, Msg: "folder holds no canonical trace file (expected " + strings.Join(kindFiles[:], ", ") + ")" + convertHint(fsys, p)}
		}
	}
	// a file named twice (as itself and through its folder) is read once
	seen := map[string]bool{}
	out := files[:0]
	for _, f := range files {
		key := path.Clean(f.Path)
		if fsys == nil {
			key = filepath.Clean(f.Path)
			if abs, err := filepath.Abs(key); err == nil {
				key = abs
			}
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	return out, nil
}

func kindOf(base string) (Kind, bool) {
	base = strings.TrimSuffix(strings.ToLower(base), ".gz")
	for k, name := range kindFiles {
		if base == name {
			return Kind(k), true
		}
	}
	return 0, false
}

// Load reads every canonical file the paths name (see Files) into one Trace.
// Rows of several files of one kind are appended in the order of paths.
// Warnings (unknown columns, ...) do not stop the read; the first error does.
// Besides each file's checks, rows are checked across files: a step or an
// update that two files hold, a run whose configuration (workers, ps,
// batch) differs between steps files, updates and runs.csv modes against
// the runs of the steps files, a run described again differently in
// another runs.csv, an evaluation that two evals.csv hold.
func Load(paths ...string) (*Trace, []error, error) { return LoadFS(nil, paths...) }

// LoadFS is Load on the file system fsys (nil: the operating system's).
func LoadFS(fsys fs.FS, paths ...string) (*Trace, []error, error) {
	files, err := FilesFS(fsys, paths...)
	if err != nil {
		return nil, nil, err
	}
	t := &Trace{}
	var warnings []error
	dups := newCrossFiles(files)
	// steps files first, so that updates are checked against their runs
	sort.SliceStable(files, func(i, j int) bool { return files[i].Kind == KindSteps && files[j].Kind != KindSteps })
	for _, f := range files {
		w, err := readFile(f, t, dups)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
	}
	return t, warnings, nil
}

// readFile streams one canonical file into t.
func readFile(f File, t *Trace, dups *crossFiles) ([]error, error) {
	return forEach(f, Handlers{
		Step:       func(s Step) error { t.Steps = append(t.Steps, s); return nil },
		Update:     func(u Update) error { t.Updates = append(t.Updates, u); return nil },
		Run:        func(r RunInfo) error { t.Runs = append(t.Runs, r); return nil },
		Eval:       func(e Eval) error { t.Evals = append(t.Evals, e); return nil },
		Throughput: func(r Throughput) error { t.Throughput = append(t.Throughput, r); return nil },
	}, dups)
}

// Handlers receive the rows of ForEach; a nil handler skips its kind (the
// file is not read at all).
type Handlers struct {
	Step       func(Step) error
	Update     func(Update) error
	Run        func(RunInfo) error
	Eval       func(Eval) error
	Throughput func(Throughput) error

	// stepAt, when set, receives the steps in place of Step, with the
	// line of each row (the summary's positions).
	stepAt func(s Step, line int) error
}

// ForEach opens f and streams its rows to the handler of its kind.
func ForEach(f File, h Handlers) (warnings []error, err error) { return forEach(f, h, nil) }

// forEach is ForEach; a non-nil dups checks the steps of f against those of
// the steps files read before with the same dups (a step of one run and
// worker in two files is an error), and then keeps the steps of f for the
// files after it.
func forEach(f File, h Handlers, dups *crossFiles) (warnings []error, err error) {
	var read func(io.Reader) ([]error, error)
	switch {
	case f.Kind == KindSteps && (h.Step != nil || h.stepAt != nil):
		at := h.stepAt
		if at == nil {
			at = func(s Step, _ int) error { return h.Step(s) }
		}
		read = func(r io.Reader) ([]error, error) { return readSteps(r, f.Path, at, dups) }
	case f.Kind == KindUpdates && h.Update != nil:
		read = func(r io.Reader) ([]error, error) { return readUpdates(r, f.Path, h.Update, dups) }
	case f.Kind == KindRuns && h.Run != nil:
		run := dups.runHandler(f.Path, h.Run)
		read = func(r io.Reader) ([]error, error) { return readRuns(r, f.Path, run, dups) }
	case f.Kind == KindEvals && h.Eval != nil:
		eval := dups.evalHandler(f.Path, h.Eval)
		read = func(r io.Reader) ([]error, error) { return ReadEvals(r, f.Path, eval) }
	case f.Kind == KindThroughput && h.Throughput != nil:
		read = func(r io.Reader) ([]error, error) { return ReadThroughput(r, f.Path, h.Throughput) }
	default:
		return nil, nil
	}
	var fh io.ReadCloser
	if f.fsys != nil {
		fh, err = f.fsys.Open(f.Path)
	} else {
		fh, err = os.Open(f.Path)
	}
	if err != nil {
		return nil, fmt.Errorf("traces: %w", err)
	}
	defer fh.Close()
	warnings, err = read(fh)
	if f.leftOut != nil {
		warnings = append([]error{f.leftOut}, warnings...)
	}
	return warnings, err
}

// underOtherNames looks in folder dir for the canonical files it lacks
// (found: those it holds). A canonical name in another case ("Steps.csv",
// "RUNS.CSV.GZ") is read as that file (more), as a file given by its own
// path is; two of one kind ("Steps.csv" and "STEPS.csv") are an error. The
// error too: a link to nothing, or a folder, under a canonical name, and,
// for steps.csv and updates.csv, the files written one a process or a
// shard ("steps-0.csv", "steps_rank1.csv.gz": a folder each). A folder's
// files are read by their names, so such a trace was read without them,
// and inspect printed a row of dashes. Beside steps.csv (updates.csv) such
// files are a warning, given when that file is read (File.leftOut; the
// file in found is marked): they were left out without a word. An
// evals_2.csv or throughput_A100.csv beside a trace is a file of the
// user's. Nothing when the folder cannot be listed.
func underOtherNames(fsys fs.FS, dir string, found []File) (more []File, err error) {
	readDir, stat, join := os.ReadDir, os.Stat, filepath.Join
	if fsys != nil {
		readDir = func(name string) ([]fs.DirEntry, error) { return fs.ReadDir(fsys, name) }
		stat = func(name string) (fs.FileInfo, error) { return fs.Stat(fsys, name) }
		join = path.Join
	}
	entries, rerr := readDir(dir)
	if rerr != nil {
		return nil, nil
	}
	lower := make([]string, len(entries)) // each name in lower case, without .gz
	for j, e := range entries {
		lower[j] = strings.TrimSuffix(strings.ToLower(e.Name()), ".gz")
	}
	for k, canon := range kindFiles {
		stem := strings.TrimSuffix(canon, ".csv")
		perProcess := Kind(k) == KindSteps || Kind(k) == KindUpdates
		var like []string // names of one a process or a shard
		for j, e := range entries {
			name := lower[j]
			if e.IsDir() || !perProcess || name == canon || !strings.HasSuffix(name, ".csv") || !strings.HasPrefix(name, stem) {
				continue
			}
			if r := name[len(stem)]; r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' {
				like = append(like, e.Name())
			}
		}
		who := "process's"
		if Kind(k) == KindUpdates {
			who = "shard's"
		}
		if i := slices.IndexFunc(found, func(f File) bool { return f.Kind == Kind(k) }); i >= 0 {
			// the same name in another case beside it: which to read?
			// (Steps.csv beside steps.csv.gz was left out without a word)
			have := path.Base(filepath.ToSlash(found[i].Path))
			for j, e := range entries {
				if e.IsDir() || lower[j] != canon || e.Name() == have {
					continue
				}
				if fsys == nil {
					// a file system that ignores case found this one
					a, errA := os.Stat(join(dir, e.Name()))
					b, errB := os.Stat(found[i].Path)
					if errA == nil && errB == nil && os.SameFile(a, b) {
						continue
					}
				}
				return nil, &ParseError{File: dir, Msg: fmt.Sprintf("folder holds both %s and %s, one name in two cases: keep one (a folder holds each canonical file once)", have, e.Name())}
			}
			if len(like) > 0 {
				found[i].leftOut = leftOutWarning(dir, have, like, who)
			}
			continue
		}
		other := ""
		for j, e := range entries {
			name := lower[j]
			if name == canon {
				// the name itself not found (a link to nothing or to a
				// folder), or it in another case
				switch st, err := stat(join(dir, e.Name())); {
				case err != nil:
					return nil, &ParseError{File: dir, Msg: fmt.Sprintf("%s cannot be read (a link to a file that does not exist?): %v", e.Name(), err)}
				case st.IsDir():
					return nil, &ParseError{File: dir, Msg: fmt.Sprintf("%s is a folder (or a link to one): want the %s file", e.Name(), canon)}
				case other != "":
					return nil, &ParseError{File: dir, Msg: fmt.Sprintf("folder holds both %s and %s, one name in two cases: keep one (a folder holds each canonical file once)", other, e.Name())}
				}
				other = e.Name()
				more = append(more, File{Kind: Kind(k), Path: join(dir, e.Name()), fsys: fsys})
			}
		}
		switch {
		case len(like) > 0 && other == "":
			return nil, &ParseError{File: dir, Msg: fmt.Sprintf("folder holds %s but no %s: a folder's files are read by their names, so these would be left out; write each %s file as %s in a folder of its own and give the folders together (docs/instrumenting.md)", someNames(like), canon, who, canon)}
		case len(like) > 0:
			more[len(more)-1].leftOut = leftOutWarning(dir, other, like, who)
		}
	}
	return more, nil
}

// someNames lists the first three names, and counts the rest.
func someNames(names []string) string {
	shown := strings.Join(names[:min(len(names), 3)], ", ")
	if len(names) > 3 {
		shown += fmt.Sprintf(" and %d more", len(names)-3)
	}
	return shown
}

// leftOutWarning is the warning of folder dir, whose canonical file read
// is named read, on the files like beside it that are named as one a
// process or a shard (who: "process's" or "shard's") and are not read.
func leftOutWarning(dir, read string, like []string, who string) *ParseError {
	canon := strings.TrimSuffix(strings.ToLower(read), ".gz")
	return &ParseError{File: dir, Msg: fmt.Sprintf("%s left out: the folder's %s is read, and a folder's files are read by their names, so these are not (if they hold other %s, write each %s file as %s in a folder of its own and give the folders together: docs/instrumenting.md)",
		someNames(like), read, map[string]string{"process's": "processes' steps", "shard's": "shards' updates"}[who], who, canon)}
}

// convertHint is what to run on a folder of raw data that convert reads: a
// public dataset's folder (named as the dataset), the data root holding such
// folders, or a folder of TensorBoard event files. "" when it sees none.
func convertHint(fsys fs.FS, dir string) string {
	readDir, base, join := os.ReadDir, filepath.Base, filepath.Join
	if fsys != nil {
		readDir = func(name string) ([]fs.DirEntry, error) { return fs.ReadDir(fsys, name) }
		base, join = path.Base, path.Join
	}
	name := base(dir)
	if fsys == nil {
		// "." inside the dataset's folder has the folder's name
		if abs, err := filepath.Abs(dir); err == nil {
			name = filepath.Base(abs)
		}
	}
	if _, ok := datasetLoaders[name]; ok {
		return fmt.Sprintf("; it is the public dataset %s: convert it first (sgdplan convert --from %s %s --out DIR, then read DIR)", name, name, dir)
	}
	entries, err := readDir(dir)
	if err != nil {
		return ""
	}
	var sets, traces []string
	events := false
	for _, e := range entries {
		if _, ok := datasetLoaders[e.Name()]; ok && e.IsDir() {
			sets = append(sets, e.Name())
		}
		events = events || !e.IsDir() && strings.Contains(e.Name(), "tfevents")
		if e.IsDir() && len(traces) < 4 {
			if sub, err := readDir(join(dir, e.Name())); err == nil && slices.ContainsFunc(sub, func(f fs.DirEntry) bool {
				name := strings.TrimSuffix(f.Name(), ".gz")
				return !f.IsDir() && slices.Contains(kindFiles[:], name)
			}) {
				traces = append(traces, join(dir, e.Name()))
			}
		}
	}
	switch {
	case len(sets) > 0:
		what := "the public dataset"
		if len(sets) > 1 {
			what += "s"
		}
		return fmt.Sprintf("; it holds %s %s: convert one first (sgdplan convert --from %s %s --out DIR, then read DIR)", what, strings.Join(sets, ", "), sets[0], dir)
	case events:
		return fmt.Sprintf("; it holds TensorBoard event files: convert them first (sgdplan convert --from tfevents %s --out DIR, then read DIR)", dir)
	case len(traces) > 0:
		return fmt.Sprintf("; folders inside it hold traces: name them (%s)", strings.Join(traces, ", "))
	}
	if fsys == nil {
		// a Keras log folder (train/ and validation/), as convert names
		// them: inspect and fit said only "no canonical trace file"
		switch subs := tfEventFolders(dir, entries); {
		case len(subs) == 1:
			return fmt.Sprintf("; its subfolder %s holds TensorBoard event files: convert them first (sgdplan convert --from tfevents %s --out DIR, then read DIR)", subs[0], subs[0])
		case len(subs) > 1:
			return fmt.Sprintf("; its subfolders %s hold TensorBoard event files, a run each: convert one first (sgdplan convert --from tfevents %s --out DIR, then read DIR)", tfList(subs), subs[0])
		}
	}
	return ""
}

// fileConvertHint is what to run on the file p (base its name) that
// convert reads, told by its name (TensorBoard event files, Chrome trace
// JSON): "" for other names.
func fileConvertHint(p, base string) string {
	low := strings.ToLower(base)
	switch {
	case strings.Contains(low, "tfevents"):
		return fmt.Sprintf("; it looks like a TensorBoard event file: convert it first (sgdplan convert --from tfevents %s --out DIR, then read DIR)", p)
	case strings.HasSuffix(low, ".json") || strings.HasSuffix(low, ".json.gz"):
		return fmt.Sprintf("; if it is a Chrome trace (TensorFlow timeline, PyTorch profiler, Horovod timeline), convert it first (sgdplan convert --from chrome %s --out DIR, then read DIR)", p)
	}
	return ""
}

// modelFileError is the error for p when it is a model.json that sgdplan
// fit wrote (its "schema" is "sgdplan/model/..."), given where a trace is
// wanted, placed at the schema's value; nil when it is not one (or cannot
// be read: the caller's message stands). Without it, fit m1.json advised
// converting m1.json as a Chrome trace.
func modelFileError(fsys fs.FS, p string) *ParseError {
	var f io.ReadCloser
	var err error
	if fsys == nil {
		f, err = os.Open(p)
	} else {
		f, err = fsys.Open(p)
	}
	if err != nil {
		return nil
	}
	defer f.Close()
	// "schema" comes first in the files fit writes: the start suffices
	b, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "schema" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		// placed as the Chrome-trace reader places its values
		d := &chromeDoc{file: p, data: b}
		off := d.skipSpace(dec.InputOffset())
		v, err := dec.Token()
		schema, _ := v.(string)
		if err != nil || !strings.HasPrefix(schema, "sgdplan/model/") {
			return nil
		}
		for i, c := range b[:off] {
			if c == '\n' {
				d.lines = append(d.lines, i)
			}
		}
		return d.errAt(off, "a model.json written by sgdplan fit (schema %q), not a trace: give it to predict, check or report with --model %s; a trace is a folder, or a file named %s, optionally .gz", schema, p, strings.Join(kindFiles[:], ", "))
	}
	return nil
}
