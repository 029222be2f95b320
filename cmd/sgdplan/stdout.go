package main

import "io"

// stickyWriter writes to w and keeps the first error of its writes; every
// write after it fails with that error, unwritten. A command prints its
// lines to one and returns err at the end (exit 1, "sgdplan: write
// /dev/stdout: no space left on device"), so that no line's error is
// dropped: check printed its verdict to a full disk and exited with the
// verdict's code, as if it had been read.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	s.err = err
	return n, err
}
