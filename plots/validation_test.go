package plots

import (
	"bytes"
	"image/png"
	"math"
	"testing"
)

func TestValidationFigure(t *testing.T) {
	d := ValidationData{
		Datasets: []string{"a", "b"},
		Methods:  []string{"sgdplan", "optimus", "ernest"},
		MAPE:     [][]float64{{10, 20}, {30, math.NaN()}, {5, 8}},
	}
	f, err := ValidationFigure(d)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.WritePNG(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w, h := f.Pixels()
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("image %v, want %dx%d", b, w, h)
	}
	// Not blank: some pixel is far from white.
	dark := 0
	for y := 0; y < h; y += 7 {
		for x := 0; x < w; x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			if r+g+b < 3*0x8000 {
				dark++
			}
		}
	}
	if dark == 0 {
		t.Error("blank figure")
	}
	for _, bad := range []ValidationData{
		{},
		{Datasets: []string{"a"}, Methods: []string{"m"}, MAPE: [][]float64{{1, 2}}},
		{Datasets: []string{"a"}, Methods: []string{"m", "n"}, MAPE: [][]float64{{1}}},
	} {
		if _, err := ValidationFigure(bad); err == nil {
			t.Errorf("no error for %+v", bad)
		}
	}
}
