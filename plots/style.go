package plots

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image/color"
	"io"
	"math"
	"sort"
	"strconv"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
)

// DPI is the resolution of every PNG written by this package.
const DPI = 300

// Standard figure sizes.
const (
	Width       = 6.5 * vg.Inch // one figure across a page
	Height      = 4 * vg.Inch   // one panel
	TallHeight  = 5.5 * vg.Inch // a panel with a residual strip beneath
	WideWidth   = 10 * vg.Inch  // two panels side by side
	PanelHeight = 4 * vg.Inch
)

// OkabeIto is the colour-blind-safe palette of Okabe and Ito (2008), in the
// order names take it: black late (it is also the colour of bounds and
// reference lines) and yellow last, since it reads poorly on white.
var OkabeIto = []color.Color{
	color.NRGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}, // blue
	color.NRGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}, // orange
	color.NRGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}, // bluish green
	color.NRGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}, // vermillion
	color.NRGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}, // reddish purple
	color.NRGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}, // sky blue
	color.NRGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xFF}, // black
	color.NRGBA{R: 0xF0, G: 0xE4, B: 0x42, A: 0xFF}, // yellow
}

// Ink is the colour of text, bounds and reference lines.
var Ink color.Color = color.NRGBA{R: 0x22, G: 0x22, B: 0x22, A: 0xFF}

// policySlots fixes the style of each planner policy, so that a policy looks
// the same in every figure even when a figure shows only some of them. A
// slot is colour index + 8 x variant (variant 1 is dashed): variants of one
// idea share a colour (hesrpt and hesrpt-slowdown, srpt and sjf, fifo and
// fcfs-rigid).
var policySlots = map[string]int{
	"hesrpt": 0, "equi": 1, "srpt": 2, "knee": 3, "hell": 4, "greedy": 5, "fifo": 6,
	"hesrpt-slowdown": 8, "sjf": 10, "fcfs-rigid": 14,
}

// Palette maps series names (jobs, policies, worker counts) to a colour,
// dash pattern and glyph. The mapping depends only on the set of names, never
// on the order a figure draws them in: policy names have fixed styles, other
// names are sorted (numbers by value) and take the slots 0, 1, 2, ... in
// order, skipping those of the policy names among them. Build one Palette
// from every name in a report and pass it to each figure so that a name
// keeps its colour across figures; a nil *Palette in a figure's input means
// one built from that figure's names.
//
// Beyond eight names the colours repeat with a different dash pattern and
// glyph, so that every name stays distinguishable.
type Palette struct {
	slot map[string]int
}

// NewPalette returns the palette of the given names (duplicates ignored).
func NewPalette(names ...string) *Palette {
	p := &Palette{slot: map[string]int{}}
	var rest []string
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if i, ok := policySlots[n]; ok {
			p.slot[n] = i
			continue
		}
		rest = append(rest, n)
	}
	sortNames(rest)
	// the other names skip the slots the policy names took: a job named
	// "hesrpt" took slot 0 and the first of the other jobs too, so two
	// jobs of one plan had one colour, dash and glyph
	taken := map[int]bool{}
	for _, i := range p.slot {
		taken[i] = true
	}
	i := 0
	for _, n := range rest {
		for taken[i] {
			i++
		}
		p.slot[n] = i
		i++
	}
	return p
}

// sortNames sorts names so that numeric names ("2" before "10") sort by value.
// Each name is parsed once (parsing in every comparison cost seconds and
// 180 MB of errors for the Philly trace's 82,000 jobs); the same
// comparisons in the same order give the same order as before.
func sortNames(names []string) {
	type name struct {
		s   string
		v   float64
		num bool
	}
	ns := make([]name, len(names))
	for i, s := range names {
		v, err := strconv.ParseFloat(s, 64)
		ns[i] = name{s, v, err == nil}
	}
	sort.Slice(ns, func(i, j int) bool {
		if ns[i].num && ns[j].num && ns[i].v != ns[j].v {
			return ns[i].v < ns[j].v
		}
		return ns[i].s < ns[j].s
	})
	for i := range ns {
		names[i] = ns[i].s
	}
}

// Slot returns the style index of name; a name the palette was not built
// with gets the first slot after all the others.
func (p *Palette) Slot(name string) int {
	if p.slot == nil {
		p.slot = map[string]int{}
	}
	if i, ok := p.slot[name]; ok {
		return i
	}
	next := 0
	for _, i := range p.slot {
		next = max(next, i+1)
	}
	p.slot[name] = next
	return next
}

// Color returns the colour of name.
func (p *Palette) Color(name string) color.Color {
	return OkabeIto[p.Slot(name)%len(OkabeIto)]
}

// Dashes returns the dash pattern of name: solid for the first eight slots.
func (p *Palette) Dashes(name string) []vg.Length {
	switch (p.Slot(name) / len(OkabeIto)) % 3 {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(2), vg.Points(2)}
	}
	return nil
}

// Glyph returns the glyph shape of name.
func (p *Palette) Glyph(name string) draw.GlyphDrawer {
	shapes := glyphShapes[:7]
	return shapes[p.Slot(name)%len(shapes)]
}

// glyphShapes are the marker shapes: Glyph's seven, then the diamond that
// seriesGlyph adds for one shape per colour of OkabeIto.
var glyphShapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{},
	diamondGlyph{},
}

// line returns the line style of name.
func (p *Palette) line(name string) draw.LineStyle {
	return draw.LineStyle{Color: p.Color(name), Width: vg.Points(1.8), Dashes: p.Dashes(name)}
}

// glyph returns the glyph style of name.
func (p *Palette) glyph(name string) draw.GlyphStyle {
	return draw.GlyphStyle{Color: p.Color(name), Radius: vg.Points(3), Shape: p.Glyph(name)}
}

// fade returns c with alpha a in [0, 1].
func fade(c color.Color, a float64) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: uint8(math.Round(255 * a))}
}

// Font sizes, points.
const (
	titleSize  = 13
	labelSize  = 11
	tickSize   = 9.5
	legendSize = 9.5
)

// sans is the typeface of every text: Liberation Sans, embedded in gonum/plot.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot returns a plot in the house style: title, axis labels with units,
// readable fonts, light grid.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, titleSize)
	p.Title.TextStyle.Color = Ink
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, labelSize)
		a.Label.TextStyle.Color = Ink
		a.Tick.Label.Font = font.From(sans, tickSize)
		a.Tick.Label.Color = Ink
		a.Color = Ink
		a.Tick.Color = Ink
		a.Label.Padding = vg.Points(4)
		a.Tick.Marker = niceTicks{}
	}
	p.Title.TextStyle.Font.Weight = xfont.WeightBold
	p.Legend.TextStyle.Font = font.From(sans, legendSize)
	p.Legend.TextStyle.Color = Ink
	p.Legend.ThumbnailWidth = vg.Points(18)
	p.Legend.Padding = vg.Points(1.5)
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	g.Vertical.Width = vg.Points(0.5)
	g.Horizontal.Width = vg.Points(0.5)
	p.Add(g)
	return p
}

// legendOffset is the legend's distance from the axes it sits against;
// legendGap the least room left between it and the data (a glyph's radius:
// a point's centre outside the legend's box leaves its mark outside too).
const (
	legendOffset = 6 // points
	legendGap    = 4 // points
)

// legendBox is the fraction of p's data area (width, height) that its legend
// covers, with its offset from the axes and a gap to the data, when p is drawn
// on a w by h canvas. The legend is measured as it will be drawn: the
// estimate by characters and rows it replaced took a 6-entry legend for
// 129 by 79 points, where it is 102 by 57, and raised the fit figure's y
// axis to make room for the difference.
func legendBox(p *plot.Plot, w, h vg.Length) (fw, fh float64) {
	c := margin(draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	area := p.DataCanvas(c).Size()
	size := p.Legend.Rectangle(c).Size()
	pad := vg.Points(legendOffset + legendGap)
	if area.X <= 0 || area.Y <= 0 {
		return 1, 1
	}
	fw = float64(size.X+pad) / float64(area.X)
	fh = float64(size.Y+pad) / float64(area.Y)
	return math.Min(fw, 1), math.Min(fh, 1)
}

// Corner is where a legend sits in the data area.
type Corner int

// The four corners.
const (
	TopLeft Corner = iota
	TopRight
	BottomLeft
	BottomRight
)

// legendCorner returns the corner whose box of fraction (fw, fh) of the axis
// ranges holds the fewest points (first of TopLeft, TopRight, BottomLeft,
// BottomRight on ties), and how many points it holds. Points outside the
// axis ranges are not drawn and count for no corner.
func legendCorner(xmin, xmax, ymin, ymax float64, pts []XY, fw, fh float64) (Corner, int) {
	count := [4]int{}
	for _, q := range pts {
		fx, fy, ok := inAxes(xmin, xmax, ymin, ymax, q)
		if !ok {
			continue
		}
		left, right := fx <= fw, fx >= 1-fw
		top, bottom := fy >= 1-fh, fy <= fh
		if top && left {
			count[TopLeft]++
		}
		if top && right {
			count[TopRight]++
		}
		if bottom && left {
			count[BottomLeft]++
		}
		if bottom && right {
			count[BottomRight]++
		}
	}
	best := TopLeft
	for c := TopLeft; c <= BottomRight; c++ {
		if count[c] < count[best] {
			best = c
		}
	}
	return best, count[best]
}

// inAxes returns where q is drawn as fractions of the axis ranges, and
// whether it is drawn (inside them, up to rounding).
func inAxes(xmin, xmax, ymin, ymax float64, q XY) (fx, fy float64, ok bool) {
	if math.IsNaN(q.X) || math.IsNaN(q.Y) {
		return 0, 0, false
	}
	fx = (q.X - xmin) / (xmax - xmin)
	fy = (q.Y - ymin) / (ymax - ymin)
	const eps = 1e-9
	return fx, fy, fx >= -eps && fx <= 1+eps && fy >= -eps && fy <= 1+eps
}

// roomAtTop returns the least top of the y axis that frees a top corner of
// the legend's box (fw, fh): the data under that corner must end below 1-fh
// of the axis (less a margin), so the corner whose side holds the lower data
// needs the least. The axis grows at most 3.3 times.
func roomAtTop(xmin, xmax, ymin, ymax float64, pts []XY, fw, fh float64) float64 {
	high := [2]float64{ymin, ymin} // left, right
	for _, q := range pts {
		fx, _, ok := inAxes(xmin, xmax, ymin, ymax, q)
		if !ok {
			continue
		}
		if fx <= fw {
			high[0] = math.Max(high[0], q.Y)
		}
		if fx >= 1-fw {
			high[1] = math.Max(high[1], q.Y)
		}
	}
	return math.Max(ymax, ymin+(math.Min(high[0], high[1])-ymin)/math.Max(1-fh-0.03, 0.3))
}

// XY is one point of a series.
type XY struct{ X, Y float64 }

// placeLegend puts p's legend in the corner of its data area where it covers
// no data (pts are the points drawn, densified along lines by the caller);
// when every corner holds data it raises the top of the y axis until the
// legend fits above the data in one of the top corners: the one with the
// lower data beneath it. w and h are the size of the plot's canvas; the
// legend is measured as drawn there (legendBox).
// On a logarithmic x axis (plot.LogScale, positive range) the corners are
// judged where the points are drawn, at log x: judged at x itself, a legend
// at the left of an axis from 1 to 128 workers saw the points from 1 to 16
// in its first tenth, where they cover half the width.
func placeLegend(p *plot.Plot, pts []XY, w, h vg.Length) {
	if p.Legend.Rectangle(draw.Canvas{}).Size().Y <= 0 { // no entries
		return
	}
	p.X.Min, p.X.Max = finiteRange(p.X.Min, p.X.Max)
	p.Y.Min, p.Y.Max = finiteRange(p.Y.Min, p.Y.Max)
	xmin, xmax := p.X.Min, p.X.Max
	if _, ok := p.X.Scale.(plot.LogScale); ok && xmin > 0 {
		xmin, xmax = math.Log(xmin), math.Log(xmax)
		lp := make([]XY, 0, len(pts))
		for _, q := range pts {
			if q.X > 0 { // (nothing is drawn there)
				lp = append(lp, XY{math.Log(q.X), q.Y})
			}
		}
		pts = lp
	}
	fw, fh := legendBox(p, w, h)
	c, n := legendCorner(xmin, xmax, p.Y.Min, p.Y.Max, pts, fw, fh)
	if n > 0 {
		p.Y.Max = roomAtTop(xmin, xmax, p.Y.Min, p.Y.Max, pts, fw, fh)
		c, _ = legendCorner(xmin, xmax, p.Y.Min, p.Y.Max, pts, fw, fh)
	}
	p.Legend.Top = c == TopLeft || c == TopRight
	p.Legend.Left = c == TopLeft || c == BottomLeft
	off := vg.Points(legendOffset)
	if p.Legend.Left {
		p.Legend.XOffs = off
	} else {
		p.Legend.XOffs = -off
	}
	if p.Legend.Top {
		p.Legend.YOffs = -off
	} else {
		p.Legend.YOffs = off
	}
}

func finiteRange(lo, hi float64) (float64, float64) {
	if math.IsInf(lo, 0) || math.IsNaN(lo) {
		lo = 0
	}
	if math.IsInf(hi, 0) || math.IsNaN(hi) {
		hi = lo + 1
	}
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// Figure is a figure ready to be written as a PNG of a fixed size.
type Figure struct {
	W, H vg.Length
	draw func(draw.Canvas)
}

// NewFigure returns the figure of one plot of size w by h.
func NewFigure(p *plot.Plot, w, h vg.Length) *Figure {
	return &Figure{W: w, H: h, draw: p.Draw}
}

// Pixels returns the figure's size in pixels at DPI.
func (f *Figure) Pixels() (w, h int) {
	return int(math.Ceil(float64(f.W/vg.Inch)*DPI - 1e-9)), int(math.Ceil(float64(f.H/vg.Inch)*DPI - 1e-9))
}

// WritePNG writes the figure to w as a PNG at DPI.
func (f *Figure) WritePNG(w io.Writer) error {
	c := vgimg.NewWith(vgimg.UseWH(f.W, f.H), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return fmt.Errorf("plots: writing PNG: %w", err)
	}
	if _, err := w.Write(withDPI(buf.Bytes(), DPI)); err != nil {
		return fmt.Errorf("plots: writing PNG: %w", err)
	}
	return nil
}

// withDPI is the PNG b with a pHYs chunk of dpi pixels an inch (as pixels
// a metre, the chunk's unit) after its IHDR: image/png writes none, and a
// document, LaTeX or a word processor, sized the figures drawn at 300 dpi
// at its default of 72 or 96, three or four times too large. b unchanged
// when it does not start with the PNG signature and an IHDR.
func withDPI(b []byte, dpi float64) []byte {
	const sig, ihdrEnd = 8, 8 + 8 + 13 + 4 // signature; IHDR's length, type, data, CRC
	if len(b) < ihdrEnd || string(b[1:4]) != "PNG" || string(b[12:16]) != "IHDR" {
		return b
	}
	ppm := uint32(math.Round(dpi / 0.0254))
	chunk := make([]byte, 0, 21)
	chunk = binary.BigEndian.AppendUint32(chunk, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1) // unit: the metre
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := make([]byte, 0, len(b)+len(chunk))
	out = append(out, b[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, b[ihdrEnd:]...)
}

// Save writes the figure as a PNG to path through a temporary file and a
// rename, so that path never holds a half-written image.
func (f *Figure) Save(path string) error {
	var buf bytes.Buffer
	if err := f.WritePNG(&buf); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

// Save writes p as a w by h PNG at DPI to path, atomically.
func Save(p *plot.Plot, w, h vg.Length, path string) error {
	return NewFigure(p, w, h).Save(path)
}

// WritePNG writes p as a w by h PNG at DPI to out.
func WritePNG(out io.Writer, p *plot.Plot, w, h vg.Length) error {
	return NewFigure(p, w, h).WritePNG(out)
}

// writeFileAtomic writes data to path through a temporary file in the same
// folder and a rename.
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// stack draws plots one above the other on dc, the i-th taking the share
// weights[i] of the height, with their data areas aligned left and right.
func stack(dc draw.Canvas, plots []*plot.Plot, weights []float64) {
	var total float64
	for _, w := range weights {
		total += w
	}
	cs := make([]draw.Canvas, len(plots))
	top := dc.Max.Y
	height := dc.Max.Y - dc.Min.Y
	for i := range plots {
		h := height * vg.Length(weights[i]/total)
		c := dc
		c.Max.Y = top
		c.Min.Y = top - h
		top -= h
		cs[i] = c
	}
	var left, right vg.Length
	for i, p := range plots {
		d := p.DataCanvas(cs[i])
		left = max(left, d.Min.X-cs[i].Min.X)
		right = max(right, cs[i].Max.X-d.Max.X)
	}
	for i, p := range plots {
		d := p.DataCanvas(cs[i])
		c := draw.Crop(cs[i], left-(d.Min.X-cs[i].Min.X), -(right - (cs[i].Max.X - d.Max.X)), 0, 0)
		p.Draw(c)
	}
}

// side draws plots side by side on dc with their data areas the same size.
func side(dc draw.Canvas, plots []*plot.Plot) {
	t := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(18), PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(6)}
	cs := plot.Align([][]*plot.Plot{plots}, t, dc)
	for i, p := range plots {
		p.Draw(cs[0][i])
	}
}

// margin pads a canvas on all sides.
func margin(dc draw.Canvas) draw.Canvas {
	m := vg.Points(6)
	return draw.Crop(dc, m, -m, m, -m)
}

// panel is a plot being built: it remembers the points drawn, so that the
// legend can be placed where it covers no data, and the legend's longest
// entry (in characters), for a legend beside the plot.
type panel struct {
	p       *plot.Plot
	pts     []XY
	longest int
}

// legend adds a legend entry.
func (f *panel) legend(name string, t ...plot.Thumbnailer) {
	f.p.Legend.Add(name, t...)
	f.longest = max(f.longest, len([]rune(name)))
}

// see records points drawn.
func (f *panel) see(pts ...XY) { f.pts = append(f.pts, pts...) }

// seeXYs records points drawn.
func (f *panel) seeXYs(xys plotter.XYs) {
	for _, q := range xys {
		f.pts = append(f.pts, XY{q.X, q.Y})
	}
}

// placeLegend places the legend for a plot drawn on a w by h canvas.
func (f *panel) placeLegend(w, h vg.Length) {
	placeLegend(f.p, f.pts, w, h)
}

// hideTickLabels keeps an axis's tick marks (and so the grid) and hides
// their labels, for the upper panel of a stack labelled below.
func hideTickLabels(a *plot.Axis) {
	a.Tick.Label.Color = color.Transparent
	a.Tick.Label.Font.Size = 0.1
}

// tickLabel writes v with no trailing zeros: 0.4, 25, 20000; very large or
// small magnitudes in exponent form with 4 significant digits, as num
// writes the report's numbers (1e+06, 2.5e-05, 1.235e+06: it kept 3, and
// a stretch of the plan's time axis starting at 1234567 s read 1.23e+06).
func tickLabel(v float64) string { return tickLabelDigits(v, 4) }

// tickLabelDigits is tickLabel with digits significant digits in exponent
// form, and at least 6 in plain form (6 drop the float noise of 0.1+0.2;
// more tell ticks 0.1 apart at 100000, which 6 wrote "100000" each).
func tickLabelDigits(v float64, digits int) string {
	a := math.Abs(v)
	if a != 0 && (a >= 1e6 || a < 1e-3) {
		return strconv.FormatFloat(v, 'g', digits, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', max(6, digits), 64), 64)
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// narrowRange is the relative width under which an axis gets one tick:
// labels that tell ticks apart would need more than about 10 digits.
const narrowRange = 1e-9

// niceTicks puts 4 to 8 labelled ticks at multiples of 1, 2, 2.5 or 5 times a
// power of ten, with unlabelled minor ticks between them. A strip (a panel
// a quarter of a figure's height, such as the fit's residuals) takes 2 to 5
// labelled ticks and one minor tick between two: the full count there drew
// a minor tick every few pixels (27 on the demo's residual strip).
type niceTicks struct{ strip bool }

func (nt niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || !isFinite(min) || !isFinite(max) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	intervals := 6.0
	if nt.strip {
		intervals = 4
	}
	step := niceStep((max - min) / intervals)
	if max-min <= narrowRange*math.Max(math.Abs(min), math.Abs(max)) || !(step > 0) || math.IsInf(step, 0) || math.IsInf(min/step, 0) {
		// One tick in the middle where the loop below never ended: a line
		// flat but for rounding noise (values a few units in the last
		// place apart: v += minor left v as it was), a range wider than
		// float64 holds (max - min overflows, and the index times an
		// infinite step is NaN) or of subnormal width (the step rounds
		// to 0). min/2 + max/2 does not overflow.
		mid := min/2 + max/2
		return []plot.Tick{{Value: mid, Label: tickLabel(mid)}}
	}
	var ts []plot.Tick
	minor := step / 2
	if m := step / math.Pow(10, math.Floor(math.Log10(step))); !nt.strip && (m == 1 || m == 2 || m == 5) {
		minor = step / 5
		if m == 2 {
			minor = step / 4
		}
	}
	first := math.Ceil(min/minor - 1e-9)
	for i := 0.0; ; i++ {
		v := (first + i) * minor
		if !(v <= max+minor*1e-9) || i > 1000 {
			break // (not v > max: a NaN would never end it)
		}
		x := math.Round(v/minor) * minor
		t := plot.Tick{Value: x}
		if r := x / step; math.Abs(r-math.Round(r)) < 1e-6 {
			t.Label = tickLabelDigits(x, stepDigits(x, step))
		}
		ts = append(ts, t)
	}
	return ts
}

// log2Ticks labels a logarithmic axis at the powers of two (1 2 4 8 ... ;
// every k-th power when there would be more than 10 labels), with
// unlabelled minor ticks at 1.5 times each power (3 6 12 ...) when every
// power is labelled. Every tick is positive and within [min, max]: a log
// scale cannot place 0. An axis without a positive range gets no ticks.
type log2Ticks struct{}

func (log2Ticks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) || math.IsInf(max, 0) {
		return nil
	}
	in := func(v float64) bool { return v > 0 && v >= min*(1-1e-12) && v <= max*(1+1e-12) }
	a := math.Ceil(math.Log2(min) - 1e-9)
	b := math.Floor(math.Log2(max) + 1e-9)
	step := math.Max(1, math.Ceil((b-a+1)/10))
	var ts []plot.Tick
	if step == 1 && in(0.75*math.Exp2(a)) {
		ts = append(ts, plot.Tick{Value: 0.75 * math.Exp2(a)})
	}
	for e := a; e <= b; e++ { // at most about 2100 powers of two in float64
		v := math.Exp2(e)
		if !in(v) {
			continue
		}
		t := plot.Tick{Value: v}
		if math.Mod(e, step) == 0 {
			t.Label = tickLabel(v)
		}
		ts = append(ts, t)
		if m := 1.5 * v; step == 1 && in(m) {
			ts = append(ts, plot.Tick{Value: m})
		}
	}
	return ts
}

// stepDigits is how many significant digits tell a tick at x from its
// neighbours step away: from x's leading digit down to the step's last
// (2.5 times a power of ten has two), at least tickLabel's 4 (ticks 200
// apart from 1e+06 read 1.0002e+06, not 1e+06 again; ticks 0.1 apart
// from 100000 read 100000.1, past plain form's 6 digits).
func stepDigits(x, step float64) int {
	if x == 0 || !(step > 0) {
		return 4
	}
	e := math.Floor(math.Log10(step))
	if m := step / math.Pow(10, e); math.Abs(m-2.5) < 1e-9 {
		e--
	}
	return max(4, int(math.Floor(math.Log10(math.Abs(x)))-e)+1)
}

// niceStep returns the smallest of 1, 2, 2.5, 5 (times a power of ten) not
// below raw.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// newLegend returns a free-standing legend in the house style: top-left,
// icons then text.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, legendSize)
	l.TextStyle.Color = Ink
	l.ThumbnailWidth = vg.Points(18)
	l.Padding = vg.Points(2)
	l.Top, l.Left = true, true
	return l
}

// legendStrip is the width kept at the right of a figure for a shared legend
// whose longest entry has n characters.
func legendStrip(n int) vg.Length {
	return vg.Points(legendSize*0.55*float64(n) + 40)
}

// sideLegend draws plots side by side with one legend, shared by the panels,
// in a strip of width w at the right: it covers no data whatever the data.
func sideLegend(dc draw.Canvas, plots []*plot.Plot, leg plot.Legend, w vg.Length) {
	dc = margin(dc)
	side(draw.Crop(dc, 0, -w, 0, 0), plots)
	strip := draw.Crop(dc, dc.Max.X-dc.Min.X-w+vg.Points(10), 0, 0, -vg.Points(28))
	leg.Draw(strip)
}

// log10Ticks labels a logarithmic axis at the powers of ten, as
// plot.LogTicks does, with unlabelled minor ticks at their multiples 2..9;
// on an axis that holds fewer than two powers of ten (a response-time CDF
// from 300 s to 4,000 s had one label, 1000) it labels 1, 2 and 5 times
// each power, and when that too gives fewer than two labels (210 s to
// 480 s), every multiple; within the gap between two multiples, the
// linear axis's ticks. Every tick is positive and within [min, max]; an
// axis without a positive range gets no ticks.
type log10Ticks struct{}

func (log10Ticks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) || math.IsInf(max, 0) {
		return nil
	}
	in := func(v float64) bool { return v >= min*(1-1e-12) && v <= max*(1+1e-12) }
	lo := math.Floor(math.Log10(min))
	hi := math.Floor(math.Log10(max))
	// the multiples m·10^e in range, labelled where label(m) says
	ticks := func(label func(m int) bool) ([]plot.Tick, int) {
		var ts []plot.Tick
		n := 0
		for e := lo; e <= hi; e++ { // at most about 630 decades in float64
			p := math.Pow(10, e)
			for m := 1; m <= 9; m++ {
				v := float64(m) * p
				if !in(v) {
					continue
				}
				t := plot.Tick{Value: v}
				if label(m) {
					t.Label = tickLabel(v)
					n++
				}
				ts = append(ts, t)
			}
		}
		return ts, n
	}
	for _, label := range []func(int) bool{
		func(m int) bool { return m == 1 },
		func(m int) bool { return m == 1 || m == 2 || m == 5 },
		func(int) bool { return true },
	} {
		if ts, n := ticks(label); n >= 2 {
			return ts
		}
	}
	// within one multiple's gap (320 to 380): a linear axis's ticks,
	// which are positive there (on so narrow a range the scale is
	// nearly linear)
	return niceTicks{}.Ticks(min, max)
}
