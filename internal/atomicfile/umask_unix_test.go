//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A new file gets 0644 less the umask, as os.WriteFile and an editor
// create it: under umask 077 it was 0644, readable by all.
func TestWriteNewFileUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	p := filepath.Join(t.TempDir(), "m.json")
	if err := WriteFile(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("new file under umask 077: mode %v, want -rw-------", fi.Mode().Perm())
	}
}
