package main

// The evidence sections of docs/validation.md beside the protocol's scores:
// the coverage of the intervals, what one more configuration buys, the
// spread of equally good fits, and why a target was missed.

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sgdplan/sgdplan/fit"
)

// The evidence beside the protocol's scores: interval coverage, one more
// configuration, equally good fits (fit/validate_evidence.go).
const (
	coverageLevel = 0.9
	// coverageResamples is the bootstrap of the coverage fits: 0 means
	// sgdplan fit's default (200), so that the intervals are those that
	// fit and predict print.
	coverageResamples = 0
)

// evidence fills the coverage, one-more and equally-good-fits results of a
// public dataset whose series are scored (d.scores) by the methods ms.
func (d *datasetResult) evidence(ms []fit.Method) {
	for i, s := range d.series {
		d.coverage = append(d.coverage, fit.CoverageAuto(s, fit.Settings{Bootstrap: coverageResamples}, coverageLevel))
		om, what, err := fit.OneMore(s)
		if err != nil {
			d.oneMoreErr = append(d.oneMoreErr, err.Error())
			d.oneMore = append(d.oneMore, nil)
			d.oneMoreBase = append(d.oneMoreBase, nil)
			d.oneMoreWhat = append(d.oneMoreWhat, "")
		} else {
			d.oneMore = append(d.oneMore, fit.ScoreSeries(om, ms))
			base := s
			base.Test = om.Test
			d.oneMoreBase = append(d.oneMoreBase, fit.ScoreSeries(base, ms))
			d.oneMoreWhat = append(d.oneMoreWhat, what)
		}
		var sps []fit.Spread
		for _, name := range spreadFamilies(s, d.scores[i][0].Family) {
			sp, err := fit.EquallyGoodFits(s, name, fit.SpreadSettings{})
			if err == nil {
				sps = append(sps, sp)
			}
		}
		d.spreads = append(d.spreads, sps)
	}
}

// spreadFamilies are the forms whose equally good fits are measured on a
// series: the peers' forms with at least as many parameters as the
// series has training configurations, and sgdplan's choice (chosen) in
// any case, to compare.
func spreadFamilies(s fit.Series, chosen string) []string {
	async := fit.KindOf(s.Train).Async
	var out []string
	for _, p := range peerForms {
		name := p[1]
		if async {
			name = p[2]
		}
		if fit.Overparameterised(name, s.Train) {
			out = append(out, name)
		}
	}
	f, ok := fit.LookupFamily(chosen)
	if !ok {
		return out
	}
	members := []string{chosen}
	if len(f.Members) > 0 {
		// a mean is fitted member by member: its members' fits are
		// what the training points may leave free
		members = members[:0]
		for _, m := range f.Members {
			members = append(members, m.Name)
		}
	}
	for _, n := range members {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// coverageSummary pools a dataset's coverage: the fraction of all test
// points inside their interval, the mean of the series' fractions, the
// median relative width over all points, the range of bootstrap samples
// kept, and the series whose fit failed.
type coverageSummary struct {
	points, inside   int
	meanFrac, median float64
	minRes, maxRes   int
	series, failed   int
	assumed          int // series whose drift rate is the prior's
	families         []string
}

func (d *datasetResult) coverageSummary() coverageSummary {
	cs := coverageSummary{minRes: math.MaxInt, meanFrac: math.NaN(), median: math.NaN()}
	var widths []float64
	sum := 0.0
	for _, c := range d.coverage {
		if c.Err != "" {
			cs.failed++
			continue
		}
		cs.series++
		cs.points += c.Points
		cs.inside += c.Inside
		sum += c.Fraction()
		widths = append(widths, c.Widths...)
		cs.minRes, cs.maxRes = min(cs.minRes, c.Resamples), max(cs.maxRes, c.Resamples)
		if c.Assumed {
			cs.assumed++
		}
		if !slices.Contains(cs.families, c.Family) {
			cs.families = append(cs.families, c.Family)
		}
	}
	if cs.series > 0 {
		cs.meanFrac = sum / float64(cs.series)
		cs.median = fit.Percentile(widths, 0.5)
	}
	return cs
}

func (v *validation) coverageMarkdown(b *bytes.Buffer) {
	fmt.Fprintf(b, "## Do the intervals mean anything?\n\n")
	fmt.Fprintf(b, "sgdplan's choice on each series fitted as `sgdplan fit` fits a table (`--family auto`, the default\n")
	fmt.Fprintf(b, "bootstrap of the training configurations, 90%% intervals; on the async traces the step-level fit\n")
	fmt.Fprintf(b, "`sgdplan fit --train-workers 1,2` and its default 200 samples of the profile's phase means), and\n")
	fmt.Fprintf(b, "the interval `sgdplan predict` prints for each test configuration (ThroughputFit.PredictInterval,\n")
	fmt.Fprintf(b, "Model.Predict). A 90%% interval that means what it says holds about 90%% of the measured values.\n\n")
	fmt.Fprintf(b, "| dataset | series | test points | inside the 90%% interval (all points, %%) | mean over series (%%) | median width (hi-lo)/value (%%) | bootstrap samples per fit | families | series with the drift assumed |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range v.datasets {
		if len(d.coverage) == 0 {
			continue
		}
		cs := d.coverageSummary()
		frac := math.NaN()
		if cs.points > 0 {
			frac = 100 * float64(cs.inside) / float64(cs.points)
		}
		res := fmt.Sprintf("%d", cs.maxRes)
		if cs.minRes != cs.maxRes {
			res = fmt.Sprintf("%d-%d", cs.minRes, cs.maxRes)
		}
		if cs.series == 0 {
			res = "n/a"
		}
		fmt.Fprintf(b, "| %s | %d | %d | %s | %s | %s | %s | %s | %d |\n", d.name, cs.series, cs.points, pct(frac), pct(100*cs.meanFrac), widthPct(100*cs.median), res, strings.Join(cs.families, ", "), cs.assumed)
		if cs.failed > 0 {
			fmt.Fprintf(b, "| (%s: %d series not fitted) | | | | | | | | |\n", d.name, cs.failed)
		}
	}
	fmt.Fprintf(b, "\nThe bootstrap resamples the training configurations (200 requested per fit, sgdplan fit's\n")
	fmt.Fprintf(b, "default; the column counts the resamples whose refit converged), and the interval is whatever\n")
	fmt.Fprintf(b, "PredictInterval makes of the fit, so these numbers follow the intervals predict prints. Widths are\n")
	fmt.Fprintf(b, "in steps/s (the same ratio in step time to first order).\n\n")
	fmt.Fprintf(b, "Beyond the training configurations the intervals widen by the drift measured by refitting\n")
	fmt.Fprintf(b, "without the largest worker count (fit.Extrapolation): one refit is one draw of the drift, so it is\n")
	fmt.Fprintf(b, "pooled with a prior drift worth one refit and the interval is Student's t with 2 degrees of\n")
	fmt.Fprintf(b, "freedom; where the data cannot measure the drift (last column: the smaller configurations leave\n")
	fmt.Fprintf(b, "the largest free, or one worker count) only the prior speaks, with 1 degree of freedom, and the\n")
	fmt.Fprintf(b, "intervals are wide by design. docs/fitting.md has the rule and its history.")
	var narrow []string
	for _, d := range v.datasets {
		cs := d.coverageSummary()
		if p := coverageShortfall(cs.inside, cs.points, 0.9); p < 0.05 {
			narrow = append(narrow, fmt.Sprintf("%s (%s%% inside; %s)", d.name, pct(100*float64(cs.inside)/float64(cs.points)), pValue(p)))
		}
	}
	fmt.Fprintf(b, "\n\nToo narrow, where so few points fall inside that 90%% intervals would give as few with\n")
	fmt.Fprintf(b, "probability under 5%% (binomial, one-sided, treating the points as independent: they are not,\n")
	fmt.Fprintf(b, "points of one series share its fit, so the test flags more readily than it should and a pass\n")
	fmt.Fprintf(b, "proves nothing): ")
	if len(narrow) == 0 {
		fmt.Fprintf(b, "none.\n\n")
		return
	}
	fmt.Fprintf(b, "%s.\n\n", strings.Join(narrow, "; "))
}

// coverageShortfall is the probability that intervals holding each point
// with probability level hold at most inside of n independent points (the
// one-sided binomial p-value of too narrow intervals); 1 when n is 0.
func coverageShortfall(inside, n int, level float64) float64 {
	if n == 0 {
		return 1
	}
	return distuv.Binomial{N: float64(n), P: level}.CDF(float64(inside))
}

// pValue formats a p-value for prose.
func pValue(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.3f", p)
}

// oneMoreMean is the mean over the series of method m's MAPE on the test
// points left by fit.OneMore, trained with one more configuration or, when
// protocol, by the protocol.
func (d *datasetResult) oneMoreMean(m int, protocol bool) float64 {
	sum, n := 0.0, 0
	for i, sc := range d.oneMore {
		if sc == nil {
			continue
		}
		if protocol {
			sc = d.oneMoreBase[i]
		}
		sum += sc[m].MAPE
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// oneMoreWhats lists the distinct descriptions of what moved, in order.
func (d *datasetResult) oneMoreWhats() string {
	var out []string
	for _, w := range d.oneMoreWhat {
		if w != "" && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return strings.Join(out, "; ")
}

func (v *validation) oneMoreMarkdown(b *bytes.Buffer) {
	fmt.Fprintf(b, "## What one more configuration buys (not the protocol's score)\n\n")
	fmt.Fprintf(b, "A variant of the protocol: each series' training set also gets its smallest test configuration\n")
	fmt.Fprintf(b, "(pollux-osdi21: the placements on the fewest nodes, 2, with the fewest GPUs among them, every local\n")
	fmt.Fprintf(b, "batch; elasticflow-asplos23 and tf-cnn-benchmarks-2017: the 16-GPU rows; dl2-mxnet-ps-speed: the\n")
	fmt.Fprintf(b, "3 x 3 block of the three smallest worker counts x the three smallest PS counts, i.e. five more\n")
	fmt.Fprintf(b, "configurations beside the protocol's 2 x 2 corner where all were measured), and every method is scored on the remaining\n")
	fmt.Fprintf(b, "test points. This is what a one-step-larger profile (one 2-node run, one 16-GPU run) is worth;\n")
	fmt.Fprintf(b, "these are **not** the protocol's scores. Both rows of a dataset score the same remaining test\n")
	fmt.Fprintf(b, "points: \"protocol\" trains by the protocol, \"one more\" with the moved configurations too.\n\n")
	fmt.Fprintf(b, "| dataset | moved into training | training |")
	for _, m := range v.methods {
		fmt.Fprintf(b, " %s |", m)
	}
	fmt.Fprintf(b, "\n|---|---|---|%s\n", strings.Repeat("---|", len(v.methods)))
	var errs []string
	for _, d := range v.datasets {
		if len(d.oneMore) == 0 {
			continue
		}
		for _, protocol := range []bool{true, false} {
			name, what, train := "", "", "**one more**"
			if protocol {
				name, what, train = d.name, d.oneMoreWhats(), "protocol"
			}
			fmt.Fprintf(b, "| %s | %s | %s |", name, what, train)
			for m := range v.methods {
				if protocol {
					fmt.Fprintf(b, " %s |", pct(d.oneMoreMean(m, true)))
				} else {
					fmt.Fprintf(b, " **%s** |", pct(d.oneMoreMean(m, false)))
				}
			}
			fmt.Fprintln(b)
		}
		errs = append(errs, d.oneMoreErr...)
	}
	fmt.Fprintf(b, "\nPer series, sgdplan (its family):\n\n")
	fmt.Fprintf(b, "| dataset | series | rows moved | test rows left | protocol | one more |\n|---|---|---|---|---|---|\n")
	for _, d := range v.datasets {
		for i, sc := range d.oneMore {
			if sc == nil {
				continue
			}
			s := d.series[i]
			om, _, err := fit.OneMore(s)
			if err != nil {
				continue
			}
			base := d.oneMoreBase[i][0]
			fmt.Fprintf(b, "| %s | %s | %d | %d | %s (%s) | %s (%s) |\n", d.name, strings.ReplaceAll(s.Name, "|", "/"), len(om.Train)-len(s.Train), len(om.Test),
				pct(base.MAPE), base.Family, pct(sc[0].MAPE), sc[0].Family)
		}
	}
	if len(errs) > 0 {
		fmt.Fprintf(b, "\nNot scored: %s.\n", strings.Join(errs, "; "))
	}
	fmt.Fprintf(b, "\nThe async traces are not in this table: their protocol already trains on two worker counts and\n")
	fmt.Fprintf(b, "the two-node profile table above shows the other direction (one fewer).\n\n")
}

// spreadRow aggregates one form's equally good fits over a dataset's series.
type spreadRow struct {
	family                  string
	series, over            int
	params                  int
	configs                 []int
	kept, fits              []float64
	min, med, max, protocol float64 // sums, then means
	widest                  string
	widestRange             float64
	stuck                   int      // series where the protocol's fit never left its start
	refit                   float64  // mean over the series of Spread.Refit
	held                    []string // parameters without effect on the training points
}

func (d *datasetResult) spreadRows() []*spreadRow {
	var rows []*spreadRow
	idx := map[string]*spreadRow{}
	for i, sps := range d.spreads {
		for _, sp := range sps {
			r, ok := idx[sp.Family]
			if !ok {
				r = &spreadRow{family: sp.Family, params: sp.Params, widestRange: -1}
				idx[sp.Family] = r
				rows = append(rows, r)
			}
			r.series++
			if sp.Over {
				r.over++
			}
			if !slices.Contains(r.configs, sp.Configs) {
				r.configs = append(r.configs, sp.Configs)
			}
			r.kept = append(r.kept, float64(sp.Kept))
			r.fits = append(r.fits, float64(sp.Fits))
			r.min += sp.Min
			r.med += sp.Median
			r.max += sp.Max
			r.protocol += sp.Protocol
			r.refit += sp.Refit
			if sp.ProtocolStuck {
				r.stuck++
			}
			for _, h := range sp.Held {
				if !slices.Contains(r.held, h) {
					r.held = append(r.held, h)
				}
			}
			if w := sp.Max - sp.Min; w > r.widestRange {
				r.widestRange = w
				r.widest = fmt.Sprintf("%s %s-%s", strings.ReplaceAll(d.series[i].Name, "|", "/"), pct(sp.Min), pct(sp.Max))
			}
		}
	}
	for _, r := range rows {
		n := float64(r.series)
		r.min, r.med, r.max, r.protocol, r.refit = r.min/n, r.med/n, r.max/n, r.protocol/n, r.refit/n
	}
	return rows
}

func (v *validation) spreadMarkdown(b *bytes.Buffer) {
	var stuck []string
	fmt.Fprintf(b, "## Equally good fits: do the training points decide the extrapolation?\n\n")
	fmt.Fprintf(b, "For each form with at least as many parameters as the series has training configurations\n")
	fmt.Fprintf(b, "(workers x shards x nodes; local batches of one configuration count once), and for sgdplan's\n")
	fmt.Fprintf(b, "own choice to compare, the bounded LM is started from the family's guesses and from 100 more\n")
	fmt.Fprintf(b, "points (each parameter of a guess times exp(1.5 N(0,1)), fixed seed). The fits whose training\n")
	fmt.Fprintf(b, "RMSLE is within 0.002 of the best found are equally good on the training points; the table gives\n")
	fmt.Fprintf(b, "the min / median / max of their test MAPE (per series, then the mean over the series). A wide range\n")
	fmt.Fprintf(b, "means the training data do not decide the extrapolation: which of those fits a method lands on is\n")
	fmt.Fprintf(b, "chance of its starting point. \"protocol fit\" is the form's fit in the tables above.\n\n")
	fmt.Fprintf(b, "Parameters that do not change the training residuals at all (\"untouched\": Optimus's per-shard\n")
	fmt.Fprintf(b, "term without shards, Pollux's network terms on one node) keep their start values, and LM fits the\n")
	fmt.Fprintf(b, "others: the training data say nothing of them, so the range then only reflects the spread of the\n")
	fmt.Fprintf(b, "starts (a factor e^1.5 per standard deviation), and any range would be as right. The Pollux\n")
	fmt.Fprintf(b, "form's protocol fit sets its untouched terms by AdaptDL's rules (docs/fitting.md, \"What the data\n")
	fmt.Fprintf(b, "leave free\"), one point of that range chosen by its authors' prior, not by the data.\n\n")
	fmt.Fprintf(b, "| dataset | form | series | parameters | training configurations | over-parameterised | untouched | equally good fits (median of series) | test MAPE min | median | max | protocol fit | widest series |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range v.datasets {
		for _, r := range d.spreadRows() {
			cf := make([]string, len(r.configs))
			for i, c := range r.configs {
				cf[i] = strconv.Itoa(c)
			}
			over := "yes"
			switch {
			case r.over == 0:
				over = "no"
			case r.over < r.series:
				over = fmt.Sprintf("%d of %d series", r.over, r.series)
			}
			held := strings.Join(r.held, ", ")
			if held == "" {
				held = "-"
			}
			proto := pct(r.protocol)
			if r.stuck > 0 {
				proto += fmt.Sprintf(" (stuck on %d)", r.stuck)
				stuck = append(stuck, fmt.Sprintf("%s on %s %s%% -> %s%%", r.family, d.name, pct(r.protocol), pct(r.refit)))
			}
			fmt.Fprintf(b, "| %s | %s | %d | %d | %s | %s | %s | %.0f of %.0f | %s | %s | %s | %s | %s |\n", d.name, r.family, r.series, r.params,
				strings.Join(cf, ", "), over, held, fit.Percentile(r.kept, 0.5), fit.Percentile(r.fits, 0.5), pct(r.min), pct(r.med), pct(r.max), proto, r.widest)
		}
	}
	fmt.Fprintln(b)
	if len(stuck) > 0 {
		fmt.Fprintf(b, "\"stuck on k\": on k series the protocol's fit of the form never left its best starting guess\n")
		fmt.Fprintf(b, "(fit.LevenbergMarquardt accepted no step: with an untouched parameter, its damped normal equations\n")
		fmt.Fprintf(b, "are too ill-conditioned to solve at any damping), so that column, and the form's column in the tables\n")
		fmt.Fprintf(b, "above, score a guess rather than a fit; the multi-start here fits the other parameters. The same\n")
		fmt.Fprintf(b, "starts with the untouched parameters held give (mean MAPE, protocol fit -> refit): %s.\n\n", strings.Join(stuck, "; "))
	}
}

// whyMissed explains, from the numbers computed here, what limits the
// extrapolating fits on a dataset where sgdplan misses its target: what the
// training points cover against the predicted ones, how far equally good
// fits disagree, what one more configuration buys, and whether the
// intervals say so.
func (d *datasetResult) whyMissed() string {
	var parts []string
	if g := d.dataGap(); g != "" {
		parts = append(parts, g)
	}
	var ranges, own []string
	for _, r := range d.spreadRows() {
		txt := fmt.Sprintf("%s %s-%s%%", r.family, pct(r.min), pct(r.max))
		if len(r.held) > 0 {
			txt += fmt.Sprintf(" (%s untouched by the training points)", strings.Join(r.held, ", "))
		}
		ranges = append(ranges, txt)
		if r.over < r.series || r.family == d.chosenMajority() {
			if w := r.max - r.min; w < 1 {
				own = append(own, fmt.Sprintf("%s spans %.1f points", r.family, w))
			}
		}
	}
	if len(ranges) > 0 {
		parts = append(parts, fmt.Sprintf("fits that are equally good on the training points (RMSLE within 0.002 of the best of 100 random starts) give test MAPE %s (mean over the series of each one's min-max)", strings.Join(ranges, ", ")))
	}
	if len(own) > 0 {
		parts = append(parts, fmt.Sprintf("sgdplan's choice is pinned down by the training points (%s): its miss is its form's extrapolation, not where the fit started", strings.Join(own, ", ")))
	}
	if om := d.oneMoreMean(0, false); !math.IsNaN(om) {
		txt := fmt.Sprintf("with one more measured configuration (%s) sgdplan scores %s%% on the remaining test points, against %s%% trained by the protocol", d.oneMoreWhats(), pct(om), pct(d.oneMoreMean(0, true)))
		if n, fams := d.oneMoreSwitches(); n > 0 {
			txt += fmt.Sprintf(" (its choice of family changes on %d of %d series, to %s)", n, len(d.series), strings.Join(fams, ", "))
		}
		parts = append(parts, txt)
	}
	if cs := d.coverageSummary(); cs.points > 0 {
		parts = append(parts, fmt.Sprintf("sgdplan's 90%% intervals hold %s%% of the measured test values", pct(100*float64(cs.inside)/float64(cs.points))))
	}
	if len(parts) == 0 {
		return "see the per-series table below"
	}
	return strings.Join(parts, "; ") + " (sections below)"
}

// dataGap says what the training points of a dataset cover against its
// test points: configurations per series, and the largest worker, node
// and PS counts on either side.
func (d *datasetResult) dataGap() string {
	if len(d.series) == 0 {
		return ""
	}
	minC, maxC := math.MaxInt, 0
	var tr, te struct{ w, n, p, n0 int }
	te.n0 = math.MaxInt
	for _, s := range d.series {
		c := fit.Configurations(s.Train)
		minC, maxC = min(minC, c), max(maxC, c)
		for _, p := range s.Train {
			tr.w, tr.n, tr.p = max(tr.w, p.Config.Workers), max(tr.n, p.Config.Nodes), max(tr.p, p.Config.PS)
		}
		for _, p := range s.Test {
			te.w, te.n, te.p = max(te.w, p.Config.Workers), max(te.n, p.Config.Nodes), max(te.p, p.Config.PS)
			if p.Config.Nodes > 0 {
				te.n0 = min(te.n0, p.Config.Nodes)
			}
		}
	}
	cfg := fmt.Sprint(minC)
	if minC != maxC {
		cfg = fmt.Sprintf("%d-%d", minC, maxC)
	}
	side := func(w, n, p int) string {
		s := fmt.Sprintf("%d workers", w)
		if p > 0 {
			s += fmt.Sprintf(" x %d PS", p)
		}
		if n > 0 {
			s += fmt.Sprintf(" on %d node", n)
			if n > 1 {
				s += "s"
			}
		}
		return s
	}
	txt := fmt.Sprintf("each series trains on %s configurations of at most %s and predicts up to %s", cfg, side(tr.w, tr.n, tr.p), side(te.w, te.n, te.p))
	if tr.n == 1 && te.n0 >= 2 && te.n0 != math.MaxInt {
		txt += ": every predicted point crosses nodes, none of the training points does, so the network between nodes is not in the training data"
	}
	return txt
}

func (v *validation) hasOneMore() bool {
	for _, d := range v.datasets {
		if len(d.oneMore) > 0 || len(d.spreads) > 0 {
			return true
		}
	}
	return false
}

// chosenMajority is the family sgdplan chose on most of a dataset's series.
func (d *datasetResult) chosenMajority() string {
	n := map[string]int{}
	best, bn := "", 0
	for _, sc := range d.scores {
		f := sc[0].Family
		n[f]++
		if n[f] > bn {
			best, bn = f, n[f]
		}
	}
	return best
}

// oneMoreSwitches counts the series on which sgdplan chooses another
// family with one more configuration than by the protocol, and lists the
// families it switches to.
func (d *datasetResult) oneMoreSwitches() (int, []string) {
	n := 0
	var fams []string
	for i, sc := range d.oneMore {
		if sc == nil || sc[0].Family == d.oneMoreBase[i][0].Family {
			continue
		}
		n++
		if !slices.Contains(fams, sc[0].Family) {
			fams = append(fams, sc[0].Family)
		}
	}
	return n, fams
}
