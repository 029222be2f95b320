package traces

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ConvertOptions are what a user knows about a run that its files do not
// say. The zero value means: nothing known.
type ConvertOptions struct {
	Run     string  // run name; "" means the input's base name up to its first dot
	Workers int     // workers in the run; 0: 1 for tfevents, the workers found for chrome
	PS      int     // parameter-server shards; 0 means none or unknown (tfevents, chrome: must agree with Mode, see psMode)
	Batch   int     // per-worker mini-batch, samples; 0 means unknown (steps.csv then gets 1, with a warning)
	Mode    string  // async, sync or allreduce; "" means absent
	P       float64 // speedup exponent written into jobs.csv for job traces; 0 leaves p empty

	// chrome only: runs.csv's param_bytes (bytes sent per pull and per
	// push) and bandwidth (B/s per shard link and direction), with which
	// fit scales the two-node profile's link demand as S/B; 0: absent
	ParamBytes int64
	Bandwidth  float64

	source string // the input, for the runs.csv note
}

func (o ConvertOptions) withDefaults() ConvertOptions {
	if o.Run == "" {
		o.Run = "run"
		if o.source != "" {
			base := filepath.Base(filepath.Clean(o.source))
			if i := strings.IndexByte(base, '.'); i > 0 {
				base = base[:i]
			}
			if base != "" && base != "." && base != string(filepath.Separator) {
				o.Run = base
			}
		}
	}
	if o.Workers < 0 {
		o.Workers = 0
	}
	return o
}

// psMode makes Mode agree with PS for the one run of a tfevents or chrome
// conversion: async and sync are parameter-server modes and need PS >= 1,
// allreduce has no PS (an error otherwise). With neither Mode nor PS the run
// is written as allreduce, with a warning: ps 0 means no parameter server
// (DefaultMode, the mode a run at ps 0 without one gets when it is read);
// with PS and no Mode, as async (DefaultMode again), with a warning too.
// Warnings and the error come back as Convert's do.
func (o ConvertOptions) psMode() (ConvertOptions, []error, error) {
	switch {
	case o.Mode == "" && o.PS == 0:
		o.Mode = "allreduce"
		return o, []error{fmt.Errorf("traces: %s: no --ps and no --mode: written as mode allreduce with ps 0 (no parameter server); for a parameter-server run give --ps P (and --mode async or sync)", o.source)}, nil
	case o.Mode == "" && o.PS > 0:
		// written as the readers take an empty mode beside shards, and
		// said: a synchronous parameter-server job converted with --ps
		// alone (docs/instrumenting.md's examples) was read as async
		// without a word, its samples/s a factor of the workers low
		o.Mode = DefaultMode(o.PS)
		return o, []error{fmt.Errorf("traces: %s: --ps %d and no --mode: written as mode %s (the default with parameter servers); a synchronous parameter-server job needs --mode sync", o.source, o.PS, o.Mode)}, nil
	case (o.Mode == "async" || o.Mode == "sync") && o.PS == 0:
		return o, nil, fmt.Errorf("traces: mode %s with ps 0: %s is a parameter-server mode and needs the shard count (--ps P >= 1); a run without parameter servers is --mode allreduce", o.Mode, o.Mode)
	case o.Mode == "allreduce" && o.PS > 0:
		return o, nil, fmt.Errorf("traces: mode allreduce with ps %d: all-reduce has no parameter servers (leave --ps out, or give --mode async or sync)", o.PS)
	}
	return o, nil, nil
}

// input names the converted input in a warning: the file or folder
// Convert read; a caller of TFEventsTrace, which has none, gets the run,
// said to be one.
func (o ConvertOptions) input() string {
	if o.source != "" {
		return o.source
	}
	return fmt.Sprintf("run %q", o.Run)
}

func (o ConvertOptions) sourceNote() string {
	if o.source == "" {
		return ""
	}
	return " from " + filepath.Base(o.source)
}

// Converted is what Convert produces: a canonical trace, or a job list for
// the planner's jobs.csv (job-trace formats).
type Converted struct {
	Trace *Trace
	Jobs  []Job
}

// ConvertFormats lists the formats Convert accepts, sorted: tfevents,
// chrome, the public datasets of Datasets and the job traces of JobFormats.
func ConvertFormats() []string {
	out := []string{"tfevents", "chrome"}
	out = append(out, Datasets()...)
	out = append(out, JobFormats()...)
	sort.Strings(out)
	return out
}

// Convert reads path in format (one of ConvertFormats) and returns the
// canonical trace or the jobs, with warnings. path is a file, or a folder:
// for tfevents every file in it whose name contains "tfevents" (one run); for
// a public dataset the dataset's folder or the data root.
func Convert(format, path string, opts ConvertOptions) (Converted, []error, error) {
	opts.source = path
	if opts.P != 0 && !(opts.P > 0 && opts.P <= 1) {
		return Converted{}, nil, fmt.Errorf("traces: speedup exponent p = %v: expected a value in (0, 1]", opts.P)
	}
	switch format {
	case "tfevents", "chrome":
		o, modeWarns, err := opts.psMode()
		if err != nil {
			return Converted{}, nil, err
		}
		var tr *Trace
		var w []error
		if format == "tfevents" {
			tr, w, err = convertTFEventsPath(path, o)
		} else {
			f, ferr := os.Open(path)
			if ferr != nil {
				return Converted{}, nil, fmt.Errorf("traces: %w", ferr)
			}
			defer f.Close()
			tr, w, err = ReadChromeTrace(f, path, o)
		}
		if err != nil {
			return Converted{Trace: tr}, w, err
		}
		return Converted{Trace: tr}, append(w, modeWarns...), nil
	case "philly-pollux", "itp", "gavel-vc":
		jobs, w, err := LoadJobTrace(format, path)
		if err != nil {
			return Converted{}, w, err
		}
		if opts.P != 0 {
			for i := range jobs {
				jobs[i].P = opts.P
			}
		}
		return Converted{Jobs: jobs}, w, nil
	}
	if _, ok := datasetLoaders[format]; ok {
		rows, w, err := LoadDataset(format, path)
		if err != nil {
			return Converted{}, w, err
		}
		// throughput.csv needs batch or global_batch: rows without either
		// (Gavel's A3C and CycleGAN) stay in LoadDataset but are not written.
		kept := rows[:0]
		skipped := map[string]int{}
		for _, r := range rows {
			if r.Batch == 0 && r.GlobalBatch == 0 {
				skipped[r.Model]++
				continue
			}
			kept = append(kept, r)
		}
		if len(skipped) > 0 {
			var names []string
			for m, n := range skipped {
				names = append(names, fmt.Sprintf("%s (%d)", m, n))
			}
			sort.Strings(names)
			w = append(w, fmt.Errorf("traces: %s: rows with no batch size not written (throughput.csv requires batch or global_batch): %s", format, strings.Join(names, ", ")))
		}
		return Converted{Trace: &Trace{Throughput: kept}}, w, nil
	}
	return Converted{}, nil, fmt.Errorf("traces: unknown format %q (known: %s)", format, strings.Join(ConvertFormats(), ", "))
}

// tfEventFiles lists the event files among the entries ents of folder dir:
// the files whose name contains "tfevents".
func tfEventFiles(dir string, ents []os.DirEntry) []string {
	var files []string
	for _, e := range ents {
		if !e.IsDir() && strings.Contains(e.Name(), "tfevents") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	return files
}

// tfEventFolders lists the subfolders of dir (of entries ents), one or two
// levels down, that hold event files, sorted; the files are not opened.
func tfEventFolders(dir string, ents []os.DirEntry) []string {
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		subEnts, err := os.ReadDir(sub)
		if err != nil {
			continue
		}
		if len(tfEventFiles(sub, subEnts)) > 0 {
			out = append(out, sub)
			continue
		}
		for _, e2 := range subEnts {
			if !e2.IsDir() {
				continue
			}
			sub2 := filepath.Join(sub, e2.Name())
			if ents2, err := os.ReadDir(sub2); err == nil && len(tfEventFiles(sub2, ents2)) > 0 {
				out = append(out, sub2)
			}
		}
	}
	return out
}

// tfList names two or more folders, at most 5: "a and b", "a, b and c",
// "a, b, c, d, e and 3 more".
func tfList(names []string) string {
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// convertTFEventsPath reads one event file, or every event file in a folder
// (sorted by name, which for TensorFlow's names is by creation time), as one
// run. A SessionLog START in one file drops the values at its step or later
// that the files before it and its own file before it logged (tfPurge).
func convertTFEventsPath(path string, opts ConvertOptions) (*Trace, []error, error) {
	files := []string{path}
	var ents []os.DirEntry // of a folder
	if fi, err := os.Stat(path); err != nil {
		return nil, nil, fmt.Errorf("traces: %w", err)
	} else if fi.IsDir() {
		if ents, err = os.ReadDir(path); err != nil {
			return nil, nil, fmt.Errorf("traces: %w", err)
		}
		files = tfEventFiles(path, ents)
		if len(files) == 0 {
			// a Keras log folder: train/ and validation/, one run each
			switch subs := tfEventFolders(path, ents); {
			case len(subs) == 1:
				return nil, nil, fmt.Errorf("traces: %s: no file whose name contains \"tfevents\", but its subfolder %s holds event files: give it", path, subs[0])
			case len(subs) > 1:
				return nil, nil, fmt.Errorf("traces: %s: no file whose name contains \"tfevents\", but its subfolders %s hold event files: give one of them (one run per conversion)", path, tfList(subs))
			}
			return nil, nil, fmt.Errorf("traces: %s: no file whose name contains \"tfevents\"", path)
		}
	}
	var all []TFScalar
	var warns []error
	if len(ents) > 0 {
		// a TF Estimator model_dir: training events here, evaluation's in
		// eval/; they were left out without a word
		switch subs := tfEventFolders(path, ents); {
		case len(subs) == 1:
			warns = append(warns, fmt.Errorf("traces: %s: its subfolder %s holds event files too, not read (one run per conversion: convert it on its own)", path, subs[0]))
		case len(subs) > 1:
			warns = append(warns, fmt.Errorf("traces: %s: its subfolders %s hold event files too, not read (one run per conversion: convert each on its own)", path, tfList(subs)))
		}
	}
	first := math.NaN()
	var starts []tfStart // SessionLog STARTs, indexing all
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return nil, nil, fmt.Errorf("traces: %w", err)
		}
		s, st, fw, w, err := readTFEvents(f, p)
		f.Close()
		warns = append(warns, w...)
		if err != nil {
			return nil, warns, err
		}
		for _, x := range st {
			x.Scalars += len(all)
			starts = append(starts, x)
		}
		all = append(all, s...)
		if math.IsNaN(first) || fw < first {
			first = fw
		}
	}
	// a START drops what the files before it (name order) and its own
	// file before it logged at its step or later, as TensorBoard does
	if kept, w := tfPurge(all, starts); w != nil {
		all, warns = kept, append(warns, w)
	}
	if len(all) == 0 {
		// (TFEventsTrace's warning said the same of the run, beside this)
		return nil, warns, fmt.Errorf("traces: %s: no scalar summaries to convert", path)
	}
	tr, w := TFEventsTrace(all, first, opts.withDefaults())
	warns = append(warns, w...)
	if len(tr.Evals) == 0 && len(tr.Throughput) == 0 {
		// runs.csv alone says nothing: every value was skipped or of no known tag
		return nil, warns, fmt.Errorf("traces: %s: nothing to convert: no loss, accuracy or throughput scalar with a finite value and wall time (expected tags of docs/formats.md)", path)
	}
	return tr, warns, nil
}
