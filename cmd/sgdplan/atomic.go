package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
)

// writeFileAtomic writes data to path through a temporary file in the same
// folder and a rename, so that a reader never sees a half-written file.
func writeFileAtomic(path string, data []byte) error {
	return atomicfile.WriteFile(path, data)
}

// notAFile refuses an output folder (the command cmd's --out) that is an
// existing file: bad input, before any work is done.
func notAFile(cmd, out string) error {
	if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
		return badInput(fmt.Errorf("%s: --out %s is a file: --out must be a folder (created when missing)", cmd, out))
	}
	return nil
}

// outFolder checks, before any work is done, that the output file path
// (the flag's value) can be written: its folder exists and it is not a
// folder, device or pipe. A command then fails before writing any of its
// outputs instead of after some.
func outFolder(cmd, flag, path string) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return badInput(fmt.Errorf("%s: --%s %s: folder %s does not exist", cmd, flag, path, dir))
	}
	if _, err := atomicfile.Target(path); err != nil {
		return badInput(fmt.Errorf("%s: --%s %w", cmd, flag, err))
	}
	return nil
}
