package main

import (
	"os"
	"syscall"
	"unsafe"
)

// isTTY reports whether f takes terminal settings (the TCGETS ioctl, as
// isatty does); known is true: Linux can tell.
func isTTY(f *os.File) (tty, known bool) {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0, true
}
