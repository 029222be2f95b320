package main

import (
	"fmt"
	"os"
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
	b, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	m, err := fit.ParseModel(mp, b)
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, "check", "--model", mp, "--workers", "4")
	if code == exitBadInput || code == exitFailure {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	re := regexp.MustCompile(`other counts for this model \(at (\d+) shards?, up to 16 workers\): (\d+) by the report's and the knee policy's rule \(the last worker that cuts the time to the target by at least 5%\); (\d+) the fastest, where plan caps the job; N\* = ([0-9.]+) in the fit figure`)
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
	// at other shards than the model's, where plan and report do not
	// plan it: no line
	_, out, _ = runCmd(t, "check", "--model", mp, "--workers", "4", "--ps", fmt.Sprint(m.Reference.PS+1))
	if strings.Contains(out, "other counts") {
		t.Errorf("at other shards:\n%s", out)
	}
}
