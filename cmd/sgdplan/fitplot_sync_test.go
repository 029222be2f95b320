package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
)

// A synchronous model's fit figure says what its steps are: under weak
// scaling each step of N workers is N per-worker batches, so steps/s
// falls with N (testdata/sync-gns: 16 to 3.3) and read as a slowdown.
func TestSyncStepNote(t *testing.T) {
	for _, c := range []struct {
		m    fit.Model
		want string
	}{
		{fit.Model{Mode: "sync", Reference: fit.Reference{Batch: 64}}, "\nsteps of 64 samples per worker: a step of N workers is 64 N samples"},
		{fit.Model{Mode: "allreduce", Reference: fit.Reference{Batch: 8, GlobalBatch: 256}}, "\nsteps of global batch 256, split among the N workers"},
		{fit.Model{Mode: "async", Reference: fit.Reference{Batch: 32}}, ""},
	} {
		if got := syncStepNote(&c.m); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.m.Mode, c.m.Reference, got, c.want)
		}
	}
	mp := filepath.Join(t.TempDir(), "g.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "sync-gns"), "--out", mp, "--bootstrap", "20"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := loadModel("test", mp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := reportFitData(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(d.Title, "\nsteps of 64 samples per worker: a step of N workers is 64 N samples") {
		t.Errorf("report's title %q", d.Title)
	}
}
