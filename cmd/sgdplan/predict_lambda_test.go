package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// predict repeats fit's warning that lambda's interval reaches 0 where a
// row has more workers than the fit saw, as Caveats does: its points take lambda at its fit (the
// demo's 0: the same updates to target at 1 and 64 workers), and a reader
// of predict alone was not told the staleness may cost more.
func TestPredictRepeatsLambdaZero(t *testing.T) {
	mp := filepath.Join(t.TempDir(), "m.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--bootstrap", "20", "--out", mp); code != 0 {
		t.Fatalf("fit exit %d: %s", code, stderr)
	}
	m, err := loadModel("test", mp)
	if err != nil {
		t.Fatal(err)
	}
	w := m.LambdaZeroWarning()
	if !strings.HasPrefix(w, "staleness cost lambda 0, 90% interval [0, ") {
		t.Fatalf("the model's lambda warning %q: want one (the demo's data)", w)
	}
	if _, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,64"); !strings.Contains(stderr, "sgdplan: warning: "+w+"\n") {
		t.Errorf("predict at 1 and 64 workers: stderr %q lacks %q", stderr, w)
	}
	if _, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1,2"); strings.Contains(stderr, "cannot tell it from 0") {
		t.Errorf("predict within the fitted workers: %q", stderr)
	}
}
