package fit

import (
	"math"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// RatesWithQueueing solves the same profile by another variant: its rates
// are those of a fit with that --queueing from the same traces, and the
// model it came from is left as it was.
func TestRatesWithQueueingIsThatFit(t *testing.T) {
	fitWith := func(v string) *Model {
		sf, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{Family: "mva", TrainWorkers: []int{1, 2}, Bootstrap: 20, Queueing: v})
		if err != nil {
			t.Fatal(err)
		}
		return sf.Model
	}
	exact := fitWith("exact")
	cs := []model.Config{{Workers: 1, PS: 1}, {Workers: 4, PS: 1}, {Workers: 8, PS: 2}, {Workers: 64, PS: 1, Bandwidth: 6e6}}
	before := exact.StepsPerSecond(cs[2])
	for _, v := range []string{"exact", "correction", "flow"} {
		want := fitWith(v)
		got, err := exact.RatesWithQueueing(v, cs)
		if err != nil {
			t.Fatal(err)
		}
		differ := false
		for i, c := range cs {
			w := want.StepsPerSecond(c)
			if math.Abs(got[i]-w) > 1e-12*w {
				t.Errorf("%s at %+v: %.15g, want the %s fit's %.15g", v, c, got[i], v, w)
			}
			differ = differ || got[i] != exact.StepsPerSecond(c)
		}
		if differ != (v != "exact") {
			t.Errorf("%s: rates differ from exact's: %v", v, differ)
		}
	}
	if after := exact.StepsPerSecond(cs[2]); after != before || exact.Queueing.Variant != "exact" {
		t.Errorf("the exact model changed: %g -> %g, variant %q", before, after, exact.Queueing.Variant)
	}
	if _, err := exact.RatesWithQueueing("fluid", cs); err == nil {
		t.Error("an unknown variant accepted")
	}
	if _, err := fittedModel(t).RatesWithQueueing("exact", cs); err == nil {
		t.Error("a table family given a queueing variant")
	}
}
