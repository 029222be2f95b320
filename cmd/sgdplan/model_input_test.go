package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
)

// editedModel writes a copy of the model.json at src, changed by edit on
// its decoded form, to dir/name and returns the path and the text written.
func editedModel(t *testing.T, src, dir, name string, edit func(m map[string]any)) (string, string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, string(out)
}

// posOf is "line:col" of the value after the first occurrence of key (a
// quoted field name followed by ": ") in text.
func posOf(t *testing.T, text, key string) string {
	t.Helper()
	i := strings.Index(text, key)
	if i < 0 {
		t.Fatalf("%s not in the model", key)
	}
	i += len(key)
	line := strings.Count(text[:i], "\n") + 1
	col := i - strings.LastIndexByte(text[:i], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// An absurd shared-core count is bad input everywhere it can come from
// (the flag, model.json), never a panic of the MVA (audit: --shared-cores
// 4611686018427387904 overflowed the compute station's servers), and a bad
// count in model.json is reported at the field, not at its object.
func TestFitSharedCoresBounded(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "fit", fitAsync, "--shared-cores", "4611686018427387904", "--out", filepath.Join(dir, "x.json"))
	if code != exitBadInput || !strings.Contains(stderr, "--shared-cores 4611686018427387904: want 0") {
		t.Errorf("fit --shared-cores 2^62: exit %d, stderr %q", code, stderr)
	}
	mp := fitModel(t, dir)
	for _, v := range []int64{4611686018427387904, -1} {
		p, text := editedModel(t, mp, dir, "cores.json", func(m map[string]any) {
			m["queueing"].(map[string]any)["shared_cores"] = v
		})
		want := fmt.Sprintf("cores.json:%s: queueing: shared_cores = %d", posOf(t, text, `"shared_cores": `), v)
		for _, cmd := range [][]string{{"predict", "--model", p, "--workers", "1-4"}, {"check", "--model", p, "--workers", "4"}} {
			code, _, stderr := runCmd(t, cmd...)
			if code != exitBadInput || !strings.Contains(stderr, want) {
				t.Errorf("%s with shared_cores %d: exit %d, stderr %q; want exit 2 and %q", cmd[0], v, code, stderr, want)
			}
		}
	}
}

// zeroParams sets every parameter (and bootstrap sample) of a model to 0.
func zeroParams(m map[string]any) {
	for _, p := range m["parameters"].([]any) {
		q := p.(map[string]any)
		q["value"], q["lo"], q["hi"] = 0, 0, 0
	}
	if ss, ok := m["bootstrap_samples"].([]any); ok {
		for i, s := range ss {
			ss[i] = make([]float64, len(s.([]any)))
		}
	}
	delete(m, "rivals")
}

// A model whose step time at its reference configuration is 0 (every
// parameter 0) is refused when it is read, naming the file: before, predict
// crashed on it (mva) or printed +Inf and NaN, and check said "fine ... NaN
// steps/s" with exit 0.
func TestPredictCheckRefuseZeroModel(t *testing.T) {
	dir := t.TempDir()
	mva := fitModel(t, dir)
	auto := filepath.Join(dir, "auto.json")
	if code, _, e := runCmd(t, "fit", fitAsync, "--out", auto); code != 0 {
		t.Fatal(e)
	}
	for _, src := range []string{mva, auto} {
		p, _ := editedModel(t, src, dir, "zero.json", zeroParams)
		for _, cmd := range [][]string{{"predict", "--model", p, "--workers", "1-4"}, {"check", "--model", p, "--workers", "4"}} {
			code, stdout, stderr := runCmd(t, cmd...)
			if code != exitBadInput || !strings.Contains(stderr, "zero.json:") || !strings.Contains(stderr, "want a finite positive step time") || strings.Contains(stdout, "NaN") {
				t.Errorf("%s on %s with parameters 0: exit %d, stdout %q, stderr %q", cmd[0], filepath.Base(src), code, stdout, stderr)
			}
		}
	}
	// the samples are checked too
	p, _ := editedModel(t, auto, dir, "zerosamples.json", func(m map[string]any) {
		ss := m["bootstrap_samples"].([]any)
		ss[3] = make([]float64, len(ss[3].([]any)))
	})
	if code, _, stderr := runCmd(t, "check", "--model", p, "--workers", "2"); code != exitBadInput || !strings.Contains(stderr, "bootstrap sample 4 predicts +Inf steps/s") {
		t.Errorf("a zero bootstrap sample: exit %d, stderr %q", code, stderr)
	}
}

// What predict and check meet beyond the reference that is not finite is
// refused, not printed; a table whose rows differ in having a time to
// target prints n/a where a row has none (it crashed on a nil pointer).
func TestPredictNonFiniteRefused(t *testing.T) {
	nan := math.NaN()
	rows := []predictRow{{Workers: 1, PS: 1, StepsPerS: 2, StepsPerSLo: 1, StepsPerSHi: 3, SamplesPerS: 2, Speedup: 1, SpeedupLo: 1, SpeedupHi: 1, Efficiency: 1},
		{Workers: 2, PS: 1, StepsPerS: 4, StepsPerSLo: 3, StepsPerSHi: 5, SamplesPerS: 4, Speedup: nan, Efficiency: nan}}
	if err := finiteRows("m.json", rows); err == nil || !strings.Contains(err.Error(), "m.json: at 2 workers, 1 ps") {
		t.Errorf("a NaN speedup: %v", err)
	}
	if err := finiteRows("m.json", rows[:1]); err != nil {
		t.Errorf("finite rows: %v", err)
	}
	rows[0].UpdatesToTarget, rows[0].UpdatesToTargetLo, rows[0].UpdatesToTargetHi = ptr(10), ptr(9), ptr(11)
	rows[0].TimeToTargetS, rows[0].TimeToTargetSLo, rows[0].TimeToTargetSHi = ptr(5), ptr(4), ptr(6)
	rows[1].Speedup, rows[1].Efficiency = 2, 1
	m, err := fit.LoadModel(fitModel(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writePredictTable(&b, m, rows)
	if !strings.Contains(b.String(), "n/a") {
		t.Errorf("table without n/a for the row without a target:\n%s", b.String())
	}
	// check: a staleness cost so large that progress underflows to 0
	dir := t.TempDir()
	p, _ := editedModel(t, fitModel(t, dir), dir, "lambda.json", func(m map[string]any) {
		e := m["efficiency"].(map[string]any)
		e["lambda"], e["lambda_lo"], e["lambda_hi"] = 1e308, 1e308, 1e308
	})
	code, stdout, stderr := runCmd(t, "check", "--model", p, "--workers", "4")
	if code != exitBadInput || !strings.Contains(stderr, "not a finite positive number") || strings.Contains(stdout, "fine") {
		t.Errorf("check with lambda 1e308: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// An mva model (a network of parameter-server shards) with reference.ps 0
// is refused at the value: predict printed "ps 0" and computed one shard.
func TestPredictRefusesMVAWithoutShards(t *testing.T) {
	dir := t.TempDir()
	p, text := editedModel(t, fitModel(t, dir), dir, "ps0.json", func(m map[string]any) {
		m["reference"].(map[string]any)["ps"] = 0
	})
	code, stdout, stderr := runCmd(t, "predict", "--model", p, "--workers", "1,2")
	ref := strings.Index(text, `"reference": {`)
	want := "ps0.json:" + posOf(t, text[:ref]+strings.Replace(text[ref:], `"ps": `, `"PS": `, 1), `"PS": `) + ": reference.ps = 0 for the mva family"
	if code != exitBadInput || !strings.Contains(stderr, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
}

// A --target-loss or --epochs whose updates overflow float64 is the flag's
// fault, not the model's: the message named the model file and said "check
// its parameters".
func TestPredictTargetOutOfRangeNamesFlag(t *testing.T) {
	m := asgdModel(t, t.TempDir())
	for _, c := range []struct{ flag, value, want string }{
		{"--target-loss", "5e-324", "give a larger --target-loss"},
		{"--epochs", "1e308", "give fewer --epochs"},
	} {
		code, stdout, stderr := runCmd(t, "predict", "--model", m, "--workers", "2", c.flag, c.value)
		if code != exitBadInput || !strings.Contains(stderr, "predict: "+c.flag+" ") || !strings.Contains(stderr, c.want) ||
			strings.Contains(stderr, "check its parameters") || stdout != "" {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.flag, c.value, code, stdout, stderr, exitBadInput, c.want)
		}
	}
}

// A reference.ps beyond the --ps flag's limit is refused at the value by
// every command that reads model.json, with the same message: predict
// walked every count up to it (1e9: over 10 CPU-minutes), and check said
// "10000000 PS shards: too large" as if --ps had been given.
func TestReferencePSBounded(t *testing.T) {
	dir := t.TempDir()
	p, text := editedModel(t, fitModel(t, dir), dir, "ps.json", func(m map[string]any) {
		m["reference"].(map[string]any)["ps"] = 10000000
	})
	ref := strings.Index(text, `"reference": {`)
	want := "ps.json:" + posOf(t, text[:ref]+strings.Replace(text[ref:], `"ps": `, `"PS": `, 1), `"PS": `) +
		": reference.ps = 10000000: too large: want the shards, from 0 (all-reduce) to 1000000 (the limit of --ps)"
	jobs := filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(jobs, []byte("job,arrival,size,p,model\nj1,0,100,,ps.json\nj2,1,50,0.5,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{
		{"predict", "--model", p, "--workers", "2"},
		{"check", "--model", p, "--workers", "2"},
		{"report", "--model", p, "--jobs", jobs, "--servers", "4", "--out", filepath.Join(dir, "r")},
		{"plan", "--jobs", jobs, "--servers", "4"},
	} {
		code, stdout, stderr := runCmd(t, cmd...)
		if code != exitBadInput || !strings.Contains(stderr, want) || stdout != "" || strings.Contains(stderr, "PS shards") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and %q", cmd[0], code, stdout, stderr, want)
		}
	}
}
