package planner

import "math"

// powTable holds one power law's s(k) at whole k, 0 up to most, as
// PowerLaw{P: p}.Speedup(k) gives them (the same math.Pow of the same
// arguments, made once; p has the bits the table was made for): NaN until
// known. The simulator keeps one for the first exponent it meets (its rates
// at whole workers), greedy one for each of up to greedyTables exponents.
type powTable struct {
	bits uint64    // of the exponent
	most float64   // the largest k it holds
	s    []float64 // s[k], grown on demand
}

// newPowTable is the table of exponent p for k from 0 to most.
func newPowTable(p float64, most int) powTable {
	return powTable{bits: math.Float64bits(p), most: float64(most)}
}

// speedup is PowerLaw{P: the table's exponent}.Speedup(k), bit for bit,
// when k is whole and in the table (ok); otherwise it is not ok.
func (t *powTable) speedup(k float64) (v float64, ok bool) {
	if !(k >= 0 && k <= t.most && k == math.Floor(k)) {
		return 0, false
	}
	i := int(k)
	for len(t.s) <= i {
		t.s = append(t.s, math.NaN())
	}
	if v := t.s[i]; v == v {
		return v, true
	}
	v = PowerLaw{P: math.Float64frombits(t.bits)}.Speedup(k)
	t.s[i] = v
	return v, true
}
