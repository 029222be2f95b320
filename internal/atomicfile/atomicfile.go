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
// folder exists and path is not a folder or another non-regular file.
func Check(path string) error {
	target, err := Target(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s: cannot write: folder %s does not exist", path, dir)
	}
	return nil
}

// CheckFiles is Target for each of names in the folder dir, before a
// command writes any of them: the first that cannot be written (a folder,
// device or pipe in its place) is returned with Target's error, so that
// nothing is written when any would fail. A missing dir is fine.
func CheckFiles(dir string, names ...string) (name string, err error) {
	for _, n := range names {
		if _, err := Target(filepath.Join(dir, n)); err != nil {
			return n, err
		}
	}
	return "", nil
}

// Write writes path with write, atomically, mode 0644. Its errors name
// path, never the temporary file. A symbolic link at path is followed (the
// file it points to is replaced, the link stays); a folder or another
// non-regular file at path is refused (Target).
func Write(path string, write func(io.Writer) error) (err error) {
	target, err := Target(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: cannot write: folder %s does not exist", path, filepath.Dir(target))
		}
		return fmt.Errorf("%s: cannot write: %w", path, err)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := write(tmp); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := os.Rename(name, target); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
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
