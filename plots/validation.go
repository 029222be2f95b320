package plots

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ValidationData is the input of the validation figure: the mean MAPE (%)
// of each method on each dataset of the validation protocol.
type ValidationData struct {
	Title    string      // "" means "Extrapolation error by dataset"
	Datasets []string    // the groups along X
	Methods  []string    // one bar per method in each group
	MAPE     [][]float64 // MAPE[m][d], %; NaN leaves the bar out
	Palette  *Palette    // nil means one built from Methods
	// Cap, when positive, is where the axis stops: a bar above it is
	// drawn up to it, with its value written on top (the validation
	// figure stopped at 100% and drew a MAPE of 204% as 100, unmarked).
	Cap float64
}

// ValidationFigure draws grouped bars: per dataset, the mean MAPE of each
// method, on a linear axis that stops at d.Cap when one is given.
func ValidationFigure(d ValidationData) (*Figure, error) {
	p, width, err := validationPlot(d)
	if err != nil {
		return nil, err
	}
	return NewFigure(p, vg.Length(width)*vg.Inch, 4.2*vg.Inch), nil
}

// validationPlot is the validation figure's plot and its width in inches.
func validationPlot(d ValidationData) (*plot.Plot, float64, error) {
	if len(d.Datasets) == 0 || len(d.Methods) == 0 {
		return nil, 0, errors.New("plots: validation figure: no datasets or no methods")
	}
	if len(d.MAPE) != len(d.Methods) {
		return nil, 0, fmt.Errorf("plots: validation figure: %d rows of MAPE for %d methods", len(d.MAPE), len(d.Methods))
	}
	for i, row := range d.MAPE {
		if len(row) != len(d.Datasets) {
			return nil, 0, fmt.Errorf("plots: validation figure: method %s has %d values for %d datasets", d.Methods[i], len(row), len(d.Datasets))
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
	vals, over, top := capBars(d)
	for i, m := range d.Methods {
		b, err := plotter.NewBarChart(vals[i], w)
		if err != nil {
			return nil, 0, fmt.Errorf("plots: validation figure: %w", err)
		}
		b.Color = pal.Color(m)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(len(d.Methods)-1)/2)
		p.Add(b)
		p.Legend.Add(m, b)
		if len(over[i].XYs) > 0 {
			lab, err := plotter.NewLabels(over[i])
			if err != nil {
				return nil, 0, fmt.Errorf("plots: validation figure: %w", err)
			}
			for k := range lab.TextStyle {
				lab.TextStyle[k].Font = font.From(sans, tickSize*0.8)
				lab.TextStyle[k].Color = Ink
				lab.TextStyle[k].XAlign = draw.XCenter
			}
			lab.Offset = vg.Point{X: b.Offset, Y: vg.Points(2)}
			p.Add(lab)
		}
	}
	p.NominalX(d.Datasets...)
	p.X.Min = -0.6
	p.X.Max = float64(len(d.Datasets)) - 0.4
	p.Y.Min = 0
	p.Y.Max = top * 1.15
	if d.Cap > 0 && top >= d.Cap {
		p.Y.Max = d.Cap * 1.22 // room for two rows of values (capLift)
	}
	p.Legend.Top = true
	p.Legend.Left = false
	return p, width, nil
}

// capBars are the bars' heights of d per method (NaN, -∞, and +∞ without
// a cap: 0; above the cap: the cap), the values written over the capped
// ones, and the tallest bar.
func capBars(d ValidationData) (vals []plotter.Values, over []plotter.XYLabels, top float64) {
	stacked := make([]int, len(d.Datasets)) // capped bars in a row in a group, for staggered values
	for i := range d.Methods {
		row := make(plotter.Values, len(d.Datasets))
		var lab plotter.XYLabels
		for j, v := range d.MAPE[i] {
			if math.IsNaN(v) || math.IsInf(v, -1) || math.IsInf(v, 1) && d.Cap <= 0 {
				v = 0
			}
			if d.Cap > 0 && v > d.Cap {
				// its value over it, a line up when the bar before it
				// in the group was capped too (bars are narrower than
				// their numbers)
				lab.XYs = append(lab.XYs, plotter.XY{X: float64(j), Y: d.Cap * (1 + capLift*float64(stacked[j]%2))})
				lab.Labels = append(lab.Labels, capLabel(v))
				stacked[j]++
				v = d.Cap
			} else {
				stacked[j] = 0
			}
			row[j] = v
			top = math.Max(top, v)
		}
		vals = append(vals, row)
		over = append(over, lab)
	}
	return vals, over, top
}

// capLift is how far a capped bar's value is lifted, as a fraction of the
// cap, when the bar before it was capped too: a line of the value's text on
// the figure's axis (it stops at 1.22 times the cap).
const capLift = 0.055

// capLabel is the value of a bar drawn up to the cap: the MAPE rounded
// (204), "∞" for an infinite one.
func capLabel(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return num(math.Round(v))
}
