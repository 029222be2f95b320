// Package atomicfile writes files through a temporary file in the same
// folder and a rename, so that a reader never sees a half-written file
// and a failed write leaves nothing behind.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"unicode/utf8"
)

// Target returns the file a write of path replaces: path itself, or the
// file a symbolic link at path points to (followed to its end, so that the
// link stays a link). It refuses a path that is, or leads to, an existing
// folder, device, pipe or other non-regular file: a rename would put the
// output in its place.
func Target(path string) (string, error) {
	target, _, err := targetInfo(path)
	return target, err
}

// targetInfo is Target, with the file it replaces as Lstat saw it (nil when
// there is none): its mode is the new file's (keepMode).
func targetInfo(path string) (string, fs.FileInfo, error) {
	target := path
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(target)
		if errors.Is(err, fs.ErrNotExist) {
			return target, nil, nil
		}
		if err != nil {
			return "", nil, fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
		}
		switch {
		case fi.Mode().IsRegular():
			if fi.Mode().Perm()&0o222 == 0 {
				// the rename would replace it all the same (it needs the
				// folder's permission, not the file's): say so instead
				return "", nil, fmt.Errorf("%s is read-only (mode %v): refusing to replace it; make it writable (chmod u+w) or write elsewhere", path, fi.Mode().Perm())
			}
			return target, fi, nil
		case fi.Mode()&fs.ModeSymlink != 0 && hops < 40:
			link, err := os.Readlink(target)
			if err != nil {
				return "", nil, fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
			}
			if !filepath.IsAbs(link) {
				// not filepath.Join: it would clean "dir/../x" as text,
				// while the system takes ".." from where the link really is
				link = filepath.Dir(target) + string(filepath.Separator) + link
			}
			target = link
		case fi.IsDir():
			return "", nil, fmt.Errorf("%s is a folder: want the path of a file to write", path)
		case fi.Mode()&fs.ModeSymlink != 0:
			return "", nil, fmt.Errorf("%s: cannot write: too many links", path)
		default:
			return "", nil, fmt.Errorf("%s is %s, not a regular file: want the path of a file to write", path, kindOf(fi.Mode()))
		}
	}
}

// Check says, before any work is done, whether path can be written: its
// folder exists and takes a new file (a temporary one is created and
// removed: /proc exists but refuses files), and path is not a folder or
// another non-regular file.
func Check(path string) error {
	target, err := Target(path)
	if err != nil {
		return err
	}
	return checkFolder(path, filepath.Dir(target))
}

// checkFolder says whether dir exists and takes a new file, for path.
func checkFolder(path, dir string) error {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s: folder %s does not exist", path, dir)
	}
	f, err := os.CreateTemp(dir, ".sgdplan-check*")
	if err != nil {
		return fmt.Errorf("%s: cannot write in folder %s: %w", path, dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// CheckDir says, before a command's work, whether the folder dir can take
// its outputs: dir, when it exists, takes a new file; else its nearest
// existing ancestor is a folder that takes a new entry (the command makes
// dir and the folders between). report --out /sys/rep ran every
// simulation before mkdir failed.
func CheckDir(dir string) error {
	d := filepath.Clean(dir)
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s: %s is not a folder", dir, d)
			}
			return checkFolder(dir, d)
		}
		if _, lerr := os.Lstat(d); lerr == nil {
			// a link to nothing (or a loop): MkdirAll fails on it,
			// "file exists", after the command's work
			target, _ := os.Readlink(d)
			return fmt.Errorf("%s: %s is a link to %s, which is not a folder that exists", dir, d, target)
		}
		// (a path through a file, f/sub/deeper, is "not a directory":
		// the file is found on the way up)
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("%s: %w", dir, unwrapPath(err))
		}
		up := filepath.Dir(d)
		if up == d {
			return fmt.Errorf("%s: %w", dir, unwrapPath(err))
		}
		d = up
	}
}

// CheckFiles is Target for each of names in the folder dir, before a
// command writes any of them: the first that cannot be written (a folder,
// device or pipe in its place, a link into a folder that does not exist, a
// folder that takes no file) is returned with its error, so that nothing is
// written when any would fail. A missing dir is fine (the command creates
// it).
func CheckFiles(dir string, names ...string) (name string, err error) {
	_, statErr := os.Stat(dir)
	checked := map[string]bool{} // each folder is probed once
	for _, n := range names {
		path := filepath.Join(dir, n)
		target, err := Target(path)
		if err != nil {
			return n, err
		}
		td := filepath.Clean(filepath.Dir(target))
		if checked[td] || (td == filepath.Clean(dir) && statErr != nil) {
			continue // a missing dir is created by the command
		}
		if err := checkFolder(path, td); err != nil {
			return n, err
		}
		checked[td] = true
	}
	return "", nil
}

// WriteAll writes each paths[i] with writes[i], all or (nearly) none: every
// file goes to a temporary file first, and only when all are written are
// they renamed into place, so that a failure while writing (a full disk, a
// folder that refuses files) leaves none of them changed. A rename failing
// after others succeeded is the one case that leaves part of the set
// written. Its errors name the path, as Write's do.
func WriteAll(paths []string, writes []func(io.Writer) error) (err error) {
	if len(paths) != len(writes) {
		panic("atomicfile: WriteAll: paths and writes differ in length")
	}
	targets := make([]string, len(paths))
	tmps := make([]string, 0, len(paths))
	defer func() {
		if err != nil {
			for _, t := range tmps {
				os.Remove(t)
			}
		}
		forget(tmps)
	}()
	for i, path := range paths {
		target, old, err := targetInfo(path)
		if err != nil {
			return err
		}
		targets[i] = target
		tmp, err := createTemp(path, target)
		if err != nil {
			return err
		}
		tmps = append(tmps, tmp.Name())
		if err := keepMode(path, old, tmp); err != nil {
			tmp.Close()
			return err
		}
		if err := fill(path, tmp, writes[i]); err != nil {
			return err
		}
	}
	synced := map[string]bool{}
	for i, t := range tmps {
		if err := rename(t, targets[i]); err != nil {
			return fmt.Errorf("%s: %w", paths[i], unwrapPath(err))
		}
		if dir := filepath.Dir(targets[i]); !synced[dir] {
			synced[dir] = true
			syncDir(dir)
		}
	}
	return nil
}

// syncDir asks that the renames into dir reach the disk, so that a crash
// soon after a write does not bring back the old file. Best effort: some
// systems cannot sync a folder (Windows, some network file systems), and
// the write itself has succeeded.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// maxTempName bounds the bytes of a temporary file's name: a name of up
// to 255 bytes (NAME_MAX) may be written, and "."+name+".tmp"+digits was
// longer than the system takes ("file name too long" for a name it takes).
const maxTempName = 255

// createTemp creates the temporary file of a write of path (whose file is
// target) in target's folder: ".NAME.tmpDIGITS", NAME cut short when the
// whole would be longer than maxTempName. It is created with mode 0644
// less the umask, as os.WriteFile would create the file (keepMode then
// gives it an existing file's mode).
func createTemp(path, target string) (*os.File, error) {
	dir := filepath.Dir(target)
	base := filepath.Base(target)
	const suffix = 1 + len(".tmp") + 10 // ".", ".tmp", a uint32's digits
	if len(base) > maxTempName-suffix {
		base = base[:maxTempName-suffix]
		// not inside a character: drop the bytes of one cut short (at most
		// 3), not every byte back to an invalid one earlier in the name
		for range utf8.UTFMax - 1 {
			if r, size := utf8.DecodeLastRuneInString(base); r != utf8.RuneError || size != 1 {
				break
			}
			base = base[:len(base)-1]
		}
	}
	var (
		tmp *os.File
		err error
	)
	lockLive()
	defer live.Unlock()
	for range 10000 {
		name := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		tmp, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err == nil {
		live.names[tmp.Name()] = true
	}
	if err != nil {
		if fi, serr := os.Stat(dir); serr != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s: cannot write: folder %s does not exist", path, dir)
		}
		return nil, fmt.Errorf("%s: cannot write in folder %s: %w", path, dir, unwrapPath(err))
	}
	return tmp, nil
}

// live holds the temporary files being written, for RemoveTemps; once
// closed, no new one is created.
var live = struct {
	sync.Mutex
	names  map[string]bool
	closed bool
}{names: map[string]bool{}}

// forget drops names, renamed or removed, from live.
func forget(names []string) {
	live.Lock()
	defer live.Unlock()
	for _, n := range names {
		delete(live.names, n)
	}
}

// rename renames the temporary file tmp to target, unless the program is
// stopping (RemoveTemps): tmp is then gone, and the write waits for the
// end instead of failing ("m.json: no such file or directory", exit 1,
// where the program was about to die of its signal).
func rename(tmp, target string) error {
	lockLive()
	defer live.Unlock()
	return os.Rename(tmp, target)
}

// lockLive locks live, unless the program is stopping (RemoveTemps): it
// then waits for the end (waitForStop).
func lockLive() {
	live.Lock()
	if live.closed {
		live.Unlock()
		waitForStop()
	}
}

// waitForStop blocks the calling goroutine for good: the program is
// stopping (RemoveTemps), and a write must neither land nor fail with an
// error the program would report and exit on before its signal ends it.
var waitForStop = func() { select {} }

// Track registers name, a temporary file made outside Write that must not
// outlive the program (predict's spill of rows, where the system cannot
// unlink an open file), so that RemoveTemps removes it too; Untrack drops
// it once it is removed.
func Track(name string) {
	lockLive()
	defer live.Unlock()
	live.names[name] = true
}

// Untrack drops name from the files RemoveTemps removes (Track).
func Untrack(name string) { forget([]string{name}) }

// RemoveTemps removes the temporary files of the writes in progress, for a
// program that is about to end (an interrupt: without it Ctrl-C in the
// middle of a write left a ".NAME.tmpN" file behind). Every write still
// running, or started later, then waits for good instead of renaming or
// failing: call it only when the program ends next. A write whose rename
// has already happened is not undone.
func RemoveTemps() {
	live.Lock()
	defer live.Unlock()
	live.closed = true
	for n := range live.names {
		os.Remove(n)
		delete(live.names, n)
	}
}

// keepMode gives tmp the permissions of old, the file it replaces (nil:
// none), and its owner where the system allows (keepOwner), as an editor
// keeps them when it saves: a private 0600 file stays private (every
// write made it 0644), a 0664 one stays group-writable. The setuid, setgid
// and sticky bits are not kept, as the system itself clears the first two
// when a file is written: an output is data, not a program.
func keepMode(path string, old fs.FileInfo, tmp *os.File) error {
	if old == nil {
		return nil // a new file: createTemp's mode
	}
	keepOwner(old, tmp) // first: a chown may clear mode bits
	if err := tmp.Chmod(old.Mode().Perm()); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// fill writes tmp with write and closes it; on error it closes it and
// leaves its removal to the caller.
func fill(path string, tmp *os.File, write func(io.Writer) error) error {
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	// on disk before the rename: after a crash the name holds the old
	// file or the whole new one, never an empty or partial one (the
	// rename can reach the disk before the data on some file systems)
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// Write writes path with write, atomically: a new file gets mode 0644 less
// the umask, a replaced one keeps its permissions and, as far as the system
// allows, its owner and group (keepMode). The rename makes a new file: other
// hard links to the old one keep the old contents. Its errors name
// path, never the temporary file. A symbolic link at path is followed (the
// file it points to is replaced, the link stays); a folder or another
// non-regular file at path is refused (Target).
func Write(path string, write func(io.Writer) error) (err error) {
	return WriteAll([]string{path}, []func(io.Writer) error{write})
}

// WriteFile is Write of data.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// unwrapPath drops the temporary file's name from a path error.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// kindOf names the kind of a non-regular, non-folder file.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
