package fit

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// A mean family predicts the geometric mean of its members, each on its own
// slice of the parameters.
func TestMeanFamilyPredictsTheGeometricMean(t *testing.T) {
	am, er := families["amdahl"], families["ernest"]
	f, err := meanFamily([]Family{am, er})
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "mean(amdahl,ernest)" || len(f.Params) != len(am.Params)+len(er.Params) {
		t.Fatalf("name %q, %d parameters", f.Name, len(f.Params))
	}
	if f.Params[0].Name != "amdahl."+am.Params[0].Name || f.Params[len(am.Params)].Name != "ernest."+er.Params[0].Name {
		t.Errorf("parameter names %q, %q: want the member's name first", f.Params[0].Name, f.Params[len(am.Params)].Name)
	}
	ta := []float64{0.02, 1e-3}
	te := []float64{0.01, 2e-3, 0.005, 0.001}
	th := append(slices.Clone(ta), te...)
	for _, c := range []model.Config{{Workers: 1, Batch: 32}, {Workers: 8, Batch: 64}, {Workers: 64, Batch: 16}} {
		a, e := am.Predict(ta, c), er.Predict(te, c)
		if got, want := f.Predict(th, c), math.Sqrt(a*e); math.Abs(got-want) > 1e-12*want {
			t.Errorf("%+v: %g, want sqrt(%g * %g) = %g", c, got, a, e, want)
		}
	}
}

// model.json names the family; LookupFamily rebuilds a mean from its name
// and refuses names that are not a mean of two or more known families.
func TestLookupMeanFamily(t *testing.T) {
	f, ok := LookupFamily("mean(ernest,overhead)")
	if !ok || len(f.Members) != 2 || f.Members[1].Name != "overhead" {
		t.Fatalf("mean(ernest,overhead): ok %v, %+v", ok, f.Members)
	}
	for _, bad := range []string{"mean()", "mean(ernest)", "mean(ernest,nosuch)", "mean(ernest,ernest)", "mean(mva,ernest)", "mean(ernest,overhead", "mean(mean(ernest,overhead),amdahl)"} {
		if _, ok := LookupFamily(bad); ok {
			t.Errorf("LookupFamily(%q) accepted", bad)
		}
	}
}

// A mean is fitted member by member: its fit is each member's own fit,
// joined, not a joint fit of all the parameters.
func TestMeanFitsMemberByMember(t *testing.T) {
	pts := synth("overhead", []float64{0.01, 1e-3, 0.004}, []int{1, 2, 4, 8}, []int{0}, 32, false, 0.02, 3)
	f, _ := LookupFamily("mean(ernest,overhead)")
	res, err := fitOnce(f, pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for _, m := range f.Members {
		r, err := fitOnce(m, pts, nil)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r.X...)
	}
	if !slices.Equal(res.X, want) {
		t.Errorf("mean fit %v, members' fits %v", res.X, want)
	}
	cost := 0.0
	for _, p := range pts {
		r := math.Log(f.Predict(res.X, p.Config) / p.StepsPerS)
		cost += r * r / 2
	}
	if math.Abs(res.Cost-cost) > 1e-12 {
		t.Errorf("cost %g, want the mean's %g", res.Cost, cost)
	}
}

// A mean can be named: it is fitted member by member, and what the data
// leave unidentified is said of its members, not of the joined vector
// (whose parameter count alone exceeds the points).
func TestNamedMeanFamily(t *testing.T) {
	pts := closeFamiliesData()
	tf, _, err := FitThroughput(pts, "mean(ernest,overhead)", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	er, _, err := FitThroughput(pts, "ernest", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tf.Theta[:4], er.Theta) {
		t.Errorf("ernest in the mean %v, alone %v", tf.Theta[:4], er.Theta)
	}
	for _, w := range tf.Warnings {
		// (the widening beyond the data names the family it refitted)
		if strings.Contains(w, "mean(") && !strings.HasPrefix(w, "extrapolation:") {
			t.Errorf("warning about the joined vector: %q", w)
		}
	}
	if _, _, err := FitThroughput(pts, "mean(ernest)", nil); err == nil || !strings.Contains(err.Error(), "mean(a,b,...)") {
		t.Errorf("a mean of one: %v", err)
	}
}

// auto keeps the mean of the distinct families within one standard error of
// the lowest CV error; Combine "one" keeps the simplest of them, as before.
func TestAutoKeepsTheMeanOfCloseFamilies(t *testing.T) {
	// weak scaling with a log and a linear cost of the workers, and
	// noise: overhead (linear only) and ernest fit it about equally well,
	// and part beyond the data.
	pts := closeFamiliesData()
	one, oneAlts, err := FitThroughput(pts, "auto", &Settings{Bootstrap: -1, Combine: "one"})
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Family.Members) > 0 {
		t.Fatalf("combine one kept %s", one.Family.Name)
	}
	tf, alts, err := FitThroughput(pts, "auto", &Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(tf.Family.Members) < 2 {
		t.Fatalf("auto kept %s; families tried %+v", tf.Family.Name, alts)
	}
	if !slices.ContainsFunc(alts, func(a Alternative) bool { return a.Family == tf.Family.Name }) {
		t.Errorf("the mean is not among the families tried: %+v", alts)
	}
	if len(alts) != len(oneAlts)+1 {
		t.Errorf("%d families tried with the mean, %d without: want one more", len(alts), len(oneAlts))
	}
	// the members are the families within one SE of the lowest CV error,
	// each fitted as on its own
	var low *ThroughputFit
	close := map[string]*ThroughputFit{}
	for _, a := range alts {
		if math.IsNaN(a.CVError) || a.Family == tf.Family.Name {
			continue
		}
		own, _, err := FitThroughput(pts, a.Family, &Settings{Bootstrap: -1})
		if err != nil {
			t.Fatal(err)
		}
		close[a.Family] = own
		if low == nil || own.CVError < low.CVError {
			low = own
		}
	}
	limit := low.CVError + stdErr(low.cvErrs)
	off := 0
	for _, m := range tf.Family.Members {
		own := close[m.Name]
		if own == nil || own.CVError > limit {
			t.Fatalf("member %s: not a scored family within one SE (%.3g%%) of the lowest", m.Name, limit)
		}
		for j, v := range own.Theta {
			if math.Abs(tf.Theta[off+j]-v) > 1e-9*math.Max(1, math.Abs(v)) {
				t.Errorf("member %s parameter %d: %g in the mean, %g fitted alone", m.Name, j, tf.Theta[off+j], v)
			}
		}
		off += len(own.Theta)
	}
	for name, own := range close {
		if own.CVError <= limit && !slices.ContainsFunc(tf.members, func(m *ThroughputFit) bool { return m.predictsLike(own, pts) }) {
			t.Errorf("%s is within one SE and no member predicts like it", name)
		}
	}
	// no two members are the same curve
	for i := range tf.members {
		for j := i + 1; j < len(tf.members); j++ {
			if tf.members[i].predictsLike(tf.members[j], pts) {
				t.Errorf("members %s and %s predict alike", tf.members[i].Family.Name, tf.members[j].Family.Name)
			}
		}
	}
	if _, _, err := FitThroughput(pts, "auto", &Settings{Combine: "median"}); err == nil || !strings.Contains(err.Error(), "want mean, one or all") {
		t.Errorf("combine median: %v", err)
	}
}

// On data without shards optimus-sync's shard term is idle and it is the
// overhead curve: the mean counts that curve once.
func TestMeanCountsACurveOnce(t *testing.T) {
	pts := synth("overhead", []float64{0.01, 1e-3, 0.004}, []int{1, 2, 3, 4}, []int{0}, 32, false, 0.03, 5)
	var fits []*ThroughputFit
	for _, n := range []string{"overhead", "optimus-sync"} {
		tf, err := fitFamily(families[n], pts, (&Settings{}).withDefaults(), true)
		if err != nil {
			t.Fatal(err)
		}
		fits = append(fits, tf)
	}
	if !fits[0].predictsLike(fits[1], pts) {
		t.Skip("optimus-sync and overhead differ on these data")
	}
	if mf := meanFit(fits, pts, fits[0], true); mf != nil {
		t.Errorf("a mean of one curve: %s", mf.Family.Name)
	}
}

// A mean model survives model.json: same predictions after a round trip.
func TestMeanModelRoundTrip(t *testing.T) {
	pts := closeFamiliesData()
	tf, alts, err := FitThroughput(pts, "auto", &Settings{Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(tf.Family.Members) == 0 {
		t.Fatalf("auto kept %s", tf.Family.Name)
	}
	m := NewModel(tf, pts, alts, "sync", Reference{Batch: 32}, nil, 0.9)
	back, b := roundTrip(t, m)
	for _, w := range []int{1, 4, 16, 64} {
		c := model.Config{Workers: w, Batch: 32}
		p, q := m.Predict(c, math.NaN(), 0), back.Predict(c, math.NaN(), 0)
		if p.StepsPerS != q.StepsPerS {
			t.Errorf("%d workers: %+v before, %+v after", w, p.StepsPerS, q.StepsPerS)
		}
		if !(p.StepsPerS.Lo < p.StepsPerS.Value && p.StepsPerS.Value < p.StepsPerS.Hi) {
			t.Errorf("%d workers: interval %+v does not hold the value", w, p.StepsPerS)
		}
	}
	bad := strings.Replace(string(b), tf.Family.Name, "mean(overhead)", 1)
	if _, err := ParseModel("model.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "model.json:") || !strings.Contains(err.Error(), "unknown family") {
		t.Errorf("a mean of one family: %v", err)
	}
}

func closeFamiliesData() []Point {
	return synth("ernest", []float64{0.01, 1e-3, 0.01, 0.002}, []int{1, 2, 3, 4}, []int{0}, 32, false, 0.05, 6)
}

// roundTrip writes m as model.json and reads it back.
func roundTrip(t *testing.T, m *Model) (*Model, []byte) {
	t.Helper()
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("model.json", b)
	if err != nil {
		t.Fatal(err)
	}
	return back, b
}
