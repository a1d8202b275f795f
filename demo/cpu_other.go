//go:build !unix

package demo

import "time"

// cpuTime returns 0 where the process's CPU time is not available; the
// demo then leaves the CPU row out.
func cpuTime() time.Duration { return 0 }
