// Package atomicfile writes files through a temporary file in the same
// folder and a rename, so that a reader never sees a half-written file
// and a failed write leaves nothing behind.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Target returns the file a write of path replaces: path itself, or the
// file a symbolic link at path points to (followed to its end, so that the
// link stays a link). It refuses a path that is, or leads to, an existing
// folder, device, pipe or other non-regular file: a rename would put the
// output in its place.
func Target(path string) (string, error) {
	target := path
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(target)
		if errors.Is(err, fs.ErrNotExist) {
			return target, nil
		}
		if err != nil {
			return "", fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
		}
		switch {
		case fi.Mode().IsRegular():
			return target, nil
		case fi.Mode()&fs.ModeSymlink != 0 && hops < 40:
			link, err := os.Readlink(target)
			if err != nil {
				return "", fmt.Errorf("%s: cannot write: %w", path, unwrapPath(err))
			}
			if !filepath.IsAbs(link) {
				// not filepath.Join: it would clean "dir/../x" as text,
				// while the system takes ".." from where the link really is
				link = filepath.Dir(target) + string(filepath.Separator) + link
			}
			target = link
		case fi.IsDir():
			return "", fmt.Errorf("%s is a folder: want the path of a file to write", path)
		case fi.Mode()&fs.ModeSymlink != 0:
			return "", fmt.Errorf("%s: cannot write: too many links", path)
		default:
			return "", fmt.Errorf("%s is %s, not a regular file: want the path of a file to write", path, kindOf(fi.Mode()))
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
	}()
	for i, path := range paths {
		target, err := Target(path)
		if err != nil {
			return err
		}
		targets[i] = target
		tmp, err := createTemp(path, target)
		if err != nil {
			return err
		}
		tmps = append(tmps, tmp.Name())
		if err := fill(path, tmp, writes[i]); err != nil {
			return err
		}
	}
	for i, t := range tmps {
		if err := os.Rename(t, targets[i]); err != nil {
			return fmt.Errorf("%s: %w", paths[i], unwrapPath(err))
		}
	}
	return nil
}

// createTemp creates the temporary file of a write of path (whose file is
// target) in target's folder.
func createTemp(path, target string) (*os.File, error) {
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp*")
	if err != nil {
		if fi, serr := os.Stat(dir); serr != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s: cannot write: folder %s does not exist", path, dir)
		}
		return nil, fmt.Errorf("%s: cannot write in folder %s: %w", path, dir, unwrapPath(err))
	}
	return tmp, nil
}

// fill writes tmp with write, mode 0644, and closes it; on error it closes
// it and leaves its removal to the caller.
func fill(path string, tmp *os.File, write func(io.Writer) error) error {
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// Write writes path with write, atomically, mode 0644. Its errors name
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
