package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A write lands whole, mode 0644; a failed one leaves neither the file
// nor a temporary one, and its error names the path, not the temporary.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if err := WriteFile(p, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "{}\n" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	// a writer that fails half-way: the old file stays, nothing else
	err := Write(p, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("disk on fire")
	})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "disk on fire") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("failed write: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "{}\n" {
		t.Errorf("the old file became %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	// a folder that does not exist
	q := filepath.Join(dir, "no", "x.png")
	err = WriteFile(q, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), q) || !strings.Contains(err.Error(), "does not exist") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("missing folder: %v", err)
	}
}
