package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// mlperfExcerptData copies the testdata excerpt into a temporary data
// folder as mlperf-training/ and returns the folder.
func mlperfExcerptData(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	dst := filepath.Join(data, mlperfDataset)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, round := range mlperfRounds {
		name := "mlperf_training_" + round + "_runs.csv"
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "public", "mlperf-training", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return data
}

// mlperfRows returns the cells of the rows of the section's first table
// (the per-benchmark scores), the mean row last.
func mlperfRows(t *testing.T, md string) [][]string {
	t.Helper()
	head := "| round | benchmark | fitted on B |"
	i := strings.Index(md, head)
	if i < 0 {
		t.Fatalf("no score table:\n%s", md)
	}
	var rows [][]string
	for _, line := range strings.Split(md[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.Trim(strings.TrimSpace(cells[j]), "*")
		}
		rows = append(rows, cells)
	}
	return rows
}

func TestValidateMLPerfExcerpt(t *testing.T) {
	data := mlperfExcerptData(t)
	res, err := mlperfBatches(filepath.Join(data, mlperfDataset))
	if err != nil {
		t.Fatal(err)
	}
	v := &validation{mlperf: res}
	var b bytes.Buffer
	v.mlperfMarkdown(&b)
	md := b.String()
	if !strings.HasPrefix(md, "## Efficiency: batch size (MLPerf Training, epochs to target)\n") {
		t.Errorf("section heading: %q", md[:min(len(md), 80)])
	}
	if !strings.Contains(md, "Left out: bert (") {
		t.Errorf("the bert exclusion is not stated:\n%s", md)
	}
	rows := mlperfRows(t, md)
	if len(rows) != 3 {
		t.Fatalf("%d rows, want the 2 benchmarks of the excerpt (v2.0 ssd, v0.7 gnmt) and the mean:\n%s", len(rows), md)
	}
	var got []string
	for _, r := range rows[:2] {
		got = append(got, r[0]+" "+r[1])
	}
	if g := strings.Join(got, ", "); g != "v2.0 ssd, v0.7 gnmt" {
		t.Errorf("benchmarks %s, want v2.0 ssd, v0.7 gnmt", g)
	}
	// Runs pooled: the excerpt's successful closed-division ssd rows (43)
	// and gnmt rows (24, one of them aborted: 23; "Closed" counts).
	if rows[0][4] != "43" || rows[1][4] != "23" {
		t.Errorf("runs pooled %s and %s, want 43 and 23", rows[0][4], rows[1][4])
	}
	if rows[0][2] != "128, 160" || rows[0][3] != "256, 1280, 2048" {
		t.Errorf("ssd split %q / %q, want the smallest 2 of 5 batches fitted", rows[0][2], rows[0][3])
	}
	if rows[2][0] != "mean" {
		t.Fatalf("last row %v, want the mean", rows[2])
	}
	// The mean row is the mean of the rows, for the law's and the
	// baseline's MAPE and worst (columns 6-9), to the printed precision.
	for col := 6; col <= 9; col++ {
		sum := 0.0
		for _, r := range rows[:2] {
			x, err := strconv.ParseFloat(r[col], 64)
			if err != nil {
				t.Fatalf("column %d: %q", col, r[col])
			}
			sum += x
		}
		mean, err := strconv.ParseFloat(rows[2][col], 64)
		if err != nil {
			t.Fatalf("mean column %d: %q", col, rows[2][col])
		}
		if math.Abs(mean-sum/2) > 0.051 {
			t.Errorf("column %d: mean row %g, mean of the rows %g", col, mean, sum/2)
		}
	}
	law, constant, _, _ := res.means()
	if want := (res.scores[0].score.MAPE + res.scores[1].score.MAPE) / 2; math.Abs(law-want) > 1e-12 {
		t.Errorf("mean law MAPE %g, want %g", law, want)
	}
	if want := (res.scores[0].score.ConstMAPE + res.scores[1].score.ConstMAPE) / 2; math.Abs(constant-want) > 1e-12 {
		t.Errorf("mean constant MAPE %g, want %g", constant, want)
	}
	// The tally sentence agrees with the scores.
	m := regexp.MustCompile(`Of (\d+) tables, the law beats constant epochs on (\d+), loses on (\d+) and ties on (\d+)`).FindStringSubmatch(md)
	if m == nil {
		t.Fatalf("no tally sentence:\n%s", md)
	}
	beats := 0
	for _, s := range res.scores {
		if s.score.MAPE < s.score.ConstMAPE-0.05 {
			beats++
		}
	}
	n, _ := strconv.Atoi(m[1])
	b1, _ := strconv.Atoi(m[2])
	l1, _ := strconv.Atoi(m[3])
	t1, _ := strconv.Atoi(m[4])
	if n != 2 || b1 != beats || b1+l1+t1 != n {
		t.Errorf("tally %q, want 2 tables with %d beaten", m[0], beats)
	}
	// Per test batch: the 3 predicted batches of each table.
	if n := strings.Count(md, "\n| v2.0 | ssd | "); n != 4 { // 1 score row + 3 test batches
		t.Errorf("%d v2.0 ssd rows, want 4", n)
	}
}

func TestValidateMLPerfAbsentAndBad(t *testing.T) {
	res, err := mlperfBatches(filepath.Join(t.TempDir(), mlperfDataset))
	if err != nil || res.found {
		t.Fatalf("absent folder: %+v, %v; want not found, no error", res, err)
	}
	var b bytes.Buffer
	(&validation{mlperf: res}).mlperfMarkdown(&b)
	if !strings.Contains(b.String(), "mlperf-training was not found under the data folder") {
		t.Errorf("absent: %s", b.String())
	}

	data := mlperfExcerptData(t)
	path := filepath.Join(data, mlperfDataset, "mlperf_training_v0.7_runs.csv")
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(in, []byte(",2048,"), []byte(",-2048,"), 1)
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := mlperfBatches(filepath.Join(data, mlperfDataset)); err == nil || !strings.Contains(err.Error(), "mlperf_training_v0.7_runs.csv:2:") || !strings.Contains(err.Error(), "global_batch_size") {
		t.Errorf("bad batch: err %v, want one at line 2 naming global_batch_size", err)
	}
}
