package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A throughput table has no two-node profile: its mva is scored by
// leave-one-out as the other families, but the heading of the families
// said "for mva, the profile's error on the other runs" (100, 205, 420
// and 850 samples/s at 1-8 workers). A step trace's profile keeps it
// (cmd/sgdplan/testdata/fit-async.golden).
func TestFitTableFamiliesHeading(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,205\n4,1,32,420\n8,1,32,850\n")
	code, out, stderr := runCmd(t, "fit", dir, "--out", filepath.Join(dir, "m.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "families tried (leave-one-configuration-out MAPE):\n") || strings.Contains(out, "profile") || !strings.Contains(out, "\n  mva ") {
		t.Errorf("a table's heading:\n%s", out)
	}
}

// --train-workers 1,2,3 on rows at 1, 2 and 4 workers fitted 1 and 2 and
// dropped 3 without a word; it now warns (in model.json too). A range
// (1-3) spans counts and says nothing of those the data lack.
func TestFitTrainWorkersAbsent(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,190\n4,1,32,350\n")
	const want = "--train-workers 3: no throughput row has 3 workers (the data have 1, 2 and 4): nothing was fitted there"
	mp := filepath.Join(dir, "m.json")
	code, _, stderr := runCmd(t, "fit", dir, "--train-workers", "1,2,3", "--out", mp)
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want %q:\n%s", code, want, stderr)
	}
	if b, err := os.ReadFile(mp); err != nil || !strings.Contains(string(b), want) {
		t.Errorf("model.json without the warning: %v", err)
	}
	if _, _, stderr := runCmd(t, "fit", dir, "--train-workers", "1-3", "--out", mp); strings.Contains(stderr, "nothing was fitted there") {
		t.Errorf("a range:\n%s", stderr)
	}
}

// --family mean(a,a) and mean(a, b) were answered with the list of
// families alone; each now gets its reason.
func TestFitMeanFamilyReasons(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,190\n4,1,32,350\n")
	for _, c := range []struct{ family, want string }{
		{"mean(powerlaw-async,powerlaw-async)", "family powerlaw-async appears twice in a mean family"},
		{"mean(powerlaw-async, amdahl-async)", `member " amdahl-async": a mean family's name has no spaces: mean(powerlaw-async,amdahl-async)`},
		{"mean(powerlaw-async,nosuch)", `member "nosuch" is not a family (known: allreduce,`},
		{"mean(powerlaw-async)", "a mean family needs at least two members, got 1"},
		{"mean(powerlaw-async,amdahl-async", `a mean family's name ends in ")"`},
	} {
		code, _, stderr := runCmd(t, "fit", dir, "--family", c.family, "--out", filepath.Join(dir, "m.json"))
		if code != exitBadInput || !strings.Contains(stderr, `--family "`+c.family+`": `+c.want) {
			t.Errorf("%s: exit %d, want %q:\n%s", c.family, code, c.want, stderr)
		}
	}
	// a mean whose member does not apply to the data names it (it said
	// only that the mean did not)
	for _, c := range []struct{ family, want string }{
		{"mean(amdahl,powerlaw-async)", "family mean(amdahl,powerlaw-async) does not apply to these data (asynchronous updates, parameter servers): its member amdahl does not; those that do: "},
		{"mean(amdahl,ernest)", "its members amdahl, ernest do not; those that do: "},
	} {
		code, _, stderr := runCmd(t, "fit", dir, "--family", c.family, "--out", filepath.Join(dir, "m.json"))
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, want %q:\n%s", c.family, code, c.want, stderr)
		}
	}
}
