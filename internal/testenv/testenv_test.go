package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRepoRoot(t *testing.T) {
	root := RepoRoot(t)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(mod), "module github.com/sgdplan/sgdplan\n") {
		t.Errorf("RepoRoot = %s: its go.mod starts %.40q, want module github.com/sgdplan/sgdplan", root, mod)
	}
	// this package's folder is two below the root
	wd, _ := os.Getwd()
	if want := filepath.Dir(filepath.Dir(wd)); root != want {
		t.Errorf("RepoRoot = %s, want %s", root, want)
	}
}

func TestDataDirFromEnv(t *testing.T) {
	d := t.TempDir()
	t.Setenv(DataEnv, d)
	if got := DataDir(t); got != d {
		t.Errorf("DataDir with %s=%s: %s", DataEnv, d, got)
	}
}

// A missing folder skips (not fails) the test that asked, with a message
// naming the folder.
func TestDataDirSkipsWhenAbsent(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	t.Setenv(DataEnv, missing)
	var reached bool
	var inner *testing.T
	t.Run("inner", func(t *testing.T) {
		inner = t
		DataDir(t)
		reached = true
	})
	if !inner.Skipped() || reached {
		t.Errorf("DataDir(%s): skipped %v, returned %v; want a skip", missing, inner.Skipped(), reached)
	}
	if _, err := dataDir(); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("dataDir error %v, want one naming %s", err, missing)
	}
}

func TestDataDirDefault(t *testing.T) {
	t.Setenv(DataEnv, "")
	want := filepath.Join(RepoRoot(t), "..", "shared", "data")
	d, err := dataDir()
	if _, statErr := os.Stat(want); statErr != nil {
		if err == nil {
			t.Errorf("dataDir = %s with %s absent, want an error", d, want)
		}
		return
	}
	if err != nil || d != want {
		t.Errorf("dataDir = %s, %v; want %s", d, err, want)
	}
}
