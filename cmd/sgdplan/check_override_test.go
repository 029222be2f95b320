package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// --workers and --ps given beside a manifest override its counts, and say
// so (a --workers left in a CI script judged every manifest at its count
// without a word); json says where each count came from.
func TestCheckFlagsOverrideManifest(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	tf := filepath.Join("..", "..", "testdata", "manifests", "tfjob.yaml")
	_, out, stderr := runCmd(t, "check", "--model", mp, tf, "--workers", "1", "--ps", "2", "--format", "json")
	for _, want := range []string{
		"--workers 1 overrides the 4 workers the manifest gives (at " + tf + ":19:17): judged at 1",
		"--ps 2 overrides the 1 PS shard the manifest gives (at " + tf + ":11:17): judged at 2",
	} {
		if !strings.Contains(stderr, "sgdplan: warning: "+want) || !strings.Contains(out, want) {
			t.Errorf("missing %q on stderr or in json:\n%s\n%s", want, stderr, out)
		}
	}
	var j checkJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Workers != 1 || j.PS != 2 || j.WorkersFrom != "--workers" || j.PSFrom != "--ps" {
		t.Errorf("workers %d from %q, ps %d from %q; want 1 from --workers, 2 from --ps", j.Workers, j.WorkersFrom, j.PS, j.PSFrom)
	}
	// the manifest's own counts: from their lines, and no override said
	_, out, stderr = runCmd(t, "check", "--model", mp, tf, "--workers", "4", "--format", "json")
	if strings.Contains(stderr, "overrides") {
		t.Errorf("--workers equal to the manifest's: %s", stderr)
	}
	j = checkJSON{}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.WorkersFrom != "--workers" || j.PSFrom != tf+":11:17" {
		t.Errorf("workers from %q, ps from %q; want --workers and %s:11:17", j.WorkersFrom, j.PSFrom, tf)
	}
	// no manifest: the shards are the model's
	_, out, _ = runCmd(t, "check", "--model", mp, "--workers", "2", "--format", "json")
	j = checkJSON{}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.WorkersFrom != "--workers" || j.PSFrom != "model" {
		t.Errorf("no manifest: workers from %q, ps from %q; want --workers and model", j.WorkersFrom, j.PSFrom)
	}
}
