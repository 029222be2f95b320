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

// A replaced file keeps its owner and group: root rewriting another user's
// model.json made it root's. Root keeps both; another user can keep only a
// group of theirs, so the test needs root or a second group.
func TestWriteKeepsOwner(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	uid, gid := os.Geteuid(), os.Getegid()
	if uid == 0 {
		uid, gid = 4321, 4322
	} else {
		groups, _ := os.Getgroups()
		other := -1
		for _, g := range groups {
			if g != gid {
				other = g
			}
		}
		if other < 0 {
			t.Skip("not root and in one group only: no owner to keep that differs from a new file's")
		}
		gid = other
	}
	if err := os.Chown(p, uid, gid); err != nil {
		t.Skip("cannot give the file another owner here:", err)
	}
	if err := WriteFile(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	st := fi.Sys().(*syscall.Stat_t)
	if b, _ := os.ReadFile(p); int(st.Uid) != uid || int(st.Gid) != gid || string(b) != "new" {
		t.Errorf("after the write: owner %d:%d holding %q, want %d:%d holding \"new\"", st.Uid, st.Gid, b, uid, gid)
	}
}
