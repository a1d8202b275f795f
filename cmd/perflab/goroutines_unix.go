//go:build unix

package main

import (
	"os"
	"syscall"
)

// dumpSignals are passed on to a program perflab goroutines runs: SIGQUIT
// (Ctrl-\) makes a Go program print every goroutine and exit.
var dumpSignals = []os.Signal{syscall.SIGQUIT}
