package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgdplan/sgdplan/fit"
	"github.com/sgdplan/sgdplan/model"
)

// busiest looks at the shard stations only: the workers' own compute, a
// station when they share cores, is no PS station, and a busy one is not a
// reason to add a shard. The fixture's workers (compute z0 = 0.0949 s, a
// link of 0.0105 s per direction) are put eight to a machine of one core:
// compute is then a one-server station of demand z0, so X <= 1/z0 and a
// link is at most X D_link <= D_link/z0 = 0.0105/0.0949 = 11% busy, while
// the core is nearly always busy. Counting the compute station read it as
// a saturated PS link ("add a shard").
func TestBusiestSkipsSharedCompute(t *testing.T) {
	path := fitModel(t, t.TempDir())
	doc := readModelDoc(t, path)
	q, ok := doc["queueing"].(map[string]any)
	if !ok {
		q = map[string]any{}
		doc["queueing"] = q
	}
	q["shared_cores"] = 1
	doc["reference"].(map[string]any)["per_node"] = 8
	writeModelDoc(t, path, doc)
	m, err := fit.LoadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	param := func(name string) float64 {
		for _, p := range m.Parameters {
			if p.Name == name {
				return p.Value
			}
		}
		t.Fatalf("the fixture has no parameter %q: %v", name, m.Parameters)
		return 0
	}
	z, link := param("z0"), param("link")
	net, ok := m.Network(model.Config{Workers: 8, PS: 1})
	if !ok {
		t.Fatal("no network")
	}
	computes := 0
	for _, s := range net.Stations {
		if s.Name == "compute" {
			computes++
		}
	}
	if computes != 1 {
		t.Fatalf("8 workers on one core: stations %+v, want one compute station (the test needs it)", net.Stations)
	}
	bound := link / z
	u, kind := busiest(m, 8, 1)
	if kind != "link" || !(u > 0) || u > bound*(1+1e-9) {
		t.Errorf("busiest at 8 workers on one core: %s %.3f busy, want a link at most D_link/z0 = %.3f", kind, u, bound)
	}
	if v := verdict(m, 8, 1); strings.Contains(v.reason, "saturated") {
		t.Errorf("verdict %s: %q, want no saturated PS station", v.word, v.reason)
	}
}

// check's exit codes are the documented numbers, not just whatever
// exitWarn and exitFail hold: docs/fitting.md promises "fail, exit 4" and
// "warn, exit 3" (the fixture judged on throughput alone: the knee near
// (Z+ΣD)/max D ≈ 11 workers, the link saturated at 64, as in
// TestCheckVerdicts).
func TestCheckExitCodesAsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "fitting.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"**fail, exit 4**", "**warn, exit 3**"} {
		if !strings.Contains(string(doc), s) {
			t.Fatalf("docs/fitting.md does not say %q: the test reads the codes there", s)
		}
	}
	full := fitModel(t, t.TempDir())
	tput := throughputOnly(t, full)
	for _, c := range []struct {
		model, workers string
		code           int
		word           string
	}{
		{tput, "4", 0, "fine"}, {tput, "16", 3, "warn"}, {tput, "64", 4, "fail"},
		// with the fitted staleness cost, 16 workers are past the best
		// time to target: a fail too (the docs' "fail, exit 4" list)
		{full, "16", 4, "fail"},
	} {
		code, stdout, stderr := runCmd(t, "check", "--model", c.model, "--workers", c.workers)
		if code != c.code || !strings.Contains(stdout, c.word+":") {
			t.Errorf("check --workers %s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.workers, code, stdout, stderr, c.code, c.word)
		}
	}
}

// Past saturation: a synchronous job whose step grows with the workers
// (overhead family, T = θ0 + θ1 b + θ2 (w-1)) at a fixed global batch G
// splits G ever thinner while the overhead grows, so its samples/s, G/T,
// peak and then fall: check fails it (exit 4, docs/fitting.md's "fail,
// exit 4 (past saturation)"). With θ0 = 0.1 s, θ1 = 0.01 s/sample,
// θ2 = 0.01 s and G = 400: T(w) = 0.09 + 4/w + 0.01 w, least at
// w = sqrt(4/0.01) = 20 (T = 0.49 s; T(19) = 0.4905, T(21) = 0.4905), and
// at 80 workers T = 0.09 + 0.05 + 0.8 = 0.94 s: 1 - 0.49/0.94 = 47.9%
// slower than 20 workers.
func TestCheckPastSaturation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "overhead.json")
	if code, _, e := runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--family", "overhead", "--out", path); code != 0 {
		t.Fatal(e)
	}
	doc := readModelDoc(t, path)
	want := map[string]float64{"fixed": 0.1, "per_sample": 0.01, "per_worker": 0.01}
	params := doc["parameters"].([]any)
	for _, p := range params {
		p := p.(map[string]any)
		v, ok := want[p["name"].(string)]
		if !ok {
			t.Fatalf("overhead parameter %v: the test sets fixed, per_sample and per_worker", p["name"])
		}
		p["value"], p["lo"], p["hi"] = v, v, v
	}
	if len(params) != len(want) {
		t.Fatalf("overhead parameters %v, want %d", params, len(want))
	}
	delete(doc, "samples") // the bootstrap refits are of the fitted values
	writeModelDoc(t, path, doc)
	code, stdout, stderr := runCmd(t, "check", "--model", path, "--workers", "80", "--global-batch", "400")
	line := "fail: past saturation: 80 workers are 47.9% slower than 20 workers, the fastest"
	if code != 4 || !strings.HasPrefix(stdout, line) {
		t.Errorf("check --workers 80 --global-batch 400: exit %d, stdout %q, stderr %q; want exit 4 and %q", code, stdout, stderr, line)
	}
}
