//go:build unix

package serverbench

import "syscall"

// stopSignal asks a server to flush and exit.
var stopSignal = syscall.SIGTERM
