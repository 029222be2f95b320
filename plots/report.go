package plots

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
)

// The files of a report folder: WriteReport writes ReportIndex, ReportSummary
// and one PNG per figure, named from ReportFigureFiles. ReportFiles lists
// them all, so that a command can check the folder before any work.
// ReportMarker is written before anything else and removed once the rest
// is written: a report cut short (killed before its index.html and
// summary.md) leaves it beside its figures, and it marks the folder as an
// earlier report for the next run (which refused the figures as the
// user's).
const (
	ReportIndex   = "index.html"
	ReportSummary = "summary.md"
	ReportMarker  = ".sgdplan-report-in-progress"
)

// reportMarkerText is ReportMarker's content; its first line is what
// EarlierReport looks for.
const reportMarkerText = "sgdplan report in progress\n" +
	"This folder holds a report that sgdplan report began and did not finish (it removes this file\n" +
	"once index.html and summary.md are written). A rerun of sgdplan report into it replaces its\n" +
	"files; other commands ignore it.\n"

// ReportFigureFiles are the names a figure of a report may have (those of
// sgdplan report, in the order of its page); WriteReport refuses others.
var ReportFigureFiles = []string{"fit.png", "phases.png", "staleness.png", "convergence.png", "scaling.png", "plan.png", "simulation.png"}

// ReportFiles returns every name WriteReport may write in a report folder:
// the figures of ReportFigureFiles, ReportIndex, ReportSummary and
// ReportMarker.
func ReportFiles() []string {
	return append(slices.Clone(ReportFigureFiles), ReportIndex, ReportSummary, ReportMarker)
}

// CheckReportDir reports, as an error naming the path, the first file of
// ReportFiles in dir that exists as a folder or another file that is not a
// regular file (links are followed): WriteReport could not replace it. A
// missing dir, or missing files, are fine.
func CheckReportDir(dir string) error {
	if name, err := atomicfile.CheckFiles(dir, ReportFiles()...); err != nil {
		return fmt.Errorf("plots: report: %w (a report writes %s there)", err, name)
	}
	return nil
}

// CheckOthersFiles refuses files of ReportFiles (or links of their names)
// in a folder that holds no earlier report (EarlierReport): they are the
// user's, and a report would overwrite them (it removed those of the
// figures it did not draw). A missing dir, or a folder with an earlier
// report, is fine. WriteReport checks it after CheckReportDir; a command
// checks it once it has refused outputs that are its inputs (a more
// precise error).
func CheckOthersFiles(dir string) error {
	if EarlierReport(dir) {
		return nil
	}
	var theirs []string
	for _, name := range ReportFiles() {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			theirs = append(theirs, name)
		}
	}
	if len(theirs) > 0 {
		it := "it"
		if len(theirs) > 1 {
			it = "them"
		}
		return fmt.Errorf("plots: report: %s holds %s but no earlier sgdplan report (an %s or %s that sgdplan report wrote): the report would overwrite %s; move %s away or write the report into another folder",
			dir, strings.Join(theirs, ", "), ReportIndex, ReportSummary, it, it)
	}
	return nil
}

// reportGenerator marks index.html as written by sgdplan report (since
// 2026-12-05); reportMarks are what the page and summary.md of every
// report, older ones too, say of the command that made them.
const reportGenerator = `<meta name="generator" content="sgdplan report">`

var reportMarks = map[string][]string{
	ReportIndex:   {reportGenerator, `<p class="muted">Made by <code>sgdplan report `},
	ReportSummary: {"Made by `sgdplan report "},
	ReportMarker:  {"sgdplan report in progress\n"},
}

// EarlierReport says whether dir holds an earlier report: an index.html
// or summary.md that sgdplan report wrote (its generator line, or the
// "Made by sgdplan report" line every report has had), or the ReportMarker
// of one cut short.
func EarlierReport(dir string) bool {
	for _, name := range []string{ReportIndex, ReportSummary, ReportMarker} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		head := make([]byte, 64<<10) // the marks are near the top
		n, _ := io.ReadFull(f, head)
		f.Close()
		for _, m := range reportMarks[name] {
			if bytes.Contains(head[:n], []byte(m)) {
				return true
			}
		}
	}
	return false
}

// Param is one fitted parameter with its interval (Lo, Hi NaN: unknown).
type Param struct {
	Name          string
	Value, Lo, Hi float64
	Unit          string
	Note          string
}

// JobRow is one job of the plan: its size, the workers recommended for it
// (its knee, or its first allocation), and its predicted completion time
// with an interval (NaN: unknown).
type JobRow struct {
	Job     string
	Size    float64 // s on one worker
	Workers float64 // recommended workers, the job alone
	Knee    float64 // workers; NaN: unknown
	// StartWorkers is what the plan gives the job when it starts (the
	// ideal share; 0: unknown).
	StartWorkers               float64
	Completion                 float64 // s, ideal (fractional) shares
	CompletionLo, CompletionHi float64 // s; NaN: unknown
	CompletionWhole            float64 // s, whole workers; NaN: unknown
	// StartWorkersWhole is what the plan on whole workers gives the job
	// when it starts (0: unknown), beside CompletionWhole: the times
	// came without the counts behind them.
	StartWorkersWhole float64
}

// PolicyRow is one policy's result on the jobs: mean flow (response) time
// with an interval over seeds (NaN: unknown), mean slowdown, and the 99th
// percentile of flow time (NaN: unknown). MeanWeightedFlow, when the jobs
// have weights, is sum w T / sum w (0: the jobs are unweighted). Each Lo..Hi
// is its value's interval or range (NaN, or both zero: none).
type PolicyRow struct {
	Policy                                       string
	MeanFlow, MeanFlowLo, MeanFlowHi             float64 // s
	MeanWeightedFlow                             float64 // s; 0: no weights
	MeanWeightedFlowLo, MeanWeightedFlowHi       float64 // s
	MeanSlowdown, MeanSlowdownLo, MeanSlowdownHi float64
	P99, P99Lo, P99Hi                            float64 // s
}

// FigureRef is one figure of a report: the PNG file name written in the
// report's folder (a bare name ending in .png), its title and a one-sentence
// caption.
type FigureRef struct {
	File    string
	Title   string
	Caption string
	Figure  *Figure
}

// Table is a free-form table of preformatted cells.
type Table struct {
	Title   string
	Columns []string
	Rows    [][]string
}

// Report is the content of a report folder: index.html (self-contained:
// inline CSS, images by relative links) and summary.md beside the figures.
type Report struct {
	Title   string  // "" means "sgdplan report"
	Inputs  []Input // the files the report was made from
	Command string  // the command line that made it, shown for rerunning
	Model   string  // the fitted model family, e.g. "mva"
	Params  []Param
	Level   float64 // coverage of the parameters' intervals; 0 means 0.95
	Servers float64
	Policy  string // the policy of the jobs table
	// RangeLabel heads the columns of the jobs' CompletionLo..Hi and the
	// policies' MeanFlowLo..Hi ("": "95% interval").
	RangeLabel string
	Jobs       []JobRow
	Policies   []PolicyRow
	Tables     []Table
	Figures    []FigureRef
	Warnings   []string
	Notes      []string
}

// Input is a file a report was made from: its path, shown as code, and a
// note after it ("" for none), shown as text: "(not found: ...)" sat
// inside the path's backticks.
type Input struct {
	Path, Note string
}

// BestPolicy returns the policy with the least mean flow time, weighted
// when the jobs have weights ("" without policies).
func (r Report) BestPolicy() string {
	best, v := "", math.Inf(1)
	weighted := r.weighted()
	for _, p := range r.Policies {
		x := p.MeanFlow
		if weighted {
			x = p.MeanWeightedFlow
		}
		if x < v {
			best, v = p.Policy, x
		}
	}
	return best
}

// weighted says whether the policies carry a weighted mean flow time.
func (r Report) weighted() bool {
	return slices.ContainsFunc(r.Policies, func(p PolicyRow) bool { return p.MeanWeightedFlow > 0 })
}

// bestPolicies returns the policies tied at the least mean flow time
// (weighted when the jobs have weights; within a billionth: the same
// plan), in the table's order, and that least value.
func (r Report) bestPolicies() ([]string, float64) {
	best := r.BestPolicy()
	v := math.NaN()
	for _, p := range r.Policies {
		if p.Policy == best {
			v = r.flowOf(p)
		}
	}
	var tied []string
	for _, p := range r.Policies {
		if x := r.flowOf(p); math.Abs(x-v) <= 1e-9*math.Abs(v) {
			tied = append(tied, p.Policy)
		}
	}
	return tied, v
}

// flowOf is the flow time BestPolicy compares of p.
func (r Report) flowOf(p PolicyRow) float64 {
	if r.weighted() {
		return p.MeanWeightedFlow
	}
	return p.MeanFlow
}

// bestNote follows the best policies' names: a tie said as one, and, when
// the plan shown (r.Policy) is not among them, how much more its mean is
// and how to see theirs (the demo named numeric best beside hesrpt's plan
// alone).
func (r Report) bestNote(tied []string, v float64) string {
	note := ""
	if len(tied) > 1 {
		note = fmt.Sprintf(" (a tie, %s s)", num(v))
	}
	if r.Policy == "" || slices.Contains(tied, r.Policy) {
		return note
	}
	// how to see the best's plan: report --policy takes every policy but
	// numeric, which plan alone runs (the demo's note named "report
	// --policy numeric", which report refuses)
	see := "sgdplan plan --policy numeric, with this report's --jobs, --servers and --p if given, shows numeric's"
	if i := slices.IndexFunc(tied, func(p string) bool { return p != "numeric" }); i >= 0 {
		see = fmt.Sprintf("sgdplan report --policy %s shows %s's", tied[i], tied[i])
	}
	for _, p := range r.Policies {
		if p.Policy == r.Policy && v > 0 {
			note += fmt.Sprintf("; the plan above is %s's, %.1f%% more (%s)", r.Policy, 100*(r.flowOf(p)/v-1), see)
		}
	}
	return note
}

// bestWhat names what BestPolicy minimises.
func (r Report) bestWhat() string {
	if r.weighted() {
		return "Least mean weighted flow time"
	}
	return "Least mean flow time"
}

func (r Report) validate() error {
	seen := map[string]bool{}
	for i, f := range r.Figures {
		if f.File == "" || f.File != filepath.Base(f.File) || strings.ContainsAny(f.File, `/\`) || !strings.HasSuffix(f.File, ".png") {
			return inputError("report", "figure %d: file %q: want a bare name ending in .png", i, f.File)
		}
		if !slices.Contains(ReportFigureFiles, f.File) {
			return inputError("report", "figure %d: file %q: want one of %s (ReportFigureFiles)", i, f.File, strings.Join(ReportFigureFiles, ", "))
		}
		if seen[f.File] {
			return inputError("report", "figure %d: file %q appears twice", i, f.File)
		}
		seen[f.File] = true
		if f.Figure == nil {
			return inputError("report", "figure %d (%s): no figure", i, f.File)
		}
	}
	for i, t := range r.Tables {
		for j, row := range t.Rows {
			if len(row) != len(t.Columns) {
				return inputError("report", "table %d (%s): row %d has %d cells, want %d", i, t.Title, j, len(row), len(t.Columns))
			}
		}
	}
	return nil
}

// WriteReport writes r's figures, index.html and summary.md into dir
// (created if needed). Each file is written through a temporary file and a
// rename, so that no file in dir is ever half-written; figures are written
// first, so that index.html never links to a missing image, and
// ReportMarker before them, removed at the end, so that a run cut short
// leaves a folder the next run takes for an earlier report. It checks the
// folder first (CheckReportDir), so that a file it could not replace, or
// one of the user's in a folder without an earlier report, stops it before
// it writes any. Over an earlier report (one cut short too) it removes the
// earlier figures r does not draw and returns their names (removed).
func WriteReport(dir string, r Report) (removed []string, err error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	if err := CheckReportDir(dir); err != nil {
		return nil, err
	}
	if err := CheckOthersFiles(dir); err != nil {
		return nil, err
	}
	earlier := EarlierReport(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plots: report: %w", err)
	}
	marker := filepath.Join(dir, ReportMarker)
	if err := writeFileAtomic(marker, []byte(reportMarkerText)); err != nil {
		return nil, err
	}
	for _, f := range r.Figures {
		if err := f.Figure.Save(filepath.Join(dir, f.File)); err != nil {
			return nil, fmt.Errorf("plots: report: %s: %w", f.File, err)
		}
	}
	html, err := r.HTML()
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(dir, ReportIndex), html); err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(dir, ReportSummary), r.Markdown()); err != nil {
		return nil, err
	}
	if earlier {
		if removed, err = removeStaleFigures(dir, r.Figures); err != nil {
			return removed, err
		}
	}
	if err := os.Remove(marker); err != nil {
		return removed, fmt.Errorf("plots: report: %w", err)
	}
	return removed, nil
}

// removeStaleFigures removes the figures of ReportFigureFiles in dir that
// r does not draw: an earlier report's (a rerun on other data would
// otherwise leave, say, a speedup figure its page no longer shows), and
// returns their names. Only regular files are removed; a link is left
// alone. WriteReport calls it only over an earlier report (it removed
// the user's own PNGs of those names in any folder).
func removeStaleFigures(dir string, drawn []FigureRef) (removed []string, err error) {
	for _, name := range ReportFigureFiles {
		if slices.ContainsFunc(drawn, func(f FigureRef) bool { return f.File == name }) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if err := os.Remove(p); err != nil {
			return removed, fmt.Errorf("plots: report: an earlier report's figure: %w", err)
		}
		removed = append(removed, name)
	}
	return removed, nil
}

// serversText is "N servers", "1 server" for one (it said "1 servers").
func serversText(n float64) string {
	if n == 1 {
		return "1 server"
	}
	return num(n) + " servers"
}

// num formats a number for people: 4 significant digits, "–" for NaN.
func num(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	if math.IsInf(v, 0) {
		if v > 0 {
			return "∞"
		}
		return "-∞"
	}
	// exponent form where tickLabel uses it, with its 4 digits ('g'
	// drops trailing zeros; it writes 0.0001234 plainly)
	return tickLabel(roundSig(v, 4))
}

// Num formats a number as the report's tables (but the simulation table's
// times, which keep whole seconds below 10^7) and axes write it: 4
// significant digits, plainly from 0.001 to under 10^6 (0.0123, 123500),
// in exponent form beyond (1.235e+06, 2.5e-05); "–" for NaN, "∞" for
// infinity. The report's captions use it too.
func Num(v float64) string { return num(v) }

// Rate formats a link rate in bytes per second with a decimal SI prefix,
// as Num writes the number: "3 MB/s", "1.25 GB/s", "512 B/s" (a figure's
// "3e+06 B/s" had to be counted); Num's form with "B/s" outside 1 B/s to
// under 1000 PB/s, and for NaN or infinity.
func Rate(bps float64) string {
	units := []string{"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"}
	if !(bps >= 1) || math.IsInf(bps, 0) {
		return num(bps) + " B/s"
	}
	v, i := roundSig(bps, 4), 0
	for v >= 1000 && i < len(units)-1 {
		v, i = roundSig(v/1000, 4), i+1
	}
	if v >= 1000 {
		return num(bps) + " B/s"
	}
	return num(v) + " " + units[i]
}

func roundSig(v float64, n int) float64 {
	if v == 0 {
		return 0
	}
	var r float64
	fmt.Sscanf(fmt.Sprintf("%.*g", n, v), "%g", &r)
	return r
}

// rangeCell is interval for the fields whose zero value means none
// (PolicyRow's ranges past the mean flow's, which older callers leave
// unset).
func rangeCell(lo, hi float64) string {
	if lo == 0 && hi == 0 {
		return ""
	}
	return interval(lo, hi)
}

// interval formats [lo, hi], or "" when unknown.
func interval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return ""
	}
	return "[" + num(lo) + ", " + num(hi) + "]"
}

func (r Report) title() string {
	if r.Title == "" {
		return "sgdplan report"
	}
	return r.Title
}

// view is what the templates see: every number already formatted.
type view struct {
	Title, Command, Model, Servers, Policy, Best string
	BestWhat, BestNote                           string
	bestSet                                      []string
	ParamCols, JobCols, PolicyCols               []string
	Warnings, Notes                              []string
	Inputs                                       []Input
	Params                                       [][]string
	Jobs                                         [][]string
	Policies                                     []policyView
	Tables                                       []Table
	Figures                                      []FigureRef
}

type policyView struct {
	Cells []string
	Best  bool
}

func (r Report) view() view {
	v := view{
		Title: r.title(), Command: r.Command, Model: r.Model, Policy: r.Policy,
		Inputs: r.Inputs, Warnings: r.Warnings, Notes: r.Notes, Tables: r.Tables, Figures: r.Figures,
		BestWhat: r.bestWhat(),
	}
	if tied, best := r.bestPolicies(); len(tied) > 0 {
		v.bestSet, v.Best, v.BestNote = tied, andList(tied), r.bestNote(tied, best)
	}
	if r.Servers > 0 {
		v.Servers = serversText(r.Servers)
	}
	level := r.Level
	if level == 0 {
		level = 0.95
	}
	v.ParamCols = []string{"parameter", "value", fmt.Sprintf("%.0f%% interval", 100*level), "unit", "note"}
	for _, p := range r.Params {
		v.Params = append(v.Params, []string{p.Name, num(p.Value), interval(p.Lo, p.Hi), p.Unit, p.Note})
	}
	// Optional columns appear only when some row has a value.
	var jobCI, jobWhole, polCI, polWCI, polSCI, polP99, polP99CI bool
	for _, j := range r.Jobs {
		jobCI = jobCI || interval(j.CompletionLo, j.CompletionHi) != ""
		jobWhole = jobWhole || !math.IsNaN(j.CompletionWhole)
	}
	for _, p := range r.Policies {
		polCI = polCI || interval(p.MeanFlowLo, p.MeanFlowHi) != ""
		polWCI = polWCI || rangeCell(p.MeanWeightedFlowLo, p.MeanWeightedFlowHi) != ""
		polSCI = polSCI || rangeCell(p.MeanSlowdownLo, p.MeanSlowdownHi) != ""
		polP99 = polP99 || !math.IsNaN(p.P99)
		polP99CI = polP99CI || rangeCell(p.P99Lo, p.P99Hi) != ""
	}
	var jobStart bool
	for _, j := range r.Jobs {
		jobStart = jobStart || j.StartWorkers > 0
	}
	v.JobCols = []string{"job", "size (s on 1 worker)", "recommended workers if alone", "knee (workers)"}
	if jobStart {
		v.JobCols = append(v.JobCols, "workers at start (the plan)")
	}
	v.JobCols = append(v.JobCols, "predicted completion (s from time 0)")
	rangeLabel := cmp.Or(r.RangeLabel, "95% interval")
	if jobCI {
		v.JobCols = append(v.JobCols, rangeLabel)
	}
	var jobStartWhole bool
	for _, j := range r.Jobs {
		jobStartWhole = jobStartWhole || j.StartWorkersWhole > 0
	}
	if jobWhole && jobStartWhole {
		v.JobCols = append(v.JobCols, "whole workers at start")
	}
	if jobWhole {
		v.JobCols = append(v.JobCols, "with whole workers (s)")
	}
	for _, j := range r.Jobs {
		row := []string{j.Job, num(j.Size), num(j.Workers), num(j.Knee)}
		if jobStart {
			start := math.NaN() // 0: unknown
			if j.StartWorkers > 0 {
				start = j.StartWorkers
			}
			row = append(row, num(start))
		}
		row = append(row, num(j.Completion))
		if jobCI {
			row = append(row, interval(j.CompletionLo, j.CompletionHi))
		}
		if jobWhole && jobStartWhole {
			w := math.NaN() // 0: unknown
			if j.StartWorkersWhole > 0 {
				w = j.StartWorkersWhole
			}
			row = append(row, num(w))
		}
		if jobWhole {
			row = append(row, num(j.CompletionWhole))
		}
		v.Jobs = append(v.Jobs, row)
	}
	v.PolicyCols = []string{"policy", "mean flow time (s)"}
	if polCI {
		v.PolicyCols = append(v.PolicyCols, rangeLabel)
	}
	weighted := r.weighted()
	polWCI = polWCI && weighted
	polP99CI = polP99CI && polP99
	if weighted {
		v.PolicyCols = append(v.PolicyCols, "mean weighted flow time (s)")
		if polWCI {
			v.PolicyCols = append(v.PolicyCols, "range")
		}
	}
	v.PolicyCols = append(v.PolicyCols, "mean slowdown")
	if polSCI {
		v.PolicyCols = append(v.PolicyCols, "range")
	}
	if polP99 {
		v.PolicyCols = append(v.PolicyCols, "p99 flow time (s)")
		if polP99CI {
			v.PolicyCols = append(v.PolicyCols, "range")
		}
	}
	for _, p := range r.Policies {
		row := []string{p.Policy, num(p.MeanFlow)}
		if polCI {
			row = append(row, interval(p.MeanFlowLo, p.MeanFlowHi))
		}
		if weighted {
			row = append(row, num(p.MeanWeightedFlow))
			if polWCI {
				row = append(row, rangeCell(p.MeanWeightedFlowLo, p.MeanWeightedFlowHi))
			}
		}
		row = append(row, num(p.MeanSlowdown))
		if polSCI {
			row = append(row, rangeCell(p.MeanSlowdownLo, p.MeanSlowdownHi))
		}
		if polP99 {
			row = append(row, num(p.P99))
			if polP99CI {
				row = append(row, rangeCell(p.P99Lo, p.P99Hi))
			}
		}
		v.Policies = append(v.Policies, policyView{Cells: row, Best: slices.Contains(v.bestSet, p.Policy)})
	}
	return v
}

// HTML returns index.html: one page, inline CSS, figures by relative links.
func (r Report) HTML() ([]byte, error) {
	var buf bytes.Buffer
	if err := reportHTML.Execute(&buf, r.view()); err != nil {
		return nil, fmt.Errorf("plots: report: %w", err)
	}
	return buf.Bytes(), nil
}

var reportHTML = template.Must(template.New("index").Funcs(template.FuncMap{"inline": inlineHTML}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="sgdplan report">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: #222; margin: 0 auto; max-width: 1100px; padding: 1.5em; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
code, pre { font-family: "Liberation Mono", Menlo, monospace; font-size: 0.9em; background: #f4f4f4; }
pre { padding: 0.6em; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { padding: 0.3em 0.8em; border-bottom: 1px solid #e4e4e4; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td { white-space: nowrap; } /* an interval "[2034, 2334]" on one line */
table.params td:nth-child(5) { white-space: normal; }
th { background: #f4f4f4; font-weight: 600; }
tr.best td { font-weight: 700; background: #eef6fb; }
.warn { background: #fff6e0; border-left: 4px solid #E69F00; padding: 0.5em 0.8em; }
figure { margin: 1.2em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.95em; }
.muted { color: #666; }
table.params td:nth-child(4), table.params td:nth-child(5), table.params th:nth-child(4), table.params th:nth-child(5) { text-align: left; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{if .Command}}<p class="muted">Made by <code>{{.Command}}</code></p>{{end}}
{{if .Inputs}}<p class="muted">Inputs: {{range $i, $f := .Inputs}}{{if $i}}, {{end}}<code>{{$f.Path}}</code>{{if $f.Note}} ({{$f.Note}}){{end}}{{end}}</p>{{end}}
{{if .Warnings}}<div class="warn"><strong>Warnings</strong><ul>{{range .Warnings}}<li>{{inline .}}</li>{{end}}</ul></div>{{end}}
{{if .Params}}
<h2>Fitted model{{if .Model}}: {{.Model}}{{end}}</h2>
<table class="params"><tr>{{range .ParamCols}}<th>{{.}}</th>{{end}}</tr>
{{range .Params}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{if .Jobs}}
<h2>Plan{{if .Servers}} on {{.Servers}}{{end}}{{if .Policy}} ({{.Policy}}){{end}}</h2>
<table><tr>{{range .JobCols}}<th>{{.}}</th>{{end}}</tr>
{{range .Jobs}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{if .Policies}}
<h2>Policy comparison</h2>
<table><tr>{{range .PolicyCols}}<th>{{.}}</th>{{end}}</tr>
{{range .Policies}}<tr{{if .Best}} class="best"{{end}}>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .Best}}<p>{{.BestWhat}}: <strong>{{.Best}}</strong>{{.BestNote}}.</p>{{end}}
{{end}}
{{range .Tables}}
<h2>{{.Title}}</h2>
<table><tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{if .Figures}}<h2>Figures</h2>{{end}}
{{range .Figures}}
<figure id="{{.File}}">
<img src="{{.File}}" alt="{{.Title}}">
<figcaption><strong>{{.Title}}.</strong> {{inline .Caption}}</figcaption>
</figure>
{{end}}
{{if .Notes}}<h2>Notes</h2><ul>{{range .Notes}}<li>{{inline .}}</li>{{end}}</ul>{{end}}
</body>
</html>
`))

// inlineHTML is s, a note, warning or caption written for summary.md, as
// HTML: escaped, with each `code span` (a pair of backticks on one line)
// as <code>; a backtick without its pair stays as it is. The page showed
// the backticks.
func inlineHTML(s string) template.HTML {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 || strings.ContainsRune(s[i+1:i+1+j], '\n') {
			b.WriteString(template.HTMLEscapeString(s[:i+1]))
			s = s[i+1:]
			continue
		}
		b.WriteString(template.HTMLEscapeString(s[:i]))
		b.WriteString("<code>" + template.HTMLEscapeString(s[i+1:i+1+j]) + "</code>")
		s = s[i+1+j+1:]
	}
	b.WriteString(template.HTMLEscapeString(s))
	return template.HTML(b.String())
}

// Markdown returns summary.md: the same numbers as index.html, with the
// figures linked.
func (r Report) Markdown() []byte {
	var b strings.Builder
	v := r.view()
	fmt.Fprintf(&b, "# %s\n\n", mdText(v.Title))
	if v.Command != "" {
		fmt.Fprintf(&b, "Made by `%s`.\n\n", v.Command)
	}
	if len(v.Inputs) > 0 {
		b.WriteString("Inputs:\n\n")
		for _, f := range v.Inputs {
			fmt.Fprintf(&b, "- `%s`", f.Path)
			if f.Note != "" {
				fmt.Fprintf(&b, " (%s)", mdText(f.Note))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	if len(v.Warnings) > 0 {
		b.WriteString("**Warnings**\n\n")
		for _, w := range v.Warnings {
			fmt.Fprintf(&b, "- %s\n", mdText(w))
		}
		b.WriteString("\n")
	}
	if len(v.Params) > 0 {
		title := "Fitted model"
		if v.Model != "" {
			title += ": " + v.Model
		}
		mdTable(&b, title, v.ParamCols, v.Params)
	}
	if len(v.Jobs) > 0 {
		title := "Plan"
		if v.Servers != "" {
			title += " on " + v.Servers
		}
		if v.Policy != "" {
			title += " (" + v.Policy + ")"
		}
		mdTable(&b, title, v.JobCols, v.Jobs)
	}
	if len(v.Policies) > 0 {
		var rows [][]string
		for _, p := range v.Policies {
			row := append([]string(nil), p.Cells...)
			if p.Best {
				row[0] = "**" + row[0] + "**" // (mdTable escapes the name)
			}
			rows = append(rows, row)
		}
		mdTable(&b, "Policy comparison", v.PolicyCols, rows)
		fmt.Fprintf(&b, "%s: **%s**%s.\n\n", mdText(v.BestWhat), mdText(v.Best), mdText(v.BestNote))
	}
	for _, t := range v.Tables {
		mdTable(&b, t.Title, t.Columns, t.Rows)
	}
	if len(v.Figures) > 0 {
		b.WriteString("## Figures\n\n")
		for _, f := range v.Figures {
			fmt.Fprintf(&b, "![%s](%s)\n\n**%s.** %s\n\n", mdText(f.Title), f.File, mdText(f.Title), mdText(f.Caption))
		}
	}
	if len(v.Notes) > 0 {
		b.WriteString("## Notes\n\n")
		for _, n := range v.Notes {
			fmt.Fprintf(&b, "- %s\n", mdText(n))
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// mdText is s for summary.md: & and < outside code spans written as HTML
// entities, so that a job named <i>x</i> reads as its name and not as
// markup (index.html escapes it; summary.md rendered it in italics); > is
// no markup without <, and "70 jobs > 64" stays as it reads. Code spans
// stay as they are: Markdown shows their text literally.
func mdText(s string) string {
	var b strings.Builder
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;")
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			break
		}
		b.WriteString(esc.Replace(s[:i]))
		b.WriteString(s[i : i+1+j+1])
		s = s[i+1+j+1:]
	}
	b.WriteString(esc.Replace(s))
	return b.String()
}

// mdTable writes a table of summary.md, its text through mdText and its
// cells' | escaped.
func mdTable(b *strings.Builder, title string, cols []string, rows [][]string) {
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = mdText(c)
	}
	fmt.Fprintf(b, "## %s\n\n| %s |\n|", mdText(title), strings.Join(heads, " | "))
	for i := range cols {
		if i == 0 {
			b.WriteString("---|")
		} else {
			b.WriteString("---:|")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = strings.ReplaceAll(mdText(c), "|", `\|`)
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
	b.WriteString("\n")
}

// andList joins names as prose: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
