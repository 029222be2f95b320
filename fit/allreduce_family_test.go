package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// The allreduce family is package model's RingAllReduce on one kind of
// link (the alpha-beta cost of a ring, written there from Thakur et al.):
// the same steps per second at every worker count and batch.
func TestAllReduceFamilyIsModelsRing(t *testing.T) {
	f, ok := LookupFamily("allreduce")
	if !ok {
		t.Fatal("no allreduce family")
	}
	th := []float64{0.05, 1e-3, 0.02, 5e-4}
	m := model.RingAllReduce{Compute0: th[0], ComputePerSample: th[1], Transfer: th[2], Latency: th[3], InterTransfer: 99, InterLatency: 99}
	for _, w := range []int{1, 2, 3, 8, 64, 1000} {
		for _, b := range []float64{1, 32, 256} {
			c := model.Config{Workers: w, Batch: b, Nodes: 1}
			got, want := f.Predict(th, c), m.StepsPerSecond(c)
			if math.Abs(got-want) > 1e-12*want {
				t.Errorf("w=%d b=%g: %g steps/s, RingAllReduce %g", w, b, got, want)
			}
		}
	}
	// bounded transfer: from 1,000 to 10,000 workers the step time grows
	// by the latency term alone
	c1, c2 := model.Config{Workers: 1000, Batch: 32}, model.Config{Workers: 10000, Batch: 32}
	dT := 1/f.Predict(th, c2) - 1/f.Predict(th, c1)
	want := 2*th[2]*(9999.0/10000-999.0/1000) + 2*th[3]*9000
	if math.Abs(dT-want) > 1e-9 {
		t.Errorf("T(10000) - T(1000) = %g, want %g", dT, want)
	}
	for _, k := range []DataKind{{Async: true}, {PS: true}, {Async: true, PS: true}} {
		if f.Applies(k) {
			t.Errorf("applies to %s", k)
		}
	}
}

// --family auto leaves the families marked NotAuto out and says so in the
// list it returns, with how to fit them: allreduce on all-reduce data,
// syncps on synchronous PS data.
func TestAutoNamesFamiliesLeftOut(t *testing.T) {
	cases := []struct {
		fam, left string
		theta     []float64
		ps        []int
	}{
		{"allreduce", "allreduce", []float64{0.05, 1e-3, 0.02, 5e-4}, []int{0}},
		{"optimus-sync", "syncps", []float64{1e-3, 0.05, 0.01, 0.002, 0.005}, []int{1, 2}},
	}
	for _, c := range cases {
		pts := synth(c.fam, c.theta, []int{1, 2, 4, 8, 16}, c.ps, 32, false, 0.01, 1)
		tf, alts, err := FitThroughput(pts, "auto", &Settings{Bootstrap: -1})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(tf.Family.Name, c.left) {
			t.Errorf("%s data: auto chose %s", c.fam, tf.Family.Name)
		}
		found := false
		for _, a := range alts {
			if a.Family == c.left {
				found = true
				if !math.IsNaN(a.CVError) || !strings.HasPrefix(a.Note, "not in auto: ") || !strings.HasSuffix(a.Note, "; --family "+c.left+" tries it") {
					t.Errorf("%s data: %+v", c.fam, a)
				}
			}
		}
		if !found {
			t.Errorf("%s data: %s not listed among %+v", c.fam, c.left, alts)
		}
	}
}
