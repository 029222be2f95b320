package traces

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/sgdplan/sgdplan/internal/testenv"
)

// chromeUnionScan is the union of chromeSteps before 2026-12-06 (the
// oracle of TestChromeUnionSameSum): the length of the union of segs
// (sorted by start) clipped to [a, b], scanned from the first segment that
// starts at or after a - longest (the longest segment's length).
func chromeUnionScan(ss []chromeSeg, longest, a, b float64) float64 {
	first := 0
	for first < len(ss) && ss[first].a < a-longest {
		first++
	}
	total, cur0, cur1 := 0.0, math.Inf(-1), math.Inf(-1)
	for _, s := range ss[first:] {
		if s.a >= b {
			break
		}
		x, y := math.Max(s.a, a), math.Min(s.b, b)
		if y <= x {
			continue
		}
		if x > cur1 {
			if cur1 > cur0 {
				total += cur1 - cur0
			}
			cur0, cur1 = x, y
		} else if y > cur1 {
			cur1 = y
		}
	}
	if cur1 > cur0 {
		total += cur1 - cur0
	}
	return total
}

// TestChromeUnionSameSum: the union from the merged intervals is the same
// float64 as the scan over the segments gave, on random segments (long and
// short, touching, nested, of no length, at epoch-sized microsecond times
// with fractions) clipped to random windows.
func TestChromeUnionSameSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := range 2000 {
		base := []float64{0, 1.7e15, 123.456}[trial%3]
		n := 1 + rng.IntN(40)
		segs := make([]chromeSeg, n)
		for i := range segs {
			a := base + math.Round(rng.Float64()*1000*8)/8 // eighths: touching ends happen
			d := []float64{0, rng.Float64() * 10, rng.Float64() * 100, rng.Float64() * 1000, 1.5, 2}[rng.IntN(6)]
			segs[i] = chromeSeg{a, a + d}
		}
		sorted := append([]chromeSeg(nil), segs...)
		slicesSortSegs(sorted)
		longest := 0.0
		for _, s := range sorted {
			longest = math.Max(longest, s.b-s.a)
		}
		merged := chromeMerge(append([]chromeSeg(nil), segs...))
		for range 20 {
			a := base + math.Round(rng.Float64()*1100*4)/4 - 50
			b := a + []float64{0, rng.Float64() * 50, rng.Float64() * 500, 37.25}[rng.IntN(4)]
			got, want := chromeUnion(merged, a, b), chromeUnionScan(sorted, longest, a, b)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("segments %v, [%v, %v]: union %v, the scan gave %v", sorted, a, b, got, want)
			}
		}
	}
}

func slicesSortSegs(ss []chromeSeg) {
	for i := 1; i < len(ss); i++ {
		for j := i; j > 0 && ss[j].a < ss[j-1].a; j-- {
			ss[j], ss[j-1] = ss[j-1], ss[j]
		}
	}
}

// TestChromeLongEvent: one compute event over the first two and a half
// steps beside each step's own. Worked by hand (us; t0 = 0):
//
//	step 0 [0, 1000]:    forward [100, 300] inside forward_long [0, 2500]: 1000 us
//	step 1 [1000, 2000]: forward_long covers it, forward [1100, 1400] too: 1000 us
//	step 2 [2000, 3000]: forward_long to 2500, forward [2500, 2600] touches it: 600 us
//	step 3 [3000, 4000]: forward [3200, 3300] and [3250, 3500] overlap: 300 us
//
// and no pull or push. The union scanned every event from the first for
// each step when one event was long (quadratic: 23 s on 100,000 steps);
// its speed is BenchmarkChromeLongEvent's (docs/performance.md).
func TestChromeLongEvent(t *testing.T) {
	trace := `{"traceEvents": [
{"name": "forward_long", "ph": "X", "ts": 0, "dur": 2500, "pid": 1, "tid": 3},
{"name": "ProfilerStep#0", "ph": "X", "ts": 0, "dur": 1000, "pid": 1, "tid": 1},
{"name": "aten::forward", "ph": "X", "ts": 100, "dur": 200, "pid": 1, "tid": 1},
{"name": "ProfilerStep#1", "ph": "X", "ts": 1000, "dur": 1000, "pid": 1, "tid": 1},
{"name": "aten::forward", "ph": "X", "ts": 1100, "dur": 300, "pid": 1, "tid": 1},
{"name": "ProfilerStep#2", "ph": "X", "ts": 2000, "dur": 1000, "pid": 1, "tid": 1},
{"name": "aten::forward", "ph": "X", "ts": 2500, "dur": 100, "pid": 1, "tid": 1},
{"name": "ProfilerStep#3", "ph": "X", "ts": 3000, "dur": 1000, "pid": 1, "tid": 1},
{"name": "aten::forward", "ph": "X", "ts": 3200, "dur": 100, "pid": 1, "tid": 1},
{"name": "aten::forward", "ph": "X", "ts": 3250, "dur": 250, "pid": 1, "tid": 1}]}`
	tr, _, err := ReadChromeTrace(bytes.NewReader([]byte(trace)), "long.json", ConvertOptions{Batch: 1})
	if err != nil {
		t.Fatal(err)
	}
	chromeCheck(t, tr, 1, []chromeWant{
		{0, 0, 0, 0.001, nan, 0.001, nan},
		{0, 1, 0.001, 0.002, nan, 0.001, nan},
		{0, 2, 0.002, 0.003, nan, 0.0006, nan},
		{0, 3, 0.003, 0.004, nan, 0.0003, nan},
	})
}

// TestChromeOutputsUnchanged: steps.csv converted from every Chrome trace
// of the testdata is byte for byte what the converter wrote before its
// union was computed from the merged intervals (2026-12-06; the hashes are
// e963d86's output).
func TestChromeOutputsUnchanged(t *testing.T) {
	want := map[string]string{
		"ps_begin_end.json":                    "38da6f211590fded4f82621826f6d658b3e827656f369ff947b85f29471fcddc",
		"pytorch_profiler.json":                "acbca06a94b9e8a3b31c89eb121170d418266485ca85dae0fa7bd92e22ce99ac",
		"pytorch_profiler.json.gz":             "acbca06a94b9e8a3b31c89eb121170d418266485ca85dae0fa7bd92e22ce99ac",
		"real-torch-profiler.pt.trace.json.gz": "d61bcd4fc9f5db5aeabf9594260fed4d69b79ea9f93fab21c8be2c3fa441ed65",
		"tf_timeline.json":                     "e55308b82f71d9ea7221cc91be60e5470a7ae6bce493a3e5318a40592e696c68",
		"r3000k-p2-n2.pt.trace.json.gz":        "d62de928071bc08828217eaed055bbc6f40f80c1371702c40a843eb29724efa6",
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "chrome", "*"))
	files = append(files, filepath.Join(testenv.RepoRoot(t), "testdata", "asgd", "samples", "chrome", "r3000k-p2-n2.pt.trace.json.gz"))
	if len(files) != len(want) {
		t.Fatalf("files %v, want the %d of the hashes", files, len(want))
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		tr, _, err := ReadChromeTrace(f, filepath.Base(path), ConvertOptions{Batch: 32})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var b bytes.Buffer
		if err := WriteSteps(&b, tr.Steps); err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%x", sha256.Sum256(b.Bytes()))
		if w := want[filepath.Base(path)]; got != w {
			t.Errorf("%s: steps.csv's sha256 %s, want %s:\n%s", path, got, w, b.String())
		}
	}
}
