package http1

import "syscall"

var errConnReset error = syscall.ECONNRESET
