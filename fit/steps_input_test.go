package fit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/traces"
)

// asyncCopy copies testdata/synthetic/async-ps into a temporary folder,
// each file through edit (nil: as it is), and returns the folder.
func asyncCopy(t *testing.T, edit func(name, text string) string) string {
	t.Helper()
	src := filepath.Join(repoRoot(t), "testdata", "synthetic", "async-ps")
	dst := t.TempDir()
	for _, name := range []string{"steps.csv", "runs.csv", "evals.csv", "updates.csv"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Skipf("no async testdata: %v", err)
		}
		text := string(b)
		if edit != nil {
			text = edit(name, text)
		}
		if err := os.WriteFile(filepath.Join(dst, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// setMode gives run's runs.csv row the mode m (its third column).
func setMode(t *testing.T, text, run, m string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if f := strings.SplitN(l, ",", 4); len(f) == 4 && f[0] == run {
			lines[i] = strings.Join([]string{f[0], f[1], m, f[3]}, ",")
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("no runs.csv row of run %s", run)
	return ""
}

// Runs of different modes were fitted as one model: one sync run among async
// ones gave an async model (its steps/s taken for updates/s, 134% off left
// out, no warning), or the whole fit ran and then failed the model's own
// checks (exit 1). They are refused before the fit, at the odd run's
// runs.csv mode field, the way the throughput.csv reader refuses such a mix.
func TestFitStepsRefusesMixedModes(t *testing.T) {
	cases := []struct {
		sync []string // runs made sync
		mode string   // w1's mode ("" empty: the default, async)
		want string
	}{
		{[]string{"w4"}, "async", `runs.csv:4:14: mode: sync, run "w4" (4 workers), but the other training runs "w1", "w2" are async: want one mode among the runs fitted`},
		{[]string{"w1"}, "sync", `runs.csv:2:14: mode: sync, run "w1" (1 worker), but the other training runs "w2", "w4" are async: want one mode among the runs fitted`},
		// most runs sync: the async one is the odd one, at no position
		// when runs.csv gives it no mode
		{[]string{"w2", "w4"}, "", `fit: run "w1" (1 worker): mode: async, the default with ps 1 (runs.csv gives it no mode), but the other training runs "w2", "w4" are sync: want one mode among the runs fitted`},
	}
	for _, c := range cases {
		dir := asyncCopy(t, func(name, text string) string {
			if name != "runs.csv" {
				return text
			}
			text = setMode(t, text, "w1", c.mode)
			for _, r := range c.sync {
				text = setMode(t, text, r, "sync")
			}
			return text
		})
		_, _, err := FitStepsPaths([]string{dir}, StepOptions{Bootstrap: 10})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("sync %v: FitStepsPaths error %v, want one with %q", c.sync, err, c.want)
		}
		tr, _, lerr := traces.Load(dir)
		if lerr != nil {
			t.Fatal(lerr)
		}
		if _, err := FitSteps(tr, []string{dir}, StepOptions{Bootstrap: 10}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("sync %v: FitSteps error %v, want one with %q", c.sync, err, c.want)
		}
	}
	// the runs fitted are of one mode: fine
	dir := asyncCopy(t, func(name, text string) string {
		if name == "runs.csv" {
			return setMode(t, text, "w4", "sync")
		}
		return text
	})
	if _, _, err := FitStepsPaths([]string{dir}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 10}); err != nil {
		t.Errorf("--train-workers 1,2 (both async): %v", err)
	}
}
