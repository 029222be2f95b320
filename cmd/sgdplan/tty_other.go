//go:build !linux

package main

import "os"

// isTTY cannot tell a terminal from another character device here: known
// is false, and any character device counts as one.
func isTTY(f *os.File) (tty, known bool) { return false, false }
