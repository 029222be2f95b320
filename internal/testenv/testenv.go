// Package testenv finds, for tests, the repository root and the shared real
// data that sits beside it (../shared/data, or $SGDPLAN_DATA when set).
package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
