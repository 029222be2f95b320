//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// keepOwner does nothing where files have no Unix owner.
func keepOwner(old fs.FileInfo, tmp *os.File) {}
