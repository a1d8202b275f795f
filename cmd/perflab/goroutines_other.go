//go:build !unix

package main

import (
	"os"
	"os/exec"
	"os/signal"
)

// ownProcessGroup does nothing where there are no process groups.
func ownProcessGroup(cmd *exec.Cmd) {}

// forwardSignals passes an interrupt on to p, killing it (the only signal
// there is to send); there is no SIGQUIT to ask for a dump.
func forwardSignals(p *os.Process) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			_ = p.Kill()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
