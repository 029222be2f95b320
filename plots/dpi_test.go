package plots

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image/png"
	"testing"

	"gonum.org/v1/plot"
)

// Every PNG says it is 300 dpi (a pHYs chunk of 11811 pixels a metre,
// right after IHDR, its CRC right): documents sized the figures at their
// default 72 or 96 dpi, three or four times too large. The image still
// decodes, at the size Pixels gives.
func TestPNGCarriesDPI(t *testing.T) {
	f := NewFigure(plot.New(), Width, PanelHeight)
	var buf bytes.Buffer
	if err := f.WritePNG(&buf); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	const at = 8 + 25
	if len(b) < at+21 || string(b[at+4:at+8]) != "pHYs" || binary.BigEndian.Uint32(b[at:]) != 9 {
		t.Fatalf("no pHYs chunk after IHDR: % x", b[at:min(len(b), at+21)])
	}
	x, y, unit := binary.BigEndian.Uint32(b[at+8:]), binary.BigEndian.Uint32(b[at+12:]), b[at+16]
	if x != 11811 || y != 11811 || unit != 1 {
		t.Errorf("pHYs %d x %d unit %d, want 11811 x 11811 per metre (300 dpi)", x, y, unit)
	}
	if crc := binary.BigEndian.Uint32(b[at+17:]); crc != crc32.ChecksumIEEE(b[at+4:at+17]) {
		t.Errorf("pHYs CRC %08x", crc)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := f.Pixels(); img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Errorf("decoded %v, want %d x %d", img.Bounds(), w, h)
	}
	if got := withDPI([]byte("not a png"), DPI); string(got) != "not a png" {
		t.Errorf("withDPI of no PNG: %q", got)
	}
}
