package plots

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// manyJobsPlan is a plan of n jobs on servers workers over segs segments
// (segs > MaxDrawnSegments: the figure bins it): job i arrives in segment
// i*segs/n and holds 1 to 4 workers (less when the cluster is full) for 5
// to 40 segments, done at the end of its last one. Many finish in each
// segment, so their marks, every one drawn, stacked into hundreds of rows.
func manyJobsPlan(n, segs int, servers float64) PlanData {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	d := PlanData{Policy: "fifo", Servers: servers, Completions: map[string]float64{}}
	d.Segments = make([]PlanSegment, segs)
	for i := range d.Segments {
		d.Segments[i] = PlanSegment{Start: float64(i), End: float64(i + 1), Alloc: map[string]float64{}}
	}
	used := make([]float64, segs)
	for j := range n {
		name := fmt.Sprintf("job%05d", j)
		first := j * segs / n
		last := min(segs-1, first+5+rng.IntN(36))
		w := 1 + float64(rng.IntN(4))
		for i := first; i <= last; i++ {
			if a := min(w, servers-used[i]); a > 0 {
				d.Segments[i].Alloc[name] = a
				used[i] += a
			}
		}
		d.Completions[name] = float64(last + 1)
	}
	return d
}

// A plan of thousands of jobs draws the legend's jobs and one band for the
// rest, so its bands and their points do not grow with the jobs; its marks
// stay on maxMarkRows rows, and the y axis near the servers (82,000 Philly
// jobs had a band, and a mark stacked row on row, each: 9.4 GB, and an
// axis to 300,000 workers on 500 servers).
func TestPlanFigureManyJobs(t *testing.T) {
	const servers = 512
	d := manyJobsPlan(5000, 2*MaxDrawnSegments, servers)
	drawn, tm, sqrt := d.drawnSegments()
	jobs := drawn.Jobs()
	others := otherJobs(len(jobs))
	if others != len(jobs)-maxLegendJobs {
		t.Fatalf("%d jobs: %d in the others' band, want all but %d", len(jobs), others, maxLegendJobs)
	}
	rest, areas := drawn.stack(jobs, others)
	if rest == nil || len(areas) != maxLegendJobs {
		t.Fatalf("bands: rest %v and %d of jobs, want one band of the rest and %d", rest != nil, len(areas), maxLegendJobs)
	}
	// every band at most 4 points a drawn segment (two, and two for a gap)
	pts := len(rest.X)
	for _, a := range areas {
		pts += len(a.X)
	}
	if limit := (maxLegendJobs + 1) * 4 * len(drawn.Segments); pts > limit {
		t.Errorf("%d points in the bands, want at most %d", pts, limit)
	}
	// the stack's top is the allocation's: the rest under the named jobs
	for i, s := range drawn.Segments {
		var sum float64
		for _, a := range s.Alloc {
			sum += a
		}
		top := 0.0
		for _, a := range append([]PlanArea{*rest}, areas...) {
			for k := range a.X {
				if a.X[k] == s.Start && k+1 < len(a.X) && a.X[k+1] == s.End {
					top = max(top, a.Upper[k])
				}
			}
		}
		if !within(top, sum, 1e-9) {
			t.Fatalf("segment %d: stack's top %g, want the %g workers allocated", i, top, sum)
		}
	}
	// the named jobs are those that hold the most worker-seconds
	area := map[string]float64{}
	for _, s := range drawn.Segments {
		for j, a := range s.Alloc {
			area[j] += a * (s.End - s.Start)
		}
	}
	least := area[jobs[others]]
	for _, j := range jobs[others:] {
		least = min(least, area[j])
	}
	for _, j := range jobs[:others] {
		if area[j] > least*(1+1e-9) {
			t.Fatalf("job %s in the others' band holds %g worker-seconds, more than a named job's %g", j, area[j], least)
		}
	}
	marks, left := d.completionMarks(tm, sqrt, jobs[others:])
	if len(marks)+left != maxLegendJobs {
		t.Errorf("%d marks and %d left out, want %d in all", len(marks), left, maxLegendJobs)
	}
	for _, m := range marks {
		if m.Level >= maxMarkRows {
			t.Errorf("%s on row %d, want below %d", m.Job, m.Level, maxMarkRows)
		}
	}

	f, err := PlanFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	acts := recordedM7(f)
	// the bands and their legend swatches are the fills faded to 0.85
	bands := 0
	for _, fl := range fillsM7(acts) {
		if _, _, _, a := fl.col.RGBA(); a>>8 == 217 {
			bands++
		}
	}
	if want := 2 * (maxLegendJobs + 1); bands != want {
		t.Errorf("%d bands and swatches drawn, want %d", bands, want)
	}
	// the y axis's labels (those not on the x axis's line) stop near the
	// servers
	tx := textsM7(acts)
	var bottom float64 = 1e300
	for s, at := range tx {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			for _, p := range at {
				bottom = min(bottom, float64(p.Y))
			}
		}
	}
	top := 0.0
	for s, at := range tx {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			continue
		}
		for _, p := range at {
			if float64(p.Y) > bottom {
				top = max(top, v)
			}
		}
	}
	if top < servers || top > 1.5*servers {
		t.Errorf("y axis labelled up to %g, want near the %d servers", top, servers)
	}
	s := svgText(t, f)
	if !strings.Contains(s, fmt.Sprintf("other %d jobs", others)) {
		t.Errorf("legend: no %q", fmt.Sprintf("other %d jobs", others))
	}
	if left > 0 != strings.Contains(s, " not marked (") {
		t.Errorf("%d marks left out; the axis label says %v", left, strings.Contains(s, " not marked ("))
	}
}

// The named jobs' marks stay on maxMarkRows rows, the rest left out and
// counted under the axis: 40 jobs of one size, all done in the last
// segment (the named ones are then the first 22 by the stacking order).
func TestPlanFigureMarksLeftOut(t *testing.T) {
	d := PlanData{Policy: "equi", Servers: 40, Completions: map[string]float64{}}
	d.Segments = []PlanSegment{{Start: 0, End: 10, Alloc: map[string]float64{}}}
	for j := range 40 {
		name := fmt.Sprintf("job%02d", j)
		d.Segments[0].Alloc[name] = 1
		d.Completions[name] = 10
	}
	jobs := d.Jobs()
	others := otherJobs(len(jobs))
	tm := newTimeMap(d.Segments)
	marks, left := d.completionMarks(tm, d.sqrtTime(tm), jobs[others:])
	if len(marks)+left != maxLegendJobs || left == 0 || len(marks) != maxMarkRows {
		t.Errorf("%d marks and %d left out, want %d on %d rows and the rest left out", len(marks), left, maxMarkRows, maxMarkRows)
	}
	f, err := PlanFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	if s := svgText(t, f); !strings.Contains(s, fmt.Sprintf("%d completions not marked", left)) {
		t.Errorf("axis label: no %q", fmt.Sprintf("%d completions not marked", left))
	}
}

// Segments given as the planner's slices (Jobs indexing Names, Workers)
// draw what the same allocation as maps draws, byte for byte, short (each
// segment drawn) and long (binned); indices out of Names are an error.
func TestPlanSegmentSlices(t *testing.T) {
	for _, segs := range []int{50, 2 * MaxDrawnSegments} {
		d := manyJobsPlan(200, segs, 512)
		s := d
		s.Names = d.Jobs()
		index := map[string]int{}
		for k, j := range s.Names {
			index[j] = k
		}
		s.Segments = nil
		for _, g := range d.Segments {
			sg := PlanSegment{Start: g.Start, End: g.End}
			for _, j := range slices.Sorted(maps.Keys(g.Alloc)) {
				sg.Jobs = append(sg.Jobs, index[j])
				sg.Workers = append(sg.Workers, g.Alloc[j])
			}
			s.Segments = append(s.Segments, sg)
		}
		want, err := d.Areas()
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Areas()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%d segments: Areas from slices differ (%v)", segs, err)
		}
		png := func(d PlanData) []byte { return figurePNG(t, func() (*Figure, error) { return PlanFigure(d) }) }
		if !bytes.Equal(png(s), png(d)) {
			t.Errorf("%d segments: the figure from slices differs", segs)
		}
		if segs == 50 {
			s.Segments[3].Jobs = append(slices.Clone(s.Segments[3].Jobs), len(s.Names))
			s.Segments[3].Workers = append(slices.Clone(s.Segments[3].Workers), 0)
			_, err = PlanFigure(s)
			wantErr(t, "index", err, "plan", fmt.Sprintf("segment 3: job %d of %d names", len(s.Names), len(s.Names)))
			s.Segments[3].Workers = s.Segments[3].Workers[:1]
			_, err = PlanFigure(s)
			wantErr(t, "lengths", err, "plan", "segment 3:")
		}
	}
}

// A time axis with idle gaps shortened labels each busy stretch's start
// in one notation once one starts at 10^6 s or later: it wrote "604490"
// beside "1.285e+06".
func TestPlanTimeMapOneNotation(t *testing.T) {
	segs := []PlanSegment{
		{Start: 0, End: 100, Alloc: map[string]float64{"a": 1}},
		{Start: 604490, End: 604590, Alloc: map[string]float64{"a": 1}},
		{Start: 1285000, End: 1285100, Alloc: map[string]float64{"a": 1}},
	}
	tm := newTimeMap(segs)
	if !tm.compressed() {
		t.Fatal("no gap shortened: the test's premise")
	}
	starts := map[float64]bool{tm.at(0): true, tm.at(604490): true, tm.at(1285000): true}
	var labels []string
	for _, tk := range tm.Ticks(tm.at(0), tm.at(1285100)) {
		if starts[tk.Value] && tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"0", "6.045e+05", "1.285e+06"}
	if !slices.Equal(labels, want) {
		t.Errorf("stretch labels %q, want %q", labels, want)
	}
}

// Two stretch starts 13% of the axis apart, "2.638e+06" and "2.838e+06",
// ran together ("2.638e+062.838e+06" on ITP's cluster10): the gap a label
// needs grows with the labels' lengths.
func TestPlanTimeMapLabelsApart(t *testing.T) {
	segs := []PlanSegment{
		{Start: 0, End: 100, Alloc: map[string]float64{"a": 1}},
		{Start: 2.638e6, End: 2.638e6 + 20, Alloc: map[string]float64{"a": 1}},
		{Start: 2.838e6, End: 2.838e6 + 100, Alloc: map[string]float64{"a": 1}},
	}
	tm := newTimeMap(segs)
	lo, hi := tm.at(0), tm.at(2.838e6+100)
	if f := (tm.at(2.838e6) - tm.at(2.638e6)) / (hi - lo); f < 0.11 || f > 0.16 {
		t.Fatalf("the starts %.3g of the axis apart: the test's premise is 0.11 to 0.16", f)
	}
	var labels []string
	for _, tk := range tm.Ticks(lo, hi) {
		if tk.Value == tm.at(2.638e6) || tk.Value == tm.at(2.838e6) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
	}
	if len(labels) != 1 {
		t.Errorf("labels at the two close starts %q, want one", labels)
	}
}
