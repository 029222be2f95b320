package fit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/planner"
)

// ModelResolver, as plan reads a jobs file: a model path relative to the
// jobs file's folder, each file loaded once (loaded called once, the same
// curve for the second job), a missing file an error naming it, and the
// curve usable by planner.ReadJobs.
func TestModelResolver(t *testing.T) {
	sf, _, err := FitStepsPaths([]string{"../testdata/asgd"}, StepOptions{TrainWorkers: []int{1, 2}, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteModel(filepath.Join(dir, "m.json"), sf.Model); err != nil {
		t.Fatal(err)
	}
	jobs := "job,arrival,size,model\na,0,100,m.json\nb,5,50,m.json\n"
	if err := os.WriteFile(filepath.Join(dir, "jobs.csv"), []byte(jobs), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []string
	r := ModelResolver(dir, func(p string) { seen = append(seen, p) })
	f, err := os.Open(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	js, err := planner.ReadJobs(f, "jobs.csv", r)
	if err != nil {
		t.Fatal(err)
	}
	if len(js) != 2 || js[0].Curve != js[1].Curve || len(seen) != 1 || seen[0] != filepath.Join(dir, "m.json") {
		t.Fatalf("%d jobs, same curve %v, loaded %q: want 2 jobs on one curve loaded once from %s", len(js), len(js) == 2 && js[0].Curve == js[1].Curve, seen, filepath.Join(dir, "m.json"))
	}
	if s := js[0].Curve.Speedup(2); s != sf.Model.Speedup(2) {
		t.Errorf("speedup at 2: %g, want the model's %g", s, sf.Model.Speedup(2))
	}
	if _, err := r("gone.json"); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "gone.json")) {
		t.Errorf("missing model: %v, want its path", err)
	}
}
