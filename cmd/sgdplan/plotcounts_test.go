package main

import (
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/plots"
)

// fit --plot and report draw the fitted curve to twice the most workers
// measured at reportWorkers' counts (every one to 512, then 1% steps, and
// the last), not at every count: a table at a million workers (the most a
// trace may hold) was 2,000,000 predictions a figure, and one of 1e8 ran
// for hours. The curve still ends at the top and starts at 1 worker.
func TestFitCurveCountsBounded(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s,mode\n1,1,64,52.4,sync\n8,1,64,378,sync\n16,1,64,701,sync\n1000000,1,64,1388,sync\n")
	m, _, pts, _, _, err := fitPaths([]string{dir}, "", fit.StepOptions{Family: "auto", Combine: "mean", Bootstrap: 20, Queueing: "exact"})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := reportFitData(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, curve := range map[string][]float64{"fit --plot": xs(fitPlotData(m, pts, nil).Curve), "report": xs(rd.Curve)} {
		// 512 counts, then 1% steps from 512 to 2e6: about 512 + ln(3906)/ln(1.01)
		if n := len(curve); n < 513 || n > 512+900 {
			t.Errorf("%s: %d points, want 512 dense and some 830 at 1%% steps", name, n)
		}
		if curve[0] != 1 || curve[len(curve)-1] != 2e6 {
			t.Errorf("%s: the curve runs from %g to %g, want 1 to 2,000,000 (twice the most measured)", name, curve[0], curve[len(curve)-1])
		}
	}
}

func xs(b []plots.Band) []float64 {
	out := make([]float64, len(b))
	for i, p := range b {
		out[i] = p.X
	}
	return out
}
