package main

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// inspect's json and csv name their counts of steps.csv rows iterations,
// as the table does: "steps" and "window_steps" held iterations (a 2-worker
// sync run of 20 steps gave 40), and a script dividing window_steps by
// the window's length got twice the run's updates/s.
func TestInspectMachineFormatsSayIterations(t *testing.T) {
	_, js, stderr := runCmd(t, "inspect", "--format", "json", fitAsync)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("json: %v: %s", err, stderr)
	}
	for _, k := range []string{"iterations", "window_iterations"} {
		if _, ok := rows[0][k]; !ok {
			t.Errorf("json lacks %q: %v", k, rows[0])
		}
	}
	for _, k := range []string{"steps", "window_steps"} {
		if _, ok := rows[0][k]; ok {
			t.Errorf("json has %q, which held iterations", k)
		}
	}
	_, out, _ := runCmd(t, "inspect", "--format", "csv", fitAsync)
	head, err := csv.NewReader(strings.NewReader(out)).Read()
	if err != nil || !slices.Contains(head, "iterations") || !slices.Contains(head, "window_iterations") || slices.Contains(head, "steps") || slices.Contains(head, "window_steps") {
		t.Errorf("csv header %v (%v): want iterations and window_iterations, not steps", head, err)
	}
}
