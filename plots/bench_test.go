package plots

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// Rendering a figure to PNG at 300 dpi: go test -bench . -benchtime 3x ./plots

func BenchmarkFitFigure(b *testing.B) {
	d := fitExample()
	benchPNG(b, func() (*Figure, error) { return FitFigure(d) })
}

// benchPNG times making a figure with draw and writing it as PNG.
func benchPNG(b *testing.B, draw func() (*Figure, error)) {
	b.Helper()
	for b.Loop() {
		fig, err := draw()
		if err != nil {
			b.Fatal(err)
		}
		if err := fig.WritePNG(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlanFigure(b *testing.B) {
	for _, segs := range []int{100, 2000} {
		b.Run(fmt.Sprintf("segments=%d", segs), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			d := PlanData{Servers: 64, Completions: map[string]float64{}}
			for i := range segs {
				a := map[string]float64{}
				left := 64.0
				for j := range 8 {
					w := left * rng.Float64() / 2
					a[fmt.Sprintf("job%d", j)] = w
					left -= w
				}
				d.Segments = append(d.Segments, PlanSegment{Start: float64(i), End: float64(i + 1), Alloc: a})
			}
			for j := range 8 {
				d.Completions[fmt.Sprintf("job%d", j)] = float64(segs) * float64(j+1) / 8
			}
			benchPNG(b, func() (*Figure, error) { return PlanFigure(d) })
		})
	}
	// plans of many jobs (manyJobsPlan: four arrivals a segment on 512
	// servers, binned to MaxDrawnSegments): bands and marks were one a
	// job, O(jobs x bins)
	for _, n := range []int{2000, 20000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			d := manyJobsPlan(n, n/4, 512)
			b.ReportAllocs()
			benchPNG(b, func() (*Figure, error) { return PlanFigure(d) })
		})
	}
}

func BenchmarkSimulationFigure(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("times=%d", n), func(b *testing.B) {
			d := simulationExample()
			rng := rand.New(rand.NewPCG(2, 2))
			for i := range d.Responses {
				d.Responses[i].Times = d.Responses[i].Times[:0]
				for range n {
					d.Responses[i].Times = append(d.Responses[i].Times, 1+100*rng.ExpFloat64())
				}
			}
			benchPNG(b, func() (*Figure, error) { return SimulationFigure(d) })
		})
	}
}
