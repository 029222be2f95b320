package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a new pseudo-terminal and returns its terminal side (the
// file a program sees as its terminal), skipping where there is none.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	_, s := openPTYPair(t)
	return s
}

// openPTYPair is openPTY with the pseudo-terminal's other side, from which
// what is written to the terminal side is read.
func openPTYPair(t *testing.T) (master, term *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no /dev/ptmx:", err)
	}
	t.Cleanup(func() { m.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skip("cannot unlock the pty:", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skip("no pty number:", e)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("cannot open the pty:", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// A terminal is told apart from other character devices: "check -" on
// /dev/null said it was reading the manifest from a terminal (the test was
// for a character device). The hint shows on a terminal, not on /dev/null
// or a pipe.
func TestIsTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	pty := openPTY(t)
	for _, c := range []struct {
		name string
		f    *os.File
		want bool
	}{{os.DevNull, null, false}, {"a pipe", r, false}, {"a terminal", pty, true}} {
		if got := isTerminal(c.f); got != c.want {
			t.Errorf("%s: isTerminal %v, want %v", c.name, got, c.want)
		}
	}
	// the command: the hint on /dev/null no more (the pty would wait for
	// input, so the command is run on /dev/null only)
	var out, errb strings.Builder
	run([]string{"sgdplan", "check", "--model", fitModel(t, t.TempDir()), "-"}, null, &out, &errb)
	if strings.Contains(errb.String(), "reading the manifest") {
		t.Errorf("check - on %s: stderr %q; want no hint", os.DevNull, errb.String())
	}
}

// predict over 10,000 rows or more draws a progress bar on a terminal
// (1-1,000,000 took minutes a shard count with no sign of life), and on a
// pipe none.
func TestPredictProgressBarOnTerminal(t *testing.T) {
	mp := fitModel(t, t.TempDir())
	args := []string{"sgdplan", "predict", "--model", mp, "--workers", strconv.Itoa(predictBarRows), "--format", "csv"}
	args[5] = "1-" + args[5]
	master, term := openPTYPair(t)
	got := make(chan string)
	go func() {
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			b.Write(buf[:n])
			if err != nil || strings.Contains(b.String(), "100%") {
				break
			}
		}
		got <- b.String()
	}()
	var out strings.Builder
	if code := run(args, strings.NewReader(""), &out, term); code != 0 {
		t.Fatalf("exit %d", code)
	}
	term.Close() // the reader sees the end
	if s := <-got; !strings.Contains(s, "predict [") || !strings.Contains(s, "100%") {
		t.Errorf("no progress bar on a terminal: %q", s)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan string)
	go func() {
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		done <- b.String()
	}()
	out.Reset()
	code := run(args, strings.NewReader(""), &out, w)
	w.Close()
	if s := <-done; code != 0 || strings.Contains(s, "predict [") {
		t.Errorf("on a pipe: exit %d, stderr %q", code, s)
	}
}
