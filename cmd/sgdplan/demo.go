package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sgdplan/sgdplan"
	"github.com/sgdplan/sgdplan/internal/atomicfile"
	"github.com/sgdplan/sgdplan/plots"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "run the whole pipeline on the embedded testdata and write a report",
		Description: `demo copies the traces embedded in the binary into DIR/input and runs,
as a user would, every step of sgdplan on them, printing each command before its output:

   inspect    the per-run summary of the asynchronous-SGD traces
   fit        the closed-network model, fitted on the runs with at most 2 workers
              (each run at its own link rate)
   predict    speed, staleness and speedup for 1-8 workers and 1-2 shards, with intervals
   check      the verdict on 8 workers, on the profiled link (1 shard, 3 MB/s) and with
              2 shards on a 6 MB/s link
   plan       every policy on the example jobs plus the fitted job, 16 workers
   simulate   every policy with the example arrivals, 30% of jobs killed early, 5 seeds
   report     figures, DIR/index.html and DIR/summary.md

Everything it writes goes under DIR (default ./sgdplan-demo); the transcript is
DIR/demo.txt. A check verdict other than "fine" is part of the demo, not a failure.
A DIR that holds a file the demo writes (model.json, jobs.csv, a figure, its input
traces) that no earlier demo wrote is refused (exit 2) before anything is written.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "sgdplan-demo", Usage: "folder for the report"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs("demo", c); err != nil {
				return err
			}
			if err := emptyFolder(c, "out", "without --out, demo writes into sgdplan-demo"); err != nil {
				return err
			}
			return runDemo(c.String("out"), c.App.Writer, c.App.ErrWriter)
		},
	}
}

// demoTraces lists the embedded trace folders the demo can run on, best first:
// the real asynchronous-SGD traces of examples/pytorch-ps, else the synthetic
// sample of the same shape.
var demoTraces = []struct{ dir, what string }{
	{"testdata/asgd", "real asynchronous-SGD traces (PyTorch parameter servers, shaped links; testdata/asgd/README.md)"},
	{"testdata/synthetic/async-ps", "synthetic asynchronous-SGD traces (testdata/synthetic; the real ones are not embedded in this build)"},
}

// demoStep is one command of the demo; okCodes are the exit codes that are
// an answer rather than a failure (check's verdicts).
type demoStep struct {
	args    []string
	okCodes []int
}

func runDemo(out string, stdout, stderr io.Writer) error {
	in := filepath.Join(out, "input")
	var traceDir, what string
	for _, t := range demoTraces {
		if hasSteps(t.dir) {
			traceDir, what = t.dir, t.what
			break
		}
	}
	if traceDir == "" {
		return fmt.Errorf("demo: no embedded traces (looked for %s)", demoTraces[0].dir)
	}
	if err := notAFile("demo", out); err != nil {
		return err
	}
	if err := demoOutputs(out, traceDir); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return badInput(fmt.Errorf("demo: --out %s: %v", out, err))
	}
	marker := filepath.Join(out, demoMarker)
	if err := writeFileAtomic(marker, []byte(demoMarkerText)); err != nil {
		return err
	}
	if err := copyEmbedded(traceDir, filepath.Join(in, "traces")); err != nil {
		return err
	}
	jobs, err := demoJobs()
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(out, "jobs.csv"), jobs); err != nil {
		return err
	}

	traces := filepath.Join(in, "traces")
	model := filepath.Join(out, "model.json")
	jobsCSV := filepath.Join(out, "jobs.csv")
	steps := []demoStep{
		{args: []string{"inspect", traces}},
		{args: []string{"fit", traces, "--train-workers", "1,2", "--out", model, "--plot", filepath.Join(out, "fit-train.png")}},
		{args: []string{"predict", "--model", model, "--workers", "1-8", "--ps", "1,2"}},
		{args: []string{"check", "--model", model, "--workers", "8"}, okCodes: []int{3, 4}},
		{args: []string{"check", "--model", model, "--workers", "8", "--ps", "2", "--bandwidth", "6e6"}, okCodes: []int{3, 4}},
		{args: []string{"plan", "--jobs", jobsCSV, "--servers", "16", "--policy", "all"}},
		{args: []string{"simulate", "--jobs", jobsCSV, "--servers", "16", "--policy", "all", "--early-stop", "0.3", "--seeds", "5"}},
		{args: []string{"report", "--model", model, "--jobs", jobsCSV, "--servers", "16", "--out", out}},
	}

	var transcript bytes.Buffer
	w := io.MultiWriter(stdout, &transcript)
	// the commands' warnings go to the transcript too, where they were
	// written (demo.txt left out every warning of predict, check, plan
	// and simulate: "predictions beyond 2 workers ... are extrapolations")
	ew := io.MultiWriter(stderr, &transcript)
	fmt.Fprintf(w, "%s%s\n", demoTranscriptHead, what)
	for _, s := range steps {
		fmt.Fprintf(w, "\n$ sgdplan %s\n", strings.Join(s.args, " "))
		code := run(append([]string{"sgdplan"}, s.args...), strings.NewReader(""), w, ew)
		if code != 0 && !slices.Contains(s.okCodes, code) {
			return fmt.Errorf("demo: sgdplan %s exited %d", s.args[0], code)
		}
		if code != 0 {
			fmt.Fprintf(w, "(exit %d: the verdict above)\n", code)
		}
	}
	fmt.Fprintf(w, "\nreport: %s (and summary.md, the figures, demo.txt)\n", filepath.Join(out, "index.html"))
	if err := writeFileAtomic(filepath.Join(out, "demo.txt"), transcript.Bytes()); err != nil {
		return err
	}
	return os.Remove(marker)
}

// demoJobs is the example job list plus one job whose speedup curve is the
// model the demo fits, so that the plan uses a fitted curve.
func demoJobs() ([]byte, error) {
	b, err := fs.ReadFile(sgdplan.TestData, "testdata/jobs-example/jobs.csv")
	if err != nil {
		return nil, err
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(rows) < 2 {
		return nil, fmt.Errorf("demo: embedded jobs-example/jobs.csv: %v", err)
	}
	if !slices.Contains(rows[0], "model") {
		for i := range rows {
			rows[i] = append(rows[i], "")
		}
		rows[0][len(rows[0])-1] = "model"
	}
	fitted := map[string]string{
		"job": "async-ps-fitted", "arrival": "30", "size": "5400", "model": "model.json",
		"max_workers": "8", "weight": "1", "rigid_workers": "4",
	}
	row := make([]string, len(rows[0]))
	for i, c := range rows[0] {
		row[i] = fitted[c]
	}
	// jobs.csv is sorted by arrival: the fitted job goes after those that
	// arrive no later than it.
	at := 1
	if col := slices.Index(rows[0], "arrival"); col >= 0 {
		for at < len(rows) {
			a, err := strconv.ParseFloat(rows[at][col], 64)
			if err != nil || a > 30 {
				break
			}
			at++
		}
	}
	rows = slices.Insert(rows, at, row)
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	if err := cw.WriteAll(rows); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// demoMarker is written into the demo's folder before anything else and
// removed once demo.txt is written: a demo cut short (a step that failed,
// a kill) leaves it beside its outputs, and it marks the folder as an
// earlier demo's for the next run.
const (
	demoMarker     = ".sgdplan-demo-in-progress"
	demoMarkerText = "sgdplan demo in progress\n" +
		"This folder holds the outputs of an sgdplan demo that began and did not finish (it removes\n" +
		"this file once demo.txt is written). A rerun of sgdplan demo into it replaces its files.\n"
	// demoTranscriptHead is how every demo.txt begins.
	demoTranscriptHead = "sgdplan demo on "
)

// earlierDemo says whether out holds an earlier demo's outputs: a demo.txt
// that a demo wrote, or the demoMarker of one cut short.
func earlierDemo(out string) bool {
	for name, head := range map[string]string{"demo.txt": demoTranscriptHead, demoMarker: "sgdplan demo in progress\n"} {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			continue
		}
		b := make([]byte, len(head))
		n, _ := io.ReadFull(f, b)
		f.Close()
		if string(b[:n]) == head {
			return true
		}
	}
	return false
}

// demoFiles lists the files the demo writes under out besides the
// report's (slash-separated, relative to out) and the folders it creates
// for its input traces, copied from the embedded traceDir.
func demoFiles(traceDir string) (files, dirs []string) {
	files = []string{"jobs.csv", "model.json", "fit-train.png", "demo.txt", demoMarker}
	dirs = []string{"input"}
	walkEmbedded(traceDir, func(p, rel string, dir bool) error {
		if rel = path.Join("input", "traces", rel); dir {
			dirs = append(dirs, rel)
		} else {
			files = append(files, rel)
		}
		return nil
	})
	return files, dirs
}

// walkEmbedded calls fn on every folder and file of the embedded folder
// src but its .md files, with its path p and its path rel relative to src
// (slash-separated; "" for src): what copyEmbedded writes and demoFiles
// lists.
func walkEmbedded(src string, fn func(p, rel string, dir bool) error) error {
	return fs.WalkDir(sgdplan.TestData, src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && path.Ext(p) == ".md" {
			return nil
		}
		return fn(p, strings.TrimPrefix(strings.TrimPrefix(p, src), "/"), d.IsDir())
	})
}

// demoOutputs refuses, before anything is written, an output folder where
// a file the demo writes is a folder or another non-regular file, or where
// a folder it writes into is a file: the demo would stop half-way and
// leave part of its outputs behind. It refuses as well a folder that holds
// a file the demo would replace (its model, jobs, transcript, input traces)
// unless an earlier demo wrote them (earlierDemo): they are the user's;
// the report's own files follow the report's rule (plots.CheckOthersFiles).
func demoOutputs(out, traceDir string) error {
	files, dirs := demoFiles(traceDir)
	for _, d := range dirs {
		p := filepath.Join(out, filepath.FromSlash(d))
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return badInput(fmt.Errorf("demo: --out %s: %s is a file: the demo copies its input traces into that folder", out, p))
		}
	}
	var top, theirs []string
	for _, f := range files {
		p := filepath.Join(out, filepath.FromSlash(f))
		if !strings.Contains(f, "/") {
			top = append(top, f)
		} else if fi, err := os.Stat(p); err == nil && !fi.Mode().IsRegular() {
			what := "a folder"
			if !fi.IsDir() {
				what = "not a regular file"
			}
			return badInput(fmt.Errorf("demo: --out %s: %s is %s (the demo writes an input trace there)", out, p, what))
		}
		if _, err := os.Lstat(p); err == nil {
			theirs = append(theirs, filepath.FromSlash(f))
		}
	}
	if name, err := atomicfile.CheckFiles(out, append(top, plots.ReportFiles()...)...); err != nil {
		return badInput(fmt.Errorf("demo: --out %s: %w (the demo writes %s there)", out, err, name))
	}
	if len(theirs) > 0 && !earlierDemo(out) {
		it := "it"
		if len(theirs) > 1 {
			it = "them"
		}
		shown := theirs
		if len(shown) > 4 {
			shown = append(slices.Clip(shown[:3]), fmt.Sprintf("and %d more", len(theirs)-3))
		}
		return badInput(fmt.Errorf("demo: --out %s holds %s but no earlier sgdplan demo (a demo.txt that sgdplan demo wrote, or the .sgdplan-demo-in-progress marker of one cut short): the demo would overwrite %s; move %s away or give --out another folder",
			out, strings.Join(shown, ", "), it, it))
	}
	// (the user's own fit.png or index.html, in a folder without an
	// earlier report: report would refuse it after the demo's first steps)
	if err := plots.CheckOthersFiles(out); err != nil {
		return badInput(fmt.Errorf("demo: --out %s: %s", out, strings.TrimPrefix(err.Error(), "plots: report: ")))
	}
	return nil
}

// copyEmbedded writes the embedded folder src into dst.
func copyEmbedded(src, dst string) error {
	return walkEmbedded(src, func(p, rel string, dir bool) error {
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if dir {
			return os.MkdirAll(target, 0o755)
		}
		b, err := fs.ReadFile(sgdplan.TestData, p)
		if err != nil {
			return err
		}
		return writeFileAtomic(target, b)
	})
}

// hasSteps reports whether the embedded folder dir holds a steps.csv (plain
// or gzipped) at any depth.
func hasSteps(dir string) bool {
	found := false
	fs.WalkDir(sgdplan.TestData, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fs.SkipAll
		}
		if name := d.Name(); name == "steps.csv" || name == "steps.csv.gz" {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}
