package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The json outputs write <, > and & as themselves: a job named "a<b>&c"
// read "a\u003cb\u003e\u0026c" in plan's and simulate's json (json.Marshal
// escapes them for HTML pages), while the text tables showed the name.
func TestJSONWritesNamesAsThemselves(t *testing.T) {
	dir := t.TempDir()
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size,p\n\"a<b>&c\",0,100,0.8\nd,0,200,0.5\n")
	for _, cmd := range []string{"plan", "simulate"} {
		code, stdout, stderr := runCmd(t, cmd, "--jobs", jobs, "--servers", "4", "--policy", "equi", "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", cmd, code, stderr)
		}
		if !strings.Contains(stdout, `"a<b>&c"`) || strings.Contains(stdout, `\u00`) {
			t.Errorf("%s: name not written as itself:\n%s", cmd, stdout)
		}
		if !json.Valid([]byte(stdout)) {
			t.Errorf("%s: not json:\n%s", cmd, stdout)
		}
	}
}

// inspect's json (its runs and its throughput rows) writes them as
// themselves too.
func TestInspectJSONWritesNamesAsThemselves(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "steps.csv", "run,workers,ps,batch,worker,step,start,end\n"+
		"\"a<b>&c\",1,1,32,0,0,0,1\n\"a<b>&c\",1,1,32,0,1,1,2\n\"a<b>&c\",1,1,32,0,2,2,3\n")
	tab := t.TempDir()
	writeTestFile(t, tab, "throughput.csv", "model,workers,ps,batch,steps_per_s\n\"m<1>&\",1,1,32,5\n\"m<1>&\",2,1,32,9\n")
	for _, d := range []string{dir, tab} {
		code, stdout, stderr := runCmd(t, "inspect", d, "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", d, code, stderr)
		}
		if strings.Contains(stdout, `\u00`) || !(strings.Contains(stdout, `"a<b>&c"`) || strings.Contains(stdout, `"m<1>&"`)) {
			t.Errorf("%s: names not written as themselves:\n%s", d, stdout)
		}
		if !json.Valid([]byte(stdout)) {
			t.Errorf("%s: not json:\n%s", d, stdout)
		}
	}
}
