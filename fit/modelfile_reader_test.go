package fit

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/model"
)

// asyncEffJSON is an asynchronous mva model with a loss curve (1/(0.01 k
// + 0.4) + 0.1 in updates of 32 samples, target 0.6), its staleness law
// and interval.
const asyncEffJSON = `{"schema": "sgdplan/model/v1", "family": "mva", "mode": "async",
 "parameters": [{"name": "z0", "value": 0.1, "lo": 0.09, "hi": 0.11}, {"name": "z1", "value": 0}, {"name": "link", "value": 0.07, "lo": 0.06, "hi": 0.08}, {"name": "apply", "value": 0.001, "lo": 0.0009, "hi": 0.0011}],
 "reference": {"batch": 32, "ps": 1},
 "efficiency": {"b0": 0.01, "b1": 0.4, "b2": 0.1, "lambda": 0.03, "lambda_lo": 0.01, "lambda_hi": 0.05, "staleness_per_worker": 0.9, "staleness_per_worker_lo": 0.85, "staleness_per_worker_hi": 0.96, "target_loss": 0.6, "batch": 32},
 "diagnostics": {"rmsle": 0.1, "warnings": []}}`

// deepDoc is doc, a JSON object, with "x": arrays nested depth deep as its
// last field.
func deepDoc(doc string, depth int) string {
	doc = strings.TrimSpace(doc)
	return doc[:len(doc)-1] + ",\n \"x\": " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}"
}

// A model.json nested deeper than encoding/json's own limit (10,000 levels,
// the document's object the first) is refused at the bracket past it,
// before the token walks that place its faults: arrays nested 100,000 deep
// in an unknown field ran predict for over 14 minutes and 24 GB (each
// level built its path with Sprintf: the square of the depth), and one
// level under the limit still cost seconds. Brackets in strings do not
// count.
func TestParseModelNestedTooDeep(t *testing.T) {
	for _, depth := range []int{maxJSONDepth, 3 * maxJSONDepth} {
		doc := deepDoc(asyncEffJSON, depth)
		// the 10,001st level: the 10,000th [ of "x"
		want := "m.json:" + posAfter(doc, `"x": `+strings.Repeat("[", maxJSONDepth-1)) + ": not a model.json: arrays or objects nested more than 10000 deep"
		if _, err := ParseModel("m.json", []byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("depth %d: %v, want %q", depth, err, want)
		}
	}
	// at the limit: read on, and refused as the unknown field it is
	doc := deepDoc(asyncEffJSON, maxJSONDepth-1)
	if _, err := ParseModel("m.json", []byte(doc)); err == nil || !strings.Contains(err.Error(), `m.json:`+posAfter(doc, `"x": `)+`: unknown field "x"`) {
		t.Errorf("depth %d: %v", maxJSONDepth-1, err)
	}
	// a deep array where a bootstrap sample's number belongs: placed as a
	// shallow one is (77 s at 9,990 levels before the walks kept their
	// paths on a stack and jsonPositions stopped recording at
	// maxPathDepth)
	var errs [2]string
	for i, depth := range []int{2, 5000} {
		doc := strings.Replace(asyncEffJSON, `"reference"`, `"bootstrap_samples": [[0.1, 0, 0.07, 0.001], [`+strings.Repeat("[", depth)+strings.Repeat("]", depth)+`, 0, 0.07, 0.001]], "reference"`, 1)
		_, err := ParseModel("m.json", []byte(doc))
		if err == nil {
			t.Fatalf("depth %d in a sample: read", depth)
		}
		errs[i] = err.Error()
	}
	if want := "field bootstrap_samples[1][0]: expected a number, got JSON array"; errs[0] != errs[1] || !strings.Contains(errs[0], want) {
		t.Errorf("deep bootstrap sample: %q, a shallow one %q, want %q", errs[1], errs[0], want)
	}
	// brackets inside strings, escaped quotes among them
	s := `{"a": "` + strings.Repeat(`[\"{`, 2*maxJSONDepth) + `"}`
	if off, ok := tooDeep([]byte(s)); ok {
		t.Errorf("brackets in a string counted: deep at %d", off)
	}
	if off, ok := tooDeep([]byte(strings.Repeat("[", maxJSONDepth+1))); !ok || off != maxJSONDepth {
		t.Errorf("tooDeep of %d [: %d %v, want %d", maxJSONDepth+1, off, ok, maxJSONDepth)
	}
}

// The token walks give the paths they gave with a path per level: a
// repeated key deep in arrays, and positions down to maxPathDepth (a
// deeper value takes its enclosing value's place).
func TestJSONPathsOnAStack(t *testing.T) {
	doc := `{"a": [1, [2, {"b": {"c": [0, 0, {"d": 1, "d": 2}]}}]], "e": {"": 3}}`
	if path, _, _, ok := badKey([]byte(doc), nil); !ok || path != "a[1][1].b.c[2].d" {
		t.Errorf("repeated key at %q (%v), want a[1][1].b.c[2].d", path, ok)
	}
	pos := jsonPositions([]byte(doc))
	for path, want := range map[string]string{"a[1][1].b.c[2].d": `2}]`, "a[1][0]": `2, {`, "e": `{"": 3}`, "e.": `3}`, "": doc} {
		if off, ok := pos[path]; !ok || !strings.HasPrefix(doc[off:], want) {
			t.Errorf("%q at %d (%v), want at %q", path, off, ok, want)
		}
	}
	deep := `{"k": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "}"
	pos = jsonPositions([]byte(deep))
	last := "k" + strings.Repeat("[0]", maxPathDepth-1)
	if _, ok := pos[last]; !ok || len(pos) != maxPathDepth+1 {
		t.Errorf("%d positions recorded (want %d, %s among them)", len(pos), maxPathDepth+1, last)
	}
	if got, want := positionOf(pos, last+"[0][0]"), pos[last]; got != want {
		t.Errorf("a value below maxPathDepth placed at %d, want its enclosing value's %d", got, want)
	}
}

// Fields in range each whose time to target at one worker is not a finite
// number are refused at read time, at the field: predict refused every row
// ("time to target +Inf s [NaN, inf]: not all finite numbers", no place in
// the file), while check, which reads the file the same way, gave a
// verdict.
func TestParseModelTargetNotFinite(t *testing.T) {
	for _, c := range []struct{ name, doc, old, new, key string }{
		{"efficiency.batch", asyncEffJSON, `"batch": 32}`, `"batch": 1e308}`, `"target_loss": 0.6, "batch": `},
		{"efficiency.b0", asyncEffJSON, `"b0": 0.01`, `"b0": 5e-324`, `"b0": `},
		{"efficiency.gns.steps_ref", strings.Replace(gnsModelJSON, `"ref_batch": 32`, `"ref_batch": 64`, 1), `"steps_ref": 1000`, `"steps_ref": 1e308`, `"steps_ref": `},
	} {
		if _, err := ParseModel("m.json", []byte(c.doc)); err != nil {
			t.Fatalf("%s: the model as it is: %v", c.name, err)
		}
		doc := strings.Replace(c.doc, c.old, c.new, 1)
		want := "m.json:" + posAfter(doc, c.key) + ": efficiency: "
		_, err := ParseModel("m.json", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "+Inf updates") || !strings.Contains(err.Error(), "want fields that reach the target in a finite time") {
			t.Errorf("%s: %v, want %q", c.name, err, want)
		}
	}
}

// -0 in model.json is read as 0: staleness_per_worker_lo -0.0 was printed
// as staleness_lo -0, and diagnostics.rmsle -0.0 as fit_rmsle -0.
func TestParseModelNegativeZero(t *testing.T) {
	doc := strings.NewReplacer(`"staleness_per_worker_lo": 0.85`, `"staleness_per_worker_lo": -0.0`, `"rmsle": 0.1`, `"rmsle": -0`, `"z1", "value": 0`, `"z1", "value": -0e5`).Replace(asyncEffJSON)
	m, err := ParseModel("m.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]float64{"staleness_per_worker_lo": m.Efficiency.StalenessLo, "rmsle": m.Diagnostics.RMSLE, "z1": m.Parameters[1].Value} {
		if v != 0 || math.Signbit(v) {
			t.Errorf("%s = %g, want 0", name, v)
		}
	}
	if lo := m.Predict(model.Config{Workers: 8}, math.NaN(), 0).Staleness.Lo; math.Signbit(lo) {
		t.Errorf("staleness at 8 workers from %g", lo)
	}
	// every float64 of a model, nested, in a slice or behind a pointer
	cv := math.Copysign(0, -1)
	x := struct {
		A float64
		B []float64
		C *float64
		D struct{ E [][]float64 }
		f float64
	}{A: cv, B: []float64{cv, 1}, C: &cv, D: struct{ E [][]float64 }{[][]float64{{cv}}}, f: cv}
	positiveZeros(reflect.ValueOf(&x).Elem())
	if math.Signbit(x.A) || math.Signbit(x.B[0]) || math.Signbit(*x.C) || math.Signbit(x.D.E[0][0]) || x.B[1] != 1 {
		t.Errorf("-0 left: %+v %g", x, *x.C)
	}
}

// A model with 1 to 9 bootstrap samples is read, with a word: its
// percentile intervals rest on those few (a "90%" interval from one
// sample was printed without one; fit takes --bootstrap 10 or more, but
// drops the resamples it cannot use, so it can write such a file). None
// from 10 on.
func TestFewBootstrapSamplesWarning(t *testing.T) {
	samples := func(n int) string {
		var s []string
		for i := range n { // (not all alike: NoBootstrapWarning says so of those)
			s = append(s, fmt.Sprintf("[%g, 0, 0.07, 0.001]", 0.1+0.001*float64(i)))
		}
		return `"bootstrap_samples": [` + strings.Join(s, ", ") + `], "reference"`
	}
	for _, n := range []int{1, 9, 10} {
		m, err := ParseModel("m.json", []byte(strings.Replace(asyncEffJSON, `"reference"`, samples(n), 1)))
		if err != nil {
			t.Fatal(err)
		}
		w := m.NoBootstrapWarning(false)
		caveats := strings.Join(m.Caveats([]model.Config{{Workers: 2}}), "\n")
		if n >= MinBootstrap {
			if w != "" || strings.Contains(caveats, "bootstrap sample") {
				t.Errorf("%d samples: %q", n, w)
			}
			continue
		}
		want := "the model holds " + map[int]string{1: "1 bootstrap sample: its 90% intervals rest on 1 resample", 9: "9 bootstrap samples: its 90% intervals rest on 9 resamples"}[n]
		if !strings.Contains(w, want) || !strings.Contains(caveats, want) || w != m.NoBootstrapWarning(true) {
			t.Errorf("%d samples: %q (caveats %q), want %q", n, w, caveats, want)
		}
	}
}

// A parameter whose value lies outside its interval by more than the
// interval is wide is warned of (z0 0.2 against [0.1013, 0.1023]: predict
// printed 2.959 [2.959, 4.184], the point at one end, without a word);
// within that, or where rounding alone parts them, it is not.
func TestParamIntervalWarning(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     string
	}{
		{`"value": 0.1, "lo": 0.09, "hi": 0.11`, `"value": 0.2, "lo": 0.09, "hi": 0.11`, "parameter z0 = 0.2 lies outside its interval [0.09, 0.11] by more than the interval is wide"},
		{`"value": 0.1, "lo": 0.09, "hi": 0.11`, `"value": 0.05, "lo": 0.09, "hi": 0.11`, "parameter z0 = 0.05 lies outside"},
		{`"value": 0.07, "lo": 0.06, "hi": 0.08`, `"value": 0.01, "lo": 0.06, "hi": 0.08`, "parameter link = 0.01 lies outside its interval [0.06, 0.08]"},
		{`"value": 0.1, "lo": 0.09, "hi": 0.11}, {"name": "z1", "value": 0}, {"name": "link", "value": 0.07`, `"value": 0.2, "lo": 0.09, "hi": 0.11}, {"name": "z1", "value": 0}, {"name": "link", "value": 0.2`, "parameter z0 = 0.2 lies outside its interval [0.09, 0.11] by more than the interval is wide (and 1 parameter more)"},
		{`"value": 0.1, "lo": 0.09, "hi": 0.11`, `"value": 0.125, "lo": 0.09, "hi": 0.11`, ""},                           // nearer than the width
		{`"value": 0.1, "lo": 0.09, "hi": 0.11`, `"value": 0.1, "lo": 0.1000000000000001, "hi": 0.1000000000000001`, ""}, // rounding
		{"", "", ""},
	} {
		m, err := ParseModel("m.json", []byte(strings.Replace(asyncEffJSON, c.old, c.new, 1)))
		if err != nil {
			t.Fatal(err)
		}
		w := m.ParamIntervalWarning()
		caveats := strings.Join(m.Caveats([]model.Config{{Workers: 2}}), "\n")
		if c.want == "" && (w != "" || strings.Contains(caveats, "lies outside its interval")) || !strings.Contains(w, c.want) || !strings.Contains(caveats, c.want) {
			t.Errorf("%s: %q, want %q", c.new, w, c.want)
		}
	}
}

// BenchmarkParseModelDeep reads a model.json with arrays nested in an
// unknown field one level under encoding/json's limit (refused as the
// unknown field) and one level past it (refused as too deep): the token
// walks that place the faults cost the square of the depth before they
// kept their paths on a stack.
func BenchmarkParseModelDeep(b *testing.B) {
	for _, depth := range []int{maxJSONDepth - 1, maxJSONDepth} {
		doc := []byte(deepDoc(asyncEffJSON, depth))
		b.Run(fmt.Sprintf("depth=%d", depth+1), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseModel("m.json", doc); err == nil {
					b.Fatal("read")
				}
			}
		})
	}
}

// A model whose bootstrap samples are all one parameter vector (an exact
// fit's refits land where it did) is read with a word, in Caveats too;
// samples that differ in one value are not alike.
func TestSamplesAlikeWarning(t *testing.T) {
	with := func(last string) *Model {
		s := strings.Repeat("[0.1, 0, 0.07, 0.001], ", 11) + last
		m, err := ParseModel("m.json", []byte(strings.Replace(asyncEffJSON, `"reference"`, `"bootstrap_samples": [`+s+`], "reference"`, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := with("[0.1, 0, 0.07, 0.001]")
	w := m.NoBootstrapWarning(false)
	if !m.SamplesAlike() || !strings.HasPrefix(w, "all 12 of the model's bootstrap samples are the same fit") || w != m.NoBootstrapWarning(true) ||
		!slices.Contains(m.Caveats([]model.Config{{Workers: 2}}), w) {
		t.Errorf("alike: %v %q", m.SamplesAlike(), w)
	}
	if m := with("[0.1, 0, 0.0701, 0.001]"); m.SamplesAlike() || m.NoBootstrapWarning(true) != "" {
		t.Errorf("one differs: %v %q", m.SamplesAlike(), m.NoBootstrapWarning(true))
	}
}
