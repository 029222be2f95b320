package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
)

// removeTempsOnStop makes an interrupt (Ctrl-C), a SIGTERM or a SIGHUP (the
// terminal closed) remove the temporary files of the outputs being written
// before the program stops: it stopped at once and left ".NAME.tmpN" files
// next to them. Writes under way then wait for the end (they neither land
// nor fail, so the program does not exit 1 with an error first), and the
// program dies of the same signal, as it would have without the handler,
// so that a shell or a script sees an interrupted command (exit status 130
// for Ctrl-C); where a process cannot signal itself it exits with 128 + the
// signal's number. A signal the program was started ignoring (a job put in
// the background by a script, nohup) stays ignored.
func removeTempsOnStop() {
	var sigs []os.Signal
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, sigs...)
	go func() {
		sig := <-c
		atomicfile.RemoveTemps()
		signal.Reset(sigs...)
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
