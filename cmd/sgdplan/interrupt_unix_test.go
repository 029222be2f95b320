//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
)

// interruptEnv names, in the environment of a child test process, the file
// TestInterruptChild starts to write.
const interruptEnv = "SGDPLAN_TEST_INTERRUPT_FILE"

// TestInterruptChild is the program TestInterruptRemovesTemps stops: it
// writes a file that never ends, saying "writing" once its temporary file
// exists. It does nothing in a normal test run.
func TestInterruptChild(t *testing.T) {
	path := os.Getenv(interruptEnv)
	if path == "" {
		t.Skip("run by TestInterruptRemovesTemps")
	}
	removeTempsOnStop()
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
