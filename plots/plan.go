package plots

import (
	"fmt"
	"image/color"
	"iter"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sgdplan/sgdplan/internal/words"
)

// PlanSegment is a stretch of time [Start, End) s during which the
// allocation of workers to jobs is constant.
type PlanSegment struct {
	Start, End float64
	Alloc      map[string]float64 // workers per job (fractional or whole)
	// With Alloc nil, job PlanData.Names[Jobs[r]] holds Workers[r]: a
	// planner's own slices can be shared (a map a segment cost 3.5 GB on
	// the 160,000 segments of the Philly trace's plan).
	Jobs    []int
	Workers []float64
}

// PlanData is the input of the plan figure: a piecewise-constant allocation
// of Servers workers to jobs over time and each job's completion time.
type PlanData struct {
	Title       string // "" means "Allocation over time"
	Policy      string // shown in the title when set
	Servers     float64
	Segments    []PlanSegment      // in time order, not overlapping
	Completions map[string]float64 // s; jobs without one are not marked
	Palette     *Palette           // nil: built from the job names
	Names       []string           // the jobs that segments' Jobs index
}

// alloc is each job of s and its workers.
func (d PlanData) alloc(s PlanSegment) iter.Seq2[string, float64] {
	return func(yield func(string, float64) bool) {
		if s.Alloc != nil {
			for j, a := range s.Alloc {
				if !yield(j, a) {
					return
				}
			}
			return
		}
		for r, k := range s.Jobs {
			if !yield(d.Names[k], s.Workers[r]) {
				return
			}
		}
	}
}

// mapped is d with every segment's allocation a map (Alloc).
func (d PlanData) mapped() PlanData {
	var segs []PlanSegment // a copy, once a segment needs one
	for i, s := range d.Segments {
		if s.Alloc != nil {
			continue
		}
		if segs == nil {
			segs = slices.Clone(d.Segments)
		}
		a := make(map[string]float64, len(s.Jobs))
		for j, w := range d.alloc(s) {
			a[j] = w
		}
		segs[i] = PlanSegment{Start: s.Start, End: s.End, Alloc: a}
	}
	if segs != nil {
		d.Segments = segs
	}
	return d
}

// PlanArea is one job's band of the stacked-area figure: along X (segment
// ends, each twice so the band is piecewise constant), the band lies between
// Lower and Upper workers.
type PlanArea struct {
	Job          string
	X            []float64
	Lower, Upper []float64
}

// Jobs returns the jobs in stacking order, bottom up: by completion time
// (earliest first, so finished jobs leave the bottom of the stack), then
// jobs with no completion, each group by name; past maxLegendJobs + 1
// jobs, the ones the figure draws as one band (otherJobs) first, then the
// maxLegendJobs that hold the most worker-seconds, each group so ordered.
func (d PlanData) Jobs() []string {
	seen := map[string]bool{}
	var jobs []string
	for _, s := range d.Segments {
		for j := range d.alloc(s) {
			if !seen[j] {
				seen[j] = true
				jobs = append(jobs, j)
			}
		}
	}
	for j := range d.Completions {
		if !seen[j] {
			seen[j] = true
			jobs = append(jobs, j)
		}
	}
	done := func(j string) float64 {
		if c, ok := d.Completions[j]; ok && isFinite(c) {
			return c
		}
		return math.Inf(1)
	}
	sort.Slice(jobs, func(a, b int) bool {
		ca, cb := done(jobs[a]), done(jobs[b])
		if ca != cb {
			return ca < cb
		}
		return jobs[a] < jobs[b]
	})
	if others := otherJobs(len(jobs)); others > 0 {
		// The legend names the jobs that hold the most worker-seconds,
		// the bands a reader sees, stacked above the others' band, each
		// group in the order above: it named the last to finish, which
		// on a month of a job trace (ITP's cluster10, 260 jobs) were 22
		// bands in the last 3% of the time axis.
		area := map[string]float64{}
		for _, s := range d.Segments {
			for j, a := range d.alloc(s) {
				area[j] += a * (s.End - s.Start)
			}
		}
		byArea := slices.Clone(jobs)
		sort.SliceStable(byArea, func(a, b int) bool { return area[byArea[a]] > area[byArea[b]] })
		named := map[string]bool{}
		for _, j := range byArea[:len(jobs)-others] {
			named[j] = true
		}
		sort.SliceStable(jobs, func(a, b int) bool { return !named[jobs[a]] && named[jobs[b]] })
	}
	return jobs
}

// Areas returns the stacked bands, one per job in Jobs order: in each
// segment a job's band starts where the previous job's ends. A band runs
// over its job's lifetime only, from the first segment where the job holds
// workers to the last (a job that never holds any has an empty band):
// bands over every segment, zero high where their job did not exist, cost
// jobs x segments (9.4 GB for the 82,000 jobs of the Philly trace).
func (d PlanData) Areas() ([]PlanArea, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	_, out := d.mapped().stack(d.Jobs(), 0)
	return out, nil
}

// stack returns the bands of jobs (in stacking order, bottom up), each over
// its job's lifetime, its Lower the height of the bands below in each
// segment (a running per-segment sum). The first others jobs are not drawn
// one by one: rest is their band, the sum of their workers (nil when
// others is 0), and areas the bands of the jobs after them. Every segment's
// allocation is a map (mapped).
func (d PlanData) stack(jobs []string, others int) (rest *PlanArea, areas []PlanArea) {
	// each job's first and last segment with workers
	type life struct{ first, last int }
	lives := make(map[string]life, len(jobs))
	for i, s := range d.Segments {
		for j, a := range s.Alloc {
			if a > 0 {
				l, ok := lives[j]
				if !ok {
					l.first = i
				}
				l.last = i
				lives[j] = l
			}
		}
	}
	cum := make([]float64, len(d.Segments)) // the height stacked so far
	// band appends segment i to a: from y to y + a workers, after an idle
	// gap's drop to nothing (joined end to start, a job that finished at
	// 50 s sloped down to the next arrival at 1000 s, the cluster painted
	// full) when the band already has a segment before it
	band := func(b *PlanArea, i int, y, a float64) {
		s := d.Segments[i]
		if len(b.X) > 0 && s.Start > d.Segments[i-1].End {
			b.X = append(b.X, d.Segments[i-1].End, s.Start)
			b.Lower = append(b.Lower, 0, 0)
			b.Upper = append(b.Upper, 0, 0)
		}
		b.X = append(b.X, s.Start, s.End)
		b.Lower = append(b.Lower, y, y)
		b.Upper = append(b.Upper, y+a, y+a)
	}
	add := func(j string, b *PlanArea) {
		l, ok := lives[j]
		if !ok {
			return // (no workers ever: no band)
		}
		for i := l.first; i <= l.last; i++ {
			a := d.Segments[i].Alloc[j]
			if b != nil {
				band(b, i, cum[i], a)
			}
			cum[i] += a
		}
	}
	for _, j := range jobs[:others] {
		add(j, nil)
	}
	if others > 0 {
		// the others' band, from the first segment where they hold
		// workers to the last
		rest = &PlanArea{}
		first, last := len(cum), -1
		for i, y := range cum {
			if y > 0 {
				first, last = min(first, i), i
			}
		}
		for i := first; i <= last; i++ {
			band(rest, i, 0, cum[i])
		}
	}
	areas = make([]PlanArea, len(jobs)-others)
	for k, j := range jobs[others:] {
		areas[k].Job = j
		add(j, &areas[k])
	}
	return rest, areas
}

func (d PlanData) validate() error {
	if len(d.Segments) == 0 {
		return inputError("plan", "no segments")
	}
	if !isFinite(d.Servers) || d.Servers < 0 {
		return inputError("plan", "servers %g: want a finite count >= 0 (0: unknown)", d.Servers)
	}
	for i, s := range d.Segments {
		if !isFinite(s.Start) || !isFinite(s.End) || s.End <= s.Start {
			return inputError("plan", "segment %d: [%g, %g): want finite times with start < end", i, s.Start, s.End)
		}
		if i > 0 && s.Start < d.Segments[i-1].End {
			return inputError("plan", "segment %d starts at %g s, before segment %d ends (%g s)", i, s.Start, i-1, d.Segments[i-1].End)
		}
		if s.Alloc == nil {
			if len(s.Jobs) != len(s.Workers) {
				return inputError("plan", "segment %d: %d jobs and %d worker counts", i, len(s.Jobs), len(s.Workers))
			}
			for _, k := range s.Jobs {
				if k < 0 || k >= len(d.Names) {
					return inputError("plan", "segment %d: job %d of %d names", i, k, len(d.Names))
				}
			}
		}
		var sum float64
		for j, a := range d.alloc(s) {
			if !isFinite(a) || a < 0 {
				return inputError("plan", "segment %d: job %q has %g workers: want a finite count >= 0", i, j, a)
			}
			sum += a
		}
		if d.Servers > 0 && sum > d.Servers*(1+1e-9) {
			return inputError("plan", "segment %d: %g workers allocated, more than the %g servers", i, sum, d.Servers)
		}
	}
	for j, c := range d.Completions {
		if !isFinite(c) || c < 0 {
			return inputError("plan", "job %q: completion %g: want a finite time >= 0 s", j, c)
		}
	}
	return nil
}

// MaxDrawnSegments is the most segments PlanFigure draws as they are;
// longer plans are drawn time-averaged over that many equal bins (Binned),
// since rasterizing thousands of steps costs minutes and shows nothing more
// at 300 dpi.
const MaxDrawnSegments = 300

// Binned returns the allocation averaged over n equal bins of time between
// the first start and the last end: in each bin a job holds its workers'
// time-average over the bin, so the area (worker-seconds) of every job is
// kept. Gaps between segments count as no workers.
func (d PlanData) Binned(n int) []PlanSegment {
	return d.binned(n, false)
}

// binned is Binned, with bins of equal width on a square-root time axis
// (sqrtTime: the i-th of n ends at t0 + (t1 - t0) (i/n)^2) when sqrt.
func (d PlanData) binned(n int, sqrt bool) []PlanSegment {
	if len(d.Segments) == 0 || n <= 0 {
		return nil
	}
	t0, t1 := d.Segments[0].Start, d.Segments[len(d.Segments)-1].End
	edge := func(i int) float64 {
		f := float64(i) / float64(n)
		if sqrt {
			f *= f
		}
		return t0 + (t1-t0)*f
	}
	out := make([]PlanSegment, n)
	for i := range out {
		out[i] = PlanSegment{Start: edge(i), End: edge(i + 1), Alloc: map[string]float64{}}
	}
	out[n-1].End = t1
	// the bin holding t
	bin := func(t float64) int {
		f := (t - t0) / (t1 - t0)
		if sqrt {
			f = math.Sqrt(math.Max(f, 0))
		}
		return max(0, min(n-1, int(f*float64(n))))
	}
	for _, s := range d.Segments {
		first := bin(s.Start)
		for first > 0 && out[first].Start > s.Start {
			first-- // (rounding)
		}
		for i := first; i < n && out[i].Start < s.End; i++ {
			lo, hi := math.Max(s.Start, out[i].Start), math.Min(s.End, out[i].End)
			if hi <= lo {
				continue
			}
			frac := (hi - lo) / (out[i].End - out[i].Start)
			for j, a := range d.alloc(s) {
				out[i].Alloc[j] += a * frac
			}
		}
	}
	return out
}

// planHatch returns the stripes over a's band (none when its job has a
// colour of its own): one rectangle per segment where the job holds workers.
func planHatch(a PlanArea, pal *Palette) hatchPlotter {
	h := hatchPlotter{dir: pal.Hatch(a.Job)}
	if h.dir == 0 {
		return h
	}
	for i := 0; i+1 < len(a.X); i += 2 {
		if a.Upper[i] > a.Lower[i] {
			h.rects = append(h.rects, dataRect{a.X[i], a.X[i+1], a.Lower[i], a.Upper[i]})
		}
	}
	return h
}

// drawnSegments are d's segments as PlanFigure draws them: on the time
// axis tm (idle gaps much longer than the work drawn short: arrivals at 0,
// 1e6 and 1e9 s left an empty panel, every job a hairline), a square-root
// axis when sqrt (where most of the allocation's changes crowd into the
// start of the plan: the demo's eight arrivals and first four completions
// in the first tenth of its 7,297 s; never with gaps shortened, tm then
// the identity), binned past MaxDrawnSegments evenly as drawn (on the
// square-root axis too).
func (d PlanData) drawnSegments() (drawn PlanData, tm timeMap, sqrt bool) {
	tm = newTimeMap(d.Segments)
	drawn = d
	if tm.compressed() {
		drawn.Segments = make([]PlanSegment, len(d.Segments))
		for i, s := range d.Segments {
			s.Start, s.End = tm.at(s.Start), tm.at(s.End)
			drawn.Segments[i] = s
		}
	}
	sqrt = d.sqrtTime(tm)
	if len(drawn.Segments) > MaxDrawnSegments {
		drawn.Segments = drawn.binned(MaxDrawnSegments, sqrt)
	}
	return drawn.mapped(), tm, sqrt
}

// PlanFigure returns the plan figure: each job's workers over time as
// stacked piecewise-constant areas (striped for a job past the eighth, whose
// colour repeats another's), the servers as a line, and each job's
// completion as a triangle above the stack in its colour.
func PlanFigure(d PlanData) (*Figure, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	// Idle gaps much longer than the work are drawn short (arrivals at
	// 0, 1e6 and 1e9 s left an empty panel: every job a hairline), on a
	// time axis that stays true within each busy stretch.
	drawn, tm, sqrt := d.drawnSegments()
	// Past maxLegendJobs + 1 jobs, the legend's jobs (the top of the
	// stack) are drawn as they are and the rest as one band: a polygon
	// per job (82,000 in the Philly trace) cost minutes and gigabytes and
	// showed no job one could tell apart.
	jobs := drawn.Jobs()
	others := otherJobs(len(jobs))
	rest, areas := drawn.stack(jobs, others)
	pal := d.Palette
	if pal == nil {
		pal = NewPalette(d.Jobs()...)
	}
	title := d.Title
	if title == "" {
		title = "Allocation over time"
	}
	if d.Policy != "" {
		title += " (" + d.Policy + ")"
	}
	xlabel := "time (s)"
	if tm.compressed() {
		xlabel = "time (s; idle gaps shortened, shaded)"
	}
	if sqrt {
		xlabel = "time (s, square-root scale)"
	}
	f := &panel{p: newPlot(title, xlabel, "workers")}
	p := f.p
	t0, t1 := tm.at(d.Segments[0].Start), tm.at(d.Segments[len(d.Segments)-1].End)
	var top float64
	if rest != nil && len(rest.X) > 0 {
		poly, err := plotter.NewPolygon(bandPoints(*rest))
		if err != nil {
			return nil, fmt.Errorf("plots: plan: %w", err)
		}
		poly.Color = fade(otherColor, 0.85)
		poly.LineStyle.Width = 0
		p.Add(poly)
		for _, y := range rest.Upper {
			top = max(top, y)
		}
	}
	for _, a := range areas {
		if len(a.X) == 0 {
			continue // (no workers ever)
		}
		poly, err := plotter.NewPolygon(bandPoints(a))
		if err != nil {
			return nil, fmt.Errorf("plots: plan: %w", err)
		}
		poly.Color = fade(pal.Color(a.Job), 0.85)
		poly.LineStyle.Width = 0 // a stroke costs minutes on long plans
		p.Add(poly)
		if h := planHatch(a, pal); h.dir != 0 {
			p.Add(h)
		}
		for i := range a.X {
			top = max(top, a.Upper[i])
		}
	}
	// Legend top-down in the stack's order, top job first; past
	// maxLegendJobs one line names the band of the rest (a legend taller
	// than the panel was cut off, the servers line with it).
	for k := len(areas) - 1; k >= 0; k-- {
		j := areas[k].Job
		name := j
		if c, ok := d.Completions[j]; ok {
			name = j + " (done " + num(c) + " s)"
		}
		f.legend(name, swatch{fill: fade(pal.Color(j), 0.85), hatch: pal.Hatch(j)})
	}
	if rest != nil {
		f.legend(fmt.Sprintf("other %d jobs (not marked)", others), swatch{fill: fade(otherColor, 0.85)})
	}
	if d.Servers > 0 {
		top = max(top, d.Servers)
		sl, _ := plotter.NewLine(plotter.XYs{{X: t0, Y: d.Servers}, {X: t1, Y: d.Servers}})
		sl.LineStyle = draw.LineStyle{Color: Ink, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
		p.Add(sl)
		f.legend(serversText(d.Servers), sl)
	}
	// Completion marks above the stack, on rows where they fall close.
	gapTop := top // the shortened gaps' shading: up to the servers (or the stack), not through the marks
	mark := top * 1.04
	marks, left := d.completionMarks(tm, sqrt, jobs[others:])
	if left > 0 {
		// under the axis: the legend has no line to spare
		p.X.Label.Text += fmt.Sprintf("; %s not marked (%d rows full)", words.Count(left, "completion"), maxMarkRows)
	}
	for _, m := range marks {
		t1 = max(t1, m.X)
	}
	markTop := mark
	for _, m := range marks {
		y := mark + float64(m.Level)*top*markRowStep
		markTop = max(markTop, y)
		ml, _ := plotter.NewLine(plotter.XYs{{X: m.X, Y: 0}, {X: m.X, Y: y}})
		ml.LineStyle = draw.LineStyle{Color: pal.Color(m.Job), Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}
		p.Add(ml)
		ms, _ := plotter.NewScatter(plotter.XYs{{X: m.X, Y: y}})
		ms.GlyphStyle = draw.GlyphStyle{Color: pal.Color(m.Job), Radius: vg.Points(4), Shape: invertedTriangle{hatch: pal.Hatch(m.Job)}}
		p.Add(ms)
	}
	mark = markTop
	if tm.compressed() {
		// the shortened gaps, shaded, and an axis labelled in true time
		for _, g := range tm.gaps {
			// (up to the marks' top it read as workers above the
			// servers line)
			poly, err := plotter.NewPolygon(plotter.XYs{{X: g.at, Y: 0}, {X: g.at + tm.width, Y: 0}, {X: g.at + tm.width, Y: gapTop}, {X: g.at, Y: gapTop}})
			if err == nil {
				poly.Color = fade(Ink, 0.1)
				poly.LineStyle.Width = 0
				p.Add(poly)
			}
		}
		p.X.Tick.Marker = tm
	}
	if sqrt {
		p.X.Scale = sqrtScale{origin: t0}
		p.X.Tick.Marker = sqrtTicks{origin: t0}
	}
	// The legend sits outside the stack: to its right.
	p.X.Min, p.X.Max = t0, t1+(t1-t0)*0.02
	p.Y.Min, p.Y.Max = 0, mark*1.05
	p.Legend.Top, p.Legend.Left = true, false
	p.Legend.XOffs = 0
	w := Width + legendWidth(f.longest)
	return &Figure{W: w, H: Height, draw: func(c draw.Canvas) {
		c = margin(c)
		plotC := draw.Crop(c, 0, -legendWidth(f.longest), 0, 0)
		p.Legend.XOffs = legendWidth(f.longest)
		p.Legend.YOffs = -vg.Points(18)
		p.Draw(plotC)
	}}, nil
}

// markRowStep is the height of a row of completion marks, as a fraction of
// the stack's top, and markGap the least distance, as a fraction of the
// time axis, between two marks on one row (a mark is 8 points wide, about
// a fiftieth of the axis).
const (
	markRowStep = 0.065
	markGap     = 0.025
)

// PlanMark is a completion mark as the plan figure draws it: at X on the
// drawn time axis (true time but for shortened idle gaps), on row Level
// above the stack (0: the lowest).
type PlanMark struct {
	Job   string
	X     float64
	Level int
}

// CompletionMarks returns the completion marks of the plan figure, in the
// order of their times: each on the lowest row where no mark within
// markGap of the axis's width stands (vgg16 and resnet50 of the demo,
// done at 2,918 and 2,969 s, hid one triangle under the other).
//
// Only the legend's jobs are marked (past maxLegendJobs + 1 jobs, the rest
// are one band), on at most maxMarkRows rows: a mark with no room on them
// is left out (82,000 marks stacked into more than a thousand rows, the
// axis at 300,000 workers on 500 servers).
func (d PlanData) CompletionMarks() []PlanMark {
	if len(d.Segments) == 0 {
		return nil
	}
	tm := newTimeMap(d.Segments)
	jobs := d.Jobs()
	marks, _ := d.completionMarks(tm, d.sqrtTime(tm), jobs[otherJobs(len(jobs)):])
	return marks
}

// OtherJobs is how many of d's jobs the plan figure draws one by one
// (named) and how many as one grey band, without completion marks
// (others, otherJobs): 0 up to maxLegendJobs + 1 jobs. A caption says so
// (report's said nothing of the band).
func (d PlanData) OtherJobs() (named, others int) {
	n := len(d.Jobs())
	return n - otherJobs(n), otherJobs(n)
}

// otherJobs is how many of n jobs the plan figure draws as one band, the
// bottom of the stack: none up to maxLegendJobs + 1 jobs (one more is
// named rather than counted), else all but the top maxLegendJobs.
func otherJobs(n int) int {
	if n <= maxLegendJobs+1 {
		return 0
	}
	return n - maxLegendJobs
}

// otherColor is the colour of the band of the jobs the legend does not
// name: a grey that no job has.
var otherColor color.Color = color.NRGBA{R: 0xA8, G: 0xA8, B: 0xA8, A: 0xFF}

// maxMarkRows is the most rows of completion marks above the stack.
const maxMarkRows = 5

// bandPoints is a's outline: along its top, then back along its bottom.
func bandPoints(a PlanArea) plotter.XYs {
	pts := make(plotter.XYs, 0, 2*len(a.X))
	for i := range a.X {
		pts = append(pts, plotter.XY{X: a.X[i], Y: a.Upper[i]})
	}
	for i := len(a.X) - 1; i >= 0; i-- {
		pts = append(pts, plotter.XY{X: a.X[i], Y: a.Lower[i]})
	}
	return pts
}

// completionMarks returns the marks of jobs (those with a completion) on
// the time axis tm, and how many of them found no room on maxMarkRows rows
// and were left out.
func (d PlanData) completionMarks(tm timeMap, sqrt bool, jobs []string) (marks []PlanMark, left int) {
	var out []PlanMark
	for _, j := range jobs {
		if c, ok := d.Completions[j]; ok {
			out = append(out, PlanMark{Job: j, X: tm.at(c)})
		}
	}
	if len(out) == 0 {
		return nil, 0
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].X < out[b].X })
	// where each mark falls along the axis, 0 to 1, as drawn
	t0 := tm.at(d.Segments[0].Start)
	t1 := max(tm.at(d.Segments[len(d.Segments)-1].End), out[len(out)-1].X)
	t1 += (t1 - t0) * 0.02
	frac := func(x float64) float64 { return (x - t0) / (t1 - t0) }
	if sqrt {
		frac = func(x float64) float64 { return sqrtScale{origin: t0}.Normalize(t0, t1, x) }
	}
	// the place of the last mark on each row: the marks come in the
	// order of their places, so the last is the nearest (scanning every
	// mark of every row was quadratic)
	var rows []float64
	marks = out[:0]
	for _, m := range out {
		f := frac(m.X)
		level := 0
		for level < len(rows) && f-rows[level] < markGap {
			level++
		}
		if level == maxMarkRows {
			left++
			continue
		}
		if level == len(rows) {
			rows = append(rows, f)
		}
		rows[level] = f
		m.Level = level
		marks = append(marks, m)
	}
	return marks, left
}

// sqrtCrowd is how early in a plan the middle one of the allocation's
// changes must come for a square-root time axis: within this fraction of
// the plan's span from its start.
const sqrtCrowd = 0.15

// SqrtTime says whether the plan figure draws time on a square-root axis:
// when the allocation's changes (the segments' ends and the completions)
// crowd into the start, the middle one of them (the lower of the two
// middle ones of an even count, distinct times counted once) within
// sqrtCrowd of the span (in the demo, at 600 s of 7,297 s: its first 700 s, eight arrivals
// and four completions, were a tenth of a linear axis). Plans with idle
// gaps shortened keep a linear axis (true time within each busy stretch).
func (d PlanData) SqrtTime() bool {
	if len(d.Segments) == 0 {
		return false
	}
	return d.sqrtTime(newTimeMap(d.Segments))
}

// sqrtTime is SqrtTime with d's time map tm, which the figure has built
// already.
func (d PlanData) sqrtTime(tm timeMap) bool {
	if len(d.Segments) == 0 || tm.compressed() {
		return false
	}
	t0, t1 := d.Segments[0].Start, d.Segments[len(d.Segments)-1].End
	var ts []float64
	for _, s := range d.Segments {
		ts = append(ts, s.End)
	}
	for _, c := range d.Completions {
		ts = append(ts, c)
		t1 = max(t1, c)
	}
	sort.Float64s(ts)
	ts = slices.Compact(ts)
	if len(ts) < 4 || !(t1 > t0) {
		return false
	}
	return (ts[(len(ts)-1)/2]-t0)/(t1-t0) < sqrtCrowd
}

// sqrtScale draws an axis at the square root of the time since origin
// (times before it at origin).
type sqrtScale struct{ origin float64 }

func (s sqrtScale) Normalize(min, max, x float64) float64 {
	f := func(v float64) float64 { return math.Sqrt(math.Max(v-s.origin, 0)) }
	lo, hi := f(min), f(max)
	if !(hi > lo) {
		return 0
	}
	return (f(x) - lo) / (hi - lo)
}

// sqrtTicks labels a square-root time axis (sqrtScale) in true time: the
// linear axis's ticks first, then the powers of ten and 5 and 2 times
// them, each kept where it stands at least sqrtTickGap of the axis from
// every label kept before it; those too close stay as unlabelled ticks
// where no tick stands within a quarter of that.
// On an axis whose origin is not 0 the origin is labelled as it is and
// the others as the time since it ("+500").
type sqrtTicks struct{ origin float64 }

// sqrtTickGap is the least distance between two labels of sqrtTicks, as a
// fraction of the axis.
const sqrtTickGap = 0.08

func (st sqrtTicks) Ticks(min, max float64) []plot.Tick {
	span := max - st.origin
	if !(span > 0) || math.IsInf(span, 0) {
		return nil
	}
	sc := sqrtScale{origin: st.origin}
	var cands []float64 // times since the origin, in order of preference
	for _, t := range (niceTicks{}).Ticks(0, span) {
		if t.Label != "" {
			cands = append(cands, t.Value)
		}
	}
	for _, m := range []float64{1, 5, 2} {
		for e := math.Floor(math.Log10(span)); e >= math.Floor(math.Log10(span))-6; e-- {
			cands = append(cands, m*math.Pow(10, e))
		}
	}
	var kept []float64 // the labelled ticks' places on the axis
	var all []float64  // every tick's
	var ts []plot.Tick
	seen := map[float64]bool{}
	for _, v := range cands {
		t := st.origin + v
		if seen[v] || v < 0 || t < min || t > max {
			continue
		}
		seen[v] = true
		f := sc.Normalize(min, max, t)
		label := true
		for _, g := range kept {
			if math.Abs(f-g) < sqrtTickGap {
				label = false
				break
			}
		}
		tick := plot.Tick{Value: t}
		if label {
			kept = append(kept, f)
			switch {
			case st.origin == 0:
				tick.Label = tickLabel(v)
			case v == 0:
				tick.Label = tickLabel(st.origin)
			default:
				tick.Label = "+" + tickLabel(v)
			}
		} else if slices.ContainsFunc(all, func(g float64) bool { return math.Abs(f-g) < sqrtTickGap/4 }) {
			continue // (the small powers of ten crowd the origin)
		}
		all = append(all, f)
		ts = append(ts, tick)
	}
	sort.Slice(ts, func(a, b int) bool { return ts[a].Value < ts[b].Value })
	return ts
}

// maxLegendJobs is the most jobs the plan figure's legend names: with the
// servers line and the line counting the others, as many lines as fit
// beside a panel of Height.
const maxLegendJobs = 22

// legendWidth is the room kept beside a plot for a legend whose longest
// entry has n characters.
func legendWidth(n int) vg.Length {
	return vg.Points(legendSize*0.55*float64(n) + 36)
}

// invertedTriangle is a triangle pointing down at the point.
// invertedTriangle is a completion mark, pointing down at its time. Its
// fill follows the band's stripes (Palette.Hatch), as a line's dashes do,
// so that two jobs of one colour are told apart at their marks too (vgg16
// and async-ps-fitted of the demo, the 9th job and the 1st, had the same
// blue triangle): filled where the band has no stripes (hatch 0), hollow
// where they rise (1), hollow with a dot where they fall (-1).
type invertedTriangle struct{ hatch int }

func (g invertedTriangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	p := vg.Path{}
	p.Move(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y + r*0.8})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r*0.8})
	p.Close()
	if g.hatch == 0 {
		c.SetColor(sty.Color)
		c.Fill(p)
		return
	}
	c.SetColor(color.White)
	c.Fill(p)
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.5)})
	c.Stroke(p)
	if g.hatch < 0 {
		var d vg.Path
		d.Move(vg.Point{X: pt.X + r*0.22, Y: pt.Y + r*0.1})
		d.Arc(vg.Point{X: pt.X, Y: pt.Y + r*0.1}, r*0.22, 0, 2*math.Pi)
		d.Close()
		c.SetColor(sty.Color)
		c.Fill(d)
	}
}

// timeMap draws a plan's time axis with its long idle gaps shortened: the
// busy stretches keep their lengths, and every gap longer than a quarter
// of all the busy time is drawn width wide (a twentieth of the busy time,
// less when more than five gaps would take more than a quarter of it).
// Without such gaps it is the identity.
type timeMap struct {
	gaps  []timeGap
	width float64 // drawn width of a shortened gap
	runs  [][2]float64
}

// timeGap is a shortened gap: it runs from start to end in true time and
// is drawn from at to at + width.
type timeGap struct{ start, end, at float64 }

func newTimeMap(segs []PlanSegment) timeMap {
	var tm timeMap
	if len(segs) == 0 {
		return tm
	}
	// the busy stretches: segments joined where no gap parts them
	runs := [][2]float64{{segs[0].Start, segs[0].End}}
	for _, s := range segs[1:] {
		if last := &runs[len(runs)-1]; s.Start <= last[1] {
			last[1] = math.Max(last[1], s.End)
		} else {
			runs = append(runs, [2]float64{s.Start, s.End})
		}
	}
	busy := 0.0
	for _, r := range runs {
		busy += r[1] - r[0]
	}
	for i := 1; i < len(runs); i++ {
		if start, end := runs[i-1][1], runs[i][0]; end-start > busy/4 {
			tm.gaps = append(tm.gaps, timeGap{start: start, end: end})
		}
	}
	// a twentieth of the busy time each, and a quarter in all when there
	// are many (a trace of weeks had more shading than work)
	tm.width = busy / math.Max(20, 4*float64(len(tm.gaps)))
	shift := 0.0 // true time removed by the gaps so far
	for i := range tm.gaps {
		g := &tm.gaps[i]
		g.at = g.start - shift
		shift += g.end - g.start - tm.width
	}
	if len(tm.gaps) > 0 {
		tm.runs = runs
	}
	return tm
}

func (tm timeMap) compressed() bool { return len(tm.gaps) > 0 }

// at is where true time t is drawn (a binary search over the gaps: a plan
// of thousands of segments and gaps maps every segment).
func (tm timeMap) at(t float64) float64 {
	// the first gap that ends after t
	k := sort.Search(len(tm.gaps), func(i int) bool { return tm.gaps[i].end > t })
	if k < len(tm.gaps) && t > tm.gaps[k].start {
		g := tm.gaps[k]
		return g.at + (t-g.start)/(g.end-g.start)*tm.width
	}
	if k == 0 {
		return t
	}
	g := tm.gaps[k-1] // past it, the axis is true time shifted
	return t - (g.end - (g.at + tm.width))
}

// Ticks labels the drawn axis in true time: each busy stretch's start,
// and within a stretch drawn wide enough, nice ticks of the time since its
// start ("+500": at 1e+06 s, 1e+06 + 500 reads as 1e+06 again).
func (tm timeMap) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	span := hi - lo
	last := math.Inf(-1) // where the last stretch's start label is drawn
	label := tickLabel
	if n := len(tm.runs); n > 0 && tm.runs[n-1][0] >= 1e6 {
		// one notation along the axis: tickLabel writes 604490 plain
		// and 1.285e+06 in exponent form, side by side
		label = func(v float64) string {
			if v == 0 {
				return "0"
			}
			// 4 digits, the trailing zeros dropped: 1e+06, 6.045e+05
			m, e, _ := strings.Cut(strconv.FormatFloat(v, 'e', 3, 64), "e")
			return strings.TrimSuffix(strings.TrimRight(m, "0"), ".") + "e" + e
		}
	}
	lastLen := 0 // the length of the last stretch's start label
	for i, r := range tm.runs {
		a, b := tm.at(r[0]), tm.at(r[1])
		t := plot.Tick{Value: a}
		// (many short stretches, a job a day: labels one over another;
		// labels of 9 characters, "2.638e+06", ran together 11% apart:
		// the gap grows with the labels' lengths past 6)
		if l := label(r[0]); (a-last)/span >= 0.11*math.Max(1, float64(len(l)+lastLen)/12) {
			t.Label, last, lastLen = l, a, len(l)
		}
		ts = append(ts, t)
		if (b-a)/span < 0.2 {
			continue
		}
		next := math.Inf(1) // where the next stretch's label is drawn
		if i+1 < len(tm.runs) {
			next = tm.at(tm.runs[i+1][0])
		}
		for _, nt := range (niceTicks{}).Ticks(0, r[1]-r[0]) {
			x := a + nt.Value // (inside a stretch the axis is true time)
			if nt.Label != "" && ((x-a)/span < 0.08 || (next-x)/span < 0.08) {
				nt.Label = "" // too close to a stretch's start label
			}
			if nt.Label != "" && r[0] != 0 {
				nt.Label = "+" + nt.Label
			}
			ts = append(ts, plot.Tick{Value: x, Label: nt.Label})
		}
	}
	return ts
}
