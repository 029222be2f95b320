package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
)

// removeTempsOnStop makes an interrupt (Ctrl-C) or a SIGTERM remove the
// temporary files of the outputs being written before the program stops:
// it stopped at once and left ".NAME.tmpN" files next to them. The program
// then dies of the same signal, as it would have without the handler, so
// that a shell or a script sees an interrupted command (exit status 130 for
// Ctrl-C); where a process cannot signal itself it exits with 128 + the
// signal's number.
func removeTempsOnStop() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-c
		atomicfile.RemoveTemps()
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(sig) == nil {
			time.Sleep(time.Second) // the default action ends the program
		}
		code := 128 + 2
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}()
}
