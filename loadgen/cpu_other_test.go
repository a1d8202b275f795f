//go:build !unix

package loadgen

import "time"

// cpuTime reports that the process's CPU time is not available here: the
// benchmark then leaves out its cpu-ns/req metric.
func cpuTime(time.Duration) (time.Duration, bool) { return 0, false }
