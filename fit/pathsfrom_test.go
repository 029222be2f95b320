package fit

import (
	"strings"
	"testing"
)

// data.paths_from_model reads back, and is refused unless it has one
// relative path per path; a file without it (written before it) reads.
func TestPathsFromModelReadBack(t *testing.T) {
	pts := tablePoints([]int{1, 2, 4}, []float64{3, 5.7, 10.5})
	tf, alts, err := FitThroughput(pts, "auto", &Settings{Bootstrap: 0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(tf, pts, alts, "async", Reference{PS: 1, Batch: 32}, []string{"run/traces"}, 0.9)
	m.Data.PathsFromModel = []string{"traces"}
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("m.json", b)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Data.PathsFromModel; len(got) != 1 || got[0] != "traces" {
		t.Errorf("paths_from_model read back %q", got)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"traces"`, `"traces", "more"`, `data: 2 paths_from_model for 1 paths: want one per path (or none)`},
		{`"traces"`, `""`, `data: paths_from_model 1 "": want path 1 relative to the model file's folder`},
		{`"traces"`, `"/abs/traces"`, `data: paths_from_model 1 "/abs/traces": want path 1 relative`},
	} {
		bad := strings.Replace(string(b), c.from, c.to, 1)
		_, err := ParseModel("m.json", []byte(bad))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("paths_from_model [%s]: %v, want %q", c.to, err, c.want)
		}
	}
	old := strings.Replace(string(b), `"paths_from_model": [
      "traces"
    ],`, "", 1)
	if old == string(b) {
		t.Fatalf("no paths_from_model to remove in\n%s", b)
	}
	if back, err := ParseModel("m.json", []byte(old)); err != nil {
		t.Errorf("a file without paths_from_model: %v", err)
	} else if back.Data.PathsFromModel != nil {
		t.Errorf("a file without paths_from_model read %q", back.Data.PathsFromModel)
	}
}
