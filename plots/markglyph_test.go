package plots

import (
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// A completion mark follows its band's stripes: filled (no stripes),
// hollow (rising), hollow with a dot (falling): the demo's vgg16 and
// async-ps-fitted, one blue, had the same triangle.
func TestCompletionMarkFollowsHatch(t *testing.T) {
	kinds := func(hatch int) string {
		rec := &recorder.Canvas{}
		c := draw.NewCanvas(rec, vg.Points(100), vg.Points(100))
		invertedTriangle{hatch: hatch}.DrawGlyph(&c, draw.GlyphStyle{Color: OkabeIto[0], Radius: vg.Points(4)}, vg.Point{X: 50, Y: 50})
		out := ""
		for _, a := range rec.Actions {
			switch a.(type) {
			case *recorder.Fill:
				out += "F"
			case *recorder.Stroke:
				out += "S"
			}
		}
		return out
	}
	for hatch, want := range map[int]string{0: "F", 1: "FS", -1: "FSF"} {
		if got := kinds(hatch); got != want {
			t.Errorf("hatch %d: %s, want %s (F fill, S stroke)", hatch, got, want)
		}
	}
}
