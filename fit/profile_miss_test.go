package fit

import (
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// A profile whose phases are in milliseconds while start and end are in
// seconds builds a network 1000 times too slow for its own run: fit says
// so (it wrote the model without a word, where inspect warned); phases
// that agree with the iterations get no such warning.
func TestProfileMissWarns(t *testing.T) {
	tr := loadAsync(t)
	const say = "the two-node profile's network predicts its own run"
	sf, err := FitSteps(tr, nil, StepOptions{Bootstrap: -1, Family: "mva"})
	if err != nil {
		t.Fatal(err)
	}
	if joined := strings.Join(sf.Warnings, "\n"); strings.Contains(joined, say) {
		t.Errorf("phases that agree: %s", joined)
	}
	// phases scaled by k: 1000 (ms against s) and 1/2.2 (time outside
	// the phases) miss the run by more than a factor 2; 1/1.5 does not
	for _, c := range []struct {
		k    float64
		warn bool
	}{{1000, true}, {1 / 2.2, true}, {1 / 1.5, false}} {
		cp := *tr
		cp.Steps = append([]traces.Step(nil), tr.Steps...)
		for i := range cp.Steps {
			s := &cp.Steps[i]
			s.Pull, s.Compute, s.Push = c.k*s.Pull, c.k*s.Compute, c.k*s.Push
		}
		if sf, err = FitSteps(&cp, nil, StepOptions{Bootstrap: -1, Family: "mva"}); err != nil {
			t.Fatal(err)
		}
		joined := strings.Join(sf.Warnings, "\n")
		if got := strings.Contains(joined, say) && strings.Contains(joined, "are the phases in other units than start and end, or does part of the iteration"); got != c.warn {
			t.Errorf("phases x %.3g: warned %v, want %v: %s", c.k, got, c.warn, joined)
		}
	}
}
