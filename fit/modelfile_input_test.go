package fit

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// A key given twice in any object of model.json is refused at the repeat
// (encoding/json kept the last: "mode": "async", "mode": "sync" turned a
// failing check into a fine one); a UTF-8 byte-order mark before the JSON
// is read past, as the CSV readers do.
func TestParseModelDuplicateKeysAndBOM(t *testing.T) {
	good, err := fittedModel(t).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g := string(good)
	for _, c := range []struct{ name, doc, want string }{
		{"top", strings.Replace(g, `"mode": "sync",`, `"mode": "sync", "mode": "async",`, 1), `m.json:` + posAfter(strings.Replace(g, `"mode": "sync",`, `"mode": "sync", "mode": "async",`, 1), `"mode": "sync", `) + `: field "mode" appears twice`},
		{"nested", strings.Replace(g, `"ps": 2,`, `"ps": 2, "ps": 1,`, 1), `field "reference.ps" appears twice`},
		{"in a list", strings.Replace(g, `"unit": "s"`, `"unit": "s", "unit": "ms"`, 1), `field "parameters[0].unit" appears twice`},
		// encoding/json matches names in any case: "PS" overwrote "ps"
		{"other case", strings.Replace(g, `"ps": 2,`, `"ps": 2, "PS": 1,`, 1), `field "reference.PS" appears twice`},
	} {
		if _, err := ParseModel("m.json", []byte(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	m, err := ParseModel("m.json", append([]byte("\xef\xbb\xbf"), good...))
	if err != nil || m.Family != "optimus-sync" {
		t.Errorf("with a byte-order mark: %v", err)
	}
	// positions after a mark are those an editor shows
	bad := "\xef\xbb\xbf{\n  \"schema\": 3}"
	if _, err := ParseModel("m.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "m.json:2:") {
		t.Errorf("error after a byte-order mark: %v", err)
	}
}

// posAfter is "line:col" of the text just after the first occurrence of
// key in doc.
func posAfter(doc, key string) string {
	i := strings.Index(doc, key) + len(key)
	line, col := lineCol([]byte(doc), int64(i))
	return fmt.Sprintf("%d:%d", line, col)
}

// Values out of their range in model.json are refused at their line and
// column with the range (audit: each was read, and predicted from).
func TestParseModelValueRanges(t *testing.T) {
	m := fittedModel(t)
	m.Efficiency = &Efficiency{B0: 0.01, B1: 1, B2: 0.1, StalenessPerWorker: 1, TargetLoss: 0.5, LowestLoss: 0.3, LowestMeasuredLoss: 0.35}
	good, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g := string(good)
	if _, err := ParseModel("m.json", good); err != nil {
		t.Fatal(err)
	}
	at := func(doc, key string) string { return "m.json:" + posAfter(doc, key) + ": " }
	for _, c := range []struct{ old, new, key, want string }{
		{`"value": [-0-9.e+]+`, `"value": null`, `"value": `, "has no value (absent or null)"},
		{`"hi": [-0-9.e+]+`, `"hi": -1e9`, `"lo": `, "want lo <= hi"},
		{`"level": 0.9`, `"level": 90`, `"level": `, "level = 90: want the intervals' coverage"},
		{`"interval_scale": [0-9.e+]+`, `"interval_scale": 0.5`, `"interval_scale": `, "interval_scale = 0.5: want 1 to 1e+06"},
		{`"interval_scale": [0-9.e+]+`, `"interval_scale": 1e300`, `"interval_scale": `, "interval_scale = 1e+300: want 1 to 1e+06"},
		{`"ps": 2`, `"ps": -1`, `"ps": `, "reference.ps = -1"},
		// predict walked every count up to it (1e9: over 10 CPU-minutes)
		{`"ps": 2`, `"ps": 1000000000`, `"ps": `, "reference.ps = 1000000000: too large: want the shards, from 0 (all-reduce) to 1000000 (the limit of --ps)"},
		{`"ps": 2`, `"ps": 1000001`, `"ps": `, "reference.ps = 1000001: too large"},
		// fitted on shards, predicted at none by default
		{`"ps": 2`, `"ps": 0`, `"ps": `, "reference.ps = 0, but the fitted data (data.configurations) have parameter-server shards"},
		{`"batch": 32`, `"batch": 32.5`, `"batch": `, "reference.batch = 32.5: want the samples per worker and step, a whole number"},
		{`"batch": 32`, `"batch": 0`, `"batch": `, "reference.batch = 0: want"},
		{`"max_workers": 8`, `"max_workers": -2`, `"max_workers": `, "reference.max_workers = -2"},
		// data.configurations records the fitted worker counts: a
		// max_workers beyond them hid the warning that a count
		// extrapolates (a smaller one would warn inside the data)
		{`"max_workers": 8`, `"max_workers": 100000`, `"max_workers": `, "reference.max_workers = 100000, but the largest worker count of data.configurations (the fitted data) is 8: want 8 (or 0"},
		{`"max_workers": 8`, `"max_workers": 4`, `"max_workers": `, "reference.max_workers = 4, but the largest worker count of data.configurations (the fitted data) is 8"},
		{`"max_workers": 8`, `"max_workers": 0`, `"max_workers": `, ""},
		// the fitted data's counts (-3 or 0 workers were read without a
		// word); the first "workers" of the file is data.configurations[0]'s
		{`"workers": [0-9]+`, `"workers": -3`, `"workers": `, "data.configurations[0].workers = -3: want the fitted worker count, 1 to 1000000"},
		{`"workers": [0-9]+`, `"workers": 0`, `"workers": `, "data.configurations[0].workers = 0: want the fitted worker count, 1 to 1000000"},
		{`"workers": [0-9]+,\s+"ps": [0-9]+`, `"workers": 1, "ps": -2`, `"workers": 1, "ps": `, "data.configurations[0].ps = -2: want the fitted shards, 0 (all-reduce) to 1000000"},
		{`"b0": 0.01`, `"b0": 0`, `"b0": `, "b0 = 0: want the loss curve's rate, > 0"},
		{`"target_loss": 0.5`, `"target_loss": -1`, `"target_loss": `, "target_loss = -1"},
		{`"staleness_per_worker": 1`, `"staleness_per_worker": -1`, `"staleness_per_worker": `, "staleness_per_worker = -1"},
		{`"b1": 1`, `"b1": -5`, `"b1": `, "b1 = -5: want 1/(the loss at the start above the floor), >= 0"},
		{`"target_loss": 0.5`, `"target_loss": 0.05`, `"target_loss": `, "target_loss = 0.05 is at or below the curve's floor b2 = 0.1: never reached"},
		{`"lowest_loss": 0.3`, `"lowest_loss": -1`, `"lowest_loss": `, "lowest_loss = -1: want a loss >= 0"},
		{`"lowest_loss": 0.3`, `"lowest_loss": 0.6`, `"lowest_loss": `, "lowest_loss = 0.6 is above target_loss = 0.5"},
		{`"lowest_measured_loss": 0.35`, `"lowest_measured_loss": -0.1`, `"lowest_measured_loss": `, "lowest_measured_loss = -0.1: want the lowest loss a fitted run measured, >= 0"},
		{`"mode": "sync"`, `"mode": "async"`, `"mode": `, `mode "async", but family optimus-sync predicts synchronous steps`},
		{`"rate": [-0-9.e+]+`, `"rate": 1e6`, `"rate": `, "extrapolation: rate 1e+06, want a finite number from 0 to 100"},
		{`"max_ps": [0-9]+`, `"max_ps": -1`, `"max_ps": `, "extrapolation: max_ps -1, want the largest fitted count, >= 0"},
		// checked against the fitted data's record (2^62: every interval
		// from a millionth to a million times the point)
		{`"max_ps": [0-9]+`, `"max_ps": 3`, `"max_ps": `, "extrapolation: max_ps 3, but the most shards of data.configurations (the fitted data) is 2"},
		{`"min_workers": 1`, `"min_workers": 0`, `"min_workers": `, ""},
		{`"level": 0.9`, `"level": 1e-300`, `"level": `, "level = 1e-300: want the intervals' coverage, from 0.5"},
		// 0 is a value, not an absent level (read as 90% until 2026-12-06)
		{`"level": 0.9`, `"level": 0`, `"level": `, "level = 0: want the intervals' coverage, from 0.5"},
		{`"rmsle": [0-9.e+-]+`, `"rmsle": 1e308`, `"rmsle": `, "diagnostics.rmsle = 1e+308: want the fit's root mean square log error on its data, 0 to 50"},
		{`"rmsle": [0-9.e+-]+`, `"rmsle": -1`, `"rmsle": `, "diagnostics.rmsle = -1"},
		{`"batch": 32`, `"batch": 1e300`, `"batch": `, "reference.batch = 1e+300: want the samples per worker and step, a whole number from 1 to 2^53"},
		{`"schema": "sgdplan/model/v1",`, `"schema": "sgdplan/model/v1", "efficency": {},`, `"efficency": `, `unknown field "efficency"`},
		// a typo below the top level: encoding/json would ignore it
		{`"lambda": `, `"lamda_hi": 3, "lambda": `, `"lamda_hi": `, `unknown field "efficiency.lamda_hi": its object has b0, b1, b2, lambda, lambda_lo, lambda_hi`},
		{`"unit": `, `"units": "s", "unit": `, `"units": `, `unknown field "parameters[0].units"`},
		{`"max_ps": `, `"max_pss": 3, "max_ps": `, `"max_pss": `, `unknown field "extrapolation.max_pss"`},
	} {
		// old is a regular expression where it holds one ("[-0-9.e+]+":
		// the number there), else literal text; the first match is replaced
		re := regexp.MustCompile(regexp.QuoteMeta(c.old))
		if strings.Contains(c.old, "]+") {
			re = regexp.MustCompile(c.old)
		}
		loc := re.FindStringIndex(g)
		if loc == nil {
			t.Fatalf("%s not in the model", c.old)
		}
		doc := g[:loc[0]] + c.new + g[loc[1]:]
		_, err := ParseModel("m.json", []byte(doc))
		if c.want == "" {
			continue
		}
		if want := at(doc, c.key); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q at %q", c.new, err, c.want, want)
		}
	}
	// extrapolation.max_workers beyond the fitted data, at its place (the
	// second "max_workers" of the file)
	const huge = `"max_workers": 4611686018427387904`
	doc := strings.Replace(g, `"max_workers": 8,
    "min_workers"`, huge+`,
    "min_workers"`, 1)
	i := strings.Index(doc, huge)
	if i < 0 {
		t.Fatal("no extrapolation.max_workers in the model")
	}
	line, col := lineCol([]byte(doc), int64(i+len(`"max_workers": `)))
	if _, err := ParseModel("m.json", []byte(doc)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("m.json:%d:%d: extrapolation: max_workers 4611686018427387904, but the largest worker count of data.configurations (the fitted data) is 8", line, col)) {
		t.Errorf("extrapolation.max_workers 2^62: %v", err)
	}
	// reference.bandwidth and dataset, an async family with mode sync
	for _, c := range []struct{ doc, want string }{
		{strings.Replace(g, `"ps": 2`, `"ps": 2, "bandwidth": -5`, 1), "reference.bandwidth = -5"},
		{strings.Replace(g, `"ps": 2`, `"ps": 2, "dataset": -5`, 1), "reference.dataset = -5"},
		{strings.Replace(g, `"family": "optimus-sync"`, `"family": "optimus-async"`, 1), `mode "sync", but family optimus-async predicts asynchronous updates`},
	} {
		if _, err := ParseModel("m.json", []byte(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}

// reference.max_workers is checked against the fitted data's record,
// data.configurations: 0 reads their largest count, and without a record
// (a hand-written model) any count >= 1 is taken as given.
func TestParseModelMaxWorkersAgainstData(t *testing.T) {
	m := fittedModel(t)
	m.Reference.MaxWorkers = 0
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if back, err := ParseModel("m.json", b); err != nil || back.Reference.MaxWorkers != 8 {
		t.Errorf("max_workers 0: %v, read as %v; want 8, the data's largest", err, back)
	}
	m.Reference.MaxWorkers = 100000
	if b, err = m.Marshal(); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseModel("m.json", b); err == nil || !strings.Contains(err.Error(), "reference.max_workers = 100000, but") {
		t.Errorf("max_workers 100000 over data of 8: %v", err)
	}
	m.Data.Configurations = nil
	if b, err = m.Marshal(); err != nil {
		t.Fatal(err)
	}
	if back, err := ParseModel("m.json", b); err != nil || back.Reference.MaxWorkers != 100000 {
		t.Errorf("no data.configurations: %v; want max_workers 100000 as given", err)
	}
}

// The mode check asks the family what it models, not its name: asyncps
// and a mean of -async forms are asynchronous only (the name test let
// asyncps through with mode sync).
func TestModeFits(t *testing.T) {
	for _, c := range []struct {
		family      string
		sync, async bool
	}{
		{"asyncps", false, true},
		{"mva", false, true},
		{"mean(ernest-async,optimus-async)", false, true},
		{"optimus-sync", true, false},
		{"powerlaw", true, false},
	} {
		fam, ok := LookupFamily(c.family)
		if !ok {
			t.Fatalf("no family %s", c.family)
		}
		if got := modeFits(fam, "sync"); got != c.sync {
			t.Errorf("%s under sync: %v, want %v", c.family, got, c.sync)
		}
		if got := modeFits(fam, "async"); got != c.async {
			t.Errorf("%s under async: %v, want %v", c.family, got, c.async)
		}
	}
}

// A value of the wrong type inside parameters (whose elements decode
// themselves) is named at its own line and column and by its index (it was
// placed by its offset inside the element: line 3 for a value on line 8,
// and named "parameters.plain.lo").
func TestParseModelTypeErrorInArray(t *testing.T) {
	m := fittedModel(t)
	good, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g := string(good)
	for _, c := range []struct{ re, new, key, want string }{
		{`"value": [-0-9.e+]+`, `"value": "x"`, `"value": `, `field parameters[0].value: expected a number, got JSON string`},
		{`"lo": [-0-9.e+]+`, `"lo": 1e400`, `"lo": `, `field parameters[0].lo: expected a number within the range of its type, got JSON number 1e400`},
	} {
		loc := regexp.MustCompile(c.re).FindStringIndex(g)
		doc := g[:loc[0]] + c.new + g[loc[1]:]
		_, err := ParseModel("m.json", []byte(doc))
		if want := "m.json:" + posAfter(doc, c.key) + ": " + c.want; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", c.new, err, want)
		}
	}
}

// Syntax and type errors point at the offending byte or at the start of
// the value at fault, as the Chrome-trace reader does: encoding/json's
// Offset counts the bytes read, past them ({"a": x} was placed at 1:8, a
// jobs.csv given as a model at 1:2 for its j at 1:1, "family": 12345 at its
// last byte and past it).
func TestParseModelErrorColumns(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"syntax", `{"a": x}`, "m.json:1:7: not a model.json: invalid character 'x' looking for beginning of value"},
		{"jobs.csv", "job,arrival,size,model\na,0,10,m1.json\n", "m.json:1:1: not a model.json: invalid character 'j' looking for beginning of value"},
		{"after object key", `{"a" 1}`, "m.json:1:6: not a model.json: invalid character '1' after object key"},
		{"after top-level value", `{"a": 1}}`, "m.json:1:9: not a model.json: invalid character '}' after top-level value"},
		{"second line", "{\n  \"schema\": ,\n}", "m.json:2:13: not a model.json: invalid character ','"},
		{"truncated", `{"a": `, "m.json:1:7: not a model.json: unexpected end of JSON input"},
		{"empty", ``, "m.json:1:1: not a model.json: unexpected end of JSON input"},
		{"number", "{\n  \"schema\": \"sgdplan/model/v1\",\n  \"family\": 3\n}", "m.json:3:13: field family: expected a string, got JSON number"},
		{"longer number", "{\n  \"schema\": \"sgdplan/model/v1\",\n  \"family\": 12345\n}", "m.json:3:13: field family: expected a string, got JSON number"},
		{"string", `{"schema": "sgdplan/model/v1", "mode": "sync", "bootstrap_samples": "xyz"}`, "m.json:1:69: field bootstrap_samples: expected an array of arrays of numbers, got JSON string"},
		{"array for an object", `{"efficiency": [1, 2]}`, "m.json:1:16: field efficiency: expected an object, got JSON array"},
		{"nested", `{"efficiency": {"gns": "x"}}`, "m.json:1:24: field efficiency.gns: expected an object, got JSON string"},
		// an element at fault, not its array (placed at the outer [ before)
		{"element of an array of arrays", `{"efficiency": {"curve_samples": [[1, 2, 3, 4], [1, "x", 3, 4]]}}`, "m.json:1:53: field efficiency.curve_samples[1][1]: expected a number, got JSON string"},
		{"array of an array of arrays", `{"efficiency": {"curve_samples": [[1, 2, 3, 4], "x"]}}`, "m.json:1:49: field efficiency.curve_samples[1]: expected an array of numbers, got JSON string"},
		{"array for a number", `{"efficiency": {"b0": [1, 2]}}`, "m.json:1:23: field efficiency.b0: expected a number, got JSON array"},
		// a number where an inner array belongs: not at the numbers a
		// level below, which fail to decode into an array too
		{"number for an inner array", `{"schema": "sgdplan/model/v1", "mode": "sync", "bootstrap_samples": [[1, 2], [3, 4], 5]}`, "m.json:1:86: field bootstrap_samples[2]: expected an array of numbers, got JSON number"},
		{"number for a curve sample", `{"efficiency": {"curve_samples": [[1, 2, 3, 4], 7]}}`, "m.json:1:49: field efficiency.curve_samples[1]: expected an array of numbers, got JSON number"},
		// an array inside an array of objects: the second rival's own
		// parameters, not the first's numbers (placed at rivals[0].parameters[0]
		// before 2026-12-06)
		{"number for a rival's parameters", `{"mode": "sync", "rivals": [{"family": "a", "parameters": [1, 2]}, {"family": "b", "parameters": 5}]}`, "m.json:1:98: field rivals[1].parameters: expected an array of numbers, got JSON number"},
		{"element of a rival's parameters", `{"mode": "sync", "rivals": [{"family": "a", "parameters": [1, 2]}, {"family": "b", "parameters": [1, "x"]}]}`, "m.json:1:102: field rivals[1].parameters[1]: expected a number, got JSON string"},
		{"document", `  [1, 2]`, "m.json:1:3: not a model.json: expected a JSON object (as sgdplan fit writes), got JSON array"},
		{"document string", `"model"`, "m.json:1:1: not a model.json: expected a JSON object (as sgdplan fit writes), got JSON string"},
	} {
		_, err := ParseModel("m.json", []byte(c.doc))
		if err == nil || !strings.HasPrefix(err.Error(), "fit: "+c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// valueBefore finds the value a type error's Offset (its end, or just past
// an array's first byte) is about.
func TestValueBefore(t *testing.T) {
	doc := []byte(`{"a": 12345, "b": [1, {"c": "xy"}]}`)
	for _, c := range []struct {
		after string // the text the offset follows
		want  string // the value found starts with this
	}{
		{`{"a": 12345`, `12345`},
		{`{"a": 12345, "b": [`, `[1`},
		{`{"a": 12345, "b": [1, {"c": "xy"`, `"xy"`},
	} {
		at := valueBefore(doc, int64(len(c.after)))
		if !bytes.HasPrefix(doc[at:], []byte(c.want)) {
			t.Errorf("after %s: %q, want %q", c.after, doc[at:], c.want)
		}
	}
}

// A link rate so far below the one the link demand was measured at that
// the demand is not finite: model.json's reference.bandwidth is refused
// at its place and WithBandwidth returns an error (both panicked: +Inf
// demand in the network); a trillion times below is the limit.
func TestLinkRateRatio(t *testing.T) {
	tr, _, err := traces.Load(filepath.Join(repoRoot(t), "testdata", "asgd"))
	if err != nil {
		t.Skip(err)
	}
	sf, err := FitSteps(tr, []string{"mva"}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	m := sf.Model
	// runs.csv's bounds first, 1 B/s to 1 PB/s (1e-3 B/s was taken, and
	// 1e308 B/s read the links' demand as 0)
	for _, bw := range []float64{1, 1e15} {
		if _, err := m.WithBandwidth(bw); err != nil {
			t.Errorf("%g B/s: %v", bw, err)
		}
	}
	for _, bw := range []float64{1e-310, 1e-3, 0.999, 1.001e15, 1e308} {
		if _, err := m.WithBandwidth(bw); err == nil || !strings.Contains(err.Error(), "want a link rate from 1 to 1e+15 B/s") {
			t.Errorf("%g B/s: %v", bw, err)
		}
	}
	// then the ratio to the measured rate, a trillion either way, which
	// bites within the bounds where the measured rate is near one of them
	fast, slow := *m, *m
	fq, sq := *m.Queueing, *m.Queueing
	fq.Bandwidth, sq.Bandwidth = 1e15, 1
	fast.Queueing, slow.Queueing = &fq, &sq
	if _, err := fast.WithBandwidth(1e3); err != nil {
		t.Errorf("a trillion times below: %v", err)
	}
	if _, err := fast.WithBandwidth(999); err == nil || !strings.Contains(err.Error(), "more than 1e+12 times below the rate the link demand was measured at (1e+15 B/s), which scales it as that ratio: want a rate of at least 1000 B/s") {
		t.Errorf("999 B/s measured at 1e15: %v", err)
	}
	if _, err := slow.WithBandwidth(1e12); err != nil {
		t.Errorf("a trillion times above: %v", err)
	}
	if _, err := slow.WithBandwidth(1.01e12); err == nil || !strings.Contains(err.Error(), "more than 1e+12 times above the rate the link demand was measured at (1 B/s), where the links' demand is nothing: want a rate of at most 1e+12 B/s") {
		t.Errorf("1.01e12 B/s measured at 1: %v", err)
	}
	good, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g := string(good)
	ref := strings.Index(g, `"reference": {`)
	loc := regexp.MustCompile(`"bandwidth": [0-9.e+]+`).FindStringIndex(g[ref:])
	if ref < 0 || loc == nil {
		t.Fatalf("no reference.bandwidth in\n%s", g)
	}
	for _, c := range []struct{ bw, want string }{
		{"1e-20", "reference.bandwidth = 1e-20: want a link rate from 1 to 1e+15 B/s (or absent)"},
		{"2e15", "reference.bandwidth = 2e+15: want a link rate from 1 to 1e+15 B/s (or absent)"},
		// within the bounds, a trillion times below the measured 3e6 B/s
		{"1", ""},
	} {
		doc := g[:ref+loc[0]] + `"bandwidth": ` + c.bw + g[ref+loc[1]:]
		line, col := lineCol([]byte(doc), int64(ref+loc[0]+len(`"bandwidth": `)))
		_, err := ParseModel("m.json", []byte(doc))
		if c.want == "" {
			if err != nil {
				t.Errorf("reference.bandwidth %s: %v", c.bw, err)
			}
			continue
		}
		if want := fmt.Sprintf("m.json:%d:%d: %s", line, col, c.want); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("reference.bandwidth %s: %v, want %q", c.bw, err, want)
		}
	}
	// and the rate the link demand was measured at (queueing.bandwidth)
	qb := strings.Index(g, `"queueing": {`)
	qloc := regexp.MustCompile(`"bandwidth": [0-9.e+]+`).FindStringIndex(g[qb:])
	if qb < 0 || qloc == nil {
		t.Fatalf("no queueing.bandwidth in\n%s", g)
	}
	doc := g[:qb+qloc[0]] + `"bandwidth": 0.5` + g[qb+qloc[1]:]
	line, col := lineCol([]byte(doc), int64(qb+qloc[0]+len(`"bandwidth": `)))
	want := fmt.Sprintf("m.json:%d:%d: queueing: bandwidth = 0.5 B/s, want the link rate the demand was measured at, from 1 to 1e+15 B/s", line, col)
	if _, err := ParseModel("m.json", []byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("queueing.bandwidth 0.5: %v, want %q", err, want)
	}
}

// model.json's queueing SCVs are bounded at 1e6 (a standard deviation
// 1000 times the mean): 1e300 with variant flow left the throughput flat
// at one worker's, silently.
func TestParseModelQueueingSCV(t *testing.T) {
	const doc = `{"schema": "sgdplan/model/v1", "family": "mva", "mode": "async", "parameters": [{"name": "z0", "value": 0.1}, {"name": "z1", "value": 0}, {"name": "link", "value": 0.07}, {"name": "apply", "value": 0.001}], "queueing": {"variant": "flow", "scv_link": SCV, "scv_apply": 0.1, "scv_compute": 0.01, "bandwidth": 3e6}, "reference": {"batch": 32, "ps": 2, "bandwidth": 3e6}}`
	for _, c := range []struct{ scv, want string }{{"4", ""}, {"1e6", ""}, {"1e300", "queueing: scv_link = 1e+300, want a squared coefficient of variation from 0 to 1e+06"}, {"2e6", "scv_link = 2e+06"}} {
		d := strings.Replace(doc, "SCV", c.scv, 1)
		_, err := ParseModel("m.json", []byte(d))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("scv_link %s: %v", c.scv, err)
		case c.want != "":
			at := fmt.Sprintf("m.json:1:%d: ", strings.Index(d, `"scv_link": `)+len(`"scv_link": `)+1)
			if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("scv_link %s: %v, want %q at %s", c.scv, err, c.want, at)
			}
		}
	}
}

// model.json's diagnostics.held_out (fit --train-workers' out-of-sample
// error) is read back as fit writes it, and one no fit writes is refused
// at its field.
func TestParseModelHeldOut(t *testing.T) {
	const doc = `{"schema": "sgdplan/model/v1", "family": "mva", "mode": "async", "parameters": [{"name": "z0", "value": 0.1}, {"name": "z1", "value": 0}, {"name": "link", "value": 0.07}, {"name": "apply", "value": 0.001}], "queueing": {"variant": "exact", "scv_link": 1, "scv_apply": 1, "scv_compute": 0.01, "bandwidth": 3e6}, "reference": {"batch": 32, "ps": 2, "bandwidth": 3e6}, "diagnostics": {"rmsle": 0.1, "cv_mape_pct": null, "warnings": [], "held_out": HELD}}`
	for _, c := range []struct{ held, field, want string }{
		{`{"train_workers": [1, 2], "runs": 16, "mape_pct": 11.2, "worst_pct": 21.2, "worst_workers": 8, "worst_batch": 32, "other_variants": [{"variant": "flow", "mape_pct": 34, "worst_pct": 60.5}]}`, "", ""},
		{`{"train_workers": [], "runs": 16, "mape_pct": 11.2, "worst_pct": 21.2, "worst_workers": 8}`, `"train_workers": `, "no train_workers"},
		{`{"train_workers": [1], "runs": 3, "rows": 2, "mape_pct": 11.2, "worst_pct": 21.2, "worst_workers": 8}`, `"runs": `, "runs 3, rows 2: want one of them"},
		{`{"train_workers": [1], "rows": 2, "mape_pct": 30, "worst_pct": 21.2, "worst_workers": 8}`, `"mape_pct": `, "want 0 <= mape_pct <= worst_pct"},
		{`{"train_workers": [1, 8], "rows": 2, "mape_pct": 3, "worst_pct": 21.2, "worst_workers": 8}`, `"worst_workers": `, "worst_workers 8: want a worker count the fit left out"},
		{`{"train_workers": [1], "runs": 2, "mape_pct": 3, "worst_pct": 21.2, "worst_workers": 8, "other_variants": [{"variant": "fast", "mape_pct": 1, "worst_pct": 2}]}`, `{"variant": `, `other_variants 1: "fast"`},
	} {
		d := strings.Replace(doc, "HELD", c.held, 1)
		m, err := ParseModel("m.json", []byte(d))
		if c.want == "" {
			if err != nil || m.Diagnostics.HeldOut == nil || m.Diagnostics.HeldOut.Runs != 16 || len(m.Diagnostics.HeldOut.OtherVariants) != 1 {
				t.Errorf("%s: %v", c.held, err)
			}
			continue
		}
		at := fmt.Sprintf("m.json:1:%d: ", strings.Index(d, `"held_out": `)+strings.Index(c.held, c.field)+len(`"held_out": `)+len(c.field)+1)
		if c.field == `{"variant": ` {
			at = fmt.Sprintf("m.json:1:%d: ", strings.LastIndex(d, c.field)+1)
		}
		if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q at %s", c.held, err, c.want, at)
		}
	}
}
