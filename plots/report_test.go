package plots

import (
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sgdplan/sgdplan/plots/internal/chromium"
)

// exampleReport is a report with every section and two figures.
func exampleReport(t *testing.T) Report {
	t.Helper()
	fit, err := FitFigure(fitExample())
	if err != nil {
		t.Fatal(err)
	}
	plan, err := PlanFigure(planExample())
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	return Report{
		Title:   "Example <report>",
		Inputs:  []Input{{Path: "testdata/README.md"}, {Path: "jobs.csv"}},
		Command: "sgdplan report --model model.json --jobs jobs.csv --servers 16 --out out",
		Model:   "mva",
		Level:   0.9,
		Params: []Param{
			{Name: "Z", Value: 0.1, Lo: 0.0952, Hi: 0.10471, Unit: "s", Note: "compute"},
			{Name: "max D", Value: 0.01, Lo: nan, Hi: nan, Unit: "s"},
		},
		Servers: 16,
		Policy:  "hesrpt",
		Jobs: []JobRow{
			{Job: "j1", Size: 64, Workers: 9, Knee: 12.5, StartWorkers: 11.25, Completion: 28.0176, CompletionLo: 26, CompletionHi: 30.5, CompletionWhole: nan},
			{Job: "j4", Size: 16, Workers: 1, Knee: nan, Completion: 6.0476, CompletionLo: nan, CompletionHi: nan, CompletionWhole: nan},
		},
		Policies: []PolicyRow{
			{Policy: "equi", MeanFlow: 17.02, MeanFlowLo: 16.5, MeanFlowHi: 17.6, MeanSlowdown: 7.1, P99: nan},
			{Policy: "hesrpt", MeanFlow: 16.314, MeanFlowLo: 15.9, MeanFlowHi: 16.8, MeanSlowdown: 6.19, P99: 28},
		},
		Figures: []FigureRef{
			{File: "fit.png", Title: "Throughput", Caption: "Measured vs fitted.", Figure: fit},
			{File: "plan.png", Title: "Plan", Caption: "Workers per job over time.", Figure: plan},
		},
		Warnings: []string{"fit: only 3 worker counts"},
		Notes:    []string{"a note"},
	}
}

var imgSrc = regexp.MustCompile(`<img src="([^"]*)"`)

func TestWriteReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "out") // created by WriteReport
	r := exampleReport(t)
	if _, err := WriteReport(dir, r); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	srcs := imgSrc.FindAllStringSubmatch(string(html), -1)
	if len(srcs) != 2 {
		t.Fatalf("%d images in index.html, want 2", len(srcs))
	}
	for _, m := range srcs {
		f, err := os.Open(filepath.Join(dir, m[1]))
		if err != nil {
			t.Errorf("<img src=%q> does not resolve in %s: %v", m[1], dir, err)
			continue
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s does not decode: %v", m[1], err)
		}
		f.Close()
	}
	page := string(html)
	for _, want := range []string{
		"Example &lt;report&gt;",                          // escaped
		"<td>0.1</td><td>[0.0952, 0.1047]</td>",           // 4 significant digits
		"<td>11.25</td><td>28.02</td><td>[26, 30.5]</td>", // the plan's workers, completion with interval
		"<th>recommended workers if alone</th>",           // not the plan: each job alone
		"<th>workers at start (the plan)</th>",
		`<tr class="best"><td>hesrpt</td>`, // least mean flow time
		"<style>",                          // inline CSS
		"<th>90% interval</th>",            // the parameters' level
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	for _, bad := range []string{"http://", "https://", "<link", "<script"} {
		if strings.Contains(page, bad) {
			t.Errorf("index.html is not self-contained: has %q", bad)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- `testdata/README.md`",
		"| j1 | 64 | 9 | 12.5 | 11.25 | 28.02 | [26, 30.5] |",
		"| j4 | 16 | 1 | – | – | 6.048 |  |",
		"| **hesrpt** | 16.31 | [15.9, 16.8] | 6.19 | 28 |",
		"![Plan](plan.png)",
		"Least mean flow time: **hesrpt**.",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	// No temporary files are left.
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "fit.png index.html plan.png summary.md" {
		t.Errorf("files %q, want fit.png index.html plan.png summary.md", got)
	}
}

func TestWriteReportBadInput(t *testing.T) {
	r := exampleReport(t)
	for _, c := range []struct {
		name string
		edit func(*Report)
		want string
	}{
		{"path", func(r *Report) { r.Figures[0].File = "../fit.png" }, `figure 0: file "../fit.png"`},
		{"not png", func(r *Report) { r.Figures[1].File = "plan.svg" }, `figure 1: file "plan.svg"`},
		{"twice", func(r *Report) { r.Figures[1].File = "fit.png" }, "appears twice"},
		{"nil", func(r *Report) { r.Figures[0].Figure = nil }, "no figure"},
		{"ragged", func(r *Report) {
			r.Tables = []Table{{Title: "t", Columns: []string{"a"}, Rows: [][]string{{"1", "2"}}}}
		}, "row 0 has 2 cells"},
	} {
		rr := r
		rr.Figures = append([]FigureRef(nil), r.Figures...)
		c.edit(&rr)
		dir := t.TempDir()
		_, err := WriteReport(dir, rr)
		wantErr(t, c.name, err, "report", c.want)
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: wrote %d files despite the error", c.name, len(ents))
		}
	}
}

// TestReportInChromium renders index.html in headless Chromium and checks
// that the screenshot decodes and is not blank. With SGDPLAN_SCREENSHOT set,
// the screenshot is copied there (docs/img/report.png is made this way).
func TestReportInChromium(t *testing.T) {
	bin := os.Getenv("CHROMIUM")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no Chromium at %s (apt-get install -y chromium to run this check)", bin)
	}
	if testing.Short() {
		t.Skip("Chromium check skipped in -short mode")
	}
	dir := t.TempDir()
	if _, err := WriteReport(dir, exampleReport(t)); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "screenshot.png")
	if err := chromium.Screenshot(bin, filepath.Join(dir, "index.html"), shot, 1280, 2000, 90*time.Second); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2000 {
		t.Errorf("screenshot %dx%d, want 1280x2000", b.Dx(), b.Dy())
	}
	if n := distinctColours(img, 50); n < 10 {
		t.Errorf("screenshot has %d colours: blank page?", n)
	}
	if out := os.Getenv("SGDPLAN_SCREENSHOT"); out != "" {
		b, _ := os.ReadFile(shot)
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !imagesLoaded(img) {
		t.Errorf("screenshot shows no figure colours: images did not load")
	}
}

// imagesLoaded reports whether the screenshot holds at least 200 pixels near
// Okabe-Ito blue (0072B2: the fit curve) and 200 near vermillion (D55E00:
// the measured points), which only the images draw: the page itself uses
// greys, a pale blue and orange.
func imagesLoaded(img image.Image) bool {
	near := func(r, g, b uint32, want [3]int) bool {
		d := 0
		for i, v := range []uint32{r >> 8, g >> 8, b >> 8} {
			x := int(v) - want[i]
			d += x * x
		}
		return d < 25*25
	}
	var blue, red int
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if near(r, g, b, [3]int{0x00, 0x72, 0xB2}) {
				blue++
			}
			if near(r, g, b, [3]int{0xD5, 0x5E, 0x00}) {
				red++
			}
		}
	}
	return blue >= 200 && red >= 200
}

// One server is "1 server" in the plan's heading (it said "1 servers"),
// in the summary and the page alike.
func TestReportOneServer(t *testing.T) {
	r := exampleReport(t)
	r.Servers = 1
	if md := string(r.Markdown()); !strings.Contains(md, "Plan on 1 server (hesrpt)") || strings.Contains(md, "1 servers") {
		t.Errorf("summary: %s", md)
	}
	r.Servers = 16
	if md := string(r.Markdown()); !strings.Contains(md, "Plan on 16 servers (hesrpt)") {
		t.Errorf("summary at 16: %s", md)
	}
}

// TestNumKeepsFourDigits: the report's numbers keep 4 significant digits at
// every magnitude (num formatted through tickLabel, whose exponent form has
// 3: 0.0001234 printed 0.000123 and 1234567 printed 1.23e+06).
func TestNumKeepsFourDigits(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{0.1, "0.1"},
		{0.09523, "0.09523"},
		{0.00123456, "0.001235"},
		{0.0001234, "0.0001234"},
		{-0.0001234, "-0.0001234"},
		{2.5e-5, "2.5e-05"},
		{1.234567e-5, "1.235e-05"},
		{0.00099996, "0.001"},
		{1.5, "1.5"},
		{123.456, "123.5"},
		{20000, "20000"},
		{123456, "123500"},
		{999949, "999900"},
		{999999.5, "1e+06"},
		{1234567, "1.235e+06"},
		{-1234567, "-1.235e+06"},
		{2e6, "2e+06"},
		{1.2e9, "1.2e+09"},
		{math.NaN(), "–"},
		{math.Inf(1), "∞"},
		{math.Inf(-1), "-∞"},
	} {
		if got := num(c.v); got != c.want {
			t.Errorf("num(%g) = %q, want %q", c.v, got, c.want)
		}
	}
}

// A code span of a note, warning or caption (written for summary.md) is
// <code> on the page, escaped like the rest; the page showed the
// backticks. A backtick without its pair stays.
func TestReportInlineCode(t *testing.T) {
	r := exampleReport(t)
	r.Notes = []string{"`sgdplan check --workers 8` on its model says warn: a <b> b"}
	r.Warnings = []string{"run `a` then `b` and a lone ` here"}
	r.Figures[0].Caption = "as `fit --plot` draws it"
	html, err := r.HTML()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<li><code>sgdplan check --workers 8</code> on its model says warn: a &lt;b&gt; b</li>",
		"<li>run <code>a</code> then <code>b</code> and a lone ` here</li>",
		"as <code>fit --plot</code> draws it</figcaption>",
	} {
		if !strings.Contains(string(html), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	// summary.md keeps the code spans as they are
	if md := string(r.Markdown()); !strings.Contains(md, "- `sgdplan check --workers 8` on its model says warn") {
		t.Errorf("summary.md changed the note:\n%s", md)
	}
}

// summary.md writes a job named <i>x</i> as its name, not as markup
// (index.html escaped it; summary.md rendered it in italics), in tables,
// notes, warnings and captions; code spans stay literal.
func TestReportMarkdownEscapes(t *testing.T) {
	r := exampleReport(t)
	r.Jobs[0].Job = "<i>x</i>"
	r.Policies[1].Policy = "a&b"
	r.Notes = []string{"<i>x</i> runs on a fitted model; `sgdplan check <i>` says so"}
	r.Warnings = []string{"job <i>x</i>: max_workers > 8"}
	r.Figures[0].Caption = "the knee of <i>x</i>"
	md := string(r.Markdown())
	for _, want := range []string{
		"# Example &lt;report>",
		"| &lt;i>x&lt;/i> | 64 |",
		"| **a&amp;b** |",
		"Least mean flow time: **a&amp;b**.",
		"- &lt;i>x&lt;/i> runs on a fitted model; `sgdplan check <i>` says so",
		"- job &lt;i>x&lt;/i>: max_workers > 8",
		"the knee of &lt;i>x&lt;/i>",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "<i>x</i> runs") || strings.Contains(md, "| <i>") {
		t.Errorf("summary.md keeps the markup:\n%s", md)
	}
}

// An input's note follows its path outside the code span, on the page and
// in summary.md ("(not found: ...)" sat inside the backticks).
func TestReportInputNotes(t *testing.T) {
	r := exampleReport(t)
	r.Inputs = append(r.Inputs, Input{Path: "run/input/traces", Note: "not found: no phases or staleness figure"})
	html, err := r.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), "<code>jobs.csv</code>, <code>run/input/traces</code> (not found: no phases or staleness figure)</p>") {
		t.Errorf("index.html inputs:\n%s", html)
	}
	if md := string(r.Markdown()); !strings.Contains(md, "- `jobs.csv`\n- `run/input/traces` (not found: no phases or staleness figure)\n") {
		t.Errorf("summary.md inputs:\n%s", md)
	}
}
