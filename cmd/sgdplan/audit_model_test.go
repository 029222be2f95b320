package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editedModel writes a copy of the model.json at src, changed by edit on
// its decoded form, to dir/name and returns the path and the text written.
func editedModel(t *testing.T, src, dir, name string, edit func(m map[string]any)) (string, string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, string(out)
}

// posOf is "line:col" of the value after the first occurrence of key (a
// quoted field name followed by ": ") in text.
func posOf(t *testing.T, text, key string) string {
	t.Helper()
	i := strings.Index(text, key)
	if i < 0 {
		t.Fatalf("%s not in the model", key)
	}
	i += len(key)
	line := strings.Count(text[:i], "\n") + 1
	col := i - strings.LastIndexByte(text[:i], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// An absurd shared-core count is bad input everywhere it can come from
// (the flag, model.json), never a panic of the MVA (audit: --shared-cores
// 4611686018427387904 overflowed the compute station's servers), and a bad
// count in model.json is reported at the field, not at its object.
func TestFitSharedCoresBounded(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "fit", fitAsync, "--shared-cores", "4611686018427387904", "--out", filepath.Join(dir, "x.json"))
	if code != exitBadInput || !strings.Contains(stderr, "--shared-cores 4611686018427387904: want 0") {
		t.Errorf("fit --shared-cores 2^62: exit %d, stderr %q", code, stderr)
	}
	mp := fitModel(t, dir)
	for _, v := range []int64{4611686018427387904, -1} {
		p, text := editedModel(t, mp, dir, "cores.json", func(m map[string]any) {
			m["queueing"].(map[string]any)["shared_cores"] = v
		})
		want := fmt.Sprintf("cores.json:%s: queueing: shared_cores = %d", posOf(t, text, `"shared_cores": `), v)
		for _, cmd := range [][]string{{"predict", "--model", p, "--workers", "1-4"}, {"check", "--model", p, "--workers", "4"}} {
			code, _, stderr := runCmd(t, cmd...)
			if code != exitBadInput || !strings.Contains(stderr, want) {
				t.Errorf("%s with shared_cores %d: exit %d, stderr %q; want exit 2 and %q", cmd[0], v, code, stderr, want)
			}
		}
	}
}
