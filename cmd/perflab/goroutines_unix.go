//go:build unix

package main

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// ownProcessGroup puts the program in a process group of its own, so that
// the terminal's Ctrl-\ and Ctrl-C reach perflab alone, which forwards
// them once (see forwardSignals).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// forwardSignals passes SIGQUIT, SIGINT and SIGTERM on to p until stop is
// called: SIGQUIT makes a Go program print every goroutine and exit.
func forwardSignals(p *os.Process) (stop func()) {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGQUIT, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-ch:
				_ = p.Signal(sig)
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
