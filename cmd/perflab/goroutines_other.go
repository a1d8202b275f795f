//go:build !unix

package main

import "os"

// dumpSignals is empty: there is no SIGQUIT to ask a program for a dump.
var dumpSignals []os.Signal
