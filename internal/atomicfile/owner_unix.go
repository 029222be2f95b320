//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives tmp the owner and group of old, the file it replaces, as
// far as the system lets us: root keeps both (a model.json of another user
// rewritten by root became root's), another user keeps the group when it
// is one of theirs. What cannot be kept is not an error: the file is
// written, owned by whoever wrote it, as a new file would be.
func keepOwner(old fs.FileInfo, tmp *os.File) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	uid, gid := int(st.Uid), int(st.Gid)
	if now, err := tmp.Stat(); err == nil {
		if ns, ok := now.Sys().(*syscall.Stat_t); ok && int(ns.Uid) == uid && int(ns.Gid) == gid {
			return
		}
	}
	if tmp.Chown(uid, gid) != nil {
		tmp.Chown(-1, gid)
	}
}
