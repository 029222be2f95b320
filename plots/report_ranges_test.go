package plots

import (
	"math"
	"strings"
	"testing"
)

// A policy's weighted mean flow, mean slowdown and p99 get a range column
// each when some policy has one, beside their values, as the mean flow's
// does; a policy without one (its fields left zero, as before these
// fields) leaves the cell empty, and a report with none has no such
// column.
func TestReportPolicyRanges(t *testing.T) {
	nan := math.NaN()
	r := Report{Servers: 8, Policy: "equi", RangeLabel: "range (fitted curves' ends)",
		Policies: []PolicyRow{
			{Policy: "equi", MeanFlow: 10, MeanFlowLo: 8, MeanFlowHi: 13, MeanWeightedFlow: 9, MeanWeightedFlowLo: 7, MeanWeightedFlowHi: 12,
				MeanSlowdown: 0.5, MeanSlowdownLo: 0.4, MeanSlowdownHi: 0.7, P99: 20, P99Lo: 16, P99Hi: 26},
			{Policy: "fifo", MeanFlow: 11, MeanFlowLo: nan, MeanFlowHi: nan, MeanWeightedFlow: 10, MeanSlowdown: 0.6, P99: 21},
		}}
	md := string(r.Markdown())
	for _, want := range []string{
		"| policy | mean flow time (s) | range (fitted curves' ends) | mean weighted flow time (s) | range | mean slowdown | range | p99 flow time (s) | range |",
		"| **equi** | 10 | [8, 13] | 9 | [7, 12] | 0.5 | [0.4, 0.7] | 20 | [16, 26] |",
		"| fifo | 11 |  | 10 |  | 0.6 |  | 21 |  |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	for i := range r.Policies {
		p := &r.Policies[i]
		p.MeanWeightedFlowLo, p.MeanWeightedFlowHi, p.MeanSlowdownLo, p.MeanSlowdownHi, p.P99Lo, p.P99Hi = 0, 0, 0, 0, 0, 0
	}
	md = string(r.Markdown())
	if want := "| policy | mean flow time (s) | range (fitted curves' ends) | mean weighted flow time (s) | mean slowdown | p99 flow time (s) |"; !strings.Contains(md, want) {
		t.Errorf("without the other ranges, summary.md lacks %q:\n%s", want, md)
	}
}

// The best policy's line says a tie as one (six policies at one mean were
// "Least mean flow time: hesrpt"), bolds every tied row, and, when the plan
// shown is another policy's, how much more its mean is and how to see the
// best's (the demo named numeric best beside hesrpt's plan alone).
func TestReportBestSaysTiesAndThePlanShown(t *testing.T) {
	r := Report{Servers: 8, Policy: "hesrpt", Policies: []PolicyRow{
		{Policy: "hesrpt", MeanFlow: 110, MeanFlowLo: math.NaN(), MeanFlowHi: math.NaN(), MeanSlowdown: 1, P99: math.NaN()},
		{Policy: "equi", MeanFlow: 100, MeanFlowLo: math.NaN(), MeanFlowHi: math.NaN(), MeanSlowdown: 1, P99: math.NaN()},
		{Policy: "numeric", MeanFlow: 100, MeanFlowLo: math.NaN(), MeanFlowHi: math.NaN(), MeanSlowdown: 1, P99: math.NaN()},
	}}
	md := string(r.Markdown())
	// 110 / 100 - 1 = 10.0% more
	want := "Least mean flow time: **equi and numeric** (a tie, 100 s); the plan above is hesrpt's, 10.0% more (sgdplan report --policy equi shows equi's)."
	if !strings.Contains(md, want) || !strings.Contains(md, "| **equi** |") || !strings.Contains(md, "| **numeric** |") || strings.Contains(md, "| **hesrpt** |") {
		t.Errorf("summary.md lacks %q or the tied rows' bold:\n%s", want, md)
	}
	// numeric alone the best: report --policy refuses numeric, so the
	// note names plan (it said "sgdplan report --policy numeric")
	r.Policies[1].MeanFlow = 105
	want = "Least mean flow time: **numeric**; the plan above is hesrpt's, 10.0% more (sgdplan plan --policy numeric, with this report's --jobs, --servers and --p if given, shows numeric's)."
	if md = string(r.Markdown()); !strings.Contains(md, want) {
		t.Errorf("numeric the best: summary.md lacks %q:\n%s", want, md)
	}
	r.Policies[0].MeanFlow = 90 // the plan shown is the best: no note
	if md = string(r.Markdown()); !strings.Contains(md, "Least mean flow time: **hesrpt**.") {
		t.Errorf("the plan shown is the best: want the plain line:\n%s", md)
	}
}

// Rate writes a link rate with a decimal SI prefix, 4 significant digits.
func TestRate(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{{3e6, "3 MB/s"}, {6e6, "6 MB/s"}, {1.25e9, "1.25 GB/s"}, {512, "512 B/s"}, {999_999, "1 MB/s"}, {123_456, "123.5 kB/s"}, {1e18, "1e+18 B/s"}, {9.99e17, "999 PB/s"}, {1e21, "1e+21 B/s"}, {0.5, "0.5 B/s"}} {
		if got := Rate(c.in); got != c.want {
			t.Errorf("Rate(%g) = %q, want %q", c.in, got, c.want)
		}
	}
}
