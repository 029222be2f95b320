package plots

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// ValidationData is the input of the validation figure: the mean MAPE (%)
// of each method on each dataset of the validation protocol.
type ValidationData struct {
	Title    string      // "" means "Extrapolation error by dataset"
	Datasets []string    // the groups along X
	Methods  []string    // one bar per method in each group
	MAPE     [][]float64 // MAPE[m][d], %; NaN leaves the bar out
	Palette  *Palette    // nil means one built from Methods
}

// ValidationFigure draws grouped bars: per dataset, the mean MAPE of each
// method, on a log scale when the errors span more than a factor of 50.
func ValidationFigure(d ValidationData) (*Figure, error) {
	if len(d.Datasets) == 0 || len(d.Methods) == 0 {
		return nil, errors.New("plots: validation figure: no datasets or no methods")
	}
	if len(d.MAPE) != len(d.Methods) {
		return nil, fmt.Errorf("plots: validation figure: %d rows of MAPE for %d methods", len(d.MAPE), len(d.Methods))
	}
	for i, row := range d.MAPE {
		if len(row) != len(d.Datasets) {
			return nil, fmt.Errorf("plots: validation figure: method %s has %d values for %d datasets", d.Methods[i], len(row), len(d.Datasets))
		}
	}
	title := d.Title
	if title == "" {
		title = "Extrapolation error by dataset"
	}
	pal := d.Palette
	if pal == nil {
		pal = NewPalette(d.Methods...)
	}
	p := newPlot(title, "", "mean MAPE on the large configurations (%)")
	// at least an inch of axis per dataset, so that labels such as
	// "gavel spread" never run into their neighbours; a group of bars takes
	// at most 70% of a dataset's share of the axis (the figure's width but
	// an inch), so that groups never touch
	width := math.Max(7.5, 1.0+1.05*float64(len(d.Datasets)))
	group := math.Min(64, 0.7*(width-1)*72/math.Max(1, float64(len(d.Datasets))))
	w := vg.Points(group / float64(len(d.Methods)))
	top := 0.0
	for i, m := range d.Methods {
		vals := make(plotter.Values, len(d.Datasets))
		for j, v := range d.MAPE[i] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				v = 0
			}
			vals[j] = v
			top = math.Max(top, v)
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, fmt.Errorf("plots: validation figure: %w", err)
		}
		b.Color = pal.Color(m)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(len(d.Methods)-1)/2)
		p.Add(b)
		p.Legend.Add(m, b)
	}
	p.NominalX(d.Datasets...)
	p.X.Min = -0.6
	p.X.Max = float64(len(d.Datasets)) - 0.4
	p.Y.Min = 0
	p.Y.Max = top * 1.15
	p.Legend.Top = true
	p.Legend.Left = false
	return NewFigure(p, vg.Length(width)*vg.Inch, 4.2*vg.Inch), nil
}
