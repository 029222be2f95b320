package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
)

// pollux-async on 100, 210 and 430 samples/s at 1, 2 and 4 workers: a
// warning names gamma among the parameters with no effect on the fitted
// points, but the table printed "gamma 1.978 [1.978, 1.978]" with no mark,
// and the report's note had none. Both now mark it, from model.json's
// diagnostics.no_effect_parameters; the parameters the prior set keep
// their "*" alone.
func TestFitNoEffectMarked(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,210\n4,1,32,430\n")
	mp := filepath.Join(dir, "px.json")
	code, out, stderr := runCmd(t, "fit", dir, "--family", "pollux-async", "--out", mp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "no effect on the fitted points (not identified): [alpha_r beta_r gamma]") {
		t.Fatalf("no warning of gamma:\n%s", stderr)
	}
	var gamma string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "gamma ") {
			gamma = l
		}
		if strings.HasPrefix(l, "alpha_r ") && strings.Contains(l, "no effect") {
			t.Errorf("a prior's parameter marked: %q", l)
		}
	}
	if !strings.Contains(gamma, "] (no effect on the fitted points: not identified)") {
		t.Errorf("gamma unmarked: %q\n%s", gamma, out)
	}
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Diagnostics.NoEffectParameters, "gamma") {
		t.Errorf("no_effect_parameters %q", m.Diagnostics.NoEffectParameters)
	}
	marks := paramMarks(m)
	for i, p := range m.Parameters {
		if p.Name == "gamma" && marks[i] != markNoEffect {
			t.Errorf("gamma's mark %d, want markNoEffect", marks[i])
		}
	}
	// a name that is none of the model's parameters is refused
	b, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	_, err = fit.ParseModel("m.json", []byte(strings.Replace(string(b), `"no_effect_parameters": [`, `"no_effect_parameters": ["delta", `, 1)))
	if err == nil || !strings.Contains(err.Error(), `no_effect_parameters 1 "delta": want the name of one of the model's parameters`) {
		t.Errorf("a bad name: %v", err)
	}
}
