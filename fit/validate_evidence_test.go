package fit

import (
	"math"
	"sort"
	"strconv"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// Four measured points against intervals of ±10% around 10 steps/s:
//
//	measured 10   in  [9, 11]
//	measured 11   in  (the upper end counts)
//	measured 12   out
//	measured 8.5  out
//
// so 2 of 4 inside; every width is (11 - 9)/10 = 0.2.
func TestCountCoverageHandCount(t *testing.T) {
	test := []Point{
		{Config: model.Config{Workers: 1}, StepsPerS: 10},
		{Config: model.Config{Workers: 2}, StepsPerS: 11},
		{Config: model.Config{Workers: 3}, StepsPerS: 12},
		{Config: model.Config{Workers: 4}, StepsPerS: 8.5},
	}
	c := CountCoverage(test, func(model.Config) Interval { return Interval{Value: 10, Lo: 9, Hi: 11} })
	if c.Points != 4 || c.Inside != 2 || c.Fraction() != 0.5 {
		t.Errorf("points %d inside %d fraction %g, want 4, 2, 0.5", c.Points, c.Inside, c.Fraction())
	}
	if m := c.MedianWidth(); math.Abs(m-0.2) > 1e-12 {
		t.Errorf("median width %g, want 0.2", m)
	}
	// A NaN interval covers nothing.
	c = CountCoverage(test[:1], func(model.Config) Interval { return Interval{Value: 10, Lo: math.NaN(), Hi: 11} })
	if c.Inside != 0 {
		t.Errorf("NaN interval: inside %d, want 0", c.Inside)
	}
	// The lower end counts as the upper does ("ends included"): measured
	// 9 in [9, 11] and 9 in [9, 9] (a point interval) are inside, 8.999
	// is not: 2 of 3.
	ends := []Point{{StepsPerS: 9}, {StepsPerS: 9}, {StepsPerS: 8.999}}
	ivs := []Interval{{Value: 10, Lo: 9, Hi: 11}, {Value: 9, Lo: 9, Hi: 9}, {Value: 10, Lo: 9, Hi: 11}}
	i := 0
	c = CountCoverage(ends, func(model.Config) Interval { i++; return ivs[i-1] })
	if c.Points != 3 || c.Inside != 2 {
		t.Errorf("at the lower end: %d of %d inside, want 2 of 3", c.Inside, c.Points)
	}
}

// CoverageAuto counts against the very interval predict prints: a recount
// with tf.PredictInterval on the same fit gives the same number, and the
// test points are those of the series.
func TestCoverageAutoMatchesPredictInterval(t *testing.T) {
	th := []float64{0.01, 0.002, 0.02} // overhead: T = 0.01 + 0.002 b + 0.02 (w-1)
	f := families["overhead"]
	mk := func(w int, noise float64) Point {
		c := model.Config{Workers: w, Batch: 32}
		return Point{Config: c, StepsPerS: f.Predict(th, c) * noise, SamplesPerStep: 32 * float64(w)}
	}
	s := Series{
		Train: []Point{mk(1, 1.01), mk(2, 0.99), mk(3, 1.02), mk(4, 0.98)},
		Test:  []Point{mk(6, 1), mk(8, 0.7), mk(12, 1.03)},
	}
	c := CoverageAuto(s, Settings{Bootstrap: 50}, 0.9)
	if c.Err != "" {
		t.Fatal(c.Err)
	}
	tf, _, err := FitThroughput(s.Train, "auto", &Settings{Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	in := 0
	for _, p := range s.Test {
		iv := tf.PredictInterval(p.Config, 0.9)
		if iv.Lo <= p.StepsPerS && p.StepsPerS <= iv.Hi {
			in++
		}
	}
	if c.Points != 3 || c.Inside != in || c.Family != tf.Family.Name || c.Resamples != len(tf.Samples) {
		t.Errorf("coverage %+v; recount %d inside, family %s, %d samples", c, in, tf.Family.Name, len(tf.Samples))
	}
}

// keysOf lists the configurations of pts (Point.Key plus the batch), sorted.
func keysOf(pts []Point) []string {
	var ks []string
	for _, p := range pts {
		ks = append(ks, p.Key()+" b="+ftoa(p.Config.Batch))
	}
	sort.Strings(ks)
	return ks
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func TestOneMoreMovesTheSmallestTestConfiguration(t *testing.T) {
	pt := func(w, nodes, ps int, b float64) Point {
		return Point{Config: model.Config{Workers: w, Nodes: nodes, PS: ps, Batch: b}, StepsPerS: 1}
	}
	cases := []struct {
		name        string
		s           Series
		moved, left int
		want        []Point // the points that must move
		what        string
	}{
		{
			// pollux: 2 GPUs on 2 nodes at two local batches move; 4 GPUs
			// on 2 nodes and 3 GPUs on 3 nodes stay.
			name: "pollux",
			s: Series{Dataset: "pollux-osdi21",
				Train: []Point{pt(1, 1, 0, 8), pt(4, 1, 0, 8)},
				Test:  []Point{pt(4, 2, 0, 8), pt(2, 2, 0, 8), pt(3, 3, 0, 8), pt(2, 2, 0, 16)}},
			moved: 2, left: 2, want: []Point{pt(2, 2, 0, 8), pt(2, 2, 0, 16)}, what: "2 GPUs on 2 nodes",
		},
		{
			name: "elasticflow",
			s: Series{Dataset: "elasticflow-asplos23",
				Train: []Point{pt(1, 1, 0, 64), pt(8, 1, 0, 8)},
				Test:  []Point{pt(32, 4, 0, 2), pt(16, 2, 0, 4), pt(64, 8, 0, 1)}},
			moved: 1, left: 2, want: []Point{pt(16, 2, 0, 4)}, what: "16 GPUs",
		},
		{
			// dl2: a 4 x 4 grid trained on its 2 x 2 corner; the 3 x 3
			// block adds (1,3), (2,3), (3,1), (3,2), (3,3); 16 - 4 - 5 = 7
			// points stay.
			name: "dl2",
			s: func() Series {
				s := Series{Dataset: "dl2-mxnet-ps-speed"}
				for w := 1; w <= 4; w++ {
					for p := 1; p <= 4; p++ {
						if w <= 2 && p <= 2 {
							s.Train = append(s.Train, pt(w, 0, p, 32))
						} else {
							s.Test = append(s.Test, pt(w, 0, p, 32))
						}
					}
				}
				return s
			}(),
			moved: 5, left: 7, want: []Point{pt(1, 0, 3, 32), pt(2, 0, 3, 32), pt(3, 0, 1, 32), pt(3, 0, 2, 32), pt(3, 0, 3, 32)},
			what: "workers 1,2,3 x ps 1,2,3",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, what, err := OneMore(tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if what != tc.what {
				t.Errorf("what %q, want %q", what, tc.what)
			}
			if len(o.Train) != len(tc.s.Train)+tc.moved || len(o.Test) != tc.left {
				t.Fatalf("train %d test %d, want %d and %d", len(o.Train), len(o.Test), len(tc.s.Train)+tc.moved, tc.left)
			}
			got := keysOf(o.Train[len(tc.s.Train):])
			want := keysOf(tc.want)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("moved %v, want %v", got, want)
					break
				}
			}
			// Nothing is lost or duplicated, and the input is not mutated.
			all := keysOf(append(append([]Point(nil), o.Train...), o.Test...))
			orig := keysOf(append(append([]Point(nil), tc.s.Train...), tc.s.Test...))
			if len(all) != len(orig) {
				t.Fatalf("%d points after, %d before", len(all), len(orig))
			}
			for i := range all {
				if all[i] != orig[i] {
					t.Fatalf("points differ: %v vs %v", all, orig)
				}
			}
		})
	}
	if _, _, err := OneMore(Series{Dataset: "async traces", Test: []Point{pt(3, 0, 1, 1)}}); err == nil {
		t.Error("no error for a dataset without a one-more split")
	}
}

// Ernest's T = θ0 + θ1 b + θ2 ln w + θ3 w on noise-free data of its own at
// one batch. On w = 1, 2, 4, 8 the step time's three free combinations
// (θ0 + θ1 b, θ2, θ3) are fixed by four points: every equally good fit
// predicts w = 16, 32 alike (spread ~0). On w = 1, 2 they are not (two
// points, three combinations): equally good fits disagree at w = 16, 32.
func TestEquallyGoodFitsSpread(t *testing.T) {
	f := families["ernest"]
	th := []float64{0.05, 0.001, 0.02, 0.01}
	mk := func(ws ...int) []Point {
		var out []Point
		for _, w := range ws {
			c := model.Config{Workers: w, Batch: 32}
			out = append(out, Point{Config: c, StepsPerS: f.Predict(th, c), SamplesPerStep: 32 * float64(w)})
		}
		return out
	}
	test := mk(16, 32)
	ident, err := EquallyGoodFits(Series{Name: "identified", Train: mk(1, 2, 4, 8), Test: test}, "ernest", SpreadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	under, err := EquallyGoodFits(Series{Name: "under", Train: mk(1, 2), Test: test}, "ernest", SpreadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if ident.Kept < 10 || under.Kept < 10 {
		t.Fatalf("kept %d and %d fits, want many", ident.Kept, under.Kept)
	}
	if w := ident.Max - ident.Min; w > 0.05 || ident.Max > 0.1 {
		t.Errorf("identified: test MAPE %g-%g, want ~0 and a spread ~0", ident.Min, ident.Max)
	}
	if w := under.Max - under.Min; !(w > 1) {
		t.Errorf("underdetermined: test MAPE %g-%g, want a spread over 1 point", under.Min, under.Max)
	}
	if !under.Over || under.Configs != 2 || under.Params != 4 {
		t.Errorf("underdetermined: %+v", under)
	}
	// Fixed seed: the same starts give the same answer.
	again, _ := EquallyGoodFits(Series{Name: "under", Train: mk(1, 2), Test: test}, "ernest", SpreadSettings{})
	if again.Min != under.Min || again.Max != under.Max || again.Kept != under.Kept {
		t.Errorf("not reproducible: %+v vs %+v", again, under)
	}
}

// Optimus's synchronous form on data without shards: its per-shard term
// never changes the residuals. fitActive holds it and fits the others to
// the data's own parameters (RMSLE ~0); it names the untouched parameter.
func TestFitActiveHoldsUntouchedParameters(t *testing.T) {
	f := families["optimus-sync"]
	th := []float64{0.001, 0.05, 0.01, 0.002, 0.003}
	var pts []Point
	for _, w := range []int{1, 2, 3, 4} {
		for _, b := range []float64{16, 64} {
			c := model.Config{Workers: w, Batch: b}
			pts = append(pts, Point{Config: c, StepsPerS: f.Predict(th, c)})
		}
	}
	x0 := f.Guess(pts)[2]
	res, err := fitActive(f, pts, x0)
	if err != nil {
		t.Fatal(err)
	}
	if r := rmsle(f, res.X, pts); r > 1e-6 {
		t.Errorf("RMSLE %g after fitActive, want ~0 (start: %g)", r, rmsle(f, x0, pts))
	}
	if res.X[4] != x0[4] {
		t.Errorf("held parameter moved: %g -> %g", x0[4], res.X[4])
	}
	if h := heldParams(f, pts, x0); len(h) != 1 || h[0] != "overhead_per_shard" {
		t.Errorf("held %v, want [overhead_per_shard]", h)
	}
	// The refit from the protocol's own starts predicts unseen worker
	// counts of the same data exactly (the untouched term has no effect
	// there either).
	var test []Point
	for _, w := range []int{8, 16} {
		c := model.Config{Workers: w, Batch: 32}
		test = append(test, Point{Config: c, StepsPerS: f.Predict(th, c)})
	}
	sp, err := EquallyGoodFits(Series{Train: pts, Test: test}, "optimus-sync", SpreadSettings{Starts: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !(sp.Refit < 1e-3) || len(sp.Held) != 1 {
		t.Errorf("refit MAPE %g%%, held %v: want ~0 and one parameter", sp.Refit, sp.Held)
	}
	if !Overparameterised("optimus-sync", pts) || Overparameterised("amdahl", pts) {
		t.Error("Overparameterised: want true for 5 parameters on 4 configurations, false for 2")
	}
}
