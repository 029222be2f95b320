package fit

import (
	"fmt"
	"math"
	"regexp"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

func TestZZDev(t *testing.T) {
	rows, _, err := traces.LoadDataset("gavel-osdi20", "../../shared/data")
	if err != nil {
		t.Skip(err)
	}
	re := regexp.MustCompile(` \(batch size \d+\)`)
	by := map[string][]traces.Throughput{}
	var order []string
	for _, r := range rows {
		if r.Nodes != 1 || r.Batch == 0 {
			continue
		}
		r.StepsPerS /= float64(r.Workers)
		k := re.ReplaceAllString(r.Model, "")
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], r)
	}
	methods := []Method{AutoMethodCV("loo+1se", Settings{}), AutoMethodCV("loo", Settings{NoParsimony: true}), AutoMethodCV("largest", Settings{CV: "largest"}), AutoMethodCV("both", Settings{CV: "both"}),
		FamilyMethod("optimus", "optimus-sync", "optimus-async"), FamilyMethod("ernest", "ernest", "ernest"), FamilyMethod("pollux", "pollux", "pollux")}
	methods = append(methods, BaselineMethods()...)
	sums := make([]float64, len(methods))
	n := 0
	for _, k := range order {
		pts, err := PointsFromThroughput(by[k])
		if err != nil {
			t.Fatal(err)
		}
		s := Series{Name: k}
		for _, p := range pts {
			if p.Config.Workers <= 4 {
				s.Train = append(s.Train, p)
			} else {
				s.Test = append(s.Test, p)
			}
		}
		if len(s.Test) == 0 || len(s.Train) < 3 {
			continue
		}
		sc := ScoreSeries(s, methods)
		line := fmt.Sprintf("%-18s %2d/%2d", k, len(s.Train), len(s.Test))
		for i, x := range sc {
			line += fmt.Sprintf(" %s=%.1f(%.4s)", x.Method, x.MAPE, x.Family)
			if !math.IsNaN(x.MAPE) {
				sums[i] += x.MAPE
			}
		}
		n++
		t.Log(line)
	}
	for i, m := range methods {
		t.Logf("%s mean %.1f", m.Name, sums[i]/float64(n))
	}
}
