//go:build !unix

package serverbench

import "os"

// stopSignal asks a server to flush and exit: where there is no SIGTERM,
// os.Interrupt (which Windows cannot send either: Stop then kills it).
var stopSignal = os.Interrupt
