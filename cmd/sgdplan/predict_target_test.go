package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// predict names the target its updates and time to target are for: the
// model's own loss (efficiency.target_loss, read here from model.json),
// --target-loss, or --epochs, in every json and csv row and in a line of
// the table; none where no row has a time to target. It printed a time
// to target without saying to which loss.
func TestPredictNamesTarget(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	eff, _ := readModelDoc(t, mp)["efficiency"].(map[string]any)
	own, _ := eff["target_loss"].(float64)
	if !(own > 0) {
		t.Fatalf("the fixture's model has no target loss: %v", eff["target_loss"])
	}
	type row struct {
		Time   *float64 `json:"time_to_target_s"`
		Loss   *float64 `json:"target_loss"`
		Epochs *float64 `json:"target_epochs"`
	}
	for _, c := range []struct {
		args         []string
		loss, epochs float64 // 0: absent
		line         string
	}{
		{nil, own, 0, "updates and time to target: to loss " + g4(own) + " (the model's target: the loss every fitted run reached; --target-loss sets another)"},
		{[]string{"--target-loss", "1.5"}, 1.5, 0, "updates and time to target: to loss 1.5 (--target-loss)"},
		{[]string{"--epochs", "2"}, 0, 2, "updates and time to target: for --epochs 2, passes over the dataset of "},
	} {
		args := append([]string{"predict", "--model", mp, "--workers", "1,3"}, c.args...)
		code, out, stderr := runCmd(t, append(args, "--format", "json")...)
		var rows []row
		if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 2 {
			t.Fatalf("%v: exit %d, %v: %s", c.args, code, err, stderr)
		}
		for _, r := range rows {
			if r.Time == nil {
				t.Fatalf("%v: no time to target", c.args)
			}
			if got := r.Loss != nil; got != (c.loss > 0) || got && *r.Loss != c.loss {
				t.Errorf("%v: target_loss %v, want %g (0: absent)", c.args, r.Loss, c.loss)
			}
			if got := r.Epochs != nil; got != (c.epochs > 0) || got && *r.Epochs != c.epochs {
				t.Errorf("%v: target_epochs %v, want %g (0: absent)", c.args, r.Epochs, c.epochs)
			}
		}
		code, out, stderr = runCmd(t, append(args, "--format", "csv")...)
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if code != 0 || err != nil || len(recs) != 3 {
			t.Fatalf("%v csv: exit %d, %v: %s", c.args, code, err, stderr)
		}
		li, ei := slices.Index(recs[0], "target_loss"), slices.Index(recs[0], "target_epochs")
		if li < 0 || ei < 0 {
			t.Fatalf("csv header %v lacks target_loss or target_epochs", recs[0])
		}
		for _, r := range recs[1:] {
			for _, f := range []struct {
				got  string
				want float64
			}{{r[li], c.loss}, {r[ei], c.epochs}} {
				v, err := strconv.ParseFloat(f.got, 64)
				// (the csv writes 10 significant digits)
				if f.want == 0 && f.got != "" || f.want > 0 && (err != nil || math.Abs(v/f.want-1) > 1e-9) {
					t.Errorf("%v csv: %q, want %g (0: empty)", c.args, f.got, f.want)
				}
			}
		}
		code, out, stderr = runCmd(t, args...)
		lines := strings.Split(out, "\n")
		if code != 0 || len(lines) < 3 || !strings.HasPrefix(lines[1], c.line) {
			t.Errorf("%v table: exit %d, second line %q, want it to start %q: %s", c.args, code, lines[min(1, len(lines)-1)], c.line, stderr)
		}
	}
	// a model without a loss curve has no time to target, and no target
	tp := filepath.Join(dir, "t.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", tp); code != 0 {
		t.Fatalf("fit table: exit %d: %s", code, stderr)
	}
	code, out, stderr := runCmd(t, "predict", "--model", tp, "--workers", "1,2", "--format", "json")
	if code != 0 || strings.Contains(out, "target_") || strings.Contains(out, "time_to_target") {
		t.Errorf("table model: exit %d, output names a target: %s%s", code, out, stderr)
	}
	code, out, _ = runCmd(t, "predict", "--model", tp, "--workers", "1,2")
	if code != 0 || strings.Contains(out, "time to target") {
		t.Errorf("table model: exit %d, table names a target:\n%s", code, out)
	}
}
