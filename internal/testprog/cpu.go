package testprog

import (
	"testing"
	"time"

	"github.com/perflab/perflab/internal/cputime"
)

// ReportCPU reports the process's CPU time per operation since start (a
// cputime.Self reading) as cpu-ms/op: on a shared, loaded machine it says
// more than the elapsed time. It includes the garbage collector's work,
// on every core. Where the system does not tell CPU time, it reports
// nothing.
func ReportCPU(b *testing.B, start time.Duration) {
	if d := cputime.Self() - start; d > 0 {
		b.ReportMetric(float64(d)/float64(b.N)/1e6, "cpu-ms/op")
	}
}
