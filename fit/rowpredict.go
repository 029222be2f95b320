package fit

import (
	"math"

	"github.com/sgdplan/sgdplan/model"
)

// rowPredictor evaluates a family's predictions at a fixed list of
// configurations (the rows of a fit), each distinct configuration once. A
// table fit evaluated Family.Predict at every row, at every residual and
// finite-difference evaluation of LM, inside leave-one-configuration-out:
// the queueing families (asyncps, mva) solve their MVA recursion from 1
// to N there, so that 6,000 rows of 6 configurations took 76 s (a scaling
// review). The numbers are Predict's to the bit: Predict is a function of
// the configuration (TestRowPredictorBits).
//
// Not safe for concurrent use: it keeps its workspace between calls (one
// Problem's Residuals are called one at a time).
type rowPredictor struct {
	f Family
	// uniq are the distinct configurations, in the order of their first
	// row; row[i] is row i's index in uniq.
	uniq []model.Config
	row  []int
	// single are the indices in uniq solved one by one.
	single []int
	vals   []float64 // per uniq, the last evaluation's
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
// its own, in row order: the rule before 2026-12-07, for the
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
	p.single = make([]int, len(p.uniq))
	for j := range p.uniq {
		p.single[j] = j
	}
	return p
}

// eval fills p.vals with f's predictions at th, per distinct
// configuration.
func (p *rowPredictor) eval(th []float64) {
	for _, j := range p.single {
		p.vals[j] = p.f.Predict(th, p.uniq[j])
	}
}

// predict fills dst (one per row) with f's predictions at th.
func (p *rowPredictor) predict(dst, th []float64) {
	p.eval(th)
	for i, j := range p.row {
		dst[i] = p.vals[j]
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
