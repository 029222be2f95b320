// Package testenv finds, for tests, the repository root and the shared real
// data that sits beside it (../shared/data, or $SGDPLAN_DATA when set).
package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// DataEnv is the environment variable that, when set, names the shared data
// folder instead of ../shared/data beside the repository root.
const DataEnv = "SGDPLAN_DATA"

// RepoRoot returns the repository root: the nearest folder at or above the
// test's working directory that holds go.mod. It fails the test when there
// is none (a test outside the module).
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	return root
}

// DataDir returns the shared real-data folder: $SGDPLAN_DATA when set, else
// ../shared/data beside the repository root. It skips the test, with a
// message naming the folder it looked for, when that folder is absent.
func DataDir(t testing.TB) string {
	t.Helper()
	d, err := dataDir()
	if err != nil {
		t.Skipf("testenv: %v", err)
	}
	return d
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errNoGoMod
		}
		dir = parent
	}
}

var errNoGoMod = errors.New("no go.mod at or above the working directory: cannot find the repository root")

func dataDir() (string, error) {
	d := os.Getenv(DataEnv)
	if d == "" {
		root, err := repoRoot()
		if err != nil {
			return "", err
		}
		d = filepath.Join(root, "..", "shared", "data")
	}
	fi, err := os.Stat(d)
	if err != nil {
		return "", fmt.Errorf("shared data not found at %s (put shared/ beside the repository or set %s): %w", d, DataEnv, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("shared data path %s is not a folder (set %s to the data folder)", d, DataEnv)
	}
	return d, nil
}

// ShiftedAsyncPS copies testdata/synthetic/async-ps to a temporary folder
// with the start of the steps.csv row (run, worker, step) moved by by
// seconds, and returns the folder and the line of the changed row: one
// iteration that overlaps its worker's earlier ones, for the overlap
// warnings of traces (inspect) and fit.
func ShiftedAsyncPS(t testing.TB, run string, worker int, step int64, by float64) (dir string, line int) {
	t.Helper()
	src := filepath.Join(RepoRoot(t), "testdata", "synthetic", "async-ps")
	dir = t.TempDir()
	names, err := filepath.Glob(filepath.Join(src, "*.csv"))
	if err != nil || len(names) == 0 {
		t.Fatalf("testenv: glob %s: %v %v", src, names, err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(name) == "steps.csv" {
			rows := strings.Split(string(b), "\n")
			if !strings.HasPrefix(rows[0], "run,workers,ps,batch,worker,step,start,end,") {
				t.Fatalf("testenv: steps.csv header %q changed: update ShiftedAsyncPS", rows[0])
			}
			for i, r := range rows[1:] {
				f := strings.Split(r, ",")
				if len(f) < 8 || f[0] != run || f[4] != strconv.Itoa(worker) || f[5] != strconv.FormatInt(step, 10) {
					continue
				}
				start, err := strconv.ParseFloat(f[6], 64)
				if err != nil {
					t.Fatal(err)
				}
				f[6] = strconv.FormatFloat(start+by, 'g', -1, 64)
				rows[i+1] = strings.Join(f, ",")
				line = i + 2
			}
			if line == 0 {
				t.Fatalf("testenv: no row (%s, %d, %d) in %s", run, worker, step, name)
			}
			b = []byte(strings.Join(rows, "\n"))
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, line
}
