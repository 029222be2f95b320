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
// --target-loss, or --epochs, in every json and csv row and in a line
// under the table (the header stays its second line); none where no row
// has a time to target. It printed a time to target without saying to
// which loss. The named loss is the one the numbers are for: asked for
// with --target-loss, it gives the same updates.
func TestPredictNamesTarget(t *testing.T) {
	dir := t.TempDir()
	mp := fitModel(t, dir)
	eff, _ := readModelDoc(t, mp)["efficiency"].(map[string]any)
	own, _ := eff["target_loss"].(float64)
	if !(own > 0) {
		t.Fatalf("the fixture's model has no target loss: %v", eff["target_loss"])
	}
	for _, c := range []struct {
		args         []string
		loss, epochs float64 // 0: absent
		line         string
	}{
		{nil, own, 0, "updates and time to target: to loss " + g4(own) + " (the model's target: the loss every fitted run reached; --target-loss sets another)"},
		{[]string{"--target-loss", "1.512345"}, 1.512345, 0, "updates and time to target: to loss 1.512345 (--target-loss)"},
		{[]string{"--epochs", "2"}, 0, 2, "updates and time to target: for 2 passes (--epochs) over the dataset of "},
		{[]string{"--epochs", "1"}, 0, 1, "updates and time to target: for 1 pass (--epochs) over the dataset of "},
	} {
		args := append([]string{"predict", "--model", mp, "--workers", "1,3"}, c.args...)
		rows := targetRows(t, args)
		for _, r := range rows {
			if got := r.Loss != nil; got != (c.loss > 0) || got && *r.Loss != c.loss {
				t.Errorf("%v: target_loss %v, want %g (0: absent)", c.args, r.Loss, c.loss)
			}
			if got := r.Epochs != nil; got != (c.epochs > 0) || got && *r.Epochs != c.epochs {
				t.Errorf("%v: target_epochs %v, want %g (0: absent)", c.args, r.Epochs, c.epochs)
			}
		}
		code, out, stderr := runCmd(t, append(args, "--format", "csv")...)
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
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if code != 0 || len(lines) != 5 || !strings.HasPrefix(lines[1], "  workers") || !strings.HasPrefix(lines[4], c.line) {
			t.Errorf("%v table: exit %d, want the header second and the last line to start %q:\n%s%s", c.args, code, c.line, out, stderr)
		}
	}
	// the model's own target is the one its numbers are for, here and on a
	// batch law's model (testdata/sync-gns)
	gp := filepath.Join(dir, "gns.json")
	if code, _, stderr := runCmd(t, "fit", syncGNS, "--out", gp); code != 0 {
		t.Fatalf("fit sync-gns: exit %d: %s", code, stderr)
	}
	for _, m := range []string{mp, gp} {
		def := targetRows(t, []string{"predict", "--model", m, "--workers", "2,8"})
		if def[0].Loss == nil {
			t.Fatalf("%s: no target_loss", m)
		}
		asked := targetRows(t, []string{"predict", "--model", m, "--workers", "2,8", "--target-loss", strconv.FormatFloat(*def[0].Loss, 'g', -1, 64)})
		for i := range def {
			if *def[i].Updates != *asked[i].Updates || *def[i].Time != *asked[i].Time {
				t.Errorf("%s, %d: updates %g and time %g to the named target %g, %g and %g asked for it", m, i, *def[i].Updates, *def[i].Time, *def[0].Loss, *asked[i].Updates, *asked[i].Time)
			}
		}
	}
	// a batch law whose runs all reached loss 0 has a time to loss 0, and
	// names it (0 was taken for no target: a time to no loss named)
	doc := readModelDoc(t, gp)
	e := doc["efficiency"].(map[string]any)
	e["target_loss"], e["gns"].(map[string]any)["target_loss"] = 0.0, 0.0
	zp := filepath.Join(dir, "zero.json")
	writeModelDoc(t, zp, doc)
	for _, r := range targetRows(t, []string{"predict", "--model", zp, "--workers", "2,8"}) {
		if r.Loss == nil || *r.Loss != 0 {
			t.Errorf("a batch law's target 0: target_loss %v, want 0", r.Loss)
		}
	}
	if code, out, _ := runCmd(t, "predict", "--model", zp, "--workers", "2"); code != 0 || !strings.Contains(out, "updates and time to target: to loss 0 (the model's target") {
		t.Errorf("a batch law's target 0: exit %d, no line names it:\n%s", code, out)
	}
	// a target at or above the loss curve's start: no time, no target
	doc = readModelDoc(t, mp)
	doc["efficiency"].(map[string]any)["target_loss"] = 100.0
	hp := filepath.Join(dir, "high.json")
	writeModelDoc(t, hp, doc)
	code, out, stderr := runCmd(t, "predict", "--model", hp, "--workers", "1,2", "--format", "json")
	if code != 0 || strings.Contains(out, "target_") || strings.Contains(out, "time_to_target") || !strings.Contains(stderr, "at or above its loss curve's start") {
		t.Errorf("a target above the curve's start: exit %d, output names a target or a time: %s%s", code, out, stderr)
	}
	// a model without a loss curve has no time to target, and no target
	tp := filepath.Join(dir, "t.json")
	if code, _, stderr := runCmd(t, "fit", filepath.Join("testdata", "fit-table"), "--out", tp); code != 0 {
		t.Fatalf("fit table: exit %d: %s", code, stderr)
	}
	code, out, stderr = runCmd(t, "predict", "--model", tp, "--workers", "1,2", "--format", "json")
	if code != 0 || strings.Contains(out, "target_") || strings.Contains(out, "time_to_target") {
		t.Errorf("table model: exit %d, output names a target: %s%s", code, out, stderr)
	}
	code, out, _ = runCmd(t, "predict", "--model", tp, "--workers", "1,2")
	if code != 0 || strings.Contains(out, "time to target") {
		t.Errorf("table model: exit %d, table names a target:\n%s", code, out)
	}
}

// targetRow is what TestPredictNamesTarget reads of predict's json rows.
type targetRow struct {
	Updates *float64 `json:"updates_to_target"`
	Time    *float64 `json:"time_to_target_s"`
	Loss    *float64 `json:"target_loss"`
	Epochs  *float64 `json:"target_epochs"`
}

// targetRows runs predict args with --format json; every row must have a
// time to target.
func targetRows(t *testing.T, args []string) []targetRow {
	t.Helper()
	code, out, stderr := runCmd(t, append(args, "--format", "json")...)
	var rows []targetRow
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) == 0 {
		t.Fatalf("%v: exit %d, %v: %s", args, code, err, stderr)
	}
	for _, r := range rows {
		if r.Time == nil || r.Updates == nil {
			t.Fatalf("%v: a row without a time to target: %s", args, out)
		}
	}
	return rows
}
