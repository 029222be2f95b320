package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// --ps overrides a manifest's shards only where it gives some, and says
// so only when the count differs; where the manifest gives none, the
// shards come from --ps, else from the model ("model", as checkJSON's
// PSFrom documents).
func TestCheckPSOverrideOnlyWhenItDiffers(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	tf := filepath.Join("..", "..", "testdata", "manifests", "tfjob.yaml")      // 1 PS at 11:17
	pt := filepath.Join("..", "..", "testdata", "manifests", "pytorchjob.yaml") // no PS replicas
	for _, c := range []struct {
		name   string
		args   []string
		ps     int
		psFrom string
	}{
		{"--ps equal to the manifest's 1", []string{tf, "--ps", "1"}, 1, "--ps"},
		{"--ps beside a manifest without PS", []string{pt, "--ps", "2"}, 2, "--ps"},
		// fitModel's async model has 1 shard ("judged at its 1 shard",
		// TestManifestWithoutPSOnPSModel)
		{"a manifest without PS, no --ps", []string{pt}, 1, "model"},
	} {
		_, out, stderr := runCmd(t, append([]string{"check", "--model", mp, "--format", "json"}, c.args...)...)
		var j checkJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatalf("%s: %v: %s", c.name, err, out)
		}
		if strings.Contains(stderr, "overrides") || strings.Contains(strings.Join(j.Warnings, "\n"), "overrides") {
			t.Errorf("%s: an override said where none changed a count:\n%s", c.name, stderr)
		}
		if j.PS != c.ps || j.PSFrom != c.psFrom {
			t.Errorf("%s: ps %d from %q, want %d from %q", c.name, j.PS, j.PSFrom, c.ps, c.psFrom)
		}
	}
}

// A manifest that gives no count to judge (nprocPerNode auto without GPU
// limits) is the manifest's fault, and a model that predicts no finite
// value the model's: --format json names the input, as checkErrorJSON's
// Input documents ("model" or "manifest").
func TestCheckJSONErrorInputNamed(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	auto := writeTestFile(t, dir, "pt.yaml", "kind: PyTorchJob\nspec:\n  nprocPerNode: auto\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n    Worker:\n      replicas: 3\n")
	// a staleness cost so large that progress underflows to 0
	// (TestPredictNonFiniteRefused's model)
	huge, _ := editedModel(t, mp, dir, "lambda.json", func(m map[string]any) {
		e := m["efficiency"].(map[string]any)
		e["lambda"], e["lambda_lo"], e["lambda_hi"] = 1e308, 1e308, 1e308
	})
	for _, c := range []struct {
		name, input, msg string
		args             []string
	}{
		{"no count in the manifest", "manifest", `nprocPerNode "auto"`, []string{"--model", mp, auto}},
		{"the model predicts no number", "model", "not a finite positive number", []string{"--model", huge, "--workers", "4"}},
	} {
		code, stdout, _ := runCmd(t, append([]string{"check", "--format", "json"}, c.args...)...)
		var e checkErrorJSON
		if err := json.Unmarshal([]byte(stdout), &e); err != nil {
			t.Fatalf("%s: stdout %q: %v", c.name, stdout, err)
		}
		if code != exitBadInput || e.Verdict != "error" || e.ExitCode != exitBadInput || e.Input != c.input || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s: exit %d, %+v; want exit 2, input %q, %q", c.name, code, e, c.input, c.msg)
		}
	}
}

// An error with no exit code of its own ends the program with exit 1
// (run: "the command could not do its work"); the json object must give
// that code, and a verdict's code (an exitError without an error) writes
// nothing.
func TestWriteCheckErrorCodes(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want int // -1: nothing written
	}{
		{"plain error", errors.New("disk full"), 1},
		{"bad input", badInput(errors.New("bad")), 2},
		{"a model's fault", &inputErr{"model", badInput(errors.New("bad model"))}, 2},
		{"a verdict's code", withCode(3, nil), -1},
	} {
		var out bytes.Buffer
		c0 := cli.NewContext(&cli.App{Writer: &out}, nil, nil)
		writeCheckError(c0, c.err)
		if c.want < 0 {
			if out.Len() != 0 {
				t.Errorf("%s: wrote %q", c.name, out.String())
			}
			continue
		}
		var e checkErrorJSON
		if err := json.Unmarshal(out.Bytes(), &e); err != nil {
			t.Fatalf("%s: %q: %v", c.name, out.String(), err)
		}
		if e.ExitCode != c.want || e.Verdict != "error" || e.Error != c.err.Error() {
			t.Errorf("%s: %+v, want exit_code %d", c.name, e, c.want)
		}
	}
}
