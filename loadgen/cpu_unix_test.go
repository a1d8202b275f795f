//go:build unix

package loadgen

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time the process has used
// since since, and whether it could tell.
func cpuTime(since time.Duration) (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) - since, true
}
