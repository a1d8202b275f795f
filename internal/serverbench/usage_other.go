//go:build !linux

package serverbench

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrNoUsage is returned where a process's usage cannot be read.
var ErrNoUsage = errors.New("a process's CPU time and peak RSS are read from Linux's /proc")

// ReadUsage needs Linux's /proc: elsewhere it returns ErrNoUsage.
func ReadUsage(pid int) (Usage, error) {
	return Usage{}, fmt.Errorf("serverbench: process %d on %s: %w", pid, runtime.GOOS, ErrNoUsage)
}
