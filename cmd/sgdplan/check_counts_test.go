package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
	"github.com/sgdplan/sgdplan/planner"
)

// check names, under its verdict, the other worker counts sgdplan gives
// the same model, each with its rule (a user met check's knee at 2, the
// report's recommended 5, plan's cap at 7 and the fit figure's N* 3.93, and
// could not tell which to ask for): each the count the tool that prints it
// gives, and none at shards other than the model's reference.
func TestCheckNamesTheOtherCounts(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	m, err := fit.LoadModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, "check", "--model", mp, "--workers", "4")
	if code == exitBadInput || code == exitFailure {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	re := regexp.MustCompile(`other counts for this model \((\d+) shards?, up to 16 workers\): (\d+) by the report's and the knee policy's rule \(the last worker that cuts the job's run time by at least 5%\); (\d+) the fastest, where plan caps the job; N\* = ([0-9.]+) in the fit figure`)
	g := re.FindStringSubmatch(out)
	if g == nil {
		t.Fatalf("no line of the other counts:\n%s", out)
	}
	// the knee policy's count, as report computes its recommended workers
	if want := (planner.Knee{Alpha: planner.DefaultKneeAlpha}).Workers(m, 16); g[2] != fmt.Sprint(want) {
		t.Errorf("knee rule %s, want %d", g[2], want)
	}
	// plan's cap, as plan says it
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,model\nm,0,1800,"+mp+"\n")
	_, _, planErr := runCmd(t, "plan", "--jobs", jobs, "--servers", "16", "--policy", "hesrpt")
	if w := fmt.Sprintf("job m is fastest at %s", workersWord(atoi(t, g[3]))); !strings.Contains(planErr, w) {
		t.Errorf("check says %s the fastest; plan: %q", g[3], planErr)
	}
	// the fit figure's N*, from the bounds it draws
	net, _ := m.Network(model.Config{Workers: 1, PS: m.Reference.PS})
	d, _ := net.MaxDemand()
	if want := fmt.Sprintf("%.3g", net.TotalDemand()/d); g[4] != want {
		t.Errorf("N* %s, want %s", g[4], want)
	}
	// a knee past the counts looked at is said to be past them (it was
	// printed as the limit, 16, where report said 19)
	pl := filepath.Join(dir, "pl")
	os.MkdirAll(pl, 0o755)
	var tab strings.Builder
	tab.WriteString("workers,ps,batch,samples_per_s,mode\n")
	for _, k := range []int{1, 2, 4, 8} {
		fmt.Fprintf(&tab, "%d,0,32,%.6g,allreduce\n", k, 100*math.Pow(float64(k), 0.97))
	}
	writeTestFile(t, pl, "throughput.csv", tab.String())
	pm := filepath.Join(pl, "m.json")
	if code, _, stderr := runCmd(t, "fit", pl, "--family", "powerlaw", "--out", pm); code != 0 {
		t.Fatalf("fit power law: %s", stderr)
	}
	_, out, _ = runCmd(t, "check", "--model", pm, "--workers", "8")
	if !strings.Contains(out, "other counts for this model (up to 16 workers): at least 16 by the report's and the knee policy's rule (each worker up to 16 cuts the job's run time by at least 5%); still faster at 16") {
		t.Errorf("a knee past the limit:\n%s", out)
	}
	// --global-batch moves the verdict, not the counts, which are the
	// model's as filed (they were computed on the flag's copy: knee 1)
	// (testdata/asgd fitted on 1-2 workers: knee 5 as filed, 1 at a
	// global batch of 256)
	ap := filepath.Join(dir, "asgd.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("..", "..", "testdata", "asgd"), "--train-workers", "1,2", "--bootstrap", "20", "--out", ap); code != 0 {
		t.Fatalf("fit asgd: %s", stderr)
	}
	counts := regexp.MustCompile(`\): (.*); check's own knee`)
	_, plain, _ := runCmd(t, "check", "--model", ap, "--workers", "4")
	_, gb, _ := runCmd(t, "check", "--model", ap, "--workers", "4", "--global-batch", "256")
	p, q := counts.FindStringSubmatch(plain), counts.FindStringSubmatch(gb)
	if p == nil || q == nil || p[1] != q[1] || !strings.Contains(gb, ", at the model's own batch): ") {
		t.Errorf("--global-batch: counts moved or unlabelled:\n%s\nwithout it:\n%s", gb, plain)
	}
	// the label names what moved the verdict, each of them (it named
	// batch, link rate and placement whichever moved)
	_, both, _ := runCmd(t, "check", "--model", ap, "--workers", "4", "--global-batch", "256", "--bandwidth", "6e6")
	if !strings.Contains(both, ", at the model's own batch and link rate): ") {
		t.Errorf("--global-batch and --bandwidth: label:\n%s", both)
	}
	// at other shards than the model's, where plan and report do not
	// plan it: no line
	_, out, _ = runCmd(t, "check", "--model", mp, "--workers", "4", "--ps", fmt.Sprint(m.Reference.PS+1))
	if strings.Contains(out, "other counts") {
		t.Errorf("at other shards:\n%s", out)
	}
}
