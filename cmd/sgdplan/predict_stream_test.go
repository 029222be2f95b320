package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// predictRowKey is the "workers ps" of a row of predict's csv or table
// ("" for a line that is not a row).
func predictRowKey(line string) string {
	f := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' })
	if len(f) < 2 {
		return ""
	}
	if _, err := strconv.Atoi(f[0]); err != nil {
		return ""
	}
	return f[0] + " " + f[1]
}

// inOrder is the output of predict with ascending worker counts (sorted)
// rearranged into the order of ws and ps: its rows by (ps, workers as
// given), the other lines where they were.
func inOrder(t *testing.T, format, sorted string, ws, ps []int) string {
	t.Helper()
	var keys []string
	for _, p := range ps {
		for _, w := range ws {
			keys = append(keys, fmt.Sprintf("%d %d", w, p))
		}
	}
	if format == "json" {
		var rows []json.RawMessage
		if err := json.Unmarshal([]byte(sorted), &rows); err != nil {
			t.Fatal(err)
		}
		at := map[string]json.RawMessage{}
		for _, r := range rows {
			var k struct{ Workers, PS int }
			json.Unmarshal(r, &k)
			at[fmt.Sprintf("%d %d", k.Workers, k.PS)] = r
		}
		var out []json.RawMessage
		for _, k := range keys {
			out = append(out, at[k])
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	lines := strings.SplitAfter(sorted, "\n")
	at := map[string]string{}
	for _, l := range lines {
		if k := predictRowKey(l); k != "" {
			at[k] = l
		}
	}
	var out strings.Builder
	i := 0
	for _, l := range lines {
		if predictRowKey(l) == "" {
			out.WriteString(l)
			continue
		}
		out.WriteString(at[keys[i]])
		i++
	}
	return out.String()
}

// predict evaluates the worker counts in the order asked (fit.Model.Prime
// readies the model for it) and keeps the csv and json rows in a temporary
// file past some megabytes: the rows come out in the order asked, byte for
// byte those of the ascending counts rearranged, whichever way they are
// kept.
func TestPredictRowsInAnyOrder(t *testing.T) {
	m := fitModel(t, t.TempDir())
	tmp := t.TempDir() // the spill's temporary files: none may be left
	t.Setenv("TMPDIR", tmp)
	ws := []int{16390, 7, 1, 16385, 3, 2, 17000, 12, 5, 4, 100}
	given := "16390,7,1,16385,3,2,17000,12,5,4,1-2,100"
	sorted := slices.Sorted(slices.Values(ws))
	var asc []string
	for _, w := range sorted {
		asc = append(asc, strconv.Itoa(w))
	}
	for _, mem := range []int{spillMem, 1000} {
		for _, format := range []string{"table", "csv", "json"} {
			for _, ps := range [][]int{{1}, {2, 1}} {
				psArg := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(ps)), ","), "[]")
				name := fmt.Sprintf("%s, --ps %s, spill after %d bytes", format, psArg, mem)
				func() {
					defer func(old int) { spillMem = old }(spillMem)
					spillMem = mem
					code, want, stderr := runCmd(t, "predict", "--model", m, "--workers", strings.Join(asc, ","), "--ps", psArg, "--format", format)
					if code != 0 {
						t.Fatalf("%s: exit %d: %s", name, code, stderr)
					}
					code, got, stderr := runCmd(t, "predict", "--model", m, "--workers", given, "--ps", psArg, "--format", format)
					if code != 0 {
						t.Fatalf("%s: exit %d: %s", name, code, stderr)
					}
					if w := inOrder(t, format, want, ws, ps); got != w {
						t.Errorf("%s: rows not those of the ascending counts in the order given:\n%s\nwant\n%s", name, got, w)
					}
					if left, err := os.ReadDir(tmp); err != nil || len(left) > 0 {
						t.Errorf("%s: %d files left in TMPDIR (%v)", name, len(left), err)
					}
				}()
			}
		}
	}
}

// heapAtFirstWrite records the live heap when it is first written to.
type heapAtFirstWrite struct {
	heap    uint64
	written bool
}

func (h *heapAtFirstWrite) Write(p []byte) (int, error) {
	if !h.written {
		h.written = true
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		h.heap = ms.HeapAlloc
	}
	return len(p), nil
}

// predict's csv and json rows are not all held before they are written:
// predict --workers 1-100000 took 420 MB, 1-10000 --ps 1-64 775 MB.
func TestPredictRowsNotKept(t *testing.T) {
	if testing.Short() {
		t.Skip("30,000 rows")
	}
	m := fitModel(t, t.TempDir())
	for _, format := range []string{"csv", "json"} {
		heap := func(workers string) uint64 {
			var h heapAtFirstWrite
			var errb bytes.Buffer
			if code := run([]string{"sgdplan", "predict", "--model", m, "--workers", workers, "--ps", "1,2", "--format", format}, strings.NewReader(""), &h, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			return h.heap
		}
		few, many := heap("1-100"), heap("1-15000")
		// 30,000 rows kept took about 20 MB, their json 33 MB more
		if grow := int64(many) - int64(few); grow > 8<<20 {
			t.Errorf("%s: the live heap when the rows are written is %.1f MB for 30,000 rows, %.1f MB for 200: want under 8 MB more", format, float64(many)/1e6, float64(few)/1e6)
		}
	}
}
