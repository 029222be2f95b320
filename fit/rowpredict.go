package fit

import (
	"math"

	"github.com/sgdplan/sgdplan/model"
)

// rowPredictor evaluates a family's predictions at a fixed list of
// configurations (the rows of a fit), each distinct configuration once,
// and the configurations of a family with a Sweep that differ only in
// their worker count from one sweep to the largest count among them. A
// table fit evaluated Family.Predict at every row, at every residual and
// finite-difference evaluation of LM, inside leave-one-configuration-out:
// the queueing families (asyncps, mva) solve their MVA recursion from 1
// to N there, so that 36 rows at up to 4,096 workers took 90 s, and 6,000
// rows of 6 configurations 76 s (a scaling review). The numbers are
// Predict's to the bit: Predict is a function of the configuration, and
// Family.Sweep is Predict at each count (TestRowPredictorBits).
//
// Not safe for concurrent use: it keeps its workspace between calls (one
// Problem's Residuals are called one at a time).
type rowPredictor struct {
	f Family
	// uniq are the distinct configurations, in the order of their first
	// row; row[i] is row i's index in uniq.
	uniq []model.Config
	row  []int
	// single are the indices in uniq solved one by one; sweeps the groups
	// solved by one sweep each.
	single []int
	sweeps []rowSweep
	vals   []float64 // per uniq, the last evaluation's
	logs   []float64 // per uniq, the log of vals (logResiduals, logPredict)
	buf    []float64 // the sweeps' workspace
}

// rowSweep is a group of distinct configurations that differ only in
// their worker counts: c at top workers, and the indices in uniq.
type rowSweep struct {
	c   model.Config
	top int
	of  []int
}

// rowKey is a configuration by the bits of its numbers (-0 is not 0, so
// that nothing Predict might tell apart is merged).
type rowKey struct {
	workers, ps, nodes int
	batch, bandwidth   uint64
}

func keyOfConfig(c model.Config) rowKey {
	return rowKey{c.Workers, c.PS, c.Nodes, math.Float64bits(c.Batch), math.Float64bits(c.Bandwidth)}
}

// rowByRow, set in tests only, makes newRowPredictor predict each row on
// its own with Predict, in row order: the rule before 2026-12-07, for the
// differential tests.
var rowByRow = false

// newRowPredictor prepares the predictions of f at cs.
func newRowPredictor(f Family, cs []model.Config) *rowPredictor {
	p := &rowPredictor{f: f, row: make([]int, len(cs))}
	at := map[rowKey]int{}
	for i, c := range cs {
		k := keyOfConfig(c)
		j, ok := at[k]
		if !ok || rowByRow {
			j = len(p.uniq)
			at[k] = j
			p.uniq = append(p.uniq, c)
		}
		p.row[i] = j
	}
	p.vals = make([]float64, len(p.uniq))
	p.logs = make([]float64, len(p.uniq))
	if f.Sweep == nil || rowByRow {
		p.single = make([]int, len(p.uniq))
		for j := range p.uniq {
			p.single[j] = j
		}
		return p
	}
	// group by the configuration but its workers (the machines kept: a
	// family with a Sweep does not read them, but nothing depends on that)
	group := map[rowKey]int{}
	for j, c := range p.uniq {
		k := keyOfConfig(c)
		k.workers = 0
		g, ok := group[k]
		if !ok {
			g = len(p.sweeps)
			group[k] = g
			p.sweeps = append(p.sweeps, rowSweep{c: c})
		}
		s := &p.sweeps[g]
		s.of = append(s.of, j)
		s.top = max(s.top, c.Workers)
	}
	// a group of one count is solved alone (a sweep would cost the same),
	// as is one past the exact recursion (whose counts each cost a fixed
	// point, however many smaller counts a sweep would pass)
	kept := p.sweeps[:0]
	top := 0
	for _, s := range p.sweeps {
		if len(s.of) < 2 || s.top > model.ExactLimit {
			p.single = append(p.single, s.of...)
			continue
		}
		kept = append(kept, s)
		top = max(top, s.top)
	}
	p.sweeps = kept
	if top > 0 {
		p.buf = make([]float64, top)
	}
	return p
}

// eval fills p.vals with f's predictions at th, per distinct
// configuration.
func (p *rowPredictor) eval(th []float64) {
	for _, j := range p.single {
		p.vals[j] = p.f.Predict(th, p.uniq[j])
	}
	for _, s := range p.sweeps {
		xs := p.buf[:s.top]
		p.f.Sweep(th, s.c, xs)
		for _, j := range s.of {
			p.vals[j] = xs[p.uniq[j].Workers-1]
		}
	}
}

// predict fills dst (one per row) with f's predictions at th.
func (p *rowPredictor) predict(dst, th []float64) {
	p.eval(th)
	for i, j := range p.row {
		dst[i] = p.vals[j]
	}
}

// logResiduals fills dst (one per row) with logResidual of f's
// prediction at th against logY (one per row), the log taken once per
// distinct configuration: the same numbers (on 6,000 rows of 6
// configurations the logs were a third of the fit once each configuration
// was predicted once).
func (p *rowPredictor) logResiduals(dst, th, logY []float64) {
	p.eval(th)
	for j, v := range p.vals {
		if !(v > 0) || math.IsInf(v, 0) {
			p.logs[j] = math.NaN() // logResidual's penalty
			continue
		}
		p.logs[j] = math.Log(v)
	}
	for i, j := range p.row {
		if l := p.logs[j]; math.IsNaN(l) {
			dst[i] = 50
		} else {
			dst[i] = l - logY[i]
		}
	}
}

// logPredict fills dst (one per row) with the log of f's prediction at
// th, at least 1e-300 (logPredictions), once per distinct configuration.
func (p *rowPredictor) logPredict(dst, th []float64) {
	p.eval(th)
	for j, v := range p.vals {
		p.logs[j] = math.Log(math.Max(v, 1e-300))
	}
	for i, j := range p.row {
		dst[i] = p.logs[j]
	}
}

// configsOf is the configurations of pts.
func configsOf(pts []Point) []model.Config {
	cs := make([]model.Config, len(pts))
	for i, p := range pts {
		cs[i] = p.Config
	}
	return cs
}
