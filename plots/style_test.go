package plots

import (
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotter"
)

func TestTickLabel(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {0.4, "0.4"}, {25, "25"}, {20000, "20000"}, {0.30000000000000004, "0.3"},
		{-1.5, "-1.5"}, {2e6, "2e+06"}, {2.5e-5, "2.5e-05"},
		// exponent form keeps 4 significant digits, as num does (it kept
		// 3: 1.23e+06 and 1.23e-05)
		{1234567, "1.235e+06"}, {-1234567, "-1.235e+06"}, {1.2345e-5, "1.234e-05"}, {1.23456e-5, "1.235e-05"},
	} {
		if got := tickLabel(c.v); got != c.want {
			t.Errorf("tickLabel(%g) = %q, want %q", c.v, got, c.want)
		}
		if got := num(c.v); got != c.want && c.v != 0.30000000000000004 {
			t.Errorf("num(%g) = %q, tickLabel %q: want them alike", c.v, got, c.want)
		}
	}
}

// Labelled ticks in exponent form are told apart from their neighbours:
// ticks 200 apart from 1e+06 (the range 1e6 to 1e6+1000, step 1000/6 up
// to 200) need 5 digits, 1.0002e+06; a step of 2.5 times a power of ten
// needs one digit more than its power (2.5e5 apart from 1e7: 1.025e+07);
// wide ranges keep the nice 1, 2, 2.5 and 5 (2e+06, 2.5e+06). With 3
// digits (and with 4 alone) the first range's ticks all read 1e+06, and
// 3 digits wrote 1.23e-05 for the last range's 1.231e-05 to 1.236e-05.
func TestNiceTicksExponentLabels(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		// step niceStep(1000/6) = 200
		{1e6, 1e6 + 1000, []string{"1e+06", "1.0002e+06", "1.0004e+06", "1.0006e+06", "1.0008e+06", "1.001e+06"}},
		// step niceStep(1.5e6/6) = 2.5e5
		{1e7, 1.15e7, []string{"1e+07", "1.025e+07", "1.05e+07", "1.075e+07", "1.1e+07", "1.125e+07", "1.15e+07"}},
		// step niceStep(3e6/6) = 5e5
		{0, 3e6, []string{"0", "500000", "1e+06", "1.5e+06", "2e+06", "2.5e+06", "3e+06"}},
		// step niceStep(6e-8/6) = 1e-8
		{1.23e-5, 1.236e-5, []string{"1.23e-05", "1.231e-05", "1.232e-05", "1.233e-05", "1.234e-05", "1.235e-05", "1.236e-05"}},
	} {
		if got := tickLabels(c.lo, c.hi); !slices.Equal(got, c.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

func TestPaletteStable(t *testing.T) {
	// The mapping depends on the set of names, not their order.
	a := NewPalette("lstm", "bert", "resnet")
	b := NewPalette("resnet", "lstm", "bert", "bert")
	for _, n := range []string{"bert", "lstm", "resnet"} {
		if a.Color(n) != b.Color(n) {
			t.Errorf("%s: colour depends on order", n)
		}
	}
	// Sorted: bert 0, lstm 1, resnet 2.
	if a.Slot("bert") != 0 || a.Slot("lstm") != 1 || a.Slot("resnet") != 2 {
		t.Errorf("slots bert %d lstm %d resnet %d, want 0 1 2", a.Slot("bert"), a.Slot("lstm"), a.Slot("resnet"))
	}
	// Policies keep their colour whatever else is in the figure.
	p1 := NewPalette("equi", "fifo")
	p2 := NewPalette("hesrpt", "equi", "srpt")
	if p1.Color("equi") != p2.Color("equi") || p1.Color("equi") != OkabeIto[1] {
		t.Errorf("equi's colour changes between figures")
	}
	// All ten policies are distinguishable.
	all := NewPalette("hesrpt", "hesrpt-slowdown", "equi", "srpt", "fifo", "sjf", "knee", "hell", "greedy", "fcfs-rigid")
	type look struct {
		c    color.Color
		dash int
	}
	looks := map[look]string{}
	for _, n := range []string{"hesrpt", "hesrpt-slowdown", "equi", "srpt", "fifo", "sjf", "knee", "hell", "greedy", "fcfs-rigid"} {
		l := look{all.Color(n), len(all.Dashes(n))}
		if o, ok := looks[l]; ok {
			t.Errorf("policies %s and %s look the same", n, o)
		}
		looks[l] = n
	}
	// Numeric names sort by value: 2 before 10.
	w := NewPalette("10", "2", "4")
	if w.Slot("2") != 0 || w.Slot("4") != 1 || w.Slot("10") != 2 {
		t.Errorf("numeric names: slots 2:%d 4:%d 10:%d, want 0 1 2", w.Slot("2"), w.Slot("4"), w.Slot("10"))
	}
	// Ten names: distinct (colour, dash) pairs.
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	p := NewPalette(names...)
	type style struct {
		c    color.Color
		dash int
	}
	seen := map[style]string{}
	for _, n := range names {
		s := style{p.Color(n), len(p.Dashes(n))}
		if o, ok := seen[s]; ok {
			t.Errorf("%s and %s share colour and dashes", n, o)
		}
		seen[s] = n
	}
}

func TestLegendCorner(t *testing.T) {
	// Axes [0, 10] x [0, 10], legend box 30% x 20%. Points fill the top
	// left (1, 9) and top right (9, 9): the bottom left is first free.
	pts := []XY{{1, 9}, {9, 9}, {5, 5}}
	if c, n := legendCorner(0, 10, 0, 10, pts, 0.3, 0.2); c != BottomLeft || n != 0 {
		t.Errorf("corner %d (%d points), want BottomLeft with none", c, n)
	}
	// A rising line leaves the top left free.
	pts = []XY{{0, 0}, {2.5, 2.5}, {5, 5}, {7.5, 7.5}, {10, 10}}
	if c, _ := legendCorner(0, 10, 0, 10, pts, 0.3, 0.2); c != TopLeft {
		t.Errorf("rising line: corner %d, want TopLeft", c)
	}
}

// When every corner holds data the y axis grows until one top corner is
// free, the one with the lower data beneath it: axes [0, 10] x [0, 10],
// legend box 30% x 20%, the data reaching 10 on the left and 9 on the
// right, both bottom corners taken. The top right is freed when 9 ends
// below 1-0.2-0.03 = 0.77 of the axis: at 9/0.77 = 11.688; the left would
// need 10/0.77 = 12.987, to which the axis grew before (from its top,
// wherever the data were highest).
func TestRoomAtTop(t *testing.T) {
	pts := []XY{{1, 10}, {2, 6}, {9, 9}, {5, 3}, {1, 0.5}, {9, 0.5}}
	if c, n := legendCorner(0, 10, 0, 10, pts, 0.3, 0.2); n == 0 {
		t.Fatalf("corner %d is free, want every corner taken", c)
	}
	top := roomAtTop(0, 10, 0, 10, pts, 0.3, 0.2)
	if !within(top, 9/0.77, 1e-12) {
		t.Errorf("y axis grows to %g, want 9/0.77 = %g", top, 9/0.77)
	}
	if c, n := legendCorner(0, 10, 0, top, pts, 0.3, 0.2); c != TopRight || n != 0 {
		t.Errorf("after growing: corner %d (%d points), want TopRight with none", c, n)
	}
	// Points outside the axes are not drawn: they take no corner.
	if c, n := legendCorner(0, 10, 0, 10, []XY{{1, 12}, {9, -1}, {11, 5}}, 0.3, 0.2); c != TopLeft || n != 0 {
		t.Errorf("points outside the axes: corner %d (%d points), want TopLeft with none", c, n)
	}
}

func TestNiceTicks(t *testing.T) {
	// [0, 28.6]: raw step 28.6/6 = 4.77 → 5; labels 0, 5, ..., 25.
	var labels []string
	for _, tk := range (niceTicks{}).Ticks(0, 28.6) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0 5 10 15 20 25" {
		t.Errorf("labels %q, want 0 5 10 15 20 25", got)
	}
	// [0.17, 2.2]: raw 0.338 → 0.5; labels 0.5 1 1.5 2.
	labels = nil
	for _, tk := range (niceTicks{}).Ticks(0.17, 2.2) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0.5 1 1.5 2" {
		t.Errorf("labels %q, want 0.5 1 1.5 2", got)
	}
}

// A job named like a policy keeps the policy's style, and the other jobs
// go around it: "a" took slot 0 beside a job "hesrpt" (slot 0), and the
// two jobs of one plan looked the same.
func TestPaletteNameLikePolicy(t *testing.T) {
	p := NewPalette("b", "hesrpt", "a", "equi", "c")
	slots := map[int]string{}
	for _, n := range []string{"a", "b", "c", "hesrpt", "equi"} {
		if o, ok := slots[p.Slot(n)]; ok {
			t.Errorf("%s and %s share slot %d", n, o, p.Slot(n))
		}
		slots[p.Slot(n)] = n
	}
	if p.Slot("hesrpt") != 0 || p.Slot("equi") != 1 || p.Slot("a") != 2 || p.Slot("b") != 3 || p.Slot("c") != 4 {
		t.Errorf("slots hesrpt %d equi %d a %d b %d c %d, want 0 1 2 3 4", p.Slot("hesrpt"), p.Slot("equi"), p.Slot("a"), p.Slot("b"), p.Slot("c"))
	}
}

// Labelled ticks in plain form are told apart from their neighbours too:
// plain form wrote 6 significant digits, so ticks 0.1 apart from 100000
// all read "100000" and ticks 0.002 apart from 123456 all read "123456".
// Ticks that 6 digits tell apart keep their labels (0.3, not
// 0.30000000000000004).
func TestNiceTicksPlainLabels(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		// step niceStep(0.6/6) = 0.1; the end's tick is drawn since ticks
		// are no longer summed step by step (the sum's rounding put it
		// past the end)
		{100000, 100000.6, []string{"100000", "100000.1", "100000.2", "100000.3", "100000.4", "100000.5", "100000.6"}},
		// step niceStep(0.012/6) = 0.002
		{123456, 123456.012, []string{"123456", "123456.002", "123456.004", "123456.006", "123456.008", "123456.01", "123456.012"}},
		// step niceStep(3/6) = 0.5
		{500000, 500003, []string{"500000", "500000.5", "500001", "500001.5", "500002", "500002.5", "500003"}},
		{0, 0.6, []string{"0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6"}},
	} {
		if got := tickLabels(c.lo, c.hi); !slices.Equal(got, c.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

// tickLabels are the labels niceTicks writes on [lo, hi], the unlabelled
// minor ticks left out.
func tickLabels(lo, hi float64) []string {
	var got []string
	for _, tk := range (niceTicks{}).Ticks(lo, hi) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	return got
}

// An axis whose values are a few units in the last place apart (a flat
// line with rounding noise) gets one tick in the middle, and a figure of
// it is drawn: the tick loop never ended there (a minor step below
// float64's resolution left the loop variable as it was). Ranges just wide
// enough for labelled ticks keep them, each label different.
func TestTicksNarrowRange(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		ulp := math.Nextafter(1, 2) - 1
		for _, hi := range []float64{1 + ulp, 1 + 4*ulp, 1 + 1e-14, 1 + 1e-10} {
			ts := (niceTicks{}).Ticks(1, hi)
			if len(ts) != 1 || ts[0].Label != "1" || !(ts[0].Value >= 1 && ts[0].Value <= hi) {
				t.Errorf("[1, 1%+g]: ticks %v, want one labelled 1 inside", hi-1, ts)
			}
		}
		// ranges wider than float64 holds, or of subnormal width: the
		// loop never ended there either (NaN ticks)
		for _, r := range [][2]float64{{-1.5e308, 1.5e308}, {-1e308, 1.7e308}, {-5e-324, 5e-324}, {0, 1.7e308}} {
			if ts := (niceTicks{}).Ticks(r[0], r[1]); len(ts) == 0 || len(ts) > 100 {
				t.Errorf("[%g, %g]: %d ticks", r[0], r[1], len(ts))
			} else {
				for _, tk := range ts {
					if math.IsNaN(tk.Value) || math.IsInf(tk.Value, 0) {
						t.Errorf("[%g, %g]: a tick at %g", r[0], r[1], tk.Value)
					}
				}
			}
		}
		if got := tickLabels(-3e-7, -3e-7+1e-17); len(got) != 1 {
			t.Errorf("narrow negative range: labels %q, want one", got)
		}
		got := tickLabels(1, 1+1e-8)
		if len(got) < 4 || len(got) != len(slices.Compact(slices.Clone(got))) {
			t.Errorf("[1, 1+1e-8]: labels %q, want 4 or more, all different", got)
		}
		p := newPlot("flat", "x", "y")
		l, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 1 + 2*ulp}})
		if err != nil {
			t.Error(err)
			return
		}
		p.Add(l)
		if _, err := p.WriterTo(300, 200, "png"); err != nil {
			t.Error(err)
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("ticks of a narrow range did not end within a minute")
	}
}

// A strip (the fit's residual panel, a quarter of the figure) gets 2 to 5
// labelled ticks and one minor tick between two: it had the full axis's
// ticks, a minor one every unit on the demo's ±13.8% (27 in a strip 1.4
// inches high).
func TestNiceTicksStrip(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
		ticks  int
	}{
		{-13.8, 13.8, "-10 0 10", 5}, // the demo's residuals, ±12% (x 1.15)
		{-1.15, 1.15, "-1 0 1", 5},   // the strip's least range
		{-57.5, 57.5, "-50 0 50", 5}, // raw step 28.75 -> 50
		{-23.1, 23.1, "-20 0 20", 5}, // raw 11.55 -> 20: two intervals, the fewest
		{-4.9, 4.9, "-2.5 0 2.5", 7}, // raw 2.45 -> 2.5, minor ticks 1.25 apart
	} {
		var labels []string
		ts := (niceTicks{strip: true}).Ticks(c.lo, c.hi)
		for _, tk := range ts {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.want || len(ts) != c.ticks {
			t.Errorf("strip [%g, %g]: labels %q of %d ticks, want %q of %d", c.lo, c.hi, got, len(ts), c.want, c.ticks)
		}
	}
	if n := len((niceTicks{}).Ticks(-13.8, 13.8)); n != 27 {
		t.Errorf("full axis [-13.8, 13.8]: %d ticks, want 27 (a minor tick a unit)", n)
	}
}
