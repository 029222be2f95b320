//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
)

// interruptEnv names, in the environment of a child test process, the file
// TestInterruptChild starts to write; interruptLoopEnv, set, makes it write
// the file again and again, exiting 1 on an error as a command does.
const (
	interruptEnv     = "SGDPLAN_TEST_INTERRUPT_FILE"
	interruptLoopEnv = "SGDPLAN_TEST_INTERRUPT_LOOP"
)

// TestInterruptChild is the program TestInterruptRemovesTemps stops: it
// writes a file that never ends, saying "writing" once its temporary file
// exists. It does nothing in a normal test run.
func TestInterruptChild(t *testing.T) {
	path := os.Getenv(interruptEnv)
	if path == "" {
		t.Skip("run by TestInterruptRemovesTemps")
	}
	removeTempsOnStop()
	if os.Getenv(interruptLoopEnv) != "" {
		os.Stdout.WriteString("writing\n")
		data := make([]byte, 1<<20)
		for {
			if err := atomicfile.WriteFile(path, data); err != nil {
				os.Stderr.WriteString(err.Error() + "\n")
				os.Exit(1)
			}
		}
	}
	err := atomicfile.Write(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, "half a model"); err != nil {
			return err
		}
		os.Stdout.WriteString("writing\n")
		select {} // stopped here by the signal
	})
	t.Fatalf("the write returned (%v): the signal should have stopped the program", err)
}

// Ctrl-C or SIGTERM in the middle of a write leaves neither the output nor
// its temporary file, and the program dies of the signal: it left
// ".model.json.tmpN" behind.
func TestInterruptRemovesTemps(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestInterruptChild$")
		cmd.Env = append(os.Environ(), interruptEnv+"="+filepath.Join(dir, "model.json"))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || line != "writing\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child said %q, %v", line, err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 1 {
			t.Fatalf("while writing the folder holds %d files, want the temporary one", len(left))
		}
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%v: child ended with %v, want death by the signal", sig, err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: child ended with %v, want death by the signal", sig, err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%v: left %v in the output folder", sig, left[0].Name())
		}
	}
}

// startChild starts TestInterruptChild writing a file in dir (loop: again
// and again), through sh when shPrefix is not "" (to set what the child
// starts with), and waits until it says it is writing.
func startChild(t *testing.T, dir string, loop bool, shPrefix string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestInterruptChild$")
	if shPrefix != "" {
		cmd = exec.Command("/bin/sh", "-c", shPrefix+` exec "$0" -test.run='^TestInterruptChild$'`, os.Args[0])
	}
	cmd.Env = append(os.Environ(), interruptEnv+"="+filepath.Join(dir, "model.json"))
	if loop {
		cmd.Env = append(cmd.Env, interruptLoopEnv+"=1")
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start the child:", err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "writing\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q, %v (stderr %q)", line, err, errb.String())
	}
	return cmd
}

// diedOf says whether the child's end (err of Wait) is death by sig.
func diedOf(err error, sig syscall.Signal) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// A signal while a command writes and renames in a loop ends it by the
// signal every time: a write that found its temporary file removed failed,
// and the command exited 1 with "model.json: no such file or directory"
// (or "not written: the program is stopping") before the signal ended it.
func TestInterruptDuringRenames(t *testing.T) {
	for i := range 8 {
		dir := t.TempDir()
		cmd := startChild(t, dir, true, "")
		time.Sleep(time.Duration(i) * 7 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		if err := cmd.Wait(); !diedOf(err, syscall.SIGINT) {
			t.Errorf("try %d: child ended with %v (stderr %v), want death by SIGINT", i, err, cmd.Stderr)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.Name() != "model.json" {
				t.Errorf("try %d: left %s", i, e.Name())
			}
		}
	}
}

// A signal the program was started ignoring stays ignored (a script's
// background job, "trap ” INT"): the handler made such a program die of
// Ctrl-C on the script.
func TestInterruptIgnoredStaysIgnored(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	cmd := startChild(t, t.TempDir(), false, `trap "" INT;`)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("an ignored SIGINT ended the program (%v)", err)
	case <-time.After(1500 * time.Millisecond): // the handler, were it there, exits after 1 s
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := <-done; !diedOf(err, syscall.SIGTERM) {
		t.Errorf("child ended with %v, want death by SIGTERM", err)
	}
}
