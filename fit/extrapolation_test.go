package fit

import (
	"math"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// FactorFrom widens a ratio by the distance c adds to base only.
func TestExtrapolationFactorFrom(t *testing.T) {
	e := &Extrapolation{Rate: 0.2, MaxWorkers: 2, MaxPS: 2}
	in := model.Config{Workers: 1, PS: 1}
	far := model.Config{Workers: 8, PS: 1}
	if a, b := e.FactorFrom(in, far, 0.9), e.Factor(far, 0.9); a != b || !(a > 1) {
		t.Errorf("base inside the data: %g, want Factor %g > 1", a, b)
	}
	base := model.Config{Workers: 1, PS: 100}
	if f := e.FactorFrom(base, base, 0.9); f != 1 {
		t.Errorf("c = base beyond the shards: %g, want 1", f)
	}
	want := e.Factor(far, 0.9) // the workers' part alone
	if f := e.FactorFrom(base, model.Config{Workers: 8, PS: 100}, 0.9); math.Abs(f-want) > 1e-12*want {
		t.Errorf("shared shards: %g, want the workers' part %g", f, want)
	}
	if f := (*Extrapolation)(nil).FactorFrom(base, far, 0.9); f != 1 {
		t.Errorf("nil: %g", f)
	}
}
