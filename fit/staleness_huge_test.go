package fit

import (
	"strings"
	"testing"
)

// A loss curve that cannot be fitted says what its losses are and where
// the largest is: a loss of 1e308 at one evaluation was told as "could
// not be fitted" alone, and not found in the file.
func TestStalenessUnfittableCurveSaysItsLosses(t *testing.T) {
	r := StalenessRun{Run: "a", Workers: 1}
	for k := 0; k <= 40; k += 4 {
		r.K = append(r.K, float64(k))
		r.Loss = append(r.Loss, 1/(0.01*float64(k)+0.5))
	}
	r.Loss[1] = 1e308
	_, err := fitStalenessOnce([]StalenessRun{r}, nil)
	if err == nil || !strings.Contains(err.Error(), "run a: its loss curve could not be fitted (its 11 losses run from 1.111 to 1e+308, the largest at update 4)") {
		t.Errorf("%v", err)
	}
}
