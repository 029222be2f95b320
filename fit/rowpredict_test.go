package fit

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// randomTheta draws a parameter vector for f: times log-uniform from
// 1e-4 to 1 s, bounded parameters uniform in their box.
func randomTheta(rng *rand.Rand, f Family) []float64 {
	th := make([]float64, len(f.Params))
	for j, p := range f.Params {
		if p.Hi-p.Lo <= 100 {
			th[j] = p.Lo + (p.Hi-p.Lo)*rng.Float64()
			continue
		}
		th[j] = p.Lo + math.Exp(math.Log(1e-4)+rng.Float64()*math.Log(1e4))
		if p.Name == "rate1" {
			th[j] *= 1e4
		}
	}
	// now and then a parameter at its lower bound
	if rng.IntN(4) == 0 {
		j := rng.IntN(len(th))
		th[j] = f.Params[j].Lo
	}
	return th
}

// randomRows draws n configurations over a few shards, batches and nodes
// and worker counts up to maxW, with repeats.
func randomRows(rng *rand.Rand, n, maxW int) []model.Config {
	ws := []int{1, 2, 3, maxW / 2, maxW}
	var base []model.Config
	for range 4 {
		base = append(base, model.Config{
			Workers:   ws[rng.IntN(len(ws))],
			PS:        rng.IntN(4),
			Nodes:     rng.IntN(3),
			Batch:     []float64{0, 16, 32, 64.5}[rng.IntN(4)],
			Bandwidth: []float64{0, 1e9}[rng.IntN(2)],
		})
	}
	cs := make([]model.Config, n)
	for i := range cs {
		c := base[rng.IntN(len(base))]
		if rng.IntN(2) == 0 {
			c.Workers = max(1, rng.IntN(maxW+1))
		}
		cs[i] = c
	}
	return cs
}

// rowFamilies are the families the differential tests try: every
// registered one, the NNLS variants, a mean, and the mva family in each
// variant, with and without shared cores and a link rate.
func rowFamilies(t *testing.T) []Family {
	var fams []Family
	for _, n := range FamilyNames() {
		f, _ := LookupFamily(n)
		fams = append(fams, f)
	}
	for _, n := range []string{"ernest/nnls", "overhead-async/nnls", "mean(asyncps,overhead-async)"} {
		f, ok := LookupFamily(n)
		if !ok {
			t.Fatalf("no family %s", n)
		}
		fams = append(fams, f)
	}
	for _, v := range QueueingVariants {
		for _, q := range []Queueing{
			{Variant: v, SCVLink: 0.3, SCVApply: 1.2, SCVCompute: 0.5},
			{Variant: v, SCVLink: 2, SCVApply: 0.1, SCVCompute: 0, Bandwidth: 4e8},
			{Variant: v, SCVCompute: 0.7, SharedCores: 2},
		} {
			fams = append(fams, mvaFamily(q))
		}
	}
	return fams
}

// TestRowPredictorBits: the predictions of a rowPredictor, once per
// distinct configuration and from one sweep per configuration but its
// workers, are Predict's at each row to the bit, for every family on
// random parameters and rows with repeats and several worker counts.
func TestRowPredictorBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 32))
	for _, f := range rowFamilies(t) {
		trials := 12
		if f.Name == "syncps" {
			trials = 2 // a numerical integral per prediction
		}
		for trial := range trials {
			maxW := []int{4, 40, 300}[trial%3]
			cs := randomRows(rng, 5+rng.IntN(40), maxW)
			th := randomTheta(rng, f)
			if trial == 0 { // every parameter at its lower bound: predictions of 0, +Inf or NaN
				for j := range th {
					th[j] = f.Params[j].Lo
				}
			}
			p := newRowPredictor(f, cs)
			got := make([]float64, len(cs))
			logY := make([]float64, len(cs))
			for i := range logY {
				logY[i] = 3 * rng.NormFloat64()
			}
			for range 2 { // twice: the workspace is reused
				p.predict(got, th)
				for i, c := range cs {
					want := f.Predict(th, c)
					if math.Float64bits(got[i]) != math.Float64bits(want) {
						t.Fatalf("%s at %v, θ = %v: row predictor %v, Predict %v", f.Name, c, th, got[i], want)
					}
				}
				p.logResiduals(got, th, logY)
				for i, c := range cs {
					want := logResidual(f.Predict(th, c), logY[i])
					if math.Float64bits(got[i]) != math.Float64bits(want) {
						t.Fatalf("%s at %v, θ = %v: log residual %v, per row %v", f.Name, c, th, got[i], want)
					}
				}
				p.logPredict(got, th)
				for i, c := range cs {
					want := math.Log(math.Max(f.Predict(th, c), 1e-300))
					if math.Float64bits(got[i]) != math.Float64bits(want) {
						t.Fatalf("%s at %v, θ = %v: log prediction %v, per row %v", f.Name, c, th, got[i], want)
					}
				}
			}
		}
	}
}

// TestRowPredictorGroups: rows that repeat a configuration share its
// prediction, and a family with a sweep solves the configurations that
// differ only in workers by one sweep; past the exact recursion
// (model.ExactLimit) each count is solved alone.
func TestRowPredictorGroups(t *testing.T) {
	c := func(w, ps int) model.Config { return model.Config{Workers: w, PS: ps, Batch: 32} }
	cs := []model.Config{c(1, 1), c(4, 1), c(1, 1), c(8, 1), c(4, 2), c(4, 2), c(model.ExactLimit+1, 3), c(2, 3)}
	f, _ := LookupFamily("overhead-async")
	p := newRowPredictor(f, cs)
	if len(p.uniq) != 6 || len(p.single) != 6 || len(p.sweeps) != 0 {
		t.Errorf("overhead-async: %d distinct, %d alone, %d sweeps; want 6, 6, 0", len(p.uniq), len(p.single), len(p.sweeps))
	}
	f, _ = LookupFamily("asyncps")
	p = newRowPredictor(f, cs)
	if len(p.uniq) != 6 || len(p.single) != 3 || len(p.sweeps) != 1 || p.sweeps[0].top != 8 || len(p.buf) != 8 {
		t.Errorf("asyncps: %d distinct, %d alone, sweeps %+v (buffer %d); want 6, 3 and one to 8", len(p.uniq), len(p.single), p.sweeps, len(p.buf))
	}
}

// countingFamily is f with its Predict and Sweep calls counted.
func countingFamily(f Family, predicts, sweeps *int) Family {
	pr, sw := f.Predict, f.Sweep
	f.Predict = func(th []float64, c model.Config) float64 { *predicts++; return pr(th, c) }
	if sw != nil {
		f.Sweep = func(th []float64, c model.Config, xs []float64) { *sweeps++; sw(th, c, xs) }
	}
	return f
}

// TestFitPredictsEachConfigurationOnce: a table fit predicts each
// distinct configuration once per residual evaluation, however often the
// table repeats it, and a queueing family sweeps its worker counts once:
// Predict ran once per row per evaluation (6,000 rows of 6 configurations
// took 76 s).
func TestFitPredictsEachConfigurationOnce(t *testing.T) {
	pts := repeatedPoints(20)
	var predicts, sweeps int
	f, _ := LookupFamily("overhead-async")
	// from one start, so that res.Evals counts every evaluation
	res, err := fitFree(countingFamily(f, &predicts, &sweeps), pts, f.Guess(pts)[0])
	if err != nil {
		t.Fatal(err)
	}
	if predicts != 6*res.Evals {
		t.Errorf("overhead-async: %d predictions in %d evaluations of %d rows of 6 configurations, want %d", predicts, res.Evals, len(pts), 6*res.Evals)
	}
	predicts, sweeps = 0, 0
	f, _ = LookupFamily("asyncps")
	res, err = fitFree(countingFamily(f, &predicts, &sweeps), pts, f.Guess(pts)[0])
	if err != nil {
		t.Fatal(err)
	}
	if predicts != 0 || sweeps != res.Evals {
		t.Errorf("asyncps: %d predictions and %d sweeps in %d evaluations, want 0 and %d", predicts, sweeps, res.Evals, res.Evals)
	}
}

// fitJSON is model.json of the fit of family to pts, with the
// alternatives tried.
func fitJSON(t *testing.T, pts []Point, family string, s *Settings) []byte {
	tf, alts, err := FitThroughput(pts, family, s)
	if err != nil {
		return []byte("error: " + err.Error())
	}
	b, err := NewModel(tf, pts, alts, "async", Reference{}, nil, 0.9).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFitThroughputRowRule: fits whose residuals predict each distinct
// configuration once (and sweep the queueing families' worker counts)
// write the same model.json, to the byte, as those that predicted every
// row on its own (rowByRow), on tables with repeated rows and several
// worker counts, for auto and for the queueing families named.
func TestFitThroughputRowRule(t *testing.T) {
	if testing.Short() {
		t.Skip("fits each table twice")
	}
	cases := []struct {
		name   string
		pts    []Point
		family string
		s      *Settings
	}{
		{"repeats auto", repeatedPoints(4), "auto", &Settings{Bootstrap: 20}},
		{"repeats mva", repeatedPoints(3), "mva", &Settings{Bootstrap: 20}},
		{"tp3 w16 asyncps", tableWith(16, 1, 5), "asyncps", &Settings{Bootstrap: 10}},
		{"tp3 w8 x2 auto", smaller(tableWith(8, 2, 6)), "auto", &Settings{Bootstrap: 5}},
		{"tp3 w12 mean largest", smaller(tableWith(12, 1, 7)), "auto", &Settings{Bootstrap: 5, CV: "both", Combine: "all"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rowByRow = true
			t.Cleanup(func() { rowByRow = false }) // (a fatal fitJSON left it set)
			old := fitJSON(t, c.pts, c.family, c.s)
			rowByRow = false
			got := fitJSON(t, c.pts, c.family, c.s)
			if !bytes.Equal(old, got) {
				t.Errorf("model.json differs from the row-by-row rule's:\n%s", firstDiff(old, got))
			}
		})
	}
}

// firstDiff shows where a and b first differ.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("at byte %d:\nold ...%s\nnew ...%s", i, a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
}
