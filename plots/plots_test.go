package plots

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// figurePNG draws a figure and gives its PNG bytes.
func figurePNG(t *testing.T, draw func() (*Figure, error)) []byte {
	t.Helper()
	f, err := draw()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// smoke renders fig, decodes the PNG and checks its size (DPI times the
// figure's inches) and that it is not blank (several distinct colours). When
// PLOTS_KEEP names a folder the PNG is kept there as name.png for a look.
func smoke(t *testing.T, fig *Figure, name string) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := fig.WritePNG(&buf); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("PLOTS_KEEP"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name+".png"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("%s: PNG does not decode: %v", name, err)
	}
	wantW := int(math.Round(float64(fig.W) / 72 * DPI))
	wantH := int(math.Round(float64(fig.H) / 72 * DPI))
	b := img.Bounds()
	if b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("%s: size %dx%d, want %dx%d (%d dpi)", name, b.Dx(), b.Dy(), wantW, wantH, DPI)
	}
	if n := distinctColours(img, 50); n < 5 {
		t.Errorf("%s: %d distinct colours, want a drawn figure (>= 5)", name, n)
	}
	return img
}

// distinctColours counts distinct colours on a grid of step pixels.
func distinctColours(img image.Image, step int) int {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bb, a := img.At(x, y).RGBA()
			seen[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bb >> 8), uint8(a >> 8)}] = true
			if len(seen) > step {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// within reports whether got is within rel of want (relative), or exactly
// equal when want is 0.
func within(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) <= rel
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}
