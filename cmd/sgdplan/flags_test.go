package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Flags the audit found accepted: non-finite floats (--epochs Inf printed
// infinite times, --target-loss NaN was "at or below the floor"), a
// fractional per-worker batch, --series on step traces (ignored), --plot at
// the --out path (the PNG overwrote the model), predict's stray paths
// (exit 0), and counts written 1e18 ("parse error").
func TestPredictCheckFitFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	same := filepath.Join(dir, "same.png")
	jobs := writeTestFile(t, dir, "jobs.csv", "job,arrival,size\na,0,100\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"predict", "--model", mp, "--epochs", "Inf"}, "--epochs +Inf: want a finite number"},
		{[]string{"predict", "--model", mp, "--target-loss", "NaN"}, "--target-loss NaN: want a finite number"},
		{[]string{"predict", "--model", mp, "--bandwidth", "-Inf"}, "--bandwidth -Inf: want a finite number"},
		{[]string{"check", "--model", mp, "--workers", "2", "--global-batch", "Inf"}, "--global-batch +Inf: want a finite number"},
		{[]string{"predict", "--model", mp, "--batch", "1.5"}, "--batch 1.5: want a whole number of samples"},
		{[]string{"check", "--model", mp, "--workers", "2", "--batch", "32.5"}, "--batch 32.5: want a whole number of samples"},
		// above 2^53, model.json's cap on its reference batch (check
		// --batch 1e300 printed 1.861e-297 steps/s)
		{[]string{"check", "--model", mp, "--workers", "2", "--batch", "1e300"}, "check: --batch 1e+300: too large: want at most 2^53 = 9007199254740992 samples"},
		{[]string{"check", "--model", mp, "--workers", "2", "--global-batch", "1e17"}, "check: --global-batch 1e+17: too large: want at most 2^53"},
		{[]string{"predict", "--model", mp, "--batch", "1e300"}, "predict: --batch 1e+300: too large: want at most 2^53"},
		{[]string{"predict", "--model", mp, "--global-batch", "9007199254740994"}, "predict: --global-batch 9.007199254740994e+15: too large: want at most 2^53"},
		{[]string{"predict", "--model", mp, "extra.json"}, `unexpected argument "extra.json"`},
		{[]string{"check", "--model", mp, "a.yaml", "b.yaml"}, "one manifest at most, got 2"},
		{[]string{"check", "--model", mp, "--workers", "1e18"}, `--workers "1e18": too large: at most 10000 workers`},
		{[]string{"check", "--model", mp, "--workers", "four"}, `check: --workers "four": want a whole number`},
		{[]string{"fit", fitAsync, "--series", "nope", "--out", filepath.Join(dir, "s.json")}, `--series "nope": the trace has steps.csv`},
		{[]string{"fit", fitAsync, "--out", same, "--plot", same}, "is the --out path: the figure would overwrite the model"},
		// a value the flag package cannot parse says what the flag wants
		{[]string{"plan", "--jobs", "x.csv", "--servers", "2.5"}, `plan: --servers "2.5": want a whole number in decimal digits without a leading 0, such as 1000`},
		{[]string{"simulate", "--servers", "10", "--arrival-rate", "fast"}, `simulate: --arrival-rate "fast": want a number; --arrival-rate: Poisson arrivals`},
		{[]string{"fit", "--bootstrap", "1e3", fitAsync}, `fit: --bootstrap "1e3": want a whole number in decimal digits`},
		// the flag package reads 010 as 8 and takes 0x10 and 1_000
		{[]string{"plan", "--jobs", "x.csv", "--servers", "010"}, `plan: --servers "010": want a whole number in decimal digits without a leading 0`},
		{[]string{"simulate", "--servers=0x10", "--arrival-rate", "1"}, `simulate: --servers "0x10": want a whole number in decimal digits`},
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "1", "--seed", "0xffffffffffffffff"}, `simulate: --seed "0xffffffffffffffff": want a whole number in decimal digits`},
		{[]string{"plan", "--jobs", "x.csv", "--servers", "99999999999999999999"}, `plan: --servers "99999999999999999999": out of range for the flag: want a whole number that fits in 64 bits; --servers: `},
		// with the range the flag's type holds (it said "out of range"
		// alone)
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "1", "--seed", "18446744073709551616"}, `simulate: --seed "18446744073709551616": out of range for the flag: want a whole number from 0 to 18446744073709551615; --seed: `},
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "1e400"}, `simulate: --arrival-rate "1e400": out of range for the flag: want a number of magnitude at most 1.7976931348623157e+308; --arrival-rate: `},
		{[]string{"plan", "--jobs", "x.csv", "--servers", `2"5`}, `plan: --servers "2\"5": want a whole number`},
		// a number with a space about it is said as "4 " is, without the
		// flag's usage that " 4" added (it went to the flag package)
		{[]string{"plan", "--jobs", "x.csv", "--servers", " 4"}, `plan: --servers " 4": ` + wantDecimal + "\n"},
		{[]string{"plan", "--jobs", "x.csv", "--servers", "4 "}, `plan: --servers "4 ": ` + wantDecimal + "\n"},
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "1", "--count", "\t10"}, `simulate: --count "\t10": ` + wantDecimal + "\n"},
		// strconv.ParseFloat takes Go's literals: 3_6 ran as 36, 0_1 as
		// 1, 0x1p-2 as 0.25, without a word
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "3_6"}, `simulate: --arrival-rate "3_6": ` + wantDecimalFloat + "\n"},
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "1", "--early-stop=0_1"}, `simulate: --early-stop "0_1": ` + wantDecimalFloat + "\n"},
		{[]string{"plan", "--jobs", "x.csv", "--servers", "4", "--p", "0x1p-2"}, `plan: --p "0x1p-2": ` + wantDecimalFloat + "\n"},
		// seeds past 2^64-1 wrapped round to 0, 1 without a word
		{[]string{"simulate", "--servers", "4", "--arrival-rate", "1", "--p", "0.5", "--count", "10", "--seed", "18446744073709551615", "--seeds", "3"}, "simulate: --seed 18446744073709551615 with --seeds 3: seeds past 2^64-1 = 18446744073709551615 would wrap round to 0 (want --seed at most 18446744073709551613)"},
		{[]string{"report", "--model", mp, "--jobs", jobs, "--servers", "4", "--seed", "18446744073709551614", "--seeds", "5", "--out", filepath.Join(dir, "rep")}, "report: --seed 18446744073709551614 with --seeds 5: seeds past"},
		// arrivals past the simulator's 1e12 s (drawn to 1e300 s)
		{[]string{"report", "--model", mp, "--jobs", jobs, "--p", "0.5", "--servers", "4", "--loads", "1e-300,0.5", "--out", filepath.Join(dir, "rep")}, "report: --loads 1e-300: at that load the 400 jobs of the longest runs arrive over about 1e+304 s and may take 1.2e+304 s, past the 1e+12 s the simulator takes (want loads of at least 1.2e-08)"},
		// a flag at the end without its value: the flag package's "flag
		// needs an argument: -model"
		{[]string{"predict", "--model"}, "predict: --model needs a value (sgdplan predict --help says what it takes)"},
		{[]string{"convert", "--bandwidth", "0x10", "x"}, `convert: --bandwidth "0x10": ` + wantDecimalFloat + "\n"},
		{[]string{"report", "--model", mp, "--jobs", jobs, "--servers", "4", "--loads", "0.5,0x1p-2", "--out", filepath.Join(dir, "rep")}, `report: --loads: value 2 "0x1p-2": want a load in (0, 1)`},
	}
	for _, c := range cases {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || strings.Contains(stdout, "Inf") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(same); err == nil {
		t.Error("fit wrote the path given to both --out and --plot")
	}
	// where nothing is random the seeds are cut to one, and do not wrap
	// (it was refused, where it ran before)
	if code, _, stderr := runCmd(t, "simulate", "--jobs", jobs, "--servers", "4", "--p", "0.5", "--seed", "18446744073709551615", "--seeds", "3"); code != 0 {
		t.Errorf("--jobs, nothing random, --seed 2^64-1 --seeds 3: exit %d: %s", code, stderr)
	}
	// the last seed at 2^64-1 is taken
	if code, _, stderr := runCmd(t, "simulate", "--jobs", jobs, "--servers", "4", "--p", "0.5", "--seed", "18446744073709551613", "--seeds", "3"); code != 0 {
		t.Errorf("--seed 2^64-3 --seeds 3: exit %d: %s", code, stderr)
	}
	// decimals as people write them are taken
	for _, v := range []string{"0.5", ".5", "5e-1", "1.", "+0.5"} {
		if code, _, stderr := runCmd(t, "plan", "--jobs", jobs, "--servers", "4", "--p", v); code != 0 {
			t.Errorf("--p %s: exit %d: %s", v, code, stderr)
		}
	}
	// a whole batch written as a float is a batch
	if code, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1-2", "--batch", "64.0"); code != 0 {
		t.Errorf("--batch 64.0: exit %d: %s", code, stderr)
	}
	// 2^53 itself is taken
	if code, _, stderr := runCmd(t, "predict", "--model", mp, "--workers", "1-2", "--batch", "9007199254740992"); code != 0 {
		t.Errorf("--batch 2^53: exit %d: %s", code, stderr)
	}
}

// A path that starts with "-" goes after "--", as inspect's error says:
// the flag parser consumed a "--" before the first path, and fit, check,
// convert and inspect then read "-x" as a flag ("inspect: unknown flag
// -x ... goes after --"). An unknown flag is named with its command and
// two dashes (it was the flag package's "flag provided but not defined:
// -bogus", with no command).
func TestDashDashAndUnknownFlags(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(wd, "..", "..", "testdata", "synthetic", "async-ps")
	if err := os.Symlink(src, filepath.Join(dir, "-x")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, stdout, stderr := runCmd(t, "inspect", "--", "-x")
	if code != 0 || !strings.Contains(stdout, "w4") {
		t.Errorf("inspect -- -x: exit %d: %s%s", code, stdout, stderr)
	}
	if code, _, stderr := runCmd(t, "fit", "--out", "m.json", "--", "-x"); code != 0 {
		t.Errorf("fit --out m.json -- -x: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCmd(t, "convert", "--from", "chrome", "--out", "conv", "--", "-x"); code != exitBadInput || strings.Contains(stderr, "unknown flag") || !strings.Contains(stderr, "-x") {
		t.Errorf("convert -- -x (a folder, not a chrome trace): exit %d: %s; want the input refused as a path", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"inspect", "--bogus", "1"}, "sgdplan: inspect: unknown flag --bogus (sgdplan inspect --help lists its flags"},
		{[]string{"fit", "-x"}, "sgdplan: fit: unknown flag --x (sgdplan fit --help lists its flags; a path that starts with - goes after --)"},
		{[]string{"fit", "conv", "--bogus"}, "sgdplan: fit: unknown flag --bogus"},
		{[]string{"check", "--model", "m.json", "--target-loss", "2"}, "sgdplan: check: unknown flag --target-loss"},
		{[]string{"--bogus"}, "sgdplan: unknown flag --bogus (sgdplan --help lists the commands and their flags)"},
	} {
		if code, _, stderr := runCmd(t, c.args...); code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
