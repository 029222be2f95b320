package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An exact fit's bootstrap samples are all the same fit: powerlaw-async's
// 2 parameters on the 2 configurations --train-workers 1,2 keeps of
// 100, 190, 350 samples/s (rate1 100, exponent log2(1.9) = 0.926, RMSLE 0),
// and syncps's 5 on all 3. predict printed 5.938 [5.938, 5.938] and check
// "verdict over 200 bootstrap refits of the data: fine 100%" without a
// word; both now warn that the intervals measure no uncertainty, and check
// gives no shares of the refits (its json has no bootstrap_shares).
func TestExactFitSamplesAlike(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,190\n4,1,32,350\n")
	sync := filepath.Join(dir, "sync")
	os.MkdirAll(sync, 0o755)
	writeTestFile(t, sync, "throughput.csv", "workers,ps,batch,samples_per_s,mode\n1,1,32,100,sync\n2,1,32,190,sync\n4,1,32,350,sync\n")
	pw, sp := filepath.Join(dir, "tw.json"), filepath.Join(dir, "sp.json")
	if code, _, e := runCmd(t, "fit", dir, "--train-workers", "1,2", "--out", pw); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := runCmd(t, "fit", sync, "--family", "syncps", "--out", sp); code != 0 {
		t.Fatal(e)
	}
	const warn = "all 200 of the model's bootstrap samples are the same fit: the fit passes through every fitted point"
	for _, m := range []string{pw, sp} {
		code, out, stderr := runCmd(t, "predict", "--model", m, "--workers", "1,2")
		if code != 0 || !strings.Contains(stderr, warn) {
			t.Errorf("%s: predict exit %d, no warning of the samples:\n%s%s", m, code, out, stderr)
		}
		code, out, stderr = runCmd(t, "check", "--model", m, "--workers", "2")
		if code != 0 || !strings.Contains(stderr, warn) || strings.Contains(out, "fine 100%") ||
			!strings.Contains(out, "no spread of the verdict over the bootstrap refits: all 200 are the same fit") {
			t.Errorf("%s: check exit %d, the refits' 100%% as evidence:\n%s%s", m, code, out, stderr)
		}
		_, out, _ = runCmd(t, "check", "--model", m, "--workers", "2", "--format", "json")
		var j checkJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		if j.BootstrapShares != nil || j.BootstrapSamples != 0 || len(j.Warnings) == 0 || !strings.HasPrefix(j.Warnings[0], "all 200") {
			t.Errorf("%s: check json shares %v of %d, warnings %q", m, j.BootstrapShares, j.BootstrapSamples, j.Warnings)
		}
	}
	// a fit with residuals to resample has no such warning
	full := filepath.Join(dir, "full.json")
	if code, _, e := runCmd(t, "fit", dir, "--out", full); code != 0 {
		t.Fatal(e)
	}
	if _, out, stderr := runCmd(t, "check", "--model", full, "--workers", "2"); strings.Contains(stderr, "same fit") || !strings.Contains(out, "bootstrap refits of the data: fine") {
		t.Errorf("a fit with residuals:\n%s%s", out, stderr)
	}
}

// Noise-free data on more configurations than the form has parameters
// (100, 200, 400, 800 samples/s on a power law) give 200 identical
// samples too, but not for want of configurations: the warning said to
// measure more of them. It now says the data hold no noise and asks for
// repeated runs; the exact fit on as many points as parameters keeps its
// advice.
func TestSamplesAlikeNoiseFree(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "throughput.csv", "workers,ps,batch,samples_per_s\n1,1,32,100\n2,1,32,200\n4,1,32,400\n8,1,32,800\n")
	mp := filepath.Join(dir, "m.json")
	if code, _, e := runCmd(t, "fit", dir, "--family", "powerlaw-async", "--out", mp); code != 0 {
		t.Fatal(e)
	}
	_, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "4")
	if !strings.Contains(stderr, "though the 4 configurations outnumber the form's 2 free parameters: the data hold no noise to resample") ||
		!strings.Contains(stderr, "(measure each configuration more than once, with its own noise, for intervals)") ||
		strings.Contains(stderr, "measure more configurations than the family has parameters") {
		t.Errorf("noise-free data on 4 configurations:\n%s", stderr)
	}
}
