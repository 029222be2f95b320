package fit

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// Rows of evals.csv, updates.csv or runs.csv whose run steps.csv lacks
// (a run named "run-1" in one file, "w1" in the other) were left out
// without a word: fit then said the traces held no loss, or took the
// apply time as 0. Both fit paths now warn first, naming file and runs;
// the untouched trace gets no such warning.
func TestFitWarnsOfRunsWithoutSteps(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "synthetic", "async-ps")
	rename := regexp.MustCompile(`(?m)^w([124]),`)
	for _, c := range []struct {
		file, want string
	}{
		{"", ""},
		{"evals.csv", "evals.csv: 3 runs run-1, run-2, run-4"},
		{"updates.csv", "updates.csv: 3 runs run-1, run-2, run-4"},
		{"runs.csv", "runs.csv: 3 runs run-1, run-2, run-4"},
	} {
		dir := t.TempDir()
		for _, f := range []string{"steps.csv", "evals.csv", "updates.csv", "runs.csv"} {
			b, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				t.Fatal(err)
			}
			if f == c.file {
				b = rename.ReplaceAll(b, []byte("run-$1,"))
			}
			if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		streamed, _, err := FitStepsPaths([]string{dir}, StepOptions{Bootstrap: 10, TrainWorkers: []int{1, 2}})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		tr, _, err := traces.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := FitSteps(tr, []string{dir}, StepOptions{Bootstrap: 10, TrainWorkers: []int{1, 2}})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		for name, sf := range map[string]*StepFit{"FitStepsPaths": streamed, "FitSteps": loaded} {
			first := ""
			if len(sf.Warnings) > 0 {
				first = sf.Warnings[0]
			}
			has := strings.Contains(strings.Join(sf.Warnings, "\n"), "runs with no steps.csv rows")
			switch {
			case c.want == "" && has:
				t.Errorf("%s, untouched trace: %q", name, sf.Warnings)
			case c.want != "" && (!strings.HasPrefix(first, "runs with no steps.csv rows are left out") || !strings.Contains(first, c.want)):
				t.Errorf("%s, %s renamed: first warning %q, want it to name %q", name, c.file, first, c.want)
			}
			if strings.Join(sf.Model.Diagnostics.Warnings, "\n") != strings.Join(sf.Warnings, "\n") {
				t.Errorf("%s: model.json's warnings differ from the fit's", name)
			}
		}
	}
}

// A run whose workers never ran at the same time gets a rate too low by
// up to its workers' factor; inspect warned, fit did not. fit repeats the
// summary's warning first.
func TestFitRepeatsDisjointWorkers(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "synthetic", "async-ps")
	dir := t.TempDir()
	for _, f := range []string{"evals.csv", "updates.csv", "runs.csv"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	b, err := os.ReadFile(filepath.Join(src, "steps.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// run w2's worker 1 six seconds later, past the run's end
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	head := strings.Split(lines[0], ",")
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[col["run"]] == "w2" && f[col["worker"]] == "1" {
			for _, c := range []string{"start", "end"} {
				v, err := strconv.ParseFloat(f[col[c]], 64)
				if err != nil {
					t.Fatal(err)
				}
				f[col[c]] = strconv.FormatFloat(v+6, 'g', -1, 64)
			}
			lines[i+1] = strings.Join(f, ",")
		}
	}
	os.WriteFile(filepath.Join(dir, "steps.csv"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	sf, _, err := FitStepsPaths([]string{dir}, StepOptions{Bootstrap: 10, TrainWorkers: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(sf.Warnings) == 0 || !strings.HasPrefix(sf.Warnings[0], "run w2: workers 0 and 1 never ran at the same time") {
		t.Errorf("warnings %q: want the disjoint workers of w2 first", sf.Warnings)
	}
}

// Every fitted run measured staleness 0: the law's a is 0 and has no
// interval, and predict's warning gave three causes of which none applied.
func TestStalenessLawWarningAllZero(t *testing.T) {
	src := filepath.Join(repoRoot(t), "testdata", "synthetic", "async-ps")
	dir := t.TempDir()
	for _, f := range []string{"evals.csv", "runs.csv", "steps.csv"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "steps.csv" {
			lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
			for i := 1; i < len(lines); i++ {
				c := strings.Split(lines[i], ",")
				c[11] = "0" // staleness
				lines[i] = strings.Join(c, ",")
			}
			b = []byte(strings.Join(lines, "\n") + "\n")
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	sf, _, err := FitStepsPaths([]string{dir}, StepOptions{Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	w := sf.Model.StalenessLawWarning()
	if !strings.Contains(w, "carries no interval (every fitted run measured a staleness of 0") || strings.Contains(w, "bootstrap 0") {
		t.Errorf("warning %q", w)
	}
}
