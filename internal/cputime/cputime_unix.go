//go:build unix

// Package cputime reads the CPU time the process has used, where the
// system tells it.
package cputime

import (
	"syscall"
	"time"
)

// Self returns the user and system CPU time the process has used.
func Self() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
