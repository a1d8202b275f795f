//go:build unix

package pprofproto

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU reports the process's CPU time (user+sys, GC included) per
// operation since start, a steadier figure than elapsed time on a busy
// machine.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
