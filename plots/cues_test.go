package plots

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
)

// The scaling figure's series differ by more than colour: no two of the
// demo's nine jobs share both marker shape and dash pattern (Glyph gave
// the first and the ninth name, async-ps-fitted and transformer, both a
// filled circle on a solid line), and two jobs of one colour differ in
// shape.
func TestScalingSecondCue(t *testing.T) {
	names := []string{"async-ps-fitted", "bert-base", "gpt-tiny", "lstm-small", "mnist", "resnet18", "resnet50", "transformer", "vgg16"}
	for _, n := range []int{9, 24} {
		all := slices.Clone(names)
		for i := len(all); i < n; i++ {
			all = append(all, fmt.Sprintf("job%02d", i))
		}
		pal := NewPalette(all...)
		seen := map[string]string{}
		for _, name := range all {
			key := fmt.Sprintf("%T %v", seriesGlyph(pal, name), pal.Dashes(name))
			if other, dup := seen[key]; dup {
				t.Errorf("%d jobs: %s and %s share marker and dashes (%s)", n, other, name, key)
			}
			seen[key] = name
		}
		for _, a := range all {
			for _, b := range all {
				if a < b && pal.Color(a) == pal.Color(b) && reflect.TypeOf(seriesGlyph(pal, a)) == reflect.TypeOf(seriesGlyph(pal, b)) {
					t.Errorf("%d jobs: %s and %s share colour and marker", n, a, b)
				}
			}
		}
	}
}

// Each curve carries scalingMarksPerCurve markers inside its workers,
// evenly spaced, and two curves' markers stand at different counts.
func TestScalingMarks(t *testing.T) {
	c := ScalingCurve{Job: "a", Workers: []float64{1, 2, 4, 8, 16}, Speedup: []float64{1, 2, 3, 4, 5}}
	// spacing (16-1)/4 = 3.75; curve 0 of 3 starts a sixth of it in
	got := scalingMarks(c, 0, 3)
	want := []float64{1.625, 5.375, 9.125, 12.875}
	if len(got) != len(want) {
		t.Fatalf("marks %v, want %v", got, want)
	}
	for i := range want {
		if !within(got[i], want[i], 1e-12) {
			t.Errorf("mark %d at %g, want %g", i, got[i], want[i])
		}
	}
	for k := 0; k < 3; k++ {
		for _, x := range scalingMarks(c, k, 3) {
			if x < 1 || x > 16 {
				t.Errorf("curve %d: mark at %g outside 1..16", k, x)
			}
		}
	}
	a, b := scalingMarks(c, 0, 3), scalingMarks(c, 1, 3)
	for i := range a {
		if math.Abs(a[i]-b[i]) < 1 {
			t.Errorf("curves 0 and 1: marks %g and %g less than a worker apart", a[i], b[i])
		}
	}
}
