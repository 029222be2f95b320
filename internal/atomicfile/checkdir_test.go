package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CheckDir takes a folder that exists or can be made, and refuses one
// under a file or in a folder that takes no entry (/proc), naming it.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{dir, filepath.Join(dir, "new"), filepath.Join(dir, "a", "b", "c")} {
		if err := CheckDir(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Skip("no symbolic links:", err)
	}
	defer os.Remove(dangling)
	for bad, want := range map[string]string{
		dangling:                             dangling + " is a link to " + filepath.Join(dir, "nowhere") + ", which is not a folder that exists",
		filepath.Join(dangling, "sub"):       dangling + " is a link to",
		filepath.Join(file, "sub"):           file + " is not a folder",
		filepath.Join(file, "sub", "deeper"): file + " is not a folder",
		"/proc/sgdplan-no/rep":               "cannot write in folder /proc",
	} {
		if err := CheckDir(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", bad, err, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the checks left %d entries in %s, want the file and the link alone", len(entries), dir)
	}
}
