package fit

import (
	"math"
	"strings"
	"testing"
)

// Tests from mutation round 4 of the fit side of the queueing model.

// Queueing.check: an SCV or a bandwidth must be a finite value >= 0 (its
// message); NaN is neither, and neither is -1 or +Inf.
func TestQueueingCheckRefusesNaN(t *testing.T) {
	for _, c := range []struct {
		q     Queueing
		field string
	}{
		{Queueing{SCVLink: math.NaN()}, "scv_link"},
		{Queueing{SCVApply: math.NaN()}, "scv_apply"},
		{Queueing{SCVCompute: math.NaN()}, "scv_compute"},
		{Queueing{Bandwidth: math.NaN()}, "bandwidth"},
		{Queueing{SCVLink: -1}, "scv_link"},
		{Queueing{Bandwidth: math.Inf(1)}, "bandwidth"},
	} {
		err := c.q.check()
		if err == nil || fieldOf("queueing", err) != "queueing."+c.field || !strings.Contains(err.Error(), "want a finite value >= 0") {
			t.Errorf("%+v: error %v (field %s), want one on %s", c.q, err, fieldOf("queueing", err), c.field)
		}
	}
	if err := (Queueing{Variant: "flow", SCVLink: 0.5, SCVApply: 1, SCVCompute: 0, Bandwidth: 1e8}).check(); err != nil {
		t.Errorf("a valid queueing: %v", err)
	}
}

// The variants as Queueing documents them: "correction" is the
// residual-service correction with the SCVs, "flow" that correction and
// also the flow variability, "exact" (or "") neither.
func TestQueueingVariantsSetTheSolver(t *testing.T) {
	th := []float64{0.05, 0, 0.01, 0.002}
	for _, c := range []struct {
		variant          string
		correction, flow bool
	}{{"", false, false}, {"exact", false, false}, {"correction", true, false}, {"flow", true, true}} {
		a := Queueing{Variant: c.variant, SCVLink: 0.5}.AsyncPS(th)
		if a.Correction != c.correction || a.Flow != c.flow {
			t.Errorf("variant %q: correction %v flow %v, want %v and %v", c.variant, a.Correction, a.Flow, c.correction, c.flow)
		}
	}
}
